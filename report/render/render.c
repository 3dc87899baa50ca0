/*
 * render: a result as an aligned text table, CSV or JSON (render.h).
 *
 * CSV and JSON carry exact values: integers in full, times as unix
 * seconds, shares as fractions (JSON's unit says "fraction"), reals as the
 * shortest of %.15g/%.16g/%.17g that reads back to the same double, NULL
 * as an empty field / null. The table format is for people: cells and
 * header units go through result_text.c.
 */
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

void
render_table_csv(FILE *f, const struct rtable *t)
{
	for (size_t c = 0; c < t->ncol; c++) {
		if (c)
			putc(',', f);
		fmt_csv_str(f, t->col[c].key);
	}
	putc('\n', f);
	for (size_t r = 0; r < t->nrow; r++) {
		for (size_t c = 0; c < t->ncol; c++) {
			const struct cell *cl = result_cell(t, r, (int)c);

			if (c)
				putc(',', f);
			if (cl->kind == CK_TEXT)
				fmt_csv_str(f, cl->v.s);
			else
				render_number(f, cl);
		}
		putc('\n', f);
	}
}

static void
json_str_or_null(FILE *f, const char *s)
{
	if (s)
		fmt_json_str(f, s);
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

/* One table object; ind: the indentation of its opening line. */
static void
table_json(FILE *f, const struct rtable *t, int ind)
{
	fprintf(f, "{\n%*s\"title\": ", ind + 2, "");
	fmt_json_str(f, t->title);
	fprintf(f, ",\n%*s\"columns\": [", ind + 2, "");
	for (size_t c = 0; c < t->ncol; c++) {
		fprintf(f, "%s\n%*s{\"key\": ", c ? "," : "", ind + 4, "");
		fmt_json_str(f, t->col[c].key);
		fputs(", \"title\": ", f);
		fmt_json_str(f, t->col[c].title);
		fputs(", \"unit\": ", f);
		json_str_or_null(f, machine_unit(&t->col[c]));
		putc('}', f);
	}
	if (t->ncol)
		fprintf(f, "\n%*s", ind + 2, "");
	fprintf(f, "],\n%*s\"rows\": [", ind + 2, "");
	for (size_t r = 0; r < t->nrow; r++) {
		fprintf(f, "%s\n%*s{", r ? "," : "", ind + 4, "");
		for (size_t c = 0; c < t->ncol; c++) {
			const struct cell *cl = result_cell(t, r, (int)c);

			if (c)
				fputs(", ", f);
			fmt_json_str(f, t->col[c].key);
			fputs(": ", f);
			if (cl->kind == CK_TEXT)
				fmt_json_str(f, cl->v.s);
			else if (!render_number(f, cl))
				fputs("null", f);
		}
		putc('}', f);
	}
	if (t->nrow)
		fprintf(f, "\n%*s", ind + 2, "");
	fprintf(f, "]\n%*s}", ind, "");
}

void
render_table_json(FILE *f, const struct rtable *t)
{
	table_json(f, t, 0);
	putc('\n', f);
}

static void
result_json(FILE *f, const struct result *r, const char *only)
{
	int first = 1;

	fputs("{\n  \"command\": ", f);
	fmt_json_str(f, r->command);
	fputs(",\n  \"title\": ", f);
	fmt_json_str(f, r->title);
	fputs(",\n  \"notes\": [", f);
	for (size_t i = 0; i < r->nnote; i++) {
		fprintf(f, "%s\n    ", i ? "," : "");
		fmt_json_str(f, r->note[i]);
	}
	fputs(r->nnote ? "\n  ],\n  \"tables\": {" : "],\n  \"tables\": {", f);
	for (size_t i = 0; i < r->ntable; i++) {
		if (only && strcmp(only, r->table[i].key))
			continue;
		fputs(first ? "\n    " : ",\n    ", f);
		fmt_json_str(f, r->table[i].key);
		fputs(": ", f);
		table_json(f, &r->table[i], 4);
		first = 0;
	}
	fputs(first ? "}\n}\n" : "\n  }\n}\n", f);
}

static void
result_csv(FILE *f, const struct result *r, const char *only)
{
	for (size_t i = 0; i < r->ntable; i++) {
		if (only) {
			if (!strcmp(only, r->table[i].key))
				render_table_csv(f, &r->table[i]);
			continue;
		}
		if (i)
			putc('\n', f);
		fputs("# ", f);
		fmt_csv_str(f, r->table[i].key);
		putc('\n', f);
		render_table_csv(f, &r->table[i]);
	}
}

/* Display width: code points (fmt_term_str output is valid UTF-8). */
static size_t
width(const char *s)
{
	size_t w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

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
pad_cell(FILE *f, const char *s, size_t w, int right, int last)
{
	size_t pad = w - width(s);

	if (right)
		fprintf(f, "%*s%s", (int)pad, "", s);
	else
		fprintf(f, "%s%*s", s, last ? 0 : (int)pad, "");
}

static void
print_term_line(FILE *f, const char *s)
{
	char *t = fmt_term_str(s);

	fprintf(f, "%s\n", t);
	free(t);
}

/* Title, header, a rule, the rows: columns aligned, numbers right. */
static void
render_table_text(FILE *f, const struct rtable *t)
{
	size_t nc = t->ncol, *w = xcalloc(nc ? nc : 1, sizeof *w);
	char **txt = xcalloc((t->nrow + 1) * nc + 1, sizeof *txt);
	int *right = xcalloc(nc ? nc : 1, sizeof *right);
	char buf[128];

	for (size_t c = 0; c < nc; c++) {
		txt[c] = header_text(&t->col[c]);
		w[c] = width(txt[c]);
	}
	for (size_t r = 0; r < t->nrow; r++)
		for (size_t c = 0; c < nc; c++) {
			char *s = fmt_term_str(result_text_cell(t, r, (int)c,
			    buf,
			    sizeof buf));
			int kind = result_cell(t, r, (int)c)->kind;

			right[c] |= kind != CK_TEXT && kind != CK_NULL;
			txt[(r + 1) * nc + c] = s;
			if (width(s) > w[c])
				w[c] = width(s);
		}
	putc('\n', f);
	print_term_line(f, t->title);
	for (size_t r = 0; r <= t->nrow; r++) {
		for (size_t c = 0; c < nc; c++) {
			fputs(c ? "  " : "", f);
			pad_cell(f, txt[r * nc + c], w[c], right[c],
			    c + 1 == nc);
		}
		putc('\n', f);
		for (size_t c = 0; r == 0 && c < nc; c++) {
			fputs(c ? "  " : "", f);
			for (size_t k = 0; k < w[c]; k++)
				putc('-', f);
			fputs(c + 1 == nc ? "\n" : "", f);
		}
	}
	if (t->nrow == 0)
		fputs("(no rows)\n", f);
	for (size_t i = 0; i < (t->nrow + 1) * nc; i++)
		free(txt[i]);
	free(txt);
	free(w);
	free(right);
}

/* A detail table in the table format: what it is and how to get it. */
static void
render_detail_pointer(FILE *f, const struct rtable *t)
{
	putc('\n', f);
	print_term_line(f, t->title);
	fprintf(f, "(%zu row%s: add --table %s, or --format csv or json)\n",
	    t->nrow, t->nrow == 1 ? "" : "s", t->key);
}

int
render_result(FILE *f, const struct result *r, enum fmt_kind fmt,
    const char *only_table)
{
	if (only_table && result_table_index(r, only_table) < 0)
		return -1;
	switch (fmt) {
	case FMT_CSV:
		result_csv(f, r, only_table);
		break;
	case FMT_JSON:
		result_json(f, r, only_table);
		break;
	case FMT_TABLE:
		if (!only_table) {
			print_term_line(f, r->title);
			for (size_t i = 0; i < r->nnote; i++)
				print_term_line(f, r->note[i]);
		}
		for (size_t i = 0; i < r->ntable; i++) {
			const struct rtable *t = &r->table[i];

			if (only_table && strcmp(only_table, t->key))
				continue;
			if (!only_table && t->detail && t->nrow > 0)
				render_detail_pointer(f, t);
			else
				render_table_text(f, t);
		}
		break;
	}
	return 0;
}
