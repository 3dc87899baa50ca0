/* test_units: lib/units.c, quantities as people write them: the kind
 * kept as written, the exact whole value below 2^64 (and when there is
 * none), and every form refused, against values computed by hand here
 * (1.5TiB = 1.5 * 2^40 = 1649267441664). */
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "tap.h"
#include "units.h"

enum { NO = -1 };	/* not exact: no whole value */

static const struct {
	const char *s;
	enum units_kind kind;
	int exact;
	uint64_t n;
	double v;
} good[] = {
	{ "0", UNITS_PLAIN, 1, 0, 0 },
	{ "1000000000", UNITS_PLAIN, 1, 1000000000, 1e9 },
	{ "1e9", UNITS_PLAIN, 1, 1000000000, 1e9 },
	{ "1E9", UNITS_PLAIN, 1, 1000000000, 1e9 },
	{ "1e+3", UNITS_PLAIN, 1, 1000, 1000 },
	{ "25e-1", UNITS_PLAIN, 0, 0, 2.5 },
	{ "2.5", UNITS_PLAIN, 0, 0, 2.5 },
	{ "2.50e1", UNITS_PLAIN, 1, 25, 25 },
	{ ".5", UNITS_PLAIN, 0, 0, 0.5 },
	{ "5.", UNITS_PLAIN, 1, 5, 5 },
	{ "007", UNITS_PLAIN, 1, 7, 7 },
	{ "18446744073709551615", UNITS_PLAIN, 1, UINT64_MAX, 18446744073709551615.0 },
	{ "18446744073709551616", UNITS_PLAIN, 0, 0, 18446744073709551616.0 },
	{ "1.8446744073709551615e19", UNITS_PLAIN, 1, UINT64_MAX, 18446744073709551615.0 },
	{ "2k", UNITS_COUNT, 1, 2000, 2000 },
	{ "2K", UNITS_COUNT, 1, 2000, 2000 },
	{ "95.7M", UNITS_COUNT, 1, 95700000, 95.7e6 },
	{ "1P", UNITS_COUNT, 1, 1000000000000000, 1e15 },
	{ "18446.744073709551615P", UNITS_COUNT, 1, UINT64_MAX, 18446744073709551615.0 },
	{ "18446.744073709551616P", UNITS_COUNT, 0, 0, 18446744073709551616.0 },
	{ "4096B", UNITS_SIZE, 1, 4096, 4096 },
	{ "4096b", UNITS_SIZE, 1, 4096, 4096 },
	{ "50TB", UNITS_SIZE, 1, 50000000000000, 5e13 },
	{ "10kB", UNITS_SIZE, 1, 10000, 10000 },
	{ "0.1TB", UNITS_SIZE, 1, 100000000000, 1e11 },
	{ "1.5TiB", UNITS_SIZE, 1, 1649267441664, 1649267441664.0 },
	{ "512GiB", UNITS_SIZE, 1, 549755813888, 549755813888.0 },
	{ "1KiB", UNITS_SIZE, 1, 1024, 1024 },
	{ "0.5KiB", UNITS_SIZE, 1, 512, 512 },
	{ "0.3KiB", UNITS_SIZE, 0, 0, 307.2 },
	{ "15EiB", UNITS_SIZE, 1, 17293822569102704640u, 17293822569102704640.0 },
	{ "16EiB", UNITS_SIZE, 0, 0, 18446744073709551616.0 },	/* 2^64 */
	{ "18EB", UNITS_SIZE, 1, 18000000000000000000u, 18e18 },
	{ "19EB", UNITS_SIZE, 0, 0, 19e18 },
	{ "80%", UNITS_PERCENT, 0, 0, 0.8 },
	{ "99.5%", UNITS_PERCENT, 0, 0, 0.995 },
	{ "0%", UNITS_PERCENT, 0, 0, 0 },
	{ "1e2%", UNITS_PERCENT, 0, 0, 1 },
	{ "1e-4000", UNITS_PLAIN, 0, 0, 0 },	/* underflows to 0 */
	/* Whole values past what 128 bits of digits hold, and zero at an
	 * exponent past the range: exact all the same. */
	{ "1.0000000000000000000000000000000000000000TB", UNITS_SIZE, 1,
	    1000000000000, 1e12 },
	{ "2.50000000000000000000000000000000000000000000000e1", UNITS_PLAIN,
	    1, 25, 25 },
	{ "0.0000000000000000000000000000000000000000000000", UNITS_PLAIN, 1,
	    0, 0 },
	{ "0e5000", UNITS_PLAIN, 1, 0, 0 },
	{ "0.000e-99999", UNITS_PLAIN, 1, 0, 0 },
	{ "1.00000000000000000000000000000000000000001", UNITS_PLAIN, 0, 0, 1 },
	/* 42 digits of M: past 128 bits, no exact value (units.c) */
	{ "100000000000000000000000000000000000000000e-30", UNITS_PLAIN, 0, 0,
	    1e11 },
};

/* Refused: no number, a sign, a blank, hex, words, a unit not of the
 * table or in the wrong case past its first letter, trailing text, and
 * what is not finite. */
static const char *const bad[] = {
	"", ".", "e3", "-1", "+1", "-0", " 1", "1 ",
	"0x10", "0x1p3", "inf", "nan", "infinity", "1e", "1e+", "1e-",
	"1.2.3", "1..2", "1k2", "2kk", "2KB ", "10kb", "10Kib", "10KIB",
	"5X", "5%%", "5 %", "%", "B", "KiB", "1,5", "1_000", "1e5000",
	"1e99999999999999999999", "2E", "3Mi", "4Gi", "1iB", "1b%",
};

int
main(void)
{
	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
		struct units_value u;
		int rc = units_parse(good[i].s, &u);

		if (!ok(rc == 0, "\"%s\" is taken", good[i].s))
			continue;
		is_i64(u.kind, good[i].kind, "\"%s\": its kind", good[i].s);
		is_i64(u.exact, good[i].exact, "\"%s\": %s", good[i].s,
		    good[i].exact ? "a whole value below 2^64" : "no exact value");
		if (good[i].exact)
			is_u64(u.n, good[i].n, "\"%s\": exactly", good[i].s);
		ok_why(fabs(u.v - good[i].v) <= 1e-12 * fabs(good[i].v),
		    "not the value written", "\"%s\": the value %.17g",
		    good[i].s, good[i].v);
	}
	{
		struct units_value u;

		is_i64(units_parse("1\t", &u), -1, "\"1\\t\" is refused");
		is_i64(units_parse("1\n", &u), -1, "\"1\\n\" is refused");
	}
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct units_value u;

		is_i64(units_parse(bad[i], &u), -1, "\"%s\" is refused",
		    bad[i]);
	}
	return tap_end();
}
