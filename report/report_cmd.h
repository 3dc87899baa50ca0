/*
 * report_cmd: `iocensus report`: run every analysis the database has data
 * for, with the options given, and write the HTML page (and the bundle).
 */
#ifndef IOCENSUS_REPORT_CMD_H
#define IOCENSUS_REPORT_CMD_H

#include <stddef.h>

#include <sqlite3.h>

#include "analyses.h"

/* o: the window, peak and thresholds given on the command line (others
 * default). target: growth target; 0 picks the next power of ten above
 * each file system's latest file count. 0, or -1 with err. */
int report_write(sqlite3 *db, const struct an_opts *o, double target,
    const char *html_path, const char *bundle_path, char *err,
    size_t errlen);

#endif
