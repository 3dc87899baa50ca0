/*
 * space_metrics_int: the census's Prometheus families (space_metrics.c:
 * the totals, capacity, projects and cold data of each file system's
 * latest complete snapshot; space_metrics_cap.c: the dates of `iocensus
 * capacity`). One table per family, in the order of the enum, keyed by
 * the metric name: its columns are the labels, the value last.
 */
#ifndef IOCENSUS_SPACE_METRICS_INT_H
#define IOCENSUS_SPACE_METRICS_INT_H

#include <assert.h>
#include <stddef.h>
#include <string.h>

#include <sqlite3.h>

#include "query/query.h"
#include "result/result.h"

enum { M_FILES, M_BYTES, M_ALLOC, M_PFILES, M_PBYTES, M_TIME, M_COMPLETE,
    M_DURATION, M_ERRORS, M_SIZE, M_AVAIL, M_INODES, M_FREE_INODES,
    M_FREE, M_PALLOC, M_PDIRS, M_PINODES, M_PLIMIT_BYTES, M_PLIMIT_INODES,
    M_FULL, M_PLIMIT_T, M_COLD, M_PCOLD, M_NFAMILY };

/* A sample of family m: its label values in the order of its columns,
 * and its exact value. */
static inline void
space_metrics_put(struct result *r, int m, const char *const *label, i128 v)
{
	result_sample(&r->table[m], label, v);
}

/* The label of the projects --top leaves out, summed. */
#define SPACE_METRICS_OTHER "other"

/* The projects of a file system that keep their series under --top N:
 * all (every one), or the names name[0..n) sorted (byte order). */
struct mkeep {
	int all;
	char **name;
	size_t n;
};

/* Does k keep the series of project name? Inline: both space_metrics.c
 * and space_metrics_cap.c ask, and neither may use the other. */
static inline int
space_metrics_kept(const struct mkeep *k, const char *name)
{
	size_t lo = 0, hi;

	assert(k != NULL && name != NULL);
	if (k->all)
		return 1;
	for (hi = k->n; lo < hi; ) {	/* k->name is sorted */
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(k->name[mid], name);

		if (c == 0)
			return 1;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

/* The families M_FULL and M_PLIMIT_T: the dates of `iocensus capacity`
 * (its default window: every snapshot), each where it prints one; a
 * file system's only for the names s[i] with own[i] (the one name of
 * each device that carries its capacity), labelled as its capacity; a
 * project's only where keep[i] keeps it (a date is no sum: the projects
 * summed as "other" have none). 0, or -1 with err. */
int space_metrics_cap(sqlite3 *db, struct result *r, const struct snap *s,
    const int *own, const struct mkeep *keep, size_t n, char *err,
    size_t errlen);

#endif
