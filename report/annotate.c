/*
 * annotate: --annotate FILE, the maintenance windows of the throughput
 * result (analyses.h): parsed, then placed on its minutes and buckets.
 * One window per line:
 *
 *	# scheduled maintenance
 *	2010-03-01 2010-03-02 maintenance day
 *	2010-02-01T09:00 2010-02-05T10:00 data lost
 *	2010-03-10 06:00 2010-03-10 18:00 unplanned outage
 *
 * A time is one word, or a date and a time of day as two words.
 *
 * A minute (or bucket) overlaps a window when some second of it is in the
 * window: a window that does not start or end on a minute edge still
 * counts the minutes it touches. Only the minutes of the series count:
 * the window of the question clips every annotation.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyses.h"
#include "cliparse.h"
#include "coverage.h"
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
		return parse_time(joined, t);
	}
	return parse_time(w, t);
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
annotations_load(const char *path, struct annotation **out, size_t *nout,
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
		if (n == cap) {
			cap = cap ? 2 * cap : 8;
			a = xrealloc(a, cap * sizeof *a);
		}
		if ((why = parse_line(line, &a[n])) == NULL)
			n++;
	}
	if (!why && ferror(f))
		why = strerror(errno);
	free(line);
	fclose(f);
	if (why) {
		snprintf(err, errlen, "%s:%zu: %s", path, lineno, why);
		annotations_free(a, n);
		return -1;
	}
	*out = a;
	*nout = n;
	return 0;
}

void
annotations_free(struct annotation *a, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(a[i].label);
	free(a);
}

/* The minutes [*i0, *i1) of s that overlap [a, b); empty when none do. */
static void
overlap_minutes(const struct minute_series *s, int64_t a, int64_t b,
    size_t *i0, size_t *i1)
{
	int64_t end = s->t0 + (int64_t)s->n * IO_MINUTE_S;

	*i0 = *i1 = 0;
	a = a > s->t0 ? a : s->t0;
	b = b < end ? b : end;
	if (b <= a)
		return;
	*i0 = (size_t)((a - s->t0) / IO_MINUTE_S);
	*i1 = (size_t)((b - 1 - s->t0) / IO_MINUTE_S) + 1;
}

/* Append label to *mark, after "; " when it holds one already. */
static void
mark_add(char **mark, const char *label)
{
	size_t have = *mark ? strlen(*mark) : 0, len = strlen(label);

	*mark = xrealloc(*mark, have + 2 + len + 1);
	if (have) {
		memcpy(*mark + have, "; ", 2);
		have += 2;
	}
	memcpy(*mark + have, label, len + 1);
}

char **
annotations_mark(const struct minute_series *s, int64_t width, size_t nb,
    const struct annotation *ann, size_t nann)
{
	char **mark = xcalloc(nb, sizeof *mark);
	int64_t first = io_align(s->t0, width);

	for (size_t k = 0; k < nann; k++) {
		size_t i0, i1, b0, b1;

		overlap_minutes(s, ann[k].from, ann[k].to, &i0, &i1);
		if (i0 == i1)
			continue;
		b0 = (size_t)((io_align(s->t0 + (int64_t)i0 * IO_MINUTE_S,
		    width) - first) / width);
		b1 = (size_t)((io_align(s->t0 + (int64_t)(i1 - 1) * IO_MINUTE_S,
		    width) - first) / width);
		for (size_t i = b0; i <= b1 && i < nb; i++)
			mark_add(&mark[i], ann[k].label);
	}
	return mark;
}

void
annotations_marks_free(char **mark, size_t nb)
{
	for (size_t i = 0; mark && i < nb; i++)
		free(mark[i]);
	free(mark);
}

static const struct rcol_spec ann_cols[] = {
	{ "from", "From", NULL, CF_TIME, 0 },
	{ "to", "To", NULL, CF_TIME, 0 },
	{ "label", "Label", NULL, CF_PLAIN, 0 },
	{ "minutes", "Minutes in the window", "min", CF_PLAIN, 0 },
	{ "complete", "Complete", "min", CF_PLAIN, 0 },
	{ "missing", "Missing", "min", CF_PLAIN, 0 },
};

void
annotations_table(struct result *r, const struct minute_series *s,
    const struct annotation *ann, size_t nann)
{
	struct rtable *t = result_table(r, "annotations", "Annotated windows "
	    "(--annotate)", ann_cols, sizeof ann_cols / sizeof ann_cols[0]);
	/* cum[j] - cum[i]: the complete minutes of [i, j), for any window. */
	uint64_t *cum = xcalloc(s->n + 1, sizeof *cum);

	for (size_t i = 0; i < s->n; i++)
		cum[i + 1] = cum[i] + (s->state[i] == MIN_COMPLETE);
	for (size_t k = 0; k < nann; k++) {
		size_t row = rt_row(t), i0, i1;
		uint64_t complete;

		overlap_minutes(s, ann[k].from, ann[k].to, &i0, &i1);
		complete = cum[i1] - cum[i0];
		rt_int(t, row, 0, ann[k].from);
		rt_int(t, row, 1, ann[k].to);
		rt_text(t, row, 2, ann[k].label);
		rt_uint(t, row, 3, i1 - i0);
		rt_uint(t, row, 4, complete);
		rt_uint(t, row, 5, i1 - i0 - complete);
	}
	free(cum);
}
