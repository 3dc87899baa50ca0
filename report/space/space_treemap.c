/*
 * space_treemap: where is the space? One file system at one point (the
 * report's latest point in the window) as the rows of a treemap
 * (FIG_TREE, result.h): its projects by bytes, the first o->top of them
 * each with its largest directories (v_dir, the rows one level below
 * the project's own directory: a project named by its path, as depth:N
 * names it) and the rest of it, then the other projects as one row.
 * Each row has its growth since the window's first point and its cold
 * share at the longest atime threshold recorded: a project's from v_cold,
 * a directory's from v_dir's cold_bytes (the same threshold), the rest
 * of a project the difference.
 *
 * What is read is bounded by the rows shown, not by the projects: one
 * query of the projects per point, one of the cold rows, and one of v_dir
 * per depth of the projects shown, at that depth plus one, per point.
 */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "space.h"
#include "space_snapout_int.h"
#include "human.h"
#include "xalloc.h"

#define TREE_DIRS	8	/* directories per project */
#define TREE_PROJECTS	200	/* projects, whatever --top (0: this) */

enum { T_FS, T_PROJ, T_LEVEL, T_PATH, T_COUNT, T_BYTES, T_D, T_DSHARE,
    T_COLD, T_CSHARE };
enum { L_PROJECT = 0, L_DIR = 1, L_REST = 2, L_OTHERS = 3 };

struct tdir {
	const struct gtot *g;
	i128 b0;		/* at the first point */
	int has0;
};

struct tproj {
	const struct gtot *g;
	i128 b0, cold;
	int has0, hascold;
	size_t nd, nchild;	/* directories kept, below it in all */
	struct tdir d[TREE_DIRS];
};

/* The groups of one query, kept until the rows are written. */
struct tgroups {
	struct gtot *g;
	size_t n;
};

struct tree {
	sqlite3 *db;
	const struct opts *o;
	struct tgroups last, first;	/* projects at both points */
	struct tproj *p;		/* the first np by bytes */
	size_t np;
	struct tgroups *dirs;		/* v_dir rows at some depth */
	size_t ndirs, dircap;
	int64_t cold_days;		/* 0: no cold data */
	i128 cold_all;			/* every project's cold bytes */
	char *err;
	size_t errlen;
};

static int
by_key(const void *a, const void *b)
{
	return strcmp(((const struct gtot *)a)->key,
	    ((const struct gtot *)b)->key);
}

static const struct gtot *
find(const struct tgroups *g, const char *key)
{
	struct gtot k = { .key = (char *)key };

	return g->n ? bsearch(&k, g->g, g->n, sizeof *g->g, by_key) : NULL;
}

/* Most bytes first, then name (byte order). */
static int
by_bytes(const void *pa, const void *pb)
{
	const struct gtot *a = *(const struct gtot *const *)pa;
	const struct gtot *b = *(const struct gtot *const *)pb;

	if (a->bytes != b->bytes)
		return a->bytes > b->bytes ? -1 : 1;
	return strcmp(a->key, b->key);
}

static int
proj_by_name(const void *pa, const void *pb)
{
	return strcmp(((const struct tproj *)pa)->g->key,
	    ((const struct tproj *)pb)->g->key);
}

/* The groups of snapshot id (BY_PROJECT, or BY_DIR at depth) into g. */
static int
load(struct tree *t, int64_t id, enum group_by by, int depth,
    struct tgroups *g)
{
	return query_census_groups(t->db, id, by, depth, &g->g, &g->n, t->err,
	    t->errlen);
}

/* Each project's cold bytes at the longest threshold (rows by threshold
 * ascending, then project by name). */
static int
cold(struct tree *t)
{
	struct cold_row *c;
	size_t n;

	if (query_census_cold(t->db, t->o->snapshot, "atime", BY_PROJECT, &c,
	    &n, t->err, t->errlen) < 0)
		return -1;
	if (n > 0)
		t->cold_days = c[n - 1].days;
	for (size_t i = 0; i < n; i++) {
		struct tproj k, *p;
		struct gtot g = { .key = c[i].key };

		if (!c[i].key || c[i].days != t->cold_days)
			continue;
		t->cold_all += c[i].bytes;
		k.g = &g;
		if ((p = bsearch(&k, t->p, t->np, sizeof *t->p, proj_by_name))) {
			p->cold = c[i].bytes;
			p->hascold = 1;
		}
	}
	query_census_cold_free(c, n);
	return 0;
}

/* Keep d among p's TREE_DIRS largest, most bytes first, then path. */
static void
keep_dir(struct tproj *p, const struct gtot *d)
{
	size_t i = p->nd < TREE_DIRS ? p->nd++ : TREE_DIRS;

	p->nchild++;
	for (; i > 0 && (p->d[i - 1].g->bytes < d->bytes ||
	    (p->d[i - 1].g->bytes == d->bytes &&
	    strcmp(p->d[i - 1].g->key, d->key) > 0)); i--)
		if (i < TREE_DIRS)
			p->d[i] = p->d[i - 1];
	if (i < TREE_DIRS)
		p->d[i] = (struct tdir){ d, 0, 0 };
}

/* The depth of the directory a project would be named after. */
static int
depth_of(const char *name)
{
	int d = 1;

	for (; *name; name++)
		d += *name == '/';
	return d;
}

/* Room for the rows of one more v_dir query, kept until the end. */
static struct tgroups *
more_dirs(struct tree *t)
{
	t->dirs = xgrow(t->dirs, t->ndirs, &t->dircap, sizeof *t->dirs, 8);
	t->dirs[t->ndirs] = (struct tgroups){ 0 };
	return &t->dirs[t->ndirs++];
}

/* The largest directories just below the projects named at depth, and
 * their bytes at the first point (where it has rows at that depth). */
static int
dirs_at(struct tree *t, int depth)
{
	size_t k = t->ndirs;
	struct tgroups *now, *then;

	more_dirs(t);
	more_dirs(t);
	now = &t->dirs[k], then = &t->dirs[k + 1];
	if (load(t, t->o->snapshot, BY_DIR, depth + 1, now) < 0)
		return -1;
	if (t->o->snap_a && load(t, t->o->snap_a, BY_DIR, depth + 1, then) < 0)
		return -1;
	for (size_t i = 0; i < now->n; i++) {
		const char *key = now->g[i].key, *slash = strrchr(key, '/');
		struct gtot g;
		struct tproj k = { .g = &g }, *p;

		if (!slash)
			continue;
		g.key = xstrndup(key, (size_t)(slash - key));
		p = bsearch(&k, t->p, t->np, sizeof *t->p, proj_by_name);
		free(g.key);
		if (p)
			keep_dir(p, &now->g[i]);
	}
	for (size_t i = 0; i < t->np; i++) {
		if (depth_of(t->p[i].g->key) != depth || then->n == 0)
			continue;
		for (size_t j = 0; j < t->p[i].nd; j++) {
			const struct gtot *b = find(then, t->p[i].d[j].g->key);

			t->p[i].d[j].has0 = 1;
			t->p[i].d[j].b0 = b ? b->bytes : 0;
		}
	}
	return 0;
}

static int
all_dirs(struct tree *t)
{
	unsigned char *done = xcalloc(t->np + 1, 1);
	int rc = 0;

	for (size_t i = 0; i < t->np && rc == 0; i++) {
		int d = depth_of(t->p[i].g->key);

		if (done[i])
			continue;
		for (size_t j = i; j < t->np; j++)
			done[j] |= depth_of(t->p[j].g->key) == d;
		rc = dirs_at(t, d);
	}
	free(done);
	return rc;
}

static const struct rcol_spec tree_cols[] = {
	[T_FS] = { "fs", "File system", NULL, CF_PLAIN, 0 },
	[T_PROJ] = { "project", "Project", NULL, CF_PLAIN, 0 },
	[T_LEVEL] = { "level", "Level", NULL, CF_PLAIN, 0 },
	[T_PATH] = { "path", "Directory", NULL, CF_PLAIN, 0 },
	[T_COUNT] = { "count", "Others in it", NULL, CF_PLAIN, 0 },
	[T_BYTES] = { "bytes", "Bytes", "bytes", CF_BYTES, 2 },
	[T_D] = { "d_bytes", "Growth over the window", "bytes", CF_BYTES, 2 },
	[T_DSHARE] = { "growth_share", "Growth, share of its larger size",
	    "%", CF_PCT, 1 },
	[T_COLD] = { "cold_bytes", "Cold bytes", "bytes", CF_BYTES, 2 },
	[T_CSHARE] = { "cold_share", "Cold, share of its bytes", "%", CF_PCT,
	    1 },
};

/* Bytes, and the growth from b0 when known, into row. */
static void
sizes(struct rtable *tb, size_t row, i128 b1, i128 b0, int has0)
{
	i128 big = b1 > b0 ? b1 : b0;

	result_set_wide(tb, row, T_BYTES, b1);
	if (!has0)
		return;
	result_set_wide(tb, row, T_D, b1 - b0);
	if (big > 0)
		result_set_real(tb, row, T_DSHARE, (double)(b1 - b0) /
		    (double)big);
}

static void
cold_cells(struct rtable *tb, size_t row, i128 cold, i128 bytes)
{
	result_set_wide(tb, row, T_COLD, cold);
	if (bytes > 0)
		result_set_real(tb, row, T_CSHARE, (double)cold /
		    (double)bytes);
}

static size_t
row_of(struct rtable *tb, const struct tree *t, const char *project,
    int level)
{
	size_t row = result_row(tb);

	result_set_text(tb, row, T_FS, t->o->fs);
	if (project)
		result_set_text(tb, row, T_PROJ, project);
	result_set_int(tb, row, T_LEVEL, level);
	return row;
}

/* A project's row, its directories' and the rest of it. */
static void
proj_rows(struct rtable *tb, const struct tree *t, const struct tproj *p)
{
	const char *name = p->g->key;
	i128 sum1 = 0, sum0 = 0, sumc = 0, rest1, rest0;
	int has0 = p->has0, hascold = p->hascold;
	size_t row = row_of(tb, t, name, L_PROJECT);

	sizes(tb, row, p->g->bytes, p->b0, p->has0);
	if (p->hascold)
		cold_cells(tb, row, p->cold, p->g->bytes);
	for (size_t j = 0; j < p->nd; j++) {
		const struct tdir *d = &p->d[j];

		row = row_of(tb, t, name, L_DIR);
		result_set_text(tb, row, T_PATH, d->g->key);
		sizes(tb, row, d->g->bytes, d->b0, d->has0);
		if (d->g->hascold)
			cold_cells(tb, row, d->g->cold, d->g->bytes);
		sum1 += d->g->bytes, sum0 += d->b0, sumc += d->g->cold;
		has0 &= d->has0;
		hascold &= d->g->hascold;
	}
	/* Its own files and the directories not shown; where the
	 * directories hold more than the project (files of another
	 * project's rule below them), no rest. */
	rest1 = p->g->bytes - sum1;
	rest0 = p->b0 - sum0;
	if (p->nd == 0 || rest1 <= 0)
		return;
	row = row_of(tb, t, name, L_REST);
	result_set_int(tb, row, T_COUNT, (int64_t)(p->nchild - p->nd));
	sizes(tb, row, rest1, rest0 > 0 ? rest0 : 0, has0);
	if (hascold && p->cold >= sumc)
		cold_cells(tb, row, p->cold - sumc, rest1);
}

/* The projects after the first np as one row. */
static void
others_row(struct rtable *tb, const struct tree *t,
    const struct gtot *const *order, size_t n)
{
	i128 b1 = 0, b0 = 0, cold = t->cold_all;
	size_t row;

	if (n <= t->np)
		return;
	for (size_t i = t->np; i < n; i++) {
		const struct gtot *f = find(&t->first, order[i]->key);

		b1 += order[i]->bytes;
		b0 += f ? f->bytes : 0;
	}
	for (size_t i = 0; i < t->np; i++)
		cold -= t->p[i].cold;
	row = row_of(tb, t, NULL, L_OTHERS);
	result_set_int(tb, row, T_COUNT, (int64_t)(n - t->np));
	sizes(tb, row, b1, b0, t->o->snap_a != 0);
	if (t->cold_days)
		cold_cells(tb, row, cold, b1);
}

/* The first np projects by bytes, by name for the look-ups. */
static const struct gtot **
choose(struct tree *t)
{
	const struct gtot **order = xcalloc(t->last.n + 1, sizeof *order);
	size_t max = t->o->top && t->o->top < TREE_PROJECTS ? t->o->top :
	    TREE_PROJECTS;

	for (size_t i = 0; i < t->last.n; i++)
		order[i] = &t->last.g[i];
	qsort(order, t->last.n, sizeof *order, by_bytes);
	t->np = t->last.n < max ? t->last.n : max;
	t->p = xcalloc(t->np + 1, sizeof *t->p);
	for (size_t i = 0; i < t->np; i++) {
		const struct gtot *f = find(&t->first, order[i]->key);

		t->p[i].g = order[i];
		t->p[i].has0 = t->o->snap_a != 0;
		t->p[i].b0 = f ? f->bytes : 0;
	}
	qsort(t->p, t->np, sizeof *t->p, proj_by_name);
	return order;
}

static int
proj_by_bytes(const void *a, const void *b)
{
	return by_bytes(&((const struct tproj *)a)->g,
	    &((const struct tproj *)b)->g);
}

static void
figures(struct result *r, const struct tree *t)
{
	static const int cols[TREE_NCOL] = { [TREE_SIZE] = T_BYTES,
	    [TREE_COLOUR] = T_DSHARE, [TREE_LEVEL] = T_LEVEL,
	    [TREE_PATH] = T_PATH, [TREE_COUNT] = T_COUNT,
	    [TREE_GROWTH] = T_D, [TREE_GROWTH_SHARE] = T_DSHARE,
	    [TREE_COLD_SHARE] = T_CSHARE };
	char title[512], cap[1024];
	struct rfigure *f;

	snprintf(title, sizeof title, "Where the space is in %s: %s,"
	    " coloured by growth", t->o->fs, t->o->no_paths ? "its projects" :
	    "its projects and their largest directories");
	snprintf(cap, sizeof cap, "Each box's area is its bytes at snapshot"
	    " #%lld; %s. Colour: its growth over the window as a share of"
	    " the larger of its sizes then and now%s; grey where unknown.",
	    (long long)t->o->snapshot, t->o->no_paths ? "one box per project" :
	    "inside a project (white outline), its largest directories and"
	    " the rest of it", t->o->snap_a ? "" : " (one point in the window:"
	    " no growth)");
	f = result_figure(r, "treemap", FIG_TREE, 0, title, cap, NULL, NULL);
	f->xcol = T_PROJ;
	memcpy(f->ycol, cols, sizeof cols);
	f->ny = TREE_NCOL;
	f->tree_depth = t->o->no_paths ? 1 : 2;
	if (!t->cold_days)
		return;
	snprintf(title, sizeof title, "Where the space is in %s: its projects,"
	    " coloured by cold share", t->o->fs);
	snprintf(cap, sizeof cap, "Each box's area is its bytes at snapshot"
	    " #%lld. Colour: the share of its bytes not read in %lld days, the"
	    " longest threshold recorded.", (long long)t->o->snapshot,
	    (long long)t->cold_days);
	f = result_figure(r, "treemap_cold", FIG_TREE, 0, title, cap, NULL,
	    NULL);
	f->xcol = T_PROJ;
	memcpy(f->ycol, cols, sizeof cols);
	f->ycol[TREE_COLOUR] = T_CSHARE;
	f->ny = TREE_NCOL;
	f->tree_depth = t->o->no_paths ? 1 : 2;
}

static int
fill(struct result *r, struct tree *t)
{
	const struct gtot **order;
	struct rtable *tb;
	char title[512];
	int rc = -1;

	if (load(t, t->o->snapshot, BY_PROJECT, 0, &t->last) < 0 ||
	    (t->o->snap_a && load(t, t->o->snap_a, BY_PROJECT, 0,
	    &t->first) < 0))
		return -1;
	order = choose(t);
	if (cold(t) < 0 || (!t->o->no_paths && all_dirs(t) < 0))
		goto out;
	snprintf(title, sizeof title, "Where the space is: %s, snapshot #%lld",
	    t->o->fs, (long long)t->o->snapshot);
	tb = result_table(r, "treemap", title, tree_cols, sizeof tree_cols /
	    sizeof *tree_cols);
	tb->detail = 1;
	if (t->cold_days) {
		snprintf(title, sizeof title, "Cold (not read in %lld days),"
		    " share of its bytes", (long long)t->cold_days);
		free(tb->col[T_CSHARE].title);
		tb->col[T_CSHARE].title = xstrdup(title);
	}
	qsort(t->p, t->np, sizeof *t->p, proj_by_bytes);
	for (size_t i = 0; i < t->np; i++)
		proj_rows(tb, t, &t->p[i]);
	others_row(tb, t, order, t->last.n);
	if (t->last.n)
		figures(r, t);
	rc = 0;
out:
	free(order);
	return rc;
}

struct result *
space_treemap(sqlite3 *db, const struct opts *o, char *err, size_t errlen)
{
	struct tree t = { .db = db, .o = o, .err = err, .errlen = errlen };
	struct result *r;
	char title[512];

	assert(db && o && o->fs && o->snapshot > 0);
	snprintf(title, sizeof title, "Where the space is: %s", o->fs);
	r = result_new("treemap", title);
	result_note(r, "The projects of %s at snapshot #%lld by bytes, the"
	    " first %zu of them%s, the others as one; growth since %s.",
	    o->fs, (long long)o->snapshot, o->top && o->top < TREE_PROJECTS ?
	    o->top : (size_t)TREE_PROJECTS, o->no_paths ? "" : " each with its"
	    " largest directories (up to 8, from fsscan --dirs) and the rest"
	    " of it", o->snap_a ? "the window's first point" : "nothing (one"
	    " point)");
	if (fill(r, &t) < 0) {
		result_free(r);
		r = NULL;
	}
	query_census_gtots_free(t.last.g, t.last.n);
	query_census_gtots_free(t.first.g, t.first.n);
	for (size_t i = 0; i < t.ndirs; i++)
		query_census_gtots_free(t.dirs[i].g, t.dirs[i].n);
	free(t.dirs);
	free(t.p);
	return r;
}
