/*
 * prune_delete: snapshots removed with every row that belongs to them
 * (prune_int.h). Which tables hold such rows is read from the schema,
 * not listed here: every table with a snapshot_id column, whatever a
 * later schema adds, and each must cascade from snapshot, so that one
 * DELETE of the snapshot row takes all of them, or nothing.
 */
#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "prune_int.h"
#include "xalloc.h"

/* The tables with a snapshot_id column, and whether that column is a
 * foreign key to snapshot(id) ON DELETE CASCADE. */
#define TABLES_SQL \
	"SELECT m.name, (SELECT count(*) FROM pragma_foreign_key_list(m.name)" \
	" f WHERE f.\"from\" = 'snapshot_id' AND f.\"table\" = 'snapshot'" \
	" AND f.on_delete = 'CASCADE')" \
	" FROM sqlite_master m, pragma_table_info(m.name) c" \
	" WHERE m.type = 'table' AND c.name = 'snapshot_id' ORDER BY m.name"

struct tables {
	char **name;
	size_t n, cap;
};

static void
tables_free(struct tables *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->name[i]);
	free(t->name);
}

/* The tables that hold snapshot rows; one that would keep them when its
 * snapshot goes is an error, before anything is removed. */
static int
load_tables(sqlite3 *db, struct tables *t, char *err, size_t errlen)
{
	sqlite3_stmt *st = db_prepare(db, TABLES_SQL, err, errlen);
	int rc;

	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);

		if (sqlite3_column_int(st, 1) == 0) {
			snprintf(err, errlen, "table %s: its snapshot_id is no "
			    "foreign key to snapshot(id) ON DELETE CASCADE: "
			    "its rows would outlive their snapshot", name);
			sqlite3_finalize(st);
			return -1;
		}
		t->name = xgrow(t->name, t->n, &t->cap, sizeof *t->name, 16);
		t->name[t->n++] = xstrdup(name);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : db_sqlerr(db, "schema", err, errlen);
}

/* Foreign keys are what remove the rows: they must be on. */
static int
check_foreign_keys(sqlite3 *db, char *err, size_t errlen)
{
	sqlite3_stmt *st = db_prepare(db, "PRAGMA foreign_keys", err, errlen);
	int on;

	if (!st)
		return -1;
	on = sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	if (on)
		return 0;
	snprintf(err, errlen, "foreign keys are off on this connection: "
	    "snapshot rows would be left behind");
	return -1;
}

/* The rows of table that belong to snapshot id, added to *rows. */
static int
count_rows(sqlite3 *db, const char *table, int64_t id, uint64_t *rows,
    char *err, size_t errlen)
{
	char *sql = sqlite3_mprintf("SELECT count(*) FROM \"%w\" WHERE "
	    "snapshot_id = ?", table);
	sqlite3_stmt *st = sql ? db_prepare(db, sql, err, errlen) : NULL;
	int rc;

	sqlite3_free(sql);
	if (!st)
		return sql ? -1 : db_sqlerr(db, table, err, errlen);
	sqlite3_bind_int64(st, 1, id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*rows += (uint64_t)sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : db_sqlerr(db, table, err, errlen);
}

/* The snapshot row; its rows in other tables go with it (cascade). */
static int
delete_snapshot(sqlite3 *db, sqlite3_stmt *del, int64_t id, char *err,
    size_t errlen)
{
	char what[64];

	sqlite3_bind_int64(del, 1, id);
	if (db_step_done(del) == 0)
		return 0;
	snprintf(what, sizeof what, "removing snapshot %" PRId64, id);
	return db_sqlerr(db, what, err, errlen);
}

/* The database passes PRAGMA quick_check: 0, or -1 with err saying
 * what quick_check found (the caller names the database). A damaged page read by the policy may hold
 * no snapshot, or a wrong one: deleting by what was read could take the
 * snapshots that were to be kept, and a rewrite of the b-trees around a
 * damaged page spreads the damage. Nothing is changed then. */
static int
check_intact(sqlite3 *db, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	char said[512] = "";
	size_t len = 0;
	int rc, nrow = 0;

	if (sqlite3_prepare_v2(db, "PRAGMA quick_check(5)", -1, &st, NULL) !=
	    SQLITE_OK)
		return db_sqlerr(db, "PRAGMA quick_check", err, errlen);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *r = (const char *)sqlite3_column_text(st, 0);

		if (nrow++ == 0 && r && strcmp(r, "ok") == 0)
			continue;
		if (len < sizeof said)
			len += (size_t)snprintf(said + len, sizeof said - len,
			    "%s%s", len ? "; " : "", r ? r : "?");
	}
	if (rc != SQLITE_DONE && len < sizeof said)
		snprintf(said + len, sizeof said - len, "%s%s", len ? "; " :
		    "", sqlite3_errmsg(db));
	sqlite3_finalize(st);
	if (said[0] == '\0')
		return 0;
	for (char *c = said; *c; c++)
		if (*c == '\n')
			*c = ' ';
	snprintf(err, errlen, "the database is damaged, PRAGMA quick_check "
	    "says: %s; nothing was removed: restore it from a backup, or "
	    "recover it (sqlite3 .recover)", said);
	return -1;
}

int
prune_delete(sqlite3 *db, const int64_t *ids, size_t n, uint64_t *rows,
    size_t *ntables, char *err, size_t errlen)
{
	struct tables t = { 0 };
	sqlite3_stmt *del = NULL;
	int rc = -1;

	assert(db != NULL && (ids != NULL || n == 0));
	assert(rows != NULL && ntables != NULL && err != NULL && errlen > 0);
	if (check_intact(db, err, errlen) < 0 ||
	    check_foreign_keys(db, err, errlen) < 0 ||
	    load_tables(db, &t, err, errlen) < 0)
		goto out;
	del = db_prepare(db, "DELETE FROM snapshot WHERE id = ?", err,
	    errlen);
	if (!del)
		goto out;
	for (size_t i = 0; i < n; i++) {
		rows[i] = 1;
		for (size_t k = 0; k < t.n; k++)
			if (count_rows(db, t.name[k], ids[i], &rows[i], err,
			    errlen) < 0)
				goto out;
		if (delete_snapshot(db, del, ids[i], err, errlen) < 0)
			goto out;
	}
	*ntables = t.n + 1;
	rc = 0;
out:
	sqlite3_finalize(del);
	tables_free(&t);
	return rc;
}
