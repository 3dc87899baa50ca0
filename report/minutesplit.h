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
 * The roll-up (rollup.c) and the window edges of ioseries.c both use it.
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

/* Sums over the samples of one hour t0, those ending in (t0, t0 + 3600]
 * s (all of them, bridged or not): a sample belongs to the hour its
 * interval lies in, even when it ends exactly on the hour. */
struct dev_hour_sum {
	uint64_t samples, covered_ms;	/* covered_ms: positive durations */
	uint64_t v[IOF_N];		/* sectors, not bytes */
};

struct dev_minutes {
	/* Minutes [a, a + 60 n) of the last devmin_load. */
	int64_t a;
	size_t n;
	uint32_t *covered;		/* ms covered by bridged samples */
	uint64_t *rd, *wr, *ios;	/* bytes, bytes, requests */
	/* Hours [h0, h0 + 3600 nh) holding [a, a + 60 n): sums over the
	 * samples that end in both (t0, t0 + 3600] of the hour and
	 * (a, a + 60 n]. */
	int64_t h0;
	size_t nh;
	struct dev_hour_sum *hs;

	size_t cap, hcap;
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

/* Minutes [a, b) of a device (a, b multiples of 60, a < b), and the hour
 * sums of its samples ending in (a, b], reading with r the chunks whose
 * samples can reach them. m starts zeroed and grows as needed. 0, or -1
 * with err. */
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
