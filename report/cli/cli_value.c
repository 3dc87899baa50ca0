/*
 * cli_value: strict parsers for option values (cli_int.h). Every parser
 * consumes the whole string or fails; numbers that do not fit fail. Time
 * conversion is plain arithmetic on the proleptic Gregorian calendar, so
 * neither the time zone nor the locale can change a result.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli_int.h"

/* Decimal digits into *v (no sign, at least one digit); returns the end,
 * or NULL on overflow or no digit. */
static const char *
digits_u64(const char *s, uint64_t *v)
{
	const char *p = s;
	uint64_t x = 0;

	for (; isdigit((unsigned char)*p); p++) {
		unsigned d = (unsigned)(*p - '0');
		if (x > (UINT64_MAX - d) / 10)
			return NULL;
		x = x * 10 + d;
	}
	if (p == s)
		return NULL;
	*v = x;
	return p;
}

/* Exactly n digits as an int (for date fields). */
static const char *
fixed_digits(const char *s, int n, int *v)
{
	int x = 0;

	for (int i = 0; i < n; i++) {
		if (!isdigit((unsigned char)s[i]))
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

int
cli_value_time(const char *s, int64_t *out)
{
	uint64_t v;
	const char *p = s[0] == '@' ? s + 1 : s;
	const char *end = digits_u64(p, &v);

	if (end && *end == '\0' && v <= INT64_MAX) {
		*out = (int64_t)v;
		return 0;
	}
	return p == s ? parse_iso(s, out) : -1;
}

/* v * mult into *out unless it overflows. */
static int
scale_u64(uint64_t v, uint64_t mult, uint64_t *out)
{
	if (mult && v > UINT64_MAX / mult)
		return -1;
	*out = v * mult;
	return 0;
}

int
cli_value_duration(const char *s, int64_t *out)
{
	static const struct {
		const char *suffix;
		uint64_t seconds;
	} unit[] = { { "", 1 }, { "s", 1 }, { "m", 60 }, { "min", 60 },
	    { "h", 3600 }, { "d", 86400 }, { "w", 604800 } };
	uint64_t v, r;
	const char *end = digits_u64(s, &v);

	if (!end)
		return -1;
	for (size_t i = 0; i < sizeof unit / sizeof unit[0]; i++)
		if (strcmp(end, unit[i].suffix) == 0) {
			if (scale_u64(v, unit[i].seconds, &r) || r > INT64_MAX)
				return -1;
			*out = (int64_t)r;
			return 0;
		}
	return -1;
}

/* Power of 1024 (size) or 1000 (count) of a unit letter; 0 if none. */
static uint64_t
unit_mult(char c, uint64_t base)
{
	static const char letters[] = "KMGTP";
	const char *l = c ? strchr(letters, toupper((unsigned char)c)) : NULL;
	uint64_t m = 1;

	if (!l)
		return 0;
	for (long i = 0; i <= l - letters; i++)
		m *= base;
	return m;
}

int
cli_value_size(const char *s, uint64_t *out)
{
	uint64_t v, mult = 1;
	const char *end = digits_u64(s, &v);

	if (!end)
		return -1;
	if (*end && (mult = unit_mult(*end, 1024)) != 0) {
		end++;
		if (strcmp(end, "iB") == 0 || strcmp(end, "B") == 0)
			end += strlen(end);
	} else if (strcmp(end, "B") == 0) {
		mult = 1;
		end++;
	}
	if (*end != '\0' || mult == 0)
		return -1;
	return scale_u64(v, mult, out);
}

int
cli_value_count(const char *s, double *out)
{
	size_t len = strlen(s);
	double mult = 1;
	char *end;

	if (len > 0 && !isdigit((unsigned char)s[len - 1])) {
		uint64_t m = unit_mult(s[len - 1], 1000);
		if (m == 0 || s[len - 1] == 'P' || s[len - 1] == 'p')
			return -1;
		mult = (double)m;
		len--;
	}
	/* Only a plain decimal number: strtod alone would also take hex,
	 * "inf", "nan", signs and leading blanks. */
	if (len == 0 || !(isdigit((unsigned char)s[0]) || s[0] == '.') ||
	    strspn(s, "0123456789.eE+-") < len)
		return -1;
	double v = strtod(s, &end);
	if ((size_t)(end - s) != len || !isfinite(v * mult))
		return -1;
	*out = v * mult;
	return 0;
}

/* The next comma-separated item of *p into buf; NULL when the list is
 * over, the item empty or too long (*bad set then). */
static const char *
next_item(const char **p, char *buf, size_t len, int *bad)
{
	size_t l;

	if (*p == NULL)
		return NULL;
	l = strcspn(*p, ",");
	if (l == 0 || l >= len) {
		*bad = 1;
		return NULL;
	}
	memcpy(buf, *p, l);
	buf[l] = '\0';
	*p = (*p)[l] ? *p + l + 1 : NULL;
	return buf;
}

int
cli_value_durations(const char *s, int64_t *out, int max)
{
	char buf[64];
	int n = 0, bad = 0;

	while (next_item(&s, buf, sizeof buf, &bad))
		if (n >= max || cli_value_duration(buf, &out[n++]) != 0)
			return -1;
	return bad ? -1 : n;
}

int
cli_value_sizes(const char *s, uint64_t *out, int max)
{
	char buf[64];
	int n = 0, bad = 0;

	while (next_item(&s, buf, sizeof buf, &bad))
		if (n >= max || cli_value_size(buf, &out[n++]) != 0)
			return -1;
	return bad ? -1 : n;
}
