/*
 * rollup: rebuild the derived I/O tables for the dirty hours, in one
 * transaction with the deletion of the io_dirty rows (I2).
 *
 * The plan (rollup_plan.c) gives pieces of hours. For each piece, devices
 * are taken host by host in id order, one statement per device reading its
 * chunks in time order (chunk/chunk_minute.c): its minutes become io_dev_hour
 * rows and are counted into the host's per-minute arrays (expected, valid,
 * sums over valid devices); a device is expected from its first interval
 * to its expected end (rollup_expect.c), also where no sample of it
 * reaches the piece; a finished host gives its io_host_hour rows
 * and is added into the system's arrays, which give io_minute and io_hour.
 * io_day is then summed from io_hour. Memory: a few per-minute arrays of
 * one piece, never the samples of more than one chunk.
 */
#include "rollup.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "rollup_int.h"
#include "xalloc.h"

struct rollup {
	sqlite3 *db;
	volatile sig_atomic_t *stop;
	int own;		/* the roll-up began the transaction */
	struct rollup_dev *dev;
	size_t ndev;
	struct rollup_out out;
	struct minute_acc host, sys;
	size_t cap;
};

/* A roll-up's whole state, where a step that changes it begins and ends:
 * inside its transaction (I2), its devices held whole, the minute
 * accumulators of cap minutes each, allocated once cap is. Constant
 * time; the devices' order (I4) is checked once, where they are read. */
#ifdef NDEBUG
#define assert_rollup_state(r)	((void)0)
#else
static void
assert_rollup_state(const struct rollup *r)
{
	assert(r != NULL && r->db != NULL);
	assert(db_in_txn(r->db));	/* I2 */
	assert(r->dev != NULL || r->ndev == 0);
	assert((r->host.exp != NULL) == (r->cap > 0) &&
	    (r->sys.exp != NULL) == (r->cap > 0));
}

/* Are the n devices of d in (host, id) order (I4)? */
static int
devices_by_host(const struct rollup_dev *d, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (d[i - 1].host_id > d[i].host_id ||
		    (d[i - 1].host_id == d[i].host_id && d[i - 1].id >= d[i].id))
			return 0;
	return 1;
}
#endif

static int
load_devices(struct rollup *r, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	size_t cap = 0;
	int rc;

	assert_rollup_state(r);
	if (sqlite3_prepare_v2(r->db, "SELECT d.id, d.host_id, d.interval_ms, "
	    "d.first_ms, d.last_ms, coalesce(e.end_ms, d.last_ms) FROM io_dev d "
	    "LEFT JOIN io_expect e ON e.dev_id = d.id ORDER BY d.host_id, d.id",
	    -1, &st, NULL) != SQLITE_OK)
		return db_sqlerr(r->db, "reading io_dev", err, errlen);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct rollup_dev *d;

		r->dev = xgrow(r->dev, r->ndev, &cap, sizeof *r->dev, 64);
		d = &r->dev[r->ndev++];
		d->id = sqlite3_column_int64(st, 0);
		d->host_id = sqlite3_column_int64(st, 1);
		d->interval_ms = sqlite3_column_int64(st, 2);
		d->first_ms = sqlite3_column_int64(st, 3);
		d->last_ms = sqlite3_column_int64(st, 4);
		d->end_ms = sqlite3_column_int64(st, 5);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_sqlerr(r->db, "reading io_dev", err, errlen);
	/* I4: a host's devices one after the other, for devices() to sum
	 * each host once */
	assert(devices_by_host(r->dev, r->ndev));
	assert_rollup_state(r);
	return 0;
}

static void
acc_alloc(struct minute_acc *a, size_t n)
{
	a->exp = xreallocarray(a->exp, n, sizeof *a->exp);
	a->val = xreallocarray(a->val, n, sizeof *a->val);
	a->rd = xreallocarray(a->rd, n, sizeof *a->rd);
	a->wr = xreallocarray(a->wr, n, sizeof *a->wr);
	a->ios = xreallocarray(a->ios, n, sizeof *a->ios);
}

static void
acc_zero(struct minute_acc *a, size_t n)
{
	memset(a->exp, 0, n * sizeof *a->exp);
	memset(a->val, 0, n * sizeof *a->val);
	memset(a->rd, 0, n * sizeof *a->rd);
	memset(a->wr, 0, n * sizeof *a->wr);
	memset(a->ios, 0, n * sizeof *a->ios);
}

static void
acc_free(struct minute_acc *a)
{
	free(a->exp);
	free(a->val);
	free(a->rd);
	free(a->wr);
	free(a->ios);
}

/* The host's minutes into the system's. */
static void
acc_add(struct minute_acc *to, const struct minute_acc *from, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		to->exp[i] += from->exp[i];
		to->val[i] += from->val[i];
		to->rd[i] += from->rd[i];
		to->wr[i] += from->wr[i];
		to->ios[i] += from->ios[i];
	}
}

/* The device's expected minutes of [a, a + 60 n) into the host's arrays,
 * with its values where valid (m NULL: no sample reaches them, so none
 * is). Returns the number of expected minutes. */
static size_t
count_device(struct minute_acc *h, int64_t a, size_t n,
    const struct dev_minutes *m, const struct rollup_dev *d)
{
	int64_t e0 = floor_div64(d->first_ms, MS_MINUTE) * 60;
	int64_t e1 = floor_div64(d->end_ms + MS_MINUTE - 1, MS_MINUTE) * 60;
	int64_t end = a + 60 * (int64_t)n;
	size_t k = 0;

	if (e0 < a)
		e0 = a;
	if (e1 > end)
		e1 = end;
	for (int64_t t = e0; t < e1; t += 60, k++) {
		size_t i = (size_t)((t - a) / 60);

		h->exp[i]++;
		if (m == NULL || !chunk_minute_valid(m, i))
			continue;
		h->val[i]++;
		h->rd[i] += m->v[MV_RD][i];
		h->wr[i] += m->v[MV_WR][i];
		h->ios[i] += m->v[MV_IOS][i];
	}
	return k;
}

static int
flush_host(struct rollup *r, int64_t host_id, const struct span *p,
    size_t n, char *err, size_t errlen)
{
	if (rollup_write_host_hours(&r->out, host_id, p->a, n, &r->host, err,
	    errlen) < 0)
		return -1;
	acc_add(&r->sys, &r->host, n);
	acc_zero(&r->host, n);
	return 0;
}

/* Delete a device's io_dev_hour rows of the piece. */
static int
clear_device(struct rollup *r, int64_t dev, const struct span *p,
    char *err, size_t errlen)
{
	sqlite3_stmt *del = r->out.del_dev_hour;
	int rc;

	sqlite3_bind_int64(del, 1, dev);
	sqlite3_bind_int64(del, 2, p->a);
	sqlite3_bind_int64(del, 3, p->b);
	rc = sqlite3_step(del);
	sqlite3_reset(del);
	return rc == SQLITE_DONE ? 0 :
	    db_sqlerr(r->db, "clearing io_dev_hour", err, errlen);
}

/* Devices in host order: their rows, their hosts' rows, the system's. */
static int
devices(struct rollup *r, struct rollup_work *w, const struct span *p,
    size_t n, char *err, size_t errlen)
{
	int64_t host = -1;
	int touched = 0;

	for (size_t i = 0; i < r->ndev; i++) {
		const struct rollup_dev *d = &r->dev[i];
		const struct dev_minutes *m;
		int rc;

		if (r->stop && *r->stop) {
			snprintf(err, errlen, "roll-up interrupted");
			return -1;
		}
		if (d->host_id != host) {
			if (touched && flush_host(r, host, p, n, err,
			    errlen) < 0)
				return -1;
			host = d->host_id;
			touched = 0;
		}
		if (clear_device(r, d->id, p, err, errlen) < 0 ||
		    (rc = rollup_work_next(w, i, &m, err, errlen)) < 0)
			return -1;
		if (rc == 0) {		/* expected, perhaps, but no sample */
			touched |= count_device(&r->host, p->a, n, NULL, d) > 0;
			continue;
		}
		if (rollup_write_dev_hours(&r->out, d->id, m, err, errlen) < 0)
			return -1;
		count_device(&r->host, p->a, n, m, d);
		touched = 1;
	}
	if (touched && flush_host(r, host, p, n, err, errlen) < 0)
		return -1;
	return rollup_write_system(&r->out, p->a, n, &r->sys, err, errlen);
}

static int
do_piece(struct rollup *r, const struct span *p, char *err, size_t errlen)
{
	size_t n = (size_t)((p->b - p->a) / 60);
	struct rollup_work *w;
	int rc;

	assert_rollup_state(r);
	assert(p->a < p->b && (p->b - p->a) % 60 == 0);
	if (r->cap < n) {
		acc_alloc(&r->host, n);
		acc_alloc(&r->sys, n);
		r->cap = n;
	}
	acc_zero(&r->host, n);
	acc_zero(&r->sys, n);
	assert(db_in_txn(r->db));	/* I2 */
	if (rollup_write_clear(&r->out, p->a, p->b, err, errlen) < 0)
		return -1;
	w = rollup_work_start(r->db, r->own, r->dev, r->ndev, p, err, errlen);
	if (w == NULL)
		return -1;
	rc = devices(r, w, p, n, err, errlen);
	rollup_work_end(w);
	assert_rollup_state(r);
	return rc;
}

/* Every piece, then the days they touch, then io_dirty. */
static int
rebuild(struct rollup *r, const struct span *p, size_t np, char *err,
    size_t errlen)
{
	assert_rollup_state(r);
	assert(p != NULL && np > 0);
	if (load_devices(r, err, errlen) < 0 ||
	    rollup_write_open(&r->out, r->db, err, errlen) < 0)
		return -1;
	for (size_t i = 0; i < np; i++)
		if (do_piece(r, &p[i], err, errlen) < 0)
			return -1;
	for (size_t i = 0; i < np; i++)
		if (rollup_write_days(r->db, p[i].a, p[i].b, err, errlen) < 0)
			return -1;
	/* I2: the rebuilt hours leave io_dirty in the transaction that
	 * wrote them */
	assert(db_in_txn(r->db));
	if (sqlite3_exec(r->db, "DELETE FROM io_dirty", NULL, NULL, NULL) !=
	    SQLITE_OK)
		return db_sqlerr(r->db, "clearing io_dirty", err, errlen);
	return 0;
}

/* A transaction of our own, or a savepoint inside the caller's. In our
 * own, foreign keys are not checked: every id written comes straight from
 * io_dev or io_host, and the check would cost a lookup per row. */
static int
begin(sqlite3 *db, int *own, int *fk)
{
	sqlite3_stmt *st;

	*own = sqlite3_get_autocommit(db);
	*fk = 0;
	if (*own && sqlite3_prepare_v2(db, "PRAGMA foreign_keys", -1, &st,
	    NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW)
			*fk = sqlite3_column_int(st, 0);
		sqlite3_finalize(st);
		if (*fk)
			sqlite3_exec(db, "PRAGMA foreign_keys = OFF", NULL,
			    NULL, NULL);
	}
	return sqlite3_exec(db, *own ? "BEGIN IMMEDIATE" :
	    "SAVEPOINT io_rollup", NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
}

static int
end(sqlite3 *db, int own, int fk, int ok)
{
	int rc = 0;

	if (ok)
		rc = sqlite3_exec(db, own ? "COMMIT" : "RELEASE io_rollup",
		    NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
	if (!ok || rc < 0)
		sqlite3_exec(db, own ? "ROLLBACK" : "ROLLBACK TO io_rollup; "
		    "RELEASE io_rollup", NULL, NULL, NULL);
	if (fk)
		sqlite3_exec(db, "PRAGMA foreign_keys = ON", NULL, NULL, NULL);
	return rc;
}

int
rollup_run(sqlite3 *db, volatile sig_atomic_t *stop, char *err,
    size_t errlen)
{
	struct rollup r = { .db = db, .stop = stop };
	struct span *pieces = NULL;
	size_t np = 0;
	int own, fk, rc;

	if (begin(db, &own, &fk) < 0) {
		rc = db_sqlerr(db, "starting the roll-up", err, errlen);
		end(db, own, fk, 0);
		return rc;
	}
	r.own = own;
	rc = rollup_plan(db, &pieces, &np, err, errlen);
	if (rc == 0 && np > 0)
		rc = rebuild(&r, pieces, np, err, errlen);
	if (end(db, own, fk, rc == 0) < 0)
		rc = db_sqlerr(db, "committing the roll-up", err, errlen);
	free(pieces);
	free(r.dev);
	if (r.out.db)
		rollup_write_close(&r.out);
	acc_free(&r.host);
	acc_free(&r.sys);
	return rc;
}

long
rollup_dirty_hours(sqlite3 *db)
{
	sqlite3_stmt *st;
	long n = -1;

	if (sqlite3_prepare_v2(db, "SELECT count(*) FROM io_dirty", -1, &st,
	    NULL) != SQLITE_OK)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		n = (long)sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}
