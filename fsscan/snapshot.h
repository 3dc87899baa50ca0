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

#include "i128.h"
#include "limits.h"
#include "project.h"
#include "walk.h"

struct snap_meta {
	const char *fs, *root, *root_abs, *host;
	const char *fstype, *source, *uuid, *label, *mntopts;
	const char *options;		/* command line */
	int64_t started, now_ref;	/* --as-of: both the as-of time */
	int64_t scanned;		/* when the walk really started */
	int threads;
	int dirs_depth;			/* --dirs; -1: all */
};

/* statvfs(ROOT) at the scan, in bytes and inodes: f_blocks, f_bfree and
 * f_bavail times f_frsize, f_files, f_ffree; exact (64-bit counts times
 * the fragment size need up to 128 bits). */
struct fs_capacity {
	i128 bytes, free_bytes, avail_bytes, inodes, free_inodes;
};

/* What a scan adds to its rows. */
struct snap_extra {
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
    const struct snap_extra *x, char *err, size_t errlen);
/* Best effort: mark a scan that could not finish. */
void snapshot_fail(sqlite3 *db, int64_t id);

#endif
