/*
 * render_int: the pieces the HTML page is built from. Private to render/.
 */
#ifndef IOCENSUS_RENDER_INT_H
#define IOCENSUS_RENDER_INT_H

#include <stdio.h>

#include "render.h"
#include "result/result.h"

/* A numeric cell as exact text (integers in full, reals as the shortest
 * %.Ng that reads back): 1, or 0 when the cell is not numeric. */
int render_number(FILE *f, const struct cell *c);

/* The table format (render_text.c): the tables and columns v shows. */
void render_text(FILE *f, const struct result *r,
    const struct render_view *v);

/* The widths a table's class names (html_table.c), in hundreds of CSS
 * pixels of the window: a table sN is set as a table in a window N
 * hundred pixels wide or more, stacked below. N runs from
 * RENDER_STACK_MIN + 1 to RENDER_STACK_MAX ("s0": never stacked; "sall":
 * always). Printed, the tables are set in 7 pt (2/3 of the screen's
 * size) on a page about 720 px wide (the usual papers, less the
 * browser's margins): those up to RENDER_PRINT_MAX stay tables. */
#define RENDER_STACK_MIN	4
#define RENDER_STACK_MAX	30
#define RENDER_PRINT_MAX	11

/* One table of the HTML report, laid out to fit the page. */
void html_table(FILE *f, const struct rtable *t);

/* The rows [*a, *b) a figure plots: of a plot over time, from the first
 * row with a value to the last; of others, every row. 0 when no row has
 * a value. */
int svg_data_rows(const struct rtable *t, const struct rfigure *fig,
    size_t *a, size_t *b);

/* One figure as a standalone <svg> element. */
void svg_figure(FILE *f, const struct result *r, const struct rfigure *fig);

#endif
