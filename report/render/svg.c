/*
 * svg: one figure as an inline <svg> (svg_figure in svg_int.h): checks
 * that its columns exist, then hands it to the plot of its kind (a
 * treemap: svg_treemap.c); a plot over time shows the span with data
 * (svg_data_rows).
 */
#include <math.h>

#include "render_int.h"
#include "svg_int.h"

static int
col_ok(const struct rtable *t, int c)
{
	return c >= 0 && (size_t)c < t->ncol;
}

/* Row r has a value to plot. */
static int
has_value(const struct rtable *t, const struct rfigure *fig, size_t r)
{
	for (int k = 0; k < fig->ny && k < 8; k++)
		if (col_ok(t, fig->ycol[k]) && !isnan(result_num(t, r,
		    fig->ycol[k])))
			return 1;
	return 0;
}

int
svg_data_rows(const struct rtable *t, const struct rfigure *fig, size_t *a,
    size_t *b)
{
	*a = 0, *b = t->nrow;
	if (fig->kind == FIG_HEAT || fig->kind == FIG_TREE)
		return t->nrow > 0;
	while (*a < *b && !has_value(t, fig, *a))
		++*a;
	while (*b > *a && !has_value(t, fig, *b - 1))
		--*b;
	if (*a == *b)
		return 0;
	/* A plot over time starts and ends with its data; others keep
	 * every row (a bar per class, a CDF's edges). */
	if (!fig->xtime || fig->kind == FIG_BARS)
		*a = 0, *b = t->nrow;
	return 1;
}

void
svg_figure(FILE *f, const struct result *r, const struct rfigure *fig)
{
	struct rtable view;
	const struct rtable *t;
	size_t a, b;
	int ok;

	if (fig->table >= r->ntable) {
		svg_frame_nodata(f, fig, "Figure refers to no table.");
		return;
	}
	t = &r->table[fig->table];
	ok = col_ok(t, fig->xcol) && fig->ny >= 1 && fig->ny <= 8;
	for (int k = 0; ok && k < fig->ny; k++)
		ok = col_ok(t, fig->ycol[k]);
	if (fig->kind == FIG_HEAT)
		ok = col_ok(t, fig->xcol) && col_ok(t, fig->ycol[0]) &&
		    col_ok(t, fig->ycol[1]);
	if (fig->kind == FIG_TREE)
		ok = ok && fig->ny == TREE_NCOL;
	if (!ok)
		svg_frame_nodata(f, fig, "Figure columns out of range.");
	else if (t->nrow == 0)
		svg_frame_nodata(f, fig, "No data.");
	else if (fig->kind == FIG_BARS)
		svg_bars_plot(f, t, fig);
	else if (fig->kind == FIG_HEAT)
		svg_heat_plot(f, t, fig);
	else if (fig->kind == FIG_TREE)
		svg_treemap_plot(f, t, fig);
	else if (!svg_data_rows(t, fig, &a, &b))
		svg_frame_nodata(f, fig, "No values to plot.");
	else {
		/* rows a to b: the cells are row-major */
		view = *t;
		view.cell = t->cell + a * t->ncol;
		view.nrow = b - a;
		svg_xy_plot(f, &view, fig);
	}
}
