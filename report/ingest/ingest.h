/*
 * ingest: `iocensus ingest PATH...`: iostatmon logs from files,
 * directories and archives into the census database (sql/io.sql).
 */
#ifndef IOCENSUS_INGEST_H
#define IOCENSUS_INGEST_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#include "result/result.h"

/* Samples whose interval starts before this (2003-01-01 00:00 UTC) or
 * ends more than INGEST_AHEAD_S after the ingest's time are quarantined
 * (io_quarantine): no kernel before 2003 had /proc/diskstats, so such a
 * time is a clock that was wrong (reset to 1970 or 2000, or set ahead). */
#define INGEST_TIME_FLOOR 1041379200
#define INGEST_AHEAD_S 86400

struct ingest_opts {
	int threads;			/* log decoders; 0: online CPUs */
	int progress;			/* progress line on stderr */
	int64_t now;			/* the ingest's time, unix seconds */
	volatile sig_atomic_t *stop;	/* SIGINT/SIGTERM flag; may be NULL */
};

/* Load every source under paths: one transaction per source, then the
 * roll-up of the hours that changed. Damage and unreadable inputs are
 * reported on stderr (file, byte offset or errno text, reason) as they
 * are met, and everything readable is kept; so are samples with
 * implausible times, apart (io_quarantine), with a message per source
 * and host.
 * Returns the result (tables "sources", "totals") with *status 0 when
 * everything was read, 1 when something was skipped, damaged or
 * quarantined, 3 when
 * stopped by a signal (loaded sources stay loaded); or NULL with err on
 * a fatal error (database write failed), *status 3. */
struct result *ingest_run(sqlite3 *db, char *const *paths, size_t npaths,
    const struct ingest_opts *o, int *status, char *err, size_t errlen);

#endif
