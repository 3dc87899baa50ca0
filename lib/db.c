/*
 * db: open, schema version, embedded SQL.
 *
 * A file's identity is known before anything writes to it (D1), the file
 * SQLite opens is the one checked (D3, with lib/dbfile), and a database
 * whose user_version is 0 is new or was never initialised: the schema and
 * user_version are installed in one transaction (D2).
 */
#include "db.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "conf.h"
#include "dbfile.h"
#include "metric.h"
#include "sql_embed.h"

#define BUSY_SLEEP_MS 20

static volatile sig_atomic_t *stop_flag;

static int dir_writable(const char *path);

void
db_set_stop_flag(volatile sig_atomic_t *flag)
{
	stop_flag = flag;
}

/* SQLite's own busy timeout sleeps through signals; this one polls. */
static int
on_busy(void *arg, int tries)
{
	(void)arg;
	if ((stop_flag && *stop_flag) ||
	    (long long)tries * BUSY_SLEEP_MS >= DB_BUSY_MS)
		return 0;
	sqlite3_sleep(BUSY_SLEEP_MS);
	return !(stop_flag && *stop_flag);
}

const char *
db_default_path(const char *explicit_path)
{
	return conf_pick(explicit_path, DB_ENV, &conf_get()->top[CONF_DB],
	    DB_DEFAULT, NULL);
}

int
db_exec(sqlite3 *db, const char *sql, char *err, size_t errlen)
{
	char *msg = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &msg) == SQLITE_OK)
		return 0;
	if (err)
		snprintf(err, errlen, "%s", msg ? msg : sqlite3_errmsg(db));
	sqlite3_free(msg);
	return -1;
}

static int
pragma_int(sqlite3 *db, const char *sql, int *out)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*out = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : -1;
}

/*
 * Switch to WAL. SQLite takes the exclusive lock this needs without calling
 * the busy handler, so two processes opening a new database at once would
 * have one fail with "database is locked"; retry with the busy handler's
 * patience and its respect for the stop flag. A file system without shared
 * memory answers the old mode, which is kept as before.
 */
static int
set_wal(sqlite3 *db, char *err, size_t errlen)
{
	long long waited;
	int rc;

	for (waited = 0;; waited += BUSY_SLEEP_MS) {
		rc = sqlite3_exec(db, "PRAGMA journal_mode=WAL", NULL, NULL,
		    NULL);
		if ((rc & 0xff) != SQLITE_BUSY)
			break;
		if ((stop_flag && *stop_flag) || waited >= DB_BUSY_MS)
			break;
		sqlite3_sleep(BUSY_SLEEP_MS);
	}
	if (rc == SQLITE_OK)
		return 0;
	snprintf(err, errlen, "%s", sqlite3_errmsg(db));
	return -1;
}

/* Install the schema into a new database, or upgrade an older one: every
 * statement of the schema is CREATE ... IF NOT EXISTS, so running it on a
 * version-1 database adds what version 2 brought (the I/O tables) and
 * leaves the snapshots alone. Version 3 changed the rules of the derived
 * I/O tables (sql/io.sql): a version-2 database loses its io_dev_hour
 * (recreated with the columns of version 3) and has every hour with
 * samples marked dirty, so the next ingest rebuilds them all and the
 * analyses say they are stale until then. Version 5 added io_quarantine
 * and keeps derived rows only where some device has a value (a minute or
 * hour in which every expected device is missing has none): an older
 * database loses those rows, in the same transaction, and nothing else
 * changes (the analyses read the same minutes). Versions 4, 6, 7 and 8
 * changed the census tables: see exact_tables, census_cols and dir_rows
 * below. */
static const char iocensus_io_from2[] = "DROP TABLE IF EXISTS io_dev_hour;";
static const char iocensus_io_sparse[] =
    "DELETE FROM io_minute WHERE valid = 0;"
    "DELETE FROM io_host_hour WHERE NOT EXISTS (SELECT 1 FROM io_dev d "
    "JOIN io_dev_hour x ON x.dev_id = d.id AND x.t0 = io_host_hour.t0 "
    "WHERE d.host_id = io_host_hour.host_id);"
    "DELETE FROM io_hour WHERE NOT EXISTS (SELECT 1 FROM io_minute m "
    "WHERE m.t >= io_hour.t AND m.t < io_hour.t + 3600);"
    "DELETE FROM io_day WHERE NOT EXISTS (SELECT 1 FROM io_hour h "
    "WHERE h.t >= io_day.t AND h.t < io_day.t + 86400);";
static const char iocensus_io_dirty_all[] =
    "INSERT OR IGNORE INTO io_dirty (t0) SELECT DISTINCT t0 FROM io_chunk;";

/*
 * Version 4 keeps totals beyond INT64_MAX as exact decimal text, in
 * columns without a type (sql/schema.sql); SQLite cannot change a
 * column's type in place, so a table with such a column is rebuilt: it is
 * renamed (legacy_alter_table leaves the other tables' references to its
 * name alone), created anew by the schema, filled from the old one
 * (column by column: the new one may have more) and dropped. The views
 * over these tables and hist's index go first and come back with the
 * schema. Foreign keys are off meanwhile (open_rw), so dropping the old
 * snapshot table deletes nothing. Existing values are copied as they are.
 * dir is not among them: version 7 changes its rows' shape, and
 * dir_rows moves them into the new table, exact columns included.
 */
static const char *const exact_tables[] = { "snapshot", "project", "owner",
    "hist", "hist_extent", "project_extent", "top" };
#define N_EXACT (sizeof exact_tables / sizeof *exact_tables)

static int census11_table(const char *t);
static const char iocensus_exact_drop[] = "PRAGMA legacy_alter_table=ON;"
    " DROP VIEW IF EXISTS v_snapshot; DROP VIEW IF EXISTS v_project;"
    " DROP VIEW IF EXISTS v_hist; DROP VIEW IF EXISTS v_dir;"
    " DROP INDEX IF EXISTS hist_key;";

static int
table_exists(sqlite3 *db, const char *name)
{
	sqlite3_stmt *st;
	int found = 0;

	if (sqlite3_prepare_v2(db, "SELECT 1 FROM sqlite_master WHERE"
	    " type = 'table' AND name = ?", -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	found = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return found;
}

/* Does table t have column col? 1, 0, or -1 with err. */
static int
has_column(sqlite3 *db, const char *t, const char *col, char *err,
    size_t errlen)
{
	char *sql = sqlite3_mprintf("SELECT count(*) FROM pragma_table_info(%Q)"
	    " WHERE name = %Q", t, col);
	int n = 0, rc = sql ? pragma_int(db, sql, &n) : -1;

	sqlite3_free(sql);
	if (rc < 0) {
		snprintf(err, errlen, "%s", sqlite3_errmsg(db));
		return -1;
	}
	return n > 0;
}

/* Before the schema runs: move the old tables aside; moved[i] says which
 * existed (a version-1 database lacks the later ones). */
static int
exact_move_aside(sqlite3 *db, int moved[N_EXACT], char *err, size_t errlen)
{
	char sql[128];

	if (db_exec(db, iocensus_exact_drop, err, errlen) < 0)
		return -1;
	for (size_t i = 0; i < N_EXACT; i++) {
		if ((moved[i] = table_exists(db, exact_tables[i])) < 0) {
			snprintf(err, errlen, "%s", sqlite3_errmsg(db));
			return -1;
		}
		snprintf(sql, sizeof sql, "ALTER TABLE \"%s\" RENAME TO"
		    " \"%s_v3\"", exact_tables[i], exact_tables[i]);
		if (moved[i] && db_exec(db, sql, err, errlen) < 0)
			return -1;
	}
	return 0;
}

/* The columns of table t, quoted, comma-separated, in their order; NULL
 * with err on error. sqlite3_free() it. */
static char *
column_list(sqlite3 *db, const char *t, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	sqlite3_str *s = sqlite3_str_new(db);
	int n = 0, rc;

	if (sqlite3_prepare_v2(db, "SELECT name FROM pragma_table_info(?)"
	    " ORDER BY cid", -1, &st, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "%s", sqlite3_errmsg(db));
		sqlite3_free(sqlite3_str_finish(s));
		return NULL;
	}
	sqlite3_bind_text(st, 1, t, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		sqlite3_str_appendf(s, "%s\"%w\"", n++ ? ", " : "",
		    (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE || n == 0 || sqlite3_str_errcode(s)) {
		snprintf(err, errlen, "%s: cannot list its columns", t);
		sqlite3_free(sqlite3_str_finish(s));
		return NULL;
	}
	return sqlite3_str_finish(s);
}

/* Fill table t from old, column by column (t may have more: NULL in the
 * old rows), with extra SQL after the list of columns, and drop old. */
static int
copy_table(sqlite3 *db, const char *t, const char *old, const char *extra,
    const char *extra_val, char *err, size_t errlen)
{
	char *cols, *sql;
	int rc;

	if (!(cols = column_list(db, old, err, errlen)))
		return -1;
	sql = sqlite3_mprintf("INSERT INTO \"%w\" (%s%s) SELECT %s%s FROM"
	    " \"%w\"; DROP TABLE \"%w\";", t, cols, extra, cols, extra_val,
	    old, old);
	sqlite3_free(cols);
	rc = sql ? db_exec(db, sql, err, errlen) : -1;
	if (!sql)
		snprintf(err, errlen, "out of memory");
	sqlite3_free(sql);
	return rc;
}

/* After the schema has created the new tables: fill them, drop the old.
 * The old columns are named: a new table has more of them (version 6's),
 * which the old rows do not know (NULL). */
static int
exact_fill(sqlite3 *db, const int moved[N_EXACT], char *err, size_t errlen)
{
	for (size_t i = 0; i < N_EXACT; i++) {
		const char *t = exact_tables[i];
		char old[64];

		/* Schema 11 reshaped these: census11_fill reads them. */
		if (!moved[i] || census11_table(t))
			continue;
		snprintf(old, sizeof old, "%s_v3", t);
		if (copy_table(db, t, old, "", "", err, errlen) < 0)
			return -1;
	}
	return db_exec(db, "PRAGMA legacy_alter_table=OFF", err, errlen);
}

/*
 * Versions 6 and 8 added columns to tables every older version has:
 * capacity (statvfs at the scan; exact, so without a type) and the real
 * scan time of a snapshot, and the entries of a project (6); the device
 * number of ROOT (8); whether a project's name is public (9); the mount
 * point of the mount that holds ROOT (10). The rows written before have
 * NULL there: unknown.
 * A version 1-3 database gets them from the schema, which creates its
 * rebuilt tables anew (exact_fill copies the old columns by name); a
 * version 4 to 9 one through ALTER TABLE, which leaves every row where it
 * is, and adds only the columns it lacks. The new tables (project_limit;
 * cold) and the views (v_limit; v_cold, v_snapshot's fs_device) come from
 * the schema as usual.
 */
static const struct {
	const char *table, *col, *type;
} census_cols[] = {
	{ "snapshot", "fs_bytes", "" }, { "snapshot", "fs_free_bytes", "" },
	{ "snapshot", "fs_avail_bytes", "" }, { "snapshot", "fs_inodes", "" },
	{ "snapshot", "fs_free_inodes", "" },
	{ "snapshot", "scanned_at", "INTEGER" },
	{ "project", "entries", "INTEGER" },
	{ "snapshot", "fs_dev", "TEXT" },
	{ "project", "public", "INTEGER" },
	{ "snapshot", "fs_mountpoint", "TEXT" },
};

/* Add a column unless the table has it. 0, or -1 with err. */
static int
add_column(sqlite3 *db, const char *table, const char *col,
    const char *type, char *err, size_t errlen)
{
	char *sql;
	int have = has_column(db, table, col, err, errlen), rc;

	if (have != 0)
		return have < 0 ? -1 : 0;
	sql = sqlite3_mprintf("ALTER TABLE \"%w\" ADD COLUMN \"%w\" %s", table,
	    col, type);
	rc = sql ? db_exec(db, sql, err, errlen) : -1;
	sqlite3_free(sql);
	return rc;
}

/*
 * Schema 12 (per-directory cold bytes): dir gains cold_bytes, at its end.
 * A table of schema 7 to 11 gets it through ALTER TABLE, its rows NULL
 * there: their scans counted no cold bytes per directory, which is
 * unknown, not zero. Called after the schema ran, so that dir exists
 * whatever the old version (a table of paths, dir_aside, is recreated by
 * the schema with the column).
 */
static int
dir_cold_col(sqlite3 *db, char *err, size_t errlen)
{
	return add_column(db, "dir", "cold_bytes", "", err, errlen);
}

static int
census_add_cols(sqlite3 *db, char *err, size_t errlen)
{
	for (size_t i = 0; i < sizeof census_cols / sizeof *census_cols; i++)
		if (add_column(db, census_cols[i].table, census_cols[i].col,
		    census_cols[i].type, err, errlen) < 0)
			return -1;
	return 0;
}


/*
 * Version 7 stores a directory row as its parent's row and its own name;
 * older databases hold paths. Before the schema runs, dir_aside moves
 * such a table aside as dir_paths (v_dir, which reads it, is dropped and
 * recreated by the views); after, dir_rows makes one row per old row, the
 * path split into its parent's row and its own name, and drops
 * dir_paths. A row whose parent has no row keeps its whole path as its
 * name and no parent, so v_dir shows it as before. Paths are split in C,
 * byte by byte: SQL's text functions count characters, and names need
 * not be UTF-8. Totals are copied as values, so a version-4 total held as
 * exact decimal text stays that text.
 */

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

/* 1 when dir was moved aside, 0 when it has no paths, -1 on an error. */
static int
dir_aside(sqlite3 *db, char *err, size_t errlen)
{
	int n = dir_has_path(db, err, errlen);

	if (n <= 0)
		return n;
	if (db_exec(db, "DROP VIEW IF EXISTS v_dir;"
	    " ALTER TABLE dir RENAME TO dir_paths;", err, errlen) < 0)
		return -1;
	return 1;
}

/* The new id of the row of (snap, path), or 0 when there is none. */
static int64_t
dir_lookup(sqlite3_stmt *find, int64_t snap, const char *path, size_t len)
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
dir_convert_row(sqlite3_stmt *sel, sqlite3_stmt *find, sqlite3_stmt *ins,
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
			parent = dir_lookup(find, snap, path,
			    (size_t)(slash - path));
		else
			parent = dir_lookup(find, snap, ".", 1);
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

static int
dir_rows(sqlite3 *db, char *err, size_t errlen)
{
	sqlite3_stmt *sel = NULL, *find = NULL, *ins = NULL, *map = NULL;
	int rc = -1, step;

	if (db_exec(db, "CREATE TEMP TABLE dir_paths_id (snapshot_id"
	    " INTEGER, path TEXT, id INTEGER, PRIMARY KEY (snapshot_id, path))"
	    " WITHOUT ROWID", err, errlen) < 0)
		return -1;
	/* Parents sort before their children: they are less deep. */
	sel = db_prepare(db, "SELECT snapshot_id, path, depth, files, dirs,"
	    " bytes, alloc_bytes, max_mtime FROM dir_paths"
	    " ORDER BY snapshot_id, depth", err, errlen);
	find = db_prepare(db, "SELECT id FROM dir_paths_id WHERE"
	    " snapshot_id = ? AND path = ?", err, errlen);
	ins = db_prepare(db, "INSERT INTO dir (snapshot_id, parent, name,"
	    " depth, files, dirs, bytes, alloc_bytes, max_mtime)"
	    " VALUES (?,?,?,?,?,?,?,?,?)", err, errlen);
	map = db_prepare(db, "INSERT OR IGNORE INTO dir_paths_id"
	    " VALUES (?,?,?)", err, errlen);
	if (!sel || !find || !ins || !map)
		goto out;
	while ((step = sqlite3_step(sel)) == SQLITE_ROW)
		if (dir_convert_row(sel, find, ins, map) < 0)
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
	if (db_exec(db, "DROP TABLE temp.dir_paths_id", rc < 0 ? NULL : err,
	    errlen) < 0)
		rc = -1;
	if (rc == 0 && db_exec(db, "DROP TABLE dir_paths", err, errlen) < 0)
		rc = -1;
	return rc;
}

/*
 * Version 11 stores a project's rows by its number in its snapshot
 * (project.id, 1 up in the order of names) instead of its name, and only
 * what is not zero: project_hist (the projects' histogram rows, which
 * were in hist), project_extent (one row per project instead of one per
 * metric) and project_cold (a project's cold rows where they differ
 * from the next threshold's; cold keeps the whole file system's, every
 * threshold). The bounds of a slot are
 * hist_slot's, no longer in each row. Before the schema runs,
 * census11_aside moves the four tables it changes aside as <t>_v10
 * (exact_move_aside has moved three of them as <t>_v3 in a database of
 * schema 3 or before) and drops the views and indexes over them; after,
 * census11_fill converts their rows and drops them. A row that would be
 * lost (a project's row of a project without a project row) fails the
 * upgrade rather than vanish from the views.
 */
static const char *const census11_tables[] = { "project", "hist",
    "project_extent", "cold" };
#define N_C11 (sizeof census11_tables / sizeof *census11_tables)
/* A column that tells the old shape (with) or the new one (without). */
static const struct {
	const char *col;
	int old_has;
} census11_mark[N_C11] = { { "id", 0 }, { "project", 1 }, { "metric", 1 },
    { "project", 1 } };

static int
census11_table(const char *t)
{
	for (size_t i = 0; i < N_C11; i++)
		if (strcmp(census11_tables[i], t) == 0)
			return 1;
	return 0;
}

static int
census11_aside(sqlite3 *db, char *err, size_t errlen)
{
	char sql[128];
	int have;

	if (db_exec(db, "PRAGMA legacy_alter_table=ON;"
	    " DROP VIEW IF EXISTS v_project; DROP VIEW IF EXISTS v_hist;"
	    " DROP VIEW IF EXISTS v_cold; DROP INDEX IF EXISTS hist_key;"
	    " DROP INDEX IF EXISTS cold_key;", err, errlen) < 0)
		return -1;
	for (size_t i = 0; i < N_C11; i++) {
		if ((have = table_exists(db, census11_tables[i])) < 0) {
			snprintf(err, errlen, "%s", sqlite3_errmsg(db));
			return -1;
		}
		/* A table of the new shape already (the schema made it) stays. */
		if (have && (have = has_column(db, census11_tables[i],
		    census11_mark[i].col, err, errlen)) >= 0)
			have = have == census11_mark[i].old_has;
		if (have < 0)
			return -1;
		snprintf(sql, sizeof sql, "ALTER TABLE \"%s\" RENAME TO"
		    " \"%s_v10\"", census11_tables[i], census11_tables[i]);
		if (have && db_exec(db, sql, err, errlen) < 0)
			return -1;
	}
	return db_exec(db, "PRAGMA legacy_alter_table=OFF", err, errlen);
}

/* The constants: every slot's bounds by metric, the file metrics' codes.
 * Written with every schema install, as the views are. */
static int
census11_constants(sqlite3 *db, char *err, size_t errlen)
{
	sqlite3_stmt *b = NULL, *m = NULL;
	int rc = -1;

	if (db_exec(db, "DELETE FROM hist_slot; DELETE FROM file_metric;", err,
	    errlen) < 0 ||
	    !(b = db_prepare(db, "INSERT INTO hist_slot (metric, slot, lo, hi)"
	    " VALUES (?,?,?,?)", err, errlen)) ||
	    !(m = db_prepare(db, "INSERT INTO file_metric (id, metric)"
	    " VALUES (?,?)", err, errlen)))
		goto out;
	for (int i = 0; i < METRIC_COUNT; i++)
		for (int slot = 0; slot < HIST_NB; slot++) {
			i128 lo, hi;

			hist_bounds_base(metric_def[i].scheme, slot, &lo, &hi);
			db_bind_text(b, 1, metric_def[i].name);
			sqlite3_bind_int(b, 2, slot);
			db_bind_i128(b, 3, lo);
			db_bind_i128(b, 4, hi);
			if (db_step_done(b) < 0)
				goto fail;
		}
	for (int k = 0; k < METRIC_NFILE; k++) {
		sqlite3_bind_int(m, 1, k);
		db_bind_text(m, 2, metric_def[metric_file[k]].name);
		if (db_step_done(m) < 0)
			goto fail;
	}
	rc = 0;
	goto out;
fail:
	snprintf(err, errlen, "%s", sqlite3_errmsg(db));
out:
	sqlite3_finalize(b);
	sqlite3_finalize(m);
	return rc;
}

/* Table t's old rows: "<t>_v10", or "<t>_v3" (exact_move_aside), into
 * old; 0 when neither exists (a table older than t), -1 on an error. */
static int
census11_old(sqlite3 *db, const char *t, char *old, size_t len, char *err,
    size_t errlen)
{
	static const char *const suffix[] = { "_v10", "_v3" };
	int have;

	for (size_t i = 0; i < 2; i++) {
		snprintf(old, len, "%s%s", t, suffix[i]);
		if ((have = table_exists(db, old)) != 0) {
			if (have < 0)
				snprintf(err, errlen, "%s", sqlite3_errmsg(db));
			return have;
		}
	}
	return 0;
}

/* Run sql (one statement, %w the old table's name twice at most) and
 * check that it wrote as many rows as count_sql counts there. */
static int
census11_move(sqlite3 *db, const char *old, const char *sql,
    const char *count_sql, char *err, size_t errlen)
{
	char *q = sqlite3_mprintf(sql, old, old);
	char *c = count_sql ? sqlite3_mprintf(count_sql, old) : NULL;
	int want = 0, rc = -1;

	if (!q || (count_sql && !c)) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	if (c && pragma_int(db, c, &want) < 0) {
		snprintf(err, errlen, "%s", sqlite3_errmsg(db));
		goto out;
	}
	if (db_exec(db, q, err, errlen) < 0)
		goto out;
	if (c && sqlite3_changes(db) != want) {
		snprintf(err, errlen, "%s: %d of its rows name no project of "
		    "their snapshot (or no file metric): not converted", old,
		    want - sqlite3_changes(db));
		goto out;
	}
	rc = 0;
out:
	sqlite3_free(q);
	sqlite3_free(c);
	return rc;
}

static const char census11_hist_fs[] =
    "INSERT INTO hist (snapshot_id, metric, slot, n, w, v, vw)"
    " SELECT snapshot_id, metric, slot, n, w, v, vw FROM \"%w\""
    " WHERE project IS NULL";
static const char census11_hist_proj[] =
    "INSERT INTO project_hist (snapshot_id, project_id, metric, slot, n, w)"
    " SELECT h.snapshot_id, p.id, m.id, h.slot, h.n, h.w FROM \"%w\" h"
    " JOIN project p ON p.snapshot_id = h.snapshot_id AND p.name = h.project"
    " JOIN file_metric m ON m.metric = h.metric";
static const char census11_hist_count[] =
    "SELECT count(*) FROM \"%w\" WHERE project IS NOT NULL";
static const char census11_extent[] =
    "INSERT INTO project_extent (snapshot_id, project_id, size_min, size_max,"
    " atime_min, atime_max, mtime_min, mtime_max, ctime_min, ctime_max)"
    " SELECT e.snapshot_id, p.id,"
    " max(CASE e.metric WHEN 'size' THEN e.min END),"
    " max(CASE e.metric WHEN 'size' THEN e.max END),"
    " max(CASE e.metric WHEN 'atime' THEN e.min END),"
    " max(CASE e.metric WHEN 'atime' THEN e.max END),"
    " max(CASE e.metric WHEN 'mtime' THEN e.min END),"
    " max(CASE e.metric WHEN 'mtime' THEN e.max END),"
    " max(CASE e.metric WHEN 'ctime' THEN e.min END),"
    " max(CASE e.metric WHEN 'ctime' THEN e.max END)"
    " FROM \"%w\" e JOIN project p ON p.snapshot_id = e.snapshot_id"
    " AND p.name = e.project"
    " WHERE e.metric IN ('size', 'atime', 'mtime', 'ctime')"
    " GROUP BY e.snapshot_id, p.id";
static const char census11_extent_count[] =
    "SELECT count(*) FROM (SELECT DISTINCT snapshot_id, project FROM \"%w\")";
/* The thresholds in the order of metric, then days: the writer's k. */
static const char census11_cold_fs[] =
    "INSERT INTO cold (snapshot_id, k, metric, days, files, bytes)"
    " SELECT snapshot_id, row_number() OVER (PARTITION BY snapshot_id"
    " ORDER BY metric, days) - 1, metric, days, files, bytes FROM \"%w\""
    " WHERE project IS NULL";
/* A project's rows that differ from its next threshold's (zero past the
 * last), as the writer keeps them. */
#define CENSUS11_COLD_KEPT \
    "(SELECT *, lead(files, 1, 0) OVER w AS nf, lead(bytes, 1, 0) OVER w" \
    " AS nb FROM \"%w\" WHERE project IS NOT NULL WINDOW w AS" \
    " (PARTITION BY snapshot_id, project, metric ORDER BY days))" \
    " WHERE NOT (files = nf AND bytes = nb)"
static const char census11_cold_proj[] =
    "INSERT INTO project_cold (snapshot_id, project_id, k, files, bytes)"
    " SELECT c.snapshot_id, p.id, t.k, c.files, c.bytes FROM"
    " (SELECT * FROM " CENSUS11_COLD_KEPT ") c"
    " JOIN project p ON p.snapshot_id = c.snapshot_id AND p.name = c.project"
    " JOIN cold t ON t.snapshot_id = c.snapshot_id AND t.metric = c.metric"
    " AND t.days = c.days";
static const char census11_cold_count[] =
    "SELECT count(*) FROM " CENSUS11_COLD_KEPT;

/* Table i's old rows into the new table: a project gets its number. */
static int
census11_convert(sqlite3 *db, size_t i, const char *old, char *err,
    size_t errlen)
{
	switch (i) {
	case 0:
		return copy_table(db, "project", old, ", id", ", row_number()"
		    " OVER (PARTITION BY snapshot_id ORDER BY name)", err,
		    errlen);
	case 1:
		return census11_move(db, old, census11_hist_fs, NULL, err,
		    errlen) < 0 || census11_move(db, old, census11_hist_proj,
		    census11_hist_count, err, errlen) < 0 ? -1 : 1;
	case 2:
		return census11_move(db, old, census11_extent,
		    census11_extent_count, err, errlen) < 0 ? -1 : 1;
	default:
		return census11_move(db, old, census11_cold_fs, NULL, err,
		    errlen) < 0 || census11_move(db, old, census11_cold_proj,
		    census11_cold_count, err, errlen) < 0 ? -1 : 1;
	}
}

/* In the order of census11_tables: project first, the others look their
 * projects up in it. A table moved aside that has the new shape already
 * (a database whose version says less than its tables) is copied back. */
static int
census11_fill(sqlite3 *db, char *err, size_t errlen)
{
	for (size_t i = 0; i < N_C11; i++) {
		char old[64], *sql;
		int have, rc;

		if ((have = census11_old(db, census11_tables[i], old,
		    sizeof old, err, errlen)) <= 0) {
			if (have < 0)
				return -1;
			continue;
		}
		if ((have = has_column(db, old, census11_mark[i].col, err,
		    errlen)) < 0)
			return -1;
		if (have != census11_mark[i].old_has)
			rc = copy_table(db, census11_tables[i], old, "", "", err,
			    errlen);
		else
			rc = census11_convert(db, i, old, err, errlen);
		if (rc < 0)
			return -1;
		if (rc == 0)
			continue;	/* copy_table dropped it */
		sql = sqlite3_mprintf("DROP TABLE \"%w\"", old);
		rc = sql ? db_exec(db, sql, err, errlen) : -1;
		sqlite3_free(sql);
		if (rc < 0)
			return -1;
	}
	return 0;
}

/*
 * Version 12 counts cold data per owner: owner_cold and v_cold_owner are
 * new, made by the schema and the views as any new table and view, and
 * nothing older changes. No row is made for a snapshot written before:
 * what it kept cannot tell an owner's cold files from its others, so it
 * has no owner_cold rows, and v_cold_owner shows none for it (unknown,
 * not zero) unless none of its files was cold at all.
 */

/*
 * Version 13 keeps each device's identities (io_dev_ident, v_io_device),
 * made by the schema and the views as any new table and view; nothing
 * older changes. Samples ingested before have no identity row: the logs
 * held it, but it was not stored, and ingesting them again adds it (their
 * samples are already there and stay as they are).
 */

/*
 * Version 9 keeps private names out of world-readable outputs. A project
 * row written before does not say whether its name was read from a
 * directory that every user may list: a name that a depth rule made
 * (the only rule that names a project after a directory) is taken as
 * private, since unknown is not public; the names of the other rules
 * came from the administrator and are public. The key of the opaque
 * labels is made here once, with the schema, from getrandom(2): never
 * replaced, so that a label stays the same across scans.
 */
static const char census_public_old[] =
    "UPDATE project SET public = (source NOT LIKE '%depth:%' AND"
    " source <> '') WHERE public IS NULL;";

static int
census_key_make(sqlite3 *db, char *err, size_t errlen)
{
	uint8_t key[DB_KEYLEN];
	sqlite3_stmt *st;
	int rc;

	if (getrandom(key, sizeof key, 0) != (ssize_t)sizeof key) {
		snprintf(err, errlen, "getrandom: %s", strerror(errno));
		return -1;
	}
	if (!(st = db_prepare(db, "INSERT OR IGNORE INTO census_key (id, key)"
	    " VALUES (1, ?)", err, errlen)))
		return -1;
	sqlite3_bind_blob(st, 1, key, sizeof key, SQLITE_TRANSIENT);
	rc = db_step_done(st);
	if (rc < 0)
		snprintf(err, errlen, "%s", sqlite3_errmsg(db));
	sqlite3_finalize(st);
	return rc;
}

static int
census_private(sqlite3 *db, char *err, size_t errlen)
{
	if (db_exec(db, census_public_old, err, errlen) < 0)
		return -1;
	return census_key_make(db, err, errlen);
}

int
db_key(sqlite3 *db, uint8_t key[DB_KEYLEN], char *err, size_t errlen)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT key FROM census_key"
	    " WHERE id = 1", err, errlen);
	int rc = -1;

	assert(db != NULL && key != NULL);
	if (!st)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW &&
	    sqlite3_column_bytes(st, 0) == DB_KEYLEN &&
	    sqlite3_column_type(st, 0) == SQLITE_BLOB) {
		memcpy(key, sqlite3_column_blob(st, 0), DB_KEYLEN);
		rc = 0;
	} else {
		snprintf(err, errlen, "the database holds no key for the "
		    "labels of private names (table census_key)");
	}
	sqlite3_finalize(st);
	return rc;
}

/* v_io enumerates a chunk's samples by joining io_slot (0..3599). */
static const char iocensus_io_slots[] =
    "INSERT OR IGNORE INTO io_slot (i) WITH RECURSIVE k(i) AS "
    "(SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i < 3599) "
    "SELECT i FROM k;";

/* The stable views, with the metric names of lib/metric.c put in. */
static int
install_views(sqlite3 *db, char *err, size_t errlen)
{
	static const char mark[] = "@FILE_METRICS@";
	const char *at = strstr(iocensus_sql_views, mark);
	char list[128];
	char *sql;
	int rc;

	/* Exactly one marker: the file metrics of v_hist. */
	assert(at != NULL && strstr(at + 1, mark) == NULL);
	metric_sql_list(list, sizeof list);
	sql = sqlite3_mprintf("%.*s%s%s", (int)(at - iocensus_sql_views),
	    iocensus_sql_views, list, at + sizeof mark - 1);
	if (sql == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	rc = db_exec(db, sql, err, errlen);
	sqlite3_free(sql);
	return rc;
}

static int
install_schema(sqlite3 *db, char *err, size_t errlen)
{
	char sql[128];
	int version = 0, appid = 0, tables = 0, moved[N_EXACT] = { 0 };
	int rebuild, dirs_old;

	if (db_exec(db, "BEGIN IMMEDIATE", err, errlen) < 0)
		return -1;
	/* Another process may have installed it while we waited. */
	if (pragma_int(db, "PRAGMA user_version", &version) < 0 ||
	    pragma_int(db, "PRAGMA application_id", &appid) < 0 ||
	    pragma_int(db, "SELECT count(*) FROM sqlite_master", &tables) < 0)
		goto fail_msg;
	/* Someone else's SQLite database, made while we waited: never add
	 * our tables to it. */
	if (appid != DB_APPLICATION_ID && (appid != 0 || tables > 0)) {
		snprintf(err, errlen, "not an iocensus database (it already "
		    "holds tables of its own)");
		goto fail;
	}
	if (version < DB_SCHEMA_VERSION) {
		/* D2: the schema and the version that says it is there are
		 * written in this one transaction */
		assert(db_in_txn(db));
		snprintf(sql, sizeof sql,
		    "PRAGMA application_id=%d; PRAGMA user_version=%d;",
		    DB_APPLICATION_ID, DB_SCHEMA_VERSION);
		rebuild = version >= 1 && version < 4;
		if ((dirs_old = dir_aside(db, err, errlen)) < 0)
			goto fail;
		if ((version == 2 &&
		    db_exec(db, iocensus_io_from2, err, errlen) < 0) ||
		    (rebuild && exact_move_aside(db, moved, err, errlen) < 0) ||
		    (version >= 4 && census_add_cols(db, err, errlen) < 0) ||
		    (version >= 1 && census11_aside(db, err, errlen) < 0) ||
		    db_exec(db, iocensus_sql_schema, err, errlen) < 0 ||
		    dir_cold_col(db, err, errlen) < 0 ||
		    census11_constants(db, err, errlen) < 0 ||
		    (rebuild && exact_fill(db, moved, err, errlen) < 0) ||
		    (version >= 1 && census11_fill(db, err, errlen) < 0) ||
		    (dirs_old && dir_rows(db, err, errlen) < 0) ||
		    census_private(db, err, errlen) < 0 ||
		    db_exec(db, iocensus_sql_io, err, errlen) < 0 ||
		    (version == 2 &&
		    db_exec(db, iocensus_io_dirty_all, err, errlen) < 0) ||
		    (version >= 2 &&
		    db_exec(db, iocensus_io_sparse, err, errlen) < 0) ||
		    db_exec(db, iocensus_io_slots, err, errlen) < 0 ||
		    install_views(db, err, errlen) < 0 ||
		    db_exec(db, sql, err, errlen) < 0)
			goto fail;
	}
	if (db_exec(db, "COMMIT", err, errlen) < 0)
		goto fail;
	return 0;
fail_msg:
	snprintf(err, errlen, "%s", sqlite3_errmsg(db));
fail:
	db_exec(db, "ROLLBACK", NULL, 0);
	return -1;
}

/*
 * The dashboard views (sql/dash.sql) on a database that lacks them: one
 * made before they existed. Every statement there is IF NOT EXISTS, so
 * two writers racing here both succeed; nothing is written when they are
 * all there.
 */
static int
install_dash(sqlite3 *db, char *err, size_t errlen)
{
	int n = 0;

	if (pragma_int(db, "SELECT count(*) FROM sqlite_master WHERE name IN"
	    " ('v_io_dev_hour', 'v_io_host_minute')", &n) < 0) {
		snprintf(err, errlen, "%s", sqlite3_errmsg(db));
		return -1;
	}
	if (n == 2)
		return 0;
	if (db_exec(db, "BEGIN IMMEDIATE", err, errlen) < 0)
		return -1;
	if (db_exec(db, iocensus_sql_dash, err, errlen) < 0 ||
	    db_exec(db, "COMMIT", err, errlen) < 0) {
		db_exec(db, "ROLLBACK", NULL, 0);
		return -1;
	}
	return 0;
}

/*
 * SQLite gives some names a meaning of their own: ":memory:" (and "")
 * is a private in-memory database, and a "file:" name is a URI whose
 * parameters can make it one ("file:x?mode=memory") or open another file.
 * A scan into either would report success and store nothing.
 */
static int
check_name(const char *path, char *err, size_t errlen)
{
	if (*path && strcmp(path, ":memory:") != 0 &&
	    strncmp(path, "file:", 5) != 0)
		return 0;
	snprintf(err, errlen, "'%s': not a database file name: SQLite takes "
	    "it for %s; give a path (./%s for a file of that name)", path,
	    strncmp(path, "file:", 5) == 0 ? "a URI" : "a database in memory",
	    *path ? path : "NAME");
	return -1;
}

enum ident { ID_UNKNOWN, ID_NEW, ID_EMPTY, ID_OURS };

/* What the identity fields say: the census, at a version this program
 * reads; an SQLite file with no schema ever (nothing to refuse); or
 * another program's database, refused. */
static int
classify(const char *path, uint32_t appid, uint32_t version, int schema,
    enum ident *id, char *err, size_t errlen)
{
	if (appid == DB_APPLICATION_ID && version > DB_SCHEMA_VERSION) {
		snprintf(err, errlen, "%s: schema version %u is newer than this "
		    "program supports (%d); upgrade iocensus", path, version,
		    DB_SCHEMA_VERSION);
		return -1;
	}
	if (appid != DB_APPLICATION_ID && (appid || version || schema)) {
		snprintf(err, errlen, "%s: not an iocensus database "
		    "(application_id 0x%08x, user_version %u%s): left untouched",
		    path, appid, version, schema ? ", a schema of its own" : "");
		return -1;
	}
	*id = appid == DB_APPLICATION_ID ? ID_OURS : ID_EMPTY;
	return 0;
}

static uint32_t
be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | p[3];
}

/* A WAL that holds frames: the database's header may be older than them. */
static int
wal_pending(const char *path)
{
	char wal[4096];
	struct stat st;

	if (snprintf(wal, sizeof wal, "%s-wal", path) >= (int)sizeof wal)
		return 1;	/* cannot tell: ask SQLite */
	return stat(wal, &st) == 0 && st.st_size > 0;
}

/* Identity through SQLite, read-only, for a database whose header may be
 * stale. A read-only connection never writes the database file. The three
 * reads are one transaction: apart, they could straddle another process's
 * commit of a new census (application_id still 0, user_version already
 * set) and refuse it as someone else's database. */
static int
identity_sqlite(const char *path, const char *sqlpath, enum ident *id,
    char *err, size_t errlen)
{
	sqlite3 *db = NULL;
	int appid = 0, version = 0, objects = 0, rc = -1;

	if (sqlite3_open_v2(sqlpath, &db, SQLITE_OPEN_READONLY |
	    SQLITE_OPEN_NOFOLLOW | SQLITE_OPEN_NOMUTEX, NULL) == SQLITE_OK) {
		sqlite3_busy_handler(db, on_busy, NULL);
		if (db_exec(db, "BEGIN", NULL, 0) == 0 &&
		    pragma_int(db, "PRAGMA application_id", &appid) == 0 &&
		    pragma_int(db, "PRAGMA user_version", &version) == 0 &&
		    pragma_int(db, "SELECT count(*) FROM sqlite_master",
		    &objects) == 0 && db_exec(db, "COMMIT", NULL, 0) == 0)
			rc = 0;
	}
	if (rc < 0)
		snprintf(err, errlen, "%s: not a usable database: %s", path,
		    db ? sqlite3_errmsg(db) : "out of memory");
	else
		rc = classify(path, (uint32_t)appid, (uint32_t)version,
		    objects > 0, id, err, errlen);
	sqlite3_close(db);
	return rc;
}

/*
 * What the file at path is, decided before anything writes to it (D1): a
 * read-write connection would (SQLite switches a database to WAL, and
 * checkpoints a WAL into the file when its last connection closes), and
 * even a read-only one leaves -wal and -shm files behind. So the 100-byte
 * database header is read directly (application id at offset 68, user
 * version at 60, schema cookie at 40: https://sqlite.org/fileformat.html);
 * only a WAL database whose WAL holds frames, which its header may not
 * show yet, is asked through a read-only SQLite connection.
 *
 * New: absent or 0 bytes. Refused: a file that does not start with the
 * SQLite header (SQLite would take some such files for an empty database
 * and write over them), a truncated header, another program's database.
 */
static int
check_identity(const char *path, const struct dbfile *f, enum ident *id,
    char *err, size_t errlen)
{
	static const char magic[16] = "SQLite format 3";
	unsigned char h[100];
	ssize_t n = 0;

	*id = ID_NEW;
	if (f->fd < 0 || f->st.st_size == 0)
		return 0;	/* missing (created), or new */
	do
		n = pread(f->fd, h, sizeof h, 0);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if ((size_t)n < sizeof magic || memcmp(h, magic, sizeof magic) != 0) {
		snprintf(err, errlen, "%s: not a usable database: it does not "
		    "start with the SQLite header", path);
		return -1;
	}
	if ((size_t)n < sizeof h) {
		snprintf(err, errlen, "%s: not a usable database: its SQLite "
		    "header is cut short (%zd bytes)", path, n);
		return -1;
	}
	if ((h[18] == 2 || h[19] == 2) && wal_pending(f->sqlpath))
		return identity_sqlite(path, f->sqlpath, id, err, errlen);
	return classify(path, be32(h + 68), be32(h + 60), be32(h + 40) != 0,
	    id, err, errlen);
}

/* The file is the census, at a version this program reads, or (create)
 * new: *id says which. 0, or -1 with err; nothing has written to the
 * file. */
static int
check_file(const char *path, const struct dbfile *f, int create,
    enum ident *id, char *err, size_t errlen)
{
	/* Say which of the two a writer lacks, before SQLite fails with "attempt
	 * to write a readonly database" (and leaves a -wal and -shm behind). */
	if (create && f->exists && access(f->sqlpath, W_OK) < 0) {
		snprintf(err, errlen, "%s: cannot write it: %s", path,
		    strerror(errno));
		return -1;
	}
	if (create && !dir_writable(f->sqlpath)) {
		snprintf(err, errlen,
		    "%s: cannot write in its directory, where "
		    "SQLite keeps the -wal and -shm files: %s", path,
		    strerror(errno));
		return -1;
	}
	if (check_identity(path, f, id, err, errlen) < 0)
		return -1;
	if (!create && *id != ID_OURS) {
		if (!f->exists)
			snprintf(err, errlen, "%s: %s", path, strerror(ENOENT));
		else
			snprintf(err, errlen, "%s: not an iocensus database (it "
			    "holds no census; fsscan or iocensus ingest creates "
			    "one)", path);
		return -1;
	}
	return 0;
}

/* WAL, the schema (installed or upgraded) and the settings of every
 * connection, on the file f, which check_file found to be id. 0, or -1
 * with err. */
static int
prepare(sqlite3 *db, const struct dbfile *f, enum ident id, int create,
    const char *path, char *err, size_t errlen)
{
	char msg[512];
	int version = 0;

	/* D1: the first write (WAL) goes to the census, or to a file that
	 * a writer may make one of: known before, and untouched till now */
	assert(id == ID_OURS || (create && (id == ID_NEW || id == ID_EMPTY)));
	assert(f->checked);	/* D3: the very file that was checked */
	(void)f;
	(void)id;
	(void)create;
	sqlite3_extended_result_codes(db, 1);
	sqlite3_busy_handler(db, on_busy, NULL);
	if (pragma_int(db, "PRAGMA user_version", &version) < 0) {
		snprintf(err, errlen, "%s: not a usable database: %s", path,
		    sqlite3_errmsg(db));
		return -1;
	}
	/* Foreign keys stay off until the schema is installed: an upgrade
	 * rebuilds tables that others reference (install_schema). */
	if (set_wal(db, msg, sizeof msg) < 0 ||
	    db_exec(db, "PRAGMA synchronous=NORMAL", msg, sizeof msg) < 0) {
		snprintf(err, errlen, "%s: %s", path, msg);
		return -1;
	}
	if (version < DB_SCHEMA_VERSION &&
	    install_schema(db, msg, sizeof msg) < 0) {
		snprintf(err, errlen, "%s: cannot install schema: %s", path,
		    msg);
		return -1;
	}
	if (db_exec(db, "PRAGMA foreign_keys=ON", msg, sizeof msg) < 0) {
		snprintf(err, errlen, "%s: %s", path, msg);
		return -1;
	}
	if (install_dash(db, msg, sizeof msg) < 0) {
		snprintf(err, errlen, "%s: cannot install the dashboard views: "
		    "%s", path, msg);
		return -1;
	}
	return 0;
}

/* create: make a new database (fsscan, ingest) in group; otherwise the
 * file must already hold the census schema, or an older version of it
 * to upgrade. */
static sqlite3 *
open_rw(const char *path, const struct dbfile_create *create, char *err,
    size_t errlen)
{
	struct dbfile f;
	sqlite3 *db = NULL;
	enum ident id = ID_UNKNOWN;

	if (check_name(path, err, errlen) < 0 ||
	    dbfile_open(&f, path, create, err, errlen) < 0)
		return NULL;
	if (check_file(path, &f, create != NULL, &id, err, errlen) < 0)
		goto fail;
	dbfile_release(&f);
	if (sqlite3_open_v2(f.sqlpath, &db, SQLITE_OPEN_READWRITE |
	    (create ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_NOFOLLOW |
	    SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "%s: %s", path,
		    db ? sqlite3_errmsg(db) : "out of memory");
		goto fail;
	}
	if (dbfile_check(&f, db, path, err, errlen) < 0 ||
	    prepare(db, &f, id, create != NULL, path, err, errlen) < 0)
		goto fail;
	dbfile_close(&f);
	return db;
fail:
	sqlite3_close(db);
	dbfile_close(&f);
	return NULL;
}

sqlite3 *
db_open(const char *path, gid_t group, char *err, size_t errlen)
{
	struct dbfile_create c = { group };

	return open_rw(path, &c, err, errlen);
}

void
db_close(sqlite3 *db)
{
	sqlite3_close(db);
}

int db_begin(sqlite3 *db) { return db_exec(db, "BEGIN IMMEDIATE", NULL, 0); }
int db_commit(sqlite3 *db) { return db_exec(db, "COMMIT", NULL, 0); }
void db_rollback(sqlite3 *db) { db_exec(db, "ROLLBACK", NULL, 0); }

int
db_in_txn(sqlite3 *db)
{
	assert(db != NULL);
	return !sqlite3_get_autocommit(db);
}

sqlite3_stmt *
db_prepare(sqlite3 *db, const char *sql, char *err, size_t errlen)
{
	sqlite3_stmt *st = NULL;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "%s", sqlite3_errmsg(db));
		return NULL;
	}
	return st;
}

int
db_bind_text(sqlite3_stmt *st, int i, const char *s)
{
	if (!s)
		return sqlite3_bind_null(st, i);
	return sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
}

int
db_bind_blobtext(sqlite3_stmt *st, int i, const char *s, size_t len)
{
	return sqlite3_bind_text64(st, i, s, len, SQLITE_TRANSIENT,
	    SQLITE_UTF8);
}

int
db_bind_i128(sqlite3_stmt *st, int i, i128 v)
{
	char buf[I128_STRLEN];

	if (i128_fits64(v))
		return sqlite3_bind_int64(st, i, (int64_t)v);
	return sqlite3_bind_text(st, i, i128_str(v, buf), -1,
	    SQLITE_TRANSIENT);
}

int
db_bind_opt(sqlite3_stmt *st, int i, int has, i128 v)
{
	return has ? db_bind_i128(st, i, v) : sqlite3_bind_null(st, i);
}

int
db_column_i128(sqlite3_stmt *st, int i, i128 *v)
{
	const char *s;
	i128 x;

	switch (sqlite3_column_type(st, i)) {
	case SQLITE_INTEGER:
		*v = sqlite3_column_int64(st, i);
		return 0;
	case SQLITE_TEXT:
		s = (const char *)sqlite3_column_text(st, i);
		/* The text must be all of the value: no NUL inside it. */
		if (!s || strlen(s) != (size_t)sqlite3_column_bytes(st, i) ||
		    i128_parse(s, &x) < 0)
			return -1;
		*v = x;
		return 0;
	default:
		return -1;
	}
}

int
db_step_done(sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* May this process create the -wal and -shm files next to path? */
static int
dir_writable(const char *path)
{
	const char *slash = strrchr(path, '/');
	char dir[4096];

	if (!slash)
		return access(".", W_OK) == 0;
	snprintf(dir, sizeof dir, "%.*s", (int)(slash - path) + (slash == path),
	    path);
	return access(dir, W_OK) == 0;
}

/* "file:" URI of path: '%', '?' and '#' percent-encoded. */
static void
file_uri(char *buf, size_t len, const char *path, const char *query)
{
	size_t n = (size_t)snprintf(buf, len, "file:");

	for (const char *p = path; *p && n + 4 < len; p++) {
		if (*p == '%' || *p == '?' || *p == '#')
			n += (size_t)snprintf(buf + n, len - n, "%%%02X",
			    (unsigned char)*p);
		else
			buf[n++] = *p;
	}
	snprintf(buf + n, len - n, "?%s", query);
}

/* Read-only, without locks or the WAL index: for a database whose
 * directory this user cannot write (SQLite cannot create -shm there). */
static sqlite3 *
open_immutable(const char *path, char *err, size_t errlen)
{
	char uri[8192];
	struct dbfile f;
	sqlite3 *db = NULL;
	int version = 0, appid = 0;

	if (dbfile_open(&f, path, NULL, err, errlen) < 0)
		return NULL;
	dbfile_release(&f);
	file_uri(uri, sizeof uri, f.sqlpath, "immutable=1");
	if (sqlite3_open_v2(uri, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI |
	    SQLITE_OPEN_NOFOLLOW | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK ||
	    pragma_int(db, "PRAGMA application_id", &appid) < 0 ||
	    pragma_int(db, "PRAGMA user_version", &version) < 0) {
		snprintf(err, errlen, "%s: not a usable database: %s", path,
		    db ? sqlite3_errmsg(db) : "out of memory");
		goto fail;
	}
	if (appid != DB_APPLICATION_ID || version != DB_SCHEMA_VERSION) {
		snprintf(err, errlen, "%s: read-only, and %s", path, appid !=
		    DB_APPLICATION_ID ? "not an iocensus database" :
		    "its schema version differs from this program's: open it "
		    "once as a user who can write it");
		goto fail;
	}
	if (dbfile_check(&f, db, path, err, errlen) < 0)
		goto fail;
	dbfile_close(&f);
	return db;
fail:
	sqlite3_close(db);
	dbfile_close(&f);
	return NULL;
}

sqlite3 *
db_open_read(const char *path, int *immutable, char *err, size_t errlen)
{
	*immutable = 0;
	if (check_name(path, err, errlen) < 0)
		return NULL;
	*immutable = !(access(path, W_OK) == 0 && dir_writable(path));
	if (!*immutable)
		return open_rw(path, NULL, err, errlen);
	return open_immutable(path, err, errlen);
}

int
db_stat(sqlite3 *db, struct stat *st)
{
	const char *name = sqlite3_db_filename(db, "main");

	return name && *name ? stat(name, st) : -1;
}

int
db_sqlerr(sqlite3 *db, const char *what, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: %s", what, sqlite3_errmsg(db));
	return -1;
}
