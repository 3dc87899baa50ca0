/*
 * svg_int: the plot primitives behind svg_figure (render_int.h), shared by the
 * files svg*.c. Every coordinate is printed with one decimal and every
 * string is escaped, so the same figure always gives the same bytes.
 */
#ifndef IOCENSUS_SVG_INT_H
#define IOCENSUS_SVG_INT_H

#include <stdio.h>

#include "result/result.h"

/* Figure geometry, px. */
#define SVG_W		960.0
#define SVG_H		320.0
#define SVG_LEFT	84.0
#define SVG_RIGHT	18.0
#define SVG_TOP		34.0
#define SVG_BOTTOM	54.0
#define SVG_HEADROOM	8.0	/* frame top to the top of a y axis: a curve
				   at the axis maximum stays visible */

#define AXIS_MAXTICKS	16

enum axis_kind { AX_LIN, AX_LOG, AX_TIME };

struct axis {
	enum axis_kind kind;
	double lo, hi;		/* data range (AX_LOG: both > 0) */
	double p0, p1;		/* pixels of lo and hi */
	size_t nticks;
	double tick[AXIS_MAXTICKS];
	char label[AXIS_MAXTICKS][40];
	int exp;		/* a linear byte axis: its unit, 1024^exp */
};

/* Choose the range and ticks. lo/hi: the data extent (finite; for AX_LOG
 * positive). grow: a linear axis may widen to whole ticks (y axes).
 * col: the column whose format labels the ticks. */
void svg_axis_init(struct axis *a, enum axis_kind kind, double lo, double hi,
    double p0, double p1, int grow, const struct rcol *col);
/* Pixel of v, or NAN when v cannot be drawn (NaN, <= 0 on a log axis). */
double svg_axis_px(const struct axis *a, double v);
/* The frame, grid lines, tick labels and both axis titles. The frame
 * spans x (or the default plot width) and, upwards from y's p0, to
 * SVG_TOP. */
void svg_axis_draw(FILE *f, const struct axis *x, const struct axis *y,
    const char *xlabel, const char *ylabel);
/* An axis title that names its unit, as the column's format and the
 * axis imply, unless the label has one in parentheses: a CF_PCT column
 * plots percent ("share (%)"), a linear byte axis its ticks' unit ("used
 * space (TiB)"), a log one bytes, times UTC, a count its column's unit. */
const char *svg_axis_title(const char *label, const struct axis *a,
    const struct rcol *col, char *buf, size_t len);

/* Drawing. */
void svg_draw_num(FILE *f, double v);	/* "%.1f", never "-0.0" */
void svg_draw_text(FILE *f, double x, double y, const char *anchor,
    const char *attrs, const char *s);
void svg_draw_rect(FILE *f, double x, double y, double w, double h,
    const char *fill, const char *title);
/* The same with attributes of our own (fill, class, stroke) verbatim. */
void svg_draw_rect_attrs(FILE *f, double x, double y, double w, double h,
    const char *attrs, const char *title);
const char *svg_draw_color(size_t series);
/* Code points (an invalid byte counts as one): the bytes of the first n
 * of s, and how many the first nbytes of s hold. */
size_t svg_draw_cp_bytes(const char *s, size_t n);
size_t svg_draw_cp_in(const char *s, size_t nbytes);
/* At most maxcp code points of s, with an ellipsis when cut. */
const char *svg_draw_short_label(const char *s, size_t maxcp, char *buf,
    size_t len);
/* A generous estimate of the width of s in px at font size px. */
double svg_draw_text_width(const char *s, double px);

/* A polyline built point by point. A run of one point becomes a dot.
 * Consecutive points in one pixel column are reduced to the first, the
 * lowest, the highest and the last, which draws the same picture. */
struct svg_line {
	FILE *f;
	const char *color;
	size_t n;		/* points in the current run */
	int col_open;
	double col;		/* current pixel column */
	double first[2], min[2], max[2], last[2];
	int min_before_max;
	size_t emitted;
	double prev[2];		/* last point written */
};
void svg_draw_line_begin(struct svg_line *l, FILE *f, const char *color);
void svg_draw_line_point(struct svg_line *l, double x, double y);
void svg_draw_line_break(struct svg_line *l);	/* end the run (NULL value) */

/* Legend entries laid out left to right in the top margin, from x0. */
void svg_draw_legend(FILE *f, double x0, const char *const *label,
    const char *const *color, size_t n);

/* The <svg> element of fig, height px tall, and its end. */
void svg_frame_open(FILE *f, const struct rfigure *fig, double height);
void svg_frame_close(FILE *f);
/* A figure with nothing to draw says so, inside its data group. */
void svg_frame_nodata(FILE *f, const struct rfigure *fig, const char *why);

/* A rectangle, px. */
struct svg_box {
	double x, y, w, h;
};

/* The squarified treemap layout (svg_squarify.c): out[i] is the
 * rectangle of v[i] (a value <= 0: an empty box), the n of them tiling
 * frame with areas proportional to the values, laid in the order given
 * (largest first gives the squarest). */
void svg_squarify(const double *v, size_t n, struct svg_box frame,
    struct svg_box *out);

/* Plots by kind (svg.c, svg_bars.c). */
void svg_xy_plot(FILE *f, const struct rtable *t, const struct rfigure *fig);
void svg_bars_plot(FILE *f, const struct rtable *t,
    const struct rfigure *fig);
void svg_heat_plot(FILE *f, const struct rtable *t,
    const struct rfigure *fig);
void svg_treemap_plot(FILE *f, const struct rtable *t,
    const struct rfigure *fig);

#endif
