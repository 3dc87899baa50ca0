/*
 * space_growth_pts: the points a growth model is fitted on, their metric and
 * capacity, and the target (space_growth_int.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "space_growth_int.h"
#include "xalloc.h"

int
space_growth_pts_is_bytes(enum opts_metric m)
{
	return m == OPTS_BYTES || m == OPTS_ALLOC || m == OPTS_USED;
}

const char *
space_growth_pts_unit(enum opts_metric m)
{
	return space_growth_pts_is_bytes(m) ? "bytes" :
	    m == OPTS_FILES ? "files" : "inodes";
}

const char *
space_growth_pts_quantity(enum opts_metric m)
{
	static const char *const q[] = { [OPTS_FILES] = "file count",
	    [OPTS_BYTES] = "data (sum of file sizes)", [OPTS_ALLOC] =
	    "allocated space", [OPTS_USED] = "used space", [OPTS_INODES] =
	    "inodes used" };

	return q[m];
}

int
space_growth_pts_value(const struct snap *s, const struct prow *r,
    enum opts_metric m, i128 *v, i128 *cap)
{
	const struct capacity *c = &s->cap;
	struct nint val = { 0, 0 }, used = { 0, 0 };
	int inodes = m == OPTS_FILES || m == OPTS_INODES;

	if (r) {
		struct nint l = inodes ? query_census_prow_opt(r,
		    r->limit_inodes, PROW_LIMIT_INODES) :
		    query_census_prow_opt(r, r->limit_bytes, PROW_LIMIT_BYTES);
		*cap = l.has ? l.v : -1;
		val = m == OPTS_FILES ? (struct nint){ r->files, 1 } :
		    m == OPTS_BYTES ? (struct nint){ r->bytes, 1 } :
		    m == OPTS_INODES ? query_census_prow_opt(r, r->entries,
		    PROW_ENTRIES) : (struct nint){ r->alloc, 1 };
	} else {
		/* Capacity values are at most DB_CAPACITY_MAX: no sum or
		 * difference of two of them leaves 128 bits. */
		if (c->bytes.has && c->free_bytes.has)
			used = (struct nint){ c->bytes.v - c->free_bytes.v, 1 };
		*cap = inodes ? (c->inodes.has ? c->inodes.v : -1) :
		    used.has && c->avail_bytes.has ? used.v +
		    c->avail_bytes.v : -1;
		switch (m) {
		case OPTS_FILES: val = s->files; break;
		case OPTS_BYTES: val = s->bytes; break;
		case OPTS_ALLOC: val = s->alloc; break;
		case OPTS_USED: val = used; break;
		case OPTS_INODES:
			if (c->inodes.has && c->free_inodes.has)
				val = (struct nint){ c->inodes.v -
				    c->free_inodes.v, 1 };
			break;
		}
	}
	*v = val.v;
	return val.has;
}

void
space_growth_pts_alloc(struct points *p, size_t n)
{
	p->id = xcalloc(n + 1, sizeof *p->id);
	p->t = xcalloc(n + 1, sizeof *p->t);
	p->v = xcalloc(n + 1, sizeof *p->v);
	p->cap = xcalloc(n + 1, sizeof *p->cap);
	p->x = xcalloc(n + 1, sizeof *p->x);
	p->y = xcalloc(n + 1, sizeof *p->y);
}

void
space_growth_pts_add(struct points *p, int64_t id, int64_t t, i128 v, i128 cap)
{
	p->id[p->n] = id;
	p->t[p->n] = t;
	p->v[p->n] = v;
	p->cap[p->n] = cap;
	p->x[p->n] = (double)(t - p->t[0]) / GROWTH_DAY;
	p->y[p->n] = (double)v;
	p->n++;
}

void
space_growth_pts_free(struct points *p)
{
	free(p->id);
	free(p->t);
	free(p->v);
	free(p->cap);
	free(p->x);
	free(p->y);
	p->id = p->t = NULL;
	p->v = p->cap = NULL;
	p->x = p->y = NULL;
	p->n = p->nrescan = p->nmissing = 0;
}

const struct prow *
space_growth_pts_row(const struct prow *rows, size_t a, size_t b, int64_t id)
{
	while (a < b) {
		size_t mid = a + (b - a) / 2;
		if (rows[mid].snapshot_id == id)
			return &rows[mid];
		if (rows[mid].snapshot_id < id)
			a = mid + 1;
		else
			b = mid;
	}
	return NULL;
}

int
space_growth_pts_load(sqlite3 *db, const struct opts *o,
    const struct snap *s, size_t n, struct points *p, char *err,
    size_t errlen)
{
	size_t *keep = xcalloc(n + 1, sizeof *keep), k, nrows = 0, nnames = 0;
	struct prow *rows = NULL;
	char **names = NULL;
	int rc = 0;

	k = space_points_keep(s, n, p->fs, INT64_MIN, io_window_hi(&o->win),
	    keep, &p->nrescan);
	space_growth_pts_alloc(p, k);
	if (o->project && (rc = query_census_project_rows(db, p->fs,
	    o->project, INT64_MAX, &rows, &nrows, &names, &nnames, err,
	    errlen)) < 0)
		goto out;
	for (size_t i = 0; i < k; i++) {
		const struct snap *x = &s[keep[i]];
		const struct prow *r = o->project ?
		    space_growth_pts_row(rows, 0, nrows, x->id) : NULL;
		i128 v, cap;

		if ((o->project && !r) ||
		    !space_growth_pts_value(x, r, o->metric, &v, &cap)) {
			p->nmissing++;
			continue;
		}
		space_growth_pts_add(p, x->id, x->started_at, v, cap);
	}
out:
	query_census_names_free(names, nnames);
	free(rows);
	free(keep);
	return rc;
}

int
space_growth_pts_check_target(const struct opts *o, char *err,
    size_t errlen)
{
	const struct opts_target *t = &o->target;
	int bytes = space_growth_pts_is_bytes(o->metric);

	if (!t->given)
		return 0;	/* the natural target: space_growth_pts_target */
	if (!(t->v > 0) || (t->kind == UNITS_PERCENT && t->v > 1)) {
		snprintf(err, errlen, FMT_USAGE "--target must be above 0%s",
		    t->kind == UNITS_PERCENT ? " and at most 100%" : "");
		return -1;
	}
	if (t->kind == UNITS_SIZE && !bytes) {
		snprintf(err, errlen, FMT_USAGE "--target is a size, but"
		    " --metric %s counts %s: give a number (1e9, 2M)",
		    opts_metric_name(o->metric),
		    space_growth_pts_unit(o->metric));
		return -1;
	}
	if (t->kind == UNITS_COUNT && bytes) {
		snprintf(err, errlen, FMT_USAGE "--target for --metric %s is a"
		    " size: write its unit as meant, 50TiB (2^40) or 50TB"
		    " (10^12)", opts_metric_name(o->metric));
		return -1;
	}
	return 0;
}

int
space_growth_pts_target(const struct opts *o, const struct points *p,
    double *t, char *why, size_t whylen)
{
	double pct = o->target.given ? o->target.v : 1;
	i128 cap;

	if (o->target.given && o->target.kind != UNITS_PERCENT) {
		*t = o->target.v;
		return 1;
	}
	cap = p->n ? p->cap[p->n - 1] : -1;
	if (cap > 0) {
		*t = pct * (double)cap;
		return 1;
	}
	if (o->project)
		snprintf(why, whylen, "project %s has no %s limit at the latest"
		    " snapshot", o->project, space_growth_pts_is_bytes(o->metric) ?
		    "byte" : "inode");
	else
		snprintf(why, whylen, "the latest snapshot records no capacity"
		    " (written before schema 6, or dated with --as-of)");
	return 0;
}

void
space_growth_pts_note(struct result *r, const struct points *p,
    enum opts_metric m)
{
	if (p->nrescan)
		result_note(r, "%zu complete snapshot%s of %s started less than"
		    " a day before the next one: a rescan counts as one point,"
		    " the later snapshot.", p->nrescan, p->nrescan == 1 ? "" :
		    "s", p->fs);
	if (p->nmissing)
		result_note(r, "%zu complete snapshot%s of %s record%s no %s:"
		    " left out (%s).", p->nmissing, p->nmissing == 1 ? "" : "s",
		    p->fs, p->nmissing == 1 ? "s" : "", m == OPTS_USED ?
		    "used space" : m == OPTS_INODES ? "inode count" :
		    opts_metric_name(m), m == OPTS_USED || m == OPTS_INODES ?
		    "written before schema 6, or dated with --as-of: statvfs"
		    " was not read" : "written before schema 6");
}

int
space_growth_pts_ask_target(const struct opts *o, const char *why,
    char *err, size_t errlen)
{
	snprintf(err, errlen, FMT_USAGE "--metric %s has no natural target"
	    " here (%s): give one, --target %s or a percentage (80%%)",
	    opts_metric_name(o->metric), why,
	    space_growth_pts_is_bytes(o->metric) ? "SIZE (50TiB)" :
	    "N (1e9)");
	return -1;
}

int
space_growth_pts_natural(const struct opts *o, const struct points *p,
    char *err, size_t errlen)
{
	char why[160];
	double t;

	if (o->target.given || p->n == 0 ||
	    space_growth_pts_target(o, p, &t, why, sizeof why))
		return 0;
	return space_growth_pts_ask_target(o, why, err, errlen);
}
