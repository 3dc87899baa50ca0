/*
 * space_diff: growth between two snapshots (docs/analyses.md, "Growth between two snapshots"; Table IV of
 * the Intrepid study).
 *
 * Deltas are net (creations minus deletions). A group's share of new
 * files is its delta over the file system's delta; it is undefined when
 * that delta is <= 0, and it can be negative or above 1 when some groups
 * shrink. The "(unattributed)" row holds what the groups do not cover
 * (directly in shallower directories for --by dir), so that every column
 * of shares sums to 1.
 *
 * Several pairs (one per file system, each with its own dates) give one
 * row per file system and a total row that adds their net changes: the
 * snapshots were not simultaneous, so the total has no common window and
 * the notes list each one (docs/analyses.md). Groups of the same
 * name in several file systems are added up.
 *
 * A window (--quarter, --from, --to) instead of ids picks one pair per
 * file system: its last complete snapshot at or before the start (else
 * the first after it) and its last at or before the end. A file system
 * with fewer than two in reach is a row of its name with every value
 * missing, never zero.
 *
 * Totals are exact 128-bit integers (fsscan/walk/walk.h): a difference
 * of two is exact, and a sum that would pass 2^127 - 1 is refused, never
 * wrapped.
 */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "space.h"
#include "query/query.h"
#include "human.h"
#include "space_groups_int.h"
#include "space_snapout_int.h"
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
nint_of(i128 v)
{
	return (struct nint){ v, 1 };
}

/* *a += b (sub: -=); 1 when the result would not fit, *a then unchanged. */
static int
add_over(i128 *a, i128 b, int sub)
{
	i128 r;

	if (sub ? __builtin_sub_overflow(*a, b, &r) :
	    __builtin_add_overflow(*a, b, &r))
		return 1;
	*a = r;
	return 0;
}

#define TOO_LARGE "totals too large to add exactly (past 2^127 - 1)"

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
	[F_KA] = { "alloc_a", "Allocated A", "bytes", CF_BYTES, 0 },
	[F_KB] = { "alloc_b", "Allocated B", "bytes", CF_BYTES, 0 },
	[F_DK] = { "d_alloc", "New allocated", "bytes", CF_BYTES, 0 },
};

/* One pair of snapshots of one file system and its totals. */
struct spair {
	struct snap a, b;
	struct drow tot;
};

static double
pair_days(const struct spair *p)
{
	return (double)(p->b.started_at - p->a.started_at) / 86400.0;
}

/* The totals and rates of one row; days NAN for the total row. */
static void
fs_values(struct rtable *t, size_t row, const struct drow *tot,
    double per_day)
{
	for (int m = 0; m < 3; m++) {
		int c = m == M_FILES ? F_NA : m == M_BYTES ? F_BA : F_KA;
		space_snapout_nint(t, row, c, tot->v[m].a);
		space_snapout_nint(t, row, c + 1, tot->v[m].b);
		space_snapout_nint(t, row, m == M_FILES ? F_DN : c + 2,
		    delta(tot->v[m]));
	}
	if (tot->v[M_FILES].a.has && tot->v[M_FILES].b.has &&
	    tot->v[M_FILES].a.v > 0)
		result_set_real(t, row, F_GROWTH, (double)tot->v[M_FILES].b.v /
		    (double)tot->v[M_FILES].a.v);
	space_snapout_real(t, row, F_DN_DAY, per_day);
}

/* New files per day of one pair: NAN when missing or over a backwards
 * or empty interval. */
static double
files_per_day(const struct spair *p)
{
	struct nint dn = delta(p->tot.v[M_FILES]);

	return dn.has && pair_days(p) > 0 ? (double)dn.v / pair_days(p) : NAN;
}

/* A row per pair; with several, a total row whose rate adds theirs. */
static void
fs_table(struct result *r, const struct spair *p, size_t np,
    const struct drow *tot)
{
	struct rtable *t = result_table(r, "filesystems", "Growth per file"
	    " system", fs_cols, sizeof fs_cols / sizeof *fs_cols);
	double rate = 0;

	result_wide(t, "t_a,t_b,files_a,files_b,bytes_a,bytes_b,alloc_a,"
	    "alloc_b");

	for (size_t i = 0; i < np; i++) {
		size_t row = result_row(t);
		double per_day = files_per_day(&p[i]);

		result_set_text(t, row, F_FS, p[i].b.fs);
		result_set_int(t, row, F_A, p[i].a.id);
		result_set_int(t, row, F_B, p[i].b.id);
		result_set_int(t, row, F_TA, p[i].a.started_at);
		result_set_int(t, row, F_TB, p[i].b.started_at);
		result_set_real(t, row, F_DAYS, pair_days(&p[i]));
		fs_values(t, row, &p[i].tot, per_day);
		rate += per_day;
	}
	if (np > 1) {
		size_t row = result_row(t);
		result_set_text(t, row, F_FS, "total");
		fs_values(t, row, tot, rate);
	}
}

/* ---- the per-group rows ---- */

enum { G_NAME, G_NA, G_NB, G_DN, G_PCT, G_SN, G_BA, G_BB, G_DB, G_SB, G_DK,
    G_SK };

static const struct rcol_spec group_cols[] = {
	[G_NAME] = { "name", "Name", NULL, CF_PLAIN, 0 },
	[G_NA] = { "files_a", "Files A", "files", CF_PLAIN, 0 },
	[G_NB] = { "files_b", "Files B", "files", CF_PLAIN, 0 },
	[G_DN] = { "d_files", "New files", "files", CF_PLAIN, 0 },
	[G_PCT] = { "growth_ratio", "Growth", "%", CF_PCT, 1 },
	[G_SN] = { "share_new_files", "Share of new files", "%", CF_PCT, 1 },
	[G_BA] = { "bytes_a", "Bytes A", "bytes", CF_BYTES, 0 },
	[G_BB] = { "bytes_b", "Bytes B", "bytes", CF_BYTES, 0 },
	[G_DB] = { "d_bytes", "New bytes", "bytes", CF_BYTES, 0 },
	[G_SB] = { "share_new_bytes", "Share of new bytes", "%", CF_PCT, 1 },
	[G_DK] = { "d_alloc", "New allocated", "bytes", CF_BYTES, 0 },
	[G_SK] = { "share_new_capacity", "Share of new allocated", "%",
	    CF_PCT, 1 },
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
	size_t row = result_row(t);
	const struct pair *f = &g->v[M_FILES];

	result_set_text(t, row, G_NAME, g->name);
	space_snapout_nint(t, row, G_NA, f->a);
	space_snapout_nint(t, row, G_NB, f->b);
	space_snapout_nint(t, row, G_DN, delta(*f));
	if (f->a.has && f->b.has && f->a.v != 0)
		result_set_real(t, row, G_PCT, (double)(f->b.v - f->a.v) /
		    (double)f->a.v);
	space_snapout_real(t, row, G_SN, share(*f, tot->v[M_FILES]));
	space_snapout_nint(t, row, G_BA, g->v[M_BYTES].a);
	space_snapout_nint(t, row, G_BB, g->v[M_BYTES].b);
	space_snapout_nint(t, row, G_DB, delta(g->v[M_BYTES]));
	space_snapout_real(t, row, G_SB, share(g->v[M_BYTES], tot->v[M_BYTES]));
	space_snapout_nint(t, row, G_DK, delta(g->v[M_ALLOC]));
	space_snapout_real(t, row, G_SK, share(g->v[M_ALLOC], tot->v[M_ALLOC]));
}

static void
set_side(struct drow *d, const struct gtot *g, int b)
{
	i128 v[3] = { g->files, g->bytes, g->alloc };

	for (int m = 0; m < 3; m++)
		*(b ? &d->v[m].b : &d->v[m].a) = nint_of(v[m]);
}

struct merged {
	struct drow *d;
	size_t n;
};

/* One key of the merge: a group absent on one side has 0 there. */
static void
merge_one(const struct gtot *a, const struct gtot *b, void *arg)
{
	struct merged *m = arg;
	struct drow *r = &m->d[m->n++];

	assert(a != NULL || b != NULL);	/* a key of one side at least */
	for (int k = 0; k < 3; k++)
		r->v[k].a = r->v[k].b = nint_of(0);
	if (a)
		set_side(r, a, 0);
	if (b)
		set_side(r, b, 1);
	r->name = b ? b->name : a->name;
}

/* Merge two key-sorted group lists. */
static struct drow *
merge_groups(const struct gtot *ga, size_t na, const struct gtot *gb,
    size_t nb, size_t *n)
{
	struct merged m = { xcalloc(na + nb + 1, sizeof *m.d), 0 };

	space_groups_merge(ga, na, gb, nb, merge_one, &m);
	*n = m.n;
	return m.d;
}

/* The residual of the totals over the groups, per side and metric; -1
 * when it does not fit 128 bits (groups far above their total). */
static int
unattributed(struct drow *u, const struct drow *d, size_t n,
    const struct drow *tot)
{
	int over = 0;

	u->name = UNATTRIBUTED;
	for (int m = 0; m < 3; m++) {
		struct nint a = tot->v[m].a, b = tot->v[m].b;
		for (size_t i = 0; i < n; i++) {
			over |= add_over(&a.v, d[i].v[m].a.v, 1);
			over |= add_over(&b.v, d[i].v[m].b.v, 1);
		}
		u->v[m].a = a;
		u->v[m].b = b;
	}
	return over ? -1 : 0;
}

/* New files descending, then name: the share order wherever shares are
 * defined. */
static int
drow_cmp(const void *pa, const void *pb)
{
	const struct drow *a = pa, *b = pb;
	i128 da = a->v[M_FILES].b.v - a->v[M_FILES].a.v;
	i128 db = b->v[M_FILES].b.v - b->v[M_FILES].a.v;

	if (da != db)
		return da > db ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* ---- notes ---- */

/* A share in a sentence: one decimal, never "-0.0%". */
static const char *
share_text(double v, char *buf, size_t len)
{
	if (v != 0 && fabs(100 * v) < 0.05)
		snprintf(buf, len, "%s0.05%%", v > 0 ? "less than " :
		    "a net decrease of less than ");
	else
		snprintf(buf, len, "%.1f%%", v == 0 ? 0.0 : 100 * v);
	return buf;
}

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
	char a[64], b[64];
	double sn, sb;

	if (!delta(tot->v[M_FILES]).has)
		return;
	if (delta(tot->v[M_FILES]).v <= 0) {
		result_note(r, "The number of files did not grow (net change"
		    " %s), so shares of new files are undefined (n/a).",
		    human_wide(delta(tot->v[M_FILES]).v, a, sizeof a));
		return;
	}
	if (n == 0)
		return;
	sn = share(d[0].v[M_FILES], tot->v[M_FILES]);
	sb = share(d[0].v[M_BYTES], tot->v[M_BYTES]);
	share_text(sn, a, sizeof a);
	if (sb == sb)
		result_note(r, "%s %s made %s of new files %s %s of new"
		    " bytes.", by_label[by], d[0].name, a,
		    sn > sb ? "but" : "and", share_text(sb, b, sizeof b));
	else
		result_note(r, "%s %s made %s of new files; the bytes did"
		    " not grow, so shares of new bytes are undefined (n/a).",
		    by_label[by], d[0].name, a);
}

/* ---- directory depth ---- */

enum depth_why { DW_EMPTY, DW_SHALLOW, DW_UNKNOWN };

/* Why a snapshot has no directory totals at the asked depth: its tree has
 * none there, its scan kept fewer levels, or it does not say. */
static int
depth_why(sqlite3 *db, int64_t id, int want, enum depth_why *why,
    int *kept, char *err, size_t errlen)
{
	int rc = query_census_dir_scope(db, id, kept, err, errlen);

	if (rc < 0)
		return -1;
	*why = rc == 0 ? DW_UNKNOWN : *kept < 0 || *kept >= want ? DW_EMPTY :
	    DW_SHALLOW;
	return 0;
}

/* One note per reason (and kept depth), naming every snapshot it fits. */
static int
note_depth(struct result *r, sqlite3 *db, const int64_t *ids, size_t n,
    int want, char *err, size_t errlen)
{
	enum depth_why *why = xcalloc(n + 1, sizeof *why);
	int *kept = xcalloc(n + 1, sizeof *kept), *done = xcalloc(n + 1,
	    sizeof *done);
	int rc = 0;

	for (size_t i = 0; i < n && rc == 0; i++)
		rc = depth_why(db, ids[i], want, &why[i], &kept[i], err,
		    errlen);
	for (size_t i = 0; i < n && rc == 0; i++) {
		char list[512];
		size_t len = 0, cnt = 0;
		if (done[i])
			continue;
		for (size_t k = i; k < n; k++) {
			if (done[k] || why[k] != why[i] ||
			    (why[i] == DW_SHALLOW && kept[k] != kept[i]))
				continue;
			done[k] = 1;
			cnt++;
			if (len < sizeof list)
				len += (size_t)snprintf(list + len, sizeof list
				    - len, "%s#%lld", len ? ", " : "",
				    (long long)ids[k]);
		}
		if (why[i] == DW_EMPTY)
			result_note(r, "Snapshot%s %s %s no directory at depth"
			    " %d (%s scan kept that depth): %s files are all"
			    " unattributed.", cnt > 1 ? "s" : "", list,
			    cnt > 1 ? "have" : "has", want, cnt > 1 ? "their" :
			    "its", cnt > 1 ? "their" : "its");
		else if (why[i] == DW_SHALLOW)
			result_note(r,
			    "Snapshot%s %s kept directory totals down"
			    " to depth %d only (fsscan --dirs %d), not %d: %s"
			    " files are all unattributed.", cnt > 1 ? "s" : "",
			    list, kept[i], kept[i], want, cnt > 1 ? "their" :
			    "its");
		else
			result_note(r, "Snapshot%s %s %s no directory totals at"
			    " depth %d, and %s not record %s fsscan --dirs"
			    " depth: the tree has no directory that deep, or"
			    " the scan kept fewer levels; %s files are all"
			    " unattributed.", cnt > 1 ? "s" : "", list,
			    cnt > 1 ? "have" : "has", want, cnt > 1 ? "do" :
			    "does", cnt > 1 ? "their" : "its", cnt > 1 ?
			    "their" : "its");
	}
	free(why);
	free(kept);
	free(done);
	return rc;
}

/* ---- groups over one or several pairs ---- */

/* By key, then name: of groups of the same key in several file systems
 * (a user known by different names), the smallest name is shown. */
static int
gtot_key_cmp(const void *pa, const void *pb)
{
	const struct gtot *a = pa, *b = pb;
	int c = strcmp(a->key, b->key);

	return c ? c : strcmp(a->name, b->name);
}

/* Sort and add up groups of the same key (from several file systems);
 * *n shrinks. -1 (the list still whole) when a sum does not fit. */
static int
gtots_sum_dups(struct gtot *g, size_t *n)
{
	size_t k = 0;
	int over = 0;

	if (*n == 0)
		return 0;
	qsort(g, *n, sizeof *g, gtot_key_cmp);
	for (size_t i = 1; i < *n; i++) {
		if (strcmp(g[i].key, g[k].key) == 0) {
			over |= __builtin_add_overflow(g[k].files, g[i].files,
			    &g[k].files);
			over |= add_over(&g[k].bytes, g[i].bytes, 0);
			over |= add_over(&g[k].alloc, g[i].alloc, 0);
			free(g[i].key);
			free(g[i].name);
			continue;
		}
		g[++k] = g[i];
	}
	*n = k + 1;
	return over ? -1 : 0;
}

/* Append one snapshot's groups to *all. Returns how many it had, or -1. */
static long
add_groups(sqlite3 *db, int64_t id, enum group_by by, int depth,
    struct gtot **all, size_t *n, char *err, size_t errlen)
{
	struct gtot *g;
	size_t ng;

	if (query_census_groups(db, id, by, depth, &g, &ng, err, errlen) < 0)
		return -1;
	*all = xreallocarray(*all, *n + ng + 1, sizeof **all);
	if (ng)
		memcpy(*all + *n, g, ng * sizeof *g);
	*n += ng;
	free(g);
	return (long)ng;
}

static int
groups(struct result *r, sqlite3 *db, const struct opts *o,
    enum group_by by, const struct spair *p, size_t np,
    const struct drow *tot, char *err, size_t errlen)
{
	struct gtot *ga = NULL, *gb = NULL;
	size_t na = 0, nb = 0, n, nempty = 0;
	int64_t *empty = xcalloc(2 * np + 1, sizeof *empty);
	struct drow *d;
	struct rtable *t;
	int rc = -1;

	for (size_t i = 0; i < np; i++) {
		long ka = add_groups(db, p[i].a.id, by, o->dir_depth, &ga, &na,
		    err, errlen);
		long kb = ka < 0 ? -1 : add_groups(db, p[i].b.id, by,
		    o->dir_depth, &gb, &nb, err, errlen);
		if (kb < 0)
			goto out;
		if (by == BY_DIR && ka == 0)
			empty[nempty++] = p[i].a.id;
		if (by == BY_DIR && kb == 0 && p[i].b.id != p[i].a.id)
			empty[nempty++] = p[i].b.id;
	}
	if (nempty && note_depth(r, db, empty, nempty, o->dir_depth, err,
	    errlen) < 0)
		goto out;
	if ((gtots_sum_dups(ga, &na) | gtots_sum_dups(gb, &nb)) < 0) {
		snprintf(err, errlen, "groups of the same name: " TOO_LARGE);
		goto out;
	}
	d = merge_groups(ga, na, gb, nb, &n);
	qsort(d, n, sizeof *d, drow_cmp);
	if (unattributed(&d[n], d, n, tot) < 0) {
		snprintf(err, errlen, "the groups' residual: " TOO_LARGE);
		free(d);
		goto out;
	}
	note_finding(r, by, d, n, tot);
	t = result_table(r, "groups", by == BY_DIR ? "Growth per directory" :
	    by == BY_PROJECT ? "Growth per project" : by == BY_USER ?
	    "Growth per user" : "Growth per group", group_cols,
	    sizeof group_cols / sizeof *group_cols);
	result_wide(t, "files_a,bytes_a,share_new_capacity");
	result_list(t, 1);	/* the unattributed row last */
	for (size_t i = 0; i <= n; i++)
		group_row(t, &d[i], tot);
	free(d);
	rc = 0;
out:
	query_census_gtots_free(ga, na);
	query_census_gtots_free(gb, nb);
	free(empty);
	return rc;
}

/* ---- the analysis ---- */

static int
load_snap(sqlite3 *db, int64_t id, struct snap *s, char *err, size_t errlen)
{
	int rc = query_census_snapshot(db, id, s, err, errlen);

	if (rc == 0)
		snprintf(err, errlen, FMT_USAGE "snapshot %lld does not exist",
		    (long long)id);
	return rc == 1 ? 0 : -1;
}

/* Add a pair's totals into the grand total; missing stays missing. -1
 * when a sum does not fit. */
static int
tot_add(struct drow *t, const struct drow *p)
{
	int over = 0;

	for (int m = 0; m < 3; m++) {
		struct nint *x[2] = { &t->v[m].a, &t->v[m].b };
		const struct nint y[2] = { p->v[m].a, p->v[m].b };
		for (int k = 0; k < 2; k++) {
			x[k]->has = x[k]->has && y[k].has;
			over |= add_over(&x[k]->v, y[k].v, 0);
		}
	}
	return over ? -1 : 0;
}

/* Load the pairs of ids (ids[2 i], ids[2 i + 1]). A file system in two
 * pairs would count its growth twice. */
static int
load_pairs(sqlite3 *db, const int64_t *ids, struct spair *p, size_t np,
    char *err, size_t errlen)
{
	for (size_t i = 0; i < np; i++) {
		int64_t a = ids[2 * i], b = ids[2 * i + 1];
		if (load_snap(db, a, &p[i].a, err, errlen) < 0 ||
		    load_snap(db, b, &p[i].b, err, errlen) < 0)
			return -1;
		p[i].tot.name = "total";
		p[i].tot.v[M_FILES] = (struct pair){ p[i].a.files,
		    p[i].b.files };
		p[i].tot.v[M_BYTES] = (struct pair){ p[i].a.bytes,
		    p[i].b.bytes };
		p[i].tot.v[M_ALLOC] = (struct pair){ p[i].a.alloc,
		    p[i].b.alloc };
		for (size_t k = 0; k < i; k++) {
			if (strcmp(p[k].b.fs, p[i].b.fs) == 0) {
				snprintf(err, errlen, FMT_USAGE "file system %s"
				    " is in two pairs (#%lld #%lld and #%lld"
				    " #%lld): its growth would count twice",
				    p[i].b.fs, (long long)p[k].a.id,
				    (long long)p[k].b.id, (long long)p[i].a.id,
				    (long long)p[i].b.id);
				return -1;
			}
		}
	}
	return 0;
}

/* "A" and "B"; with several pairs "A1", "B1", "A2" ... */
static void
pair_labels(size_t i, size_t np, char la[32], char lb[32])
{
	if (np == 1) {
		strcpy(la, "A");
		strcpy(lb, "B");
		return;
	}
	snprintf(la, 32, "A%zu", i + 1);
	snprintf(lb, 32, "B%zu", i + 1);
}

static void
note_pair(struct result *r, const struct spair *p, size_t i, size_t np)
{
	char la[32], lb[32];

	pair_labels(i, np, la, lb);
	note_snapshot(r, la, &p->a);
	note_snapshot(r, lb, &p->b);
	if (strcmp(p->a.fs, p->b.fs) != 0)
		result_note(r, "WARNING: %s and %s are different file systems"
		    " (%s and %s); the deltas compare unrelated trees.", la, lb,
		    p->a.fs, p->b.fs);
	if (p->b.started_at < p->a.started_at)
		result_note(r, "WARNING: %s (#%lld) was taken before %s"
		    " (#%lld): the deltas run backwards in time, and there is"
		    " no growth rate; give the older snapshot first.", lb,
		    (long long)p->b.id, la, (long long)p->a.id);
}

/* The windows of a total over several file systems, each its own. */
static void
note_windows(struct result *r, const struct spair *p, size_t np)
{
	char w[1024], d0[32], d1[32];
	size_t len = 0;

	w[0] = 0;
	for (size_t i = 0; i < np && len < sizeof w; i++)
		len += (size_t)snprintf(w + len, sizeof w - len, "%s%s from %s"
		    " to %s (#%lld to #%lld, %.2f days)", i ? "; " : "",
		    p[i].b.fs, human_date(p[i].a.started_at, 0, d0, sizeof d0),
		    human_date(p[i].b.started_at, 0, d1, sizeof d1),
		    (long long)p[i].a.id, (long long)p[i].b.id,
		    pair_days(&p[i]));
	result_note(r, "The total adds the net change of %zu file systems,"
	    " each over its own window: %s. The snapshots were not taken at"
	    " the same time, so the total has no common window; its new"
	    " files per day add each file system's rate.", np, w);
}

/* ---- a window instead of ids ---- */

/* The file systems of a window: the pairs picked, and the names with
 * fewer than two complete snapshots in reach. */
struct wpick {
	int64_t *ids;		/* 2 * np */
	size_t np;
	char **missing;
	size_t nmissing;
};

static void
wpick_free(struct wpick *w)
{
	for (size_t i = 0; i < w->nmissing; i++)
		free(w->missing[i]);
	free(w->missing);
	free(w->ids);
}

/* In sorted s, the complete snapshots of fs that bound the window: A the
 * last at or before its start, else the first after it (and at or before
 * its end); B the last at or before its end. 1 with both, distinct; 0
 * when fewer than two are in reach. */
static int
pick_ends(const struct snap *s, size_t n, const char *fs, int64_t lo,
    int64_t hi, size_t *a, size_t *b)
{
	int ha = 0, hb = 0;

	for (size_t i = 0; i < n; i++) {
		if (!s[i].complete || strcmp(s[i].fs, fs) != 0 ||
		    s[i].started_at > hi)
			continue;
		if (s[i].started_at <= lo || !ha)
			*a = i, ha = 1;
		*b = i, hb = 1;
	}
	return ha && hb && *a != *b;
}

/* Per file system (by their first snapshot's start), the pair of the
 * window o->win. 0, or -1 with err. */
static int
pick_window(sqlite3 *db, const struct opts *o, struct wpick *w, char *err,
    size_t errlen)
{
	struct snap *s;
	const char **names;
	size_t n, nfs, a = 0, b = 0;

	if (query_census_snapshots(db, &s, &n, err, errlen) < 0)
		return -1;
	space_points_sort(s, n);
	names = xcalloc(n + 1, sizeof *names);
	nfs = space_points_fs_names(s, n, names);
	w->ids = xcalloc(2 * nfs + 1, sizeof *w->ids);
	w->missing = xcalloc(nfs + 1, sizeof *w->missing);
	for (size_t i = 0; i < nfs; i++) {
		if (!pick_ends(s, n, names[i], io_window_lo(&o->win),
		    io_window_hi(&o->win), &a, &b)) {
			w->missing[w->nmissing++] = xstrdup(names[i]);
			continue;
		}
		w->ids[2 * w->np] = s[a].id;
		w->ids[2 * w->np++ + 1] = s[b].id;
	}
	free(names);
	query_census_snaps_free(s, n);
	return 0;
}

/* The ids given (diff A B A2 B2 ...) as pairs, or those of the window:
 * one or the other. 0, or -1 with a usage error. */
static int
pairs_of(sqlite3 *db, const struct opts *o, struct wpick *w, char *err,
    size_t errlen)
{
	if (io_window_given(&o->win)) {
		if (o->snap_a || o->snap_b) {
			snprintf(err, errlen, FMT_USAGE "give snapshot ids"
			    " (A B ...) or a window (--quarter, --from, --to),"
			    " not both");
			return -1;
		}
		return pick_window(db, o, w, err, errlen);
	}
	if (!o->snap_a && !o->snap_b) {
		snprintf(err, errlen, FMT_USAGE "expected snapshot ids in"
		    " pairs, A B [A2 B2 ...], or a window: --quarter YYYYQn,"
		    " --from DATE, --to DATE");
		return -1;
	}
	w->np = 1 + o->npairs;
	w->ids = xcalloc(2 * w->np, sizeof *w->ids);
	w->ids[0] = o->snap_a;
	w->ids[1] = o->snap_b;
	if (o->npairs)
		memcpy(w->ids + 2, o->pairs, 2 * o->npairs * sizeof *w->ids);
	return 0;
}

/* Which snapshots the window picked, and the file systems it could not
 * diff: a row each, every value missing (not zero), after the others. */
static void
note_window(struct result *r, const struct opts *o, const struct spair *p,
    size_t np, const struct wpick *w)
{
	struct rtable *t = &r->table[result_table_index(r, "filesystems")];
	char a[32], b[32], list[1024];
	size_t len = 0;

	list[0] = 0;
	for (size_t i = 0; i < np && len < sizeof list; i++)
		len += (size_t)snprintf(list + len, sizeof list - len,
		    "%s%s #%lld to #%lld", i ? ", " : "", p[i].b.fs,
		    (long long)p[i].a.id, (long long)p[i].b.id);
	result_note(r, "Window %s to %s (UTC): per file system, A is its last"
	    " complete snapshot at or before the start (else the first after"
	    " it), B its last at or before the end%s%s.", o->win.has_from ?
	    human_date(o->win.from, 1, a, sizeof a) : "the first snapshot",
	    o->win.has_to ? human_date(o->win.to, 1, b, sizeof b) :
	    "the last snapshot", np ? ": " : "", list);
	for (size_t i = 0; i < w->nmissing; i++) {
		result_set_text(t, result_row(t), F_FS, w->missing[i]);
		result_note(r, "%s: fewer than two complete snapshots in reach"
		    " of the window: missing, not zero.", w->missing[i]);
	}
}

static void
pairs_free(struct spair *p, size_t np, struct wpick *w)
{
	for (size_t i = 0; p && i < np; i++) {
		query_census_snap_clear(&p[i].a);
		query_census_snap_clear(&p[i].b);
	}
	free(p);
	wpick_free(w);
}

/* A window in which no file system has two complete snapshots: every one
 * missing, and no group to compare. */
static struct result *
no_pairs(const struct opts *o, struct wpick *w)
{
	struct result *r = result_new("diff", "Growth between two snapshots");
	struct drow none = { .name = "total" };

	fs_table(r, NULL, 0, &none);
	note_window(r, o, NULL, 0, w);
	if (w->nmissing == 0)
		result_note(r, "No snapshots in the database.");
	wpick_free(w);
	return r;
}

struct result *
space_diff(sqlite3 *db, const struct opts *o, char *err, size_t errlen)
{
	struct wpick w = { 0 };
	size_t np = 0;
	struct spair *p = NULL;
	struct result *r = NULL;
	struct drow tot = { .name = "total" };
	enum group_by by;
	double share;

	assert(db != NULL && o != NULL && err != NULL && errlen > 0);
	assert(db != NULL && o != NULL && err != NULL);
	if (parse_by(o->by, &by) < 0) {
		snprintf(err, errlen, FMT_USAGE "--by %s: expected project,"
		    " user, group or dir", o->by);
		goto fail;
	}
	if (pairs_of(db, o, &w, err, errlen) < 0)
		goto fail;
	np = w.np;
	p = xcalloc(np + 1, sizeof *p);
	if (load_pairs(db, w.ids, p, np, err, errlen) < 0)
		goto fail;
	if (np == 0) {
		free(p);
		return no_pairs(o, &w);
	}
	tot = p[0].tot;
	for (size_t i = 1; i < np; i++)
		if (tot_add(&tot, &p[i].tot) < 0) {
			snprintf(err, errlen, "the total row: " TOO_LARGE);
			goto fail;
		}
	r = result_new("diff", np > 1 ? "Growth between pairs of snapshots,"
	    " one pair per file system" : "Growth between two snapshots");
	for (size_t i = 0; i < np; i++)
		note_pair(r, &p[i], i, np);
	if (np == 1)
		result_note(r, "Deltas are net changes (files created minus"
		    " files deleted) over %.2f days; shares are of the file"
		    " system's net growth, are n/a when it is <= 0, and can be"
		    " negative or above 100%% when some groups shrink.",
		    pair_days(&p[0]));
	else {
		note_windows(r, p, np);
		result_note(r, "Deltas are net changes (files created minus"
		    " files deleted); shares are of the total net growth of"
		    " the %zu file systems, are n/a when it is <= 0, and can be"
		    " negative or above 100%% when some groups shrink; groups"
		    " of the same name are added across file systems.", np);
	}
	fs_table(r, p, np, &tot);
	if (io_window_given(&o->win))
		note_window(r, o, p, np, &w);
	if (by == BY_DIR)
		result_note(r, "Directories at depth %d below the root; files"
		    " directly in shallower directories are unattributed.",
		    o->dir_depth);
	if (groups(r, db, o, by, p, np, &tot, err, errlen) < 0)
		goto fail;
	for (size_t i = 0; i < np; i++) {
		char la[32], lb[32];
		pair_labels(i, np, la, lb);
		if (space_snapout_unresolved(r, db, &p[i].a, la, &share, err,
		    errlen) < 0 || space_snapout_unresolved(r, db, &p[i].b, lb,
		    &share,
		    err, errlen) < 0)
			goto fail;
	}
	pairs_free(p, np, &w);
	return r;
fail:
	if (r)
		result_free(r);
	pairs_free(p, np, &w);
	return NULL;
}
