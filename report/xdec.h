/*
 * xdec: a decimal the user typed, kept exactly as n / 10^k.
 *
 * The I/O analyses compare a minute's bytes with a percentage of a peak
 * exactly, in integers; a double cannot hold 2.7 or 5.555, so the
 * options that feed those comparisons (--peak, --host-peak, --threshold)
 * are parsed into this instead. Every struct xdec has k <= XDEC_MAX_FRAC
 * and n < XDEC_LIMIT, so n fits 60 bits and 10^k 20 bits.
 */
#ifndef IOCENSUS_XDEC_H
#define IOCENSUS_XDEC_H

#include <stddef.h>
#include <stdint.h>

#define XDEC_MAX_FRAC	6
#define XDEC_LIMIT	1000000000000000000ull	/* 10^18 < 2^60 */

struct xdec {
	uint64_t n;
	unsigned k;		/* the value is n / 10^k */
};

/* The integer v (0 <= v < XDEC_LIMIT). */
#define XDEC_INT(v)	((struct xdec){ .n = (v), .k = 0 })

/* "digits[.digits]" only: no sign, exponent, suffix or blank; at most
 * XDEC_MAX_FRAC decimals (zeros after them are fine); n < XDEC_LIMIT.
 * Trailing zeros of the decimals are dropped, so k is the least that
 * holds the value. 0, or -1 leaving *out alone. */
int xdec_parse(const char *s, struct xdec *out);

/* 10^k for k <= XDEC_MAX_FRAC. */
uint64_t xdec_pow10(unsigned k);

/* The nearest double, for display. */
double xdec_value(struct xdec x);

/* The exact decimal ("5.555", "100") into buf; returns buf. */
char *xdec_fmt(struct xdec x, char *buf, size_t len);

#endif
