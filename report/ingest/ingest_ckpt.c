/*
 * ingest_ckpt: WAL checkpoints in a thread of their own while ingesting.
 *
 * SQLite's automatic checkpoint runs in the committing thread: with one
 * writer that is the serial part of ingest, and a checkpoint reads back
 * every page of the WAL, writes it into the database and syncs both
 * files. Here the writer's commits only wake a checkpointer thread, which
 * copies the WAL with its own connection (a PASSIVE checkpoint does not
 * block the writer). A checkpoint that runs alongside the writer cannot
 * let the WAL start over, so when the WAL reaches WAL_LIMIT frames the
 * writer waits for the thread and checkpoints the rest itself, as SQLite
 * would have done: the WAL stays bounded, and most of its pages were
 * already copied. The database's content does not depend on when
 * checkpoints run.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "ingest_store_int.h"
#include "xalloc.h"

#define WAL_TRIGGER 1000	/* frames: wake the thread (SQLite's default) */
#define WAL_LIMIT 8000		/* frames: the writer finishes the job */

struct ckpt {
	sqlite3 *main, *db;
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t wake, idle;
	int want, busy, quit;
	int old_auto;		/* wal_autocheckpoint to restore */
};

static void *
ckpt_main(void *arg)
{
	struct ckpt *c = arg;

	pthread_mutex_lock(&c->mu);
	for (;;) {
		while (!c->want && !c->quit)
			pthread_cond_wait(&c->wake, &c->mu);
		if (c->quit)
			break;
		c->want = 0;
		c->busy = 1;
		pthread_mutex_unlock(&c->mu);
		sqlite3_wal_checkpoint_v2(c->db, "main",
		    SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
		pthread_mutex_lock(&c->mu);
		c->busy = 0;
		pthread_cond_broadcast(&c->idle);
	}
	pthread_mutex_unlock(&c->mu);
	return NULL;
}

/* After each commit of the writer (its thread). */
static int
on_commit(void *arg, sqlite3 *db, const char *name, int nframes)
{
	struct ckpt *c = arg;

	pthread_mutex_lock(&c->mu);
	if (nframes >= WAL_LIMIT) {
		while (c->busy)
			pthread_cond_wait(&c->idle, &c->mu);
		pthread_mutex_unlock(&c->mu);
		sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_PASSIVE,
		    NULL, NULL);
		return SQLITE_OK;
	}
	if (nframes >= WAL_TRIGGER && !c->busy && !c->want) {
		c->want = 1;
		pthread_cond_signal(&c->wake);
	}
	pthread_mutex_unlock(&c->mu);
	return SQLITE_OK;
}

static int
pragma_int(sqlite3 *db, const char *sql, int dflt)
{
	sqlite3_stmt *q;
	int v = dflt;

	if (sqlite3_prepare_v2(db, sql, -1, &q, NULL) == SQLITE_OK &&
	    sqlite3_step(q) == SQLITE_ROW)
		v = sqlite3_column_int(q, 0);
	sqlite3_finalize(q);
	return v;
}

static int
is_wal(sqlite3 *db)
{
	sqlite3_stmt *q;
	int wal = 0;

	if (sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &q, NULL) ==
	    SQLITE_OK && sqlite3_step(q) == SQLITE_ROW) {
		const char *m = (const char *)sqlite3_column_text(q, 0);

		wal = m != NULL && strcmp(m, "wal") == 0;
	}
	sqlite3_finalize(q);
	return wal;
}

struct ckpt *
ingest_ckpt_start(sqlite3 *db)
{
	const char *file = sqlite3_db_filename(db, "main");
	struct ckpt *c;

	if (file == NULL || *file == '\0' || !is_wal(db))
		return NULL;	/* SQLite's own checkpoints, if any */
	c = xcalloc(1, sizeof *c);
	c->main = db;
	c->old_auto = pragma_int(db, "PRAGMA wal_autocheckpoint", 1000);
	if (sqlite3_open_v2(file, &c->db, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK ||
	    sqlite3_exec(c->db, "PRAGMA synchronous=NORMAL", NULL, NULL,
	    NULL) != SQLITE_OK) {
		sqlite3_close(c->db);
		free(c);
		return NULL;
	}
	pthread_mutex_init(&c->mu, NULL);
	pthread_cond_init(&c->wake, NULL);
	pthread_cond_init(&c->idle, NULL);
	if (pthread_create(&c->th, NULL, ckpt_main, c) != 0) {
		pthread_cond_destroy(&c->wake);
		pthread_cond_destroy(&c->idle);
		pthread_mutex_destroy(&c->mu);
		sqlite3_close(c->db);
		free(c);
		return NULL;
	}
	sqlite3_wal_hook(db, on_commit, c);
	return c;
}

void
ingest_ckpt_stop(struct ckpt *c)
{
	if (c == NULL)
		return;
	/* Back to SQLite's checkpoints (this replaces our hook). */
	sqlite3_wal_autocheckpoint(c->main, c->old_auto);
	pthread_mutex_lock(&c->mu);
	c->quit = 1;
	pthread_cond_signal(&c->wake);
	pthread_mutex_unlock(&c->mu);
	pthread_join(c->th, NULL);
	pthread_cond_destroy(&c->wake);
	pthread_cond_destroy(&c->idle);
	pthread_mutex_destroy(&c->mu);
	sqlite3_close(c->db);
	free(c);
}
