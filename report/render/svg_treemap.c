/*
 * svg_treemap: where the space is, as a treemap (FIG_TREE, result.h). The
 * top level (projects, the other projects last) is laid by svg_squarify
 * over the whole figure, each box's area its bytes; inside a project its
 * rows below (its largest directories, the rest of it) are laid the same
 * way over its box, which a white outline then marks. Colours are bins of
 * the colour column: growth on a diverging scale (purple shrank, orange
 * grew), a share such as the cold one on a sequential blue one; grey where
 * the value is missing. The legend names the bins.
 *
 * Every box has a <title> (its name, then each column of the figure as
 * "title: value", numbers exact), escaped as every text is
 * (svg_draw_rect_attrs); a box large enough has its name written in it,
 * cut to fit. A box too small to be drawn at the figure's precision
 * (0.1 px) is left out.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render_int.h"
#include "svg_int.h"
#include "xalloc.h"

#define TREE_H		560.0
#define TREE_MARGIN	8.0
#define LABEL_PX	11.0

enum { L_PROJECT = 0, L_DIR = 1, L_REST = 2, L_OTHERS = 3 };

struct bin {
	double below;		/* the bin holds values under this */
	const char *color, *label;
	int dark;		/* white text on it */
};

/* ColorBrewer PuOr, seven classes: safe for the common colour-vision
 * deficiencies and in grey print. */
static const struct bin diverging[] = {
	{ -0.5, "#542788", "\xe2\x89\xa4 \xe2\x88\x92" "50%", 1 },
	{ -0.1, "#998ec3", "\xe2\x88\x92" "50 to \xe2\x88\x92" "10%", 0 },
	{ -0.01, "#d8daeb", "\xe2\x88\x92" "10 to \xe2\x88\x92" "1%", 0 },
	{ 0.01, "#f7f7f7", "within \xc2\xb1" "1%", 0 },
	{ 0.1, "#fee0b6", "1 to 10%", 0 },
	{ 0.5, "#f1a340", "10 to 50%", 0 },
	{ INFINITY, "#b35806", "\xe2\x89\xa5 50%", 1 },
};

/* ColorBrewer Blues, five classes. */
static const struct bin sequential[] = {
	{ 0.2, "#eff3ff", "under 20%", 0 },
	{ 0.4, "#bdd7e7", "20 to 40%", 0 },
	{ 0.6, "#6baed6", "40 to 60%", 0 },
	{ 0.8, "#3182bd", "60 to 80%", 1 },
	{ INFINITY, "#08519c", "80% or more", 1 },
};

static const struct bin missing = { 0, "#bdbdbd", "n/a", 0 };

struct scale {
	const struct bin *bin;
	size_t n;
};

static const struct bin *
bin_of(const struct scale *s, double v)
{
	size_t i = 0;

	if (isnan(v))
		return &missing;
	/* The diverging bins' edges: a share of -0.5 is in the first, of
	 * 0.5 in the last (as their labels say). */
	while (i + 1 < s->n && !(v < s->bin[i].below ||
	    (s->bin == diverging && i == 0 && v == s->bin[0].below)))
		i++;
	return &s->bin[i];
}

static long long
int_at(const struct rtable *t, size_t row, int col)
{
	const struct cell *c = result_cell(t, row, col);

	return c->kind == CK_INT ? (long long)c->v.i : -1;
}

/* One "title: value" line of a box's title: an exact number with the
 * column's human form after it where that differs (bytes), a share as
 * a percentage. */
static void
title_line(FILE *f, const struct rtable *t, size_t row, int col)
{
	const struct rcol *c = &t->col[col];
	const struct cell *x = result_cell(t, row, col);
	char buf[128];

	fprintf(f, "; %s: ", c->title);
	if (x->kind == CK_NULL)
		fputs("n/a", f);
	else if (c->fmt == CF_PCT)
		fprintf(f, "%s%%", result_text_cell(t, row, col, buf,
		    sizeof buf));
	else if (render_number(f, x) && c->fmt == CF_BYTES)
		fprintf(f, " (%s)", result_text_cell(t, row, col, buf,
		    sizeof buf));
}

/* What a box is called: its project, its directory's path, the rest of
 * a project, the other projects. */
static void
box_name(FILE *f, const struct rtable *t, const struct rfigure *fig,
    size_t row, size_t parent)
{
	const struct cell *name = result_cell(t, parent, fig->xcol);
	const char *proj = name->kind == CK_TEXT ? name->v.s : "";
	const struct cell *path = result_cell(t, row, fig->ycol[TREE_PATH]);
	long long n = int_at(t, row, fig->ycol[TREE_COUNT]);

	switch (int_at(t, row, fig->ycol[TREE_LEVEL])) {
	case L_DIR:
		fputs(path->kind == CK_TEXT ? path->v.s : "", f);
		break;
	case L_REST:
		fprintf(f, "%s: the rest (its own files", proj);
		if (n > 0)
			fprintf(f, " and %lld more director%s", n, n == 1 ?
			    "y" : "ies");
		putc(')', f);
		break;
	case L_OTHERS:
		fprintf(f, "%lld other projects", n);
		break;
	default:
		fputs(proj, f);
	}
}

static char *
box_title(const struct rtable *t, const struct rfigure *fig, size_t row,
    size_t parent)
{
	static const int cols[] = { TREE_SIZE, TREE_GROWTH, TREE_GROWTH_SHARE,
	    TREE_COLD_SHARE };
	char *s = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&s, &len);

	box_name(f, t, fig, row, parent);
	for (size_t i = 0; i < sizeof cols / sizeof *cols; i++)
		title_line(f, t, row, fig->ycol[cols[i]]);
	fclose(f);
	return s;
}

/* The short name written in a box: a directory's last component. */
static const char *
short_name(const struct rtable *t, const struct rfigure *fig, size_t row,
    char *buf, size_t len)
{
	const struct cell *c;
	const char *s, *slash;

	switch (int_at(t, row, fig->ycol[TREE_LEVEL])) {
	case L_DIR:
		c = result_cell(t, row, fig->ycol[TREE_PATH]);
		s = c->kind == CK_TEXT ? c->v.s : "";
		return (slash = strrchr(s, '/')) ? slash + 1 : s;
	case L_REST:
		return "other";
	case L_OTHERS:
		snprintf(buf, len, "%lld other projects", int_at(t, row,
		    fig->ycol[TREE_COUNT]));
		return buf;
	default:
		c = result_cell(t, row, fig->xcol);
		return c->kind == CK_TEXT ? c->v.s : "";
	}
}

/* The name in box b, at its top (top) or its bottom, cut to its width;
 * none where it does not fit. */
static void
label(FILE *f, struct svg_box b, const char *s, int top, int dark, int bold)
{
	/* svg_draw_text_width's 0.62 em per character, and more for bold
	 * glyphs, which are wider. */
	double room = b.w - 6, em = bold ? 0.7 : 0.62;
	size_t maxcp = room > 0 ? (size_t)(room / (em * LABEL_PX)) : 0;
	char buf[256], attrs[96];

	if (maxcp < 4 || b.h < (top ? 16 : 30))
		return;
	svg_draw_short_label(s, maxcp - 1, buf, sizeof buf);
	snprintf(attrs, sizeof attrs, "class=\"tm-label\" fill=\"%s\"%s",
	    dark ? "#ffffff" : "#1a1a1a", bold ? " font-weight=\"bold\"" : "");
	svg_draw_text(f, b.x + 3, top ? b.y + 12 : b.y + b.h - 5, "start",
	    attrs, buf);
}

static int
drawable(struct svg_box b)
{
	return b.w >= 0.05 && b.h >= 0.05;
}

/* A box filled by its colour: a leaf of the map. */
static void
leaf(FILE *f, const struct rtable *t, const struct rfigure *fig,
    const struct scale *sc, size_t row, size_t parent, struct svg_box b)
{
	const struct bin *c = bin_of(sc, result_num(t, row,
	    fig->ycol[TREE_COLOUR]));
	long long level = int_at(t, row, fig->ycol[TREE_LEVEL]);
	char attrs[128], buf[64], *title;

	if (!drawable(b))
		return;
	snprintf(attrs, sizeof attrs, "class=\"tm-leaf tm-l%lld\" fill=\"%s\""
	    " stroke=\"#ffffff\" stroke-width=\"0.5\"", level, c->color);
	title = box_title(t, fig, row, parent);
	svg_draw_rect_attrs(f, b.x, b.y, b.w, b.h, attrs, title);
	free(title);
	label(f, b, short_name(t, fig, row, buf, sizeof buf), level ==
	    L_PROJECT || level == L_OTHERS, c->dark, level != L_DIR &&
	    level != L_REST);
}

/* Project row p, its rows below it p + 1 .. end, in box b. */
static void
project(FILE *f, const struct rtable *t, const struct rfigure *fig,
    const struct scale *sc, size_t p, size_t end, struct svg_box b)
{
	size_t n = end - p - 1;
	double *v, sum = 0;
	struct svg_box *in;
	const struct bin *c;
	char attrs[96], buf[64], *title;

	if (fig->tree_depth < 2 || n == 0) {
		leaf(f, t, fig, sc, p, p, b);
		return;
	}
	v = xcalloc(n, sizeof *v);
	in = xcalloc(n, sizeof *in);
	for (size_t i = 0; i < n; i++)
		sum += (v[i] = fmax(0, result_num(t, p + 1 + i,
		    fig->ycol[TREE_SIZE])));
	if (!(sum > 0) || !drawable(b)) {
		leaf(f, t, fig, sc, p, p, b);
		goto out;
	}
	svg_squarify(v, n, b, in);
	for (size_t i = 0; i < n; i++)
		leaf(f, t, fig, sc, p + 1 + i, p, in[i]);
	/* The project's outline over its parts, with its own title. */
	c = bin_of(sc, result_num(t, p, fig->ycol[TREE_COLOUR]));
	title = box_title(t, fig, p, p);
	snprintf(attrs, sizeof attrs, "class=\"tm-project\" fill=\"none\""
	    " stroke=\"#ffffff\" stroke-width=\"2\"");
	svg_draw_rect_attrs(f, b.x, b.y, b.w, b.h, attrs, title);
	free(title);
	label(f, b, short_name(t, fig, p, buf, sizeof buf), 1, c->dark &&
	    bin_of(sc, result_num(t, p + 1, fig->ycol[TREE_COLOUR]))->dark,
	    1);
out:
	free(v);
	free(in);
}

static void
legend(FILE *f, const struct scale *sc)
{
	const char *lab[8], *col[8];
	size_t n = 0;

	for (size_t i = 0; i < sc->n && n < 7; i++, n++)
		lab[n] = sc->bin[i].label, col[n] = sc->bin[i].color;
	lab[n] = missing.label, col[n++] = missing.color;
	svg_draw_legend(f, TREE_MARGIN, lab, col, n);
}

void
svg_treemap_plot(FILE *f, const struct rtable *t, const struct rfigure *fig)
{
	struct scale sc = { sequential, sizeof sequential / sizeof *sequential };
	struct svg_box frame = { TREE_MARGIN, SVG_TOP, SVG_W - 2 * TREE_MARGIN,
	    TREE_H - SVG_TOP - TREE_MARGIN }, *box;
	size_t *top = xcalloc(t->nrow + 1, sizeof *top), ntop = 0;
	double *v = xcalloc(t->nrow + 1, sizeof *v);

	if (fig->ycol[TREE_COLOUR] == fig->ycol[TREE_GROWTH_SHARE])
		sc = (struct scale){ diverging, sizeof diverging /
		    sizeof *diverging };
	for (size_t r = 0; r < t->nrow; r++) {
		long long level = int_at(t, r, fig->ycol[TREE_LEVEL]);

		if (level == L_PROJECT || level == L_OTHERS) {
			v[ntop] = result_num(t, r, fig->ycol[TREE_SIZE]);
			top[ntop++] = r;
		}
	}
	top[ntop] = t->nrow;
	box = xcalloc(ntop + 1, sizeof *box);
	svg_squarify(v, ntop, frame, box);
	svg_frame_open(f, fig, TREE_H);
	fputs("<g class=\"data treemap\">\n", f);
	for (size_t i = 0; i < ntop; i++)
		project(f, t, fig, &sc, top[i], top[i + 1], box[i]);
	fputs("</g>\n", f);
	legend(f, &sc);
	svg_frame_close(f);
	free(top);
	free(v);
	free(box);
}
