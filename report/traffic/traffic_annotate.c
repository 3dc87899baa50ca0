/*
 * traffic_annotate: the --annotate windows (parsed by cli/cli_annotate.c)
 * placed on the throughput result's minutes and buckets.
 *
 * A minute (or bucket) overlaps a window when some second of it is in the
 * window: a window that does not start or end on a minute edge still
 * counts the minutes it touches. Only the minutes of the series count:
 * the window of the question clips every annotation.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "traffic_int.h"
#include "traffic.h"
#include "floordiv.h"
#include "xalloc.h"

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

/* Minute i of the window as a bound of the stored minutes: the first
 * stored one at or after it, 0 to len. */
static size_t
stored(const struct minute_series *s, size_t i)
{
	if (i <= s->lo)
		return 0;
	return i - s->lo < s->len ? i - s->lo : s->len;
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
traffic_annotate_mark(const struct minute_series *s, int64_t width, size_t nb,
    const struct annotation *ann, size_t nann)
{
	char **mark = xcalloc(nb, sizeof *mark);
	int64_t first = floor_align64(s->t0, width);

	for (size_t k = 0; k < nann; k++) {
		size_t i0, i1, b0, b1;

		overlap_minutes(s, ann[k].from, ann[k].to, &i0, &i1);
		if (i0 == i1)
			continue;
		b0 = (size_t)((floor_align64(s->t0 + (int64_t)i0 * IO_MINUTE_S,
		    width) - first) / width);
		b1 = (size_t)((floor_align64(s->t0 + (int64_t)(i1 - 1) * IO_MINUTE_S,
		    width) - first) / width);
		for (size_t i = b0; i <= b1 && i < nb; i++)
			mark_add(&mark[i], ann[k].label);
	}
	return mark;
}

void
traffic_annotate_marks_free(char **mark, size_t nb)
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
traffic_annotate_table(struct result *r, const struct minute_series *s,
    const struct annotation *ann, size_t nann)
{
	struct rtable *t = result_table(r, "annotations", "Annotated windows "
	    "(--annotate)", ann_cols, sizeof ann_cols / sizeof ann_cols[0]);
	/* cum[j] - cum[i]: the complete minutes of the stored [i, j), for
	 * any window (the minutes not stored are NONE). */
	uint64_t *cum = xcalloc(s->len + 1, sizeof *cum);

	for (size_t j = 0; j < s->len; j++)
		cum[j + 1] = cum[j] + (s->state[j] == MIN_COMPLETE);
	for (size_t k = 0; k < nann; k++) {
		size_t row = result_row(t), i0, i1;
		uint64_t complete;

		overlap_minutes(s, ann[k].from, ann[k].to, &i0, &i1);
		complete = cum[stored(s, i1)] - cum[stored(s, i0)];
		result_set_int(t, row, 0, ann[k].from);
		result_set_int(t, row, 1, ann[k].to);
		result_set_text(t, row, 2, ann[k].label);
		result_set_uint(t, row, 3, i1 - i0);
		result_set_uint(t, row, 4, complete);
		result_set_uint(t, row, 5, i1 - i0 - complete);
	}
	free(cum);
}
