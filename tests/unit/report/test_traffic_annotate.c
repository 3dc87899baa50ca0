/* test_traffic_annotate: the --annotate windows of
 * report/traffic/traffic_annotate.c placed on a hand-made series: the
 * minutes, complete and missing minutes of each window, and the windows
 * that mark each bucket of a figure. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "traffic/traffic_int.h"
#include "minutes_fixture.h"
#include "tap.h"

/* Ten minutes from 2010-02-01 00:00, minutes 3, 4 and 7 not complete. */
static void
series10(struct minute_series *s)
{
	series_new(s, 1264982400, 10, MIN_COMPLETE);
	s->state[3] = s->state[4] = MIN_MISSING;
	s->state[7] = MIN_NONE;
}

static const char *
text_cell(const struct rtable *t, size_t row, int col)
{
	const struct cell *c = result_cell(t, row, col);

	return c->kind == CK_TEXT ? c->v.s : "(not text)";
}

static uint64_t
uint_cell(const struct rtable *t, size_t row, int col)
{
	const struct cell *c = result_cell(t, row, col);

	return c->kind == CK_UINT ? c->v.u : 999;
}

static void
placed(void)
{
	int64_t t0 = 1264982400;
	struct annotation a[] = {
		{ t0 + 120, t0 + 300, "m2-4" },		/* minutes 2, 3, 4 */
		{ t0 + 90, t0 + 91, "one second" },	/* minute 1 */
		{ t0 + 420, t0 + 7200, "to the end" },	/* minutes 7, 8, 9 */
		{ t0 - 600, t0, "before" },		/* none */
		{ t0 + 570, t0 + 630, "edge" },		/* minute 9 */
	};
	static const uint64_t want[][3] = { { 3, 1, 2 }, { 1, 1, 0 },
	    { 3, 2, 1 }, { 0, 0, 0 }, { 1, 1, 0 } };
	struct minute_series s;
	struct result *r = result_new("t", "t");
	const struct rtable *t;
	char **mark;

	series10(&s);
	traffic_annotate_table(r, &s, a, 5);
	t = &r->table[0];
	is_str(t->key, "annotations", "table key");
	is_i64((int64_t)t->nrow, 5, "a row per window");
	for (size_t i = 0; i < 5 && i < t->nrow; i++) {
		is_i64(result_cell(t, i, 0)->v.i, a[i].from, "%s: from", a[i].label);
		is_i64(result_cell(t, i, 1)->v.i, a[i].to, "%s: to", a[i].label);
		is_str(text_cell(t, i, 2), a[i].label, "%s: label", a[i].label);
		ok(uint_cell(t, i, 3) == want[i][0] &&
		    uint_cell(t, i, 4) == want[i][1] &&
		    uint_cell(t, i, 5) == want[i][2],
		    "%s: %llu minutes, %llu complete, %llu missing", a[i].label,
		    (unsigned long long)want[i][0],
		    (unsigned long long)want[i][1],
		    (unsigned long long)want[i][2]);
	}
	/* Buckets of 5 minutes: [0, 5) and [5, 10). */
	mark = traffic_annotate_mark(&s, 300, 2, a, 5);
	is_str(mark[0] ? mark[0] : "(none)", "m2-4; one second",
	    "first bucket: its windows in file order");
	is_str(mark[1] ? mark[1] : "(none)", "to the end; edge",
	    "second bucket");
	traffic_annotate_marks_free(mark, 2);
	/* Hours: one bucket, labelled by 00:00, holding the ten minutes. */
	mark = traffic_annotate_mark(&s, 3600, 1, a + 3, 1);
	ok(mark[0] == NULL, "a window before the series marks nothing");
	traffic_annotate_marks_free(mark, 1);
	result_free(r);
	query_minutes_free(&s);
}

int
main(void)
{
	placed();
	return tap_end();
}
