/*
 * scan: one scan, the public header of fsscan/scan/, the room of the
 * program fsscan (main.c) and of what fsscan-mpi shares with it: the
 * command line (args.c) and the steps around the walk (scan.c).
 */
#ifndef FSSCAN_SCAN_H
#define FSSCAN_SCAN_H

#include <limits.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>

#include "fsident.h"
#include "project/project.h"
#include "record/record.h"
#include "walk/walk.h"

/*
 * args.c: the command line shared by fsscan and fsscan-mpi.
 */

#define EXIT_PARTIAL 1
#define EXIT_USAGE   2
#define EXIT_FATAL   3
#define ARGS_MAX_LIST 64
#define ARGS_MAX_RATE INT64_MAX	/* --max-rate: ranks add 1 each */
#define ARGS_COLD_DEFAULT "30,90,180,365"	/* --cold */

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
	uint32_t cold[ACCOUNT_COLD_MAX];	/* --cold, days ascending */
	int ncold;
	uint32_t db_group;	/* a new database's group; (uint32_t)-1: own */
	int have_now, have_as_of;
	int lock;		/* --lock or --lock-wait */
	int quiet;		/* --quiet: a held lock skips silently */
	unsigned lock_wait;	/* --lock-wait SECONDS */
	unsigned given;		/* ARGS_GIVEN_*: on the command line */
};
#define ARGS_GIVEN_COLD		1u
#define ARGS_GIVEN_DIRS		2u
#define ARGS_GIVEN_MAX_RATE	4u

void args_usage(FILE *f, const char *prog);
/* Returns 0 to run, 1 after --help/--version, -1 on a usage error (with a
 * message naming prog on stderr). Reads the configuration file
 * (lib/conf.h): the file system of --fs NAME without ROOT, or whose root
 * is ROOT, gives what the command line left unset. */
int args_parse(int argc, char **argv, const char *prog, struct args *a);
/* Default walker threads for a file system type, when share processes
 * run on the node. */
int args_default_threads(const char *fstype, int share);
/* The CPUs of the node for one of share processes. */
double args_cpus(int share);
/* The most threads a walk starting with threads may grow to, within the
 * fd budget max_fds, when share processes run on the node. */
int args_max_threads(int threads, int max_fds, int share);
/* Directory fds to hold: wanted, kept below RLIMIT_NOFILE (raised to its
 * hard limit) with a margin for the database and the CSV. */
int args_fd_budget(int wanted);
/* The command line as one string, for the snapshot's provenance. */
char *args_command_line(int argc, char **argv);
/* --lock: the database's directory locked for the whole run, made as the
 * database's would be (DBFILE_DIR_MODE, --db-group) when missing. 0 with
 * *fd the lock (-1 without --lock), else the exit status, reported:
 * RUNLOCK_BUSY while another run holds it, EXIT_FATAL. */
int args_lock(const struct args *a, const char *prog, int *fd);

/*
 * scan.c: the steps of one scan that fsscan and fsscan-mpi share around
 * the walk: checking ROOT and the rules and naming the file system
 * (setup), writing the CSV and the snapshot in the order that never
 * leaves a complete snapshot without its CSV (record), and the summary
 * line.
 */

struct scan {
	const char *prog;
	struct stat st;			/* ROOT */
	char root_abs[PATH_MAX];
	char host[256];
	char dev[32];			/* ROOT's st_dev, "MAJOR:MINOR" */
	struct fsident fi;
	struct project_rules *rules;
	struct limits limits;		/* --limits, then the quotas read */
	struct fs_capacity cap;		/* statvfs(ROOT) after the walk */
	struct snap_meta m;
	struct walk_opts o;
};

/* Check ROOT, read --limits, parse the project rules, identify the file
 * system, fill the snapshot's metadata and the walk's options. share:
 * processes on this node that divide its CPUs (MPI ranks), for the
 * default threads. Returns 0, or an exit status after a message on
 * stderr. */
/* ROOT must be a real directory: fsscan never follows symlinks. 0, or -1
 * (reported). */
int scan_check_root(const char *prog, const char *root, struct stat *st);
int scan_setup(struct scan *s, const struct args *a, const char *prog,
    char *cmdline, int share, volatile sig_atomic_t *stop);
void scan_free(struct scan *s);
/* Read the capacity (unless --as-of) and the project quotas, write the
 * CSV (when asked), the snapshot's rows, then put the CSV in place; on a
 * failure the snapshot is marked failed. parts->cap, limits, started and
 * scanned are filled here. Returns the exit status of the scan. */
int scan_record(struct scan *s, const struct args *a, sqlite3 *db,
    int64_t id, struct csv_out *csv, const struct walk_result *r,
    struct snap_parts *parts);
/* The -v line; rc is scan_record's status. */
void scan_summary(const struct scan *s, int64_t id,
    const struct walk_result *r, uint64_t entries, int rc);

#endif
