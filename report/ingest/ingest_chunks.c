/*
 * ingest_chunks: one device's samples of one source into its hour chunks
 * (io_chunk), and the hours that changed into io_dirty. An hour without a
 * stored chunk gets the row the decoder encoded (ingest_prep.c); an hour
 * with one is merged into it, and the chunk is rewritten whole when it
 * gained any sample; the merge keeps the stored sample of a repeated time.
 * The stored chunks are looked up only when the device's known hours
 * (struct dev_span) overlap the source's: a log set of one file per host
 * and day never needs to.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "ingest_store_int.h"
#include "xalloc.h"

/* Device ids beyond this are not given a span (always looked up). */
#define SPAN_IDS_MAX (1 << 20)

/* A changed chunk: its hour and the one before it (a sample's interval
 * may start there) need a new roll-up. */
static void
mark_dirty(struct store *st, int64_t t0)
{
	ingest_idset_add(&st->hours, t0 - 3600);
	ingest_idset_add(&st->hours, t0);
}

/* The device's span, loaded on first use; NULL on a database error. */
static struct dev_span *
dev_span(struct store *st, int64_t dev_id, struct dev_span *tmp)
{
	sqlite3_stmt *q = st->q[Q_SPAN];
	struct dev_span *sp = tmp;
	int rc;

	if (dev_id > 0 && dev_id < SPAN_IDS_MAX) {
		if ((size_t)dev_id >= st->nspan) {
			size_t n = (size_t)dev_id * 2;

			st->span = xreallocarray(st->span, n, sizeof *st->span);
			memset(st->span + st->nspan, 0, (n - st->nspan) *
			    sizeof *st->span);
			st->nspan = n;
		}
		sp = &st->span[dev_id];
		if (sp->state != SPAN_UNKNOWN)
			return sp;
	}
	sqlite3_bind_int64(q, 1, dev_id);
	rc = sqlite3_step(q);
	if (rc == SQLITE_ROW) {
		sp->state = sqlite3_column_type(q, 0) == SQLITE_NULL ?
		    SPAN_EMPTY : SPAN_SET;
		sp->lo = sqlite3_column_int64(q, 0);
		sp->hi = sqlite3_column_int64(q, 1);
	}
	sqlite3_reset(q);
	return rc == SQLITE_ROW ? sp : NULL;
}

static void
widen_span(struct dev_span *sp, int64_t lo, int64_t hi)
{
	if (sp->state != SPAN_SET) {
		sp->lo = lo;
		sp->hi = hi;
	}
	if (lo < sp->lo)
		sp->lo = lo;
	if (hi > sp->hi)
		sp->hi = hi;
	sp->state = SPAN_SET;
}

/* The device's existing chunks between two hours, in t0 order. */
static int
load_refs(struct store *st, int64_t dev_id, int64_t from, int64_t to)
{
	sqlite3_stmt *q = st->q[Q_RANGE];
	int rc;

	st->nhave = 0;
	sqlite3_bind_int64(q, 1, dev_id);
	sqlite3_bind_int64(q, 2, from);
	sqlite3_bind_int64(q, 3, to);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		if (st->nhave == st->havecap) {
			st->havecap = st->havecap ? st->havecap * 2 : 64;
			st->have = xreallocarray(st->have, st->havecap, sizeof *st->have);
		}
		st->have[st->nhave].id = sqlite3_column_int64(q, 0);
		st->have[st->nhave++].t0 = sqlite3_column_int64(q, 1);
	}
	sqlite3_reset(q);
	return rc == SQLITE_DONE ? 0 : -1;
}

static int
load_chunk(struct store *st, int64_t id, char *err, size_t errlen)
{
	sqlite3_stmt *q = st->q[Q_GET];
	int rc;

	sqlite3_bind_int64(q, 1, id);
	rc = sqlite3_step(q);
	if (rc == SQLITE_ROW)
		rc = chunk_from_row(q, 0, &st->chunk, err, errlen);
	else
		snprintf(err, errlen, "reading chunk %lld: %s", (long long)id,
		    sqlite3_errmsg(st->db));
	sqlite3_reset(q);
	return rc == 0 ? 0 : -1;
}

static int
write_chunk(struct store *st, int64_t dev_id, int64_t id)
{
	sqlite3_stmt *q = id ? st->q[Q_UPD] : st->q[Q_INS];
	int first = id ? 1 : 3;

	if (chunk_bind(q, first, &st->chunk, &st->scratch) < 0)
		return -1;
	if (id)
		sqlite3_bind_int64(q, 14, id);
	else {
		sqlite3_bind_int64(q, 1, dev_id);
		sqlite3_bind_int64(q, 2, st->chunk.t0);
	}
	return db_step_done(q);
}

/* A new hour: the decoder's row as it is. */
static int
insert_encoded(struct store *st, int64_t dev_id, const struct src_chunk *c,
    const char *enc)
{
	sqlite3_stmt *q = st->q[Q_INS];

	if (chunk_bind_enc(q, 3, &c->enc, enc) < 0)
		return -1;
	sqlite3_bind_int64(q, 1, dev_id);
	sqlite3_bind_int64(q, 2, c->t0);
	return db_step_done(q);
}

/* An hour the general way: merged into the stored chunk `id` (0: none).
 * 1 written, 0 nothing new, -1 error. */
static int
merge_hour(struct store *st, int64_t dev_id, int64_t id,
    const struct src_chunk *c, const struct io_sample *s,
    struct store_stats *out, char *err, size_t errlen)
{
	uint64_t dups = out->dups;
	size_t before, u, added;

	st->chunk.t0 = c->t0;
	st->chunk.n = 0;
	if (id && load_chunk(st, id, err, errlen) < 0)
		return -1;
	before = st->chunk.n;
	added = chunk_merge(&st->chunk, s, c->n, &out->dups,
	    &out->conflicts);
	u = before + c->n - (size_t)(out->dups - dups);
	if (u > IOCHUNK_MAX)
		out->overflow += u - IOCHUNK_MAX;
	if (added == 0)
		return 0;
	out->new_samples += added;
	if (write_chunk(st, dev_id, id) < 0) {
		snprintf(err, errlen, "%s", sqlite3_errmsg(st->db));
		return -1;
	}
	return 1;
}

/* Merge one device's samples into its chunks, hour by hour. */
int
ingest_chunks_dev(struct store *st, int64_t dev_id, const struct src_dev *d,
    const char *enc, struct store_stats *out, char *err, size_t errlen)
{
	struct dev_span tmp = { 0 }, *sp;
	int64_t lo, hi;
	size_t h = 0;

	assert(db_in_txn(st->db));	/* I1 */
	if (d->nch == 0)
		return 0;
	lo = d->ch[0].t0;
	hi = d->ch[d->nch - 1].t0;
	if ((sp = dev_span(st, dev_id, &tmp)) == NULL)
		goto db_fail;
	st->nhave = 0;
	if (sp->state == SPAN_SET && lo <= sp->hi && hi >= sp->lo &&
	    load_refs(st, dev_id, lo, hi) < 0)
		goto db_fail;
	for (size_t i = 0; i < d->nch; i++) {
		const struct src_chunk *c = &d->ch[i];
		int64_t id = 0;
		int rc;

		while (h < st->nhave && st->have[h].t0 < c->t0)
			h++;
		if (h < st->nhave && st->have[h].t0 == c->t0)
			id = st->have[h].id;
		if (id == 0 && c->encoded) {
			if (insert_encoded(st, dev_id, c, enc) < 0)
				goto db_fail;
			out->new_samples += c->n;
			rc = 1;
		} else {
			rc = merge_hour(st, dev_id, id, c, &d->s[c->first],
			    out, err, errlen);
			if (rc < 0)
				return -1;
		}
		if (rc > 0)
			mark_dirty(st, c->t0);	/* I2 */
	}
	widen_span(sp, lo, hi);
	return 0;
db_fail:
	snprintf(err, errlen, "%s", sqlite3_errmsg(st->db));
	return -1;
}

int
ingest_chunks_dirty(struct store *st)
{
	/* I2: the changed hours go into io_dirty in the source's own
	 * transaction (I1) */
	assert(db_in_txn(st->db));
	for (size_t i = 0; i < st->hours.n; i++) {
		if (ingest_idset_has(&st->dirty, st->hours.v[i]))
			continue;
		sqlite3_bind_int64(st->q[Q_DIRTY], 1, st->hours.v[i]);
		if (db_step_done(st->q[Q_DIRTY]) < 0)
			return -1;
	}
	return 0;
}

void
ingest_chunks_dirty_committed(struct store *st)
{
	for (size_t i = 0; i < st->hours.n; i++)
		ingest_idset_add(&st->dirty, st->hours.v[i]);
}
