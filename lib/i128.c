/*
 * i128: decimal text of 128-bit integers (i128.h).
 */
#include "i128.h"

char *
i128_str(i128 v, char buf[I128_STRLEN])
{
	char tmp[I128_STRLEN];
	int n = 0, k = 0;
	u128 u = v < 0 ? -(u128)v : (u128)v;	/* no overflow at I128_MIN */

	do {
		tmp[n++] = (char)('0' + (int)(u % 10));
		u /= 10;
	} while (u);
	if (v < 0)
		buf[k++] = '-';
	while (n)
		buf[k++] = tmp[--n];
	buf[k] = 0;
	return buf;
}

int
i128_parse(const char *s, i128 *out)
{
	u128 u = 0, lim;
	int neg = *s == '-';

	s += neg;
	if (!*s)
		return -1;
	/* The magnitude of I128_MIN is one more than I128_MAX. */
	lim = (u128)I128_MAX + (u128)neg;
	for (; *s; s++) {
		unsigned d = (unsigned)(*s - '0');
		if (*s < '0' || *s > '9' || u > (lim - d) / 10)
			return -1;
		u = u * 10 + d;
	}
	*out = neg ? (i128)(0 - u) : (i128)u;
	return 0;
}
