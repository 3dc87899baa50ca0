/*
 * space_growth_sum: when will the file systems together reach a target?
 * docs/analyses.md ("Growth projections"): "for several file systems with different dates,
 * sum the per-file-system lines and solve sum_f N_f(t) = T".
 *
 * Each file system's line is its linear model (space_growth_fit.c): exact
 * through two snapshots, least squares through three or more. The lines
 * are evaluated at the same date and added, so snapshots taken on
 * different days are never treated as simultaneous. A file system without
 * a line makes the total unknown: leaving it out would count it as zero.
 * Least-squares lines are added without a prediction band, and the
 * exponential model is not summed.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "space_devices_int.h"
#include "space_growth_int.h"
#include "human.h"
#include "space_snapout_int.h"
#include "xalloc.h"

/* One file system: its points and its line. */
struct fsline {
	struct points p;
	struct gfit g;
	struct proj m;
	double off;	/* days from the first snapshot of all to its first */
};

/* The total line N(x) = a + b x, x in days since t0. */
struct sumline {
	int64_t t0;
	double a, b, xlast;
	i128 latest;		/* sum of each file system's latest value */
	size_t npoints, unfitted;
};

static int
load_lines(sqlite3 *db, const struct opts *o, struct snap *s, size_t n,
    struct fsline *l, size_t nl, double target, char *err, size_t errlen)
{
	for (size_t i = 0; i < nl; i++) {
		l[i].m.model = "linear";
		if (space_growth_pts_load(db, o, s, n, &l[i].p, err,
		    errlen) < 0)
			return -1;
		space_growth_fit_model(&l[i].m, &l[i].p, target, 0, &l[i].g);
	}
	return 0;
}

/* The total's target: as given, or a share of the sum of each device's
 * capacity at its latest point: a line's, counted once per device
 * (group[i], the device of line i, when the lines are names; NULL when
 * they are devices already). 1, or 0 with why. */
static int
sum_target(const struct opts *o, const struct fsline *l, size_t nl,
    const size_t *group, double *target, char *why, size_t whylen)
{
	double sum = 0, t;

	if (o->target.given && o->target.kind != UNITS_PERCENT) {
		*target = o->target.v;
		return 1;
	}
	for (size_t i = 0; i < nl; i++) {
		size_t k = 0;

		while (group && k < i && group[k] != group[i])
			k++;
		if (group && k < i)
			continue;	/* its device is counted */
		if (!space_growth_pts_target(o, &l[i].p, &t, why, whylen)) {
			size_t len = strlen(why);
			snprintf(why + len, whylen - len, " (%s)", l[i].p.fs);
			return 0;
		}
		sum += t;
	}
	*target = sum;
	return 1;
}

/* Names on one device: said, and how the total counts them. */
static void
note_devices(struct result *r, const struct devices *dv, int bydev)
{
	char names[512];

	for (size_t i = 0; i < dv->n; i++) {
		const struct dev_group *g = &dv->g[i];
		if (g->n < 2)
			continue;
		result_note(r, "%s are on one device (%s): %s.",
		    space_devices_names(g, names, sizeof names), g->device,
		    bydev ? "one line, fitted on the points of all of them (one"
		    " per day), counts its used space and inodes once" :
		    "their files and bytes add up, and a percentage target"
		    " counts the device's capacity once");
	}
}

/* 0, or -1 when the latest values add up past 2^127 - 1. */
static int
sum_lines(struct fsline *l, size_t nl, struct sumline *t)
{
	int any = 0;

	memset(t, 0, sizeof *t);
	for (size_t i = 0; i < nl; i++)
		if (l[i].p.n && (!any++ || l[i].p.t[0] < t->t0))
			t->t0 = l[i].p.t[0];
	for (size_t i = 0; i < nl; i++) {
		const struct points *p = &l[i].p;
		const struct ols *f = &l[i].g.f;
		t->npoints += p->n;
		if (!p->n || !l[i].g.fitted) {
			t->unfitted++;
			continue;
		}
		l[i].off = (double)(p->t[0] - t->t0) / GROWTH_DAY;
		t->a += f->ybar - f->slope * (l[i].off + f->xbar);
		t->b += f->slope;
		if (__builtin_add_overflow(t->latest, p->v[p->n - 1],
		    &t->latest))
			return -1;
		t->xlast = fmax(t->xlast, l[i].off + p->x[p->n - 1]);
	}
	return 0;
}

/* The total's model: its state and crossing. */
static void
sum_model(struct proj *m, const struct sumline *t, double target)
{
	m->model = "linear";
	space_growth_fit_undetermined(m);
	m->target = target;
	if (t->unfitted) {
		snprintf(m->why, sizeof m->why, "%zu file system%s without a"
		    " line", t->unfitted, t->unfitted == 1 ? "" : "s");
		return;
	}
	m->slope = t->b;
	if ((double)t->latest >= target) {
		m->state = "already exceeded";
		snprintf(m->why, sizeof m->why, "the latest points add up to"
		    " it");
		return;
	}
	if (!(t->b > 0)) {
		m->state = "not growing";
		snprintf(m->why, sizeof m->why, "the sum of the slopes is not"
		    " above 0");
		return;
	}
	space_growth_fit_crossing(m, (target - t->a) / t->b, t->xlast,
	    (double)t->latest, target);
	if (!m->why[0])
		snprintf(m->why, sizeof m->why, "%s", strcmp(m->state,
		    "projected") ? "the crossing lies more than 100 years"
		    " ahead" : "a sum of lines: no 95% range");
}

enum { F_FS, F_N, F_FIRST, F_LAST, F_V0, F_V1, F_DAYS, F_SLOPE, F_FIT };

static void
fs_table(struct result *r, const struct fsline *l, size_t nl,
    enum opts_metric metric)
{
	const char *unit = space_growth_pts_unit(metric);
	enum col_fmt vf = space_growth_pts_is_bytes(metric) ? CF_BYTES :
	    CF_PLAIN;
	struct rcol_spec cols[] = {
		[F_FS] = { "fs", "File system", NULL, CF_PLAIN, 0 },
		[F_N] = { "n", "Snapshots", NULL, CF_PLAIN, 0 },
		[F_FIRST] = { "first", "First (UTC)", NULL, CF_TIME, 0 },
		[F_LAST] = { "last", "Last (UTC)", NULL, CF_TIME, 0 },
		[F_V0] = { "value_first", "First value", unit, vf, 2 },
		[F_V1] = { "value_last", "Last value", unit, vf, 2 },
		[F_DAYS] = { "days", "Days", "days", CF_PLAIN, 1 },
		[F_SLOPE] = { "slope_per_day", "Slope", NULL, CF_PLAIN, 1 },
		[F_FIT] = { "line", "Line", NULL, CF_PLAIN, 0 },
	};
	struct rtable *t;

	space_growth_fit_slope_col(&cols[F_SLOPE], metric);
	t = result_table(r, "filesystems", "Each file system's line", cols,
	    sizeof cols / sizeof *cols);
	result_wide(t, "first,value_first,line");

	for (size_t i = 0; i < nl; i++) {
		const struct points *p = &l[i].p;
		size_t row = result_row(t);
		result_set_text(t, row, F_FS, p->fs);
		result_set_int(t, row, F_N, (int64_t)p->n);
		if (p->n) {
			result_set_int(t, row, F_FIRST, p->t[0]);
			result_set_int(t, row, F_LAST, p->t[p->n - 1]);
			result_set_wide(t, row, F_V0, p->v[0]);
			result_set_wide(t, row, F_V1, p->v[p->n - 1]);
			result_set_real(t, row, F_DAYS, p->x[p->n - 1]);
		}
		space_snapout_real(t, row, F_SLOPE, l[i].m.slope);
		result_set_text(t, row, F_FIT,
		    !l[i].g.fitted ? "none" : p->n == 2 ?
		    "through 2 snapshots" : "least squares");
	}
}

enum { S_FS, S_ID, S_T, S_V, S_LIN };

static void
points_table(struct result *r, const struct fsline *l, size_t nl,
    enum opts_metric metric)
{
	const char *unit = space_growth_pts_unit(metric);
	enum col_fmt vf = space_growth_pts_is_bytes(metric) ? CF_BYTES :
	    CF_PLAIN;
	const struct rcol_spec cols[] = {
		[S_FS] = { "fs", "File system", NULL, CF_PLAIN, 0 },
		[S_ID] = { "snapshot", "Snapshot", NULL, CF_PLAIN, 0 },
		[S_T] = { "t", "Started (UTC)", NULL, CF_TIME, 0 },
		[S_V] = { "value", "Value", unit, vf, 2 },
		[S_LIN] = { "linear_fit", "Linear fit", unit, vf, 2 },
	};
	struct rtable *t = result_table(r, "points", "Snapshots fitted",
	    cols, sizeof cols / sizeof *cols);

	for (size_t i = 0; i < nl; i++) {
		const struct points *p = &l[i].p;
		for (size_t k = 0; k < p->n; k++) {
			size_t row = result_row(t);
			result_set_text(t, row, S_FS, p->fs);
			result_set_int(t, row, S_ID, p->id[k]);
			result_set_int(t, row, S_T, p->t[k]);
			result_set_wide(t, row, S_V, p->v[k]);
			if (l[i].g.fitted)
				result_set_real(t, row, S_LIN,
				    space_fit_predict(&l[i].g.f,
				    p->x[k]));
		}
	}
}

enum { X_T, X_SUM, X_TARGET };

/* The figure: the total line from the first snapshot to its crossing
 * (at most FIG_SPANS spans after the latest snapshot), and the target. */
static void
sum_figure(struct result *r, const struct sumline *t, const struct proj *m,
    double target, enum opts_metric metric)
{
	const char *unit = space_growth_pts_unit(metric);
	enum col_fmt vf = space_growth_pts_is_bytes(metric) ? CF_BYTES :
	    CF_PLAIN;
	const struct rcol_spec cols[] = {
		[X_T] = { "t", "Time (UTC)", NULL, CF_TIME, 0 },
		[X_SUM] = { "total_fit", "Sum of the lines", unit, vf, 2 },
		[X_TARGET] = { "target", "Target", unit, vf, 2 },
	};
	struct rtable *tb = result_table(r, "projection_points", "Growth"
	    " figure: the sum of the lines", cols, sizeof cols / sizeof *cols);
	int64_t last = space_growth_fit_time(t->t0, t->xlast);
	int64_t end = last, tc = 0;
	int64_t horizon = last + FIG_SPANS * (last - t->t0);
	struct grow_row *w;
	struct rfigure *fig;
	size_t nw, nx = 0;
	char d[32];

	tb->detail = 1;
	if (t->unfitted || t->npoints == 0)
		return;
	if (!strcmp(m->state, "projected") || !strcmp(m->state,
	    "beyond 100 years")) {
		tc = space_growth_fit_time(t->t0, fmin(m->xc, t->xlast + 2 *
		    HORIZON_DAYS));
		end = tc > end ? tc : end;
		nx = tc >= t->t0 && tc <= horizon;
	}
	if (end > horizon) {
		end = horizon;
		result_note(r, "The figure ends on %s, %d observed spans after"
		    " the latest snapshot, before the target is reached.",
		    human_date(end, 0, d, sizeof d), FIG_SPANS);
	}
	w = space_growth_figure_rows(t->t0, end, &tc, nx, NULL, &nw);
	for (size_t i = 0; i < nw; i++) {
		size_t row = result_row(tb);
		double x = (double)(w[i].t - t->t0) / GROWTH_DAY;
		result_set_int(tb, row, X_T, w[i].t);
		result_set_real(tb, row, X_SUM, t->a + t->b * x);
		space_snapout_real(tb, row, X_TARGET, target);
	}
	free(w);
	fig = result_figure(r, "growth", FIG_LINE, (size_t)r->ntable - 1,
	    "Total growth over time and projection to the target", "The sum"
	    " of the file systems' linear models, each evaluated at the same"
	    " date, and the target.", "date (UTC)",
	    space_growth_pts_quantity(metric));
	fig->xcol = X_T;
	fig->ycol[0] = X_SUM;
	fig->ycol[1] = X_TARGET;
	fig->ny = 2;
	fig->xtime = 1;
}

static void
note_lines(struct result *r, const struct fsline *l, size_t nl,
    enum opts_metric metric)
{
	int ols = 0;

	for (size_t i = 0; i < nl; i++) {
		const struct points *p = &l[i].p;
		char d0[32], d1[32];
		space_growth_pts_note(r, p, metric);
		if (!l[i].g.fitted) {
			result_note(r, "%s: %zu complete snapshot%s%s: no line,"
			    " so the total cannot be projected (leaving %s out"
			    " would count it as zero).", p->fs, p->n,
			    p->n == 1 ? "" : "s", "", p->fs);
			continue;
		}
		ols |= p->n >= 3;
		result_note(r, "%s: %zu complete snapshots from %s to %s (%.1f"
		    " days), %s.", p->fs, p->n, human_date(p->t[0], 0, d0,
		    sizeof d0), human_date(p->t[p->n - 1], 0, d1, sizeof d1),
		    p->x[p->n - 1], p->n == 2 ? "the line through them" :
		    "their least-squares line");
	}
	if (ols)
		result_note(r, "Least-squares lines are added without a"
		    " prediction band: the total has no 95%% range.");
}

struct result *
space_growth_sum(sqlite3 *db, const struct opts *o, struct snap *s, size_t n,
    char *err, size_t errlen)
{
	const char **names = xcalloc(n + 1, sizeof *names);
	size_t nl = space_points_fs_names(s, n, names);
	struct fsline *l = xcalloc(nl + 1, sizeof *l);
	/* Used space and inodes are a device's: one line per device. */
	int bydev = o->metric == OPTS_USED || o->metric == OPTS_INODES;
	struct devices dv;
	const char *unit = space_growth_pts_unit(o->metric);
	int bytes = space_growth_pts_is_bytes(o->metric);
	struct result *r = NULL;
	struct sumline t;
	struct proj m;
	struct rtable *tb;
	char num[96], why[160] = "";
	double target = 1;
	int known;

	space_points_sort(s, n);
	space_devices_find(s, n, names, nl, INT64_MIN, io_window_hi(&o->win),
	    &dv);
	if (bydev)
		nl = dv.n;
	for (size_t i = 0; i < nl; i++)
		l[i].p.fs = bydev ? dv.g[i].label : names[i];
	if (load_lines(db, o, bydev ? dv.s : s, n, l, nl, 1, err, errlen) < 0)
		goto out;
	known = sum_target(o, l, nl, bydev ? NULL : dv.of, &target, why,
	    sizeof why);
	if (!known && !o->target.given) {
		space_growth_pts_ask_target(o, why, err, errlen);
		goto out;
	}
	for (size_t i = 0; known && i < nl; i++)
		space_growth_fit_model(&l[i].m, &l[i].p, target, 0, &l[i].g);
	if (sum_lines(l, nl, &t) < 0) {
		snprintf(err, errlen, "the file systems' latest %s add up to"
		    " more than 2^127 - 1: no exact total", unit);
		goto out;
	}
	sum_model(&m, &t, target);
	if (!known)
		space_growth_fit_no_target(&m, why);
	r = result_new("growth", "Growth projection of the total over every"
	    " file system");
	result_note(r, "Total over %zu %s%s: the sum of each one's linear"
	    " model, N(t) = sum of N_f(t), solved for N(t) = target. Their"
	    " snapshots were not taken at the same time: each line is"
	    " evaluated at the same date before adding.", nl, bydev ?
	    "device" : "file system", nl == 1 ? "" : "s");
	note_devices(r, &dv, bydev);
	if (known)
		result_note(r, "Metric: %s%s%s. Target: %s%s%s.",
		    opts_metric_name(o->metric), o->project ?
		    " of project " : "", o->project ? o->project : "",
		    space_growth_fit_count(target, bytes, num, sizeof num),
		    bytes ? "" : " ", bytes ? "" : unit);
	else
		result_note(r, "No target: %s.", why);
	note_lines(r, l, nl, o->metric);
	result_note(r, "The exponential model is not summed (a sum of"
	    " exponentials is not one): only the linear model is.");
	if (!strcmp(m.state, "already exceeded"))
		result_note(r, "The target is already exceeded: the latest"
		    " snapshots of the file systems add up to %s %s.",
		    human_wide(t.latest, num, sizeof num), unit);
	if (!strcmp(m.state, "projected") && t.xlast > 0 &&
	    m.xc - t.xlast > 10 * t.xlast)
		result_note(r, "The crossing lies %.1f times the observed span"
		    " ahead: an extrapolation that far is speculative.",
		    (m.xc - t.xlast) / t.xlast);
	fs_table(r, l, nl, o->metric);
	points_table(r, l, nl, o->metric);
	tb = space_growth_fit_proj_table(r,
	    "Projection of the total to the target", o->metric);
	if (t.npoints)
		space_growth_fit_proj_row(tb, &m, t.npoints, t.t0, t.xlast);
	sum_figure(r, &t, &m, known ? target : NAN, o->metric);
out:
	for (size_t i = 0; i < nl; i++)
		space_growth_pts_free(&l[i].p);
	space_devices_free(&dv);
	free(l);
	free(names);
	return r;
}
