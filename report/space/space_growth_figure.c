/*
 * space_growth_figure: the table the growth figure draws
 * (space_growth_int.h). Its rows run from the first snapshot to the
 * crossing of the target: the snapshots themselves, GRID_STEPS + 1 even
 * steps and the crossings. Each model's line stops where it reaches the
 * target (an exponential beyond it would dwarf everything else); the
 * target is a horizontal series.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "space_growth_int.h"
#include "space_snapout_int.h"
#include "human.h"
#include "xalloc.h"

static int
row_cmp(const void *pa, const void *pb)
{
	const struct grow_row *a = pa, *b = pb;

	if (a->t != b->t)
		return a->t < b->t ? -1 : 1;
	return (a->point > b->point) - (a->point < b->point);
}

struct grow_row *
space_growth_figure_rows(int64_t t0, int64_t t1, const int64_t *extra,
    size_t nextra,
    const struct points *p, size_t *n)
{
	size_t np = p ? p->n : 0, all = GRID_STEPS + 1 + nextra + np, k = 0;
	struct grow_row *r = xcalloc(all + 1, sizeof *r);

	for (int64_t i = 0; i <= GRID_STEPS; i++)
		r[k++] = (struct grow_row){ t0 + (t1 - t0) * i / GRID_STEPS,
		    -1 };
	for (size_t i = 0; i < nextra; i++)
		r[k++] = (struct grow_row){ extra[i], -1 };
	for (size_t i = 0; i < np; i++)
		r[k++] = (struct grow_row){ p->t[i], (long)i };
	qsort(r, all, sizeof *r, row_cmp);
	/* A time with a point keeps the point's rows; a time without keeps
	 * one row. After sorting, a time's point rows follow its others. */
	*n = 0;
	for (size_t i = 0; i < all; i++) {
		int dup = r[i].point < 0 && ((*n && r[*n - 1].t == r[i].t) ||
		    (i + 1 < all && r[i + 1].t == r[i].t));
		if (!dup)
			r[(*n)++] = r[i];
	}
	return r;
}

enum { G_T, G_OBS, G_LIN, G_EXP, G_BLO, G_BHI, G_TARGET };

/* x days after the first point as a time, capped far beyond any figure
 * so that a crossing centuries ahead stays a number. */
static int64_t
time_at(const struct points *p, double x)
{
	return space_growth_fit_time(p->t[0], fmin(x, p->x[p->n - 1] + 2 *
	    HORIZON_DAYS));
}

/* The crossings ahead: each model's (tc, has), and every date of the
 * projection table (the linear model's 95% range included) in ext. */
static size_t
crossings(const struct proj *m, const struct points *p, int64_t *tc,
    int *has, int64_t *ext)
{
	size_t n = 0;

	for (int k = 0; k < 2; k++) {
		has[k] = !strcmp(m[k].state, "projected") ||
		    !strcmp(m[k].state, "beyond 100 years");
		if (!has[k])
			continue;
		ext[n++] = tc[k] = time_at(p, m[k].xc);
		if (k == 0 && m[k].xlo == m[k].xlo)
			ext[n++] = time_at(p, m[k].xlo);
		if (k == 0 && m[k].xhi == m[k].xhi)
			ext[n++] = time_at(p, m[k].xhi);
	}
	return n;
}

/* The figure's end: the latest crossing, at most FIG_SPANS observed
 * spans after the last snapshot; crossings beyond it are dropped. */
static int64_t
fig_end(const struct points *p, int64_t *ext, size_t *n, int *cut)
{
	int64_t last = p->t[p->n - 1], end = last;
	int64_t horizon = last + FIG_SPANS * (last - p->t[0]);
	size_t k = 0;

	for (size_t i = 0; i < *n; i++)
		end = ext[i] > end ? ext[i] : end;
	*cut = end > horizon;
	end = *cut ? horizon : end;
	for (size_t i = 0; i < *n; i++)
		if (ext[i] >= p->t[0] && ext[i] <= end)
			ext[k++] = ext[i];
	*n = k;
	return end;
}

static void
fill_row(struct rtable *t, size_t row, const struct grow_row *w,
    const struct points *p, const struct gfit *g, const int64_t *tc,
    const int *has, double target)
{
	double x = (double)(w->t - p->t[0]) / GROWTH_DAY;

	result_set_int(t, row, G_T, w->t);
	if (w->point >= 0)
		result_set_wide(t, row, G_OBS, p->v[w->point]);
	for (int k = 0; k < 2; k++) {
		double y;
		if (!g[k].fitted || (has[k] && w->t > tc[k]))
			continue;
		y = space_fit_predict(&g[k].f, x);
		result_set_real(t, row, k ? G_EXP : G_LIN, k ? exp(y) : y);
	}
	if (p->n >= 3 && g[0].fitted) {
		double y = space_fit_predict(&g[0].f, x),
		    h = space_fit_band_half(&g[0].f,
		    space_fit_t_quantile(0.975, (double)(p->n - 2)), x);
		result_set_real(t, row, G_BLO, y - h);
		result_set_real(t, row, G_BHI, y + h);
	}
	space_snapout_real(t, row, G_TARGET, target);
}

void
space_growth_figure(struct result *r, const struct points *p,
    const struct proj *m, const struct gfit *g, double target,
    enum opts_metric metric, const char *target_title)
{
	const char *unit = space_growth_pts_unit(metric);
	enum col_fmt f = space_growth_pts_is_bytes(metric) ? CF_BYTES :
	    CF_PLAIN;
	int dec = f == CF_BYTES ? 2 : 0;
	const struct rcol_spec cols[] = {
		[G_T] = { "t", "Time (UTC)", NULL, CF_TIME, 0 },
		[G_OBS] = { "observed", "Observed", unit, f, dec },
		[G_LIN] = { "linear_fit", "Linear fit", unit, f, dec },
		[G_EXP] = { "exponential_fit", "Exponential fit", unit, f,
		    dec },
		[G_BLO] = { "band_lo", "95% band, low", unit, f, dec },
		[G_BHI] = { "band_hi", "95% band, high", unit, f, dec },
		[G_TARGET] = { "target", target_title, unit, f, dec },
	};
	struct rtable *t = result_table(r, "projection_points", "Growth"
	    " figure: observed, fitted and projected", cols,
	    sizeof cols / sizeof *cols);
	struct rfigure *fig;
	struct grow_row *w = NULL;
	int64_t tc[2] = { 0, 0 }, ext[4], end = 0;
	int has[2] = { 0, 0 }, cut = 0;
	size_t nw = 0, next;
	char d[32];

	t->detail = 1;
	if (p->n >= 2) {
		next = crossings(m, p, tc, has, ext);
		end = fig_end(p, ext, &next, &cut);
		w = space_growth_figure_rows(p->t[0], end, ext, next, p, &nw);
	} else if (p->n == 1) {
		w = space_growth_figure_rows(p->t[0], p->t[0], NULL, 0, p, &nw);
	}
	for (size_t i = 0; i < nw; i++)
		fill_row(t, result_row(t), &w[i], p, g, tc, has, target);
	free(w);
	if (p->n == 1)
		result_note(r, "One complete snapshot: the figure shows it"
		    " alone, without a projection (a trend needs two"
		    " snapshots at different times).");
	if (cut)
		result_note(r, "The figure ends on %s, %d observed spans after"
		    " the last snapshot, before the target is reached.",
		    human_date(end, 0, d, sizeof d), FIG_SPANS);
	fig = result_figure(r, "growth", FIG_LINE, (size_t)r->ntable - 1,
	    "Growth over time and projection to the target", "Each point"
	    " (markers: a complete snapshot at its start time, one per day),"
	    " the linear and exponential models up to where each reaches the"
	    " target, the linear model's 95% prediction band (shaded, 3 or"
	    " more points), and the target.", "date (UTC)",
	    space_growth_pts_quantity(metric));
	fig->xcol = G_T;
	fig->ycol[0] = G_OBS;
	fig->ycol[1] = G_LIN;
	fig->ycol[2] = G_EXP;
	fig->ycol[3] = G_BLO;
	fig->ycol[4] = G_BHI;
	fig->ycol[5] = G_TARGET;
	fig->ny = 6;
	fig->markers = 1u << 0;
	fig->band = 1u << 3;		/* G_BLO to G_BHI, shaded */
	fig->xtime = 1;
}
