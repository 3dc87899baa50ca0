/*
 * space_growth_int: what the growth analyses share (space_growth.c for one file
 * system, space_growth_sum.c for the total over several, space_capacity.c for
 * the quarterly summary): the points of one file system or project
 * (space_growth_pts.c), its two models, the projection table (space_growth_fit.c)
 * and the figure's table (space_growth_figure.c). docs/analyses.md, "Growth
 * projections".
 *
 * Points: the complete snapshots of one file system, at their start times
 * (fsscan --as-of sets them), one per day: a snapshot that started less
 * than a day before the next one is a rescan, and the later one stands
 * for both. A snapshot without the metric (capacity unknown: written
 * before schema 6, or --as-of) is left out of that metric's points.
 */
#ifndef IOCENSUS_SPACE_GROWTH_INT_H
#define IOCENSUS_SPACE_GROWTH_INT_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#include "space.h"
#include "query/query.h"
#include "space_fit_int.h"
#include "result/result.h"

#define GROWTH_DAY 86400.0
#define HORIZON_DAYS 36525.0	/* 100 years of 365.25 days */
#define FIG_SPANS 10		/* the figure ends this many observed spans
				   after the last snapshot, at the latest */
#define GRID_STEPS 64		/* even steps of the figure's time axis */
#define NOW_SHARE 0.95		/* a line that crossed the target before
				   the latest point, at this share of it or
				   more: reached now */

/* One file system's (or project's) points in time order, x in days since
 * the first. cap[i]: the capacity a percentage target refers to at point
 * i (used + avail; fs_inodes; a project's limit), -1 when unknown. */
struct points {
	size_t n;
	int64_t *id, *t;
	i128 *v, *cap;		/* the metric's values and capacities,
				   exact */
	double *x, *y;		/* days since the first point; value */
	const char *fs;
	size_t nrescan;		/* complete snapshots that were rescans */
	size_t nmissing;	/* complete snapshots without the metric */
};

/* One model's outcome; NAN marks what is not defined. state is one of
 * "projected", "already exceeded", "not growing", "one snapshot",
 * "not determinable", "beyond 100 years", "no target"; why says in words
 * why a date or a bound is missing (NULL: nothing is). */
struct proj {
	const char *model, *state;
	char why[160];
	double slope, r2, rmse, doubling;
	double xc, xlo, xhi;	/* crossings, days since the first point */
	double target;
};

/* A fitted model, for the figure: fitted = 0 when there is no line. */
struct gfit {
	struct ols f;
	int fitted, logy;
};

/* ---- points (space_growth_pts.c) ---- */

/* The value and capacity of a metric in a snapshot (a project row when
 * r is not NULL): 1 known, 0 unknown; *cap -1 when unknown. */
int space_growth_pts_value(const struct snap *s, const struct prow *r,
    enum opts_metric m, i128 *v, i128 *cap);
/* The row of snapshot id among rows[a, b) (sorted by snapshot id), or
 * NULL. */
const struct prow *space_growth_pts_row(const struct prow *rows, size_t a,
    size_t b, int64_t id);
/* Fill p (p->fs set) from sorted s: o->metric of the file system or of
 * o->project, fitted on the snapshots started before o->win.to. 0, or -1
 * with err. */
int space_growth_pts_load(sqlite3 *db, const struct opts *o,
    const struct snap *s, size_t n, struct points *p, char *err,
    size_t errlen);
/* Notes on the complete snapshots that are not points: rescans, and
 * those without the metric. */
void space_growth_pts_note(struct result *r, const struct points *p,
    enum opts_metric m);
/* Room for n points. */
void space_growth_pts_alloc(struct points *p, size_t n);
/* Append a point; x is set from the first point's time. */
void space_growth_pts_add(struct points *p, int64_t id, int64_t t, i128 v,
    i128 cap);
void space_growth_pts_free(struct points *p);
/* Refuse a target whose unit does not fit the metric (a size for files,
 * a count suffix for bytes). 0, or -1 with a usage error in err. */
int space_growth_pts_check_target(const struct opts *o, char *err,
    size_t errlen);
/* The target of o in the metric's unit: a percentage of the capacity at
 * p's latest point (100% by default for used and inodes). 1 with *t, or
 * 0 when the capacity is unknown (why filled). */
int space_growth_pts_target(const struct opts *o, const struct points *p,
    double *t, char *why, size_t whylen);
/* Without --target, the metric's natural target is 100% of the capacity
 * a percentage refers to (space_growth_pts_target); where p's latest
 * point has none (a project without that limit, a snapshot without
 * statvfs), a usage error in err says which target to give: -1. 0 when
 * a target is given or known (or there is no point). */
int space_growth_pts_natural(const struct opts *o, const struct points *p,
    char *err, size_t errlen);
/* The usage error of a missing natural target (why: its reason): -1. */
int space_growth_pts_ask_target(const struct opts *o, const char *why,
    char *err, size_t errlen);
/* The unit of a metric's values ("files", "bytes", "inodes") and whether
 * they are bytes. */
const char *space_growth_pts_unit(enum opts_metric m);
/* What a metric measures, for an axis: "used space", "file count". */
const char *space_growth_pts_quantity(enum opts_metric m);
int space_growth_pts_is_bytes(enum opts_metric m);

/* ---- models (space_growth_fit.c) ---- */

/* A model without a line: every number NaN, "not determinable". */
void space_growth_fit_undetermined(struct proj *m);
/* A crossing xc days after the first point, the last at xlast with the
 * value ylast: "projected", or "beyond 100 years" past the horizon. The
 * one place a date is settled: a crossing before the latest point while
 * ylast is below target is the latest point at NOW_SHARE of the target or
 * more ("reached now"), else none ("not determinable"). */
void space_growth_fit_crossing(struct proj *m, double xc, double xlast,
    double ylast, double target);
/* Fit one model (logy: on ln y, crossing ln target) and set its state,
 * why, slope, fit quality and crossings: the point estimate whenever the
 * slope is positive, the 95% band's earliest and latest dates where the
 * band reaches the target. A point estimate is never before the latest
 * point while that point is below the target: at NOW_SHARE of it or
 * more it is the latest point ("reached now"), below there is none. */
void space_growth_fit_model(struct proj *m, const struct points *p,
    double target, int logy, struct gfit *g);
/* The latest point is at or above the target: the model is "already
 * exceeded" at the first point at or above it, whose index is returned;
 * -1 otherwise. */
int space_growth_fit_exceeded(struct proj *m, const struct points *p,
    double target);
/* A model whose target is unknown: "no target", with why. */
void space_growth_fit_no_target(struct proj *m, const char *why);

/* A column of a line's slope, in the metric's unit per day (bytes in
 * binary units). */
void space_growth_fit_slope_col(struct rcol_spec *c, enum opts_metric metric);
/* The projection table, and one row of it: n points, x measured in days
 * from t0, xlast the latest point. */
struct rtable *space_growth_fit_proj_table(struct result *r, const char *title,
    enum opts_metric metric);
void space_growth_fit_proj_row(struct rtable *t, const struct proj *m, size_t n,
    int64_t t0, double xlast);
/* The UTC day holding a crossing x days after t0, or -1 when there is
 * none or it lies beyond 100 years of xlast. */
int64_t space_growth_fit_day(int64_t t0, double xlast, double x);
/* A note for each crossing that is n/a because it lies beyond 100
 * years, unlike the model's state. */
void space_growth_fit_note_far(struct result *r, const struct proj *m,
    double xlast);

/* The figure's table of one file system: observed points (markers), the
 * fitted lines up to their crossing of the target, the linear model's
 * 95% prediction band (3 or more points, a shaded area) and the target,
 * from the first snapshot to the crossing (or the figure's horizon). */
void space_growth_figure(struct result *r, const struct points *p,
    const struct proj *m, const struct gfit *g, double target,
    enum opts_metric metric, const char *target_title);

/* A row of the figure: a time, and the point taken then (-1: none). */
struct grow_row {
	int64_t t;
	long point;
};

/* The rows of a figure from t0 to t1: GRID_STEPS + 1 even steps, the
 * extra times, and every point of p (NULL: none), sorted by time; a step
 * or extra time equal to another row's is left out, points never are.
 * Returns the rows (free them), *n their count. */
struct grow_row *space_growth_figure_rows(int64_t t0, int64_t t1,
    const int64_t *extra,
    size_t nextra, const struct points *p, size_t *n);
/* A target as people read it: "1,000,000,000" (a fraction as given), or
 * "50 TiB" for bytes. */
const char *space_growth_fit_count(double v, int bytes, char *buf, size_t len);
/* The UTC second of x days after t0. */
int64_t space_growth_fit_time(int64_t t0, double x);

/* The total over every file system (space_growth_sum.c); s: all the
 * snapshots, sorted. NULL with err on error. */
struct result *space_growth_sum(sqlite3 *db, const struct opts *o,
    struct snap *s, size_t n, char *err, size_t errlen);

#endif
