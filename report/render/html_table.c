/*
 * html_table: one table of the report page (html_table in render.h), laid
 * out to fit the window without a horizontal scrollbar and with no CSS
 * beyond the page's own, no script. The width the table needs is estimated
 * from its text (DejaVu Sans advances, the widest common sans-serif font,
 * so other fonts fit too) and given as a class, sN: the page's CSS
 * (render_html.c) sets it as it is in a window N hundred pixels wide or
 * more, and below that stacks it, each row a block of "column: value"
 * lines (every cell carries its column's name in data-label). A grouped
 * table's first column is a heading row over each group, not a column.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "human.h"
#include "render.h"
#include "render_int.h"
#include "xalloc.h"

/* Tables longer than this are folded; longer than HTML_MAX_ROWS cut
 * (the bundle has every row). */
#define HTML_OPEN_ROWS	30
#define HTML_MAX_ROWS	1000

/* The table's font is .88 of 16 px (render_html.c); a cell's padding
 * (left and right) is PAD_EM of it. The page around a table takes
 * PAGE_PX: main's padding, a scrollbar and a margin for the estimate. */
#define TABLE_PX_PER_EM	14.08
#define PAD_EM		1.1
#define PAGE_PX		88.0
/* A text column wraps at spaces, and anywhere in a word longer than
 * LONG_WORD_EM (a path, a host name); it is counted at least as wide as
 * its longest other word and, beyond that, at most TEXT_EM. */
#define TEXT_EM		12.0
#define LONG_WORD_EM	14.0

/* Advance of one code point in em (DejaVu Sans; bold about 10% wider). */
static double
glyph_em(const char *s, int n)
{
	unsigned char c = (unsigned char)*s;

	if (n != 1)
		return 0.8;
	if (c >= '0' && c <= '9')
		return 0.64;
	if (strchr(" .,:;'|", c))
		return 0.33;
	if (strchr("iljI!", c))
		return 0.29;
	if (strchr("ftr()[]/-", c))
		return 0.40;
	if (strchr("mwMW%@", c))
		return 0.95;
	if (c >= 'A' && c <= 'Z')
		return 0.74;
	return 0.62;
}

/* Width of s in em; words: the widest word only (where a header wraps). */
static double
text_em(const char *s, int bold, int words)
{
	double w = 0, max = 0;

	while (*s) {
		int n = fmt_utf8_len(s);

		if (words && *s == ' ')
			w = 0;
		else
			w += glyph_em(s, n ? n : 1) * (bold ? 1.1 : 1);
		max = w > max ? w : max;
		s += n ? n : 1;
	}
	return max;
}

static double
max2(double a, double b)
{
	return a > b ? a : b;
}

/* The narrowest a column can be set (em), without its padding: its
 * header's widest word, its widest number, its text cells' widest word
 * (unless wrapped anywhere) and up to TEXT_EM of their text. *anywhere:
 * a word is too long to keep whole. */
static double
column_em(const struct rtable *t, size_t c, size_t rows, int *anywhere)
{
	const struct rcol *col = &t->col[c];
	char buf[128], ubuf[64];
	const char *unit = result_text_unit(col, ubuf, sizeof ubuf);
	double w = text_em(col->title, 1, 1), text = 0, word = 0;

	if (unit) {
		snprintf(buf, sizeof buf, "(%s)", unit);
		w = max2(w, text_em(buf, 0, 1));
	}
	for (size_t r = 0; r < rows; r++) {
		const char *s = result_text_cell(t, r, (int)c, buf, sizeof buf);

		if (result_cell(t, r, (int)c)->kind == CK_TEXT) {
			text = max2(text, text_em(s, 0, 0));
			word = max2(word, text_em(s, 0, 1));
		} else
			w = max2(w, text_em(s, 0, 0));
	}
	*anywhere = word > LONG_WORD_EM;
	text = text < TEXT_EM ? text : TEXT_EM;
	return max2(max2(w, text), *anywhere ? 0 : word);
}

static double
sum_em(const double *w, size_t n, double pad)
{
	double s = 0;

	for (size_t i = 0; i < n; i++)
		s += w[i] + pad;
	return s;
}

/* A table being laid out: its shown rows, per column whether its words
 * may break anywhere; first: the first column laid out as a column (1
 * when the first names groups). */
struct tab {
	const struct rtable *t;
	size_t rows;
	int *anywhere;
	size_t first;
};

/* A grouped table's heading row, where row r starts a group. */
static void
group_row(FILE *f, const struct tab *b, size_t r, size_t n)
{
	char buf[128], prev[128];

	if (!b->first || (r > 0 && !strcmp(result_text_cell(b->t, r, 0, buf,
	    sizeof buf), result_text_cell(b->t, r - 1, 0, prev,
	    sizeof prev))))
		return;
	fprintf(f, "<tr class=\"group\"><th colspan=\"%zu\" scope=\"rowgroup\">",
	    n ? n : 1);
	fmt_html_str(f, result_text_cell(b->t, r, 0, buf, sizeof buf));
	fputs("</th></tr>\n", f);
}

/* A column's name: its title and, where the cells do not say it, its
 * unit: "Use (%)". html: the unit in a span of its own. */
static void
col_name(FILE *f, const struct rcol *col, int html)
{
	char ubuf[64];
	const char *unit = result_text_unit(col, ubuf, sizeof ubuf);

	fmt_html_str(f, col->title);
	if (!unit)
		return;
	fputs(html ? " <span class=\"unit\">(" : " (", f);
	fmt_html_str(f, unit);
	fputs(html ? ")</span>" : ")", f);
}

static void
data_cell(FILE *f, const struct tab *b, size_t r, size_t c)
{
	enum cell_kind k = result_cell(b->t, r, (int)c)->kind;
	char buf[128];

	fputs(k == CK_NULL ? "<td class=\"na\"" : k != CK_TEXT ?
	    "<td class=\"num\"" : b->anywhere[c] ? "<td class=\"wrap\"" :
	    "<td", f);
	fputs(" data-label=\"", f);
	col_name(f, &b->t->col[c], 0);
	fputs("\">", f);
	fmt_html_str(f, result_text_cell(b->t, r, (int)c, buf, sizeof buf));
	fputs("</td>", f);
}

/* Where a capped list says how many names it left out: after the names
 * shown, before its tail rows (a residual, a total). */
static size_t
more_at(const struct rtable *t)
{
	return t->nrow - (t->tail < t->nrow ? t->tail : t->nrow);
}

/* The names --top left out, a row of its own. */
static void
more_row(FILE *f, const struct rtable *t, size_t n)
{
	fprintf(f, "<tr class=\"more\"><td colspan=\"%zu\">and %zu more"
	    "</td></tr>\n", n ? n : 1, t->more);
}

static void
table_html(FILE *f, const struct tab *b, const char *size)
{
	size_t n = b->t->ncol - b->first;

	fprintf(f, "<div class=\"tw\"><table class=\"%s\">\n<caption>", size);
	fmt_html_str(f, b->t->title);
	fputs("</caption>\n<thead><tr>", f);
	for (size_t c = b->first; c < b->t->ncol; c++) {
		fputs("<th>", f);
		col_name(f, &b->t->col[c], 1);
		fputs("</th>", f);
	}
	fputs("</tr></thead>\n<tbody>\n", f);
	for (size_t r = 0; r < b->rows; r++) {
		if (b->t->more && r == more_at(b->t))
			more_row(f, b->t, n);
		group_row(f, b, r, n);
		fputs("<tr>", f);
		for (size_t c = b->first; c < b->t->ncol; c++)
			data_cell(f, b, r, c);
		fputs("</tr>\n", f);
	}
	if (b->t->more && b->rows <= more_at(b->t))
		more_row(f, b->t, n);
	else if (b->t->nrow == 0)
		fprintf(f, "<tr><td class=\"na\" colspan=\"%zu\">no rows</td>"
		    "</tr>\n", n ? n : 1);
	fputs("</tbody>\n</table></div>\n", f);
}

/* The class of a table wide_px wide: "sN", N its width in hundreds of
 * pixels (rounded up), the narrowest window that holds it unstacked;
 * "s0" for one that fits any, "sall" for one wider than the widest
 * class (render_int.h). */
static void
size_class(double wide_px, char *buf, size_t len)
{
	double n = ceil(wide_px / 100);

	if (n <= RENDER_STACK_MIN)
		snprintf(buf, len, "s0");
	else if (n > RENDER_STACK_MAX)
		snprintf(buf, len, "sall");
	else
		snprintf(buf, len, "s%d", (int)n);
}

void
html_table(FILE *f, const struct rtable *t)
{
	size_t n = t->ncol + 1;
	struct tab b = { t, t->nrow < HTML_MAX_ROWS ? t->nrow : HTML_MAX_ROWS,
	    xcalloc(n, sizeof *b.anywhere), t->grouped && t->ncol > 1 };
	double *w = xcalloc(n, sizeof *w);
	int fold = t->nrow > HTML_OPEN_ROWS;
	char size[16];

	for (size_t c = 0; c < t->ncol; c++)
		w[c] = column_em(t, c, b.rows, &b.anywhere[c]);
	size_class(sum_em(w + b.first, t->ncol - b.first, PAD_EM) *
	    TABLE_PX_PER_EM + PAGE_PX, size, sizeof size);
	if (fold) {
		fputs("<details><summary>Table: ", f);
		fmt_html_str(f, t->title);
		fprintf(f, " (%zu rows)</summary>\n", t->nrow + t->more);
	}
	table_html(f, &b, size);
	if (b.rows < t->nrow)
		fprintf(f, "<p class=\"cut\">%zu of %zu rows shown; the "
		    "bundle (--bundle) holds them all.</p>\n", b.rows, t->nrow);
	if (fold)
		fputs("</details>\n", f);
	free(w);
	free(b.anywhere);
}
