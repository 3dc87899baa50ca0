/*
 * result: what every analysis returns and every renderer reads.
 *
 * An analysis fills a struct result with notes (sentences such as coverage
 * statements), tables (typed cells, NULL meaning "missing", never 0) and
 * figures (which table columns to plot, and how). It never formats numbers:
 * the renderers (render/render.c, render/render_html.c) decide how a cell looks. A result owns
 * every string it holds (the builders copy their arguments).
 */
#ifndef IOCENSUS_RESULT_H
#define IOCENSUS_RESULT_H

#include <stddef.h>
#include <stdint.h>

#include "i128.h"

/* CK_WIDE: an integer beyond int64_t (a byte total past 2^63 - 1), held
 * out of line so that every other cell stays small. */
enum cell_kind { CK_NULL = 0, CK_INT, CK_UINT, CK_REAL, CK_TEXT, CK_WIDE };

struct cell {
	enum cell_kind kind;
	union {
		int64_t i;
		uint64_t u;
		double r;
		char *s;
		i128 *w;
	} v;
};

/* How a column's numbers read to a human (table and HTML only; CSV and
 * JSON always carry the exact value: integers in full, reals as %.17g,
 * times as unix seconds). */
enum col_fmt {
	CF_PLAIN = 0,	/* integers as is, reals with `decimals` places */
	CF_DATE,	/* int unix seconds: 2010-03-31 (UTC) */
	CF_TIME,	/* int unix seconds: 2010-03-31 14:05 (UTC) */
	CF_PCT,		/* real fraction: 0.9812 prints 98.12 with decimals 2 */
	CF_BYTES,	/* int bytes: 1.5 GiB style, binary units */
	CF_DURATION,	/* int seconds: 19 h 0 min */
	CF_MINUTES,	/* int or real minutes, shown as a duration:
			   300 reads 5 h 0 min, as CF_DURATION does */
	CF_BOOL		/* int 0 or 1: no, yes */
};

struct rcol {
	char *key;	/* csv header and json key: lower_snake_case */
	char *title;	/* table/html header */
	char *unit;	/* "MiB/s", "files", ...; may be NULL */
	enum col_fmt fmt;
	int decimals;	/* CF_PLAIN and CF_PCT reals */
	int wide;	/* the table format shows it only with --wide or
			   when -o names it (result_wide) */
	int dash;	/* a missing cell reads "-" (as du prints it), not
			   "n/a"; CSV and JSON keep it empty and null. Set
			   by the analysis after result_table */
};

struct rtable {
	char *key;	/* "idle_periods": --table NAME, bundle file names */
	char *title;
	size_t ncol;
	struct rcol *col;
	size_t nrow, cap;
	struct cell *cell;	/* nrow * ncol, row-major */
	int detail;		/* rows meant for plots and files (a CDF's
				   points, an hour-by-server grid): the table
				   format names the table instead of printing
				   it, unless asked for it with --table */
	int grouped;		/* the first column names a group of
				   consecutive rows (a section of the
				   summary): the HTML page shows it once, as
				   a heading over its rows */
	int list;		/* one row per name (a project, a user, a
				   group): --top caps it (result_top) */
	size_t tail;		/* a list's last rows that the cap keeps:
				   a residual or a total over every name */
	size_t more;		/* the rows result_top left out: every
				   format says "and N more" */
};

enum fig_kind {
	FIG_LINE,	/* y columns against x; a NULL y breaks the line */
	FIG_STEP,	/* CDF: right-continuous steps */
	FIG_BARS,	/* one bar group per row; x column is the label */
	FIG_HEAT,	/* grid: row label = xcol, column label = ycol[0],
			   class text = ycol[1] (idle/low/mid/high/missing) */
	FIG_TREE	/* treemap: one box per row of level 0 (a project)
			   or 3 (the other projects), sized by ycol[0], the
			   rows of level 1 (a directory) and 2 (the rest of
			   the project) after it tiling its box; ycol[] as
			   enum fig_tree says */
};

/* The columns of a FIG_TREE figure, ycol[TREE_SIZE] ...: the name is
 * xcol's (a project; NULL: the other projects), the path's a directory's;
 * the colour is ycol[TREE_COLOUR]'s share, on a diverging scale when it
 * is the growth column, else on a sequential one. */
enum fig_tree { TREE_SIZE, TREE_COLOUR, TREE_LEVEL, TREE_PATH, TREE_COUNT,
    TREE_GROWTH, TREE_GROWTH_SHARE, TREE_COLD_SHARE, TREE_NCOL };

struct rspan {			/* shaded x range, e.g. a maintenance window */
	double x0, x1;
	char *label;
};

struct rfigure {
	char *key;		/* bundle file name stem */
	char *title, *caption;
	enum fig_kind kind;
	size_t table;		/* index into result.table */
	int xcol;
	int ycol[8];
	int ny;
	int xlog, ylog;		/* log10 axes (values <= 0 are not drawn) */
	int xtime;		/* x is unix seconds: date tick labels */
	int stacked;		/* FIG_LINE: y series stacked as areas */
	unsigned markers;	/* bit k: a marker at each point of ycol[k] */
	unsigned band;		/* bit k: ycol[k] and ycol[k + 1] are the
				   low and high edges of a shaded band (a
				   confidence band), named in the legend by
				   ycol[k]'s title up to its last comma */
	char *xlabel, *ylabel;	/* with units */
	int tree_depth;		/* FIG_TREE: 1, the boxes of levels 0 and 3
				   alone; 2, with those of levels 1 and 2 */
	size_t nspan;
	struct rspan *span;
};

struct result {
	char *command;		/* "idle" */
	char *title;		/* "Idle periods" */
	size_t nnote;
	char **note;		/* whole sentences, plain text */
	size_t ntable;
	struct rtable *table;
	size_t nfig;
	struct rfigure *fig;
};

struct result *result_new(const char *command, const char *title);
void result_free(struct result *r);

/* A note: printf-style, one sentence or more. */
void result_note(struct result *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Column spec used to declare a table (strings are copied). */
struct rcol_spec {
	const char *key, *title, *unit;
	enum col_fmt fmt;
	int decimals;
};

/* Add a table; returns it (valid until the next result_table call). */
struct rtable *result_table(struct result *r, const char *key,
    const char *title, const struct rcol_spec *cols, size_t ncol);
/* Index of a table by key, or -1. */
int result_table_index(const struct result *r, const char *key);
/* Index of a column by key (in any case, as -o takes it), or -1. */
int result_col_index(const struct rtable *t, const char *key);
/* The columns of keys (comma-separated, each a key of t) are wide ones:
 * the table format leaves them out (on a terminal or not), so that the
 * rest fits 80 columns; --wide, -o, CSV and JSON still give them. */
void result_wide(struct rtable *t, const char *keys);

/* t lists one row per name, in the analysis's order, then tail rows
 * over every name (a residual, a total): result_top caps the names. An
 * analysis sums before the cap, so a total it prints (a note, a tail
 * row, another table) counts every name. */
void result_list(struct rtable *t, size_t tail);

/* Every list table of r (result_list) keeps its first n names and its
 * tail rows, n 0 keeping all; the names left out are added to its
 * `more`. A figure over a list table draws the rows kept. */
void result_top(struct result *r, size_t n);

/* Append a row of NULL cells (a cell never set stays NULL: missing);
 * returns its index. */
size_t result_row(struct rtable *t);
/* Keep the rows r with keep[r] != 0 (room for t->nrow), in order. */
void result_keep_rows(struct rtable *t, const unsigned char *keep);
void result_set_int(struct rtable *t, size_t row, int col, int64_t v);
void result_set_uint(struct rtable *t, size_t row, int col, uint64_t v);
/* An exact integer of up to 128 bits: CK_INT when it fits, else CK_WIDE. */
void result_set_wide(struct rtable *t, size_t row, int col, i128 v);
void result_set_real(struct rtable *t, size_t row, int col, double v);
void result_set_text(struct rtable *t, size_t row, int col, const char *s);
/* A row of a metric family's table (its columns the labels, the value
 * last): the label values in column order, then v exactly. */
void result_sample(struct rtable *t, const char *const *label, i128 v);
const struct cell *result_cell(const struct rtable *t, size_t row, int col);
/* The cell of column key (result_col_index), or a NULL cell when t has
 * no such column: what an analysis did not produce reads as missing. */
const struct cell *result_cell_at(const struct rtable *t, size_t row,
    const char *key);
/* A numeric cell as double (NaN for NULL/text): for plotting. */
double result_num(const struct rtable *t, size_t row, int col);

/* Rewrite every text of r through fn: each text cell whole (col, its
 * column's key), and the notes, titles, captions, axis and span labels
 * (col NULL: free text). fn
 * returns a new string, which r then owns, or NULL to keep the text: a
 * world-readable output's private names become labels this way
 * (report/query/query.h), whatever analysis put them there. */
typedef char *result_relabel_fn(void *ctx, const char *s,
    const char *col);
void result_relabel(struct result *r, result_relabel_fn *fn, void *ctx);

/* Add a figure over table index `table`; returns it for the caller to
 * fill ycol/ny, log axes, spans. Strings are copied. */
struct rfigure *result_figure(struct result *r, const char *key,
    enum fig_kind kind, size_t table, const char *title,
    const char *caption, const char *xlabel, const char *ylabel);
void result_span(struct rfigure *f, double x0, double x1, const char *label);

/* The unit a human header shows for column c, or NULL: "%" for shares;
 * none where the cells carry their own unit (bytes, durations, times),
 * but "per day" for a rate such as "B/day" unless the title says so;
 * none where the title already names what a count counts ("Files",
 * files; "Valid minutes", min; "Idle hours", h) or the rate ("New
 * files/day", "Files per day": files/day); else the column's unit. */
const char *result_text_unit(const struct rcol *c, char *buf, size_t len);

/* A numeric value in a column's human format (axes, legends). */
const char *result_text_value(const struct rcol *c, double v, char *buf,
    size_t len);

/* Format one cell for humans (table format and HTML) into buf. */
const char *result_text_cell(const struct rtable *t, size_t row, int col,
    char *buf, size_t len);

#endif
