/* test_traffic_peak: the peak of report/traffic/traffic_peak.c (observed
 * or configured) and its exact percent-of-peak comparisons and ratios,
 * against hand-computed values. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "traffic/traffic_int.h"
#include "minutes_fixture.h"
#include "tap.h"

/* A decimal the test spells out; a parse failure shows as a failed check
 * and the value 0. */
static struct xdec
dec(const char *s)
{
	struct xdec x = XDEC_INT(0);

	if (opts_xdec_parse(s, &x) != 0)
		ok(0, "dec(\"%s\") parses", s);
	return x;
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
	traffic_peak_resolve(&s, XDEC_INT(0), &p);
	ok(!p.configured && p.bytes == 1000 && p.t == 600, "observed peak");
	is_str(traffic_peak_source(&p), "observed", "observed source");
	ok(p.mib_s == 1000 / 60.0 / 1048576, "observed MiB/s");
	traffic_peak_resolve(&s, dec("250.5"), &p);
	ok(p.configured && p.mib_s == 250.5 && p.t == -1 && p.cfg.n == 2505 &&
	    p.cfg.k == 1, "configured peak");
	is_str(traffic_peak_source(&p), "configured", "configured source");
	memset(s.state, MIN_MISSING, 4);
	traffic_peak_resolve(&s, XDEC_INT(0), &p);
	ok(p.bytes == 0 && p.t == -1, "no complete minute: no peak");
	query_minutes_free(&s);
}

static void
compare_observed(void)
{
	struct io_peak p;

	traffic_peak_observed(&p, 1000, 0);
	is_i64(traffic_peak_cmp(&p, 49, XDEC_INT(5)), -1, "49 < 5%% of 1000");
	is_i64(traffic_peak_cmp(&p, 50, XDEC_INT(5)), 0, "50 = 5%% of 1000");
	is_i64(traffic_peak_cmp(&p, 51, XDEC_INT(5)), 1, "51 > 5%% of 1000");
	ok(traffic_peak_below_pct(&p, 329, XDEC_INT(33)) &&
	    !traffic_peak_below_pct(&p, 330, XDEC_INT(33)), "33%%: 329 below, 330 not");
	ok(traffic_peak_below_pct(&p, 0, dec("0.005")) &&
	    !traffic_peak_below_pct(&p, 1, dec("0.005")),
	    "0.005%%: 0 below, 1 not");
	/* 0.004% of 1000 is 0.04 bytes: no longer rounded to 0%. */
	ok(traffic_peak_below_pct(&p, 0, dec("0.004")) &&
	    !traffic_peak_below_pct(&p, 1, dec("0.004")), "0.004%%: a zero minute is "
	    "below");
	ok(traffic_peak_below_pct(&p, 1000, dec("100.01")) &&
	    !traffic_peak_below_pct(&p, 1000, XDEC_INT(100)),
	    "peak itself is not below 100%%");
	/* 5.555% of 100000 is 5555 exactly (it used to act as 5.56%). */
	traffic_peak_observed(&p, 100000, 0);
	is_i64(traffic_peak_cmp(&p, 5555, dec("5.555")), 0, "5555 = 5.555%%");
	is_i64(traffic_peak_cmp(&p, 5554, dec("5.555")), -1, "one byte less is "
	    "below 5.555%%");
	/* Six decimals: 1.000001% of 10^8 is 1000001, 0.000001% is 1. */
	traffic_peak_observed(&p, 100000000, 0);
	is_i64(traffic_peak_cmp(&p, 1000001, dec("1.000001")), 0,
	    "1.000001%% of 10^8");
	is_i64(traffic_peak_cmp(&p, 1000000, dec("1.000001")), -1,
	    "one byte below 1.000001%%");
	is_i64(traffic_peak_cmp(&p, 1, dec("0.000001")), 0,
	    "0.000001%% of 10^8");
	ok(traffic_peak_below_pct(&p, 0, dec("0.000001")),
	    "0 below 0.000001%%");
	traffic_peak_observed(&p, UINT64_MAX, 0);
	ok(traffic_peak_below_pct(&p, UINT64_MAX - 1, XDEC_INT(100)) &&
	    !traffic_peak_below_pct(&p, UINT64_MAX, XDEC_INT(100)),
	    "no overflow at 2^64");
	ok(traffic_peak_below_pct(&p, UINT64_MAX - 1, dec("99.999999")) == 0 &&
	    traffic_peak_below_pct(&p, UINT64_MAX / 100 * 99, dec("99.999999")),
	    "99.999999%% of 2^64 - 1");
	traffic_peak_observed(&p, 0, 0);
	ok(!traffic_peak_below_pct(&p, 0, XDEC_INT(50)),
	    "zero peak: nothing below");
	ok(traffic_peak_pct_mib_s(&p, XDEC_INT(5)) == 0, "zero peak threshold");
	ok(isnan(traffic_peak_ratio(&p, 0)), "zero peak: no ratio");
	traffic_peak_observed(&p, 3, 0);
	ok(traffic_peak_ratio(&p, 1) == 1.0 / 3, "observed ratio 1/3");
}

static void
compare_configured(void)
{
	struct io_peak p;

	traffic_peak_configured(&p, XDEC_INT(1));	/* 62,914,560 B/min */
	is_i64(traffic_peak_cmp(&p, 3145727, XDEC_INT(5)), -1,
	    "below 5%% of 1 MiB/s");
	is_i64(traffic_peak_cmp(&p, 3145728, XDEC_INT(5)), 0,
	    "exactly 5%% of 1 MiB/s");
	is_i64(traffic_peak_cmp(&p, 3145729, XDEC_INT(5)), 1,
	    "above 5%% of 1 MiB/s");
	/* 33% = 20,761,804.8 */
	ok(traffic_peak_below_pct(&p, 20761804, XDEC_INT(33)) &&
	    !traffic_peak_below_pct(&p, 20761805, XDEC_INT(33)),
	    "33%% of 1 MiB/s between integers");
	/* 0.1 MiB/s is 6,291,456 B/min exactly: 10% is 629,145.6, 50% is
	 * 3,145,728 (the double 0.1 made that minute count as below). */
	traffic_peak_configured(&p, dec("0.1"));
	ok(traffic_peak_below_pct(&p, 629145, XDEC_INT(10)) &&
	    !traffic_peak_below_pct(&p, 629146, XDEC_INT(10)),
	    "10%% of 0.1 MiB/s");
	is_i64(traffic_peak_cmp(&p, 3145728, XDEC_INT(50)), 0,
	    "50%% of 0.1 MiB/s exact");
	/* The reviewer's case: 331776 sectors of 512 B in a minute is 2.7
	 * MiB/s exactly, 169,869,312 B. */
	traffic_peak_configured(&p, dec("2.7"));
	is_i64(traffic_peak_cmp(&p, 169869312, XDEC_INT(100)), 0,
	    "a minute at exactly 2.7 MiB/s is 100%% of 2.7");
	is_i64(traffic_peak_cmp(&p, 169869311, XDEC_INT(100)), -1,
	    "one byte less is below");
	/* 99.999999% of it is 169,869,310.301... */
	ok(traffic_peak_below_pct(&p, 169869310, dec("99.999999")) &&
	    !traffic_peak_below_pct(&p, 169869311, dec("99.999999")),
	    "99.999999%% of 2.7 MiB/s");
	/* 0.003125 MiB/s = 196,608 B/min: six decimals, 50% is 98,304. */
	traffic_peak_configured(&p, dec("0.003125"));
	is_i64(traffic_peak_cmp(&p, 98304, XDEC_INT(50)), 0,
	    "50%% of 0.003125");
	is_i64(traffic_peak_cmp(&p, 98303, XDEC_INT(50)), -1, "one below");
	is_i64(traffic_peak_cmp(&p, 98304, dec("50.000001")), -1,
	    "below 50.000001%%");
	traffic_peak_configured(&p, XDEC_INT(1000000000));
	/* 62,914,560,000,000,000 B/min */
	is_i64(traffic_peak_cmp(&p, 62914560000000000ull, XDEC_INT(100)), 0,
	    "1e9 MiB/s exact");
	is_i64(traffic_peak_cmp(&p, 62914560000000001ull, XDEC_INT(100)), 1,
	    "one above");
	is_i64(traffic_peak_cmp(&p, 62914559999999999ull, XDEC_INT(100)), -1,
	    "one below");
	is_i64(traffic_peak_cmp(&p, 0, XDEC_INT(0)), 0, "0 vs 0%%");
	is_i64(traffic_peak_cmp(&p, 1, XDEC_INT(0)), 1, "1 vs 0%%");
	/* 2^40 MiB/s, the largest --peak: 60 * 2^60 B/min > 2^64; 1% of it
	 * is 691,752,902,764,108,185.6. */
	traffic_peak_configured(&p, dec("1099511627776"));
	is_i64(traffic_peak_cmp(&p, UINT64_MAX, XDEC_INT(100)), -1,
	    "huge peak");
	ok(traffic_peak_below_pct(&p, 691752902764108185ull, XDEC_INT(1)) &&
	    !traffic_peak_below_pct(&p, 691752902764108186ull, XDEC_INT(1)),
	    "1%% of 2^40 MiB/s");
	is_i64(traffic_peak_cmp(&p, UINT64_MAX, dec("99.999999")), -1,
	    "huge peak, six decimals");
	/* 0.000001 MiB/s = 62.91456 B/min: 1% of it is 0.6291456. */
	traffic_peak_configured(&p, dec("0.000001"));
	is_i64(traffic_peak_cmp(&p, 1, XDEC_INT(1)), 1, "tiny peak");
	is_i64(traffic_peak_cmp(&p, 0, XDEC_INT(1)), -1, "0 below a tiny peak");
	is_i64(traffic_peak_cmp(&p, 0, dec("0.000001")), -1,
	    "0 below the least share of the least peak");
	ok(traffic_peak_pct_mib_s(&p, XDEC_INT(0)) == 0, "0%% threshold");
	/* Outside the CLI limits the compare stays defined. */
	traffic_peak_configured(&p, dec("999999999999999999"));
	is_i64(traffic_peak_cmp(&p, UINT64_MAX, dec("999999999999999999")), -1,
	    "far past the limits: no overflow");
}

/* bytes / P with one rounding: 10% of 1.5 MiB/s showed 0.0999...9. */
static void
ratios(void)
{
	struct io_peak p;

	traffic_peak_configured(&p, dec("1.5"));
	ok(traffic_peak_ratio(&p, 9437184) == 0.1, "10%% of 1.5 MiB/s is 0.1");
	traffic_peak_configured(&p, dec("2.7"));
	ok(traffic_peak_ratio(&p, 169869312) == 1, "2.7 MiB/s of 2.7 is 1");
	ok(traffic_peak_ratio(&p, 0) == 0, "nothing is 0");
	/* 1 / (2.7 * 60 * 2^20) = 1 / 169869312 */
	ok(traffic_peak_ratio(&p, 1) == 1.0 / 169869312, "one byte");
	traffic_peak_configured(&p, dec("0.000001"));
	/* 2^62 * 10^6 / (60 * 2^20) = 2^44 * 12500 / 3, one rounding */
	ok(traffic_peak_ratio(&p, 1ull << 62) == 0x1p44 * 12500 / 3,
	    "tiny peak ratio");
}

int
main(void)
{
	peaks();
	compare_observed();
	compare_configured();
	ratios();
	return tap_end();
}
