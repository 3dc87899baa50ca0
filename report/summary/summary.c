/*
 * summary: the report's opening page, read in one screen at a review:
 * the findings of the other results, most urgent first, in short rows.
 *
 *   1. the red list: the projects over their limit and the file
 *      systems full (space or inodes), then those whose date is before
 *      the window's end plus the horizon, soonest first (capacity's
 *      "projects" and "filesystems", each device once; a project
 *      without a limit is never on it); each row pairs the used and the
 *      limit (or capacity) of one resource, in that unit's columns;
 *   2. the file systems, each device once (capacity's "filesystems": the
 *      names on one device share its row), the soonest full first;
 *   3. the slow, intermittent and suspect devices, the slowest against
 *      its peers first (health's "devices": a disk failing slowly is a
 *      repair to plan), and a line counting each of health's verdicts;
 *   4. cold data: the projects with the most cold bytes (cold's
 *      "projects");
 *   5. the top growers (capacity's "growers");
 *   6. I/O headroom: the peak against the mean and the idle share (cdf's
 *      and idle's "summary"), and the busiest hosts (devices' "hosts").
 *
 * A further finding is a table keyed for the summary by its analysis
 * and one more line in summary_page, in its place by urgency.
 *
 * The summary computes nothing: it selects rows by table and column key,
 * orders them and copies their cells (exact values, the columns'
 * formats); the red list compares dates with a cutoff. A table
 * an analysis did not produce is left out; the details follow on the
 * page.
 */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "human.h"
#include "summary.h"
#include "xalloc.h"

#define COLD_PER_FS 5		/* projects with the most cold bytes */
#define GROWERS 10		/* over every file system */
#define HOSTS 5
#define DAY 86400

/* Where selected cells come from: one source table per result. */
struct src {
	const struct result *r;
	const struct rtable *t;
};

/* A selected row and what orders it: its class (0 first), then key
 * ascending, then val descending (an integer column's; a real column's
 * in rval, -inf where it has none). */
struct ref {
	const struct rtable *t;
	size_t row;
	int cls;
	int64_t key;
	i128 val;
	double rval;
	int res;		/* the red list: enum red_kind */
};

/* The tables keyed `table` of every result whose command is `cmd`. */
static size_t
sources(struct result *const *parts, size_t nparts, const char *cmd,
    const char *table, struct src *out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < nparts && n < max; i++) {
		int k;

		if (strcmp(parts[i]->command, cmd) ||
		    (k = result_table_index(parts[i], table)) < 0)
			continue;
		out[n].r = parts[i];
		out[n++].t = &parts[i]->table[k];
	}
	return n;
}

static const char *
text_at(const struct rtable *t, size_t row, const char *key)
{
	const struct cell *c = result_cell_at(t, row, key);

	return c->kind == CK_TEXT ? c->v.s : "";
}

/* An integer cell exactly; none (or not an integer): *has = 0. */
static i128
wide_at(const struct rtable *t, size_t row, const char *key, int *has)
{
	const struct cell *c = result_cell_at(t, row, key);

	*has = 1;
	switch (c->kind) {
	case CK_INT: return c->v.i;
	case CK_UINT: return (i128)c->v.u;
	case CK_WIDE: return *c->v.w;
	default: *has = 0; return 0;
	}
}

/* A real cell; -inf when there is none, so that it orders last. */
static double
real_at(const struct rtable *t, size_t row, const char *key)
{
	const struct cell *c = result_cell_at(t, row, key);

	return c->kind == CK_REAL && !isnan(c->v.r) ? c->v.r : -INFINITY;
}

/* Copy s's cell of column key (none: nothing) into d's cell. */
static void
copy_cell(struct rtable *d, size_t drow, int dcol, const struct rtable *s,
    size_t srow, const char *key)
{
	const struct cell *c = result_cell_at(s, srow, key);

	switch (c->kind) {
	case CK_INT: result_set_int(d, drow, dcol, c->v.i); break;
	case CK_UINT: result_set_uint(d, drow, dcol, c->v.u); break;
	case CK_REAL: result_set_real(d, drow, dcol, c->v.r); break;
	case CK_TEXT: result_set_text(d, drow, dcol, c->v.s); break;
	case CK_WIDE: result_set_wide(d, drow, dcol, *c->v.w); break;
	case CK_NULL: break;
	}
}

/* A column of the summary: the source's column `key` (its title, unit
 * and format), titled `title` unless NULL; 0 when s has none. */
static int
spec_of(const struct rtable *s, const char *key, const char *title,
    struct rcol_spec *out)
{
	int c = result_col_index(s, key);

	if (c < 0)
		return 0;
	*out = (struct rcol_spec){ s->col[c].key, title ? title :
	    s->col[c].title, s->col[c].unit, s->col[c].fmt,
	    s->col[c].decimals };
	return 1;
}

/* Columns keys[k] (titles[k] or the source's) of s that exist. */
static size_t
specs(const struct rtable *s, const char *const *keys,
    const char *const *titles, size_t nkeys, struct rcol_spec *out)
{
	size_t n = 0;

	for (size_t i = 0; i < nkeys; i++)
		n += spec_of(s, keys[i], titles ? titles[i] : NULL, &out[n]);
	return n;
}

/* Copy the cells of source row `row` into row `out` of d, by key. */
static void
copy_row(struct rtable *d, size_t out, const struct rtable *s, size_t row)
{
	for (size_t c = 0; c < d->ncol; c++)
		copy_cell(d, out, (int)c, s, row, d->col[c].key);
}

static int
ref_cmp(const void *pa, const void *pb)
{
	const struct ref *a = pa, *b = pb;

	if (a->cls != b->cls)
		return a->cls < b->cls ? -1 : 1;
	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	if (a->val != b->val)
		return a->val > b->val ? -1 : 1;
	if (a->rval != b->rval)
		return a->rval > b->rval ? -1 : 1;
	if (a->t != b->t)	/* the order of the sources */
		return a->t < b->t ? -1 : 1;
	return a->row < b->row ? -1 : a->row > b->row;
}

/* ---- 1. the red list ---- */

/*
 * What a row of the red list is of, and where its cells are: a project's
 * byte or inode limit (capacity's "projects": its byte limit, else its
 * inode limit, as space/space_capacity_proj.c projects it), a file
 * system's space or inodes (capacity's "filesystems", each device once).
 * Each row pairs the used and the limit of one resource, in its own
 * unit's columns.
 */
enum red_kind { RK_PBYTES, RK_PINODES, RK_FSPACE, RK_FINODES };

static const struct red_src {
	const char *ratio, *used, *limit, *rate, *full, *lo, *hi, *state;
	int inodes, fs;
} red_src[] = {
	[RK_PBYTES] = { "limit_ratio", "used", "limit_bytes", "bytes_per_day",
	    "full", "full_lo", "full_hi", "state", 0, 0 },
	[RK_PINODES] = { "inode_limit_ratio", "inodes_used", "limit_inodes",
	    NULL, "full", "full_lo", "full_hi", "state", 1, 0 },
	[RK_FSPACE] = { "use_ratio", "used", "capacity", "bytes_per_day",
	    "full", "full_lo", "full_hi", "full_state", 0, 1 },
	[RK_FINODES] = { "inodes_use_ratio", "inodes_used", "inodes", NULL,
	    "inodes_full", "inodes_full_lo", "inodes_full_hi", "inodes_state",
	    1, 1 },
};

enum { R_FS, R_PROJECT, R_RES, R_STATUS, R_PCT, R_USED_B, R_LIMIT_B, R_BPD,
    R_USED_I, R_LIMIT_I, R_FULL, R_LO, R_HI };

static const struct rcol_spec red_cols[] = {
	[R_FS] = { "fs", "File system", NULL, CF_PLAIN, 0 },
	[R_PROJECT] = { "project", "Project", NULL, CF_PLAIN, 0 },
	[R_RES] = { "resource", "Of", NULL, CF_PLAIN, 0 },
	[R_STATUS] = { "status", "Status", NULL, CF_PLAIN, 0 },
	[R_PCT] = { "use_ratio", "Use", "%", CF_PCT, 1 },
	[R_USED_B] = { "used_bytes", "Used", "bytes", CF_BYTES, 2 },
	[R_LIMIT_B] = { "limit_bytes", "Limit or capacity", "bytes",
	    CF_BYTES, 2 },
	[R_BPD] = { "bytes_per_day", "Growth per day", "bytes/day", CF_BYTES,
	    2 },
	[R_USED_I] = { "used_inodes", "Inodes used", "inodes", CF_PLAIN, 0 },
	[R_LIMIT_I] = { "limit_inodes", "Inode limit or capacity", "inodes",
	    CF_PLAIN, 0 },
	[R_FULL] = { "full", "Reaches it", NULL, CF_DATE, 0 },
	[R_LO] = { "full_lo", "Earliest (95%)", NULL, CF_DATE, 0 },
	[R_HI] = { "full_hi", "Latest (95%)", NULL, CF_DATE, 0 },
};

/* The kind of a project's row: its byte limit, else its inode limit;
 * -1 without a limit. */
static int
project_kind(const struct rtable *t, size_t row)
{
	if (result_cell_at(t, row, "limit_bytes")->kind != CK_NULL)
		return RK_PBYTES;
	if (result_cell_at(t, row, "limit_inodes")->kind != CK_NULL)
		return RK_PINODES;
	return -1;
}

static int device_seen(const struct rtable *t, size_t row);

static void
red_row(struct rtable *d, const struct ref *x)
{
	const struct red_src *k = &red_src[x->res];
	const struct rtable *t = x->t;
	const char *dn = k->fs ? text_at(t, x->row, "device_names") : "";
	size_t out = result_row(d);

	copy_cell(d, out, R_FS, t, x->row, "fs");
	if (*dn)	/* the names that share the device */
		result_set_text(d, out, R_FS, dn);
	if (!k->fs)
		copy_cell(d, out, R_PROJECT, t, x->row, "project");
	result_set_text(d, out, R_RES, k->inodes ? "inodes" : "space");
	result_set_text(d, out, R_STATUS, k->fs ? (x->cls == 0 ? "full" :
	    "fills up") : x->cls == 0 ? "over its limit" :
	    "reaches its limit");
	copy_cell(d, out, R_PCT, t, x->row, k->ratio);
	copy_cell(d, out, k->inodes ? R_USED_I : R_USED_B, t, x->row,
	    k->used);
	copy_cell(d, out, k->inodes ? R_LIMIT_I : R_LIMIT_B, t, x->row,
	    k->limit);
	if (k->rate)
		copy_cell(d, out, R_BPD, t, x->row, k->rate);
	copy_cell(d, out, R_FULL, t, x->row, k->full);
	copy_cell(d, out, R_LO, t, x->row, k->lo);
	copy_cell(d, out, R_HI, t, x->row, k->hi);
}

/* Row `row` of t as kind: over (class 0, the most used first) or
 * reaching it before cutoff (class 1, the soonest first) into v[*n]. 1
 * when over. */
static int
red_pick(const struct rtable *t, size_t row, int kind, int64_t cutoff,
    struct ref *v, size_t *n)
{
	const struct red_src *k = &red_src[kind];
	double pct = real_at(t, row, k->ratio);
	int64_t full;
	int has;

	if (!strcmp(text_at(t, row, k->state), "already exceeded")) {
		v[(*n)++] = (struct ref){ t, row, 0, 0, 0, pct, kind };
		return 1;
	}
	full = (int64_t)wide_at(t, row, k->full, &has);
	if (has && full < cutoff)
		v[(*n)++] = (struct ref){ t, row, 1, full, 0, pct, kind };
	return 0;
}

/* "no project", "1 project", "2 projects"; the same of "file system". */
static const char *
count(size_t n, const char *what, char *buf, size_t len)
{
	if (n == 0)
		snprintf(buf, len, "no %s", what);
	else
		snprintf(buf, len, "%zu %s%s", n, what, n == 1 ? "" : "s");
	return buf;
}

/* What the red list holds; the projects then the file systems. */
struct red_count {
	size_t over, soon, lim, full, fill;
};

/* The red list in one line: how many, and the cutoff (by: its date, and
 * how it was reached). */
static void
red_note(struct result *sum, const struct red_count *c, const char *by)
{
	char a[48], b[48], fa[48], fb[48], p[512];

	if (c->lim == 0)
		snprintf(p, sizeof p, "no project has a limit recorded");
	else
		snprintf(p, sizeof p, "%s over %s limit, %s reaching it before"
		    " %s; %zu project%s %s a limit", count(c->over, "project",
		    a, sizeof a), c->over == 1 ? "its" : "their",
		    count(c->soon, "project", b, sizeof b), by, c->lim,
		    c->lim == 1 ? "" : "s", c->lim == 1 ? "has" : "have");
	result_note(sum, "Red list: %s; %s full (space or inodes), %s filling"
	    " up %s%s.", p, count(c->full, "file system", fa, sizeof fa),
	    count(c->fill, "file system", fb, sizeof fb), c->lim ? "by then" :
	    "before ", c->lim ? "" : by);
}

/* Over their limit or full (already exceeded), most used first; then
 * those projected to reach it before cutoff, soonest first. */
static void
red_list(struct result *sum, struct result *const *parts, size_t nparts,
    int64_t cutoff, const char *by, const char *day)
{
	struct src ps, fs;
	int hp = sources(parts, nparts, "capacity", "projects", &ps, 1);
	int hf = sources(parts, nparts, "capacity", "filesystems", &fs, 1);
	struct red_count c = { 0 };
	struct ref *v;
	size_t n = 0, nf;

	if (!hp && !hf)
		return;
	v = xcalloc((hp ? ps.t->nrow : 0) + 2 * (hf ? fs.t->nrow : 0) + 1,
	    sizeof *v);
	for (size_t r = 0; hp && r < ps.t->nrow; r++) {
		int kind = project_kind(ps.t, r);
		if (kind < 0)
			continue;	/* no limit */
		c.lim++;
		c.over += (size_t)red_pick(ps.t, r, kind, cutoff, v, &n);
	}
	c.soon = n - c.over;
	for (size_t r = 0; hf && r < fs.t->nrow; r++) {
		if (device_seen(fs.t, r))
			continue;
		nf = n;
		c.full += (size_t)red_pick(fs.t, r, RK_FSPACE, cutoff, v, &n);
		c.full += (size_t)red_pick(fs.t, r, RK_FINODES, cutoff, v, &n);
		c.fill += n - nf;
	}
	c.fill -= c.full;
	red_note(sum, &c, by);
	if (n) {
		char title[200];
		struct rtable *d;

		qsort(v, n, sizeof *v, ref_cmp);
		snprintf(title, sizeof title, "Red list: projects over their"
		    " limit and file systems full, or reaching it before %s",
		    day);
		d = result_table(sum, "redlist", title, red_cols,
		    sizeof red_cols / sizeof *red_cols);
		result_list(d, 0);
		for (size_t i = 0; i < n; i++)
			red_row(d, &v[i]);
	}
	free(v);
}

/* ---- 2. the file systems, each device once ---- */

/* Its states other than projected: "space: not growing", or NULL. */
static const char *
outlook(const struct rtable *t, size_t row, char *buf, size_t len)
{
	const char *s = text_at(t, row, "full_state");
	const char *i = text_at(t, row, "inodes_state");
	int sp = *s && strcmp(s, "projected"), ip = *i && strcmp(i,
	    "projected");

	if (!sp && !ip)
		return NULL;
	snprintf(buf, len, "%s%s%s%s%s", sp ? "space: " : "", sp ? s : "",
	    sp && ip ? "; " : "", ip ? "inodes: " : "", ip ? i : "");
	return buf;
}

/* A row whose device an earlier row already showed. */
static int
device_seen(const struct rtable *t, size_t row)
{
	const char *d = text_at(t, row, "device_names");

	for (size_t o = 0; *d && o < row; o++)
		if (!strcmp(text_at(t, o, "device_names"), d))
			return 1;
	return 0;
}

/* Full already, then by the sooner of its space and inode dates, then
 * those without a date. */
static struct ref
fs_urgency(const struct rtable *t, size_t row)
{
	struct ref x = { t, row, 2, 0, 0, real_at(t, row, "use_ratio"), 0 };
	int hs, hi;
	int64_t s = (int64_t)wide_at(t, row, "full", &hs);
	int64_t i = (int64_t)wide_at(t, row, "inodes_full", &hi);

	if (!strcmp(text_at(t, row, "full_state"), "already exceeded") ||
	    !strcmp(text_at(t, row, "inodes_state"), "already exceeded"))
		x.cls = 0;
	else if (hs || hi) {
		x.cls = 1;
		x.key = hs && (!hi || s < i) ? s : i;
	}
	return x;
}

static void
file_systems(struct result *sum, struct result *const *parts,
    size_t nparts)
{
	static const char *const keys[] = { "size", "use_ratio", "inodes_use_ratio",
	    "bytes_per_day", "full", "full_lo", "full_hi", "inodes_full",
	    "inodes_full_lo", "inodes_full_hi" };
	static const char *const titles[] = { NULL, NULL, NULL, NULL,
	    "Space full", "Space: earliest (95%)", "Space: latest (95%)",
	    "Inodes full", "Inodes: earliest (95%)", "Inodes: latest (95%)" };
	struct rcol_spec spec[16] = { { "fs", "File system (device)", NULL,
	    CF_PLAIN, 0 } };
	struct src s;
	struct ref *v;
	struct rtable *d;
	size_t n = 0, nc;
	char buf[256];
	int any = 0;

	if (!sources(parts, nparts, "capacity", "filesystems", &s, 1) ||
	    s.t->nrow == 0)
		return;
	nc = 1 + specs(s.t, keys, titles, sizeof keys / sizeof *keys,
	    spec + 1);
	v = xcalloc(s.t->nrow + 1, sizeof *v);
	for (size_t r = 0; r < s.t->nrow; r++)
		if (!device_seen(s.t, r)) {
			v[n++] = fs_urgency(s.t, r);
			any |= outlook(s.t, r, buf, sizeof buf) != NULL;
		}
	if (any)	/* why a date is missing, where one is */
		spec[nc++] = (struct rcol_spec){ "outlook", "Projection", NULL,
		    CF_PLAIN, 0 };
	qsort(v, n, sizeof *v, ref_cmp);
	d = result_table(sum, "filesystems", "File systems, each device once:"
	    " the soonest full first", spec, nc);
	for (size_t i = 0; i < n; i++) {
		size_t out = result_row(d);
		const char *dn = text_at(s.t, v[i].row, "device_names");

		copy_row(d, out, s.t, v[i].row);
		if (*dn)	/* the names that share the device */
			result_set_text(d, out, 0, dn);
		if (any && outlook(s.t, v[i].row, buf, sizeof buf))
			result_set_text(d, out, (int)nc - 1, buf);
	}
	free(v);
}

/* ---- 3. to 6.: the first rows of ranked tables ---- */

/* The rows of every source of (cmd, table) that pass keep, ranked by the
 * integer column `by` (most first), at most max, as table key of sum
 * with the columns keys. */
static void
ranked(struct result *sum, struct result *const *parts, size_t nparts,
    const char *cmd, const char *table, const char *by, size_t max,
    int (*keep)(const struct rtable *, size_t), const char *key,
    const char *title, const char *const *keys, size_t nkeys)
{
	struct src s[64];
	size_t ns = sources(parts, nparts, cmd, table, s, 64), total = 0;
	size_t n = 0, nc;
	struct rcol_spec spec[16];
	struct ref *v;
	struct rtable *d;

	for (size_t i = 0; i < ns; i++)
		total += s[i].t->nrow;
	if (total == 0)
		return;
	v = xcalloc(total, sizeof *v);
	for (size_t i = 0; i < ns; i++)
		for (size_t r = 0; r < s[i].t->nrow; r++) {
			int has;
			i128 x = wide_at(s[i].t, r, by, &has);
			double y = real_at(s[i].t, r, by);

			if (!keep || keep(s[i].t, r))
				v[n++] = (struct ref){ s[i].t, r, !has &&
				    y == -INFINITY, 0, x, y, 0 };
		}
	qsort(v, n, sizeof *v, ref_cmp);
	nc = specs(s[0].t, keys, NULL, nkeys < 16 ? nkeys : 16, spec);
	if (n) {
		d = result_table(sum, key, title, spec, nc);
		for (size_t i = 0; i < n && i < max; i++)
			copy_row(d, result_row(d), v[i].t, v[i].row);
	}
	free(v);
}

/* The projects with the most cold bytes at the longest threshold of
 * their file system: the cold tables list each threshold in turn,
 * ascending, and within it the projects by cold bytes, most first. */
static int
coldest(const struct rtable *t, size_t row)
{
	int h;
	i128 last = wide_at(t, t->nrow - 1, "days", &h);
	size_t lo = 0, hi = t->nrow - 1;

	if (wide_at(t, row, "days", &h) != last)
		return 0;
	/* The first row of the last threshold, by bisection: a count of
	 * the rows before this one would make the summary quadratic in
	 * the projects. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (wide_at(t, mid, "days", &h) < last)
			lo = mid + 1;
		else
			hi = mid;
	}
	return row - lo < COLD_PER_FS;
}

/* A device health calls out: slow, intermittent or suspect (the first
 * word of its verdict). */
static int
slow_device(const struct rtable *t, size_t row)
{
	static const char *const word[] = { "slow", "intermittent",
	    "suspect" };
	const char *v = text_at(t, row, "verdict");

	for (size_t i = 0; i < sizeof word / sizeof *word; i++) {
		size_t n = strlen(word[i]);

		if (strncmp(v, word[i], n) == 0 && (v[n] == ' ' ||
		    v[n] == ':' || v[n] == '\0'))
			return 1;
	}
	return 0;
}

/* One line counts health's verdicts: at a review, "none is slow" is a
 * finding too, and intermittent and suspect devices are the ones to
 * watch. */
static void
health_line(struct result *sum, struct result *const *parts, size_t nparts)
{
	static const char *const key[] = { "devices", "slow", "intermittent",
	    "suspect", "healthy", "not_called" };
	long long v[sizeof key / sizeof *key];
	struct src s;

	if (!sources(parts, nparts, "health", "summary", &s, 1) ||
	    s.t->nrow == 0)
		return;
	for (size_t i = 0; i < sizeof key / sizeof *key; i++) {
		int has;

		v[i] = (long long)wide_at(s.t, 0, key[i], &has);
		if (!has)
			return;
	}
	if (v[0] > 0)
		result_note(sum, "Device health: of %lld devices, %lld slow, "
		    "%lld intermittent, %lld suspect and %lld called healthy "
		    "against their peers; %lld not called.", v[0], v[1], v[2],
		    v[3], v[4], v[5]);
}

/* I/O headroom: cdf's summary and idle's, side by side in one row. */
static void
headroom(struct result *sum, struct result *const *parts, size_t nparts)
{
	static const char *const io[] = { "mean_mib_s", "peak_mib_s",
	    "peak_source", "mean_share_of_peak", "below_33_share",
	    "coverage" };
	static const char *const idle[] = { "threshold_pct", "idle_share" };
	struct rcol_spec spec[16];
	struct src a, b;
	int has_b;
	size_t na, nb = 0, row;
	struct rtable *d;

	if (!sources(parts, nparts, "cdf", "summary", &a, 1) ||
	    a.t->nrow == 0)
		return;
	has_b = sources(parts, nparts, "idle", "summary", &b, 1) &&
	    b.t->nrow > 0;
	na = specs(a.t, io, NULL, sizeof io / sizeof *io, spec);
	if (has_b)
		nb = specs(b.t, idle, NULL, sizeof idle / sizeof *idle,
		    spec + na);
	for (size_t i = na; i < na + nb; i++)
		if (!strcmp(spec[i].key, "threshold_pct"))
			spec[i].title = "Idle below";
	d = result_table(sum, "headroom", "I/O headroom: the peak against the"
	    " mean, and the idle time", spec, na + nb);
	row = result_row(d);
	for (size_t c = 0; c < na; c++)
		copy_cell(d, row, (int)c, a.t, 0, spec[c].key);
	for (size_t c = na; c < na + nb; c++)
		copy_cell(d, row, (int)c, b.t, 0, spec[c].key);
}

static const struct rtable *
table_of(const struct result *r, const char *key)
{
	int k = result_table_index(r, key);

	return k < 0 ? NULL : &r->table[k];
}

/* "2010-06-30: the window's end, 2010-04-01, plus 90 days". */
static void
horizon_text(const struct summary_opts *o, int64_t cutoff, char *buf,
    size_t len)
{
	char a[32], b[32];

	snprintf(buf, len, "%s (%s, %s, plus %lld day%s)", human_date(cutoff,
	    0, a, sizeof a), o->window ? "the window's end" :
	    "the end of the latest snapshot's day", human_date(o->end, 0, b,
	    sizeof b), (long long)o->horizon, o->horizon == 1 ? "" : "s");
}

#ifndef NDEBUG
/* Is every one of the n parts a result? */
static int
parts_all_there(struct result *const *parts, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (parts[i] == NULL)
			return 0;
	return 1;
}
#endif

struct result *
summary_page(struct result *const *parts, size_t nparts,
    const struct summary_opts *o)
{
	static const char *const cold[] = { "fs", "project", "days", "files",
	    "bytes", "share_bytes", "d_bytes" };
	static const char *const growers[] = { "fs", "project", "d_used",
	    "bytes_per_day", "share_of_growth", "used" };
	static const char *const hosts[] = { "host", "devices", "avg_mib_s",
	    "peak_mib_s", "util", "read_share" };
	static const char *const slow[] = { "host", "device", "since",
	    "direction", "factor", "read_factor", "write_factor", "episodes",
	    "await_ms", "peers_await_ms", "confidence", "verdict" };
	struct result *sum = result_new("summary", "Summary");
	char by[160], day[32];
	int64_t cutoff = o->end == INT64_MIN ? INT64_MIN : o->end +
	    o->horizon * DAY;

	assert(o != NULL && (parts != NULL || nparts == 0));
	assert(parts_all_there(parts, nparts));
	if (o->end != INT64_MIN) {
		horizon_text(o, cutoff, by, sizeof by);
		red_list(sum, parts, nparts, cutoff, by, human_date(cutoff, 0,
		    day, sizeof day));
	}
	file_systems(sum, parts, nparts);
	ranked(sum, parts, nparts, "health", "devices", "factor", SIZE_MAX,
	    slow_device, "slow_devices", "Slow, intermittent and suspect "
	    "devices: each against its peers, the slowest first", slow, sizeof slow / sizeof *slow);
	health_line(sum, parts, nparts);
	ranked(sum, parts, nparts, "cold", "projects", "bytes", SIZE_MAX,
	    coldest, "cold", "Cold data: the projects with the most bytes not"
	    " read in the longest threshold recorded (the first 5 per file"
	    " system)", cold, sizeof cold / sizeof *cold);
	ranked(sum, parts, nparts, "capacity", "growers", "d_used", GROWERS,
	    NULL, "growers", "Top growers over the window", growers,
	    sizeof growers / sizeof *growers);
	headroom(sum, parts, nparts);
	ranked(sum, parts, nparts, "devices", "hosts", "avg_mib_s", HOSTS,
	    NULL, "hosts", "Busiest hosts (average throughput)", hosts,
	    sizeof hosts / sizeof *hosts);
	if (!table_of(sum, "filesystems") && !table_of(sum, "headroom"))
		result_note(sum, "Nothing to summarise: no file system and no "
		    "I/O in the window.");
	return sum;
}
