/*
 * census: what the snapshot analyses read from the census database, loaded
 * through the stable views (v_snapshot, v_project, v_hist, v_dir) and the
 * owner, hist_extent, project_extent and dir_scope tables, every value
 * bound. Loading computes nothing;
 * a column that is NULL in the database stays "absent" here.
 *
 * Byte totals, bucket bounds and extremes are exact 128-bit integers (the
 * database holds one beyond INT64_MAX as decimal text). A total that is
 * negative or not an exact integer is an error ("census database: ..."),
 * never a number.
 */
#ifndef IOCENSUS_CENSUS_H
#define IOCENSUS_CENSUS_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#include "hist.h"

/* An integer that may be missing (NULL in the database). */
struct nint {
	i128 v;
	int has;
};

struct snap {
	int64_t id;
	char *fs, *root, *status;	/* status: running, complete, ... */
	char *mount_opts;		/* NULL when unknown */
	int64_t started_at, now_ref;
	struct nint finished_at;
	int complete;
	struct nint files, dirs, bytes, alloc, errors;
};

/* All snapshots, ordered by id. 0, or -1 with err. */
int census_snapshots(sqlite3 *db, struct snap **out, size_t *n, char *err,
    size_t errlen);
/* One snapshot: 1 found, 0 no such id, -1 error. */
int census_snapshot(sqlite3 *db, int64_t id, struct snap *out, char *err,
    size_t errlen);
/* The latest complete snapshot (by start time, then id): 1, 0 none, -1. */
int census_latest_complete(sqlite3 *db, int64_t *id, char *err,
    size_t errlen);
void snap_clear(struct snap *s);
void snaps_free(struct snap *s, size_t n);

/* Totals of one group of a snapshot: a project, a user or group id, or a
 * directory subtree. key identifies it across snapshots (project name,
 * decimal id, path); name is what a reader sees (the user name when
 * known, else the id). */
struct gtot {
	char *key, *name;
	int64_t files;
	i128 bytes, alloc;
};

enum group_by { BY_PROJECT, BY_USER, BY_GROUP, BY_DIR };

/* Groups of a snapshot sorted by key (strcmp); dir: entries of v_dir at
 * depth `depth`. 0, or -1 with err. */
int census_groups(sqlite3 *db, int64_t id, enum group_by by, int depth,
    struct gtot **out, size_t *n, char *err, size_t errlen);
void gtots_free(struct gtot *g, size_t n);

/* Files and bytes of one project in a snapshot; a project absent from
 * the snapshot has none (fsscan writes every project that has entries).
 * 0, or -1 with err. */
int census_project_totals(sqlite3 *db, int64_t id, const char *project,
    int64_t *files, i128 *bytes, char *err, size_t errlen);

/* One histogram of v_hist, by lib/hist.h slot: has[slot] when the row
 * exists, lo/hi as stored, files and bytes. A bucket's bytes are below
 * CENSUS_BUCKET_MAX (fsscan writes less than 2^118, hist.h), so the sum
 * of a histogram's buckets cannot overflow. */
#define CENSUS_BUCKET_MAX ((i128)1 << 120)
struct chist {
	int has[HIST_NB];
	i128 lo[HIST_NB], hi[HIST_NB];
	int64_t files[HIST_NB];
	i128 bytes[HIST_NB];
};

/* project NULL: the whole file system. Returns the number of rows, or
 * -1 with err. */
int census_hist(sqlite3 *db, int64_t id, const char *project,
    const char *metric, struct chist *h, char *err, size_t errlen);
/* Smallest and largest value of a whole-file-system metric (bytes,
 * seconds): 1, 0 when unknown, -1 error. */
int census_extent(sqlite3 *db, int64_t id, const char *metric,
    i128 *min, i128 *max, char *err, size_t errlen);
/* The same over the files of some projects: project alone, or (project
 * NULL) every project but the excluded ones. 1 known, 0 when no project
 * in the selection has extremes (none of its files, or a snapshot older
 * than schema 3, which kept them for the whole file system only), -1
 * error. */
int census_project_extent(sqlite3 *db, int64_t id, const char *metric,
    const char *project, const char *const *exclude, size_t nexclude,
    i128 *min, i128 *max, char *err, size_t errlen);
/* Whether the snapshot holds per-project extremes: 1, 0, -1 error. */
int census_has_project_extent(sqlite3 *db, int64_t id, char *err,
    size_t errlen);

/* How deep v_dir goes (fsscan --dirs): 1 with *depth (-1: every depth),
 * 0 when the snapshot does not say (older than schema 3), -1 error. */
int census_dir_scope(sqlite3 *db, int64_t id, int *depth, char *err,
    size_t errlen);

/* The largest files (kind "file", value = bytes) or the directories with
 * the most entries (kind "dir") that fsscan kept (--top), by rank; paths
 * as fsscan wrote them (under the root), bytes as stored. 0, or -1 with err. */
struct top_entry {
	i128 value;
	char *path;
};
int census_top(sqlite3 *db, int64_t id, const char *kind,
    struct top_entry **out, size_t *n, char *err, size_t errlen);
void top_free(struct top_entry *t, size_t n);

/* Distinct project names in the snapshots of file system fs (NULL: of
 * every file system), sorted. 0, or -1 with err. */
int census_fs_projects(sqlite3 *db, const char *fs, char ***names,
    size_t *n, char *err, size_t errlen);
void names_free(char **names, size_t n);

#endif
