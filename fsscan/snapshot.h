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

#include "project.h"
#include "walk.h"

struct snap_meta {
	const char *fs, *root, *root_abs, *host;
	const char *fstype, *source, *uuid, *label, *mntopts;
	const char *options;		/* command line */
	int64_t started, now_ref;
	int threads;
	int dirs_depth;			/* --dirs; -1: all */
};

int snapshot_begin(sqlite3 *db, const struct snap_meta *m, int64_t *id,
    char *err, size_t errlen);
/* status: "complete" or "interrupted". */
int snapshot_finish(sqlite3 *db, int64_t id, const struct walk_result *r,
    const struct project_rules *rules, const char *status, char *err,
    size_t errlen);
/* Best effort: mark a scan that could not finish. */
void snapshot_fail(sqlite3 *db, int64_t id);

#endif
