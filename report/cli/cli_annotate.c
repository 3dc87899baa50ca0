/*
 * cli_annotate: --annotate FILE, the maintenance windows of the
 * throughput result, parsed. One window per line:
 *
 *	# scheduled maintenance
 *	2010-03-01 2010-03-02 maintenance day
 *	2010-02-01T09:00 2010-02-05T10:00 data lost
 *	2010-03-10 06:00 2010-03-10 18:00 unplanned outage
 *
 * A time is one word, or a date and a time of day as two words, in the
 * range of lib/epoch.h. The file is read within the bounds of lib/lines.h.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_int.h"
#include "epoch.h"
#include "lines.h"
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
		return epoch_parse(joined, t);
	}
	return epoch_parse(w, t);
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

struct load {
	struct annotation *a;
	size_t n, cap;
	const char *path;
	char *err;
	size_t errlen;
};

static int
load_line(void *arg, char *line, int lineno)
{
	struct load *ld = arg;
	const char *why;

	if (is_blank_or_comment(line))
		return 0;
	ld->a = xgrow(ld->a, ld->n, &ld->cap, sizeof *ld->a, 8);
	if ((why = parse_line(line, &ld->a[ld->n])) != NULL) {
		snprintf(ld->err, ld->errlen, "%s:%d: %s", ld->path, lineno,
		    why);
		return -1;
	}
	ld->n++;
	return 0;
}

int
cli_annotate_load(const char *path, struct annotation **out, size_t *nout,
    char *err, size_t errlen)
{
	struct lines_src src = { path, NULL, "an annotation file", 1, err,
	    errlen };
	struct load ld = { NULL, 0, 0, path, err, errlen };

	if (lines_read_path(&src, load_line, &ld) < 0) {
		opts_annotations_free(ld.a, ld.n);
		return -1;
	}
	*out = ld.a;
	*nout = ld.n;
	return 0;
}
