/*
 * space_capacity_proj: the projects of a file system in the capacity
 * summary: their usage at the latest point, share, limit and how much of
 * it they use, their growth over the window and the date they reach their
 * limit; and each project that grew over the window, for the growers
 * ranked over every file system (space_capacity_int.h).
 *
 * A project's points are its file system's: at a point where it has no
 * row, nothing was attributed to it (0). Its target is its limit at the
 * latest point: the byte limit against its allocated bytes (what a block
 * quota counts), else the inode limit against its entries.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "space_capacity_int.h"
#include "space_snapout_int.h"
#include "xalloc.h"

enum { P_FS, P_NAME, P_FILES, P_BYTES, P_ALLOC, P_SHARE, P_LB, P_PCTB, P_LI,
    P_PCTI, P_BPD, P_FULL, P_FULL_LO, P_FULL_HI, P_STATE, P_WHY, P_IUSED };

static const struct rcol_spec proj_cols[] = {
	[P_FS] = { "fs", "File system", NULL, CF_PLAIN, 0 },
	[P_NAME] = { "project", "Project", NULL, CF_PLAIN, 0 },
	[P_FILES] = { "files", "Files", "files", CF_PLAIN, 0 },
	[P_BYTES] = { "bytes", "Bytes", "bytes", CF_BYTES, 2 },
	[P_ALLOC] = { "used", "Used (allocated)", "bytes", CF_BYTES, 2 },
	[P_SHARE] = { "share", "Share of bytes", "%", CF_PCT, 1 },
	[P_LB] = { "limit_bytes", "Byte limit", "bytes", CF_BYTES, 2 },
	[P_PCTB] = { "limit_ratio", "% of limit", "%", CF_PCT, 1 },
	[P_LI] = { "limit_inodes", "Inode limit", "inodes", CF_PLAIN, 0 },
	[P_PCTI] = { "inode_limit_ratio", "% of inode limit", "%", CF_PCT, 1 },
	[P_BPD] = { "bytes_per_day", "Growth per day", "bytes/day", CF_BYTES,
	    2 },
	[P_FULL] = { "full", "Reaches its limit", NULL, CF_DATE, 0 },
	[P_FULL_LO] = { "full_lo", "Earliest (95%)", NULL, CF_DATE, 0 },
	[P_FULL_HI] = { "full_hi", "Latest (95%)", NULL, CF_DATE, 0 },
	[P_STATE] = { "state", "Projection", NULL, CF_PLAIN, 0 },
	[P_WHY] = { "why", "Why no date or bound", NULL, CF_PLAIN, 0 },
	[P_IUSED] = { "inodes_used", "Inodes used", "inodes", CF_PLAIN, 0 },
};

enum { G_FS, G_NAME, G_D, G_BPD, G_SHARE, G_USED };

static const struct rcol_spec grow_cols[] = {
	[G_FS] = { "fs", "File system", NULL, CF_PLAIN, 0 },
	[G_NAME] = { "project", "Project", NULL, CF_PLAIN, 0 },
	[G_D] = { "d_used", "Growth in the window", "bytes", CF_BYTES, 2 },
	[G_BPD] = { "bytes_per_day", "Growth per day", "bytes/day", CF_BYTES,
	    2 },
	[G_SHARE] = { "share_of_growth", "Share of the growth", "%", CF_PCT,
	    1 },
	[G_USED] = { "used", "Used (allocated)", "bytes", CF_BYTES, 2 },
};

struct rtable *
space_capacity_proj_table(struct result *r)
{
	struct rtable *t = result_table(r, "projects", "Projects: usage, "
	    "limits and when they reach them", proj_cols, sizeof proj_cols /
	    sizeof *proj_cols);

	result_wide(t, "files,bytes,share,limit_inodes,full_lo,full_hi,state,"
	    "why,inodes_used");
	result_list(t, 0);
	return t;
}

struct rtable *
space_capacity_proj_growers(struct result *r)
{
	struct rtable *t = result_table(r, "growers", "Top growers over every"
	    " file system (allocated bytes over the window)", grow_cols,
	    sizeof grow_cols / sizeof *grow_cols);

	result_list(t, 0);
	return t;
}

/* One project of the file system, computed before it is sorted. */
struct cproj {
	const char *name;
	const struct prow *last;
	double share, pctb, pcti, bpd;
	i128 d_used;
	struct points p;
	struct proj m;
};

static double
ratio(i128 part, struct nint whole)
{
	return whole.has && whole.v > 0 ? (double)part / (double)whole.v :
	    NAN;
}

/* The project's points of its metric, and its model. */
static void
model(struct cproj *c, const struct cap_fs *f, const struct prow *rows,
    size_t a, size_t b)
{
	enum opts_metric m = c->last->has & PROW_LIMIT_BYTES ||
	    !(c->last->has & PROW_LIMIT_INODES) ? OPTS_USED : OPTS_INODES;
	struct opts o;
	char why[160] = "";
	double target = 0;
	int known;

	space_growth_pts_alloc(&c->p, f->nkeep);
	c->p.fs = f->fs;
	for (size_t k = 0; k < f->nkeep; k++) {
		const struct snap *s = &f->s[f->keep[k]];
		const struct prow *r = space_growth_pts_row(rows, a, b, s->id);
		struct prow none = { .has = PROW_ENTRIES };
		i128 v, cap;

		if (space_growth_pts_value(s, r ? r : &none, m, &v, &cap))
			space_growth_pts_add(&c->p, s->id, s->started_at, v,
			    cap);
	}
	opts_init(&o);
	o.metric = m;
	o.project = c->name;
	known = space_growth_pts_target(&o, &c->p, &target, why, sizeof why);
	if (!known && m == OPTS_USED)
		snprintf(why, sizeof why, "no limit recorded");
	space_capacity_model_fit(&c->p, target, known, why, &c->m);
}

/* Highest share of its limit first (none last), then the most used. */
static int
cproj_cmp(const void *pa, const void *pb)
{
	const struct cproj *a = pa, *b = pb;
	double x = isnan(a->pctb) ? a->pcti : a->pctb;
	double y = isnan(b->pctb) ? b->pcti : b->pctb;

	if (isnan(x) != isnan(y))
		return isnan(x) ? 1 : -1;
	if (!isnan(x) && x != y)
		return x > y ? -1 : 1;
	if (a->last->alloc != b->last->alloc)
		return a->last->alloc > b->last->alloc ? -1 : 1;
	return strcmp(a->name, b->name);
}

static void
proj_row(struct rtable *t, const char *fs, const struct cproj *c)
{
	size_t row = result_row(t);
	const struct prow *l = c->last;

	result_set_text(t, row, P_FS, fs);
	result_set_text(t, row, P_NAME, c->name);
	result_set_int(t, row, P_FILES, l->files);
	result_set_wide(t, row, P_BYTES, l->bytes);
	result_set_wide(t, row, P_ALLOC, l->alloc);
	space_snapout_real(t, row, P_SHARE, c->share);
	space_snapout_nint(t, row, P_LB, query_census_prow_opt(l,
	    l->limit_bytes, PROW_LIMIT_BYTES));
	space_snapout_real(t, row, P_PCTB, c->pctb);
	space_snapout_nint(t, row, P_LI, query_census_prow_opt(l,
	    l->limit_inodes, PROW_LIMIT_INODES));
	space_snapout_real(t, row, P_PCTI, c->pcti);
	space_snapout_nint(t, row, P_IUSED, query_census_prow_opt(l,
	    l->entries, PROW_ENTRIES));
	space_snapout_real(t, row, P_BPD, c->bpd);
	space_capacity_model_dates(t, row, P_FULL, &c->p, &c->m);
}

/* The projects of the file system that grew over the window, added to
 * the growers of every file system (ranked by space_capacity_grow). */
static void
growers(struct cap_growers *gl, const struct cap_fs *f, const struct cproj *c,
    size_t n)
{
	const struct snap *first = &f->s[f->keep[f->w0]];
	const struct snap *last = &f->s[f->keep[f->nkeep - 1]];
	double total = first->alloc.has && last->alloc.has ?
	    (double)(last->alloc.v - first->alloc.v) : NAN;

	for (size_t i = 0; i < n; i++) {
		struct cap_grower *g;

		if (!(c[i].d_used > 0) || isnan(c[i].bpd))
			continue;
		gl->g = xgrow(gl->g, gl->n, &gl->cap, sizeof *gl->g, 16);
		g = &gl->g[gl->n++];
		g->fs = f->fs;
		g->name = xstrdup(c[i].name);
		g->d_used = c[i].d_used;
		g->used = c[i].last->alloc;
		g->bpd = c[i].bpd;
		g->share = total > 0 ? (double)c[i].d_used / total : NAN;
	}
}

/* Most growth first; a tie by file system, then project name (byte
 * order): one order whatever the order of the file systems. */
static int
grower_cmp(const void *pa, const void *pb)
{
	const struct cap_grower *a = pa, *b = pb;
	int c;

	if (a->d_used != b->d_used)
		return a->d_used > b->d_used ? -1 : 1;
	if ((c = strcmp(a->fs, b->fs)))
		return c;
	return strcmp(a->name, b->name);
}

void
space_capacity_proj_rank(struct rtable *t, struct cap_growers *gl)
{
	if (gl->n > 1)
		qsort(gl->g, gl->n, sizeof *gl->g, grower_cmp);
	for (size_t i = 0; i < gl->n; i++) {
		const struct cap_grower *g = &gl->g[i];
		size_t row = result_row(t);

		result_set_text(t, row, G_FS, g->fs);
		result_set_text(t, row, G_NAME, g->name);
		result_set_wide(t, row, G_D, g->d_used);
		space_snapout_real(t, row, G_BPD, g->bpd);
		space_snapout_real(t, row, G_SHARE, g->share);
		result_set_wide(t, row, G_USED, g->used);
		free(g->name);
	}
	free(gl->g);
	*gl = (struct cap_growers){ 0 };
}

int
space_capacity_proj(struct result *r, struct rtable *pt,
    struct cap_growers *gl, sqlite3 *db, const struct cap_fs *f, char *err,
    size_t errlen)
{
	const struct snap *first = &f->s[f->keep[f->w0]];
	const struct snap *last = &f->s[f->keep[f->nkeep - 1]];
	double days = (double)(last->started_at - first->started_at) /
	    GROWTH_DAY;
	struct prow *rows;
	char **names;
	size_t nrows, nnames, nc = 0;
	struct cproj *c;

	(void)r;
	if (query_census_project_rows(db, f->fs, NULL, io_window_hi(f->win),
	    &rows, &nrows, &names, &nnames, err, errlen) < 0)
		return -1;
	c = xcalloc(nnames + 1, sizeof *c);
	for (size_t a = 0, b; a < nrows; a = b) {
		const struct prow *l, *r0;
		struct cproj *x;

		for (b = a; b < nrows && rows[b].name == rows[a].name; b++)
			;
		if (!(l = space_growth_pts_row(rows, a, b, last->id)))
			continue;	/* not in the latest point */
		x = &c[nc++];
		x->name = names[rows[a].name];
		x->last = l;
		x->share = ratio(l->bytes, last->bytes);
		x->pctb = ratio(l->alloc, query_census_prow_opt(l,
		    l->limit_bytes, PROW_LIMIT_BYTES));
		x->pcti = l->has & PROW_ENTRIES ? ratio(l->entries,
		    query_census_prow_opt(l, l->limit_inodes,
		    PROW_LIMIT_INODES)) : NAN;
		r0 = space_growth_pts_row(rows, a, b, first->id);
		x->d_used = l->alloc - (r0 ? r0->alloc : 0);
		x->bpd = days > 0 ? (double)x->d_used / days : NAN;
		model(x, f, rows, a, b);
	}
	qsort(c, nc, sizeof *c, cproj_cmp);
	for (size_t i = 0; i < nc; i++)
		proj_row(pt, f->fs, &c[i]);
	growers(gl, f, c, nc);
	for (size_t i = 0; i < nc; i++)
		space_growth_pts_free(&c[i].p);
	free(c);
	free(rows);
	query_census_names_free(names, nnames);
	return 0;
}
