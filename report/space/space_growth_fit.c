/*
 * space_growth_fit: the linear and exponential models of one file system (or
 * project), and the projection table (space_growth_int.h).
 *
 * Two models: a line in N and a line in ln N (exponential). With two
 * points both are exact and there is no error estimate; with three or
 * more they are least-squares fits. A rising line always gives its point
 * estimate of the crossing; the 95% prediction band adds the earliest
 * date (the upper band reaches the target) and the latest (the lower band
 * does), each where it exists: more evidence never takes a date away.
 * Every model ends in one explicit state, and says why a date or a bound
 * is missing.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "space_growth_int.h"
#include "human.h"
#include "space_snapout_int.h"
#include "xalloc.h"

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
	if (space_fit_ols(p->x, y, p->n, f) < 0)
		goto out;
	fitted = 1;
	m->slope = f->slope;
	if (p->n >= 3) {
		for (size_t i = 0; i < p->n; i++)
			yh[i] = logy ? exp(space_fit_predict(f, p->x[i])) :
			    space_fit_predict(f, p->x[i]);
		m->r2 = f->r2;
		m->rmse = space_fit_rmse(p->y, yh, p->n);
	}
	if (logy && f->slope > 0)
		m->doubling = log(2) / f->slope;
out:
	free(y);
	free(yh);
	return fitted;
}

void
space_growth_fit_undetermined(struct proj *m)
{
	m->slope = m->r2 = m->rmse = m->doubling = NAN;
	m->xc = m->xlo = m->xhi = NAN;
	m->state = "not determinable";
	m->why[0] = 0;
}

void
space_growth_fit_no_target(struct proj *m, const char *why)
{
	m->state = "no target";
	m->xc = m->xlo = m->xhi = m->target = NAN;
	snprintf(m->why, sizeof m->why, "%s", why);
}

/*
 * The line crossed the target before the latest point, which is still
 * below it: its date would lie in the past, before the 95% range (which
 * starts at the latest point). Every projection of a date passes here,
 * so capacity, growth, the summary, the red list and the metrics agree.
 * At NOW_SHARE of the target or more, the target is reached now: the
 * latest point's day, the range as computed. Below, the latest points
 * fell away from the line: it gives no date.
 */
static void
settle_past(struct proj *m, double xlast, double ylast, double target)
{
	if (!(m->xc < xlast) || !(ylast < target))
		return;
	if (ylast >= NOW_SHARE * target) {
		m->xc = xlast;
		m->state = "projected";
		snprintf(m->why, sizeof m->why, "reached now: the line crossed"
		    " the target before the latest point, at %.1f%% of it",
		    100 * ylast / target);
		return;
	}
	m->xc = NAN;
	m->state = "not determinable";
	snprintf(m->why, sizeof m->why, "the line crossed the target before"
	    " the latest point, which is at %.1f%% of it (below 95%%): the"
	    " trend has turned", 100 * ylast / target);
}

void
space_growth_fit_crossing(struct proj *m, double xc, double xlast,
    double ylast, double target)
{
	m->xc = xc;
	m->state = xc - xlast > HORIZON_DAYS ? "beyond 100 years" :
	    "projected";
	settle_past(m, xlast, ylast, target);
}

/* Some value <= 0: no exponential model. */
static int
any_nonpositive(const struct points *p)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->y[i] <= 0)
			return 1;
	return 0;
}

void
space_growth_fit_model(struct proj *m, const struct points *p, double target,
    int logy, struct gfit *g)
{
	double lv = logy ? log(target) : target, xlast;
	const struct ols *f = &g->f;

	space_growth_fit_undetermined(m);
	m->target = target;
	g->logy = logy;
	g->fitted = 0;
	if (p->n == 0)
		return;
	xlast = p->x[p->n - 1];
	if (p->n == 1) {
		m->state = "one snapshot";
		snprintf(m->why, sizeof m->why, "one point: a trend needs two"
		    " snapshots a day or more apart");
		return;
	}
	g->fitted = fit_line(m, p, logy, &g->f);
	if (!g->fitted) {
		snprintf(m->why, sizeof m->why, "%s", logy &&
		    any_nonpositive(p) ? "the exponential model needs every"
		    " value above 0" : "no line can be fitted");
		return;
	}
	if (!(f->slope > 0)) {
		m->state = "not growing";
		snprintf(m->why, sizeof m->why, "the fitted slope is not above"
		    " 0");
		return;
	}
	space_growth_fit_crossing(m, f->xbar + (lv - f->ybar) / f->slope,
	    xlast, p->y[p->n - 1], target);
	if (p->n == 2)
		snprintf(m->why, sizeof m->why, "2 snapshots: no 95%% range");
	else if (space_fit_band_cross(f, space_fit_t_quantile(0.975,
	    (double)(p->n - 2)), lv, xlast, &m->xlo, &m->xhi) == 0 &&
	    isnan(m->xhi) && !m->why[0])
		snprintf(m->why, sizeof m->why, "no later bound at 95%%: the"
		    " slope is not different from 0 at 95%% confidence");
	if (!strcmp(m->state, "beyond 100 years"))
		snprintf(m->why, sizeof m->why, "the crossing lies more than"
		    " 100 years ahead");
}

int
space_growth_fit_exceeded(struct proj *m, const struct points *p, double target)
{
	if (p->n == 0 || p->y[p->n - 1] < target)
		return -1;
	for (size_t i = 0; i < p->n; i++)
		if (p->y[i] >= target) {
			m->state = "already exceeded";
			m->xc = p->x[i];
			m->xlo = m->xhi = NAN;
			snprintf(m->why, sizeof m->why, "snapshot #%lld reached"
			    " it", (long long)p->id[i]);
			return (int)i;
		}
	return -1;
}

enum { P_MODEL, P_N, P_SLOPE, P_RATE, P_R2, P_RMSE, P_CROSS, P_LO, P_HI,
    P_DAYS, P_STATE, P_DOUBLING, P_TARGET, P_WHY };

/* The slope of the linear model is in the metric's unit per day; that of
 * the exponential model, a line in ln N, is a rate: the share N grows by
 * per day (continuously compounded). Each has its column. */
static const struct rcol_spec proj_cols[] = {
	[P_MODEL] = { "model", "Model", NULL, CF_PLAIN, 0 },
	[P_N] = { "n", "Snapshots", NULL, CF_PLAIN, 0 },
	[P_SLOPE] = { "slope_per_day", "Slope", NULL, CF_PLAIN, 1 },
	[P_RATE] = { "rate_per_day", "Rate per day", "%", CF_PCT, 2 },
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
	[P_TARGET] = { "target", "Target", NULL, CF_PLAIN, 0 },
	[P_WHY] = { "why", "Why no date or bound", NULL, CF_PLAIN, 0 },
};

void
space_growth_fit_slope_col(struct rcol_spec *c, enum opts_metric metric)
{
	int bytes = space_growth_pts_is_bytes(metric);

	c->unit = bytes ? "bytes/day" : metric == OPTS_FILES ? "files/day" :
	    "inodes/day";
	c->fmt = bytes ? CF_BYTES : CF_PLAIN;
	c->decimals = bytes ? 2 : 1;
}

/* A column in the metric's unit. */
static void
metric_col(struct rcol_spec *c, enum opts_metric metric, int decimals)
{
	int bytes = space_growth_pts_is_bytes(metric);

	c->unit = space_growth_pts_unit(metric);
	c->fmt = bytes ? CF_BYTES : CF_PLAIN;
	c->decimals = bytes ? 2 : decimals;
}

struct rtable *
space_growth_fit_proj_table(struct result *r, const char *title,
    enum opts_metric metric)
{
	struct rcol_spec c[sizeof proj_cols / sizeof *proj_cols];
	struct rtable *t;

	memcpy(c, proj_cols, sizeof c);
	space_growth_fit_slope_col(&c[P_SLOPE], metric);
	metric_col(&c[P_RMSE], metric, 1);
	metric_col(&c[P_TARGET], metric, 0);
	t = result_table(r, "projection", title, c, sizeof c / sizeof *c);
	result_wide(t, "n,r2,rmse,days_to_crossing,doubling_days,target,why");
	return t;
}

const char *
space_growth_fit_count(double v, int bytes, char *buf, size_t len)
{
	char h[32];

	if (v == floor(v) && fabs(v) < 1e15)
		human_real(v, 0, buf, len);
	else
		snprintf(buf, len, "%.15g", v);
	if (bytes) {
		size_t n = strlen(buf);
		snprintf(buf + n, len - n, " bytes (%s)", human_bytes(v, 2, h,
		    sizeof h));
	}
	return buf;
}

int64_t
space_growth_fit_time(int64_t t0, double x)
{
	return t0 + (int64_t)llround(x * GROWTH_DAY);
}

/* Within 100 years of the latest point: a date means something. */
static int
near(double x, double xlast)
{
	return x == x && fabs(x - xlast) <= HORIZON_DAYS;
}

int64_t
space_growth_fit_day(int64_t t0, double xlast, double x)
{
	if (!near(x, xlast))
		return -1;
	return (int64_t)floor(((double)t0 + x * GROWTH_DAY) / GROWTH_DAY) *
	    86400;
}

/* A crossing as the UTC day holding it; none beyond the horizon. */
static void
put_day(struct rtable *t, size_t row, int col, int64_t t0, double xlast,
    double x)
{
	int64_t d = space_growth_fit_day(t0, xlast, x);

	if (d != -1)
		result_set_int(t, row, col, d);
}

void
space_growth_fit_proj_row(struct rtable *t, const struct proj *m, size_t n,
    int64_t t0, double xlast)
{
	size_t row = result_row(t);

	result_set_text(t, row, P_MODEL, m->model);
	result_set_int(t, row, P_N, (int64_t)n);
	space_snapout_real(t, row, strcmp(m->model, "exponential") ? P_SLOPE :
	    P_RATE, m->slope);
	space_snapout_real(t, row, P_R2, m->r2);
	space_snapout_real(t, row, P_RMSE, m->rmse);
	put_day(t, row, P_CROSS, t0, xlast, m->xc);
	put_day(t, row, P_LO, t0, xlast, m->xlo);
	put_day(t, row, P_HI, t0, xlast, m->xhi);
	space_snapout_real(t, row, P_DAYS, m->xc - xlast);
	result_set_text(t, row, P_STATE, m->state);
	space_snapout_real(t, row, P_DOUBLING, m->doubling);
	space_snapout_real(t, row, P_TARGET, m->target);
	if (m->why[0])
		result_set_text(t, row, P_WHY, m->why);
}

void
space_growth_fit_note_far(struct result *r, const struct proj *m, double xlast)
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
