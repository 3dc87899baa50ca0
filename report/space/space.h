/*
 * space: the census questions, over the snapshots fsscan recorded:
 * snapshots, diff, growth, files, usage, capacity and the census as
 * Prometheus gauges. Each follows the contract of opts/opts.h: it takes
 * a struct opts and returns a struct result, or NULL with err.
 */
#ifndef IOCENSUS_SPACE_H
#define IOCENSUS_SPACE_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#include "opts/opts.h"
#include "query/query.h"
#include "result/result.h"

struct result *space_snapshots(sqlite3 *db, const struct opts *o,
    char *err, size_t errlen);
/* The census as Prometheus gauges (space_metrics.c): one table per metric
 * family, keyed by the metric name, titled by its HELP text; the columns
 * are the labels (fs, project, ...), the value last. Per file system,
 * from its latest complete snapshot; iocensus_snapshot_complete says
 * whether its latest snapshot is that one. A capacity family (v_snapshot's
 * fs_* columns) has a sample where that snapshot records the value, a
 * limit where v_limit has one, a date where space_capacity gives one. */
struct result *space_metrics(sqlite3 *db, const struct opts *o,
    char *err, size_t errlen);
struct result *space_diff(sqlite3 *db, const struct opts *o, char *err,
    size_t errlen);
struct result *space_growth(sqlite3 *db, const struct opts *o, char *err,
    size_t errlen);
struct result *space_files(sqlite3 *db, const struct opts *o, char *err,
    size_t errlen);
struct result *space_usage(sqlite3 *db, const struct opts *o, char *err,
    size_t errlen);
struct result *space_capacity(sqlite3 *db, const struct opts *o,
    char *err, size_t errlen);
/* Cold data (space_cold.c): per file system, at its latest point in the
 * window, the files and bytes of each project not read (o->age "atime")
 * or not modified ("mtime") in o->days days (0: each threshold recorded):
 * tables "filesystems" (the whole file system) and "projects". */
struct result *space_cold(sqlite3 *db, const struct opts *o, char *err,
    size_t errlen);
/* Where the space is (space_treemap.c): file system o->fs at snapshot
 * o->snapshot, its growth since o->snap_a (0: none), as the rows of a
 * treemap (table "treemap", FIG_TREE figures): the first o->top projects
 * by bytes (0, or more than 200: 200), each with its largest directories
 * unless o->no_paths, then the others as one row. */
struct result *space_treemap(sqlite3 *db, const struct opts *o, char *err,
    size_t errlen);

/* du (space_du.c): the directories below o->path (absolute under the
 * snapshot's root, or relative to it; NULL: the root) down to
 * o->dir_depth levels, bytes descending then path, with the change since
 * the file system's previous complete snapshot and the cold bytes: table
 * "du". Of --snapshot, else of the latest complete snapshot of --fs (or
 * of the only file system). A path not in the census, or at or below the
 * depth fsscan --dirs kept, is a usage error that says so. */
struct result *space_du(sqlite3 *db, const struct opts *o, char *err,
    size_t errlen);

/* The names the report is narrowed to (space_names.c): each of fs[] has
 * snapshots and each of project[] is in a snapshot (of fs[0] when it is
 * the only one named, else of any file system). 0, or -1 with a usage
 * error (FMT_USAGE) that lists the known names. */
int space_names_check(sqlite3 *db, const char *const *fs, size_t nfs,
    const char *const *project, size_t nproject, char *err, size_t errlen);

/* The points of a file system (space_points.c): sort s by start time, then
 * id; the distinct file-system names of s in its order, into names (room
 * for n), returning how many; and the points of file system fs in sorted
 * s: its complete snapshots started in [from, to) (io_window_lo/hi of a
 * window; INT64_MIN and INT64_MAX: no bound), one per
 * day (of two less than a day apart, the later), as indexes into s in
 * keep[] (room for n), returning how many and *nrescan the rescans. */
void space_points_sort(struct snap *s, size_t n);
size_t space_points_fs_names(const struct snap *s, size_t n,
    const char **names);
size_t space_points_keep(const struct snap *s, size_t n, const char *fs,
    int64_t from, int64_t to, size_t *keep, size_t *nrescan);

#endif
