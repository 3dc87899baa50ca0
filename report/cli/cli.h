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

/* The options a command takes, one bit each (cli_parse's allowed). */
typedef uint64_t cli_opts;
#define CO_FROM       ((cli_opts)1 << 0)
#define CO_TO         ((cli_opts)1 << 1)
#define CO_HOST       ((cli_opts)1 << 2)
#define CO_EVERY      ((cli_opts)1 << 3)
#define CO_ANNOTATE   ((cli_opts)1 << 4)
#define CO_PEAK       ((cli_opts)1 << 5)
#define CO_THRESHOLD  ((cli_opts)1 << 6)
#define CO_STRICT     ((cli_opts)1 << 7)
#define CO_BUCKETS    ((cli_opts)1 << 8)
#define CO_BURST_C    ((cli_opts)1 << 9)
#define CO_HOST_PEAK  ((cli_opts)1 << 10)
#define CO_BY         ((cli_opts)1 << 11)
#define CO_DEPTH      ((cli_opts)1 << 12)
#define CO_FS         ((cli_opts)1 << 13)
#define CO_PROJECT    ((cli_opts)1 << 14)
#define CO_TARGET     ((cli_opts)1 << 15)
#define CO_METRIC     ((cli_opts)1 << 16)
#define CO_SNAPSHOT   ((cli_opts)1 << 17)
#define CO_EXCLUDE    ((cli_opts)1 << 18)
#define CO_THREADS    ((cli_opts)1 << 19)
#define CO_PROGRESS   ((cli_opts)1 << 20)
#define CO_OUT        ((cli_opts)1 << 21)
#define CO_BUNDLE     ((cli_opts)1 << 22)
#define CO_FORMAT     ((cli_opts)1 << 23)
#define CO_TABLE      ((cli_opts)1 << 24)
#define CO_TITLE      ((cli_opts)1 << 25)
#define CO_NOW        ((cli_opts)1 << 26)
#define CO_QUARTER    ((cli_opts)1 << 27)
#define CO_DBGROUP    ((cli_opts)1 << 28)
#define CO_NOPATHS    ((cli_opts)1 << 29)
#define CO_DAYS       ((cli_opts)1 << 30)
#define CO_COLUMNS    ((cli_opts)1 << 31)
#define CO_FACTOR     ((cli_opts)1 << 32)
#define CO_PRUNE      ((cli_opts)1 << 33)	/* --keep-daily ... --dry-run */
#define CO_FORCE      ((cli_opts)1 << 34)	/* forget --force */
#define CO_HORIZON    ((cli_opts)1 << 35)	/* report --horizon */
#define CO_LOCK       ((cli_opts)1 << 36)	/* --lock, --lock-wait */
#define CO_IFCONF     ((cli_opts)1 << 37)	/* metrics --if-configured */
#define CO_TOP        ((cli_opts)1 << 38)	/* --top N */

struct command;

struct cli {
	const struct command *cmd;
	const char *db;
	enum fmt_kind format;
	const char *table;		/* --table KEY */
	const char *cols[CLI_MAX_LIST];	/* --columns: the keys */
	size_t ncols;
	int cols_add;			/* --columns +LIST */
	char *cols_buf;			/* the keys' text */
	int wide;			/* --wide */
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
	int lock;			/* --lock or --lock-wait */
	unsigned lock_wait;		/* --lock-wait SECONDS */
	int if_configured;		/* metrics --if-configured */
	int top_given;			/* --top N given (an.top) */
	char **args;			/* positional arguments */
	int nargs;
	int64_t *ids;			/* forget's ids, read from args */
	char **fs_found;		/* --fs ROOT: the names it meant */
	size_t nfs_found;
};

void cli_init(struct cli *a, const struct command *cmd);
/* Parse argv (argv[0] is the command name), accepting --db, --help and
 * the options of `allowed`. 0 parsed; 1 help was printed (exit 0); -1
 * usage error, reported on stderr as "iocensus NAME: why". */
int cli_parse(struct cli *a, const char *name, const char *argspec,
    cli_opts allowed, int argc, char **argv);
/* Positional arguments of the command (diff A B, forget ID...). 0 or -1
 * (reported). */
int cli_command_args(struct cli *a, const char *name);
int cli_error_is_usage(const char *err);
void cli_free(struct cli *a);

#endif
