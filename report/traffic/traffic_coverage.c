/*
 * traffic_coverage: complete against calendar minutes, and the coverage notes
 * every I/O result carries (traffic_int.h).
 */
#include <math.h>
#include <stdio.h>

#include "traffic_int.h"
#include "floordiv.h"
#include "human.h"
#include "rollup/rollup.h"

/* The UTC day of unix second t. */
static int64_t
day_of(int64_t t)
{
	return floor_align64(t, IO_DAY_S) / IO_DAY_S;
}

/* The minutes not stored are NONE: they count as calendar minutes and
 * their days as days without a complete minute, in closed form. */
void
traffic_coverage_count(const struct minute_series *s, struct io_coverage *c)
{
	*c = (struct io_coverage){ .from = s->t0,
	    .to = s->t0 + (int64_t)s->n * IO_MINUTE_S, .calendar = s->n,
	    .nhost = s->nhost, .ndev = s->ndev, .cut = s->cut,
	    .data_from = s->data_from };
	if (s->n == 0)
		return;
	int64_t day = INT64_MIN;	/* the last day with a complete minute */

	c->days = (size_t)(day_of(c->to - 1) - day_of(s->t0) + 1);
	c->days_empty = c->days;
	for (size_t j = 0; j < s->len; j++) {
		if (s->state[j] == MIN_COMPLETE) {
			int64_t d = day_of(s->t0 + (int64_t)(s->lo + j) *
			    IO_MINUTE_S);

			c->complete++;
			c->days_empty -= d != day;
			day = d;
		} else if (s->state[j] == MIN_MISSING)
			c->missing++;
	}
}

double
traffic_coverage_share(const struct io_coverage *c)
{
	return c->calendar ? (double)c->complete / (double)c->calendar : 0;
}

/* The plural ending of a count's noun. */
static const char *
plural(uint64_t n)
{
	return n == 1 ? "" : "s";
}

size_t
traffic_coverage_notes(struct result *r, sqlite3 *db,
    const struct io_coverage *c)
{
	char a[32], b[32], n[32], m[32], d[32], e[32];

	if (c->complete == 0 && c->partial)
		result_note(r, "No minute of the window is complete across "
		    "every expected device.");
	else if (c->complete == 0)
		result_note(r, "No I/O data in the window.");
	if (c->calendar > 0) {
		/* "1 of 3 days has", "0 of 1 day has", "2 of 3 days have" */
		result_note(r, "Coverage: %s of %s calendar minute%s complete "
		    "(%.2f%%); %s of %s day%s %s no complete minute.",
		    human_uint(c->complete, n, sizeof n),
		    human_uint(c->calendar, m, sizeof m), plural(c->calendar),
		    100 * traffic_coverage_share(c),
		    human_uint(c->days_empty, d, sizeof d),
		    human_uint(c->days, e, sizeof e),
		    plural(c->days), c->days_empty == 1 || c->days == 1 ?
		    "has" : "have");
		result_note(r,
		    "Window: %s to %s UTC; %zu host%s, %zu device%s.",
		    human_date(c->from, 1, a, sizeof a),
		    human_date(c->to, 1, b, sizeof b), c->nhost,
		    plural(c->nhost), c->ndev, plural(c->ndev));
	}
	if (c->cut)
		result_note(r, "The window is the last %d days of the data: "
		    "the data from %s to %s UTC is left out (--from includes "
		    "it).", IO_DEFAULT_DAYS,
		    human_date(c->data_from, 1, a, sizeof a),
		    human_date(c->from, 1, b, sizeof b));
	if (db) {	/* I2: derived rows are current, or said stale */
		long dirty = rollup_dirty_hours(db);
		if (dirty > 0)
			result_note(r, "Derived tables are stale for %ld "
			    "hour%s: run iocensus ingest.", dirty,
			    plural((uint64_t)dirty));
	}
	return c->complete;
}
