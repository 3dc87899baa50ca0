/*
 * rollup_int: what rollup.c (the driver), rollup_plan.c (which hours to
 * rebuild) and rollup_write.c (the derived rows) share. Private to them.
 */
#ifndef IOCENSUS_ROLLUP_INT_H
#define IOCENSUS_ROLLUP_INT_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#include "chunk/chunk.h"

/* Hours [a, b), unix seconds, multiples of 3600. */
struct span {
	int64_t a, b;
};

/* The hours to rebuild for the dirty hours of io_dirty: each dirty hour,
 * the hours its samples' minutes can reach (the longest interval, twice,
 * plus the jitter), the gap hours a device's first samples after a gap
 * make expected, and the hours between a device's old and new expected
 * end (rollup_expect). Sorted, disjoint, at most ROLLUP_PIECE_S each (the
 * per-minute arrays of a piece bound the memory). */
#define ROLLUP_PIECE_S	(1024 * 3600)
int rollup_plan(sqlite3 *db, struct span **out, size_t *n, char *err,
    size_t errlen);

/* The expected end of every device by the rule of sql/io.sql, against
 * the one io_expect holds (a device without a row: its last_ms, the end
 * before version 3): changed(arg, a_ms, b_ms) for each device whose end
 * moved, with [a_ms, b_ms) the time between the two ends; then io_expect
 * holds the new ends. Inside the roll-up's transaction. 0, or -1 with
 * err. */
int rollup_expect(sqlite3 *db, void (*changed)(void *arg, int64_t a_ms,
    int64_t b_ms), void *arg, char *err, size_t errlen);

/* Per-minute counts and sums of a piece (one host's, or the system's). */
struct minute_acc {
	uint32_t *exp, *val;
	uint64_t *rd, *wr, *ios;
};

/* A device as io_dev records it, with its expected end (io_expect). */
struct rollup_dev {
	int64_t id, host_id, interval_ms, first_ms, last_ms, end_ms;
};

/* The devices' minutes of one piece, handed over in device order
 * (rollup_work.c). Worker threads with their own read-only connections
 * compute them when owns_txn (the roll-up began the transaction, so every
 * chunk is committed) and db is a WAL file; else the caller's thread does,
 * through db. */
struct rollup_work;
struct rollup_work *rollup_work_start(sqlite3 *db, int owns_txn,
    const struct rollup_dev *dev, size_t ndev, const struct span *p,
    char *err, size_t errlen);
/* Device i (0, 1, ... in turn): 1 with its minutes in *m (valid until the
 * next call), 0 when its samples cannot reach the piece, -1 with err. */
int rollup_work_next(struct rollup_work *w, size_t i,
    const struct dev_minutes **m, char *err, size_t errlen);
void rollup_work_end(struct rollup_work *w);

/* Prepared statements of the writers. */
struct rollup_out {
	sqlite3 *db;
	sqlite3_stmt *del_dev_hour, *ins_dev_hour, *ins_host_hour,
	    *ins_minute, *ins_hour;
};

int rollup_write_open(struct rollup_out *o, sqlite3 *db, char *err,
    size_t errlen);
void rollup_write_close(struct rollup_out *o);

/* Delete the derived rows of the hours [a, b) (io_dev_hour: per device,
 * with rollup_write_dev_hours). */
int rollup_write_clear(struct rollup_out *o, int64_t a, int64_t b, char *err,
    size_t errlen);
/* io_dev_hour rows of one device for the hours of its last chunk_minute_load
 * (which must be hour-aligned): the hours with a valid minute. */
int rollup_write_dev_hours(struct rollup_out *o, int64_t dev_id,
    const struct dev_minutes *m, char *err, size_t errlen);
/* io_host_hour rows of one host from its accumulated minutes [a, a+60n). */
int rollup_write_host_hours(struct rollup_out *o, int64_t host_id, int64_t a,
    size_t n, const struct minute_acc *h, char *err, size_t errlen);
/* io_minute and io_hour rows from the system's minutes [a, a + 60 n). */
int rollup_write_system(struct rollup_out *o, int64_t a, size_t n,
    const struct minute_acc *s, char *err, size_t errlen);
/* io_day rows of the UTC days touching [a, b), from io_hour. */
int rollup_write_days(sqlite3 *db, int64_t a, int64_t b, char *err,
    size_t errlen);

#endif
