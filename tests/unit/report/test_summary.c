/* test_summary: report/summary/summary.c, the report's opening page, on
 * results built here: the red list (projects over their limit, the most
 * used first, then those reaching it before the window's end plus the
 * horizon, the soonest first; none without a limit, none past the
 * cutoff), its line of counts, and the top growers capped at 10, largest
 * first. The order and the counts are worked out by hand below. */
#include <stdint.h>
#include <string.h>

#include "result/result.h"
#include "summary/summary.h"
#include "tap.h"

#define DAY 86400
#define END 1700000000		/* the window's end */

static const struct rcol_spec proj_cols[] = {
	{ "fs", "File system", NULL, CF_PLAIN, 0 },
	{ "project", "Project", NULL, CF_PLAIN, 0 },
	{ "used", "Used", "bytes", CF_BYTES, 0 },
	{ "limit_bytes", "Limit", "bytes", CF_BYTES, 0 },
	{ "limit_ratio", "Use", "%", CF_PCT, 1 },
	{ "inodes_used", "Inodes", NULL, CF_PLAIN, 0 },
	{ "limit_inodes", "Inode limit", NULL, CF_PLAIN, 0 },
	{ "inode_limit_ratio", "Inode use", "%", CF_PCT, 1 },
	{ "state", "State", NULL, CF_PLAIN, 0 },
	{ "full", "Full", NULL, CF_DATE, 0 },
};
enum { P_FS, P_PROJECT, P_USED, P_LIMB, P_RATIO, P_IUSED, P_LIMI, P_IRATIO,
    P_STATE, P_FULL };

static const struct rcol_spec grow_cols[] = {
	{ "fs", "File system", NULL, CF_PLAIN, 0 },
	{ "project", "Project", NULL, CF_PLAIN, 0 },
	{ "d_used", "Growth", "bytes", CF_BYTES, 0 },
};

/* A project: bytes limited (limb > 0) or inodes (limi > 0) or neither;
 * full in days after END, or -1 for none. */
static void
project(struct rtable *t, const char *name, int64_t used, int64_t limb,
    int64_t limi, const char *state, int full_days)
{
	size_t r = result_row(t);

	result_set_text(t, r, P_FS, "/proj");
	result_set_text(t, r, P_PROJECT, name);
	if (limb > 0) {
		result_set_int(t, r, P_USED, used);
		result_set_int(t, r, P_LIMB, limb);
		result_set_real(t, r, P_RATIO, (double)used / (double)limb);
	} else if (limi > 0) {
		result_set_int(t, r, P_IUSED, used);
		result_set_int(t, r, P_LIMI, limi);
		result_set_real(t, r, P_IRATIO, (double)used / (double)limi);
	} else {
		result_set_int(t, r, P_USED, used);
	}
	result_set_text(t, r, P_STATE, state);
	if (full_days >= 0)
		result_set_int(t, r, P_FULL, END + (int64_t)full_days * DAY);
}

static const struct rtable *
table(const struct result *r, const char *key)
{
	int k = result_table_index(r, key);

	return k < 0 ? NULL : &r->table[k];
}

static int
has_note(const struct result *r, const char *text)
{
	for (size_t i = 0; i < r->nnote; i++)
		if (strstr(r->note[i], text))
			return 1;
	return 0;
}

int
main(void)
{
	struct result *cap = result_new("capacity", "Capacity");
	struct rtable *t = result_table(cap, "projects", "Projects", proj_cols,
	    sizeof proj_cols / sizeof proj_cols[0]);
	struct summary_opts o = { END, 30, 1 };
	struct result *sum;
	const struct rtable *d;
	static const char *const want[] = { "g", "a", "b", "d", "c" };
	static const char *const status[] = { "over its limit",
	    "over its limit", "over its limit", "reaches its limit",
	    "reaches its limit" };

	project(t, "a", 150, 100, 0, "already exceeded", -1);
	project(t, "b", 120, 100, 0, "already exceeded", -1);
	project(t, "c", 50, 100, 0, "projected", 10);
	project(t, "d", 60, 100, 0, "projected", 5);
	project(t, "e", 70, 100, 0, "projected", 40);	/* past 30 days */
	project(t, "f", 999, 0, 0, "no limit", 1);	/* no limit */
	project(t, "g", 20, 0, 10, "already exceeded", -1);	/* inodes, 2.0 */
	t = result_table(cap, "growers", "Growers", grow_cols,
	    sizeof grow_cols / sizeof grow_cols[0]);
	for (int i = 1; i <= 12; i++) {
		size_t r = result_row(t);
		char name[8];

		snprintf(name, sizeof name, "p%d", i);
		result_set_text(t, r, 0, "/proj");
		result_set_text(t, r, 1, name);
		result_set_int(t, r, 2, (int64_t)i * 1000);
	}

	sum = summary_page(&cap, 1, &o);
	d = table(sum, "redlist");
	if (ok(d != NULL, "the red list is there") &&
	    is_u64(d->nrow, 5, "red list: g, a, b over; d, c soon")) {
		int pc = result_col_index(d, "project");
		int sc = result_col_index(d, "status");
		int rc = result_col_index(d, "resource");

		for (size_t i = 0; i < 5; i++) {
			const struct cell *p = result_cell(d, i, pc);
			const struct cell *s = result_cell(d, i, sc);

			is_str(p->kind == CK_TEXT ? p->v.s : "(none)", want[i],
			    "red list row %zu: project", i);
			is_str(s->kind == CK_TEXT ? s->v.s : "(none)", status[i],
			    "red list row %zu: status", i);
		}
		is_str(result_cell(d, 0, rc)->v.s, "inodes",
		    "red list: g's is its inode limit");
		is_str(result_cell(d, 1, rc)->v.s, "space",
		    "red list: a's is its byte limit");
	}
	ok(has_note(sum, "3 projects over their limit, 2 projects reaching"
	    " it before"), "red list line: 3 over, 2 soon");
	ok(has_note(sum, "6 projects have a limit"),
	    "red list line: 6 with a limit (f has none)");
	d = table(sum, "growers");
	if (ok(d != NULL, "the growers are there") &&
	    is_u64(d->nrow, 10, "growers: the first 10 of 12")) {
		int gc = result_col_index(d, "d_used");

		is_i64(result_cell(d, 0, gc)->v.i, 12000, "growers: 12000 first");
		is_i64(result_cell(d, 9, gc)->v.i, 3000, "growers: 3000 last");
	}
	result_free(sum);

	o.end = INT64_MIN;	/* no window, no point: no red list */
	sum = summary_page(&cap, 1, &o);
	ok(table(sum, "redlist") == NULL, "no end: no red list");
	result_free(sum);
	result_free(cap);
	return tap_end();
}
