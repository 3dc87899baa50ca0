/*
 * space_growth: when will a file system (or a project) reach a target: a
 * file count, a size, or a share of its capacity? docs/analyses.md ("Growth projections")
 * and 4.
 *
 * The points are the complete snapshots of one file system, one per day
 * (space_growth_pts.c), x in days since the first; the models are in
 * space_growth_fit.c. With several file systems and no --fs (or --fs all),
 * the total over all of them is projected instead (space_growth_sum.c).
 */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "space.h"
#include "query/query.h"
#include "space_growth_int.h"
#include "human.h"
#include "space_names_int.h"
#include "space_snapout_int.h"
#include "xalloc.h"

enum { T_ID, T_T, T_V, T_LIN, T_EXP };

static const struct rcol_spec point_cols[] = {
	[T_ID] = { "snapshot", "Snapshot", NULL, CF_PLAIN, 0 },
	[T_T] = { "t", "Started (UTC)", NULL, CF_TIME, 0 },
	[T_V] = { "value", "Value", NULL, CF_PLAIN, 0 },
	[T_LIN] = { "linear_fit", "Linear fit", NULL, CF_PLAIN, 0 },
	[T_EXP] = { "exponential_fit", "Exponential fit", NULL, CF_PLAIN, 0 },
};

static void
points_table(struct result *r, const struct points *p, enum opts_metric m,
    const struct gfit *g)
{
	struct rtable *t = result_table(r, "points", "Snapshots fitted",
	    point_cols, sizeof point_cols / sizeof *point_cols);

	for (int c = T_V; c <= T_EXP; c++) {
		free(t->col[c].unit);
		t->col[c].unit = xstrdup(space_growth_pts_unit(m));
		if (space_growth_pts_is_bytes(m))
			t->col[c].fmt = CF_BYTES, t->col[c].decimals = 2;
	}
	for (size_t i = 0; i < p->n; i++) {
		size_t row = result_row(t);
		result_set_int(t, row, T_ID, p->id[i]);
		result_set_int(t, row, T_T, p->t[i]);
		result_set_wide(t, row, T_V, p->v[i]);
		if (g[0].fitted)
			result_set_real(t, row, T_LIN,
			    space_fit_predict(&g[0].f, p->x[i]));
		if (g[1].fitted)
			result_set_real(t, row, T_EXP,
			    exp(space_fit_predict(&g[1].f,
			    p->x[i])));
	}
}

static const char *
month(const struct points *p, double x, char *buf, size_t len)
{
	human_date((int64_t)floor((double)p->t[0] + x * GROWTH_DAY), 0, buf,
	    len);
	buf[7] = 0;
	return buf;
}

static void
notes(struct result *r, const struct points *p, const struct proj *m)
{
	double span = p->x[p->n - 1];
	char a[32], b[32];

	for (int k = 0; k < 2; k++) {
		if (strcmp(m[k].state, "projected") == 0 && span > 0 &&
		    m[k].xc - span > 10 * span)
			result_note(r, "The %s crossing lies %.1f times the"
			    " observed span ahead: an extrapolation that far is"
			    " speculative.", m[k].model,
			    (m[k].xc - span) / span);
		if (m[k].why[0])
			result_note(r, "The %s model (%s): %s.", m[k].model,
			    m[k].state, m[k].why);
	}
	if (p->n == 2)
		result_note(r, "Based on 2 snapshots, no uncertainty"
		    " estimate.");
	if (p->n == 2 && !strcmp(m[0].state, "projected") &&
	    !strcmp(m[1].state, "projected"))
		result_note(r, "The target falls between %s (exponential) and"
		    " %s (linear).", month(p, m[1].xc, a, sizeof a),
		    month(p, m[0].xc, b, sizeof b));
	if (p->n >= 3) {
		result_note(r, "Ranges are where the 95%% prediction band"
		    " (t(0.975, %zu) = %.4f) reaches the target: the earliest"
		    " where its upper edge does, the latest where its lower"
		    " edge does and stays above.", p->n - 2,
		    space_fit_t_quantile(0.975, (double)(p->n - 2)));
		result_note(r, "Compare the models by RMSE on the original"
		    " scale (R² of the exponential model is on ln N).");
	}
}

/* What the points are: their span, the rescans and snapshots left out,
 * the window's end. */
static void
note_points(struct result *r, const struct opts *o,
    const struct points *p)
{
	char d0[32], d1[32];

	result_note(r, "%zu point%s of %s from %s to %s (%.1f days); metric:"
	    " %s%s%s; each complete snapshot's start time is its time.", p->n,
	    p->n == 1 ? "" : "s", p->fs, human_date(p->t[0], 0, d0,
	    sizeof d0), human_date(p->t[p->n - 1], 0, d1, sizeof d1),
	    p->x[p->n - 1], opts_metric_name(o->metric), o->project ?
	    " of project " : "", o->project ? o->project : "");
	space_growth_pts_note(r, p, o->metric);
	if (o->win.has_to)
		result_note(r, "Fitted on the snapshots started before %s.",
		    human_date(o->win.to, 1, d0, sizeof d0));
}

/* The target's sentence: as given, or a share of the capacity. */
static void
note_target(struct result *r, const struct opts *o,
    const struct points *p, double target)
{
	int bytes = space_growth_pts_is_bytes(o->metric);
	char num[96], cap[96], d[32];

	if (o->target.given && o->target.kind != UNITS_PERCENT) {
		result_note(r, "Target: %s%s.", space_growth_fit_count(target,
		    bytes, num, sizeof num), bytes ? "" : o->metric ==
		    OPTS_FILES ? " files" : " inodes");
		return;
	}
	result_note(r, "Target: %s%% of %s at the latest point (snapshot #%lld"
	    " of %s): %s.", space_growth_fit_count(100 * (o->target.given ?
	    o->target.v : 1), 0, num, sizeof num), o->project ? "the project's"
	    " limit" : o->metric == OPTS_FILES || o->metric == OPTS_INODES ?
	    "the inodes (fs_inodes)" : "the capacity (used + avail, as df)",
	    (long long)p->id[p->n - 1], human_date(p->t[p->n - 1], 0, d,
	    sizeof d), space_growth_fit_count(target, bytes, cap, sizeof cap));
}

/* The result for one file system. */
static struct result *
one_fs(const struct opts *o, const struct points *p)
{
	struct proj m[2] = { { .model = "linear" },
	    { .model = "exponential" } };
	struct gfit g[2];
	struct result *r = result_new("growth", "Growth projection");
	struct rtable *t;
	char d0[32], num[64], why[160];
	double target = NAN;
	int hit;

	memset(g, 0, sizeof g);
	space_growth_fit_undetermined(&m[0]);
	space_growth_fit_undetermined(&m[1]);
	if (p->n == 0) {
		if (p->fs)
			result_note(r, "No complete snapshots of %s%s.", p->fs,
			    p->nmissing ? " with this metric" : "");
		else
			result_note(r, "No snapshots in the database.");
		if (p->fs)
			space_growth_pts_note(r, p, o->metric);
		points_table(r, p, o->metric, g);
		space_growth_fit_proj_table(r, "Projection", o->metric);
		space_growth_figure(r, p, m, g, NAN, o->metric, "Target");
		return r;
	}
	note_points(r, o, p);
	if (!space_growth_pts_target(o, p, &target, why, sizeof why)) {
		result_note(r, "No target: %s.", why);
		space_growth_fit_model(&m[0], p, 1, 0, &g[0]);
		space_growth_fit_model(&m[1], p, 1, 1, &g[1]);
		for (int k = 0; k < 2; k++)
			space_growth_fit_no_target(&m[k], why);
	} else {
		note_target(r, o, p, target);
		space_growth_fit_model(&m[0], p, target, 0, &g[0]);
		space_growth_fit_model(&m[1], p, target, 1, &g[1]);
		hit = space_growth_fit_exceeded(&m[0], p, target);
		if (hit >= 0) {
			space_growth_fit_exceeded(&m[1], p, target);
			result_note(r, "The target is already exceeded:"
			    " snapshot #%lld (%s) has %s %s.",
			    (long long)p->id[hit], human_date(p->t[hit], 0, d0,
			    sizeof d0), human_wide(p->v[hit], num, sizeof num),
			    space_growth_pts_unit(o->metric));
		}
	}
	notes(r, p, m);
	for (int k = 0; k < 2; k++)
		space_growth_fit_note_far(r, &m[k], p->x[p->n - 1]);
	points_table(r, p, o->metric, g);
	t = space_growth_fit_proj_table(r, "Projection to the target",
	    o->metric);
	space_growth_fit_proj_row(t, &m[0], p->n, p->t[0], p->x[p->n - 1]);
	space_growth_fit_proj_row(t, &m[1], p->n, p->t[0], p->x[p->n - 1]);
	space_growth_figure(r, p, m, g, target, o->metric,
	    o->metric == OPTS_USED || o->metric == OPTS_INODES ||
	    (o->target.given && o->target.kind == UNITS_PERCENT) ?
	    "Capacity target" : "Target");
	return r;
}

struct result *
space_growth(sqlite3 *db, const struct opts *o, char *err, size_t errlen)
{
	struct snap *s;
	size_t n;
	struct points p = { 0 };
	struct result *r = NULL;
	int rc;

	assert(db != NULL && o != NULL && err != NULL && errlen > 0);
	if (space_growth_pts_check_target(o, err, errlen) < 0)
		return NULL;
	if (query_census_snapshots(db, &s, &n, err, errlen) < 0)
		return NULL;
	/* File systems are named in id order; points are in time order. */
	rc = space_names_choose_fs(s, n, o->fs, 1, &p.fs, err, errlen);
	if (rc < 0 || (rc > 0 && space_names_check_project(db, o->project,
	    rc == 1 ? p.fs : NULL, 0, err, errlen) < 0))
		goto out;
	if (rc == 2) {
		r = space_growth_sum(db, o, s, n, err, errlen);
		goto out;
	}
	space_points_sort(s, n);
	if (rc == 0 || (space_growth_pts_load(db, o, s, n, &p, err,
	    errlen) == 0 && space_growth_pts_natural(o, &p, err, errlen) == 0))
		r = one_fs(o, &p);
out:
	space_growth_pts_free(&p);
	query_census_snaps_free(s, n);
	return r;
}
