/*
 * cli: the command line of iocensus: one option table for every command,
 * each command accepting the subset it lists.
 */
#ifndef IOCENSUS_CLI_H
#define IOCENSUS_CLI_H

#include <stdint.h>

#include "opts/opts.h"
#include "render/render.h"

#define CLI_EXIT_PARTIAL 1
#define CLI_EXIT_USAGE   2
#define CLI_EXIT_FATAL   3

#define CLI_MAX_LIST 64

enum cli_opt {
	CO_FROM = 1u << 0, CO_TO = 1u << 1, CO_HOST = 1u << 2,
	CO_EVERY = 1u << 3, CO_ANNOTATE = 1u << 4, CO_PEAK = 1u << 5,
	CO_THRESHOLD = 1u << 6, CO_STRICT = 1u << 7, CO_BUCKETS = 1u << 8,
	CO_BURST_C = 1u << 9, CO_HOST_PEAK = 1u << 10, CO_BY = 1u << 11,
	CO_DEPTH = 1u << 12, CO_FS = 1u << 13, CO_PROJECT = 1u << 14,
	CO_TARGET = 1u << 15, CO_METRIC = 1u << 16, CO_SNAPSHOT = 1u << 17,
	CO_EXCLUDE = 1u << 18, CO_THREADS = 1u << 19, CO_PROGRESS = 1u << 20,
	CO_OUT = 1u << 21, CO_BUNDLE = 1u << 22, CO_FORMAT = 1u << 23,
	CO_TABLE = 1u << 24, CO_TITLE = 1u << 25, CO_NOW = 1u << 26,
	CO_QUARTER = 1u << 27, CO_DBGROUP = 1u << 28, CO_NOPATHS = 1u << 29,
	CO_DAYS = 1u << 30, CO_HORIZON = 1u << 31
};

struct command;

struct cli {
	const struct command *cmd;
	const char *db;
	enum fmt_kind format;
	const char *table;		/* --table KEY */
	struct opts an;
	const char *hosts[CLI_MAX_LIST];
	const char *excludes[CLI_MAX_LIST];
	const char *fss[CLI_MAX_LIST];	/* report --fs, repeatable */
	const char *projects[CLI_MAX_LIST];	/* report --project */
	size_t nfss, nprojects;
	int64_t horizon;		/* report --horizon DAYS (default 90) */
	int64_t edges[CLI_MAX_LIST];
	uint64_t burst_c[CLI_MAX_LIST];
	struct annotation *ann;
	size_t nann;
	struct opts_target target;
	int threads, progress;
	int quarter, window;		/* --quarter; --from or --to */
	int quiet;			/* --quiet given */
	int64_t now;			/* --now; 0: not given */
	int has_now;
	const char *out, *bundle, *title;
	uint32_t db_group;		/* --db-group; (uint32_t)-1: own */
	char **args;			/* positional arguments */
	int nargs;
};

void cli_init(struct cli *a, const struct command *cmd);
/* Parse argv (argv[0] is the command name), accepting --db, --help and
 * the options of `allowed`. 0 parsed; 1 help was printed (exit 0); -1
 * usage error, reported on stderr as "iocensus NAME: why". */
int cli_parse(struct cli *a, const char *name, const char *argspec,
    unsigned allowed, int argc, char **argv);
/* Positional arguments of the command (diff A B). 0 or -1 (reported). */
int cli_command_args(struct cli *a, const char *name);
int cli_error_is_usage(const char *err);
void cli_free(struct cli *a);

#endif
