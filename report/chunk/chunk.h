/*
 * chunk: how I/O samples are stored, and the one reading of them that
 * every consumer shares.
 *
 *  - chunk.c: one device's samples of one UTC hour as an io_chunk row
 *    (the r127 column codec);
 *  - chunk_minute.c: the minute rules of docs/census-db.md, splitting a
 *    device's samples over calendar minutes (the roll-up and the query
 *    loaders both use it).
 */
#ifndef IOCENSUS_CHUNK_H
#define IOCENSUS_CHUNK_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#include "floordiv.h"

/*
 * chunk.c: one device's samples of one UTC hour, as stored in io_chunk
 * (sql/io.sql, docs/census-db.md), and the r127 column encoding.
 */

enum io_field {
	IOF_RD_IOS, IOF_WR_IOS, IOF_RD_SEC, IOF_WR_SEC,
	IOF_RD_MS, IOF_WR_MS, IOF_IO_MS, IOF_OTH_IOS,
	IOF_N
};

/* One interval of one device: it ends at t_ms (unix ms) and lasts dur_ms.
 * v[] are counter deltas (oth_ios = discards + flushes completed). */
struct io_sample {
	int64_t t_ms;
	int64_t dur_ms;
	uint64_t v[IOF_N];
};

/* Largest value r127 stores (127^9 - 1); ingest reports larger deltas
 * as damage. */
#define R127_MAX UINT64_C(8594754748609397886)

/* r127: n values of one width, little-endian base-127 digits, digit d as
 * byte d + 1. Returns the bytes written to out (n * width; 0 when every
 * value is 0); out needs n * 9 bytes. */
size_t chunk_r127_encode(const uint64_t *v, size_t n, char *out);
/* Decode n values from len bytes (len must be a multiple of n; 0 means
 * all zero). Returns 0, or -1 when len is not n * width, width > 9 or a
 * byte is outside 1..127. */
int chunk_r127_decode(const char *s, size_t len, size_t n, uint64_t *v);

/* A chunk holds at most this many samples (1 s intervals for an hour). */
#define IOCHUNK_MAX 3600

struct iochunk {
	int64_t t0;			/* hour start, unix seconds */
	size_t n;
	struct io_sample s[IOCHUNK_MAX];
};

/* Columns of io_chunk after dev_id, t0, in the order of sql/io.sql:
 * n, t1_ms, step_ms, t_dev, s_dev, then the IOF_N fields. */
#define IOCHUNK_SELECT_COLS "n, t1_ms, step_ms, t_dev, s_dev, rd_ios, " \
	"wr_ios, rd_sec, wr_sec, rd_ms, wr_ms, io_ms, oth_ios"

/* Decode a chunk from a statement row whose columns first..first+12 are
 * IOCHUNK_SELECT_COLS. t0 must be set by the caller. 0, or -1 with a
 * message (a corrupt row). */
int chunk_from_row(sqlite3_stmt *st, int first, struct iochunk *c,
    char *err, size_t errlen);

/* Bind a chunk's 13 columns (IOCHUNK_SELECT_COLS order) starting at
 * parameter `first`. The chunk's samples must be sorted by t_ms, all
 * ending in [t0, t0 + 3600) s, with n >= 1. Encoded bytes are kept in
 * `scratch` (SQLITE_STATIC binding), which must outlive the step. */
struct iochunk_scratch {
	char buf[13][IOCHUNK_MAX * 9];
};
int chunk_bind(sqlite3_stmt *st, int first, const struct iochunk *c,
    struct iochunk_scratch *scratch);

/* A chunk row encoded ahead of binding (ingest encodes in its decoder
 * threads): n, t1_ms, step_ms, and the 2 + IOF_N r127 columns t_dev,
 * s_dev, then the fields, as byte ranges of a caller's buffer (length 0:
 * NULL). */
struct iochunk_enc {
	int64_t n, t1_ms, step_ms;
	size_t off[2 + IOF_N], len[2 + IOF_N];
};
/* Encode n samples (sorted by t_ms, all ending in hour t0, 1 <= n <=
 * IOCHUNK_MAX) into buf at *used, which advances; buf needs n * 9 *
 * (2 + IOF_N) bytes free there. The bytes are those chunk_bind binds.
 * 0, or -1 (a value r127 cannot hold). */
int chunk_encode(int64_t t0, const struct io_sample *s, size_t n,
    struct iochunk_enc *e, char *buf, size_t *used);
/* Bind an encoded row like chunk_bind (SQLITE_STATIC: buf must outlive
 * the step). 0 or -1. */
int chunk_bind_enc(sqlite3_stmt *st, int first, const struct iochunk_enc *e,
    const char *buf);

/* Merge the sorted samples `add` into c (sorted): a sample with a t_ms
 * already present is a duplicate and is dropped (counted in *dups; if its
 * values differ from the kept one, also in *conflicts). Returns the
 * number of samples added. */
size_t chunk_merge(struct iochunk *c, const struct io_sample *add,
    size_t nadd, uint64_t *dups, uint64_t *conflicts);

/*
 * chunk_minute.c: one device's minutes, from its io_chunk rows, by the minute
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
 * The roll-up (rollup/) and the window edges of query_devstats.c both use it.
 */

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
	/* Minutes [a, a + 60 n) of the last chunk_minute_load. */
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

int chunk_minute_reader_init(struct chunk_reader *r, sqlite3 *db, char *err,
    size_t errlen);
void chunk_minute_reader_free(struct chunk_reader *r);

/* Minutes [a, b) of a device (a, b multiples of 60, a < b), reading with
 * r the chunks whose samples can reach them. m starts zeroed and grows as
 * needed. 0, or -1 with err. */
int chunk_minute_load(struct dev_minutes *m, struct chunk_reader *r,
    int64_t dev_id, int64_t interval_ms, int64_t a, int64_t b, char *err,
    size_t errlen);
void chunk_minute_free(struct dev_minutes *m);

/* Minute i of the last load is valid. */
static inline int
chunk_minute_valid(const struct dev_minutes *m, size_t i)
{
	return m->covered[i] == (uint32_t)MS_MINUTE;
}

#endif
