/*
 * cli_value: strict parsers for option values (cli_int.h). Every parser
 * consumes the whole string or fails; numbers that do not fit fail. Times
 * are lib/epoch.h's, digits lib/argval.h's.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "argval.h"
#include "cli_int.h"

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
	const char *end = argval_digits(s, &v);

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
	const char *end = argval_digits(s, &v);

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
