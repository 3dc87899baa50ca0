/*
 * iohosts: the --host patterns of a question, checked against the hosts
 * the database knows. A pattern that matches none is a typo, not an
 * empty window: the command line makes it a usage error (exit 2) instead
 * of printing "No I/O data in the window".
 */
#ifndef IOCENSUS_IOHOSTS_H
#define IOCENSUS_IOHOSTS_H

#include <stddef.h>

#include <sqlite3.h>

#include "ioseries.h"

/* 0 when every pattern of w matches some host (any time, not only in
 * w's window); else -1 with err = AN_USAGE "--host P matches no host;
 * hosts: a, b, ..." (at most 10 names, then how many more), or a
 * database error. */
int io_hosts_check(sqlite3 *db, const struct io_window *w, char *err,
    size_t errlen);

#endif
