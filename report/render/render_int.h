/*
 * render_int: the pieces the HTML page is built from. Private to render/.
 */
#ifndef IOCENSUS_RENDER_INT_H
#define IOCENSUS_RENDER_INT_H

#include <stdio.h>

#include "result/result.h"

/* One table of the HTML report, laid out to fit the page. */
void html_table(FILE *f, const struct rtable *t);

/* One figure as a standalone <svg> element. */
void svg_figure(FILE *f, const struct result *r, const struct rfigure *fig);

#endif
