/*
 * opts_xdec: exact user decimals (struct xdec, opts.h).
 */
#include <stdio.h>
#include <string.h>

#include "opts.h"


static const uint64_t pow10_tab[XDEC_MAX_FRAC + 1] = {
	1, 10, 100, 1000, 10000, 100000, 1000000
};

uint64_t
opts_xdec_pow10(unsigned k)
{
	return pow10_tab[k <= XDEC_MAX_FRAC ? k : XDEC_MAX_FRAC];
}

static size_t
span_digits(const char *s)
{
	return strspn(s, "0123456789");
}

/* n * 10 + the digits of s[0..len), or -1 once it reaches XDEC_LIMIT. */
static int
add_digits(uint64_t *n, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		uint64_t d = (uint64_t)(s[i] - '0');
		if (*n > (XDEC_LIMIT - 1 - d) / 10)
			return -1;
		*n = *n * 10 + d;
	}
	return 0;
}

int
opts_xdec_parse(const char *s, struct xdec *out)
{
	size_t ilen = span_digits(s), flen = 0;
	const char *frac = s + ilen;
	uint64_t n = 0;

	if (ilen == 0)
		return -1;
	if (*frac == '.') {
		frac++;
		flen = span_digits(frac);
		if (flen == 0)
			return -1;
	}
	if (frac[flen] != '\0')
		return -1;
	/* "5.5550000" is 5.555: zeros at the end say nothing. */
	while (flen > 0 && frac[flen - 1] == '0')
		flen--;
	if (flen > XDEC_MAX_FRAC || add_digits(&n, s, ilen) < 0 ||
	    add_digits(&n, frac, flen) < 0)
		return -1;
	*out = (struct xdec){ .n = n, .k = (unsigned)flen };
	return 0;
}

/* Below 2^53 this is one correctly rounded division, so it equals what
 * strtod makes of the same text. */
double
opts_xdec_value(struct xdec x)
{
	return (double)x.n / (double)opts_xdec_pow10(x.k);
}

char *
opts_xdec_fmt(struct xdec x, char *buf, size_t len)
{
	uint64_t p = opts_xdec_pow10(x.k);

	if (x.k == 0)
		snprintf(buf, len, "%llu", (unsigned long long)x.n);
	else
		snprintf(buf, len, "%llu.%0*llu", (unsigned long long)(x.n / p),
		    (int)x.k, (unsigned long long)(x.n % p));
	return buf;
}
