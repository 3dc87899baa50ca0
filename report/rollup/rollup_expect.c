/*
 * rollup_expect: until when each device is expected (sql/io.sql, io_expect).
 *
 * A device is expected from its first interval start to its end: G (the
 * latest interval end in the database) when the device was still there
 * at its host's last sample (its own last one within an interval and the
 * jitter of it), else its own last interval end (the host went on without
 * it: a removed disk). So a host that stops logging is missing, not idle,
 * until the end of the data, and each ingest that moves G, a host's end
 * or a device's last sample moves the ends that depend on it. The roll-up
 * rebuilds the hours between an old end and the new one; io_expect keeps
 * the ends the derived tables were built with, so that the next roll-up
 * knows what moved.
 */
#include <stdlib.h>

#include "db.h"
#include "rollup_int.h"
#include "xalloc.h"

struct moved {
	int64_t id, end_ms;
};

static const char ends_sql[] =
    "SELECT d.id, coalesce(e.end_ms, d.last_ms), e.end_ms IS NULL, "
    "CASE WHEN d.last_ms + d.interval_ms + ?1 >= h.hend THEN g.gend "
    "ELSE d.last_ms END "
    "FROM io_dev d "
    "JOIN (SELECT host_id, max(last_ms) AS hend FROM io_dev "
    "GROUP BY host_id) h ON h.host_id = d.host_id "
    "JOIN (SELECT max(last_ms) AS gend FROM io_dev) g "
    "LEFT JOIN io_expect e ON e.dev_id = d.id";

/* The new ends that differ from io_expect's (or have no row there). */
static int
ends(sqlite3 *db, void (*changed)(void *, int64_t, int64_t), void *arg,
    struct moved **out, size_t *n)
{
	sqlite3_stmt *st;
	size_t cap = 0;
	int rc;

	if (sqlite3_prepare_v2(db, ends_sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, JITTER_MS);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t old = sqlite3_column_int64(st, 1);
		int64_t now = sqlite3_column_int64(st, 3);

		if (old == now && !sqlite3_column_int(st, 2))
			continue;
		if (old != now)
			changed(arg, old < now ? old : now,
			    old < now ? now : old);
		*out = xgrow(*out, *n, &cap, sizeof **out, 64);
		(*out)[*n].id = sqlite3_column_int64(st, 0);
		(*out)[(*n)++].end_ms = now;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

int
rollup_expect(sqlite3 *db, void (*changed)(void *, int64_t, int64_t),
    void *arg, char *err, size_t errlen)
{
	struct moved *m = NULL;
	sqlite3_stmt *put = NULL;
	size_t n = 0;
	int rc = -1;

	/* Read them all before writing: a statement that writes the table
	 * another one is reading may or may not see its own rows. */
	if (ends(db, changed, arg, &m, &n) < 0 ||
	    sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO io_expect (dev_id, "
	    "end_ms) VALUES (?1, ?2)", -1, &put, NULL) != SQLITE_OK)
		goto out;
	for (size_t i = 0; i < n; i++) {
		sqlite3_bind_int64(put, 1, m[i].id);
		sqlite3_bind_int64(put, 2, m[i].end_ms);
		if (sqlite3_step(put) != SQLITE_DONE)
			goto out;
		sqlite3_reset(put);
	}
	rc = 0;
out:
	if (rc < 0)
		db_sqlerr(db, "the devices' expected ends", err, errlen);
	sqlite3_finalize(put);
	free(m);
	return rc;
}
