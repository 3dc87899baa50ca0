/*
 * rollup_work: the devices' minutes of a piece, in device order, computed
 * on worker threads when that is safe, else in the caller's thread.
 *
 * Reading and decoding chunks is nearly all of a roll-up's time, and every
 * device is independent, so workers each read through their own read-only
 * connection while the caller's connection alone writes. A worker
 * connection sees the last commit, so this is done only when the roll-up
 * owns its transaction (every chunk is committed) on a WAL database file.
 * Results go through a ring of slots and are handed over strictly in
 * device order, so the rows written never depend on the timing.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rollup_int.h"
#include "xalloc.h"

#define MAX_WORKERS	4

enum { SLOT_FREE, SLOT_BUSY, SLOT_READY };

struct slot {
	int state;
	size_t index;
	int rc;			/* 1 minutes, 0 device skipped, -1 error */
	char err[256];
	struct dev_minutes m;
};

struct worker {
	struct rollup_work *w;
	pthread_t tid;
	sqlite3 *db;
	struct chunk_reader r;
};

struct rollup_work {
	const struct rollup_dev *dev;
	size_t ndev;
	struct span p;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	size_t next;		/* next device for a worker */
	int abort;
	size_t nslot, nworker;
	struct slot *slot, *cur;
	struct worker *worker;
	struct chunk_reader own;	/* no workers: the caller's reader */
};

/* Can the device's samples reach the minutes of the piece? */
static int
reaches(const struct rollup_dev *d, const struct span *p)
{
	int64_t reach = 2 * d->interval_ms + 1000 + MS_HOUR;

	return d->last_ms > p->a * 1000 - reach &&
	    d->first_ms < p->b * 1000 + reach;
}

static void
compute(struct rollup_work *w, struct chunk_reader *r, struct slot *s)
{
	const struct rollup_dev *d = &w->dev[s->index];

	s->err[0] = '\0';
	if (!reaches(d, &w->p))
		s->rc = 0;
	else if (chunk_minute_load(&s->m, r, d->id, d->interval_ms, w->p.a,
	    w->p.b,
	    s->err, sizeof s->err) < 0)
		s->rc = -1;
	else
		s->rc = 1;
}

static void *
work(void *arg)
{
	struct worker *k = arg;
	struct rollup_work *w = k->w;

	pthread_setname_np(pthread_self(), "rollup-worker");
	pthread_mutex_lock(&w->mu);
	for (;;) {
		struct slot *s = &w->slot[w->next % w->nslot];

		if (w->abort || w->next >= w->ndev)
			break;
		if (s->state != SLOT_FREE) {
			pthread_cond_wait(&w->cv, &w->mu);
			continue;
		}
		s->state = SLOT_BUSY;
		s->index = w->next++;
		pthread_mutex_unlock(&w->mu);
		compute(w, &k->r, s);
		pthread_mutex_lock(&w->mu);
		s->state = SLOT_READY;
		pthread_cond_broadcast(&w->cv);
	}
	pthread_mutex_unlock(&w->mu);
	return NULL;
}

/* Worker threads are worth it and safe: a WAL file, committed chunks. */
static size_t
workers_for(sqlite3 *db, int owns_txn, size_t ndev)
{
	const char *file = sqlite3_db_filename(db, "main");
	sqlite3_stmt *st;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int wal = 0;

	if (!owns_txn || file == NULL || file[0] == '\0' || cpus < 2 ||
	    ndev < 2)
		return 0;
	if (sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &st, NULL) ==
	    SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
		const char *m = (const char *)sqlite3_column_text(st, 0);

		wal = m != NULL && strcmp(m, "wal") == 0;
	}
	sqlite3_finalize(st);
	if (!wal)
		return 0;
	return cpus > MAX_WORKERS ? MAX_WORKERS : (size_t)cpus;
}

static int
open_worker(struct worker *k, const char *file, char *err, size_t errlen)
{
	if (sqlite3_open_v2(file, &k->db, SQLITE_OPEN_READONLY |
	    SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "roll-up reader: %s",
		    sqlite3_errmsg(k->db));
		return -1;
	}
	sqlite3_busy_timeout(k->db, 60000);
	return chunk_minute_reader_init(&k->r, k->db, err, errlen);
}

struct rollup_work *
rollup_work_start(sqlite3 *db, int owns_txn, const struct rollup_dev *dev,
    size_t ndev, const struct span *p, char *err, size_t errlen)
{
	struct rollup_work *w = xcalloc(1, sizeof *w);
	const char *file = sqlite3_db_filename(db, "main");

	w->dev = dev;
	w->ndev = ndev;
	w->p = *p;
	w->nworker = workers_for(db, owns_txn, ndev);
	w->nslot = w->nworker ? 2 * w->nworker : 1;
	w->slot = xcalloc(w->nslot, sizeof *w->slot);
	pthread_mutex_init(&w->mu, NULL);
	pthread_cond_init(&w->cv, NULL);
	if (w->nworker == 0) {
		if (chunk_minute_reader_init(&w->own, db, err, errlen) < 0) {
			rollup_work_end(w);
			return NULL;
		}
		return w;
	}
	w->worker = xcalloc(w->nworker, sizeof *w->worker);
	for (size_t i = 0; i < w->nworker; i++) {
		struct worker *k = &w->worker[i];

		k->w = w;
		if (open_worker(k, file, err, errlen) < 0 ||
		    pthread_create(&k->tid, NULL, work, k) != 0) {
			if (k->r.st)
				snprintf(err, errlen, "roll-up: cannot start a "
				    "thread");
			w->nworker = i + 1;	/* closed by rollup_work_end */
			k->tid = 0;
			rollup_work_end(w);
			return NULL;
		}
	}
	return w;
}

int
rollup_work_next(struct rollup_work *w, size_t i,
    const struct dev_minutes **m, char *err, size_t errlen)
{
	struct slot *s = &w->slot[i % w->nslot];

	if (w->nworker == 0) {
		s->index = i;
		compute(w, &w->own, s);
	} else {
		pthread_mutex_lock(&w->mu);
		if (w->cur) {
			w->cur->state = SLOT_FREE;
			pthread_cond_broadcast(&w->cv);
		}
		while (s->state != SLOT_READY || s->index != i)
			pthread_cond_wait(&w->cv, &w->mu);
		w->cur = s;
		pthread_mutex_unlock(&w->mu);
	}
	if (s->rc < 0)
		snprintf(err, errlen, "%s", s->err);
	*m = &s->m;
	return s->rc;
}

void
rollup_work_end(struct rollup_work *w)
{
	if (w == NULL)
		return;
	pthread_mutex_lock(&w->mu);
	w->abort = 1;
	pthread_cond_broadcast(&w->cv);
	pthread_mutex_unlock(&w->mu);
	for (size_t i = 0; i < w->nworker; i++) {
		struct worker *k = &w->worker[i];

		if (k->tid)
			pthread_join(k->tid, NULL);
		chunk_minute_reader_free(&k->r);
		sqlite3_close(k->db);
	}
	chunk_minute_reader_free(&w->own);
	for (size_t i = 0; i < w->nslot; i++)
		chunk_minute_free(&w->slot[i].m);
	pthread_mutex_destroy(&w->mu);
	pthread_cond_destroy(&w->cv);
	free(w->slot);
	free(w->worker);
	free(w);
}
