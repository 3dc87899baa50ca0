/*
 * db: open, schema version, embedded SQL.
 *
 * Invariant: a database whose user_version is 0 is either new or was never
 * initialised; installing the schema and setting user_version happen in one
 * transaction, so a crash leaves it at 0 or fully installed.
 */
#include "db.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
	const char *env;

	if (explicit_path && *explicit_path)
		return explicit_path;
	env = getenv("IOCENSUS_DB");
	if (env && *env)
		return env;
	return "iocensus.db";
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
 * analyses say they are stale until then. */
static const char iocensus_io_from2[] = "DROP TABLE IF EXISTS io_dev_hour;";

/* Version 4 added columns to tables every older version has: NULL in the
 * rows written before (their capacity, scan time and project entries are
 * unknown), while CREATE TABLE gives a new database all of them. The new
 * project_limit table and views come from the schema as usual. */
static const char *const census_cols4[][2] = {
	{ "snapshot", "fs_bytes" }, { "snapshot", "fs_free_bytes" },
	{ "snapshot", "fs_avail_bytes" }, { "snapshot", "fs_inodes" },
	{ "snapshot", "fs_free_inodes" }, { "snapshot", "scanned_at" },
	{ "project", "entries" },
};

/* Add an INTEGER column unless the table has it. 0, or -1 with err. */
static int
add_column(sqlite3 *db, const char *table, const char *col, char *err,
    size_t errlen)
{
	char *sql = sqlite3_mprintf("SELECT count(*) FROM pragma_table_info(%Q)"
	    " WHERE name = %Q", table, col);
	int have = 0, rc;

	rc = sql ? pragma_int(db, sql, &have) : -1;
	sqlite3_free(sql);
	if (rc < 0) {
		snprintf(err, errlen, "%s", sqlite3_errmsg(db));
		return -1;
	}
	if (have)
		return 0;
	sql = sqlite3_mprintf("ALTER TABLE %s ADD COLUMN %s INTEGER", table,
	    col);
	rc = sql ? db_exec(db, sql, err, errlen) : -1;
	sqlite3_free(sql);
	return rc;
}

static int
census_from3(sqlite3 *db, char *err, size_t errlen)
{
	for (size_t i = 0; i < sizeof census_cols4 / sizeof *census_cols4; i++)
		if (add_column(db, census_cols4[i][0], census_cols4[i][1], err,
		    errlen) < 0)
			return -1;
	return 0;
}
static const char iocensus_io_dirty_all[] =
    "INSERT OR IGNORE INTO io_dirty (t0) SELECT DISTINCT t0 FROM io_chunk;";

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
	int version = 0, appid = 0, tables = 0;

	if (db_exec(db, "BEGIN IMMEDIATE", err, errlen) < 0)
		return -1;
	/* Another process may have installed it while we waited. */
	if (pragma_int(db, "PRAGMA user_version", &version) < 0 ||
	    pragma_int(db, "PRAGMA application_id", &appid) < 0 ||
	    pragma_int(db, "SELECT count(*) FROM sqlite_master", &tables) < 0)
		goto fail_msg;
	/* Someone else's SQLite database: never add our tables to it. */
	if (appid != DB_APPLICATION_ID && tables > 0) {
		snprintf(err, errlen, "not an iocensus database (it already "
		    "holds tables of its own)");
		goto fail;
	}
	if (version < DB_SCHEMA_VERSION) {
		snprintf(sql, sizeof sql,
		    "PRAGMA application_id=%d; PRAGMA user_version=%d;",
		    DB_APPLICATION_ID, DB_SCHEMA_VERSION);
		if ((version == 2 &&
		    db_exec(db, iocensus_io_from2, err, errlen) < 0) ||
		    (version >= 1 && version < 4 &&
		    census_from3(db, err, errlen) < 0) ||
		    db_exec(db, iocensus_sql_schema, err, errlen) < 0 ||
		    db_exec(db, iocensus_sql_io, err, errlen) < 0 ||
		    (version == 2 &&
		    db_exec(db, iocensus_io_dirty_all, err, errlen) < 0) ||
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
 * SQLite takes some files too short for its header for an empty database
 * and writes a new one over them. Refuse a regular file that is neither
 * empty nor starts with the SQLite header, before SQLite opens it.
 */
static int
check_header(const char *path, char *err, size_t errlen)
{
	static const char magic[16] = "SQLite format 3";
	char buf[sizeof magic];
	struct stat st;
	ssize_t n = 0;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return 0;	/* missing (created), or SQLite says why */
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
		do
			n = pread(fd, buf, sizeof buf, 0);
		while (n < 0 && errno == EINTR);
		if (n >= 0 && ((size_t)n < sizeof buf ||
		    memcmp(buf, magic, sizeof magic) != 0)) {
			snprintf(err, errlen, "%s: not a usable database: it "
			    "does not start with the SQLite header", path);
			close(fd);
			return -1;
		}
	}
	close(fd);
	return 0;
}

/* create: make a new database (fsscan, ingest); otherwise the file must
 * already hold the census schema, or an older version of it to upgrade. */
static sqlite3 *
open_rw(const char *path, int create, char *err, size_t errlen)
{
	sqlite3 *db = NULL;
	char msg[512];
	int version = 0, appid = 0;

	if (check_header(path, err, errlen) < 0)
		return NULL;
	/* Say which of the two a writer lacks, before SQLite fails with "attempt
	 * to write a readonly database" (and leaves a -wal and -shm behind). */
	if (create && access(path, F_OK) == 0 && access(path, W_OK) < 0) {
		snprintf(err, errlen, "%s: cannot write it: %s", path,
		    strerror(errno));
		return NULL;
	}
	if (create && !dir_writable(path)) {
		snprintf(err, errlen,
		    "%s: cannot write in its directory, where "
		    "SQLite keeps the -wal and -shm files: %s", path,
		    strerror(errno));
		return NULL;
	}
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE |
	    (create ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_NOMUTEX,
	    NULL) != SQLITE_OK) {
		snprintf(err, errlen, "%s: %s", path,
		    db ? sqlite3_errmsg(db) : "out of memory");
		sqlite3_close(db);
		return NULL;
	}
	sqlite3_extended_result_codes(db, 1);
	sqlite3_busy_handler(db, on_busy, NULL);
	if (pragma_int(db, "PRAGMA application_id", &appid) < 0 ||
	    pragma_int(db, "PRAGMA user_version", &version) < 0) {
		snprintf(err, errlen, "%s: not a usable database: %s", path,
		    sqlite3_errmsg(db));
		goto fail;
	}
	if (appid != 0 && appid != DB_APPLICATION_ID) {
		snprintf(err, errlen, "%s: not an iocensus database "
		    "(application_id 0x%08x)", path, (unsigned)appid);
		goto fail;
	}
	if (version > DB_SCHEMA_VERSION) {
		snprintf(err, errlen,
		    "%s: schema version %d is newer than this "
		    "program supports (%d); upgrade iocensus", path, version,
		    DB_SCHEMA_VERSION);
		goto fail;
	}
	if (!create && appid == 0 && version == 0) {
		snprintf(err, errlen,
		    "%s: not an iocensus database (it holds no "
		    "census; fsscan or iocensus ingest creates one)", path);
		goto fail;
	}
	if (set_wal(db, msg, sizeof msg) < 0 ||
	    db_exec(db, "PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;",
	    msg, sizeof msg) < 0) {
		snprintf(err, errlen, "%s: %s", path, msg);
		goto fail;
	}
	if (version < DB_SCHEMA_VERSION &&
	    install_schema(db, msg, sizeof msg) < 0) {
		snprintf(err, errlen, "%s: cannot install schema: %s", path,
		    msg);
		goto fail;
	}
	return db;
fail:
	sqlite3_close(db);
	return NULL;
}

sqlite3 *
db_open(const char *path, char *err, size_t errlen)
{
	return open_rw(path, 1, err, errlen);
}

void
db_close(sqlite3 *db)
{
	sqlite3_close(db);
}

int db_begin(sqlite3 *db) { return db_exec(db, "BEGIN IMMEDIATE", NULL, 0); }
int db_commit(sqlite3 *db) { return db_exec(db, "COMMIT", NULL, 0); }
void db_rollback(sqlite3 *db) { db_exec(db, "ROLLBACK", NULL, 0); }

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
db_bind_opt(sqlite3_stmt *st, int i, int has, int64_t v)
{
	return has ? sqlite3_bind_int64(st, i, v) : sqlite3_bind_null(st, i);
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
	sqlite3 *db = NULL;
	int version = 0, appid = 0;

	file_uri(uri, sizeof uri, path, "immutable=1");
	if (sqlite3_open_v2(uri, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI |
	    SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK ||
	    pragma_int(db, "PRAGMA application_id", &appid) < 0 ||
	    pragma_int(db, "PRAGMA user_version", &version) < 0) {
		snprintf(err, errlen, "%s: not a usable database: %s", path,
		    db ? sqlite3_errmsg(db) : "out of memory");
		sqlite3_close(db);
		return NULL;
	}
	if (appid != DB_APPLICATION_ID || version != DB_SCHEMA_VERSION) {
		snprintf(err, errlen, "%s: read-only, and %s", path, appid !=
		    DB_APPLICATION_ID ? "not an iocensus database" :
		    "its schema version differs from this program's: open it "
		    "once as a user who can write it");
		sqlite3_close(db);
		return NULL;
	}
	return db;
}

sqlite3 *
db_open_read(const char *path, int *immutable, char *err, size_t errlen)
{
	*immutable = !(access(path, W_OK) == 0 && dir_writable(path));
	if (!*immutable)
		return open_rw(path, 0, err, errlen);
	return open_immutable(path, err, errlen);
}

int
db_sqlerr(sqlite3 *db, const char *what, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: %s", what, sqlite3_errmsg(db));
	return -1;
}
