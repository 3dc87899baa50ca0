/*
 * render: results to text. Renderers compute nothing: they format the
 * cells and figures an analysis produced. Output is deterministic (C
 * locale, fixed formats), so the same database gives the same bytes.
 */
#ifndef IOCENSUS_RENDER_H
#define IOCENSUS_RENDER_H

#include <stdio.h>

#include "fmt.h"
#include "outfile.h"
#include "result/result.h"

/* Print r in fmt. only_table: a table key (print just it; CSV then has
 * no "# key" line), or NULL for all tables. Returns 0, or -1 if the key
 * is unknown. */
int render_result(FILE *f, const struct result *r, enum fmt_kind fmt,
    const char *only_table);

/* What is printed of a result, and how wide. */
struct render_view {
	const char *table;	/* --table KEY: only it; NULL: all */
	const char *const *cols; /* -o: column keys, in the order shown
				   (any case); NULL: each table's default */
	size_t ncols;
	int add;		/* -o +LIST: the default columns, then these */
	int wide;		/* --wide: every column, lines whole; else
				   the table format leaves out the wide
				   columns (result_wide) */
	size_t width;		/* the terminal's columns: the table format
				   wraps its headers, then its text columns
				   at their words, cuts long words short,
				   then leaves out columns at the right, to
				   fit (never a number cut), and wraps the
				   notes; 0: lines whole */
};

/* render_result with a view: -o chooses the columns of every format (a
 * table with none of them is left out); the rest is the table format's.
 * Returns 0, or -1 if the table key is unknown. */
int render_view(FILE *f, const struct result *r, enum fmt_kind fmt,
    const struct render_view *v);

/* The columns of t that v shows in fmt, as indices into t->col, in the
 * order shown: their count. idx holds t->ncol entries. */
size_t render_columns(const struct rtable *t, const struct render_view *v,
    enum fmt_kind fmt, int *idx);

/* One table as CSV / JSON (the bundle writes one file per figure). */
void render_table_csv(FILE *f, const struct rtable *t);
void render_table_json(FILE *f, const struct rtable *t);

/* The Prometheus text exposition format (node_exporter's textfile
 * collector): each table of r is a gauge family named by its key, with
 * its title as HELP text; its last column holds the values and the
 * others are the labels, named by their keys. A row whose value is
 * missing (NULL) has no sample, and a family without samples is left
 * out: missing is never 0. */
void render_prom(FILE *f, const struct result *r);

/* The HTML report: a summary page first, then every result, each with
 * its notes, figures (inline SVG) and tables. meta_title heads the page,
 * generated_by names the program and version (no clock: deterministic). */
int render_html(FILE *f, struct result *const *parts, size_t nparts,
    const char *meta_title, const char *generated_by);

/* Write a .tar.gz holding report.html and, per figure and table,
 * KEY.csv and KEY.json (libarchive). 0, or -1 with err. */
int render_bundle(const char *path, const char *html, size_t html_len,
    struct result *const *parts, size_t nparts,
    const struct outfile_opts *out, char *err, size_t errlen);

#endif
