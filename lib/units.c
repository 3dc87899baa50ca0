/*
 * units: numbers with units (units.h). The digits are read twice: into a
 * double with strtod, and exactly into 128-bit integers (the digits M,
 * the decimals k, the exponent e), so that a whole value below 2^64 is
 * M * 10^(e - k) * unit with no rounding at all.
 */
#include "units.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned __int128 u128;

#define U128_MAX (~(u128)0)

static const struct {
	const char *suffix;
	enum units_kind kind;
	unsigned base;		/* 1000 or 1024 (1: no multiple) */
	int power;
} unit[] = {
	{ "", UNITS_PLAIN, 1, 0 }, { "%", UNITS_PERCENT, 1, 0 },
	{ "B", UNITS_SIZE, 1, 0 },
	{ "K", UNITS_COUNT, 1000, 1 }, { "M", UNITS_COUNT, 1000, 2 },
	{ "G", UNITS_COUNT, 1000, 3 }, { "T", UNITS_COUNT, 1000, 4 },
	{ "P", UNITS_COUNT, 1000, 5 },
	{ "KB", UNITS_SIZE, 1000, 1 }, { "MB", UNITS_SIZE, 1000, 2 },
	{ "GB", UNITS_SIZE, 1000, 3 }, { "TB", UNITS_SIZE, 1000, 4 },
	{ "PB", UNITS_SIZE, 1000, 5 }, { "EB", UNITS_SIZE, 1000, 6 },
	{ "KiB", UNITS_SIZE, 1024, 1 }, { "MiB", UNITS_SIZE, 1024, 2 },
	{ "GiB", UNITS_SIZE, 1024, 3 }, { "TiB", UNITS_SIZE, 1024, 4 },
	{ "PiB", UNITS_SIZE, 1024, 5 }, { "EiB", UNITS_SIZE, 1024, 6 },
};
#define NUNIT (sizeof unit / sizeof unit[0])

/* a * b, or 0 with *ovf set when it does not fit. */
static u128
mul(u128 a, u128 b, int *ovf)
{
	if (a && b > U128_MAX / a) {
		*ovf = 1;
		return 0;
	}
	return a * b;
}

static u128
pow_u(unsigned base, int power, int *ovf)
{
	u128 r = 1;

	for (int i = 0; i < power; i++)
		r = mul(r, base, ovf);
	return r;
}

/* The number at s: its length, and M, k, e for the exact value; 0 when
 * there is no number. Digits beyond what 128 bits hold set *inexact.
 * Zeros that end the fraction are not digits of M (1.000...0 with 40
 * zeros is 1, exactly), and zero is zero at any exponent. */
static size_t
scan_number(const char *s, u128 *m, int *k, long *e, int *inexact)
{
	const char *p = s;
	int any = 0, ovf = 0, zeros = 0;

	*m = 0, *k = 0, *e = 0, *inexact = 0;
	for (int frac = 0;; p++) {
		if (*p == '.' && !frac) {
			frac = 1;
			continue;
		}
		if (!isdigit((unsigned char)*p))
			break;
		any = 1;
		if (frac && *p == '0') {
			zeros++;	/* a digit of M only if one follows */
			continue;
		}
		for (; zeros > 0; zeros--, (*k)++)
			*m = mul(*m, 10, &ovf);
		*m = mul(*m, 10, &ovf) + (u128)(*p - '0');
		*k += frac;
	}
	if (!any)
		return 0;
	if ((*p == 'e' || *p == 'E') && (isdigit((unsigned char)p[1]) ||
	    ((p[1] == '+' || p[1] == '-') && isdigit((unsigned char)p[2])))) {
		char *end;
		*e = strtol(p + 1, &end, 10);
		p = end;
		if ((*e > 4000 || *e < -4000) && *m == 0 && !ovf)
			*e = 0;
		else if (*e > 4000 || *e < -4000)
			ovf = 1;
	}
	*inexact = ovf;
	return (size_t)(p - s);
}

/* M * 10^(e - k) * mult as a whole number below 2^64: 1, or 0. */
static int
exact_value(u128 m, int k, long e, u128 mult, uint64_t *n)
{
	int ovf = 0;
	long sh = e - k;
	u128 v = mul(m, mult, &ovf);

	if (sh >= 0) {
		v = mul(v, pow_u(10, (int)sh, &ovf), &ovf);
	} else {
		u128 den = pow_u(10, (int)-sh, &ovf);
		if (ovf) {
			if (v != 0)
				return 0;
			ovf = 0;
		} else if (v % den != 0) {
			return 0;
		} else {
			v /= den;
		}
	}
	if (ovf || v > UINT64_MAX)
		return 0;
	*n = (uint64_t)v;
	return 1;
}

/* The unit as written, its first letter in either case (2k, 10kB). */
static int
suffix_is(const char *s, const char *suffix)
{
	if (!*suffix || !isalpha((unsigned char)*suffix))
		return strcmp(s, suffix) == 0;
	return toupper((unsigned char)*s) == *suffix &&
	    strcmp(s + 1, suffix + 1) == 0;
}

int
units_parse(const char *s, struct units_value *out)
{
	u128 m, mult;
	int k, inexact, ovf = 0;
	long e;
	size_t len = scan_number(s, &m, &k, &e, &inexact);
	char *end;
	double d;

	if (len == 0)
		return -1;
	for (size_t i = 0; i < NUNIT; i++) {
		if (!suffix_is(s + len, unit[i].suffix))
			continue;
		d = strtod(s, &end);
		if ((size_t)(end - s) != len)
			return -1;
		mult = pow_u(unit[i].base, unit[i].power, &ovf);
		out->kind = unit[i].kind;
		out->v = d * (double)mult;
		out->exact = !inexact && unit[i].kind != UNITS_PERCENT &&
		    exact_value(m, k, e, mult, &out->n);
		if (out->exact)
			out->v = (double)out->n;
		if (unit[i].kind == UNITS_PERCENT)
			out->v = d / 100;
		return isfinite(out->v) ? 0 : -1;
	}
	return -1;
}
