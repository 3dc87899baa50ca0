/*
 * render_text: a result in the table format, for people (render.h).
 *
 * libsmartcols (util-linux: lsblk's and findmnt's tables) prints each
 * table, numbers right-aligned; the widths are chosen here, given a
 * terminal's, so that no word is cut inside (below). Around it this file
 * keeps the format of old: the result's title first, a title line over
 * each table, its header (wrapped at its words when it must), a rule of
 * dashes under it, "(no rows)" for an empty table, and the result's notes
 * last, wrapped at the width too. With no width, every line is whole and
 * the bytes of a table are those of old.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libsmartcols.h>

#include "fmt.h"
#include "render.h"
#include "render_int.h"
#include "xalloc.h"

/*
 * How a table gives way to a terminal's width, in the order tried (the
 * stages of libsmartcols, with words kept whole), each narrowing the
 * widest column it may first:
 *   GIVE_HEAD   the headers wider than their column's cells wrap at their
 *               words;
 *   GIVE_WRAP   the text columns narrow down to their longest word (and
 *               their header's), and their cells wrap at spaces, never
 *               inside a word;
 *   GIVE_TRUNC  then the words wider than their column (a long path, a
 *               UUID) are cut short with an ellipsis, the widest column
 *               first, down to TRUNC_MIN columns;
 *   then the columns at the right are left out, and named under the table.
 * Numbers, sizes, shares, dates, durations and flags never narrow.
 */
enum give { GIVE_HEAD, GIVE_WRAP, GIVE_TRUNC };

#define TRUNC_MIN	12
#define ELLIPSIS	"..."

/* The cells of the columns shown, as terminal text: row 0 is the header.
 * right: a column of numbers; nat, cellw: a column's widest text, header
 * included or not; word, hword: the widest word of its cells, of its
 * header; w: the width it is given; gone: left out to fit. */
struct lay {
	size_t n, nrow;
	char **txt;
	const char **key;
	int *right, *gone;
	size_t *nat, *cellw, *word, *hword, *w;
};

/* A failure of libsmartcols can only be memory running out. */
static void
scols_check(int rc)
{
	if (rc < 0) {
		fprintf(stderr, "%s: laying out a table: %s\n",
		    program_invocation_short_name, strerror(-rc));
		exit(3);
	}
}

static void *
scols_need(void *p)
{
	if (!p)
		scols_check(-ENOMEM);
	return p;
}

/* "Title (unit)", as result_text_unit says. */
static char *
header_text(const struct rcol *c)
{
	char ubuf[64];
	const char *unit = result_text_unit(c, ubuf, sizeof ubuf);
	char *h, *t;

	if (!unit)
		return fmt_term_str(c->title);
	h = xmalloc(strlen(c->title) + strlen(unit) + 4);
	sprintf(h, "%s (%s)", c->title, unit);
	t = fmt_term_str(h);
	free(h);
	return t;
}

/* The width of the widest word of s (words part at spaces). */
static size_t
word_width(const char *s)
{
	size_t best = 0;

	while (*s) {
		size_t len = strcspn(s, " ");
		char *w = xstrndup(s, len);
		size_t ww = fmt_term_width(w);

		best = ww > best ? ww : best;
		free(w);
		s += len;
		s += strspn(s, " ");
	}
	return best;
}

static void
lay_make(struct lay *l, const struct rtable *t, const int *idx, size_t n)
{
	char buf[128];

	l->n = n;
	l->nrow = t->nrow;
	l->txt = xcalloc((t->nrow + 1) * n + 1, sizeof *l->txt);
	l->key = xcalloc(n + 1, sizeof *l->key);
	l->right = xcalloc(n + 1, sizeof *l->right);
	l->gone = xcalloc(n + 1, sizeof *l->gone);
	l->nat = xcalloc(n + 1, sizeof *l->nat);
	l->cellw = xcalloc(n + 1, sizeof *l->cellw);
	l->word = xcalloc(n + 1, sizeof *l->word);
	l->hword = xcalloc(n + 1, sizeof *l->hword);
	l->w = xcalloc(n + 1, sizeof *l->w);
	for (size_t k = 0; k < n; k++) {
		l->key[k] = t->col[idx[k]].key;
		l->txt[k] = header_text(&t->col[idx[k]]);
		l->nat[k] = fmt_term_width(l->txt[k]);
		l->hword[k] = word_width(l->txt[k]);
	}
	for (size_t r = 0; r < t->nrow; r++)
		for (size_t k = 0; k < n; k++) {
			char *s = fmt_term_str(result_text_cell(t, r, idx[k],
			    buf, sizeof buf));
			int kind = result_cell(t, r, idx[k])->kind;
			size_t w = fmt_term_width(s), ww = word_width(s);

			l->right[k] |= kind != CK_TEXT && kind != CK_NULL;
			l->txt[(r + 1) * n + k] = s;
			l->nat[k] = w > l->nat[k] ? w : l->nat[k];
			l->cellw[k] = w > l->cellw[k] ? w : l->cellw[k];
			l->word[k] = ww > l->word[k] ? ww : l->word[k];
		}
	for (size_t k = 0; k < n; k++)
		l->w[k] = l->nat[k];
}

static void
lay_free(struct lay *l)
{
	for (size_t i = 0; i < (l->nrow + 1) * l->n; i++)
		free(l->txt[i]);
	free(l->txt);
	free(l->key);
	free(l->right);
	free(l->gone);
	free(l->nat);
	free(l->cellw);
	free(l->word);
	free(l->hword);
	free(l->w);
}

/* The narrowest column k may be at stage g (a number: its widest). */
static size_t
floor_of(const struct lay *l, size_t k, enum give g)
{
	size_t f = l->word[k];

	if (g == GIVE_HEAD || l->right[k])
		f = l->cellw[k];
	else if (g == GIVE_TRUNC && f > TRUNC_MIN)
		f = TRUNC_MIN;
	return f > l->hword[k] ? f : l->hword[k];
}

/* The width of the columns shown, two blanks apart: as they are given
 * (narrowest 0), or as narrow as they may be. */
static size_t
lay_total(const struct lay *l, int narrowest)
{
	size_t t = 0, shown = 0;

	for (size_t k = 0; k < l->n; k++)
		if (!l->gone[k])
			t += (narrowest ? floor_of(l, k, GIVE_TRUNC) :
			    l->w[k]) + (shown++ ? 2 : 0);
	return t;
}

/* The widest column shown still wider than its floor at stage g narrows
 * by one: 0 when there is none. */
static int
narrow_one(struct lay *l, enum give g)
{
	size_t best = l->n;

	for (size_t k = 0; k < l->n; k++)
		if (!l->gone[k] && l->w[k] > floor_of(l, k, g) &&
		    (best == l->n || l->w[k] > l->w[best]))
			best = k;
	if (best == l->n)
		return 0;
	l->w[best]--;
	return 1;
}

/* The widths within width (0: every column as wide as its text): the
 * stages of give, the columns at the right left out first if even the
 * narrowest table is too wide (never the first). Returns how many are. */
static size_t
lay_fit(struct lay *l, size_t width)
{
	size_t gone = 0;

	if (width == 0)
		return 0;
	for (size_t k = l->n; k-- > 1 && lay_total(l, 1) > width; gone++)
		l->gone[k] = 1;
	for (enum give g = GIVE_HEAD; g <= GIVE_TRUNC; g++)
		while (lay_total(l, 0) > width && narrow_one(l, g))
			continue;
	return gone;
}

/* The first cols columns of word, cut short with an ellipsis. */
static void
put_cut(FILE *f, const char *word, size_t cols)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = scols_need(open_memstream(&buf, &len));

	/* The first line of the word wrapped at cols: what fits. */
	fmt_term_wrap(m, word, cols - strlen(ELLIPSIS));
	fclose(m);
	fprintf(f, "%.*s%s", (int)strcspn(buf, "\n"), buf, ELLIPSIS);
	free(buf);
}

/* A text cell as it is printed in a column w wide: whole if it fits,
 * else its words wider than w cut short, then wrapped at its spaces,
 * its lines parted by newlines (libsmartcols' cell of several lines). */
static char *
cell_fit(const char *s, size_t w)
{
	char *cut = NULL, *out = NULL;
	size_t len = 0;
	FILE *m;

	if (fmt_term_width(s) <= w)
		return xstrdup(s);
	m = scols_need(open_memstream(&cut, &len));
	while (*s) {
		size_t n = strcspn(s, " ");
		char *word = xstrndup(s, n);

		if (fmt_term_width(word) > w)
			put_cut(m, word, w);
		else
			fputs(word, m);
		free(word);
		s += n;
		for (; *s == ' '; s++)
			putc(' ', m);
	}
	fclose(m);
	m = scols_need(open_memstream(&out, &len));
	fmt_term_wrap(m, cut, w);
	fclose(m);
	if (len && out[len - 1] == '\n')
		out[len - 1] = '\0';
	free(cut);
	return out;
}

/* The columns shown, laid out by libsmartcols at the widths of l: a
 * text cell wider than its column comes wrapped already (cell_fit), and
 * each column's header, which is not printed (wrapped_header is), is w
 * columns of dashes, the floor libsmartcols keeps it at. */
static struct libscols_table *
scols_of(const struct lay *l)
{
	struct libscols_table *tb = scols_need(scols_new_table());

	scols_check(scols_table_set_column_separator(tb, "  "));
	/* The cells are terminal text already (fmt_term_str): counted in
	 * UTF-8 where the system has it, else escaped once more. */
	scols_check(scols_table_enable_noencoding(tb, !!fmt_term_locale()));
	scols_check(scols_table_enable_noheadings(tb, 1));
	scols_check(scols_table_set_termforce(tb, SCOLS_TERMFORCE_NEVER));
	for (size_t k = 0; k < l->n; k++) {
		struct libscols_column *cl;
		char *h;

		if (l->gone[k])
			continue;
		h = xmalloc(l->w[k] + 1);
		memset(h, '-', l->w[k]);
		h[l->w[k]] = '\0';
		cl = scols_need(scols_table_new_column(tb, h, 0,
		    l->right[k] ? SCOLS_FL_RIGHT : SCOLS_FL_WRAP));
		free(h);
		if (l->right[k])
			continue;
		scols_check(scols_column_set_wrapfunc(cl,
		    scols_wrapnl_chunksize, scols_wrapnl_nextchunk, NULL));
		scols_check(scols_column_set_safechars(cl, "\n"));
	}
	for (size_t r = 0; r < l->nrow; r++) {
		struct libscols_line *ln = scols_need(scols_table_new_line(tb,
		    NULL));
		size_t c = 0;

		for (size_t k = 0; k < l->n; k++) {
			const char *s = l->txt[(r + 1) * l->n + k];
			char *fit;

			if (l->gone[k])
				continue;
			fit = l->right[k] ? xstrdup(s) : cell_fit(s, l->w[k]);
			scols_check(scols_line_refer_data(ln, c++, fit));
		}
	}
	return tb;
}

/* The rule under the header: a run of dashes as wide as each column. */
static void
rule(FILE *f, const struct lay *l)
{
	int first = 1;

	for (size_t k = 0; k < l->n; k++) {
		if (l->gone[k])
			continue;
		fputs(first ? "" : "  ", f);
		first = 0;
		for (size_t i = 0; i < l->w[k]; i++)
			putc('-', f);
	}
	putc('\n', f);
}

/* One column's header wrapped at its width: its lines, *nl of them. */
static char **
header_lines(const char *h, size_t width, size_t *nl)
{
	char *buf = NULL, **out = NULL, *save = NULL;
	size_t len = 0, cap = 0;
	FILE *f = open_memstream(&buf, &len);

	scols_need(f);
	fmt_term_wrap(f, h, width);
	fclose(f);
	*nl = 0;
	for (char *s = strtok_r(buf, "\n", &save); s;
	    s = strtok_r(NULL, "\n", &save)) {
		out = xgrow(out, *nl, &cap, sizeof *out, 4);
		out[(*nl)++] = xstrdup(s);
	}
	free(buf);
	return out;
}

/* The header over the columns shown, each wrapped at its width (one line
 * when every header fits its column), the lines of each column at the
 * bottom (next to the rule), numbers' headers to the right as the
 * numbers are. */
static void
wrapped_header(FILE *f, const struct lay *l)
{
	char ***hl = xcalloc(l->n + 1, sizeof *hl);
	size_t *nl = xcalloc(l->n + 1, sizeof *nl), h = 0;

	for (size_t k = 0; k < l->n; k++) {
		if (l->gone[k])
			continue;
		hl[k] = header_lines(l->txt[k], l->w[k], &nl[k]);
		h = nl[k] > h ? nl[k] : h;
	}
	for (size_t i = 0; i < h; i++) {
		char *line = NULL;
		size_t len = 0;
		FILE *m = scols_need(open_memstream(&line, &len));
		int first = 1;

		for (size_t k = 0; k < l->n; k++) {
			const char *s = i + nl[k] >= h ?
			    hl[k][i + nl[k] - h] : "";
			size_t pad = l->w[k] - fmt_term_width(s);

			if (l->gone[k])
				continue;
			fprintf(m, "%s%*s%s%*s", first ? "" : "  ",
			    l->right[k] ? (int)pad : 0, "", s,
			    l->right[k] ? 0 : (int)pad, "");
			first = 0;
		}
		fclose(m);
		while (len && line[len - 1] == ' ')
			line[--len] = '\0';
		fprintf(f, "%s\n", line);
		free(line);
	}
	for (size_t k = 0; k < l->n; k++) {
		for (size_t i = 0; i < nl[k]; i++)
			free(hl[k][i]);
		free(hl[k]);
	}
	free(hl);
	free(nl);
}

/* The lines of text, each ended by a newline; trim: without the blanks
 * libsmartcols pads a wrapped cell's other lines with. */
static void
put_lines(FILE *f, const char *text, int trim)
{
	while (*text) {
		size_t len = strcspn(text, "\n"), n = len;

		while (trim && n && text[n - 1] == ' ')
			n--;
		fwrite(text, 1, n, f);
		putc('\n', f);
		text += len + (text[len] == '\n');
	}
}

/* The columns left out to fit, by key, and how to see them. */
static void
gone_line(FILE *f, const struct lay *l, size_t width)
{
	char *line = NULL;
	size_t len = 0;
	FILE *m = scols_need(open_memstream(&line, &len));
	int first = 1;

	fprintf(m, "(left out to fit %zu columns:", width);
	for (size_t k = 0; k < l->n; k++)
		if (l->gone[k]) {
			fprintf(m, "%s %s", first ? "" : ",", l->key[k]);
			first = 0;
		}
	fputs("; --wide or -o shows them)", m);
	fclose(m);
	fmt_term_wrap(f, line, width);
	free(line);
}

/* Header, rule, rows ("(no rows)" for none: libsmartcols prints nothing
 * for an empty table), laid out within width (0: lines whole). */
static void
fit_table(FILE *f, struct lay *l, size_t width)
{
	size_t gone = lay_fit(l, width);

	wrapped_header(f, l);
	rule(f, l);
	if (l->nrow == 0)
		fputs("(no rows)\n", f);
	else {
		locale_t loc = fmt_term_locale(), old = 0;
		struct libscols_table *tb = scols_of(l);
		char *text = NULL;

		if (loc)
			old = uselocale(loc);
		scols_check(scols_print_table_to_string(tb, &text));
		if (loc)
			uselocale(old);
		put_lines(f, scols_need(text), width > 0);
		free(text);
		scols_unref_table(tb);
	}
	if (gone)
		gone_line(f, l, width);
}

/* A line of the result's own text (title, note), wrapped at width. */
static void
text_line(FILE *f, const char *s, size_t width)
{
	char *t = fmt_term_str(s);

	fmt_term_wrap(f, t, width);
	free(t);
}

/* Title, header, a rule, the rows: columns aligned, numbers right. */
static void
text_table(FILE *f, const struct rtable *t, const int *idx, size_t n,
    size_t width)
{
	struct lay l;

	putc('\n', f);
	text_line(f, t->title, width);
	lay_make(&l, t, idx, n);
	fit_table(f, &l, width);
	lay_free(&l);
	if (t->more)
		fprintf(f, "and %zu more (--top 0 shows every row)\n", t->more);
}

/* A detail table in the table format: what it is and how to get it. */
static void
detail_pointer(FILE *f, const struct rtable *t, size_t width)
{
	static const char fmt[] = "(%zu row%s: add --table %s, or --format"
	    " csv or json)";
	size_t len = sizeof fmt + 24 + strlen(t->key);
	char *line = xmalloc(len);

	putc('\n', f);
	text_line(f, t->title, width);
	snprintf(line, len, fmt, t->nrow, t->nrow == 1 ? "" : "s", t->key);
	text_line(f, line, width);
	free(line);
}

/* The result's title over its tables, its notes under them: a reader
 * finds the rows first, and what qualifies them after, as man pages put
 * NOTES after the text. */
void
render_text(FILE *f, const struct result *r, const struct render_view *v)
{
	/* --wide: the tables' lines whole; the notes still fit. */
	size_t width = v->wide ? 0 : v->width;

	if (!v->table)
		text_line(f, r->title, v->width);
	for (size_t i = 0; i < r->ntable; i++) {
		const struct rtable *t = &r->table[i];
		int *idx = xcalloc(t->ncol + 1, sizeof *idx);
		size_t n = v->table && strcmp(v->table, t->key) ? 0 :
		    render_columns(t, v, FMT_TABLE, idx);

		if (n && !v->table && t->detail && t->nrow > 0)
			detail_pointer(f, t, v->width);
		else if (n)
			text_table(f, t, idx, n, width);
		free(idx);
	}
	if (v->table || r->nnote == 0)
		return;
	fputs("\nNotes\n", f);
	for (size_t i = 0; i < r->nnote; i++)
		text_line(f, r->note[i], v->width);
}
