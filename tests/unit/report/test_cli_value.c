/* test_cli_value: the option values of report/cli/cli_value.c (durations,
 * sizes, counts and their lists) and the times of lib/epoch.c that every
 * time option is read with, against hand-computed values. */
#include <stdint.h>

#include "cli/cli_int.h"
#include "epoch.h"
#include "tap.h"

static void
time_ok(const char *s, int64_t want)
{
	int64_t got = -12345;

	if (ok(epoch_parse(s, &got) == 0, "time %s parses", s))
		is_i64(got, want, "time %s", s);
}

static void
time_bad(const char *s)
{
	int64_t got;

	ok(epoch_parse(s, &got) == -1, "time \"%s\" rejected", s);
}

static void
dur_ok(const char *s, int64_t want)
{
	int64_t got = -1;

	if (ok(cli_value_duration(s, &got) == 0, "duration %s parses", s))
		is_i64(got, want, "duration %s", s);
}

static void
dur_bad(const char *s)
{
	int64_t got;

	ok(cli_value_duration(s, &got) == -1, "duration \"%s\" rejected", s);
}

static void
size_ok(const char *s, uint64_t want)
{
	uint64_t got = 7;

	if (ok(cli_value_size(s, &got) == 0, "size %s parses", s))
		is_u64(got, want, "size %s", s);
}

static void
size_bad(const char *s)
{
	uint64_t got;

	ok(cli_value_size(s, &got) == -1, "size \"%s\" rejected", s);
}

static void
count_ok(const char *s, double want)
{
	double got = -1;

	if (ok(cli_value_count(s, &got) == 0, "count %s parses", s))
		ok_why(got == want, "value differs", "count %s = %.17g", s,
		    want);
}

static void
count_bad(const char *s)
{
	double got;

	ok(cli_value_count(s, &got) == -1, "count \"%s\" rejected", s);
}

static void
times(void)
{
	time_ok("0", 0);
	time_ok("1264982400", 1264982400);
	time_ok("@1264982400", 1264982400);
	/* 2010-02-01 = 14641 days after the epoch: 14641 * 86400 */
	time_ok("2010-02-01", 1264982400);
	time_ok("2010-02-01Z", 1264982400);
	time_ok("2010-02-01T09:00", 1264982400 + 9 * 3600);
	time_ok("2010-02-01 09:00:00", 1264982400 + 9 * 3600);
	time_ok("2010-02-01T09:00:59Z", 1264982400 + 9 * 3600 + 59);
	time_ok("1970-01-01", 0);
	time_ok("1969-12-31", -86400);
	time_ok("2000-02-29", 951782400);	/* leap (div by 400) */
	time_ok("2010-03-01", 1267401600);	/* Feb 2010 has 28 days */
	/* the range of lib/epoch.h: years 0 to 9999; days_from_civil by
	 * hand: 0000-01-01 is 719528 days before 1970-01-01 (1970 * 365
	 * plus the 478 leap days of years 0 to 1969), 10000-01-01 is
	 * 2932897 days after it */
	time_ok("0000-01-01", -719528LL * 86400);
	time_ok("0000-02-29", (-719528LL + 59) * 86400);	/* leap */
	time_ok("9999-12-31T23:59:59", 2932897LL * 86400 - 1);
	time_ok("-62167219200", -719528LL * 86400);
	time_ok("253402300799", 2932897LL * 86400 - 1);
	time_ok("-5", -5);
	time_ok("@-86400", -86400);
	time_ok("-0", 0);
	time_bad("-62167219201");
	time_bad("253402300800");
	time_bad("9223372036854775807");
	time_bad("-9223372036854775808");
	time_bad("");
	time_bad("@");
	time_bad("-");
	time_bad("--5");
	time_bad("+5");
	time_bad("9223372036854775808");
	time_bad("99999999999999999999");
	time_bad("12x");
	time_bad("@2010-02-01");
	time_bad("10000-01-01");
	time_bad("-2010-02-01");
	time_bad("2010-2-01");
	time_bad("2010-02-30");
	time_bad("1900-02-29");	/* not leap (div by 100) */
	time_bad("2010-13-01");
	time_bad("2010-00-10");
	time_bad("2010-02-01T24:00");
	time_bad("2010-02-01T09:60");
	time_bad("2010-02-01T09:00:60");
	time_bad("2010-02-01T09");
	time_bad("2010-02-01T09:00:0");
	time_bad("2010-02-01ZZ");
	time_bad("2010-02-01 ");
	time_bad(" 2010-02-01");
}

static void
durations(void)
{
	dur_ok("90", 90);
	dur_ok("0", 0);
	dur_ok("90s", 90);
	dur_ok("10m", 600);
	dur_ok("10min", 600);
	dur_ok("1h", 3600);
	dur_ok("2d", 172800);
	dur_ok("1w", 604800);
	dur_bad("");
	dur_bad("h");
	dur_bad("1.5h");
	dur_bad("-1");
	dur_bad("1hh");
	dur_bad("1 h");
	dur_bad("1y");
	dur_bad("9223372036854775808");
	dur_bad("18446744073709551615w");
	dur_bad("99999999999999999999");
}

static void
sizes(void)
{
	size_ok("0", 0);
	size_ok("131072", 131072);
	size_ok("128K", 131072);
	size_ok("128KiB", 131072);
	size_ok("128k", 131072);
	size_ok("1M", 1048576);
	size_ok("1MiB", 1048576);
	size_ok("1G", 1073741824);
	size_ok("2T", 2ull << 40);
	size_ok("100B", 100);
	size_ok("18446744073709551615", UINT64_MAX);
	size_bad("");
	size_bad("K");
	size_bad("1X");
	size_bad("1Ki");
	size_bad("1KiBs");
	size_bad("1.5M");
	size_bad("-1");
	size_bad("18446744073709551616");
	size_bad("16777216T");	/* 2^24 * 2^40 = 2^64 overflows */
}

static void
counts(void)
{
	count_ok("1e9", 1e9);
	count_ok("1000000000", 1e9);
	count_ok("95.7M", 95.7 * 1e6);
	count_ok("191.4M", 191.4 * 1e6);
	count_ok("1G", 1e9);
	count_ok("2K", 2000);
	count_ok("1T", 1e12);
	count_ok("0.5", 0.5);
	count_ok(".5", 0.5);
	count_ok("1e+3", 1000);
	count_ok("0", 0);
	count_bad("");
	count_bad("M");
	count_bad("-1");
	count_bad("+1");
	count_bad("inf");
	count_bad("nan");
	count_bad("0x10");
	count_bad(" 1");
	count_bad("1 ");
	count_bad("1e");
	count_bad("1.2.3");
	count_bad("1P");
	count_bad("1X");
	count_bad("1e400");
}

static void
lists(void)
{
	int64_t d[8];
	uint64_t z[3];

	is_i64(cli_value_durations("1m,10m,1h,2h,4h,8h,1d", d, 8), 7,
	    "duration list count");
	is_i64(d[0], 60, "duration list first");
	is_i64(d[6], 86400, "duration list last");
	is_i64(cli_value_durations("90", d, 8), 1, "single item list");
	is_i64(cli_value_durations("", d, 8), -1, "empty list rejected");
	is_i64(cli_value_durations("1m,", d, 8), -1, "trailing comma rejected");
	is_i64(cli_value_durations(",1m", d, 8), -1, "leading comma rejected");
	is_i64(cli_value_durations("1m,,2m", d, 8), -1, "empty item rejected");
	is_i64(cli_value_durations("1m,x", d, 8), -1, "bad item rejected");
	is_i64(cli_value_sizes("0,128K,1M", z, 3), 3, "size list count");
	is_u64(z[1], 131072, "size list 128K");
	is_u64(z[2], 1048576, "size list 1M");
	is_i64(cli_value_sizes("0,128K,1M,2M", z, 3), -1,
	    "size list longer than max rejected");
}

int
main(void)
{
	times();
	durations();
	sizes();
	counts();
	lists();
	return tap_end();
}
