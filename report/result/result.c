/*
 * result: the analysis result model (result.h). Builders copy their
 * arguments, so an analysis may pass stack buffers.
 */
#include <assert.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "result.h"
#include "xalloc.h"

/*
 * The whole state of a result and of a table, checked where a builder
 * begins and ends (the model of SQLite's assert_pager_state); constant
 * time, so that a builder called once per row stays linear. Compiled
 * away with NDEBUG.
 */
#ifdef NDEBUG
#define assert_result_state(r)	((void)0)
#define assert_table_state(t)	((void)0)
#else
static void
assert_result_state(const struct result *r)
{
	assert(r != NULL && r->command != NULL && r->title != NULL);
	/* T1: each list is held whole, or is empty */
	assert((r->note != NULL || r->nnote == 0) &&
	    (r->table != NULL || r->ntable == 0) &&
	    (r->fig != NULL || r->nfig == 0));
}

static void
assert_table_state(const struct rtable *t)
{
	assert(t != NULL && t->key != NULL && t->title != NULL);
	assert(t->col != NULL);	/* T2: ncol columns, none of them absent */
	/* T2: the rows in use fit the rows allocated, a row ncol cells */
	assert(t->nrow <= t->cap && (t->cell != NULL) == (t->cap > 0));
	assert(t->list == 0 || t->list == 1);
}
#endif

static char *
dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

struct result *
result_new(const char *command, const char *title)
{
	struct result *r = xcalloc(1, sizeof *r);

	r->command = xstrdup(command);
	r->title = xstrdup(title);
	assert_result_state(r);
	return r;
}

static void
table_free(struct rtable *t)
{
	for (size_t i = 0; i < t->nrow * t->ncol; i++)
		if (t->cell[i].kind == CK_TEXT)
			free(t->cell[i].v.s);
		else if (t->cell[i].kind == CK_WIDE)
			free(t->cell[i].v.w);
	for (size_t c = 0; c < t->ncol; c++) {
		free(t->col[c].key);
		free(t->col[c].title);
		free(t->col[c].unit);
	}
	free(t->cell);
	free(t->col);
	free(t->key);
	free(t->title);
}

static void
figure_free(struct rfigure *f)
{
	for (size_t i = 0; i < f->nspan; i++)
		free(f->span[i].label);
	free(f->span);
	free(f->key);
	free(f->title);
	free(f->caption);
	free(f->xlabel);
	free(f->ylabel);
}

void
result_free(struct result *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nnote; i++)
		free(r->note[i]);
	for (size_t i = 0; i < r->ntable; i++)
		table_free(&r->table[i]);
	for (size_t i = 0; i < r->nfig; i++)
		figure_free(&r->fig[i]);
	free(r->note);
	free(r->table);
	free(r->fig);
	free(r->command);
	free(r->title);
	free(r);
}

static void
relabel(char **s, result_relabel_fn *fn, void *ctx, const char *col)
{
	char *t;

	if (*s && (t = fn(ctx, *s, col))) {
		free(*s);
		*s = t;
	}
}

static void
relabel_table(struct rtable *t, result_relabel_fn *fn, void *ctx)
{
	relabel(&t->title, fn, ctx, NULL);
	for (size_t i = 0; i < t->nrow * t->ncol; i++)
		if (t->cell[i].kind == CK_TEXT)
			relabel(&t->cell[i].v.s, fn, ctx,
			    t->col[i % t->ncol].key);
}

void
result_relabel(struct result *r, result_relabel_fn *fn, void *ctx)
{
	assert(fn != NULL);
	if (!r)
		return;
	relabel(&r->title, fn, ctx, NULL);
	for (size_t i = 0; i < r->nnote; i++)
		relabel(&r->note[i], fn, ctx, NULL);
	for (size_t i = 0; i < r->ntable; i++)
		relabel_table(&r->table[i], fn, ctx);
	for (size_t i = 0; i < r->nfig; i++) {
		struct rfigure *f = &r->fig[i];

		relabel(&f->title, fn, ctx, NULL);
		relabel(&f->caption, fn, ctx, NULL);
		relabel(&f->xlabel, fn, ctx, NULL);
		relabel(&f->ylabel, fn, ctx, NULL);
		for (size_t k = 0; k < f->nspan; k++)
			relabel(&f->span[k].label, fn, ctx, NULL);
	}
}

void
result_note(struct result *r, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	assert_result_state(r);
	assert(fmt != NULL);
	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	s = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	r->note = xreallocarray(r->note, r->nnote + 1, sizeof *r->note);
	r->note[r->nnote++] = s;
	assert_result_state(r);
}

struct rtable *
result_table(struct result *r, const char *key, const char *title,
    const struct rcol_spec *cols, size_t ncol)
{
	struct rtable *t;

	assert_result_state(r);
	assert(key != NULL && title != NULL && (cols != NULL || ncol == 0));
	r->table = xreallocarray(r->table, r->ntable + 1, sizeof *r->table);
	t = &r->table[r->ntable++];
	memset(t, 0, sizeof *t);
	t->key = xstrdup(key);
	t->title = xstrdup(title);
	t->ncol = ncol;
	t->col = xcalloc(ncol, sizeof *t->col);
	for (size_t c = 0; c < ncol; c++) {
		t->col[c].key = xstrdup(cols[c].key);
		t->col[c].title = xstrdup(cols[c].title ? cols[c].title :
		    cols[c].key);
		t->col[c].unit = dup_or_null(cols[c].unit);
		t->col[c].fmt = cols[c].fmt;
		t->col[c].decimals = cols[c].decimals;
	}
	assert_table_state(t);
	assert_result_state(r);
	return t;
}

int
result_table_index(const struct result *r, const char *key)
{
	for (size_t i = 0; i < r->ntable; i++)
		if (!strcmp(r->table[i].key, key))
			return (int)i;
	return -1;
}

int
result_col_index(const struct rtable *t, const char *key)
{
	for (size_t c = 0; c < t->ncol; c++)
		if (!strcasecmp(t->col[c].key, key))
			return (int)c;
	return -1;
}

void
result_wide(struct rtable *t, const char *keys)
{
	char *list, *save = NULL;

	assert_table_state(t);
	list = xstrdup(keys);
	for (char *k = strtok_r(list, ",", &save); k;
	    k = strtok_r(NULL, ",", &save)) {
		int c = result_col_index(t, k);

		assert(c >= 0);		/* a key of the analysis' own table */
		if (c >= 0)
			t->col[c].wide = 1;
	}
	free(list);
}

size_t
result_row(struct rtable *t)
{
	assert_table_state(t);
	/* A row of ncol cells is the element grown; ncol columns were
	 * allocated at result_table, so a row's size fits. */
	t->cell = xgrow(t->cell, t->nrow, &t->cap,
	    xmul(t->ncol, sizeof *t->cell), 16);
	memset(&t->cell[t->nrow * t->ncol], 0, t->ncol * sizeof *t->cell);
	t->nrow++;
	assert_table_state(t);
	return t->nrow - 1;
}

void
result_keep_rows(struct rtable *t, const unsigned char *keep)
{
	size_t out = 0;

	assert_table_state(t);
	assert(keep != NULL || t->nrow == 0);
	for (size_t r = 0; r < t->nrow; r++) {
		struct cell *row = &t->cell[r * t->ncol];

		if (!keep[r]) {
			for (size_t c = 0; c < t->ncol; c++)
				if (row[c].kind == CK_TEXT)
					free(row[c].v.s);
				else if (row[c].kind == CK_WIDE)
					free(row[c].v.w);
			continue;
		}
		if (out != r)	/* the cells move: their strings go along */
			memmove(&t->cell[out * t->ncol], row, t->ncol *
			    sizeof *row);
		out++;
	}
	t->nrow = out;
	assert_table_state(t);
}

void
result_list(struct rtable *t, size_t tail)
{
	assert_table_state(t);
	t->list = 1;
	t->tail = tail;
}

/* The names from the n-th on left out of list t: their cells freed, the
 * tail rows moved up behind the first n. */
static void
cap_rows(struct rtable *t, size_t n)
{
	size_t tail = t->tail < t->nrow ? t->tail : t->nrow;
	size_t names = t->nrow - tail;

	if (names <= n)
		return;
	for (size_t i = n * t->ncol; i < (names) * t->ncol; i++)
		if (t->cell[i].kind == CK_TEXT)
			free(t->cell[i].v.s);
		else if (t->cell[i].kind == CK_WIDE)
			free(t->cell[i].v.w);
	memmove(&t->cell[n * t->ncol], &t->cell[names * t->ncol], tail *
	    t->ncol * sizeof *t->cell);
	t->more += names - n;
	t->nrow = n + tail;
	assert_table_state(t);
}

void
result_top(struct result *r, size_t n)
{
	assert_result_state(r);
	for (size_t i = 0; n && i < r->ntable; i++)
		if (r->table[i].list)
			cap_rows(&r->table[i], n);
}

static struct cell *
slot(struct rtable *t, size_t row, int col)
{
	struct cell *c;

	assert_table_state(t);
	/* T3: a cell set is one of a row made, of a column declared */
	assert(row < t->nrow && col >= 0 && (size_t)col < t->ncol);
	c = &t->cell[row * t->ncol + (size_t)col];
	assert(c->kind <= CK_WIDE);
	if (c->kind == CK_TEXT)
		free(c->v.s);
	else if (c->kind == CK_WIDE)
		free(c->v.w);
	c->kind = CK_NULL;
	return c;
}

void
result_set_int(struct rtable *t, size_t row, int col, int64_t v)
{
	struct cell *c = slot(t, row, col);

	c->kind = CK_INT;
	c->v.i = v;
}

void
result_set_uint(struct rtable *t, size_t row, int col, uint64_t v)
{
	struct cell *c = slot(t, row, col);

	c->kind = CK_UINT;
	c->v.u = v;
}

void
result_set_wide(struct rtable *t, size_t row, int col, i128 v)
{
	struct cell *c;

	if (i128_fits64(v)) {
		result_set_int(t, row, col, (int64_t)v);
		return;
	}
	c = slot(t, row, col);
	c->kind = CK_WIDE;
	c->v.w = xmalloc(sizeof *c->v.w);
	*c->v.w = v;
}

void
result_sample(struct rtable *t, const char *const *label, i128 v)
{
	size_t row = result_row(t);

	for (size_t c = 0; c + 1 < t->ncol; c++)
		result_set_text(t, row, (int)c, label[c]);
	result_set_wide(t, row, (int)t->ncol - 1, v);
}

/* A non-finite real is not a value: it is stored as missing. */
void
result_set_real(struct rtable *t, size_t row, int col, double v)
{
	struct cell *c = slot(t, row, col);

	if (isfinite(v)) {
		c->kind = CK_REAL;
		c->v.r = v;
	}
}

void
result_set_text(struct rtable *t, size_t row, int col, const char *s)
{
	struct cell *c = slot(t, row, col);

	if (s) {
		c->kind = CK_TEXT;
		c->v.s = xstrdup(s);
	}
}

const struct cell *
result_cell(const struct rtable *t, size_t row, int col)
{
	/* T3: a cell read is one of a row made, of a column declared */
	assert(t != NULL && row < t->nrow && col >= 0 && (size_t)col < t->ncol);
	return &t->cell[row * t->ncol + (size_t)col];
}

const struct cell *
result_cell_at(const struct rtable *t, size_t row, const char *key)
{
	static const struct cell none = { .kind = CK_NULL };
	int c = result_col_index(t, key);

	return c < 0 ? &none : result_cell(t, row, c);
}

double
result_num(const struct rtable *t, size_t row, int col)
{
	const struct cell *c = result_cell(t, row, col);

	switch (c->kind) {
	case CK_INT:
		return (double)c->v.i;
	case CK_UINT:
		return (double)c->v.u;
	case CK_REAL:
		return c->v.r;
	case CK_WIDE:
		return (double)*c->v.w;
	default:
		return NAN;
	}
}

struct rfigure *
result_figure(struct result *r, const char *key, enum fig_kind kind,
    size_t table, const char *title, const char *caption, const char *xlabel,
    const char *ylabel)
{
	struct rfigure *f;

	assert_result_state(r);
	assert(key != NULL && title != NULL && kind <= FIG_TREE);
	r->fig = xreallocarray(r->fig, r->nfig + 1, sizeof *r->fig);
	f = &r->fig[r->nfig++];
	memset(f, 0, sizeof *f);
	f->key = xstrdup(key);
	f->kind = kind;
	f->table = table;
	f->title = xstrdup(title);
	f->caption = dup_or_null(caption);
	f->xlabel = dup_or_null(xlabel);
	f->ylabel = dup_or_null(ylabel);
	assert_result_state(r);
	return f;
}

void
result_span(struct rfigure *f, double x0, double x1, const char *label)
{
	assert(f != NULL && (f->span != NULL || f->nspan == 0));
	f->span = xreallocarray(f->span, f->nspan + 1, sizeof *f->span);
	f->span[f->nspan].x0 = x0;
	f->span[f->nspan].x1 = x1;
	f->span[f->nspan].label = dup_or_null(label);
	f->nspan++;
}
