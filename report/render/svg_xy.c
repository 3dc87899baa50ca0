/*
 * svg_xy: the x/y plots: lines broken at NULL values, step CDFs, stacked
 * areas, point markers, the "no data" bands and, over them, the annotated
 * spans, whose labels stay inside the plot.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "render.h"
#include "svg_int.h"
#include "xalloc.h"

#define GAP_FILL	"#e4e4e4"
#define SPAN_FILL	"#f7cd45"	/* at opacity 0.5: #fbe6a2 on white */

/* Row r's y for series k: stacked series add up the ones before. NaN if
 * any value needed is NULL. */
static double
y_value(const struct rtable *t, const struct rfigure *fig, size_t r, int k)
{
	double sum = 0;

	for (int j = fig->stacked ? 0 : k; j <= k; j++)
		sum += result_num(t, r, fig->ycol[j]);
	return sum;
}

/* A row is drawn when its x can be placed and, stacked, all its y can. */
static int
row_drawable(const struct rtable *t, const struct rfigure *fig,
    const struct axis *x, size_t r)
{
	if (isnan(svg_axis_px(x, result_num(t, r, fig->xcol))))
		return 0;
	return !fig->stacked || !isnan(y_value(t, fig, r, fig->ny - 1));
}

/* Extents of the drawable values; 0 if there is none. A time axis spans
 * every row, also those without a value: missing time is drawn as such. */
static int
extents(const struct rtable *t, const struct rfigure *fig, double *xr,
    double *yr)
{
	int any = 0;

	xr[0] = yr[0] = INFINITY;
	xr[1] = yr[1] = -INFINITY;
	for (size_t r = 0; r < t->nrow; r++) {
		double x = result_num(t, r, fig->xcol);

		if (isnan(x) || (fig->xlog && x <= 0))
			continue;
		if (fig->xtime)
			xr[0] = fmin(xr[0], x), xr[1] = fmax(xr[1], x);
		for (int k = 0; k < fig->ny; k++) {
			double y = y_value(t, fig, r, k);

			if (isnan(y) || (fig->ylog && y <= 0))
				continue;
			any = 1;
			xr[0] = fmin(xr[0], x), xr[1] = fmax(xr[1], x);
			yr[0] = fmin(yr[0], y), yr[1] = fmax(yr[1], y);
		}
	}
	return any;
}

/* Rows of span labels: the extents of the labels placed so far. */
struct label_rows {
	size_t n;
	double *x0, *x1;
	size_t *row;
};

/* The first row (from the top) where [a, b) meets no placed label. */
static size_t
free_row(const struct label_rows *lr, double a, double b, size_t maxrow)
{
	for (size_t row = 0; row < maxrow; row++) {
		size_t i = 0;

		while (i < lr->n && !(lr->row[i] == row && a < lr->x1[i] + 4 &&
		    lr->x0[i] < b + 4))
			i++;
		if (i == lr->n)
			return row;
	}
	return maxrow - 1;
}

/* The annotated windows, shaded half-transparent over the gaps (drawn
 * before them), so that a window over missing data shows both. */
static void
span_rects(FILE *f, const struct rfigure *fig, const struct axis *x,
    const struct axis *y)
{
	for (size_t i = 0; i < fig->nspan; i++) {
		double a = svg_axis_px(x, fmax(fig->span[i].x0, x->lo));
		double b = svg_axis_px(x, fmin(fig->span[i].x1, x->hi));

		if (isnan(a) || isnan(b) || b <= a)
			continue;
		fputs("<g class=\"span\" fill-opacity=\"0.5\">\n", f);
		svg_draw_rect(f, a, SVG_TOP, b - a, y->p0 - SVG_TOP, SPAN_FILL,
		    fig->span[i].label);
		fputs("</g>\n", f);
	}
}

/* The windows' labels, above the data and inside the plot: each starts
 * at its window or, near the right edge, ends with it; it takes the first
 * row where it overlaps no label before it. */
static void
span_labels(FILE *f, const struct rfigure *fig, const struct axis *x,
    const struct axis *y)
{
	static const char attrs[] = "font-size=\"10\" fill=\"#7a5c00\" "
	    "stroke=\"#ffffff\" stroke-width=\"3\" paint-order=\"stroke\"";
	double left = x->p0 + 3, right = x->p1 - 3;
	size_t fit = (size_t)floor((right - left) / svg_draw_text_width("x",
	    10));
	size_t maxrow = (size_t)fmax(1, floor((y->p0 - SVG_TOP - 4) / 12));
	struct label_rows lr;
	char buf[512];

	lr.n = 0;
	lr.x0 = xcalloc(fig->nspan + 1, sizeof *lr.x0);
	lr.x1 = xcalloc(fig->nspan + 1, sizeof *lr.x1);
	lr.row = xcalloc(fig->nspan + 1, sizeof *lr.row);
	fputs("<g class=\"span-labels\">\n", f);
	for (size_t i = 0; i < fig->nspan; i++) {
		double a = svg_axis_px(x, fmax(fig->span[i].x0, x->lo));
		double b = svg_axis_px(x, fmin(fig->span[i].x1, x->hi));
		const char *s = fig->span[i].label;
		double w;
		int end;

		if (!s || isnan(a) || isnan(b) || b <= a)
			continue;
		s = svg_draw_short_label(s, fit, buf, sizeof buf);
		w = svg_draw_text_width(s, 10);
		/* Too long to start at its window: end where the window
		 * ends, or as far right as it must to stay in. */
		end = a + 2 + w > right;
		b = fmin(right, fmax(b - 2, left + w));
		a = end ? b - w : a + 2;
		lr.x0[lr.n] = a, lr.x1[lr.n] = a + w;
		lr.row[lr.n] = free_row(&lr, a, a + w, maxrow);
		svg_draw_text(f, end ? b : a, SVG_TOP + 12 + 12 *
		    (double)lr.row[lr.n], end ? "end" : "start", attrs, s);
		lr.n++;
	}
	fputs("</g>\n", f);
	free(lr.x0);
	free(lr.x1);
	free(lr.row);
}

/* Shade x ranges where no series has a value: missing data is shown as
 * missing. A NULL run reaches to the next row that has a value. Returns
 * whether anything was shaded. */
static int
gaps(FILE *f, const struct rtable *t, const struct rfigure *fig,
    const struct axis *x, const struct axis *y)
{
	int shaded = 0;
	double start = NAN, last = NAN;

	for (size_t r = 0; r <= t->nrow; r++) {
		int has = 0;
		double px = r < t->nrow ? svg_axis_px(x, result_num(t, r,
		    fig->xcol)) : NAN;

		if (r < t->nrow && isnan(px))
			continue;
		for (int k = 0; r < t->nrow && k < fig->ny; k++)
			has |= !isnan(result_num(t, r, fig->ycol[k]));
		if (r < t->nrow && !has) {
			if (isnan(start))
				start = px;
			last = px;
			continue;
		}
		if (!isnan(start)) {
			double end = r < t->nrow ? px : last;

			svg_draw_rect(f, start, SVG_TOP, fmax(end - start, 1),
			    y->p0 - SVG_TOP, GAP_FILL, "no data");
			shaded = 1;
		}
		start = NAN;
	}
	return shaded;
}

static void
series_line(FILE *f, const struct rtable *t, const struct rfigure *fig,
    const struct axis *x, const struct axis *y, int k)
{
	struct svg_line l;
	double prev = NAN;

	svg_draw_line_begin(&l, f, svg_draw_color((size_t)k));
	for (size_t r = 0; r < t->nrow; r++) {
		double px = svg_axis_px(x, result_num(t, r, fig->xcol));
		double py = svg_axis_px(y, y_value(t, fig, r, k));

		if (isnan(px))
			continue;
		if (isnan(py)) {
			svg_draw_line_break(&l);
			prev = NAN;
			continue;
		}
		/* A right-continuous step: hold the previous value up to x. */
		if (fig->kind == FIG_STEP && !isnan(prev))
			svg_draw_line_point(&l, px, prev);
		svg_draw_line_point(&l, px, py);
		prev = py;
	}
	/* A CDF holds its last value beyond its last edge. */
	if (fig->kind == FIG_STEP && !isnan(prev))
		svg_draw_line_point(&l, x->p1, prev);
	svg_draw_line_break(&l);
}

/* One band of a stacked area over the drawable run [a, b). */
static void
area_band(FILE *f, const struct rtable *t, const struct rfigure *fig,
    const struct axis *x, const struct axis *y, int k, size_t a, size_t b)
{
	fprintf(f, "<polygon fill=\"%s\" fill-opacity=\"0.7\" points=\"",
	    svg_draw_color((size_t)k));
	for (size_t r = a; r < b; r++) {
		svg_draw_num(f, svg_axis_px(x, result_num(t, r, fig->xcol)));
		putc(',', f);
		svg_draw_num(f, svg_axis_px(y, y_value(t, fig, r, k)));
		putc(' ', f);
	}
	for (size_t r = b; r-- > a;) {
		double base = k ? y_value(t, fig, r, k - 1) : 0;

		svg_draw_num(f, svg_axis_px(x, result_num(t, r, fig->xcol)));
		putc(',', f);
		svg_draw_num(f, isnan(svg_axis_px(y,
		    base)) ? y->p0 : svg_axis_px(y, base));
		putc(r > a ? ' ' : '"', f);
	}
	fputs("/>\n", f);
}

static void
stacked_areas(FILE *f, const struct rtable *t, const struct rfigure *fig,
    const struct axis *x, const struct axis *y)
{
	for (size_t a = 0; a < t->nrow;) {
		size_t b = a;

		while (b < t->nrow && row_drawable(t, fig, x, b))
			b++;
		for (int k = 0; b - a >= 2 && k < fig->ny; k++)
			area_band(f, t, fig, x, y, k, a, b);
		a = b > a ? b : a + 1;
	}
}

/* Whether series k is an edge of a band: 1 the low one, 2 the high. */
static int
band_edge(const struct rfigure *fig, int k)
{
	if (fig->band & (1u << k))
		return 1;
	return k > 0 && (fig->band & (1u << (k - 1))) ? 2 : 0;
}

/* The band between series k and k + 1, shaded over each run of rows
 * where both edges can be placed. */
static void
band_area(FILE *f, const struct rtable *t, const struct rfigure *fig,
    const struct axis *x, const struct axis *y, int k)
{
	for (size_t a = 0, b; a < t->nrow; a = b > a ? b : a + 1) {
		for (b = a; b < t->nrow; b++)
			if (isnan(svg_axis_px(x, result_num(t, b, fig->xcol))) ||
			    isnan(svg_axis_px(y, y_value(t, fig, b, k))) ||
			    isnan(svg_axis_px(y, y_value(t, fig, b, k + 1))))
				break;
		if (b - a < 2)
			continue;
		fprintf(f, "<polygon fill=\"%s\" fill-opacity=\"0.22\" "
		    "stroke=\"none\" points=\"", svg_draw_color((size_t)k));
		for (size_t r = a; r < b; r++) {
			svg_draw_num(f, svg_axis_px(x, result_num(t, r,
			    fig->xcol)));
			putc(',', f);
			svg_draw_num(f, svg_axis_px(y, y_value(t, fig, r,
			    k + 1)));
			putc(' ', f);
		}
		for (size_t r = b; r-- > a;) {
			svg_draw_num(f, svg_axis_px(x, result_num(t, r,
			    fig->xcol)));
			putc(',', f);
			svg_draw_num(f, svg_axis_px(y, y_value(t, fig, r, k)));
			putc(r > a ? ' ' : '"', f);
		}
		fputs("/>\n", f);
	}
}

/* A band's legend entry: its low edge's title up to the last comma
 * ("95% band, low": "95% band"). */
static const char *
band_label(const char *title, char *buf, size_t len)
{
	const char *comma = strrchr(title, ',');

	snprintf(buf, len, "%.*s", comma ? (int)(comma - title) :
	    (int)strlen(title), title);
	return buf;
}

/* Series k has a point the axes can place (stacked: a whole row). */
static int
series_drawn(const struct rtable *t, const struct rfigure *fig,
    const struct axis *x, const struct axis *y, int k)
{
	for (size_t r = 0; r < t->nrow; r++)
		if (row_drawable(t, fig, x, r) &&
		    !isnan(svg_axis_px(y, y_value(t, fig, r, k))))
			return 1;
	return 0;
}

/* A marker at each point of series k, over the lines. */
static void
series_markers(FILE *f, const struct rtable *t, const struct rfigure *fig,
    const struct axis *x, const struct axis *y, int k)
{
	for (size_t r = 0; r < t->nrow; r++) {
		double px = svg_axis_px(x, result_num(t, r, fig->xcol));
		double py = svg_axis_px(y, y_value(t, fig, r, k));

		if (isnan(px) || isnan(py))
			continue;
		fputs("<circle cx=\"", f);
		svg_draw_num(f, px);
		fputs("\" cy=\"", f);
		svg_draw_num(f, py);
		fprintf(f, "\" r=\"3.5\" fill=\"%s\" stroke=\"#ffffff\" "
		    "stroke-width=\"1\"/>\n", svg_draw_color((size_t)k));
	}
}

void
svg_xy_plot(FILE *f, const struct rtable *t, const struct rfigure *fig)
{
	const char *label[10], *color[10];
	double xr[2], yr[2], bottom = SVG_H - SVG_BOTTOM;
	struct axis x, y;
	char xtitle[256], ytitle[256], bandname[8][128];
	size_t n = 0;

	if (!extents(t, fig, xr, yr)) {
		svg_frame_nodata(f, fig, "No values to plot.");
		return;
	}
	/* A step's last rise would fall on the frame: leave room after it. */
	if (fig->kind == FIG_STEP && xr[1] > xr[0])
		xr[1] = fig->xlog ? xr[1] * 1.5 : xr[1] + (xr[1] - xr[0]) / 32;
	svg_axis_init(&x, fig->xtime ? AX_TIME : fig->xlog ? AX_LOG : AX_LIN,
	    xr[0], xr[1], SVG_LEFT, SVG_W - SVG_RIGHT, 0,
	    &t->col[fig->xcol]);
	if (fig->ylog)
		svg_axis_init(&y, AX_LOG, yr[0], yr[1], bottom,
		    SVG_TOP + SVG_HEADROOM, 0, &t->col[fig->ycol[0]]);
	else
		svg_axis_init(&y, AX_LIN, fmin(0, yr[0]), yr[1], bottom,
		    SVG_TOP + SVG_HEADROOM, 1, &t->col[fig->ycol[0]]);
	svg_frame_open(f, fig, SVG_H);
	if (gaps(f, t, fig, &x, &y))
		label[n] = "no data", color[n++] = GAP_FILL;
	span_rects(f, fig, &x, &y);
	svg_axis_draw(f, &x, &y, svg_axis_title(fig->xlabel, &x,
	    &t->col[fig->xcol], xtitle, sizeof xtitle), svg_axis_title(
	    fig->ylabel, &y, &t->col[fig->ycol[0]], ytitle, sizeof ytitle));
	fputs("<g class=\"data\">\n", f);
	for (int k = 0; k + 1 < fig->ny; k++)
		if (band_edge(fig, k) == 1)
			band_area(f, t, fig, &x, &y, k);
	if (fig->stacked && fig->kind == FIG_LINE)
		stacked_areas(f, t, fig, &x, &y);
	else
		for (int k = 0; k < fig->ny; k++)
			if (!band_edge(fig, k))
				series_line(f, t, fig, &x, &y, k);
	/* A figure of one x value is made of points: mark them all. */
	for (int k = 0; k < fig->ny; k++)
		if ((fig->markers & (1u << k)) || xr[0] == xr[1])
			series_markers(f, t, fig, &x, &y, k);
	fputs("</g>\n", f);
	span_labels(f, fig, &x, &y);
	/* The legend names what is drawn: a series without a point (a fit
	 * that needs more snapshots) is not listed. */
	for (int k = 0; k < fig->ny && k < 8; k++)
		if (band_edge(fig, k) != 2 && series_drawn(t, fig, &x, &y, k))
			label[n] = band_edge(fig, k) ? band_label(
			    t->col[fig->ycol[k]].title, bandname[k],
			    sizeof bandname[k]) : t->col[fig->ycol[k]].title,
			    color[n++] = svg_draw_color((size_t)k);
	svg_draw_legend(f, SVG_LEFT, label, color, n);
	svg_frame_close(f);
}
