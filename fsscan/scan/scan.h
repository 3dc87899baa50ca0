/*
 * scan: the steps of one scan that fsscan and fsscan-mpi share around the
 * walk: checking ROOT and the rules and naming the file system (setup),
 * writing the CSV and the snapshot in the order that never leaves a
 * complete snapshot without its CSV (record), and the summary line.
 */
#ifndef FSSCAN_SCAN_H
#define FSSCAN_SCAN_H

#include <limits.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/stat.h>

#include "args.h"
#include "record/capacity.h"
#include "record/csvout.h"
#include "fsident.h"
#include "record/limits.h"
#include "project/project.h"
#include "record/snapshot.h"
#include "walk/walk.h"

struct scan {
	const char *prog;
	struct stat st;			/* ROOT */
	char root_abs[PATH_MAX];
	char host[256];
	struct fsident fi;
	struct project_rules *rules;
	struct limits limits;		/* --limits, then the quotas read */
	struct fs_capacity cap;		/* statvfs(ROOT) after the walk */
	struct snap_meta m;
	struct walk_opts o;
};

/* Check ROOT, read --limits, parse the project rules, identify the file system, fill the
 * snapshot's metadata and the walk's options. share: processes on this
 * node that divide its CPUs (MPI ranks), for the default threads. Returns
 * 0, or an exit status after a message on stderr. */
int scan_setup(struct scan *s, const struct args *a, const char *prog,
    char *cmdline, int share, volatile sig_atomic_t *stop);
void scan_free(struct scan *s);
/* Read the capacity (unless --as-of) and the project quotas, write the
 * CSV (when asked), the snapshot's rows, then put the CSV in place; on a
 * failure the snapshot is marked failed. parts->cap, limits, started and
 * scanned are filled here. Returns the exit
 * status of the scan. */
int scan_record(struct scan *s, const struct args *a, sqlite3 *db,
    int64_t id, struct csv_out *csv, const struct walk_result *r,
    struct snap_parts *parts);
/* The -v line; rc is scan_record's status. */
void scan_summary(const struct scan *s, int64_t id,
    const struct walk_result *r, uint64_t entries, int rc);

#endif
