/*
 * ingest_chunks: one device's samples of one source into its hour chunks
 * (io_chunk), and the hours that changed into io_dirty. Each hour's new
 * samples are merged into the stored chunk, which is rewritten whole when
 * it gained any; the merge keeps the stored sample of a repeated time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "ingest_store.h"
#include "xalloc.h"

static int64_t
hour_of(int64_t t_ms)
{
	int64_t h = t_ms / 3600000;

	if (t_ms % 3600000 < 0)
		h--;
	return h * 3600;
}

/* A changed chunk: its hour and the one before it (a sample's interval
 * may start there) need a new roll-up. */
static void
mark_dirty(struct store *st, int64_t t0)
{
	idset_add(&st->hours, t0 - 3600);
	idset_add(&st->hours, t0);
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
			st->have = xrealloc(st->have, st->havecap *
			    sizeof *st->have);
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
		rc = iochunk_from_row(q, 0, &st->chunk, err, errlen);
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

	if (iochunk_bind(q, first, &st->chunk, &st->scratch) < 0)
		return -1;
	if (id)
		sqlite3_bind_int64(q, 14, id);
	else {
		sqlite3_bind_int64(q, 1, dev_id);
		sqlite3_bind_int64(q, 2, st->chunk.t0);
	}
	return db_step_done(q);
}

/* Merge one device's samples into its chunks, hour by hour. */
int
store_dev(struct store *st, int64_t dev_id, const struct src_dev *d,
    struct store_stats *out, char *err, size_t errlen)
{
	size_t h = 0;

	if (load_refs(st, dev_id, hour_of(d->s[0].t_ms),
	    hour_of(d->s[d->n - 1].t_ms)) < 0)
		goto db_fail;
	for (size_t i = 0, j; i < d->n; i = j) {
		int64_t t0 = hour_of(d->s[i].t_ms), id = 0;
		uint64_t dups = out->dups;
		size_t before, u, added;

		for (j = i; j < d->n && hour_of(d->s[j].t_ms) == t0; j++)
			;
		while (h < st->nhave && st->have[h].t0 < t0)
			h++;
		st->chunk.t0 = t0;
		st->chunk.n = 0;
		if (h < st->nhave && st->have[h].t0 == t0) {
			id = st->have[h].id;
			if (load_chunk(st, id, err, errlen) < 0)
				return -1;
		}
		before = st->chunk.n;
		added = iochunk_merge(&st->chunk, &d->s[i], j - i, &out->dups,
		    &out->conflicts);
		u = before + (j - i) - (size_t)(out->dups - dups);
		if (u > IOCHUNK_MAX)
			out->overflow += u - IOCHUNK_MAX;
		if (added == 0)
			continue;
		out->new_samples += added;
		if (write_chunk(st, dev_id, id) < 0)
			goto db_fail;
		mark_dirty(st, t0);
	}
	return 0;
db_fail:
	snprintf(err, errlen, "%s", sqlite3_errmsg(st->db));
	return -1;
}

int
store_dirty(struct store *st)
{
	for (size_t i = 0; i < st->hours.n; i++) {
		sqlite3_bind_int64(st->q[Q_DIRTY], 1, st->hours.v[i]);
		if (db_step_done(st->q[Q_DIRTY]) < 0)
			return -1;
	}
	return 0;
}
