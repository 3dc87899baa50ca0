/*
 * svg_draw: the marks every plot is made of (svg_int.h): numbers at a fixed
 * precision, escaped text, rectangles, reduced polylines and the legend.
 */
#include <math.h>
#include <string.h>

#include "fmt.h"
#include "svg_int.h"

void
svg_draw_num(FILE *f, double v)
{
	v = round(v * 10) / 10;
	if (v == 0)
		v = 0;		/* -0.0 prints as "-0.0": not deterministic enough */
	fprintf(f, "%.1f", v);
}

/* attrs: extra attributes written verbatim (our own constants only). */
void
svg_draw_text(FILE *f, double x, double y, const char *anchor,
    const char *attrs,
    const char *s)
{
	fputs("<text x=\"", f);
	svg_draw_num(f, x);
	fputs("\" y=\"", f);
	svg_draw_num(f, y);
	fprintf(f, "\" text-anchor=\"%s\"%s%s>", anchor, attrs ? " " : "",
	    attrs ? attrs : "");
	fmt_html_str(f, s);
	fputs("</text>\n", f);
}

void
svg_draw_rect(FILE *f, double x, double y, double w, double h, const char *fill,
    const char *title)
{
	char attrs[64];

	snprintf(attrs, sizeof attrs, "fill=\"%s\"", fill);
	svg_draw_rect_attrs(f, x, y, w, h, attrs, title);
}

/* attrs: written verbatim (our own constants only). */
void
svg_draw_rect_attrs(FILE *f, double x, double y, double w, double h,
    const char *attrs, const char *title)
{
	fputs("<rect x=\"", f);
	svg_draw_num(f, x);
	fputs("\" y=\"", f);
	svg_draw_num(f, y);
	fputs("\" width=\"", f);
	svg_draw_num(f, w);
	fputs("\" height=\"", f);
	svg_draw_num(f, h);
	fprintf(f, "\" %s", attrs);
	if (!title) {
		fputs("/>\n", f);
		return;
	}
	fputs("><title>", f);
	fmt_html_str(f, title);
	fputs("</title></rect>\n", f);
}

/* Okabe-Ito: distinguishable with every common colour-vision deficiency. */
const char *
svg_draw_color(size_t series)
{
	static const char *const pal[] = {
		"#0072b2", "#d55e00", "#009e73", "#e69f00", "#cc79a7",
		"#56b4e9", "#000000", "#f0e442"
	};

	return pal[series % (sizeof pal / sizeof *pal)];
}

void
svg_draw_line_begin(struct svg_line *l, FILE *f, const char *color)
{
	memset(l, 0, sizeof *l);
	l->f = f;
	l->color = color;
}

static void
print_xy(FILE *f, const double p[2])
{
	svg_draw_num(f, p[0]);
	putc(',', f);
	svg_draw_num(f, p[1]);
}

/* The first point of a run waits in prev until a second one arrives: a
 * run of one point becomes a dot, not an empty polyline. */
static void
put_point(struct svg_line *l, const double p[2])
{
	if (l->emitted && round(p[0] * 10) == round(l->prev[0] * 10) &&
	    round(p[1] * 10) == round(l->prev[1] * 10))
		return;		/* same spot at our precision */
	if (l->emitted == 1) {
		fputs("<polyline fill=\"none\" stroke-width=\"1.5\" "
		    "stroke-linejoin=\"round\" points=\"", l->f);
		print_xy(l->f, l->prev);
	}
	if (l->emitted >= 1) {
		putc(' ', l->f);
		print_xy(l->f, p);
	}
	l->prev[0] = p[0], l->prev[1] = p[1];
	l->emitted++;
}

/* Write the reduced points of the pixel column just finished. */
static void
flush_column(struct svg_line *l)
{
	if (!l->col_open)
		return;
	put_point(l, l->first);
	put_point(l, l->min_before_max ? l->min : l->max);
	put_point(l, l->min_before_max ? l->max : l->min);
	put_point(l, l->last);
	l->col_open = 0;
}

void
svg_draw_line_point(struct svg_line *l, double x, double y)
{
	double p[2] = { x, y }, col = floor(x);

	if (l->col_open && col != l->col)
		flush_column(l);
	if (!l->col_open) {
		l->col_open = 1;
		l->col = col;
		memcpy(l->first, p, sizeof p);
		memcpy(l->min, p, sizeof p);
		memcpy(l->max, p, sizeof p);
		l->min_before_max = 1;
	}
	/* Screen y grows downwards: "min" is the smallest y value drawn. */
	if (y < l->min[1]) {
		memcpy(l->min, p, sizeof p);
		l->min_before_max = 0;
	}
	if (y > l->max[1]) {
		memcpy(l->max, p, sizeof p);
		l->min_before_max = 1;
	}
	memcpy(l->last, p, sizeof p);
	l->n++;
}

void
svg_draw_line_break(struct svg_line *l)
{
	flush_column(l);
	if (l->emitted > 1)
		fprintf(l->f, "\" stroke=\"%s\"/>\n", l->color);
	else if (l->emitted == 1) {
		/* One point: a polyline would have no extent; draw a dot. */
		fputs("<circle cx=\"", l->f);
		svg_draw_num(l->f, l->prev[0]);
		fputs("\" cy=\"", l->f);
		svg_draw_num(l->f, l->prev[1]);
		fprintf(l->f, "\" r=\"2.5\" fill=\"%s\"/>\n", l->color);
	}
	l->n = 0;
	l->emitted = 0;
}

size_t
svg_draw_cp_bytes(const char *s, size_t n)
{
	size_t i = 0;

	for (; s[i] && n > 0; n--) {
		int k = fmt_utf8_len(s + i);

		i += k ? (size_t)k : 1;
	}
	return i;
}

size_t
svg_draw_cp_in(const char *s, size_t nbytes)
{
	size_t n = 0;

	for (size_t i = 0; i < nbytes && s[i]; n++) {
		int k = fmt_utf8_len(s + i);

		i += k ? (size_t)k : 1;
	}
	return n;
}

/* At most maxcp code points of s, with an ellipsis when cut. */
const char *
svg_draw_short_label(const char *s, size_t maxcp, char *buf, size_t len)
{
	size_t i = svg_draw_cp_bytes(s, maxcp);

	snprintf(buf, len, "%.*s%s", (int)i, s, s[i] ? "\xe2\x80\xa6" : "");
	return buf;
}

/* Sans-serif glyphs average about 0.55 em; 0.62 em leaves room for wide
 * fonts and capitals. */
double
svg_draw_text_width(const char *s, double px)
{
	return 0.62 * px * (double)svg_draw_cp_in(s, strlen(s));
}

void
svg_draw_legend(FILE *f, double x0, const char *const *label,
    const char *const *color, size_t n)
{
	double x = x0;

	for (size_t i = 0; i < n; i++) {
		svg_draw_rect(f, x, 12, 12, 12, color[i], NULL);
		svg_draw_text(f, x + 17, 22.5, "start", NULL, label[i]);
		x += 17 + svg_draw_text_width(label[i], 11) + 18;
	}
}
