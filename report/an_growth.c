/*
 * an_growth: when will a file system reach a target file count (or byte
 * count)? study-analyses.md 1.6 and 4.
 *
 * The points are the complete snapshots of one file system, at their start
 * times, x in days since the first. Two models: a line in N and a line in
 * ln N (exponential). With two points both are exact and there is no
 * error estimate; with three or more they are least-squares fits, and the
 * 95% prediction band gives a range of crossing dates. Every model ends
 * in one explicit state; a date is given only where it means something.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyses.h"
#include "census.h"
#include "fit.h"
#include "humanfmt.h"
#include "snapout.h"
#include "xalloc.h"

#define DAY 86400.0
#define HORIZON_DAYS 36525.0	/* 100 years of 365.25 days */

struct points {
	size_t n;
	int64_t *id, *t, *v;
	double *x, *y;		/* days since the first point; value */
	const char *fs;
};

/* One model's outcome; NAN marks what is not defined. */
struct proj {
	const char *model, *state;
	double slope, r2, rmse, doubling;
	double xc, xlo, xhi;	/* crossings, days since the first point */
};

static void
points_free(struct points *p)
{
	free(p->id);
	free(p->t);
	free(p->v);
	free(p->x);
	free(p->y);
}

static int
by_start(const void *pa, const void *pb)
{
	const struct snap *a = pa, *b = pb;

	if (a->started_at != b->started_at)
		return a->started_at < b->started_at ? -1 : 1;
	return a->id < b->id ? -1 : a->id > b->id;
}

/* The distinct file systems, in id order, appended to err. */
static void
list_fs(const struct snap *s, size_t n, char *err, size_t errlen)
{
	size_t len = strlen(err);

	for (size_t i = 0; i < n && len < errlen; i++) {
		int seen = 0;
		for (size_t k = 0; k < i; k++)
			seen |= strcmp(s[k].fs, s[i].fs) == 0;
		if (!seen)
			len += (size_t)snprintf(err + len, errlen - len, "%s%s",
			    len && err[len - 1] != ':' ? ", " : " ", s[i].fs);
	}
}

/* The file system to fit: --fs, or the only one there is. 1 chosen,
 * 0 the database has no snapshots, -1 error (listing the choices). */
static int
choose_fs(const struct snap *s, size_t n, const char *want, const char **fs,
    char *err, size_t errlen)
{
	int one = 1;

	for (size_t i = 0; i < n; i++) {
		if (want && strcmp(s[i].fs, want) == 0) {
			*fs = s[i].fs;
			return 1;
		}
		one &= strcmp(s[i].fs, s[0].fs) == 0;
	}
	if (!want && n == 0)
		return 0;
	if (!want && one) {
		*fs = s[0].fs;
		return 1;
	}
	if (want)
		snprintf(err, errlen, AN_USAGE "no snapshots of file system %s;"
		    " file systems:", want);
	else
		snprintf(err, errlen, AN_USAGE "several file systems; choose"
		    " one with --fs:");
	list_fs(s, n, err, errlen);
	return -1;
}

static int
load_points(sqlite3 *db, const struct an_opts *o, struct snap *s, size_t n,
    struct points *p, char *err, size_t errlen)
{
	p->id = xcalloc(n + 1, sizeof *p->id);
	p->t = xcalloc(n + 1, sizeof *p->t);
	p->v = xcalloc(n + 1, sizeof *p->v);
	p->x = xcalloc(n + 1, sizeof *p->x);
	p->y = xcalloc(n + 1, sizeof *p->y);
	qsort(s, n, sizeof *s, by_start);
	for (size_t i = 0; i < n; i++) {
		int64_t files, bytes;
		if (!s[i].complete || strcmp(s[i].fs, p->fs) != 0)
			continue;
		if (o->project) {
			if (census_project_totals(db, s[i].id, o->project,
			    &files, &bytes, err, errlen) < 0)
				return -1;
		} else {
			if (!s[i].files.has || !s[i].bytes.has)
				continue;
			files = s[i].files.v;
			bytes = s[i].bytes.v;
		}
		p->id[p->n] = s[i].id;
		p->t[p->n] = s[i].started_at;
		p->v[p->n] = o->metric_bytes ? bytes : files;
		p->x[p->n] = (double)(s[i].started_at - p->t[0]) / DAY;
		p->y[p->n] = (double)p->v[p->n];
		p->n++;
	}
	return 0;
}

/*
 * Fit one model. logy: fit ln y and cross ln target. Sets state, slope,
 * r2, rmse, crossings; returns 1 when *f holds a fit (for the fitted
 * columns), 0 when no line could be fitted.
 */
static int
model(struct proj *m, const struct points *p, double target, int logy,
    struct ols *f)
{
	double *y = xcalloc(p->n + 1, sizeof *y), *yh = xcalloc(p->n + 1,
	    sizeof *yh), lv = logy ? log(target) : target;
	int fitted = 0;

	m->slope = m->r2 = m->rmse = m->doubling = NAN;
	m->xc = m->xlo = m->xhi = NAN;
	m->state = "not determinable";
	for (size_t i = 0; i < p->n; i++) {
		if (logy && p->y[i] <= 0)
			goto out;
		y[i] = logy ? log(p->y[i]) : p->y[i];
	}
	if (ols_fit(p->x, y, p->n, f) < 0)
		goto out;
	fitted = 1;
	m->slope = f->slope;
	if (p->n >= 3) {
		for (size_t i = 0; i < p->n; i++)
			yh[i] = logy ? exp(ols_predict(f, p->x[i])) :
			    ols_predict(f, p->x[i]);
		m->r2 = f->r2;
		m->rmse = fit_rmse(p->y, yh, p->n);
	}
	if (logy && f->slope > 0)
		m->doubling = log(2) / f->slope;
	if (!(f->slope > 0)) {
		m->state = "not growing";
		goto out;
	}
	if (p->n >= 3 && ols_band_cross(f, t_quantile(0.975,
	    (double)(p->n - 2)), lv, &m->xlo, &m->xhi) < 0)
		goto out;	/* the slope's interval contains 0 */
	/* The target was not reached by the last snapshot, so the band's
	 * earliest date cannot lie before it. */
	if (m->xlo < p->x[p->n - 1] && p->y[p->n - 1] < target)
		m->xlo = p->x[p->n - 1];
	m->xc = f->xbar + (lv - f->ybar) / f->slope;
	m->state = m->xc - p->x[p->n - 1] > HORIZON_DAYS ? "beyond 100 years" :
	    "projected";
out:
	free(y);
	free(yh);
	return fitted;
}

enum { P_MODEL, P_N, P_SLOPE, P_R2, P_RMSE, P_CROSS, P_LO, P_HI, P_DAYS,
    P_STATE, P_DOUBLING };

static const struct rcol_spec proj_cols[] = {
	[P_MODEL] = { "model", "Model", NULL, CF_PLAIN, 0 },
	[P_N] = { "n", "Snapshots", NULL, CF_PLAIN, 0 },
	[P_SLOPE] = { "slope_per_day", "Slope per day", NULL, CF_PLAIN, 4 },
	[P_R2] = { "r2", "R²", NULL, CF_PLAIN, 4 },
	[P_RMSE] = { "rmse", "RMSE", NULL, CF_PLAIN, 1 },
	[P_CROSS] = { "crossing", "Reaches target", NULL, CF_DATE, 0 },
	[P_LO] = { "crossing_lo", "Earliest (95%)", NULL, CF_DATE, 0 },
	[P_HI] = { "crossing_hi", "Latest (95%)", NULL, CF_DATE, 0 },
	[P_DAYS] = { "days_to_crossing", "Days after last snapshot", "days",
	    CF_PLAIN, 1 },
	[P_STATE] = { "state", "State", NULL, CF_PLAIN, 0 },
	[P_DOUBLING] = { "doubling_days", "Doubling time", "days", CF_PLAIN,
	    1 },
};

/* A crossing as the UTC day holding it; none beyond the horizon. */
static void
put_day(struct rtable *t, size_t row, int col, const struct points *p,
    double x)
{
	double last = p->x[p->n - 1];

	if (x != x || fabs(x - last) > HORIZON_DAYS)
		return;
	rt_int(t, row, col, (int64_t)floor(((double)p->t[0] + x * DAY) / DAY) *
	    86400);
}

static void
proj_row(struct rtable *t, const struct proj *m, const struct points *p)
{
	size_t row = rt_row(t);

	rt_text(t, row, P_MODEL, m->model);
	rt_int(t, row, P_N, (int64_t)p->n);
	rt_real_def(t, row, P_SLOPE, m->slope);
	rt_real_def(t, row, P_R2, m->r2);
	rt_real_def(t, row, P_RMSE, m->rmse);
	put_day(t, row, P_CROSS, p, m->xc);
	put_day(t, row, P_LO, p, m->xlo);
	put_day(t, row, P_HI, p, m->xhi);
	rt_real_def(t, row, P_DAYS, m->xc - p->x[p->n - 1]);
	rt_text(t, row, P_STATE, m->state);
	rt_real_def(t, row, P_DOUBLING, m->doubling);
}

/* The latest snapshot is at or above the target: the first snapshot at
 * or above it (an earlier peak since lost does not count). */
static int
exceeded(struct proj *m, const struct points *p, double target)
{
	if (p->n == 0 || p->y[p->n - 1] < target)
		return -1;
	for (size_t i = 0; i < p->n; i++)
		if (p->y[i] >= target) {
			m->state = "already exceeded";
			m->xc = p->x[i];
			m->xlo = m->xhi = NAN;
			return (int)i;
		}
	return -1;
}


enum { T_ID, T_T, T_V, T_LIN, T_EXP };

static const struct rcol_spec point_cols[] = {
	[T_ID] = { "snapshot", "Snapshot", NULL, CF_PLAIN, 0 },
	[T_T] = { "t", "Started (UTC)", NULL, CF_TIME, 0 },
	[T_V] = { "value", "Value", NULL, CF_PLAIN, 0 },
	[T_LIN] = { "linear_fit", "Linear fit", NULL, CF_PLAIN, 0 },
	[T_EXP] = { "exponential_fit", "Exponential fit", NULL, CF_PLAIN, 0 },
};

static void
points_table(struct result *r, const struct points *p, const char *unit,
    const struct ols *lf, int lin, const struct ols *ef, int ex)
{
	struct rtable *t = result_table(r, "points", "Snapshots fitted",
	    point_cols, sizeof point_cols / sizeof *point_cols);
	struct rfigure *fig;

	free(t->col[T_V].unit);
	t->col[T_V].unit = xstrdup(unit);
	for (size_t i = 0; i < p->n; i++) {
		size_t row = rt_row(t);
		rt_int(t, row, T_ID, p->id[i]);
		rt_int(t, row, T_T, p->t[i]);
		rt_int(t, row, T_V, p->v[i]);
		if (lin)
			rt_real(t, row, T_LIN, ols_predict(lf, p->x[i]));
		if (ex)
			rt_real(t, row, T_EXP, exp(ols_predict(ef, p->x[i])));
	}
	fig = result_figure(r, "growth", FIG_LINE, (size_t)r->ntable - 1,
	    "Growth over time", "Each complete snapshot (at its start time)"
	    " with the fitted linear and exponential models.", "date (UTC)",
	    unit);
	fig->xcol = T_T;
	fig->ycol[0] = T_V;
	fig->ycol[1] = T_LIN;
	fig->ycol[2] = T_EXP;
	fig->ny = 3;
	fig->xtime = 1;
}

static const char *
month(const struct points *p, double x, char *buf, size_t len)
{
	human_date((int64_t)floor((double)p->t[0] + x * DAY), 0, buf, len);
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
		if (p->n >= 3 && strcmp(m[k].state, "not determinable") == 0 &&
		    m[k].slope == m[k].slope)
			result_note(r, "The %s model's slope is not different"
			    " from 0 at 95%% confidence: no crossing date.",
			    m[k].model);
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
		    " (t(0.975, %zu) = %.4f) crosses the target.", p->n - 2,
		    t_quantile(0.975, (double)(p->n - 2)));
		result_note(r, "Compare the models by RMSE on the original"
		    " scale (R² of the exponential model is on ln N).");
	}
}

struct result *
an_growth(sqlite3 *db, const struct an_opts *o, char *err, size_t errlen)
{
	struct snap *s;
	size_t n;
	struct points p = { 0 };
	struct proj m[2] = { { .model = "linear" },
	    { .model = "exponential" } };
	struct ols lf, ef;
	struct result *r;
	const char *unit = o->metric_bytes ? "bytes" : "files";
	char d0[32], d1[32];
	int rc, lin, ex, hit;

	if (!(o->target > 0)) {
		snprintf(err, errlen, AN_USAGE "--target N (N > 0) is"
		    " required");
		return NULL;
	}
	if (census_snapshots(db, &s, &n, err, errlen) < 0)
		return NULL;
	rc = choose_fs(s, n, o->fs, &p.fs, err, errlen);
	if (rc < 0 || (rc > 0 && load_points(db, o, s, n, &p, err,
	    errlen) < 0)) {
		points_free(&p);
		snaps_free(s, n);
		return NULL;
	}
	r = result_new("growth", "Growth projection");
	if (rc == 0 || p.n == 0) {
		if (rc == 0)
			result_note(r, "No snapshots in the database.");
		else
			result_note(r, "No complete snapshots of %s.", p.fs);
		points_table(r, &p, unit, &lf, 0, &ef, 0);
		result_table(r, "projection", "Projection", proj_cols,
		    sizeof proj_cols / sizeof *proj_cols);
		goto out;
	}
	result_note(r, "%zu complete snapshot%s of %s from %s to %s (%.1f"
	    " days); metric: %s%s%s; each snapshot's start time is its time.",
	    p.n, p.n == 1 ? "" : "s", p.fs, human_date(p.t[0], 0, d0,
	    sizeof d0), human_date(p.t[p.n - 1], 0, d1, sizeof d1),
	    p.x[p.n - 1], unit, o->project ? " of project " : "",
	    o->project ? o->project : "");
	result_note(r, "Target: %.15g %s.", o->target, unit);
	lin = model(&m[0], &p, o->target, 0, &lf);
	ex = model(&m[1], &p, o->target, 1, &ef);
	hit = exceeded(&m[0], &p, o->target);
	if (hit >= 0) {
		exceeded(&m[1], &p, o->target);
		result_note(r, "The target is already exceeded: snapshot #%lld"
		    " (%s) has %lld %s.", (long long)p.id[hit],
		    human_date(p.t[hit], 0, d0, sizeof d0),
		    (long long)p.v[hit], unit);
	} else if (p.n == 1) {
		result_note(r, "Only one complete snapshot: no trend can be"
		    " fitted.");
	}
	if (!lin && p.n >= 2)
		result_note(r, "Every complete snapshot has the same start time:"
		    " no trend can be fitted.");
	else if (!ex && p.n >= 2)
		result_note(r, "The exponential model needs every value > 0.");
	notes(r, &p, m);
	points_table(r, &p, unit, &lf, lin, &ef, ex);
	struct rtable *t = result_table(r, "projection", "Projection to the"
	    " target", proj_cols, sizeof proj_cols / sizeof *proj_cols);
	proj_row(t, &m[0], &p);
	proj_row(t, &m[1], &p);
out:
	points_free(&p);
	snaps_free(s, n);
	return r;
}
