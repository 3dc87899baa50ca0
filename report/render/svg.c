/*
 * svg: one figure as an inline <svg> (svg_figure in svg_int.h): checks
 * that its columns exist, then hands it to the plot of its kind.
 */
#include "render_int.h"
#include "svg_int.h"

static int
col_ok(const struct rtable *t, int c)
{
	return c >= 0 && (size_t)c < t->ncol;
}

void
svg_figure(FILE *f, const struct result *r, const struct rfigure *fig)
{
	const struct rtable *t;
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
	if (!ok)
		svg_frame_nodata(f, fig, "Figure columns out of range.");
	else if (t->nrow == 0)
		svg_frame_nodata(f, fig, "No data.");
	else if (fig->kind == FIG_BARS)
		svg_bars_plot(f, t, fig);
	else if (fig->kind == FIG_HEAT)
		svg_heat_plot(f, t, fig);
	else
		svg_xy_plot(f, t, fig);
}
