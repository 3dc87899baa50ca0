/*
 * ionotes: the coverage notes (coverage.h) of a window, for the analyses
 * that read host minutes or device totals rather than the aggregate
 * minute series (burst, devices): it loads the series only to count it.
 */
#ifndef IOCENSUS_IONOTES_H
#define IOCENSUS_IONOTES_H

#include <stddef.h>

#include <sqlite3.h>

#include "ioseries.h"
#include "result.h"

/* Add the coverage notes of w to r; *complete = its complete minutes
 * (0: "No I/O data in the window.", the caller leaves its tables empty;
 * unless `partial`: the caller has values of its own, and the note says
 * that no minute is complete). 0, or -1 with err. */
int io_window_notes(sqlite3 *db, const struct io_window *w, int partial,
    struct result *r, size_t *complete, char *err, size_t errlen);

#endif
