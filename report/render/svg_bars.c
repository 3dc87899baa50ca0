/*
 * svg_bars: grouped bars, one group per table row, labelled by the x
 * column; NULL values draw no bar.
 */
#include <math.h>

#include "render.h"
#include "svg_int.h"

void
svg_bars_plot(FILE *f, const struct rtable *t, const struct rfigure *fig)
{
	double lo = INFINITY, hi = -INFINITY, bottom = SVG_H - SVG_BOTTOM - 40;
	double left = SVG_LEFT, width = SVG_W - SVG_RIGHT - SVG_LEFT;
	const char *label[8], *color[8];
	char buf[128], lab[128], ytitle[256];
	struct axis y;

	for (size_t r = 0; r < t->nrow; r++)
		for (int k = 0; k < fig->ny; k++) {
			double v = result_num(t, r, fig->ycol[k]);

			if (!isnan(v) && !(fig->ylog && v <= 0))
				lo = fmin(lo, v), hi = fmax(hi, v);
		}
	if (!(hi >= lo)) {
		svg_frame_nodata(f, fig, "No values to plot.");
		return;
	}
	if (fig->ylog)
		svg_axis_init(&y, AX_LOG, lo, hi, bottom, SVG_TOP, 0,
		    &t->col[fig->ycol[0]]);
	else
		svg_axis_init(&y, AX_LIN, fmin(0, lo), fmax(0, hi), bottom,
		    SVG_TOP, 1, &t->col[fig->ycol[0]]);
	svg_frame_open(f, fig, SVG_H);
	svg_axis_draw(f, NULL, &y, NULL, svg_axis_title(fig->ylabel,
	    &y, &t->col[fig->ycol[0]], ytitle, sizeof ytitle));
	double band = width / (double)t->nrow, bar = band * 0.8 / fig->ny;
	double base = fig->ylog ? bottom : svg_axis_px(&y, 0);

	fputs("<g class=\"data\">\n", f);
	for (size_t r = 0; r < t->nrow; r++)
		for (int k = 0; k < fig->ny; k++) {
			double py = svg_axis_px(&y, result_num(t, r,
			    fig->ycol[k]));

			if (isnan(py))
				continue;
			snprintf(lab, sizeof lab, "%s: %s",
			    result_text_cell(t, r, fig->xcol, buf, sizeof buf),
			    t->col[fig->ycol[k]].title);
			svg_draw_rect(f,
			    left + band * ((double)r + 0.1) + bar * k,
			    fmin(py, base), bar, fabs(base - py),
			    svg_draw_color((size_t)k), lab);
		}
	fputs("</g>\n<g class=\"ticks\" fill=\"#333333\">\n", f);
	size_t every = (size_t)ceil(14.0 * (double)t->nrow / width);

	for (size_t r = 0; r < t->nrow; r += every ? every : 1) {
		double x = left + band * ((double)r + 0.5);
		char rot[80];

		snprintf(rot, sizeof rot, "transform=\"rotate(-35 %.1f %.1f)\"",
		    x, bottom + 12);
		svg_draw_short_label(result_text_cell(t, r, fig->xcol, buf,
		    sizeof buf),
		    16, lab, sizeof lab);
		svg_draw_text(f, x, bottom + 12, "end", rot, lab);
	}
	if (fig->xlabel)
		svg_draw_text(f, left + width / 2, SVG_H - 8, "middle",
		    "font-weight=\"bold\"", fig->xlabel);
	fputs("</g>\n", f);
	for (int k = 0; k < fig->ny; k++)
		label[k] = t->col[fig->ycol[k]].title,
		    color[k] = svg_draw_color((size_t)k);
	svg_draw_legend(f, SVG_LEFT, label, color, (size_t)fig->ny);
	svg_frame_close(f);
}
