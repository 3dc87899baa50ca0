/*
 * ingest_store: the writer. One source, one transaction: hosts and
 * devices upserted, each device's samples merged into its hour chunks,
 * the changed hours (and the hour before each: a sample's interval may
 * start there) marked dirty for the roll-up, each device's identities
 * widened to the times they span, the source and its damage
 * recorded (I1, I2). Everything is a function of the set of samples
 * stored, never of the order they came in, so ingesting again changes
 * nothing (docs/census-db.md, "Idempotency"; C2).
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "ingest_store_int.h"
#include "xalloc.h"

#define INGEST_CACHE_KIB 131072	/* page cache while ingesting */

static const char *const sql[NQ] = {
	"INSERT INTO io_host (name) VALUES (?1) ON CONFLICT (name) DO UPDATE "
	    "SET name = excluded.name RETURNING id",
	/* A longer interval bridges samples the old one did not: every hour
	 * of the device's chunks rolls up anew. */
	"INSERT OR IGNORE INTO io_dirty (t0) SELECT c.t0 FROM io_dev d "
	    "JOIN io_chunk c ON c.dev_id = d.id WHERE d.host_id = ?1 AND "
	    "d.name = ?2 AND d.interval_ms < ?3",
	"INSERT INTO io_dev (host_id, name, interval_ms, first_ms, last_ms) "
	    "VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (host_id, name) DO UPDATE "
	    "SET interval_ms = max(interval_ms, excluded.interval_ms), "
	    "first_ms = min(first_ms, excluded.first_ms), "
	    "last_ms = max(last_ms, excluded.last_ms) RETURNING id",
	"SELECT id, t0 FROM io_chunk WHERE dev_id = ?1 AND t0 BETWEEN ?2 AND ?3"
	    " ORDER BY t0",
	"SELECT min(t0), max(t0) FROM io_chunk WHERE dev_id = ?1",
	"SELECT " IOCHUNK_SELECT_COLS " FROM io_chunk WHERE id = ?1",
	"INSERT INTO io_chunk (dev_id, t0, " IOCHUNK_SELECT_COLS ") VALUES "
	    "(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, "
	    "?15)",
	"UPDATE io_chunk SET n = ?1, t1_ms = ?2, step_ms = ?3, t_dev = ?4, "
	    "s_dev = ?5, rd_ios = ?6, wr_ios = ?7, rd_sec = ?8, wr_sec = ?9, "
	    "rd_ms = ?10, wr_ms = ?11, io_ms = ?12, oth_ios = ?13 "
	    "WHERE id = ?14",
	"INSERT OR IGNORE INTO io_dirty (t0) VALUES (?1)",
	"REPLACE INTO io_source (name, host, samples, first_t, last_t, damaged)"
	    " VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
	"INSERT OR IGNORE INTO io_damage (source, offset, reason) VALUES "
	    "(?1, ?2, ?3)",
	"INSERT OR IGNORE INTO io_quarantine (host, device, t_ms, dur_ms, "
	    "interval_ms, rd_ios, wr_ios, rd_sec, wr_sec, rd_ms, wr_ms, io_ms, "
	    "oth_ios) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, "
	    "?12, ?13)",
	"SELECT 1 FROM io_quarantine WHERE host = ?1 AND device = ?2 AND "
	    "t_ms BETWEEN ?3 AND ?4 LIMIT 1",
	"DELETE FROM io_quarantine WHERE host = ?1 AND device = ?2 AND "
	    "t_ms = ?3",
	"INSERT INTO io_dev_ident (dev_id, wwn, serial, model, slot, "
	    "first_ms, last_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) "
	    "ON CONFLICT (dev_id, wwn, serial, model, slot) DO UPDATE SET "
	    "first_ms = min(first_ms, excluded.first_ms), "
	    "last_ms = max(last_ms, excluded.last_ms)",
};

struct store *
ingest_store_open(sqlite3 *db, char *err, size_t errlen)
{
	struct store *st = xcalloc(1, sizeof *st);
	sqlite3_stmt *q;
	char pragma[64];

	st->db = db;
	st->old_cache = -2000;
	q = db_prepare(db, "PRAGMA cache_size", err, errlen);
	if (q != NULL && sqlite3_step(q) == SQLITE_ROW)
		st->old_cache = sqlite3_column_int(q, 0);
	sqlite3_finalize(q);
	snprintf(pragma, sizeof pragma, "PRAGMA cache_size = -%d",
	    INGEST_CACHE_KIB);
	db_exec(db, pragma, NULL, 0);
	st->ckpt = ingest_ckpt_start(db);
	for (size_t i = 0; i < NQ; i++) {
		st->q[i] = db_prepare(db, sql[i], err, errlen);
		if (st->q[i] == NULL) {
			ingest_store_close(st);
			return NULL;
		}
	}
	return st;
}

void
ingest_store_close(struct store *st)
{
	char pragma[64];

	if (st == NULL)
		return;
	for (size_t i = 0; i < NQ; i++)
		sqlite3_finalize(st->q[i]);
	ingest_ckpt_stop(st->ckpt);
	snprintf(pragma, sizeof pragma, "PRAGMA cache_size = %d",
	    st->old_cache);
	db_exec(st->db, pragma, NULL, 0);
	free(st->have);
	free(st->hours.v);
	free(st->dirty.v);
	free(st->span);
	free(st->devid);
	free(st->hosts.v);
	free(st->devs.v);
	free(st);
}

size_t ingest_store_hosts(const struct store *st) { return st->hosts.n; }
size_t ingest_store_devices(const struct store *st) { return st->devs.n; }

/* Step an upsert ... RETURNING id: the id, or -1. */
static int64_t
returning_id(sqlite3_stmt *q)
{
	int64_t id = -1;

	if (sqlite3_step(q) == SQLITE_ROW)
		id = sqlite3_column_int64(q, 0);
	if (sqlite3_step(q) != SQLITE_DONE)
		id = -1;
	sqlite3_reset(q);
	return id;
}

static int
insert_damage(struct store *st, const struct src *s)
{
	assert(db_in_txn(st->db));	/* I1 */
	for (size_t i = 0; i < s->ndmg; i++) {
		if (s->dmg[i].truncated)
			continue;
		db_bind_text(st->q[Q_DAMAGE], 1, s->name);
		sqlite3_bind_int64(st->q[Q_DAMAGE], 2,
		    (sqlite3_int64)s->dmg[i].offset);
		db_bind_text(st->q[Q_DAMAGE], 3, s->dmg[i].reason);
		if (db_step_done(st->q[Q_DAMAGE]) < 0)
			return -1;
	}
	return 0;
}

static int
source_row(struct store *st, const struct src *s)
{
	int64_t first = 0, last = 0;
	size_t nd = 0, have = 0;

	/* I1: the source's row commits with its samples, or neither does */
	assert(db_in_txn(st->db));
	for (size_t i = 0; i < s->ndev; i++) {
		const struct src_dev *d = &s->dev[i];

		if (d->n == 0)
			continue;
		if (!have || d->s[0].t_ms < first)
			first = d->s[0].t_ms;
		if (!have || d->s[d->n - 1].t_ms > last)
			last = d->s[d->n - 1].t_ms;
		have = 1;
	}
	for (size_t i = 0; i < s->ndmg; i++)
		nd += !s->dmg[i].truncated;
	db_bind_text(st->q[Q_SOURCE], 1, s->name);
	db_bind_text(st->q[Q_SOURCE], 2, s->nhost ? s->host[0].name : NULL);
	sqlite3_bind_int64(st->q[Q_SOURCE], 3, (sqlite3_int64)s->samples);
	if (have) {
		sqlite3_bind_int64(st->q[Q_SOURCE], 4, first / 1000);
		sqlite3_bind_int64(st->q[Q_SOURCE], 5, last / 1000);
	} else {
		sqlite3_bind_null(st->q[Q_SOURCE], 4);
		sqlite3_bind_null(st->q[Q_SOURCE], 5);
	}
	sqlite3_bind_int64(st->q[Q_SOURCE], 6, (sqlite3_int64)nd);
	return db_step_done(st->q[Q_SOURCE]);
}

/* A host of the source whose every sample was quarantined: it has no
 * row (a wrong clock adds nothing to the hosts the analyses know). */
static int
quarantined_only(const struct src *s, size_t host)
{
	int quar = 0;

	for (size_t i = 0; i < s->ndev; i++) {
		if (s->dev[i].host != host)
			continue;
		if (s->dev[i].n > 0)
			return 0;
		quar |= s->dev[i].nq > 0;
	}
	return quar;
}

/* Hosts and devices of the source; their ids in st->devid. */
static int
upsert_ids(struct store *st, const struct src *s, int64_t *host_id)
{
	assert(db_in_txn(st->db));	/* I1 */
	for (size_t i = 0; i < s->nhost; i++) {
		host_id[i] = 0;
		if (quarantined_only(s, i))
			continue;
		db_bind_text(st->q[Q_HOST], 1, s->host[i].name);
		if ((host_id[i] = returning_id(st->q[Q_HOST])) < 0)
			return -1;
	}
	if (s->ndev > st->devidcap) {
		st->devidcap = s->ndev;
		st->devid = xreallocarray(st->devid, s->ndev, sizeof *st->devid);
	}
	for (size_t i = 0; i < s->ndev; i++) {
		const struct src_dev *d = &s->dev[i];

		st->devid[i] = 0;
		if (d->n == 0)
			continue;
		sqlite3_bind_int64(st->q[Q_WIDEN], 1, host_id[d->host]);
		db_bind_text(st->q[Q_WIDEN], 2, d->name);
		sqlite3_bind_int64(st->q[Q_WIDEN], 3,
		    s->host[d->host].interval_ms);
		if (db_step_done(st->q[Q_WIDEN]) < 0)
			return -1;
		sqlite3_bind_int64(st->q[Q_DEV], 1, host_id[d->host]);
		db_bind_text(st->q[Q_DEV], 2, d->name);
		sqlite3_bind_int64(st->q[Q_DEV], 3,
		    s->host[d->host].interval_ms);
		sqlite3_bind_int64(st->q[Q_DEV], 4, d->first_ms);
		sqlite3_bind_int64(st->q[Q_DEV], 5, d->last_ms);
		if ((st->devid[i] = returning_id(st->q[Q_DEV])) < 0)
			return -1;
	}
	return 0;
}

#ifndef NDEBUG
/* Does every sample of d lie in the source's plausible times (I3)? */
static int
plausible_only(const struct src *s, const struct src_dev *d)
{
	for (size_t i = 0; i < d->n; i++)
		if (!ingest_quar_plausible(s, &d->s[i]))
			return 0;
	return 1;
}
#endif

int
ingest_store_source(struct store *st, const struct src *s,
    struct store_stats *out,
    volatile sig_atomic_t *stop, char *err, size_t errlen)
{
	int64_t *host_id = xcalloc(s->nhost + 1, sizeof *host_id);
	int rc = -1;

	memset(out, 0, sizeof *out);
	st->hours.n = 0;
	snprintf(err, errlen, "%s", "");
	if (db_begin(st->db) < 0) {
		snprintf(err, errlen, "%s", sqlite3_errmsg(st->db));
		free(host_id);
		return -1;
	}
	if (upsert_ids(st, s, host_id) < 0)
		goto db_fail;
	for (size_t i = 0; i < s->ndev; i++) {
		if (stop && *stop) {
			rc = 1;
			goto fail;
		}
		assert(plausible_only(s, &s->dev[i]));	/* I3 */
		if (s->dev[i].n > 0 && ingest_chunks_dev(st, st->devid[i],
		    &s->dev[i],
		    s->enc, out, err, errlen) < 0)
			goto fail;
		if (s->dev[i].n > 0 && ingest_ident_store(st, st->devid[i],
		    &s->dev[i]) < 0)
			goto db_fail;
	}
	if (ingest_chunks_dirty(st) < 0 || ingest_quar_store(st, s, out) < 0 ||
	    source_row(st, s) < 0 || insert_damage(st, s) < 0 ||
	    db_commit(st->db) < 0)
		goto db_fail;
	ingest_chunks_dirty_committed(st);
	for (size_t i = 0; i < s->nhost; i++)
		if (host_id[i])
			ingest_idset_add(&st->hosts, host_id[i]);
	for (size_t i = 0; i < s->ndev; i++)
		if (st->devid[i])
			ingest_idset_add(&st->devs, st->devid[i]);
	free(host_id);
	return 0;
db_fail:
	if (!*err)
		snprintf(err, errlen, "%s", sqlite3_errmsg(st->db));
fail:
	db_rollback(st->db);
	free(host_id);
	return rc;
}

int
ingest_store_damage(struct store *st, const struct src *s, char *err,
    size_t errlen)
{
	if (db_begin(st->db) < 0 || insert_damage(st, s) < 0 ||
	    db_commit(st->db) < 0) {
		snprintf(err, errlen, "%s", sqlite3_errmsg(st->db));
		db_rollback(st->db);
		return -1;
	}
	return 0;
}
