/*
 * dbupgrade: schema 4 stores a directory row as its parent's row and its
 * own name; older databases hold paths, converted here in the upgrade's
 * transaction (see db_int.h). Paths are split in C, byte by byte: SQL's
 * text functions count characters, and names need not be UTF-8.
 */
#include "db_int.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "db.h"

/* Does table dir have a column named path? */
static int
dir_has_path(sqlite3 *db, char *err, size_t errlen)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT count(*) FROM"
	    " pragma_table_info('dir') WHERE name = 'path'", err, errlen);
	int n = -1;

	if (!st)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int(st, 0);
	else
		snprintf(err, errlen, "%s", sqlite3_errmsg(db));
	sqlite3_finalize(st);
	return n;
}

int
dbupgrade_dir_aside(sqlite3 *db, char *err, size_t errlen)
{
	int n = dir_has_path(db, err, errlen);

	if (n <= 0)
		return n;
	if (db_exec(db, "DROP VIEW IF EXISTS v_dir;"
	    " ALTER TABLE dir RENAME TO dir_v3;", err, errlen) < 0)
		return -1;
	return 1;
}

/* The new id of the row of (snap, path), or 0 when there is none. */
static int64_t
lookup(sqlite3_stmt *find, int64_t snap, const char *path, size_t len)
{
	int64_t id = 0;

	sqlite3_bind_int64(find, 1, snap);
	db_bind_blobtext(find, 2, path, len);
	if (sqlite3_step(find) == SQLITE_ROW)
		id = sqlite3_column_int64(find, 0);
	sqlite3_reset(find);
	return id;
}

/* Insert the row read by sel (snapshot_id, path, depth, totals...) and
 * remember its new id; 0 or -1. */
static int
convert_row(sqlite3_stmt *sel, sqlite3_stmt *find, sqlite3_stmt *ins,
    sqlite3_stmt *map)
{
	int64_t snap = sqlite3_column_int64(sel, 0);
	const char *path = (const char *)sqlite3_column_blob(sel, 1);
	size_t len = (size_t)sqlite3_column_bytes(sel, 1);
	int depth = sqlite3_column_int(sel, 2);
	const char *name = path, *slash;
	int64_t parent = 0;

	if (!path)
		path = name = "";
	if (depth > 0) {
		slash = memrchr(path, '/', len);
		if (slash)
			parent = lookup(find, snap, path, (size_t)(slash - path));
		else
			parent = lookup(find, snap, ".", 1);
		if (parent)
			name = slash ? slash + 1 : path;
	}
	sqlite3_bind_int64(ins, 1, snap);
	if (parent)
		sqlite3_bind_int64(ins, 2, parent);
	else
		sqlite3_bind_null(ins, 2);
	db_bind_blobtext(ins, 3, name, len - (size_t)(name - path));
	for (int i = 2; i < 8; i++)
		sqlite3_bind_value(ins, i + 2, sqlite3_column_value(sel, i));
	if (db_step_done(ins) < 0)
		return -1;
	sqlite3_bind_int64(map, 1, snap);
	db_bind_blobtext(map, 2, path, len);
	sqlite3_bind_int64(map, 3, sqlite3_last_insert_rowid(
	    sqlite3_db_handle(ins)));
	return db_step_done(map);
}

int
dbupgrade_dir_rows(sqlite3 *db, char *err, size_t errlen)
{
	sqlite3_stmt *sel = NULL, *find = NULL, *ins = NULL, *map = NULL;
	int rc = -1, step;

	if (db_exec(db, "CREATE TEMP TABLE dir_v3_id (snapshot_id INTEGER,"
	    " path TEXT, id INTEGER, PRIMARY KEY (snapshot_id, path))"
	    " WITHOUT ROWID", err, errlen) < 0)
		return -1;
	/* Parents sort before their children: they are less deep. */
	sel = db_prepare(db, "SELECT snapshot_id, path, depth, files, dirs,"
	    " bytes, alloc_bytes, max_mtime FROM dir_v3"
	    " ORDER BY snapshot_id, depth", err, errlen);
	find = db_prepare(db, "SELECT id FROM dir_v3_id WHERE snapshot_id = ?"
	    " AND path = ?", err, errlen);
	ins = db_prepare(db, "INSERT INTO dir (snapshot_id, parent, name,"
	    " depth, files, dirs, bytes, alloc_bytes, max_mtime)"
	    " VALUES (?,?,?,?,?,?,?,?,?)", err, errlen);
	map = db_prepare(db, "INSERT OR IGNORE INTO dir_v3_id VALUES (?,?,?)",
	    err, errlen);
	if (!sel || !find || !ins || !map)
		goto out;
	while ((step = sqlite3_step(sel)) == SQLITE_ROW)
		if (convert_row(sel, find, ins, map) < 0)
			break;
	if (step != SQLITE_DONE) {
		snprintf(err, errlen, "converting dir rows: %s",
		    sqlite3_errmsg(db));
		goto out;
	}
	rc = 0;
out:
	sqlite3_finalize(sel);
	sqlite3_finalize(find);
	sqlite3_finalize(ins);
	sqlite3_finalize(map);
	if (db_exec(db, "DROP TABLE temp.dir_v3_id", rc < 0 ? NULL : err,
	    errlen) < 0)
		rc = -1;
	if (rc == 0 && db_exec(db, "DROP TABLE dir_v3", err, errlen) < 0)
		rc = -1;
	return rc;
}
