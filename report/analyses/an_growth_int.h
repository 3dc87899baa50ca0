/*
 * an_growth_int: what the growth analyses share (an_growth.c for one file
 * system, an_growth_sum.c for the total over several): the points of one
 * file system, its two models, the projection table and the figure's
 * table (growth_fit.c, an_growth_figure.c). study-analyses.md 1.6 and 4.
 */
#ifndef IOCENSUS_AN_GROWTH_INT_H
#define IOCENSUS_AN_GROWTH_INT_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#include "analyses.h"
#include "query/query.h"
#include "an_fit_int.h"
#include "result/result.h"

#define GROWTH_DAY 86400.0
#define HORIZON_DAYS 36525.0	/* 100 years of 365.25 days */
#define FIG_SPANS 10		/* the figure ends this many observed spans
				   after the last snapshot, at the latest */
#define GRID_STEPS 64		/* even steps of the figure's time axis */

/* The complete snapshots of one file system in time order, x in days
 * since the first. */
struct points {
	size_t n;
	int64_t *id, *t;
	i128 *v;		/* files or bytes, exact */
	double *x, *y;		/* days since the first point; value */
	const char *fs;
};

/* One model's outcome; NAN marks what is not defined. */
struct proj {
	const char *model, *state;
	double slope, r2, rmse, doubling;
	double xc, xlo, xhi;	/* crossings, days since the first point */
};

/* A fitted model, for the figure: fitted = 0 when there is no line. */
struct gfit {
	struct ols f;
	int fitted, logy;
};

/* The distinct file-system names of s[0..n), in the order of s, into
 * names (room for n); returns how many. */
size_t an_growth_fit_fs_names(const struct snap *s, size_t n,
    const char **names);
/* Sort s by start time and keep the complete snapshots of p->fs, with
 * --project and --metric applied. 0, or -1 with err. */
int an_growth_fit_points(sqlite3 *db, const struct an_opts *o, struct snap *s,
    size_t n, struct points *p, char *err, size_t errlen);
void an_growth_fit_points_free(struct points *p);

/* A model without a line: every number NaN, "not determinable". */
void an_growth_fit_undetermined(struct proj *m);
/* A crossing xc days after the first point, the last at xlast: "projected",
 * or "beyond 100 years" past the horizon. */
void an_growth_fit_crossing(struct proj *m, double xc, double xlast);
/* Fit one model (logy: on ln y, crossing ln target) and set its state,
 * slope, fit quality and crossings. */
void an_growth_fit_model(struct proj *m, const struct points *p, double target,
    int logy, struct gfit *g);
/* The latest point is at or above the target: the model is "already
 * exceeded" at the first point at or above it, whose index is returned;
 * -1 otherwise. */
int an_growth_fit_exceeded(struct proj *m, const struct points *p,
    double target);

/* The projection table, and one row of it: n points, x measured in days
 * from t0, xlast the latest point. */
struct rtable *an_growth_fit_proj_table(struct result *r, const char *title);
void an_growth_fit_proj_row(struct rtable *t, const struct proj *m, size_t n,
    int64_t t0, double xlast);
/* A note for each crossing that is n/a because it lies beyond 100
 * years, unlike the model's state. */
void an_growth_fit_note_far(struct result *r, const struct proj *m,
    double xlast);

/* The figure's table of one file system: observed points (markers), the
 * fitted lines up to their crossing of the target, the linear model's
 * 95% prediction band (3 or more points) and the target, from the first
 * snapshot to the crossing (or the figure's horizon). */
void an_growth_figure(struct result *r, const struct points *p,
    const struct proj *m, const struct gfit *g, double target,
    const char *unit);

/* A row of the figure: a time, and the point taken then (-1: none). */
struct grow_row {
	int64_t t;
	long point;
};

/* The rows of a figure from t0 to t1: GRID_STEPS + 1 even steps, the
 * extra times, and every point of p (NULL: none), sorted by time; a step
 * or extra time equal to another row's is left out, points never are.
 * Returns the rows (free them), *n their count. */
struct grow_row *an_growth_figure_rows(int64_t t0, int64_t t1,
    const int64_t *extra,
    size_t nextra, const struct points *p, size_t *n);
/* A target as people read it: "1,000,000,000" (a fraction as given). */
const char *an_growth_fit_count(double v, char *buf, size_t len);
/* The UTC second of x days after t0. */
int64_t an_growth_fit_time(int64_t t0, double x);

/* The total over every file system (an_growth_sum.c); s: all the
 * snapshots. NULL with err on error. */
struct result *an_growth_sum(sqlite3 *db, const struct an_opts *o,
    struct snap *s, size_t n, char *err, size_t errlen);

#endif
