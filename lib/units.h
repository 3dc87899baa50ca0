/*
 * units: quantities as people write them, in one place for fsscan
 * (--limits) and iocensus (--target):
 *
 *   plain     "1000000000", "1e9", "2.5"
 *   count     "95.7M", "2k": K M G T P are powers of 1000
 *   size      "4096B", "50TB" (KB MB GB TB PB EB: powers of 1000),
 *             "50TiB", "512GiB" (KiB ... EiB: powers of 1024)
 *   percent   "80%", "99.5%"
 *
 * The unit is kept as written, so that a reader can refuse a size where a
 * count is meant (and the reverse) instead of guessing. The value is
 * exact where it is a whole number below 2^64: 1.5TiB is 1649267441664,
 * and 0.1TB is 100000000000, not the nearest double times 10^12.
 */
#ifndef IOCENSUS_UNITS_H
#define IOCENSUS_UNITS_H

#include <stdint.h>

enum units_kind { UNITS_PLAIN, UNITS_COUNT, UNITS_SIZE, UNITS_PERCENT };

struct units_value {
	enum units_kind kind;
	double v;		/* the value; a percentage as a fraction
				   (80% is 0.8) */
	int exact;		/* v is a whole number below 2^64: n */
	uint64_t n;
};

/* Digits with an optional fraction and exponent, then an optional unit,
 * nothing else (no sign, blank, hex, "inf"). 0, or -1. */
int units_parse(const char *s, struct units_value *out);

#endif
