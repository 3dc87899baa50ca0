/*
 * html_table: one table of the report page (html_table in render.h), laid
 * out to fit the page without a horizontal scrollbar. Column widths are
 * estimated from the text (DejaVu Sans advances, the widest common
 * sans-serif font, so other fonts fit too): a table that fits is printed
 * as it is; a one-row table that does not becomes a list of name and
 * value; a wider one is set smaller and tighter, and if still too wide,
 * split into stacked tables of consecutive columns, each repeating the
 * leading name columns that identify a row. A grouped table's first
 * column is a heading row over each group, not a column.
 */
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

/* Widths in em of the table's font. The page's column is 1052 px: 74.7 em
 * of the table font (.88 of 16 px), 82.2 em of the compact one (.8); the
 * budgets keep a margin for the estimate. The padding of a cell (left and
 * right) comes from the page's CSS (render_html.c). */
#define FIT_EM		70.0
#define FIT_EM_COMPACT	78.0
#define PAD_EM		1.1
#define PAD_EM_COMPACT	0.8
/* A text column wraps at spaces, and anywhere in a word longer than
 * LONG_WORD_EM (a path, a host name); it is counted at least as wide as
 * its longest other word and, beyond that, at most TEXT_EM. */
#define TEXT_EM		12.0
#define LONG_WORD_EM	14.0
#define MAX_KEYS	2

enum layout { LAY_PLAIN, LAY_LIST, LAY_COMPACT, LAY_SPLIT };

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

static int
text_column(const struct rtable *t, size_t c, size_t rows)
{
	for (size_t r = 0; r < rows; r++)
		if (result_cell(t, r, (int)c)->kind != CK_TEXT &&
		    result_cell(t, r, (int)c)->kind != CK_NULL)
			return 0;
	return 1;
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

/* A table being laid out: its shown rows and, per column, the estimated
 * width and whether its words may break anywhere; first: the first
 * column laid out as a column (1 when the first names groups). */
struct tab {
	const struct rtable *t;
	size_t rows;
	double *w;
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

static void
header_cell(FILE *f, const struct rcol *col, const char *tag)
{
	char ubuf[64];
	const char *unit = result_text_unit(col, ubuf, sizeof ubuf);

	fprintf(f, "<%s>", tag);
	fmt_html_str(f, col->title);
	if (unit) {
		fputs(" <span class=\"unit\">(", f);
		fmt_html_str(f, unit);
		fputs(")</span>", f);
	}
	fputs(tag[1] == 'h' ? "</th>" : "</td>", f);
}

static void
data_cell(FILE *f, const struct tab *b, size_t r, size_t c)
{
	enum cell_kind k = result_cell(b->t, r, (int)c)->kind;
	char buf[128];

	if (k == CK_NULL)
		fputs("<td class=\"na\">", f);
	else if (k != CK_TEXT)
		fputs("<td class=\"num\">", f);
	else
		fputs(b->anywhere[c] ? "<td class=\"wrap\">" : "<td>", f);
	fmt_html_str(f, result_text_cell(b->t, r, (int)c, buf, sizeof buf));
	fputs("</td>", f);
}

/* A table of the columns col[0..n); part and nparts number the pieces of
 * a split table. */
static void
table_part(FILE *f, const struct tab *b, const size_t *col, size_t n,
    int compact, size_t part, size_t nparts)
{
	fprintf(f, "<div class=\"scroll\"><table%s>\n<caption>", compact ?
	    " class=\"compact\"" : "");
	fmt_html_str(f, b->t->title);
	if (nparts > 1)
		fprintf(f, " (%zu of %zu)", part + 1, nparts);
	fputs("</caption>\n<thead><tr>", f);
	for (size_t i = 0; i < n; i++)
		header_cell(f, &b->t->col[col[i]], "th");
	fputs("</tr></thead>\n<tbody>\n", f);
	for (size_t r = 0; r < b->rows; r++) {
		group_row(f, b, r, n);
		fputs("<tr>", f);
		for (size_t i = 0; i < n; i++)
			data_cell(f, b, r, col[i]);
		fputs("</tr>\n", f);
	}
	if (b->t->nrow == 0)
		fprintf(f, "<tr><td class=\"na\" colspan=\"%zu\">no rows</td>"
		    "</tr>\n", n ? n : 1);
	fputs("</tbody>\n</table></div>\n", f);
}

/* A one-row table as a list: each column's header, then its value. */
static void
table_list(FILE *f, const struct tab *b)
{
	fputs("<div class=\"scroll\"><table class=\"list\">\n<caption>", f);
	fmt_html_str(f, b->t->title);
	fputs("</caption>\n<tbody>\n", f);
	for (size_t c = 0; c < b->t->ncol; c++) {
		fputs("<tr>", f);
		header_cell(f, &b->t->col[c], "th scope=\"row\"");
		data_cell(f, b, 0, c);
		fputs("</tr>\n", f);
	}
	fputs("</tbody>\n</table></div>\n", f);
}

/* Split into parts of consecutive columns after the key columns (the
 * leading name columns, else the first), balanced by width, each within
 * the compact budget. */
static void
table_split(FILE *f, const struct tab *b)
{
	const struct rtable *t = b->t;
	size_t nkey = b->first, *col = xcalloc(t->ncol + 1, sizeof *col);
	size_t *end = xcalloc(t->ncol + 1, sizeof *end), nparts = 0, k;
	double key, rest, room, done = 0, cur = 0;

	while (nkey < b->first + MAX_KEYS && nkey + 1 < t->ncol &&
	    text_column(t, nkey, b->rows))
		nkey++;
	nkey = nkey > b->first ? nkey : b->first + 1;
	key = sum_em(b->w + b->first, nkey - b->first, PAD_EM_COMPACT);
	rest = sum_em(b->w + nkey, t->ncol - nkey, PAD_EM_COMPACT);
	room = FIT_EM_COMPACT - key > 10 ? FIT_EM_COMPACT - key : 10;
	k = (size_t)(rest / room) + 1;
	/* Part p ends where the widths reach p/k of the rest (a column
	 * goes where its middle falls), never past the room. */
	for (size_t c = nkey; c < t->ncol; c++) {
		double wc = b->w[c] + PAD_EM_COMPACT;

		if (cur > 0 && (cur + wc > room || done + wc / 2 > rest *
		    (double)(nparts + 1) / (double)k)) {
			end[nparts++] = c;
			cur = 0;
		}
		cur += wc;
		done += wc;
	}
	end[nparts++] = t->ncol;
	for (size_t p = 0, c = nkey; p < nparts; p++) {
		size_t n = 0;

		for (size_t i = b->first; i < nkey; i++)
			col[n++] = i;
		for (; c < end[p]; c++)
			col[n++] = c;
		table_part(f, b, col, n, 1, p, nparts);
	}
	free(end);
	free(col);
}

static enum layout
choose(const struct tab *b)
{
	size_t n = b->t->ncol - b->first;

	if (sum_em(b->w + b->first, n, PAD_EM) <= FIT_EM)
		return LAY_PLAIN;
	if (b->t->nrow == 1)
		return LAY_LIST;
	if (sum_em(b->w + b->first, n, PAD_EM_COMPACT) <= FIT_EM_COMPACT)
		return LAY_COMPACT;
	return LAY_SPLIT;
}

void
html_table(FILE *f, const struct rtable *t)
{
	size_t n = t->ncol + 1;
	struct tab b = { t, t->nrow < HTML_MAX_ROWS ? t->nrow : HTML_MAX_ROWS,
	    xcalloc(n, sizeof *b.w), xcalloc(n, sizeof *b.anywhere),
	    t->grouped && t->ncol > 1 };
	size_t *all = xcalloc(n, sizeof *all);
	int fold = t->nrow > HTML_OPEN_ROWS;
	enum layout lay;

	for (size_t c = 0; c < t->ncol; c++) {
		b.w[c] = column_em(t, c, b.rows, &b.anywhere[c]);
		all[c] = c;
	}
	lay = choose(&b);
	if (fold) {
		fputs("<details><summary>Table: ", f);
		fmt_html_str(f, t->title);
		fprintf(f, " (%zu rows)</summary>\n", t->nrow);
	}
	if (lay == LAY_LIST)
		table_list(f, &b);
	else if (lay == LAY_SPLIT)
		table_split(f, &b);
	else
		table_part(f, &b, all + b.first, t->ncol - b.first,
		    lay == LAY_COMPACT, 0, 1);
	if (b.rows < t->nrow)
		fprintf(f, "<p class=\"cut\">%zu of %zu rows shown; the "
		    "bundle (--bundle) holds them all.</p>\n", b.rows, t->nrow);
	if (fold)
		fputs("</details>\n", f);
	free(all);
	free(b.w);
	free(b.anywhere);
}
