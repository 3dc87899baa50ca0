/*
 * prune_policy: which snapshots the retention rules keep (prune_int.h),
 * as restic and borg prune: a rule walks the complete snapshots of a
 * file system from the newest and keeps the first of each period it has
 * not seen yet, until it has kept its number; what no rule keeps goes.
 * Pure: no database, no clock.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "floordiv.h"
#include "prune_int.h"
#include "xalloc.h"

/* The UTC calendar date of t. */
static void
civil(int64_t t, struct tm *tm)
{
	time_t tt = (time_t)t;

	memset(tm, 0, sizeof *tm);
	gmtime_r(&tt, tm);
}

int64_t
prune_policy_period(enum opts_period p, int64_t t)
{
	int64_t day = floor_div64(t, 86400);
	struct tm tm;

	assert(p < OPTS_NPERIOD);
	switch (p) {
	case OPTS_DAY:
		return day;
	case OPTS_WEEK:
		/* 1970-01-01 was a Thursday: day + 3 counts from the
		 * Monday before it, so weeks run Monday to Sunday, as ISO
		 * 8601's do, across every year's end */
		return floor_div64(day + 3, 7);
	case OPTS_MONTH:
		civil(t, &tm);
		return ((int64_t)tm.tm_year + 1900) * 12 + tm.tm_mon;
	case OPTS_QUARTER:
	case OPTS_NPERIOD:
		break;
	}
	civil(t, &tm);
	return ((int64_t)tm.tm_year + 1900) * 4 + tm.tm_mon / 3;
}

const char *
prune_policy_label(enum opts_period p, int64_t t, char *buf, size_t len)
{
	int64_t monday = (prune_policy_period(OPTS_WEEK, t) * 7 - 3) * 86400;
	struct tm tm;

	assert(p < OPTS_NPERIOD && buf != NULL && len > 0);
	switch (p) {
	case OPTS_DAY:
		civil(t, &tm);
		snprintf(buf, len, "%04d-%02d-%02d", tm.tm_year + 1900,
		    tm.tm_mon + 1, tm.tm_mday);
		break;
	case OPTS_WEEK:
		/* ISO 8601: a week belongs to the year of its Thursday, and
		 * is numbered from that year's first such week */
		civil(monday + 3 * 86400, &tm);
		snprintf(buf, len, "%04d-W%02d", tm.tm_year + 1900,
		    tm.tm_yday / 7 + 1);
		break;
	case OPTS_MONTH:
		civil(t, &tm);
		snprintf(buf, len, "%04d-%02d", tm.tm_year + 1900,
		    tm.tm_mon + 1);
		break;
	case OPTS_QUARTER:
	case OPTS_NPERIOD:
		civil(t, &tm);
		snprintf(buf, len, "%04dQ%d", tm.tm_year + 1900,
		    tm.tm_mon / 3 + 1);
		break;
	}
	return buf;
}

/* Per file system, newest first: by time, then by id. */
static int
cmp_item(const void *a, const void *b)
{
	const struct prune_item *x = *(const struct prune_item *const *)a;
	const struct prune_item *y = *(const struct prune_item *const *)b;
	int c = strcmp(x->fs, y->fs);

	if (c)
		return c;
	if (x->t != y->t)
		return x->t > y->t ? -1 : 1;
	return x->id > y->id ? -1 : x->id < y->id;
}

/* One file system's items, s[0..n), newest first. */
static void
decide_fs(struct prune_item **s, size_t n, const uint32_t keep[OPTS_NPERIOD])
{
	uint32_t kept[OPTS_NPERIOD] = { 0 };
	int64_t last[OPTS_NPERIOD] = { 0 };
	int seen_complete = 0;

	for (size_t i = 0; i < n; i++) {
		struct prune_item *x = s[i];

		x->why = 0;
		if (x->state == PRUNE_RUNNING) {
			x->why = PRUNE_RUN;
			continue;
		}
		if (x->state == PRUNE_UNFINISHED) {
			/* the newest complete one supersedes it */
			x->why = seen_complete ? 0 : PRUNE_LATER;
			continue;
		}
		if (!seen_complete)
			x->why |= PRUNE_NEWEST;
		seen_complete = 1;
		for (int p = 0; p < OPTS_NPERIOD; p++) {
			int64_t k = prune_policy_period((enum opts_period)p,
			    x->t);

			/* newest first: the first of a period is its newest */
			if (kept[p] < keep[p] && (kept[p] == 0 || k != last[p])) {
				x->why |= PRUNE_RULE << p;
				last[p] = k;
				kept[p]++;
			}
		}
	}
}

void
prune_policy(struct prune_item *it, size_t n,
    const uint32_t keep[OPTS_NPERIOD])
{
	struct prune_item **s = xcalloc(n ? n : 1, sizeof *s);
	size_t lo = 0;

	assert((it != NULL || n == 0) && keep != NULL);
	for (size_t i = 0; i < n; i++)
		s[i] = &it[i];
	qsort(s, n, sizeof *s, cmp_item);
	for (size_t i = 1; i <= n; i++)
		if (i == n || strcmp(s[i]->fs, s[lo]->fs)) {
			decide_fs(s + lo, i - lo, keep);
			lo = i;
		}
	free(s);
}
