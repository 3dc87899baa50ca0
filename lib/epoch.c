/*
 * epoch: times as users write them, within the range of epoch.h.
 */
#include "epoch.h"

#include <stddef.h>

#include "argval.h"

/* Exactly n digits as an int (for date fields). */
static const char *
fixed_digits(const char *s, int n, int *v)
{
	int x = 0;

	for (int i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return NULL;
		x = x * 10 + (s[i] - '0');
	}
	*v = x;
	return s + n;
}

static int
is_leap(int y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static int
days_in_month(int y, int m)
{
	static const int dm[12] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31,
	    30, 31 };

	return m == 2 && is_leap(y) ? 29 : dm[m - 1];
}

/* Days since 1970-01-01 of a civil date (H. Hinnant's algorithm). */
static int64_t
days_from_civil(int64_t y, int m, int d)
{
	y -= m <= 2;
	int64_t era = (y >= 0 ? y : y - 399) / 400;
	int64_t yoe = y - era * 400;
	int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;

	return era * 146097 + doe - 719468;
}

/* "YYYY-MM-DD" then optionally ("T" | " ") "HH:MM" [":SS"], then "Z". */
static int
parse_iso(const char *s, int64_t *out)
{
	int y, mo, d, h = 0, mi = 0, sec = 0;
	const char *p = s;

	if (!(p = fixed_digits(p, 4, &y)) || *p++ != '-' ||
	    !(p = fixed_digits(p, 2, &mo)) || *p++ != '-' ||
	    !(p = fixed_digits(p, 2, &d)))
		return -1;
	if (*p == 'T' || *p == ' ') {
		p++;
		if (!(p = fixed_digits(p, 2, &h)) || *p++ != ':' ||
		    !(p = fixed_digits(p, 2, &mi)))
			return -1;
		if (*p == ':' && !(p = fixed_digits(p + 1, 2, &sec)))
			return -1;
	}
	if (*p == 'Z')
		p++;
	if (*p != '\0' || mo < 1 || mo > 12 || d < 1 ||
	    d > days_in_month(y, mo) || h > 23 || mi > 59 || sec > 59)
		return -1;
	*out = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + sec;
	return 0;
}

/* [@][-]digits. 0, or -1 when s is not that or lies outside the range. */
static int
parse_seconds(const char *s, int64_t *out)
{
	const char *p = s + (s[0] == '@');
	int neg = *p == '-';
	uint64_t v;

	if (argval_u64(p + neg, neg ? (uint64_t)-EPOCH_MIN :
	    (uint64_t)EPOCH_MAX, &v) < 0)
		return -1;
	*out = neg ? -(int64_t)v : (int64_t)v;
	return 0;
}

int
epoch_parse(const char *s, int64_t *t)
{
	uint64_t v;
	const char *end = argval_digits(s, &v);
	int64_t x;

	/* Four digits and '-': a date; anything else: seconds. */
	if (end && end - s == 4 && *end == '-')
		return parse_iso(s, t);
	if (parse_seconds(s, &x) < 0)
		return -1;
	*t = x;
	return 0;
}
