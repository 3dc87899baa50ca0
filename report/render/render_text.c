/*
 * render_text: a result in the table format, for people (render.h).
 *
 * libsmartcols (util-linux: lsblk's and findmnt's tables) lays each table
 * out: numbers right-aligned and never cut, and, given a terminal's
 * width, the widest text columns wrapped until the table fits. Around it
 * this file keeps the format of old: the result's title and notes (wrapped
 * at the width too), a title line over each table, a rule of dashes under
 * the header, "(no rows)" for an empty table. With no width, every line
 * is whole and the bytes are those of old.
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

/* The cells of the columns shown, as terminal text: row 0 is the header.
 * right: a column of numbers; nat: a column's widest text. */
struct lay {
	size_t n, nrow;
	char **txt;
	int *right;
	size_t *nat;
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

static void
lay_make(struct lay *l, const struct rtable *t, const int *idx, size_t n)
{
	char buf[128];

	l->n = n;
	l->nrow = t->nrow;
	l->txt = xcalloc((t->nrow + 1) * n + 1, sizeof *l->txt);
	l->right = xcalloc(n + 1, sizeof *l->right);
	l->nat = xcalloc(n + 1, sizeof *l->nat);
	for (size_t k = 0; k < n; k++) {
		l->txt[k] = header_text(&t->col[idx[k]]);
		l->nat[k] = fmt_term_width(l->txt[k]);
	}
	for (size_t r = 0; r < t->nrow; r++)
		for (size_t k = 0; k < n; k++) {
			char *s = fmt_term_str(result_text_cell(t, r, idx[k],
			    buf, sizeof buf));
			int kind = result_cell(t, r, idx[k])->kind;
			size_t w = fmt_term_width(s);

			l->right[k] |= kind != CK_TEXT && kind != CK_NULL;
			l->txt[(r + 1) * n + k] = s;
			if (w > l->nat[k])
				l->nat[k] = w;
		}
}

static void
lay_free(struct lay *l)
{
	for (size_t i = 0; i < (l->nrow + 1) * l->n; i++)
		free(l->txt[i]);
	free(l->txt);
	free(l->right);
	free(l->nat);
}

/* The rule under the header: a run of dashes as wide as each column. */
static void
rule(FILE *f, const size_t *w, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		fputs(k ? "  " : "", f);
		for (size_t i = 0; i < w[k]; i++)
			putc('-', f);
	}
	putc('\n', f);
}


/* The longest word of a header: the narrowest it wraps to. */
static char *
longest_word(const char *s)
{
	size_t best = 0, bw = 0;
	const char *at = s;

	while (*s) {
		size_t len = strcspn(s, " ");
		char *w = xstrndup(s, len);
		size_t ww = fmt_term_width(w);

		if (ww > bw) {
			bw = ww;
			best = len;
			at = s;
		}
		free(w);
		s += len;
		s += strspn(s, " ");
	}
	return xstrndup(at, best);
}

/* Text columns wrap (and so may narrow, never below their header);
 * numbers keep their width. A text column wider than a third of the
 * terminal narrows first. short_heads: the header is no wider than its
 * longest word (and is printed here, wrapped: wrapped_header). */
static struct libscols_table *
scols_of(const struct lay *l, size_t width, int short_heads)
{
	struct libscols_table *tb = scols_need(scols_new_table());

	scols_check(scols_table_set_column_separator(tb, "  "));
	/* The cells are terminal text already (fmt_term_str): counted in
	 * UTF-8 where the system has it, else escaped once more. */
	scols_check(scols_table_enable_noencoding(tb, !!fmt_term_locale()));
	scols_check(scols_table_enable_noheadings(tb, short_heads));
	scols_check(scols_table_set_termforce(tb, width ?
	    SCOLS_TERMFORCE_ALWAYS : SCOLS_TERMFORCE_NEVER));
	if (width)
		scols_check(scols_table_set_termwidth(tb, width));
	for (size_t k = 0; k < l->n; k++) {
		char *h = short_heads ? longest_word(l->txt[k]) :
		    xstrdup(l->txt[k]);

		scols_need(scols_table_new_column(tb, h, l->right[k] ? 0 :
		    0.33, l->right[k] ? SCOLS_FL_RIGHT : SCOLS_FL_WRAP));
		free(h);
	}
	for (size_t r = 0; r < l->nrow; r++) {
		struct libscols_line *ln = scols_need(scols_table_new_line(tb,
		    NULL));

		for (size_t k = 0; k < l->n; k++)
			scols_check(scols_line_set_data(ln, k,
			    l->txt[(r + 1) * l->n + k]));
	}
	return tb;
}

/* Lay tb out and print it into *text; w: the columns' widths, the last
 * one (which libsmartcols stretches to the terminal's edge) no wider
 * than its text. Returns the table's width. */
static size_t
scols_lay(struct libscols_table *tb, const struct lay *l, char **text,
    size_t *w)
{
	locale_t loc = fmt_term_locale(), old = loc ? uselocale(loc) : 0;
	size_t total = 0;

	*text = NULL;
	scols_check(scols_print_table_to_string(tb, text));
	if (loc)
		uselocale(old);
	scols_need(*text);
	for (size_t k = 0; k < l->n; k++) {
		w[k] = scols_column_get_width(scols_table_get_column(tb, k));
		if (k + 1 == l->n && w[k] > l->nat[k])
			w[k] = l->nat[k];
		total += w[k] + (k ? 2 : 0);
	}
	return total;
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

/* The header over columns of widths w, each wrapped at its width, the
 * lines of each column at the bottom (next to the rule), numbers'
 * headers to the right as the numbers are. */
static void
wrapped_header(FILE *f, const struct lay *l, const size_t *w)
{
	char ***hl = xcalloc(l->n + 1, sizeof *hl);
	size_t *nl = xcalloc(l->n + 1, sizeof *nl), h = 0;

	for (size_t k = 0; k < l->n; k++) {
		hl[k] = header_lines(l->txt[k], w[k], &nl[k]);
		h = nl[k] > h ? nl[k] : h;
	}
	for (size_t i = 0; i < h; i++) {
		char *line = NULL;
		size_t len = 0;
		FILE *m = scols_need(open_memstream(&line, &len));

		for (size_t k = 0; k < l->n; k++) {
			const char *s = i + nl[k] >= h ?
			    hl[k][i + nl[k] - h] : "";
			size_t pad = w[k] - fmt_term_width(s);

			fprintf(m, "%s%*s%s%*s", k ? "  " : "",
			    l->right[k] ? (int)pad : 0, "", s,
			    l->right[k] ? 0 : (int)pad, "");
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

/* An empty table (libsmartcols prints nothing for one): its header, on
 * one line if it fits, else each header wrapped at its words. */
static void
empty_table(FILE *f, const struct lay *l, size_t width)
{
	size_t *w = xcalloc(l->n + 1, sizeof *w), total = 0;

	for (size_t k = 0; k < l->n; k++)
		total += l->nat[k] + (k ? 2 : 0);
	for (size_t k = 0; k < l->n; k++) {
		char *word = longest_word(l->txt[k]);

		w[k] = width && total > width ? fmt_term_width(word) :
		    l->nat[k];
		free(word);
	}
	wrapped_header(f, l, w);
	rule(f, w, l->n);
	fputs("(no rows)\n", f);
	free(w);
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

/* Header, rule, rows. The header is one line as long as the table fits
 * so (or no width is set); else each header wraps at its words, and the
 * table is laid out again with columns as narrow as their longest
 * header word. */
static void
scols_table(FILE *f, const struct lay *l, size_t width)
{
	struct libscols_table *tb = scols_of(l, width, 0);
	size_t *w = xcalloc(l->n + 1, sizeof *w);
	char *text, *nl;

	if (width && scols_lay(tb, l, &text, w) > width) {
		free(text);
		scols_unref_table(tb);
		tb = scols_of(l, width, 1);
		scols_lay(tb, l, &text, w);
		wrapped_header(f, l, w);
		rule(f, w, l->n);
		put_lines(f, text, 1);
	} else {
		if (!width)
			scols_lay(tb, l, &text, w);
		/* The header is the first line libsmartcols prints: no
		 * column is narrower than its header, which never wraps. */
		nl = strchr(text, '\n');
		fwrite(text, 1, nl ? (size_t)(nl - text) + 1 : strlen(text),
		    f);
		if (!nl)
			putc('\n', f);
		rule(f, w, l->n);
		if (nl)
			put_lines(f, nl + 1, width > 0);
	}
	free(text);
	free(w);
	scols_unref_table(tb);
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
	if (t->nrow == 0)
		empty_table(f, &l, width);
	else
		scols_table(f, &l, width);
	lay_free(&l);
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

void
render_text(FILE *f, const struct result *r, const struct render_view *v)
{
	/* --wide: the tables' lines whole; the notes still fit. */
	size_t width = v->wide ? 0 : v->width;

	if (!v->table) {
		text_line(f, r->title, v->width);
		for (size_t i = 0; i < r->nnote; i++)
			text_line(f, r->note[i], v->width);
	}
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
}
