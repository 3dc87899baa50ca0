/*
 * filedist: one snapshot's size or age distribution as the files command
 * reads it (an_files.c), and its facts table (an_files_facts.c).
 */
#ifndef IOCENSUS_FILEDIST_H
#define IOCENSUS_FILEDIST_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#include "census.h"
#include "hist.h"
#include "result.h"

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

/* size, atime, mtime, ctime: the metric names of v_hist, by index. */
extern const char *const file_metrics[4];

/* part / whole, NaN when whole is 0. */
double dist_frac(i128 part, i128 whole);

/* The "facts" table, empty (no snapshot) or filled: totals, the most
 * popular bucket, the largest value (when d has its exact extremes), the
 * study's thresholds, the unresolved-project share. */
struct rtable *files_facts_table(struct result *r, const struct dist *d);
void files_facts(struct result *r, const struct dist *d, const struct snap *s,
    int metric, double unresolved);

/* The largest files and the directories with the most entries that
 * fsscan kept for snapshot s (an_files_top.c): tables "largest_files"
 * and "largest_dirs". 0, or -1 with err. */
int files_top(struct result *r, sqlite3 *db, const struct snap *s,
    char *err, size_t errlen);

#endif
