/*
 * minutesplit: one device's minutes, from its io_chunk rows, by the minute
 * rules of docs/census-db.md ("Minutes and roll-ups"):
 *
 *  1. samples in t_ms order, interval [t_ms - dur_ms, t_ms); a sample is
 *     bridged when 0 < dur_ms <= 2 * interval_ms; if the previous sample
 *     ended at p and |start - p| <= 1000 ms, start := p; a start more than
 *     1000 ms before p overlaps the previous sample: not bridged;
 *  2. a bridged value D goes to the minutes its interval overlaps, minute
 *     k getting floor(D C_k / L) - floor(D C_(k-1) / L) (C_k: overlap ms
 *     up to and including minute k, L = end - start), for rd bytes, wr
 *     bytes and ios = rd_ios + wr_ios + oth_ios;
 *  3. a minute is valid when bridged samples cover all 60000 ms of it.
 *
 * The same split gives every per-device sum (io_dev_hour, the device
 * totals of a window): those add the parts of the valid minutes only, so
 * a gap, a reset's neighbour or time outside the window never enters one.
 * The roll-up (rollup.c) and the window edges of iodevstats.c both use it.
 */
#ifndef IOCENSUS_MINUTESPLIT_H
#define IOCENSUS_MINUTESPLIT_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#include "floordiv.h"
#include "iochunk.h"

#define MS_MINUTE	INT64_C(60000)
#define MS_HOUR		INT64_C(3600000)
#define JITTER_MS	INT64_C(1000)	/* clock jitter closed by rule 1 */

/* The values rule 2 splits over the minutes: the minute series' bytes
 * read, bytes written and requests of every kind (rd_ios + wr_ios +
 * oth_ios, split as one value), then each counter of the device totals on
 * its own. */
enum { MV_RD, MV_WR, MV_IOS, MV_RD_IOS, MV_WR_IOS, MV_OTH_IOS, MV_RD_MS,
	MV_WR_MS, MV_IO_MS, MV_N };

struct dev_minutes {
	/* Minutes [a, a + 60 n) of the last devmin_load. */
	int64_t a;
	size_t n;
	uint32_t *covered;		/* ms covered by bridged samples */
	uint32_t *samples;		/* bridged samples whose last ms
					   lies in the minute */
	uint64_t *v[MV_N];		/* the parts of each value */

	size_t cap;
};

/* One connection's statement over a device's chunks, and the decoded
 * chunk (about 300 KB: one per thread, never per device). */
struct chunk_reader {
	sqlite3_stmt *st;
	struct iochunk *chunk;
};

/* err = "what: " and SQLite's message for db; returns -1. */
int io_sqlerr(sqlite3 *db, const char *what, char *err, size_t errlen);

int chunk_reader_init(struct chunk_reader *r, sqlite3 *db, char *err,
    size_t errlen);
void chunk_reader_free(struct chunk_reader *r);

/* Minutes [a, b) of a device (a, b multiples of 60, a < b), reading with
 * r the chunks whose samples can reach them. m starts zeroed and grows as
 * needed. 0, or -1 with err. */
int devmin_load(struct dev_minutes *m, struct chunk_reader *r,
    int64_t dev_id, int64_t interval_ms, int64_t a, int64_t b, char *err,
    size_t errlen);
void devmin_free(struct dev_minutes *m);

/* Minute i of the last load is valid. */
static inline int
devmin_valid(const struct dev_minutes *m, size_t i)
{
	return m->covered[i] == (uint32_t)MS_MINUTE;
}

#endif
