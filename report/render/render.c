/*
 * render: a result as an aligned text table, CSV or JSON (render.h).
 *
 * CSV and JSON carry exact values: integers in full, times as unix
 * seconds, shares as fractions (JSON's unit says "fraction"), reals as the
 * shortest of %.15g/%.16g/%.17g that reads back to the same double, NULL
 * as an empty field / null, and text byte for byte, to a file or a pipe;
 * written to a terminal, every text goes through fmt_term_str first, so
 * a name cannot act on it. The table format is for people: cells and
 * header units go through result_text.c.
 */
#include <assert.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "human.h"
#include "render.h"
#include "render_int.h"
#include "xalloc.h"

/* The shortest %.Ng (N = 15..17) that reads back as v. */
static void
print_real(FILE *f, double v)
{
	char buf[40];

	for (int prec = 15; prec <= 17; prec++) {
		snprintf(buf, sizeof buf, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	fputs(buf, f);
}

int
render_number(FILE *f, const struct cell *c)
{
	switch (c->kind) {
	case CK_INT:
		fprintf(f, "%" PRId64, c->v.i);
		return 1;
	case CK_UINT:
		fprintf(f, "%" PRIu64, c->v.u);
		return 1;
	case CK_REAL:
		print_real(f, c->v.r);
		return 1;
	case CK_WIDE: {
		char buf[I128_STRLEN];
		fputs(i128_str(*c->v.w, buf), f);
		return 1;
	}
	default:
		return 0;
	}
}

/* The columns idx[0..n) of t as CSV; term: f is a terminal
 * (fmt_is_term), every text through fmt_term_str. */
static void
table_csv(FILE *f, const struct rtable *t, const int *idx, size_t n,
    int term)
{
	for (size_t k = 0; k < n; k++) {
		if (k)
			putc(',', f);
		fmt_csv_cell(f, t->col[idx[k]].key, term);
	}
	putc('\n', f);
	for (size_t r = 0; r < t->nrow; r++) {
		for (size_t k = 0; k < n; k++) {
			const struct cell *cl = result_cell(t, r, idx[k]);

			if (k)
				putc(',', f);
			if (cl->kind == CK_TEXT)
				fmt_csv_cell(f, cl->v.s, term);
			else
				render_number(f, cl);
		}
		putc('\n', f);
	}
}

/* Every column of t, in order: idx holds t->ncol entries. */
static size_t
all_columns(const struct rtable *t, int *idx)
{
	for (size_t c = 0; c < t->ncol; c++)
		idx[c] = (int)c;
	return t->ncol;
}

void
render_table_csv(FILE *f, const struct rtable *t)
{
	int *idx = xcalloc(t->ncol + 1, sizeof *idx);

	assert(f != NULL && t != NULL);
	table_csv(f, t, idx, all_columns(t, idx), fmt_is_term(f));
	free(idx);
}

static void
json_str_or_null(FILE *f, const char *s, int term)
{
	if (s)
		fmt_json_cell(f, s, term);
	else
		fputs("null", f);
}

/* The unit of the exact values: a share is a fraction (0.25), whatever
 * unit its column shows people (25 %); a time is unix seconds, a
 * duration seconds and a size bytes, also where the column names none. */
static const char *
machine_unit(const struct rcol *c)
{
	if (c->fmt == CF_PCT)
		return "fraction";
	if (c->unit)
		return c->unit;
	switch (c->fmt) {
	case CF_DATE:
	case CF_TIME:
		return "unix seconds";
	case CF_DURATION:
		return "s";
	case CF_BYTES:
		return "bytes";
	case CF_MINUTES:
		return "min";
	default:
		return NULL;
	}
}

/* One table object of the columns idx[0..n); ind: the indentation of
 * its opening line; term: as table_csv's. */
static void
table_json(FILE *f, const struct rtable *t, int ind, const int *idx,
    size_t n, int term)
{
	fprintf(f, "{\n%*s\"title\": ", ind + 2, "");
	fmt_json_cell(f, t->title, term);
	fprintf(f, ",\n%*s\"columns\": [", ind + 2, "");
	for (size_t k = 0; k < n; k++) {
		const struct rcol *c = &t->col[idx[k]];

		fprintf(f, "%s\n%*s{\"key\": ", k ? "," : "", ind + 4, "");
		fmt_json_cell(f, c->key, term);
		fputs(", \"title\": ", f);
		fmt_json_cell(f, c->title, term);
		fputs(", \"unit\": ", f);
		json_str_or_null(f, machine_unit(c), term);
		putc('}', f);
	}
	if (n)
		fprintf(f, "\n%*s", ind + 2, "");
	fprintf(f, "],\n%*s\"rows\": [", ind + 2, "");
	for (size_t r = 0; r < t->nrow; r++) {
		fprintf(f, "%s\n%*s{", r ? "," : "", ind + 4, "");
		for (size_t k = 0; k < n; k++) {
			const struct cell *cl = result_cell(t, r, idx[k]);

			if (k)
				fputs(", ", f);
			fmt_json_cell(f, t->col[idx[k]].key, term);
			fputs(": ", f);
			if (cl->kind == CK_TEXT)
				fmt_json_cell(f, cl->v.s, term);
			else if (!render_number(f, cl))
				fputs("null", f);
		}
		putc('}', f);
	}
	if (t->nrow)
		fprintf(f, "\n%*s", ind + 2, "");
	putc(']', f);
	if (t->list && t->more)	/* the rows --top left out, if any */
		fprintf(f, ",\n%*s\"more\": %zu", ind + 2, "", t->more);
	fprintf(f, "\n%*s}", ind, "");
}

void
render_table_json(FILE *f, const struct rtable *t)
{
	int *idx = xcalloc(t->ncol + 1, sizeof *idx);

	assert(f != NULL && t != NULL);
	table_json(f, t, 0, idx, all_columns(t, idx), fmt_is_term(f));
	putc('\n', f);
	free(idx);
}

/* Is table t printed under v, and with which columns (their count)? */
static size_t
shown(const struct rtable *t, const struct render_view *v,
    enum fmt_kind fmt, int *idx)
{
	if (v->table && strcmp(v->table, t->key))
		return 0;
	return render_columns(t, v, fmt, idx);
}

static void
result_json(FILE *f, const struct result *r, const struct render_view *v,
    int term)
{
	int first = 1;

	fputs("{\n  \"command\": ", f);
	fmt_json_cell(f, r->command, term);
	fputs(",\n  \"title\": ", f);
	fmt_json_cell(f, r->title, term);
	fputs(",\n  \"notes\": [", f);
	for (size_t i = 0; i < r->nnote; i++) {
		fprintf(f, "%s\n    ", i ? "," : "");
		fmt_json_cell(f, r->note[i], term);
	}
	fputs(r->nnote ? "\n  ],\n  \"tables\": {" : "],\n  \"tables\": {", f);
	for (size_t i = 0; i < r->ntable; i++) {
		const struct rtable *t = &r->table[i];
		int *idx = xcalloc(t->ncol + 1, sizeof *idx);
		size_t n = shown(t, v, FMT_JSON, idx);

		if (n) {
			fputs(first ? "\n    " : ",\n    ", f);
			fmt_json_cell(f, t->key, term);
			fputs(": ", f);
			table_json(f, t, 4, idx, n, term);
			first = 0;
		}
		free(idx);
	}
	fputs(first ? "}\n}\n" : "\n  }\n}\n", f);
}

static void
result_csv(FILE *f, const struct result *r, const struct render_view *v,
    int term)
{
	int first = 1;

	for (size_t i = 0; i < r->ntable; i++) {
		const struct rtable *t = &r->table[i];
		int *idx = xcalloc(t->ncol + 1, sizeof *idx);
		size_t n = shown(t, v, FMT_CSV, idx);

		if (n && !v->table) {
			if (!first)
				putc('\n', f);
			fputs("# ", f);
			fmt_csv_cell(f, t->key, term);
			putc('\n', f);
		}
		if (n)
			table_csv(f, t, idx, n, term);
		first &= n == 0;
		free(idx);
	}
}

int
render_view(FILE *f, const struct result *r, enum fmt_kind fmt,
    const struct render_view *v)
{
	assert(f != NULL && r != NULL && v != NULL && fmt <= FMT_JSON);
	assert(v->cols != NULL || v->ncols == 0);
	/* The one decision for CSV and JSON: exact bytes to a file or a
	 * pipe, every text escaped for a terminal (the table format always
	 * is). */
	int term = fmt != FMT_TABLE && fmt_is_term(f);

	if (v->table && result_table_index(r, v->table) < 0)
		return -1;
	switch (fmt) {
	case FMT_CSV:
		result_csv(f, r, v, term);
		break;
	case FMT_JSON:
		result_json(f, r, v, term);
		break;
	case FMT_TABLE:
		render_text(f, r, v);
		break;
	}
	return 0;
}

int
render_result(FILE *f, const struct result *r, enum fmt_kind fmt,
    const char *only_table)
{
	const struct render_view v = { .table = only_table };

	assert(f != NULL && r != NULL && fmt <= FMT_JSON);
	return render_view(f, r, fmt, &v);
}
