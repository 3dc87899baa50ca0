/*
 * rollup: rebuild the derived I/O tables (io_minute, io_host_hour,
 * io_dev_hour, io_hour, io_day) from io_chunk for the hours listed in
 * io_dirty and those whose expectation moved, with the minute rules of
 * docs/census-db.md.
 */
#ifndef IOCENSUS_ROLLUP_H
#define IOCENSUS_ROLLUP_H

#include <signal.h>
#include <stddef.h>

#include <sqlite3.h>

/* Rebuild every dirty hour (and the minutes a sample ending in it spills
 * into), and the hours a device's moved expected end (io_expect) changes,
 * in one transaction, and clear io_dirty in the same transaction.
 * Nothing to do is success. *stop non-zero (may be NULL) abandons the
 * transaction: the hours stay dirty. 0, or -1 with err. */
int rollup_run(sqlite3 *db, volatile sig_atomic_t *stop, char *err,
    size_t errlen);

/* Hours still dirty (an ingest was interrupted before its roll-up);
 * analyses say so. -1 on error. */
long rollup_dirty_hours(sqlite3 *db);

#endif
