/* test_opts_xdec: the exact decimals of report/opts/opts_xdec.c that
 * --peak, --host-peak and --threshold are read into: what parses (and
 * into which n / 10^k), what is refused, and the value, text and powers
 * of ten, against hand-written expectations. */
#include <stdint.h>

#include "opts/opts.h"
#include "tap.h"

/* n / 10^k, written out. */
#define XDEC(n_, k_)	((struct xdec){ .n = (n_), .k = (k_) })

static void
parse_ok(const char *s, uint64_t n, unsigned k)
{
	struct xdec x = { 7, 7 };

	ok(opts_xdec_parse(s, &x) == 0 && x.n == n && x.k == k,
	    "parse \"%s\" = %llu / 10^%u", s, (unsigned long long)n, k);
}

static void
parse_bad(const char *s)
{
	struct xdec x = { 7, 3 };

	ok(opts_xdec_parse(s, &x) == -1 && x.n == 7 && x.k == 3,
	    "reject \"%s\", output untouched", s);
}

static void
decimals(void)
{
	char buf[32];

	parse_ok("2.7", 27, 1);
	parse_ok("0.000001", 1, 6);
	parse_ok("5.5550000", 5555, 3);
	parse_ok("100", 100, 0);
	parse_ok("0", 0, 0);
	parse_ok("007.50", 75, 1);
	parse_ok("1.0000000000", 1, 0);
	parse_ok("999999999999.999999", 999999999999999999ull, 6);
	parse_ok("999999999999999999", 999999999999999999ull, 0);
	parse_bad("");
	parse_bad(".");
	parse_bad("1e3");
	parse_bad("-1");
	parse_bad("+1");
	parse_bad("1.0000001");
	parse_bad(" 5");
	parse_bad("5 ");
	parse_bad("5.");
	parse_bad(".5");
	parse_bad("5k");
	parse_bad("1,5");
	parse_bad("1.2.3");
	parse_bad("inf");
	parse_bad("1000000000000000000");
	parse_bad("1000000000000.000001");
	ok(opts_xdec_value(XDEC(27, 1)) == 2.7 &&
	    opts_xdec_value(XDEC(5555, 3)) == 5.555,
	    "value is the double strtod gives");
	is_str(opts_xdec_fmt(XDEC(5555, 3), buf, sizeof buf), "5.555",
	    "fmt 5.555");
	is_str(opts_xdec_fmt(XDEC(1, 6), buf, sizeof buf), "0.000001",
	    "fmt 0.000001");
	is_str(opts_xdec_fmt(XDEC_INT(100), buf, sizeof buf), "100", "fmt 100");
	ok(opts_xdec_pow10(0) == 1 && opts_xdec_pow10(6) == 1000000, "powers of ten");
}

int
main(void)
{
	decimals();
	return tap_end();
}
