/*
 * space_files_int: one snapshot's size or age distribution as the files command
 * reads it (space_files.c), and its facts table (space_files_facts.c).
 */
#ifndef IOCENSUS_SPACE_FILES_INT_H
#define IOCENSUS_SPACE_FILES_INT_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#include "query/query.h"
#include "hist.h"
#include "metric.h"
#include "result/result.h"

#define DIST_DAY 86400

/* The distribution in display units: bytes, or days for ages. Bytes are
 * exact 128-bit integers: below CENSUS_BUCKET_MAX a bucket, so that the
 * total of 66 buckets stays below 2^127. */
struct dist {
	size_t n;
	int slot[HIST_NB];
	i128 lo[HIST_NB], hi[HIST_NB];	/* future row: lo unused */
	int64_t files[HIST_NB];
	i128 bytes[HIST_NB];
	i128 nfiles, nbytes;
	int age;
	/* The smallest and largest value scanned (bytes, or seconds of age):
	 * the selection's own (ext_exact), or the whole file system's when
	 * the snapshot kept no per-project extremes (they still bound the
	 * selection's percentiles); has_ext = 0 when unknown. */
	int has_ext, ext_exact;
	i128 ext_min, ext_max;
};

/* The name of the i-th file metric (lib/metric.h metric_file[]). */
static inline const char *
space_files_metric(int i)
{
	return metric_def[metric_file[i]].name;
}

/* part / whole, NaN when whole is 0. */
double space_files_facts_frac(i128 part, i128 whole);

/* The "facts" table, empty (no snapshot) or filled: totals, the most
 * popular bucket, the largest value (when d has its exact extremes), the
 * study's thresholds, the unresolved-project share. */
struct rtable *space_files_facts_table(struct result *r, const struct dist *d);
void space_files_facts(struct result *r, const struct dist *d,
    const struct snap *s,
    int metric, double unresolved);

/* The largest files and the directories with the most entries that
 * fsscan kept for snapshot s, and the directories holding the most bytes
 * (space_files_top.c): tables "largest_files", "largest_dirs" and
 * "largest_dirs_bytes". 0, or -1 with err. */
int space_files_top(struct result *r, sqlite3 *db, const struct snap *s,
    char *err, size_t errlen);

#endif
