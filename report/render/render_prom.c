/*
 * render_prom: a result as Prometheus text exposition format, version
 * 0.0.4 (render.h). Every family is a gauge: the census is a state, not
 * a count of events. Escaping is lib/fmt's.
 */
#include <assert.h>
#include <stdio.h>

#include "fmt.h"
#include "render.h"
#include "render_int.h"

static size_t
samples(const struct rtable *t)
{
	size_t n = 0;

	for (size_t r = 0; r < t->nrow; r++)
		n += result_cell(t, r, (int)t->ncol - 1)->kind != CK_NULL;
	return n;
}

/* The row's labels; one whose cell is NULL (not known) is left out,
 * never given a made-up value. */
static void
labels(FILE *f, const struct rtable *t, size_t row)
{
	int any = 0;

	for (size_t c = 0; c + 1 < t->ncol; c++) {
		const struct cell *cl = result_cell(t, row, (int)c);

		if (cl->kind == CK_NULL)
			continue;
		fprintf(f, "%s%s=\"", any++ ? "," : "{", t->col[c].key);
		if (cl->kind == CK_TEXT)
			fmt_prom_label(f, cl->v.s);
		else
			render_number(f, cl);
		putc('"', f);
	}
	if (any)
		putc('}', f);
}

void
render_prom(FILE *f, const struct result *r)
{
	assert(f != NULL && r != NULL);
	for (size_t i = 0; i < r->ntable; i++) {
		const struct rtable *t = &r->table[i];

		if (t->ncol == 0 || samples(t) == 0)
			continue;
		fprintf(f, "# HELP %s ", t->key);
		fmt_prom_help(f, t->title);
		fprintf(f, "\n# TYPE %s gauge\n", t->key);
		for (size_t row = 0; row < t->nrow; row++) {
			const struct cell *v = result_cell(t, row,
			    (int)t->ncol - 1);

			if (v->kind == CK_NULL)
				continue;
			fputs(t->key, f);
			labels(f, t, row);
			putc(' ', f);
			render_number(f, v);
			putc('\n', f);
		}
	}
}
