/*
 * metric: the contract between fsscan and everything that reads its
 * snapshots. A snapshot holds one histogram per metric below (the fsstats
 * set), stored under its name in hist.metric, hist_extent.metric and
 * project_extent.metric, bucketed by its scheme (lib/hist.h).
 *
 * The writer (fsscan/record/snapshot.c), the stable views (sql/views.sql, whose
 * @FILE_METRICS@ lib/db.c replaces with metric_sql_list()) and the readers
 * (report/) all take names, schemes and titles from here, so adding a
 * metric is one line in metric.c.
 *
 * The file metrics (size and the three ages) are the ones kept per
 * project, published in v_hist and offered by `iocensus files --by`, in
 * the order of metric_file[].
 */
#ifndef IOCENSUS_METRIC_H
#define IOCENSUS_METRIC_H

#include <stddef.h>

#include "hist.h"

/* Each age histogram serves both fsstats tables: "(files)" uses n and v
 * (sum of ages), "(KB)" uses w (bytes) and vw. */
enum metric_id {
	METRIC_SIZE,		/* HS_SIZE, value st_size */
	METRIC_CAPACITY,	/* HS_BLOCKS, value st_blocks */
	METRIC_POS_OVERHEAD,	/* slot by st_size,
	    value 512*blocks - size >= 0 */
	METRIC_NEG_OVERHEAD,	/* slot by st_size,
	    value size - 512*blocks > 0 */
	METRIC_DIR_ENTRIES,	/* HS_COUNT, value names in the directory */
	METRIC_DIR_SIZE,	/* HS_SIZE, value directory st_size */
	METRIC_NAME_LEN,	/* HS_LINEAR8, value strlen(name) */
	METRIC_LINK_COUNT,	/* HS_COUNT, value st_nlink */
	METRIC_SYMLINK_LEN,	/* HS_LINEAR8, value symlink st_size */
	METRIC_MTIME,		/* HS_AGE, value now - mtime, weight st_size */
	METRIC_CTIME,		/* HS_AGE, value now - ctime, weight st_size */
	METRIC_ATIME,		/* HS_AGE, value now - atime, weight st_size */
	METRIC_COUNT
};

struct metric_def {
	const char *name;		/* as stored: "size", "atime", ... */
	enum hist_scheme scheme;
	const char *title;		/* "File sizes", "File ages by atime" */
};

extern const struct metric_def metric_def[METRIC_COUNT];

/* The file metrics, in their published order: size, atime, mtime, ctime. */
#define METRIC_NFILE 4
extern const enum metric_id metric_file[METRIC_NFILE];

/* The metric stored under name, or -1. */
int metric_find(const char *name);

/* Is id one of the file metrics? */
int metric_is_file(enum metric_id id);

/* The file metrics' names as an SQL list, "'size', 'atime', ...", for
 * the views, into buf; returns buf (truncated only if len is too small
 * for the fixed names). */
char *metric_sql_list(char *buf, size_t len);

#endif
