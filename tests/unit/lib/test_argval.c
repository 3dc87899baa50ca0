/* test_argval: lib/argval.c, the strict decimal values of options: the
 * digits it takes and where it stops, at every limit of 64 bits, and
 * what it refuses (signs, blanks, base prefixes, trailing text), against
 * values written out here. */
#include <stddef.h>
#include <stdint.h>

#include "argval.h"
#include "tap.h"

static void
digits(void)
{
	static const struct {
		const char *s;
		size_t len;		/* digits taken; 0: refused */
		uint64_t v;
	} c[] = {
		{ "0", 1, 0 },
		{ "007", 3, 7 },
		{ "42abc", 2, 42 },	/* stops at the first non-digit */
		{ "12 ", 2, 12 },
		{ "18446744073709551615", 20, UINT64_MAX },
		{ "018446744073709551615", 21, UINT64_MAX },
		{ "18446744073709551615x", 20, UINT64_MAX },
		{ "18446744073709551616", 0, 0 },	/* 2^64 */
		{ "18446744073709551620", 0, 0 },
		{ "99999999999999999999", 0, 0 },
		{ "184467440737095516150", 0, 0 },	/* ten times the max */
		{ "", 0, 0 },
		{ "x1", 0, 0 },
		{ "-1", 0, 0 },
		{ "+1", 0, 0 },
		{ " 1", 0, 0 },
	};

	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
		uint64_t v = 12345;
		const char *end = argval_digits(c[i].s, &v);

		if (c[i].len == 0) {
			ok(end == NULL && v == 12345,
			    "argval_digits \"%s\": refused, value untouched",
			    c[i].s);
			continue;
		}
		ok(end == c[i].s + c[i].len,
		    "argval_digits \"%s\": %zu digits", c[i].s, c[i].len);
		is_u64(v, c[i].v, "argval_digits \"%s\": value", c[i].s);
	}
}

static void
whole(void)
{
	static const struct {
		const char *s;
		uint64_t max;
		int rc;
		uint64_t v;
	} c[] = {
		{ "0", 0, 0, 0 },
		{ "1", 0, -1, 0 },			/* above max */
		{ "65535", 65535, 0, 65535 },
		{ "65536", 65535, -1, 0 },
		{ "18446744073709551615", UINT64_MAX, 0, UINT64_MAX },
		{ "18446744073709551616", UINT64_MAX, -1, 0 },
		{ "4294967296", UINT32_MAX, -1, 0 },
		{ "4294967295", UINT32_MAX, 0, UINT32_MAX },
		{ "", UINT64_MAX, -1, 0 },
		{ "1 ", UINT64_MAX, -1, 0 },		/* trailing blank */
		{ "1k", UINT64_MAX, -1, 0 },		/* trailing text */
		{ "1.0", UINT64_MAX, -1, 0 },
		{ "0x10", UINT64_MAX, -1, 0 },		/* strtoull: 16 */
		{ " -1", UINT64_MAX, -1, 0 },		/* strtoull: 2^64-1 */
		{ "-0", UINT64_MAX, -1, 0 },
		{ "+5", UINT64_MAX, -1, 0 },
		{ "1e3", UINT64_MAX, -1, 0 },
	};

	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
		uint64_t v = 777;
		int rc = argval_u64(c[i].s, c[i].max, &v);

		is_i64(rc, c[i].rc, "argval_u64 \"%s\" max %ju", c[i].s,
		    (uintmax_t)c[i].max);
		is_u64(v, rc == 0 ? c[i].v : 777,
		    "argval_u64 \"%s\": %s", c[i].s,
		    rc == 0 ? "the value" : "value untouched");
	}
}

int
main(void)
{
	digits();
	whole();
	return tap_end();
}
