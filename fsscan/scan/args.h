/*
 * args: the command line shared by fsscan and fsscan-mpi.
 */
#ifndef FSSCAN_ARGS_H
#define FSSCAN_ARGS_H

#include <stdint.h>
#include <stdio.h>

#define EXIT_PARTIAL 1
#define EXIT_USAGE   2
#define EXIT_FATAL   3
#define ARGS_MAX_LIST 64
#define ARGS_MAX_RATE INT64_MAX	/* --max-rate: ranks add 1 each */

struct args {
	const char *db, *fs, *csv, *root, *limits;
	const char *projects[ARGS_MAX_LIST];
	int nprojects;
	const char *excludes[ARGS_MAX_LIST];
	int nexcludes;
	int threads, dirs, cross, max_fds, topn, progress, verbose, links;
	int stat_cached;
	uint64_t max_rate;
	int64_t now, as_of;
	uint32_t db_group;	/* a new database's group; (uint32_t)-1: own */
	int have_now, have_as_of;
};

void args_usage(FILE *f, const char *prog);
/* Returns 0 to run, 1 after --help/--version, -1 on a usage error (with a
 * message naming prog on stderr). */
int args_parse(int argc, char **argv, const char *prog, struct args *a);
/* Default walker threads for a file system type, when share processes
 * run on the node. */
int args_default_threads(const char *fstype, int share);
/* Directory fds to hold: wanted, kept below RLIMIT_NOFILE (raised to its
 * hard limit) with a margin for the database and the CSV. */
int args_fd_budget(int wanted);
/* The command line as one string, for the snapshot's provenance. */
char *args_command_line(int argc, char **argv);

#endif
