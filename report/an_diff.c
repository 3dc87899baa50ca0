/*
 * an_diff: growth between two snapshots (study-analyses.md 1.5, Table IV).
 *
 * Deltas are net (creations minus deletions). A group's share of new
 * files is its delta over the file system's delta; it is undefined when
 * that delta is <= 0, and it can be negative or above 1 when some groups
 * shrink. The "(unattributed)" row holds what the groups do not cover
 * (directly in shallower directories for --by dir), so that every column
 * of shares sums to 1.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyses.h"
#include "census.h"
#include "humanfmt.h"
#include "snapout.h"
#include "xalloc.h"

#define UNATTRIBUTED "(unattributed)"

/* One value pair (a, b) of files, bytes and allocated bytes. */
struct pair {
	struct nint a, b;
};

struct drow {
	const char *name;
	struct pair v[3];	/* files, bytes, alloc */
};

enum { M_FILES, M_BYTES, M_ALLOC };

static const char *const by_names[] = { [BY_PROJECT] = "project",
    [BY_USER] = "user", [BY_GROUP] = "group", [BY_DIR] = "dir" };
static const char *const by_label[] = { [BY_PROJECT] = "Project",
    [BY_USER] = "User", [BY_GROUP] = "Group", [BY_DIR] = "Directory" };

static int
parse_by(const char *s, enum group_by *by)
{
	for (int i = 0; i < 4; i++)
		if (!s || strcmp(s, by_names[i]) == 0) {
			*by = (enum group_by)(s ? i : BY_PROJECT);
			return 0;
		}
	return -1;
}

static struct nint
nint_of(int64_t v)
{
	return (struct nint){ v, 1 };
}

/* b - a, or missing. */
static struct nint
delta(struct pair p)
{
	if (!p.a.has || !p.b.has)
		return (struct nint){ 0, 0 };
	return nint_of(p.b.v - p.a.v);
}

/* ---- the per-file-system row ---- */

enum { F_FS, F_A, F_B, F_TA, F_TB, F_DAYS, F_NA, F_NB, F_DN, F_GROWTH,
    F_DN_DAY, F_BA, F_BB, F_DB, F_KA, F_KB, F_DK };

static const struct rcol_spec fs_cols[] = {
	[F_FS] = { "fs", "File system", NULL, CF_PLAIN, 0 },
	[F_A] = { "snapshot_a", "A", NULL, CF_PLAIN, 0 },
	[F_B] = { "snapshot_b", "B", NULL, CF_PLAIN, 0 },
	[F_TA] = { "t_a", "A started (UTC)", NULL, CF_TIME, 0 },
	[F_TB] = { "t_b", "B started (UTC)", NULL, CF_TIME, 0 },
	[F_DAYS] = { "days", "Days", "days", CF_PLAIN, 2 },
	[F_NA] = { "files_a", "Files A", "files", CF_PLAIN, 0 },
	[F_NB] = { "files_b", "Files B", "files", CF_PLAIN, 0 },
	[F_DN] = { "d_files", "New files", "files", CF_PLAIN, 0 },
	[F_GROWTH] = { "growth_factor", "Growth", "x", CF_PLAIN, 3 },
	[F_DN_DAY] = { "d_files_per_day", "New files/day", "files/day",
	    CF_PLAIN, 1 },
	[F_BA] = { "bytes_a", "Bytes A", "bytes", CF_BYTES, 0 },
	[F_BB] = { "bytes_b", "Bytes B", "bytes", CF_BYTES, 0 },
	[F_DB] = { "d_bytes", "New bytes", "bytes", CF_BYTES, 0 },
	[F_KA] = { "alloc_a", "Capacity A", "bytes", CF_BYTES, 0 },
	[F_KB] = { "alloc_b", "Capacity B", "bytes", CF_BYTES, 0 },
	[F_DK] = { "d_alloc", "New capacity", "bytes", CF_BYTES, 0 },
};

static void
fs_table(struct result *r, const struct snap *a, const struct snap *b,
    const struct drow *tot)
{
	struct rtable *t = result_table(r, "filesystems", "Growth per file"
	    " system", fs_cols, sizeof fs_cols / sizeof *fs_cols);
	size_t row = rt_row(t);
	double days = (double)(b->started_at - a->started_at) / 86400.0;
	struct nint dn = delta(tot->v[M_FILES]);

	rt_text(t, row, F_FS, b->fs);
	rt_int(t, row, F_A, a->id);
	rt_int(t, row, F_B, b->id);
	rt_int(t, row, F_TA, a->started_at);
	rt_int(t, row, F_TB, b->started_at);
	rt_real(t, row, F_DAYS, days);
	for (int m = 0; m < 3; m++) {
		int c = m == M_FILES ? F_NA : m == M_BYTES ? F_BA : F_KA;
		rt_nint(t, row, c, tot->v[m].a);
		rt_nint(t, row, c + 1, tot->v[m].b);
		rt_nint(t, row, m == M_FILES ? F_DN : c + 2, delta(tot->v[m]));
	}
	if (tot->v[M_FILES].a.has && tot->v[M_FILES].b.has &&
	    tot->v[M_FILES].a.v > 0)
		rt_real(t, row, F_GROWTH, (double)tot->v[M_FILES].b.v /
		    (double)tot->v[M_FILES].a.v);
	if (dn.has && days > 0)		/* not over a backwards interval */
		rt_real(t, row, F_DN_DAY, (double)dn.v / days);
}

/* ---- the per-group rows ---- */

enum { G_NAME, G_NA, G_NB, G_DN, G_PCT, G_SN, G_BA, G_BB, G_DB, G_SB, G_DK,
    G_SK };

static const struct rcol_spec group_cols[] = {
	[G_NAME] = { "name", "Name", NULL, CF_PLAIN, 0 },
	[G_NA] = { "files_a", "Files A", "files", CF_PLAIN, 0 },
	[G_NB] = { "files_b", "Files B", "files", CF_PLAIN, 0 },
	[G_DN] = { "d_files", "New files", "files", CF_PLAIN, 0 },
	[G_PCT] = { "pct_growth", "Growth", "%", CF_PCT, 1 },
	[G_SN] = { "share_new_files", "Share of new files", "%", CF_PCT, 1 },
	[G_BA] = { "bytes_a", "Bytes A", "bytes", CF_BYTES, 0 },
	[G_BB] = { "bytes_b", "Bytes B", "bytes", CF_BYTES, 0 },
	[G_DB] = { "d_bytes", "New bytes", "bytes", CF_BYTES, 0 },
	[G_SB] = { "share_new_bytes", "Share of new bytes", "%", CF_PCT, 1 },
	[G_DK] = { "d_alloc", "New capacity", "bytes", CF_BYTES, 0 },
	[G_SK] = { "share_new_capacity", "Share of new capacity", "%", CF_PCT,
	    1 },
};

/* Share of a group's delta in the total delta; NAN when undefined. */
static double
share(struct pair g, struct pair tot)
{
	struct nint d = delta(g), dt = delta(tot);

	if (!d.has || !dt.has || dt.v <= 0)
		return NAN;
	return (double)d.v / (double)dt.v;
}

static void
group_row(struct rtable *t, const struct drow *g, const struct drow *tot)
{
	size_t row = rt_row(t);
	const struct pair *f = &g->v[M_FILES];

	rt_text(t, row, G_NAME, g->name);
	rt_nint(t, row, G_NA, f->a);
	rt_nint(t, row, G_NB, f->b);
	rt_nint(t, row, G_DN, delta(*f));
	if (f->a.has && f->b.has && f->a.v != 0)
		rt_real(t, row, G_PCT, (double)(f->b.v - f->a.v) /
		    (double)f->a.v);
	rt_real_def(t, row, G_SN, share(*f, tot->v[M_FILES]));
	rt_nint(t, row, G_BA, g->v[M_BYTES].a);
	rt_nint(t, row, G_BB, g->v[M_BYTES].b);
	rt_nint(t, row, G_DB, delta(g->v[M_BYTES]));
	rt_real_def(t, row, G_SB, share(g->v[M_BYTES], tot->v[M_BYTES]));
	rt_nint(t, row, G_DK, delta(g->v[M_ALLOC]));
	rt_real_def(t, row, G_SK, share(g->v[M_ALLOC], tot->v[M_ALLOC]));
}

static void
set_side(struct drow *d, const struct gtot *g, int b)
{
	int64_t v[3] = { g->files, g->bytes, g->alloc };

	for (int m = 0; m < 3; m++)
		*(b ? &d->v[m].b : &d->v[m].a) = nint_of(v[m]);
}

/* Merge two key-sorted group lists; a group absent on one side has 0. */
static struct drow *
merge_groups(const struct gtot *ga, size_t na, const struct gtot *gb,
    size_t nb, size_t *n)
{
	struct drow *d = xcalloc(na + nb + 1, sizeof *d);
	size_t i = 0, j = 0;

	*n = 0;
	while (i < na || j < nb) {
		int c = i == na ? 1 : j == nb ? -1 :
		    strcmp(ga[i].key, gb[j].key);
		struct drow *r = &d[(*n)++];
		for (int m = 0; m < 3; m++)
			r->v[m].a = r->v[m].b = nint_of(0);
		if (c <= 0)
			set_side(r, &ga[i], 0);
		if (c >= 0)
			set_side(r, &gb[j], 1);
		r->name = c >= 0 ? gb[j].name : ga[i].name;
		i += c <= 0;
		j += c >= 0;
	}
	return d;
}

/* The residual of the totals over the groups, per side and metric. */
static void
unattributed(struct drow *u, const struct drow *d, size_t n,
    const struct drow *tot)
{
	u->name = UNATTRIBUTED;
	for (int m = 0; m < 3; m++) {
		struct nint a = tot->v[m].a, b = tot->v[m].b;
		for (size_t i = 0; i < n; i++) {
			a.v -= d[i].v[m].a.v;
			b.v -= d[i].v[m].b.v;
		}
		u->v[m].a = a;
		u->v[m].b = b;
	}
}

/* New files descending, then name: the share order wherever shares are
 * defined. */
static int
drow_cmp(const void *pa, const void *pb)
{
	const struct drow *a = pa, *b = pb;
	int64_t da = a->v[M_FILES].b.v - a->v[M_FILES].a.v;
	int64_t db = b->v[M_FILES].b.v - b->v[M_FILES].a.v;

	if (da != db)
		return da > db ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* ---- notes ---- */

static void
note_snapshot(struct result *r, const char *which, const struct snap *s)
{
	char d[32];

	result_note(r, "Snapshot %s: #%lld of %s (root %s), started %s UTC,"
	    " %s.", which, (long long)s->id, s->fs, s->root,
	    human_date(s->started_at, 1, d, sizeof d), s->status);
	if (!s->complete)
		result_note(r, "WARNING: snapshot %lld is not complete (%s):"
		    " its totals are partial or missing, and so is every delta"
		    " computed from it.", (long long)s->id, s->status);
}

static void
note_finding(struct result *r, enum group_by by, const struct drow *d,
    size_t n, const struct drow *tot)
{
	double sn, sb;

	if (!delta(tot->v[M_FILES]).has)
		return;
	if (delta(tot->v[M_FILES]).v <= 0) {
		result_note(r, "The number of files did not grow (net change"
		    " %lld), so shares of new files are undefined (n/a).",
		    (long long)delta(tot->v[M_FILES]).v);
		return;
	}
	if (n == 0)
		return;
	sn = share(d[0].v[M_FILES], tot->v[M_FILES]);
	sb = share(d[0].v[M_BYTES], tot->v[M_BYTES]);
	if (sb == sb)
		result_note(r, "%s %s made %.1f%% of new files %s %.1f%% of new"
		    " bytes.", by_label[by], d[0].name, 100 * sn,
		    sn > sb ? "but" : "and", 100 * sb);
	else
		result_note(r, "%s %s made %.1f%% of new files; the bytes did"
		    " not grow, so shares of new bytes are undefined (n/a).",
		    by_label[by], d[0].name, 100 * sn);
}

/* ---- the analysis ---- */

static int
load_snap(sqlite3 *db, int64_t id, struct snap *s, char *err, size_t errlen)
{
	int rc = census_snapshot(db, id, s, err, errlen);

	if (rc == 0)
		snprintf(err, errlen, AN_USAGE "snapshot %lld does not exist",
		    (long long)id);
	return rc == 1 ? 0 : -1;
}

static int
groups(struct result *r, sqlite3 *db, const struct an_opts *o,
    enum group_by by, const struct drow *tot, char *err, size_t errlen)
{
	struct gtot *ga = NULL, *gb = NULL;
	size_t na = 0, nb = 0, n;
	struct drow *d;
	struct rtable *t;

	if (census_groups(db, o->snap_a, by, o->dir_depth, &ga, &na, err,
	    errlen) < 0 || census_groups(db, o->snap_b, by, o->dir_depth, &gb,
	    &nb, err, errlen) < 0) {
		gtots_free(ga, na);
		gtots_free(gb, nb);
		return -1;
	}
	if (by == BY_DIR && (na == 0 || nb == 0))
		result_note(r, "Snapshot %lld has no directory totals at depth"
		    " %d (fsscan --dirs was smaller): its files are all"
		    " unattributed.", (long long)(na == 0 ? o->snap_a :
		    o->snap_b), o->dir_depth);
	d = merge_groups(ga, na, gb, nb, &n);
	qsort(d, n, sizeof *d, drow_cmp);
	unattributed(&d[n], d, n, tot);
	note_finding(r, by, d, n, tot);
	t = result_table(r, "groups", by == BY_DIR ? "Growth per directory" :
	    by == BY_PROJECT ? "Growth per project" : by == BY_USER ?
	    "Growth per user" : "Growth per group", group_cols,
	    sizeof group_cols / sizeof *group_cols);
	for (size_t i = 0; i <= n; i++)
		group_row(t, &d[i], tot);
	free(d);
	gtots_free(ga, na);
	gtots_free(gb, nb);
	return 0;
}

struct result *
an_diff(sqlite3 *db, const struct an_opts *o, char *err, size_t errlen)
{
	struct snap a = { 0 }, b = { 0 };
	struct result *r = NULL;
	struct drow tot = { .name = "total" };
	enum group_by by;
	double share;

	if (parse_by(o->by, &by) < 0) {
		snprintf(err, errlen, AN_USAGE "--by %s: expected project,"
		    " user, group or dir", o->by);
		return NULL;
	}
	if (load_snap(db, o->snap_a, &a, err, errlen) < 0 ||
	    load_snap(db, o->snap_b, &b, err, errlen) < 0)
		goto fail;
	tot.v[M_FILES] = (struct pair){ a.files, b.files };
	tot.v[M_BYTES] = (struct pair){ a.bytes, b.bytes };
	tot.v[M_ALLOC] = (struct pair){ a.alloc, b.alloc };
	r = result_new("diff", "Growth between two snapshots");
	note_snapshot(r, "A", &a);
	note_snapshot(r, "B", &b);
	if (strcmp(a.fs, b.fs) != 0)
		result_note(r, "WARNING: A and B are different file systems"
		    " (%s and %s); the deltas compare unrelated trees.", a.fs,
		    b.fs);
	if (b.started_at < a.started_at)
		result_note(r, "WARNING: B (#%lld) was taken before A (#%lld):"
		    " the deltas run backwards in time, and there is no growth"
		    " rate; give the older snapshot first.", (long long)b.id,
		    (long long)a.id);
	result_note(r, "Deltas are net changes (files created minus files"
	    " deleted) over %.2f days; shares are of the file system's net"
	    " growth, are n/a when it is <= 0, and can be negative or above"
	    " 100%% when some groups shrink.",
	    (double)(b.started_at - a.started_at) / 86400.0);
	fs_table(r, &a, &b, &tot);
	if (by == BY_DIR)
		result_note(r, "Directories at depth %d below the root; files"
		    " directly in shallower directories are unattributed.",
		    o->dir_depth);
	if (groups(r, db, o, by, &tot, err, errlen) < 0 ||
	    note_unresolved(r, db, &a, "A", &share, err, errlen) < 0 ||
	    note_unresolved(r, db, &b, "B", &share, err, errlen) < 0)
		goto fail;
	snap_clear(&a);
	snap_clear(&b);
	return r;
fail:
	if (r)
		result_free(r);
	snap_clear(&a);
	snap_clear(&b);
	return NULL;
}
