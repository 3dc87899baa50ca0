/*
 * cli_annotate: --annotate FILE, the maintenance windows of the
 * throughput result, parsed. One window per line:
 *
 *	# scheduled maintenance
 *	2010-03-01 2010-03-02 maintenance day
 *	2010-02-01T09:00 2010-02-05T10:00 data lost
 *	2010-03-10 06:00 2010-03-10 18:00 unplanned outage
 *
 * A time is one word, or a date and a time of day as two words.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_int.h"
#include "xalloc.h"

/* The next blank-separated word of *p (NUL-terminated in place), or NULL. */
static char *
next_word(char **p)
{
	char *s = *p, *w;

	while (isspace((unsigned char)*s))
		s++;
	if (*s == '\0')
		return NULL;
	w = s;
	while (*s && !isspace((unsigned char)*s))
		s++;
	if (*s)
		*s++ = '\0';
	*p = s;
	return w;
}

/* "HH:MM..." at s: the second word of a "DATE TIME" pair. */
static int
is_time_of_day(const char *s)
{
	return isdigit((unsigned char)s[0]) && isdigit((unsigned char)s[1]) &&
	    s[2] == ':';
}

/* "YYYY-MM-DD": a date that a time-of-day word may follow. */
static int
is_date(const char *w)
{
	return strlen(w) == 10 && w[4] == '-' && w[7] == '-';
}

/* One time from *p: a word, joined with the next one when the first is
 * a bare date and the next a time of day. 0, or -1. */
static int
read_time(char **p, int64_t *t)
{
	char *w = next_word(p), *tod, joined[64];

	if (!w)
		return -1;
	tod = *p + strspn(*p, " \t\r\n\v\f");
	if (is_date(w) && is_time_of_day(tod)) {
		tod = next_word(p);
		if ((size_t)snprintf(joined, sizeof joined, "%s %s", w, tod) >=
		    sizeof joined)
			return -1;
		return cli_value_time(joined, t);
	}
	return cli_value_time(w, t);
}

/* One line (comment and blank already excluded) into a; NULL or why. */
static const char *
parse_line(char *line, struct annotation *a)
{
	char *p = line;
	size_t len;

	if (read_time(&p, &a->from) != 0)
		return "bad FROM time";
	if (read_time(&p, &a->to) != 0)
		return "bad TO time";
	if (a->to <= a->from)
		return "TO is not after FROM";
	while (isspace((unsigned char)*p))
		p++;
	len = strlen(p);
	while (len > 0 && isspace((unsigned char)p[len - 1]))
		p[--len] = '\0';
	if (len == 0)
		return "missing label";
	a->label = xstrdup(p);
	return NULL;
}

static int
is_blank_or_comment(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return *s == '\0' || *s == '#';
}

int
cli_annotate_load(const char *path, struct annotation **out, size_t *nout,
    char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	struct annotation *a = NULL;
	size_t n = 0, cap = 0, lineno = 0, linecap = 0;
	char *line = NULL;
	const char *why = NULL;

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	while (!why && getline(&line, &linecap, f) >= 0) {
		lineno++;
		if (is_blank_or_comment(line))
			continue;
		a = xgrow(a, n, &cap, sizeof *a, 8);
		if ((why = parse_line(line, &a[n])) == NULL)
			n++;
	}
	if (!why && ferror(f))
		why = strerror(errno);
	free(line);
	fclose(f);
	if (why) {
		snprintf(err, errlen, "%s:%zu: %s", path, lineno, why);
		an_annotate_free(a, n);
		return -1;
	}
	*out = a;
	*nout = n;
	return 0;
}
