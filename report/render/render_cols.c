/*
 * render_cols: which columns of a table are printed (render.h): in the
 * table format, on a terminal or not, those not marked wide
 * (result_wide), and with --wide every one; in CSV and JSON every one;
 * those -o names, in its order; with -o +LIST the default ones and
 * those.
 */
#include <assert.h>

#include "render.h"

static int
listed(const int *idx, size_t n, int c)
{
	for (size_t k = 0; k < n; k++)
		if (idx[k] == c)
			return 1;
	return 0;
}

/* The default: every column, but for the table format without --wide
 * the wide ones left out (as lsblk keeps its default columns in a pipe);
 * -o LIST: its keys that t has; -o +LIST: the default, then those. A key
 * named twice is shown once. */
size_t
render_columns(const struct rtable *t, const struct render_view *v,
    enum fmt_kind fmt, int *idx)
{
	int narrow = fmt == FMT_TABLE && !v->wide;
	size_t n = 0;

	assert(t != NULL && v != NULL && idx != NULL && fmt <= FMT_JSON);
	assert(v->cols != NULL || v->ncols == 0);
	if (!v->cols || v->add)
		for (size_t c = 0; c < t->ncol; c++)
			if (!(narrow && t->col[c].wide))
				idx[n++] = (int)c;
	for (size_t k = 0; v->cols && k < v->ncols; k++) {
		int c = result_col_index(t, v->cols[k]);

		if (c >= 0 && !listed(idx, n, c))
			idx[n++] = c;
	}
	return n;
}
