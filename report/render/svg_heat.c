/*
 * svg_heat: a heat map of classes, e.g. Beacon's server x hour grid of
 * load classes. Lanes (rows) are the distinct x-column labels in order of
 * first appearance; cells sit at their column value; each run of equal,
 * adjacent cells in a lane is drawn as one rectangle.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "human.h"
#include "render.h"
#include "svg_int.h"
#include "xalloc.h"

struct heat_cell {
	size_t row;		/* table row */
	size_t lane;		/* by first appearance of label */
	double x;		/* column value, or category number */
	char *label, *cls;
};

static const struct {
	const char *name, *color;
} heat_class[] = {
	{ "idle", "#f1eef6" }, { "low", "#bdc9e1" }, { "mid", "#74a9cf" },
	{ "high", "#0570b0" }, { "partial", "#fdd49e" },
	{ "missing", "#bdbdbd" }, { "other", "#737373" },
};
#define NCLASS (sizeof heat_class / sizeof *heat_class)

static size_t
class_of(const char *cls)
{
	for (size_t i = 0; i + 1 < NCLASS; i++)
		if (!strcmp(cls, heat_class[i].name))
			return i;
	return NCLASS - 1;
}

static int
by_label(const void *a, const void *b)
{
	const struct heat_cell *p = a, *q = b;
	int c = strcmp(p->label, q->label);

	return c ? c : (p->row > q->row) - (p->row < q->row);
}

static int
by_lane_x(const void *a, const void *b)
{
	const struct heat_cell *p = a, *q = b;

	if (p->lane != q->lane)
		return (p->lane > q->lane) - (p->lane < q->lane);
	if (p->x != q->x)
		return (p->x > q->x) - (p->x < q->x);
	return (p->row > q->row) - (p->row < q->row);
}

static int
cmp_size(const void *a, const void *b)
{
	const size_t *p = a, *q = b;

	return (*p > *q) - (*p < *q);
}

static int
cmp_double(const void *a, const void *b)
{
	const double *p = a, *q = b;

	return (*p > *q) - (*p < *q);
}

/* Number the distinct labels by first appearance (c is reordered).
 * Returns the number of distinct labels. */
static size_t
assign_lanes(struct heat_cell *c, size_t n)
{
	size_t nl = 0, *first = xcalloc(n + 1, sizeof *first);

	qsort(c, n, sizeof *c, by_label);
	for (size_t i = 0; i < n; i++)
		if (i == 0 || strcmp(c[i].label, c[i - 1].label))
			first[nl++] = c[i].row;	/* smallest row of the label */
	qsort(first, nl, sizeof *first, cmp_size);
	for (size_t i = 0, l = 0; i < n; i++) {
		if (i == 0 || strcmp(c[i].label, c[i - 1].label))
			l = (size_t)((size_t *)bsearch(&c[i].row, first, nl,
			    sizeof *first, cmp_size) - first);
		c[i].lane = l;
	}
	free(first);
	return nl;
}

/* Column positions: the value when every cell has a number, else the
 * category number of its text. Returns the cell width (the smallest step
 * between distinct values). */
static double
place_columns(const struct rtable *t, const struct rfigure *fig,
    struct heat_cell *c, size_t n, int *numeric)
{
	double *xs = xcalloc(n, sizeof *xs), step = INFINITY;
	char buf[128];

	*numeric = 1;
	for (size_t i = 0; i < n; i++)
		*numeric &= !isnan(xs[i] = c[i].x = result_num(t, c[i].row,
		    fig->ycol[0]));
	if (!*numeric) {
		struct heat_cell *cat = xcalloc(n, sizeof *cat);

		for (size_t i = 0; i < n; i++) {
			cat[i].row = i;
			cat[i].label = (char *)result_text_cell(t, c[i].row,
			    fig->ycol[0], buf, sizeof buf);
			cat[i].label = xstrdup(cat[i].label);
		}
		assign_lanes(cat, n);
		for (size_t i = 0; i < n; i++) {
			c[cat[i].row].x = (double)cat[i].lane;
			free(cat[i].label);
		}
		free(cat);
		free(xs);
		return 1;
	}
	qsort(xs, n, sizeof *xs, cmp_double);
	for (size_t i = 1; i < n; i++)
		if (xs[i] > xs[i - 1])
			step = fmin(step, xs[i] - xs[i - 1]);
	free(xs);
	if (isinf(step))
		step = fig->xtime ? 3600 : 1;
	return step;
}

/* Lane labels longer than LANE_MAX_CP code points are shortened; a cut
 * in the middle keeps LANE_HEAD_CP of the start. */
#define LANE_MAX_CP	40
#define LANE_HEAD_CP	9
#define LANE_FONT	13.0

/* Bytes that every lane label starts with, and ends with, cut to whole
 * code points. c is sorted by lane: one label per run. */
static void
common_ends(const struct heat_cell *c, size_t n, size_t *pre, size_t *suf)
{
	const char *s0 = c[0].label;
	size_t l0 = strlen(s0), p = l0, q = l0;

	for (size_t i = 1; i < n; i++) {
		const char *s = c[i].label;
		size_t len = strlen(s), k;

		for (k = 0; k < p && s[k] == s0[k]; k++)
			;
		p = k;
		for (k = 0; k < q && k < len && s[len - 1 - k] ==
		    s0[l0 - 1 - k]; k++)
			;
		q = k;
	}
	while (p > 0 && ((unsigned char)s0[p] & 0xc0) == 0x80)
		p--;
	while (q > 0 && ((unsigned char)s0[l0 - q] & 0xc0) == 0x80)
		q--;
	*pre = p, *suf = q;
}

/* s as a lane label: whole when short; else at most LANE_MAX_CP code
 * points that keep the part where labels differ (pre and suf: the bytes
 * all labels share at the start and end): cut at the end when that part
 * comes early, else in the middle, keeping the distinctive tail. */
static const char *
lane_text(const char *s, size_t pre, size_t suf, char *buf, size_t len)
{
	size_t slen = strlen(s), n = svg_draw_cp_in(s, slen), head, tail;

	if (n <= LANE_MAX_CP)
		return s;
	if (suf > slen - pre)		/* one label: nothing differs */
		suf = slen - pre;
	if (svg_draw_cp_in(s, slen - suf) <= LANE_MAX_CP - 1)
		return svg_draw_short_label(s, LANE_MAX_CP - 1, buf, len);
	head = svg_draw_cp_in(s, pre) < LANE_HEAD_CP ? svg_draw_cp_in(s, pre) :
	    LANE_HEAD_CP;
	if (head == 0)
		head = (LANE_MAX_CP - 1) / 2;
	tail = LANE_MAX_CP - 1 - head;
	snprintf(buf, len, "%.*s\xe2\x80\xa6%s", (int)svg_draw_cp_bytes(s,
	    head), s,
	    s + svg_draw_cp_bytes(s, n - tail));
	return buf;
}

/* The shown lane labels, the longest's width in *w (px). */
static char **
lane_texts(const struct heat_cell *c, size_t n, size_t nl, double *w)
{
	char **txt = xcalloc(nl + 1, sizeof *txt), buf[512];
	size_t pre, suf;

	common_ends(c, n, &pre, &suf);
	*w = 0;
	for (size_t i = 0; i < n; i++)
		if (!txt[c[i].lane]) {
			txt[c[i].lane] = xstrdup(lane_text(c[i].label, pre, suf,
			    buf, sizeof buf));
			*w = fmax(*w, svg_draw_text_width(txt[c[i].lane],
			    LANE_FONT));
		}
	return txt;
}

/* Lane labels right-aligned before the grid at x; a shortened one keeps
 * the whole name as its tooltip. */
static void
lane_labels(FILE *f, const struct heat_cell *c, size_t n, char **txt,
    double x, double rh)
{
	size_t every = (size_t)ceil((LANE_FONT + 1) / rh);

	/* Larger than the axes' 11: the servers are what a reader looks
	 * up in this grid, and the page shows it at about its own size. */
	fprintf(f, "<g class=\"ticks\" fill=\"#333333\" font-size=\"%g\">\n",
	    LANE_FONT);
	for (size_t i = 0; i < n; i++) {
		const char *s = txt[c[i].lane];
		double y = SVG_TOP + rh * ((double)c[i].lane + 0.5) + 4;

		if ((i > 0 && c[i].lane == c[i - 1].lane) ||
		    c[i].lane % every != 0)
			continue;
		if (!strcmp(s, c[i].label)) {
			svg_draw_text(f, x, y, "end", NULL, s);
			continue;
		}
		fputs("<text x=\"", f);
		svg_draw_num(f, x);
		fputs("\" y=\"", f);
		svg_draw_num(f, y);
		fputs("\" text-anchor=\"end\"><title>", f);
		fmt_html_str(f, c[i].label);
		fputs("</title>", f);
		fmt_html_str(f, s);
		fputs("</text>\n", f);
	}
	fputs("</g>\n", f);
}

/* One rectangle per run of equal, adjacent cells in a lane. */
static void
runs(FILE *f, const struct heat_cell *c, size_t n, const struct axis *x,
    double step, double rh, int used[NCLASS], const struct rcol *xc,
    int numeric)
{
	char title[512], a[48], b[48];

	fputs("<g class=\"data\">\n", f);
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && c[j].lane == c[i].lane &&
		    !strcmp(c[j].cls, c[i].cls) &&
		    c[j].x - c[j - 1].x <= step * (1 + 1e-9); j++)
			;
		size_t k = class_of(c[i].cls);
		double x0 = svg_axis_px(x, c[i].x), x1 = svg_axis_px(x,
		    c[j - 1].x +
		    step);

		used[k] = 1;
		if (numeric)
			snprintf(title, sizeof title, "%s: %s, %s to %s",
			    c[i].label, c[i].cls, result_text_value(xc, c[i].x,
			    a,
			    sizeof a), result_text_value(xc, c[j - 1].x + step,
			    b,
			    sizeof b));
		else
			snprintf(title, sizeof title, "%s: %s", c[i].label,
			    c[i].cls);
		svg_draw_rect(f, x0, SVG_TOP + rh * (double)c[i].lane, x1 - x0,
		    rh >= 6 ? rh - 1 : rh, heat_class[k].color, title);
	}
	fputs("</g>\n", f);
}

void
svg_heat_plot(FILE *f, const struct rtable *t, const struct rfigure *fig)
{
	size_t n = t->nrow, nl, nleg = 0;
	struct heat_cell *c = xcalloc(n, sizeof *c);
	const struct rcol *xc = &t->col[fig->ycol[0]];
	const char *label[NCLASS], *color[NCLASS];
	int used[NCLASS] = { 0 }, numeric;
	double step, lo = INFINITY, hi = -INFINITY, rh;
	struct axis x, y;
	char buf[128];

	for (size_t r = 0; r < n; r++) {
		const struct cell *k = result_cell(t, r, fig->ycol[1]);

		c[r].row = r;
		c[r].label = xstrdup(result_text_cell(t, r, fig->xcol, buf,
		    sizeof buf));
		c[r].cls = xstrdup(k->kind == CK_TEXT ? k->v.s : "missing");
	}
	step = place_columns(t, fig, c, n, &numeric);
	for (size_t i = 0; i < n; i++)
		lo = fmin(lo, c[i].x), hi = fmax(hi, c[i].x + step);
	nl = assign_lanes(c, n);
	qsort(c, n, sizeof *c, by_lane_x);
	rh = nl <= 30 ? 20 : fmax(2, 600.0 / (double)nl);
	double bottom = SVG_TOP + rh * (double)nl;
	/* The label column fits the longest shown label and the lanes'
	 * title, which heads it (a rotated title would cross the labels of
	 * a short grid). */
	double lw, left;
	char **txt = lane_texts(c, n, nl, &lw);

	if (fig->xlabel)
		lw = fmax(lw, svg_draw_text_width(fig->xlabel, LANE_FONT + 1));
	left = fmax(SVG_LEFT, lw + 16);
	svg_axis_init(&x, fig->xtime || xc->fmt == CF_TIME ||
	    xc->fmt == CF_DATE ?
	    AX_TIME : AX_LIN, lo, hi, left, SVG_W - SVG_RIGHT, 0, xc);
	if (!numeric)
		x.nticks = 0;
	memset(&y, 0, sizeof y);
	y.p0 = bottom, y.p1 = SVG_TOP, y.hi = 1;
	svg_frame_open(f, fig, bottom + SVG_BOTTOM);
	/* xlabel names the lanes (xcol), ylabel the columns (ycol[0]). */
	svg_axis_draw(f, &x, &y, fig->ylabel, NULL);
	runs(f, c, n, &x, step, rh, used, xc, numeric);
	lane_labels(f, c, n, txt, left - 5, rh);
	if (fig->xlabel)
		svg_draw_text(f, left - 5, SVG_TOP - 6, "end",
		    "font-weight=\"bold\"", fig->xlabel);
	for (size_t k = 0; k < NCLASS; k++)
		if (used[k])
			label[nleg] = heat_class[k].name,
			    color[nleg++] = heat_class[k].color;
	svg_draw_legend(f, left, label, color, nleg);
	svg_frame_close(f);
	for (size_t i = 0; i < nl; i++)
		free(txt[i]);
	free(txt);
	for (size_t i = 0; i < n; i++)
		free(c[i].label), free(c[i].cls);
	free(c);
}
