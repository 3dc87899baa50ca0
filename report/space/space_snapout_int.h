/*
 * space_snapout_int: what the snapshot analyses (space_snapshots,
 * space_diff, space_growth, space_files) share when they fill a result:
 * cells whose value may be missing, and the note on files whose project
 * could not be resolved.
 */
#ifndef IOCENSUS_SPACE_SNAPOUT_INT_H
#define IOCENSUS_SPACE_SNAPOUT_INT_H

#include <stddef.h>

#include <sqlite3.h>

#include "query/query.h"
#include "result/result.h"

/* Set the cell when the value exists; otherwise it stays NULL. */
void space_snapout_nint(struct rtable *t, size_t row, int col, struct nint v);
/* A real that is NaN (undefined) stays NULL. */
void space_snapout_real(struct rtable *t, size_t row, int col, double v);

/* The atime mode of s's mount (noatime, relatime, ...), which decides
 * what atime ages mean, as a note. */
void space_snapout_atime_mode(struct result *r, const struct snap *s);

/* Note how many of snapshot s's files are in project "(none)"; which
 * names the snapshot ("A", "B", or NULL). *share: that fraction, NaN when
 * the snapshot has no file count. 0, or -1 with err. */
int space_snapout_unresolved(struct result *r, sqlite3 *db,
    const struct snap *s, const char *which, double *share, char *err,
    size_t errlen);

#endif
