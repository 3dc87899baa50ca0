/* test_traffic_coverage: what report/traffic/traffic_coverage.c says of
 * a window's data: complete and missing minutes, days without a complete
 * minute, and its two sentences (nouns agreeing with their counts),
 * against hand-computed values; and the day alignment of lib/floordiv.h
 * the counting stands on. */
#include <stdint.h>
#include <string.h>

#include "traffic/traffic_int.h"
#include "floordiv.h"
#include "minutes_fixture.h"
#include "tap.h"

static void
counting(void)
{
	struct minute_series s;
	struct io_coverage c;
	int64_t day10 = 10 * 86400;

	/* 23:58 of day 9 .. 00:01 of day 11: 2 + 1440 + 2 minutes. */
	series_new(&s, day10 - 120, 1444, MIN_MISSING);
	s.state[0] = s.state[1] = MIN_COMPLETE;	/* day 9: complete */
	s.state[1442] = s.state[1443] = MIN_NONE;	/* day 11: nothing */
	s.state[700] = MIN_NONE;
	traffic_coverage_count(&s, &c);
	is_i64((int64_t)c.calendar, 1444, "calendar minutes");
	is_i64((int64_t)c.complete, 2, "complete minutes");
	is_i64((int64_t)c.missing, 1439, "missing minutes");
	is_i64((int64_t)c.days, 3, "days touched");
	is_i64((int64_t)c.days_empty, 2, "days without a complete minute");
	is_i64(c.from, day10 - 120, "window from");
	is_i64(c.to, day10 + 86400 + 120, "window to");
	ok(traffic_coverage_share(&c) == 2.0 / 1444, "share");
	s.state[1443] = MIN_COMPLETE;
	traffic_coverage_count(&s, &c);
	is_i64((int64_t)c.days_empty, 1, "one minute makes a day count");
	query_minutes_free(&s);

	series_new(&s, day10, 1440, MIN_COMPLETE);
	traffic_coverage_count(&s, &c);
	is_i64((int64_t)c.days, 1, "one aligned day");
	is_i64((int64_t)c.days_empty, 0, "no empty day");
	query_minutes_free(&s);

	series_new(&s, 0, 0, 0);
	traffic_coverage_count(&s, &c);
	ok(c.calendar == 0 && c.days == 0 && c.days_empty == 0 &&
	    traffic_coverage_share(&c) == 0, "empty window");
	query_minutes_free(&s);
	is_i64(floor_align64(-1, 60), -60, "align floors below zero");
	is_i64(floor_align64(-60, 60), -60, "align exact below zero");
	is_i64(floor_align64(86399, 86400), 0, "align to the day");
}

static void
notes(void)
{
	struct minute_series s;
	struct io_coverage c;
	struct result *r = result_new("t", "t");

	series_new(&s, 1264982400 - 60, 3, MIN_COMPLETE);
	s.state[2] = MIN_MISSING;
	traffic_coverage_count(&s, &c);
	is_i64((int64_t)traffic_coverage_notes(r, NULL, &c), 2,
	    "notes: complete");
	is_i64((int64_t)r->nnote, 2, "notes: two sentences");
	if (r->nnote == 2) {
		is_str(r->note[0], "Coverage: 2 of 3 calendar minutes complete "
		    "(66.67%); 0 of 2 days have no complete minute.",
		    "coverage sentence");
		is_str(r->note[1], "Window: 2010-01-31 23:59 to 2010-02-01 "
		    "00:02 UTC; 2 hosts, 5 devices.", "window sentence");
	}
	result_free(r);
	r = result_new("t", "t");
	memset(s.state, MIN_NONE, 3);
	traffic_coverage_count(&s, &c);
	is_i64((int64_t)traffic_coverage_notes(r, NULL, &c), 0, "no data: 0");
	ok(r->nnote >= 1 && strcmp(r->note[0], "No I/O data in the window.")
	    == 0, "no data sentence");
	result_free(r);
	query_minutes_free(&s);
}

/* The coverage and window sentences of a series: nouns agree with their
 * counts ("1 host", "1 of 1 day has"). */
static void
note_pair(struct minute_series *s, const char *coverage, const char *window,
    const char *what)
{
	struct result *r = result_new("t", "t");
	struct io_coverage c;
	size_t k;

	traffic_coverage_count(s, &c);
	traffic_coverage_notes(r, NULL, &c);
	k = r->nnote >= 2 ? r->nnote - 2 : 0;
	if (ok(r->nnote >= 2, "%s: two sentences", what)) {
		is_str(r->note[k], coverage, "%s: coverage", what);
		is_str(r->note[k + 1], window, "%s: window", what);
	}
	result_free(r);
}

static void
plurals(void)
{
	struct minute_series s;

	series_new(&s, 1264982400, 1, MIN_COMPLETE);
	s.nhost = s.ndev = 1;
	note_pair(&s, "Coverage: 1 of 1 calendar minute complete (100.00%); "
	    "0 of 1 day has no complete minute.", "Window: 2010-02-01 00:00 "
	    "to 2010-02-01 00:01 UTC; 1 host, 1 device.", "one of each");
	s.state[0] = MIN_MISSING;
	s.nhost = 0;
	note_pair(&s, "Coverage: 0 of 1 calendar minute complete (0.00%); "
	    "1 of 1 day has no complete minute.", "Window: 2010-02-01 00:00 "
	    "to 2010-02-01 00:01 UTC; 0 hosts, 1 device.", "none complete");
	query_minutes_free(&s);
	/* Three days, the middle one without a complete minute. */
	series_new(&s, 1264982400 - 60, 1442, MIN_COMPLETE);
	memset(s.state + 1, MIN_MISSING, 1440);
	note_pair(&s, "Coverage: 2 of 1,442 calendar minutes complete "
	    "(0.14%); 1 of 3 days has no complete minute.", "Window: "
	    "2010-01-31 23:59 to 2010-02-02 00:01 UTC; 2 hosts, 5 devices.",
	    "one empty day of three");
	memset(s.state, MIN_MISSING, 1442);
	note_pair(&s, "Coverage: 0 of 1,442 calendar minutes complete "
	    "(0.00%); 3 of 3 days have no complete minute.", "Window: "
	    "2010-01-31 23:59 to 2010-02-02 00:01 UTC; 2 hosts, 5 devices.",
	    "every day empty");
	query_minutes_free(&s);
}

int
main(void)
{
	counting();
	notes();
	plurals();
	return tap_end();
}
