/*
 * an_growth_fit: the points of one file system, its linear and exponential
 * models, and the projection table (an_growth_int.h).
 *
 * Two models: a line in N and a line in ln N (exponential). With two
 * points both are exact and there is no error estimate; with three or
 * more they are least-squares fits, and the 95% prediction band gives a
 * range of crossing dates. Every model ends in one explicit state; a date
 * is given only where it means something.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "an_growth_int.h"
#include "human.h"
#include "an_snapout_int.h"
#include "xalloc.h"

void
an_growth_fit_points_free(struct points *p)
{
	free(p->id);
	free(p->t);
	free(p->v);
	free(p->x);
	free(p->y);
	memset(p, 0, sizeof *p);
}

static int
by_start(const void *pa, const void *pb)
{
	const struct snap *a = pa, *b = pb;

	if (a->started_at != b->started_at)
		return a->started_at < b->started_at ? -1 : 1;
	return a->id < b->id ? -1 : a->id > b->id;
}

size_t
an_growth_fit_fs_names(const struct snap *s, size_t n, const char **names)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		int seen = 0;
		for (size_t j = 0; j < k && !seen; j++)
			seen = strcmp(names[j], s[i].fs) == 0;
		if (!seen)
			names[k++] = s[i].fs;
	}
	return k;
}

int
an_growth_fit_points(sqlite3 *db, const struct an_opts *o, struct snap *s,
    size_t n, struct points *p, char *err, size_t errlen)
{
	p->id = xcalloc(n + 1, sizeof *p->id);
	p->t = xcalloc(n + 1, sizeof *p->t);
	p->v = xcalloc(n + 1, sizeof *p->v);
	p->x = xcalloc(n + 1, sizeof *p->x);
	p->y = xcalloc(n + 1, sizeof *p->y);
	qsort(s, n, sizeof *s, by_start);
	for (size_t i = 0; i < n; i++) {
		int64_t files;
		i128 bytes;
		if (!s[i].complete || strcmp(s[i].fs, p->fs) != 0)
			continue;
		if (o->project) {
			if (query_census_project_totals(db, s[i].id, o->project,
			    &files, &bytes, err, errlen) < 0)
				return -1;
		} else {
			if (!s[i].files.has || !s[i].bytes.has)
				continue;
			files = (int64_t)s[i].files.v;
			bytes = s[i].bytes.v;
		}
		p->id[p->n] = s[i].id;
		p->t[p->n] = s[i].started_at;
		p->v[p->n] = o->metric_bytes ? bytes : files;
		p->x[p->n] = (double)(s[i].started_at - p->t[0]) / GROWTH_DAY;
		p->y[p->n] = (double)p->v[p->n];
		p->n++;
	}
	return 0;
}

/* Fit and fill the model's line and fit quality: 1, or 0 when no line
 * can be fitted (then the model stays "not determinable"). */
static int
fit_line(struct proj *m, const struct points *p, int logy, struct ols *f)
{
	double *y = xcalloc(p->n + 1, sizeof *y), *yh = xcalloc(p->n + 1,
	    sizeof *yh);
	int fitted = 0;

	for (size_t i = 0; i < p->n; i++) {
		if (logy && p->y[i] <= 0)
			goto out;
		y[i] = logy ? log(p->y[i]) : p->y[i];
	}
	if (an_fit_ols(p->x, y, p->n, f) < 0)
		goto out;
	fitted = 1;
	m->slope = f->slope;
	if (p->n >= 3) {
		for (size_t i = 0; i < p->n; i++)
			yh[i] = logy ? exp(an_fit_predict(f, p->x[i])) :
			    an_fit_predict(f, p->x[i]);
		m->r2 = f->r2;
		m->rmse = an_fit_rmse(p->y, yh, p->n);
	}
	if (logy && f->slope > 0)
		m->doubling = log(2) / f->slope;
out:
	free(y);
	free(yh);
	return fitted;
}

void
an_growth_fit_undetermined(struct proj *m)
{
	m->slope = m->r2 = m->rmse = m->doubling = NAN;
	m->xc = m->xlo = m->xhi = NAN;
	m->state = "not determinable";
}

void
an_growth_fit_crossing(struct proj *m, double xc, double xlast)
{
	m->xc = xc;
	m->state = xc - xlast > HORIZON_DAYS ? "beyond 100 years" :
	    "projected";
}

void
an_growth_fit_model(struct proj *m, const struct points *p, double target,
    int logy, struct gfit *g)
{
	double lv = logy ? log(target) : target;
	const struct ols *f = &g->f;

	an_growth_fit_undetermined(m);
	g->logy = logy;
	g->fitted = fit_line(m, p, logy, &g->f);
	if (!g->fitted)
		return;
	if (!(f->slope > 0)) {
		m->state = "not growing";
		return;
	}
	if (p->n >= 3 && an_fit_band_cross(f, an_fit_t_quantile(0.975,
	    (double)(p->n - 2)), lv, &m->xlo, &m->xhi) < 0)
		return;		/* the slope's interval contains 0 */
	/* The target was not reached by the last snapshot, so the band's
	 * earliest date cannot lie before it. */
	if (m->xlo < p->x[p->n - 1] && p->y[p->n - 1] < target)
		m->xlo = p->x[p->n - 1];
	an_growth_fit_crossing(m, f->xbar + (lv - f->ybar) / f->slope,
	    p->x[p->n - 1]);
}

int
an_growth_fit_exceeded(struct proj *m, const struct points *p, double target)
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

struct rtable *
an_growth_fit_proj_table(struct result *r, const char *title)
{
	return result_table(r, "projection", title, proj_cols,
	    sizeof proj_cols / sizeof *proj_cols);
}

const char *
an_growth_fit_count(double v, char *buf, size_t len)
{
	if (v == floor(v) && fabs(v) < 1e15)
		return human_real(v, 0, buf, len);
	snprintf(buf, len, "%.15g", v);
	return buf;
}

int64_t
an_growth_fit_time(int64_t t0, double x)
{
	return t0 + (int64_t)llround(x * GROWTH_DAY);
}

/* Within 100 years of the latest point: a date means something. */
static int
near(double x, double xlast)
{
	return x == x && fabs(x - xlast) <= HORIZON_DAYS;
}

/* A crossing as the UTC day holding it; none beyond the horizon. */
static void
put_day(struct rtable *t, size_t row, int col, int64_t t0, double xlast,
    double x)
{
	if (!near(x, xlast))
		return;
	result_set_int(t, row, col,
	    (int64_t)floor(((double)t0 + x * GROWTH_DAY) /
	    GROWTH_DAY) * 86400);
}

void
an_growth_fit_proj_row(struct rtable *t, const struct proj *m, size_t n,
    int64_t t0, double xlast)
{
	size_t row = result_row(t);

	result_set_text(t, row, P_MODEL, m->model);
	result_set_int(t, row, P_N, (int64_t)n);
	an_snapout_real(t, row, P_SLOPE, m->slope);
	an_snapout_real(t, row, P_R2, m->r2);
	an_snapout_real(t, row, P_RMSE, m->rmse);
	put_day(t, row, P_CROSS, t0, xlast, m->xc);
	put_day(t, row, P_LO, t0, xlast, m->xlo);
	put_day(t, row, P_HI, t0, xlast, m->xhi);
	an_snapout_real(t, row, P_DAYS, m->xc - xlast);
	result_set_text(t, row, P_STATE, m->state);
	an_snapout_real(t, row, P_DOUBLING, m->doubling);
}

void
an_growth_fit_note_far(struct result *r, const struct proj *m, double xlast)
{
	static const char *const what[] = { "earliest (95%)",
	    "latest (95%)" };
	const double x[] = { m->xlo, m->xhi };

	if (strcmp(m->state, "projected") != 0)
		return;		/* the state says why there is no date */
	for (int k = 0; k < 2; k++)
		if (x[k] == x[k] && !near(x[k], xlast))
			result_note(r, "The %s model's %s date lies beyond 100"
			    " years: n/a.", m->model, what[k]);
}
