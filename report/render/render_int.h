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

/* One table of the HTML report, laid out to fit the page. */
void html_table(FILE *f, const struct rtable *t);

/* One figure as a standalone <svg> element. */
void svg_figure(FILE *f, const struct result *r, const struct rfigure *fig);

#endif
