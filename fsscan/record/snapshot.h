/*
 * snapshot: one scan in the census database.
 *
 * snapshot_begin() records the scan as 'running', with how deep its
 * directory totals go, in its own short transaction; snapshot_finish() writes every row and the final status in
 * one transaction. A scan killed at any point therefore leaves either a
 * 'running' row (complete = 0 in v_snapshot) or a finished one, never a
 * half-written snapshot that looks complete.
 */
#ifndef FSSCAN_SNAPSHOT_H
#define FSSCAN_SNAPSHOT_H

#include <sqlite3.h>
#include <stdint.h>

#include "capacity.h"
#include "i128.h"
#include "limits.h"
#include "project/project.h"
#include "walk/walk.h"

struct snap_meta {
	const char *fs, *root, *root_abs, *host;
	const char *fstype, *source, *uuid, *label, *mntopts;
	const char *options;		/* command line */
	int64_t started, now_ref;	/* --as-of: both the as-of time */
	int64_t scanned;		/* when the walk really started */
	int threads;
	int dirs_depth;			/* --dirs; -1: all */
};

/* One process's share of a scan (table scan_rank): fsscan is rank 0 of
 * 1, fsscan-mpi has one per MPI rank. */
struct rank_stat {
	int32_t rank, threads;
	uint64_t entries;		/* names read and stat'ed */
	uint64_t dirs;			/* directories visited */
	uint64_t items_in, items_out;	/* directories from / to other ranks */
	uint64_t steals;		/* steal requests that brought work */
	double seconds;			/* its walk */
	char host[64];
};

/* A v_dir node to write: its row id is the snapshot's base plus seq. */
struct dir_row {
	uint64_t seq, parent_seq;
	int has_parent, depth;
	const char *name;
	size_t namelen;
	struct dirlocal tot;		/* subtree totals */
};

/* Rows from elsewhere (fsscan-mpi: every rank's, in batches): next gives
 * 1 and the next row (its name valid until the next call), 0 after the
 * last, -1 with a message in err. */
struct dir_source {
	int (*next)(void *arg, struct dir_row *row, char *err, size_t errlen);
	void *arg;
};

/* The row of node t, whose parent's number in the snapshot is
 * parent_seq (when it has one). */
void snapshot_dir_row(const struct dirtot *t, uint64_t parent_seq,
    struct dir_row *row);

/* What a scan adds to the walk's own rows. */
struct snap_parts {
	const struct dir_source *dirs;	/* NULL: r->dirs */
	const struct rank_stat *ranks;
	int nranks;
	const struct fs_capacity *cap;	/* NULL: unknown (NULL columns) */
	const struct limits *limits;	/* NULL: none */
	int64_t started, scanned;	/* snap_meta's: finished_at is started
					   plus the walk's real duration */
};

int snapshot_begin(sqlite3 *db, const struct snap_meta *m, int64_t *id,
    char *err, size_t errlen);
/* status: "complete" or "interrupted". */
int snapshot_finish(sqlite3 *db, int64_t id, const struct walk_result *r,
    const struct project_rules *rules, const char *status,
    const struct snap_parts *parts, char *err, size_t errlen);
/* Best effort: mark a scan that could not finish. */
void snapshot_fail(sqlite3 *db, int64_t id);

#endif
