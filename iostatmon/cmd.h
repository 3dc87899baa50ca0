/*
 * cmd: the iostatmon subcommands, dispatched by main.c. Each takes the
 * argument vector after the subcommand name's position (argv[0] is the
 * subcommand) and returns the process exit status.
 */
#ifndef IOSTATMON_CMD_H
#define IOSTATMON_CMD_H

int devices_cmd(int argc, char **argv);
int dump_cmd(int argc, char **argv);
int import_cmd(int argc, char **argv);

#endif
