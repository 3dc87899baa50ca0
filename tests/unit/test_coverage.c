/* coverage: counting complete minutes and empty days, the peak, and the
 * exact percent-of-peak comparisons, against hand-computed values. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "coverage.h"
#include "tap.h"

/* A series of n minutes from t0, every minute in state st. */
static void
series_new(struct minute_series *s, int64_t t0, size_t n, uint8_t st)
{
	memset(s, 0, sizeof *s);
	s->t0 = t0;
	s->n = n;
	s->state = malloc(n);
	memset(s->state, st, n);
	s->rd = calloc(n, sizeof *s->rd);
	s->wr = calloc(n, sizeof *s->wr);
	s->ios = calloc(n, sizeof *s->ios);
	s->nhost = 2;
	s->ndev = 5;
}

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
	io_coverage_count(&s, &c);
	is_i64((int64_t)c.calendar, 1444, "calendar minutes");
	is_i64((int64_t)c.complete, 2, "complete minutes");
	is_i64((int64_t)c.missing, 1439, "missing minutes");
	is_i64((int64_t)c.days, 3, "days touched");
	is_i64((int64_t)c.days_empty, 2, "days without a complete minute");
	is_i64(c.from, day10 - 120, "window from");
	is_i64(c.to, day10 + 86400 + 120, "window to");
	ok(io_coverage_share(&c) == 2.0 / 1444, "share");
	s.state[1443] = MIN_COMPLETE;
	io_coverage_count(&s, &c);
	is_i64((int64_t)c.days_empty, 1, "one minute makes a day count");
	minute_series_free(&s);

	series_new(&s, day10, 1440, MIN_COMPLETE);
	io_coverage_count(&s, &c);
	is_i64((int64_t)c.days, 1, "one aligned day");
	is_i64((int64_t)c.days_empty, 0, "no empty day");
	minute_series_free(&s);

	series_new(&s, 0, 0, 0);
	io_coverage_count(&s, &c);
	ok(c.calendar == 0 && c.days == 0 && c.days_empty == 0 &&
	    io_coverage_share(&c) == 0, "empty window");
	minute_series_free(&s);
	is_i64(io_align(-1, 60), -60, "align floors below zero");
	is_i64(io_align(-60, 60), -60, "align exact below zero");
	is_i64(io_align(86399, 86400), 0, "align to the day");
}

static void
notes(void)
{
	struct minute_series s;
	struct io_coverage c;
	struct result *r = result_new("t", "t");

	series_new(&s, 1264982400 - 60, 3, MIN_COMPLETE);
	s.state[2] = MIN_MISSING;
	io_coverage_count(&s, &c);
	is_i64((int64_t)io_coverage_notes(r, NULL, &c), 2, "notes: complete");
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
	io_coverage_count(&s, &c);
	is_i64((int64_t)io_coverage_notes(r, NULL, &c), 0, "no data: 0");
	ok(r->nnote >= 1 && strcmp(r->note[0], "No I/O data in the window.")
	    == 0, "no data sentence");
	result_free(r);
	minute_series_free(&s);
}

static void
peaks(void)
{
	struct minute_series s;
	struct io_peak p;

	series_new(&s, 600, 4, MIN_COMPLETE);
	s.rd[0] = 100, s.wr[0] = 900;		/* 1000 */
	s.rd[1] = 2000;				/* missing: not a peak */
	s.state[1] = MIN_MISSING;
	s.wr[2] = 1000;				/* tie: the first wins */
	io_peak_resolve(&s, 0, &p);
	ok(!p.configured && p.bytes == 1000 && p.t == 600, "observed peak");
	is_str(io_peak_source(&p), "observed", "observed source");
	ok(p.mib_s == 1000 / 60.0 / 1048576, "observed MiB/s");
	io_peak_resolve(&s, 250.5, &p);
	ok(p.configured && p.mib_s == 250.5 && p.t == -1, "configured peak");
	is_str(io_peak_source(&p), "configured", "configured source");
	memset(s.state, MIN_MISSING, 4);
	io_peak_resolve(&s, 0, &p);
	ok(p.bytes == 0 && p.t == -1, "no complete minute: no peak");
	minute_series_free(&s);
}

static void
compare_observed(void)
{
	struct io_peak p;

	io_peak_observed(&p, 1000, 0);
	is_i64(io_peak_cmp(&p, 49, 5), -1, "49 < 5%% of 1000");
	is_i64(io_peak_cmp(&p, 50, 5), 0, "50 = 5%% of 1000");
	is_i64(io_peak_cmp(&p, 51, 5), 1, "51 > 5%% of 1000");
	ok(io_below_pct(&p, 329, 33) && !io_below_pct(&p, 330, 33),
	    "33%%: 329 below, 330 not");
	ok(io_below_pct(&p, 0, 0.005) && !io_below_pct(&p, 1, 0.005),
	    "0.005%% rounds to 1/10000");
	ok(!io_below_pct(&p, 0, 0.004), "0.004%% rounds to 0: nothing below");
	ok(!io_below_pct(&p, 0, -3), "negative pct counts as 0");
	ok(io_below_pct(&p, 1000, 100.01) && !io_below_pct(&p, 1000, 100),
	    "peak itself is not below 100%%");
	io_peak_observed(&p, UINT64_MAX, 0);
	ok(io_below_pct(&p, UINT64_MAX - 1, 100) &&
	    !io_below_pct(&p, UINT64_MAX, 100), "no overflow at 2^64");
	io_peak_observed(&p, 0, 0);
	ok(!io_below_pct(&p, 0, 50), "zero peak: nothing below");
	ok(io_pct_mib_s(&p, 5) == 0, "zero peak threshold");
}

static void
compare_configured(void)
{
	struct io_peak p;

	io_peak_configured(&p, 1);	/* 62,914,560 bytes per minute */
	is_i64(io_peak_cmp(&p, 3145727, 5), -1, "below 5%% of 1 MiB/s");
	is_i64(io_peak_cmp(&p, 3145728, 5), 0, "exactly 5%% of 1 MiB/s");
	is_i64(io_peak_cmp(&p, 3145729, 5), 1, "above 5%% of 1 MiB/s");
	/* 33% = 20,761,804.8 */
	ok(io_below_pct(&p, 20761804, 33) && !io_below_pct(&p, 20761805, 33),
	    "33%% of 1 MiB/s between integers");
	/* 0.1 is 0.1000000000000000055511151231257827...: 10% of it as
	 * bytes per minute is 629,145.6000000000349... */
	io_peak_configured(&p, 0.1);
	ok(io_below_pct(&p, 629145, 10) && !io_below_pct(&p, 629146, 10),
	    "10%% of 0.1 MiB/s");
	/* 2^-20 MiB/s = 60 bytes per minute */
	io_peak_configured(&p, 1.0 / 1048576);
	is_i64(io_peak_cmp(&p, 30, 50), 0, "50%% of 60 B/min is 30");
	is_i64(io_peak_cmp(&p, 29, 50), -1, "29 below");
	io_peak_configured(&p, 1e9);	/* 62,914,560,000,000,000 B/min */
	is_i64(io_peak_cmp(&p, 62914560000000000ull, 100), 0, "1e9 MiB/s exact");
	is_i64(io_peak_cmp(&p, 62914560000000001ull, 100), 1, "one above");
	is_i64(io_peak_cmp(&p, 62914559999999999ull, 100), -1, "one below");
	is_i64(io_peak_cmp(&p, 0, 0), 0, "0 vs 0%%");
	is_i64(io_peak_cmp(&p, 1, 0), 1, "1 vs 0%%");
	io_peak_configured(&p, 1e300);
	is_i64(io_peak_cmp(&p, UINT64_MAX, 1), -1, "huge peak");
	io_peak_configured(&p, 1e-300);
	is_i64(io_peak_cmp(&p, 1, 1), 1, "tiny peak");
	is_i64(io_peak_cmp(&p, 0, 1), -1, "0 below a tiny peak");
	ok(io_pct_mib_s(&p, 0) == 0, "0%% threshold");
}

int
main(void)
{
	counting();
	notes();
	peaks();
	compare_observed();
	compare_configured();
	return tap_end();
}
