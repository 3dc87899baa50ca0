/*
 * space_points: which snapshots are the points of a file system (space.h):
 * its complete snapshots in a window, one per day. A snapshot that started
 * less than a day before the next one kept is a rescan of the same state
 * (a rerun, a same-day manual scan): counting it would narrow every band
 * as if it were new evidence and turn a diff into hours, so the later one
 * stands for both. The growth fits, the capacity summary, the usage
 * tables and the report's automatic diffs all take their points here.
 * Start times are those of lib/epoch.h (query_census refuses others), so
 * their differences are exact.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "space.h"

#define RESCAN_SECONDS 86400	/* closer snapshots are one point */

size_t
space_points_fs_names(const struct snap *s, size_t n, const char **names)
{
	size_t k = 0;

	assert((s != NULL && names != NULL) || n == 0);
	for (size_t i = 0; i < n; i++) {
		int seen = 0;
		for (size_t j = 0; j < k && !seen; j++)
			seen = strcmp(names[j], s[i].fs) == 0;
		if (!seen)
			names[k++] = s[i].fs;
	}
	return k;
}

static int
by_start(const void *pa, const void *pb)
{
	const struct snap *a = pa, *b = pb;

	if (a->started_at != b->started_at)
		return a->started_at < b->started_at ? -1 : 1;
	return a->id < b->id ? -1 : a->id > b->id;
}

void
space_points_sort(struct snap *s, size_t n)
{
	assert(s != NULL || n == 0);
	if (n > 1)
		qsort(s, n, sizeof *s, by_start);
}

#ifndef NDEBUG
/* Is s in space_points_sort's order? */
static int
points_sorted(const struct snap *s, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (by_start(&s[i - 1], &s[i]) > 0)
			return 0;
	return 1;
}
#endif

size_t
space_points_keep(const struct snap *s, size_t n, const char *fs,
    int64_t from, int64_t to, size_t *keep, size_t *nrescan)
{
	size_t k = 0;

	assert(fs != NULL && nrescan != NULL && from <= to);
	assert((s != NULL && keep != NULL) || n == 0);
	assert(points_sorted(s, n));	/* by space_points_sort */
	*nrescan = 0;
	/* From the latest back: a snapshot less than a day before the one
	 * kept after it is a rescan of the same state. */
	for (size_t i = n; i-- > 0;) {
		if (!s[i].complete || strcmp(s[i].fs, fs) != 0 ||
		    s[i].started_at < from || s[i].started_at >= to)
			continue;
		if (k && s[keep[k - 1]].started_at - s[i].started_at <
		    RESCAN_SECONDS) {
			(*nrescan)++;
			continue;
		}
		keep[k++] = i;
	}
	for (size_t i = 0; i < k / 2; i++) {
		size_t t = keep[i];
		keep[i] = keep[k - 1 - i];
		keep[k - 1 - i] = t;
	}
	return k;
}

