/*
 * db: the census database. Opens or creates it, installs the embedded
 * schema, checks the schema version, and sets WAL mode and a busy timeout
 * so that a report can read while a scan writes and two scans can share
 * one file.
 */
#ifndef IOCENSUS_DB_H
#define IOCENSUS_DB_H

#include <signal.h>
#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "i128.h"

#define DB_SCHEMA_VERSION 13	/* 2: I/O samples (sql/io.sql); 3: the
				   expected end, io_dev_hour by minutes,
				   per-project extremes, dir_scope; 4:
				   totals beyond INT64_MAX as exact text;
				   5: io_quarantine, roll-up rows only
				   where a device has a value; 6: capacity
				   (statvfs) and scan time of a snapshot,
				   project entries, limits; 7: dir rows as
				   parent and name, not paths; scan_rank;
				   8: cold data (v_cold), ROOT's device
				   number (v_snapshot.fs_device); 9:
				   project.public, census_key; 10:
				   snapshot.fs_mountpoint; 11: the
				   per-project rows keyed by project.id,
				   non-zero only (project_hist,
				   project_cold), extremes in one row,
				   bounds in hist_slot; 12: cold data
				   per owner (owner_cold, v_cold_owner)
				   and per directory (dir.cold_bytes);
				   13: device identities (io_dev_ident,
				   v_io_device) */
#define DB_APPLICATION_ID 0x696f6373	/* "iocs" */
#define DB_BUSY_MS        600000	/* wait up to 10 minutes for a writer */

#define DB_ENV     "IOCENSUS_DB"
#define DB_DEFAULT "iocensus.db"

/* Resolve the database path: explicit, else $IOCENSUS_DB, else the
 * configuration's db (lib/conf.h, read by conf_init), else ./iocensus.db */
const char *db_default_path(const char *explicit_path);

/* Waiting for another writer's lock gives up at once when *flag becomes
 * non-zero (a SIGINT/SIGTERM handler's flag); otherwise after DB_BUSY_MS.
 * Process-wide, like the signals it serves. */
void db_set_stop_flag(volatile sig_atomic_t *flag);

/* Open (creating if needed). A new database is made with mode 0640 and
 * any missing directory above it with 0750, in group (DB_GROUP_OWN: the
 * creator's); an existing one keeps its mode. The file is never opened
 * through a symbolic link, nor made in a directory other users could
 * plant files in (lib/dbfile.h). On failure returns NULL and a message in
 * err. */
#define DB_GROUP_OWN ((gid_t)-1)
sqlite3 *db_open(const char *path, gid_t group, char *err, size_t errlen);
/* Open an existing database for reading. Like db_open when this user may
 * write the file and its directory; otherwise read-only and immutable
 * (SQLite cannot create the WAL index), and *immutable is set to 1 for
 * the caller to say so. */
sqlite3 *db_open_read(const char *path, int *immutable, char *err,
    size_t errlen);
void db_close(sqlite3 *db);
/* The database file's status (its mode and group: what files derived
 * from it may allow, lib/outfile.h). 0, or -1 with errno. */
int db_stat(sqlite3 *db, struct stat *st);

/* The database's secret (table census_key, made with the schema): the
 * key of the opaque labels of private names. 0, or -1 with err. */
#define DB_KEYLEN 16
int db_key(sqlite3 *db, uint8_t key[DB_KEYLEN], char *err, size_t errlen);

/* Run SQL without results; returns 0 or -1 with the message in err. */
int db_exec(sqlite3 *db, const char *sql, char *err, size_t errlen);

/* BEGIN IMMEDIATE / COMMIT / ROLLBACK; return 0 or -1. */
int db_begin(sqlite3 *db);
int db_commit(sqlite3 *db);
void db_rollback(sqlite3 *db);
/* Is a transaction open on db? What a writer asserts that must run
 * inside its caller's transaction (D2, I1, I2, R1). */
int db_in_txn(sqlite3 *db);

/* Prepare or report; returns NULL with the message in err. */
sqlite3_stmt *db_prepare(sqlite3 *db, const char *sql, char *err,
    size_t errlen);

/* Bind helpers: index is 1-based like sqlite3_bind_*. A NULL text binds NULL. */
int db_bind_text(sqlite3_stmt *st, int i, const char *s);
int db_bind_blobtext(sqlite3_stmt *st, int i, const char *s, size_t len);

/* An exact integer of up to 128 bits: an INTEGER when it fits in 64
 * bits, else its decimal text (docs/census-db.md, "Exact totals"). The
 * column must have no type, so that SQLite keeps the text as it is. */
int db_bind_i128(sqlite3_stmt *st, int i, i128 v);
/* The largest capacity value (v_snapshot's fs_* columns) fsscan records
 * and iocensus reads: 64-bit counts of statvfs times a fragment size of
 * up to 2^56 bytes. Sums and differences of a few such values, and 100
 * times one, stay within 128 bits. */
#define DB_CAPACITY_MAX ((i128)1 << 120)
/* An integer that may be unknown: NULL unless has, else as db_bind_i128
 * binds it (an INTEGER for every value of 64 bits). */
int db_bind_opt(sqlite3_stmt *st, int i, int has, i128 v);
/* Read such a column: 0, or -1 when it holds anything but an INTEGER or
 * the decimal text of an integer within 128 bits (NULL included). */
int db_column_i128(sqlite3_stmt *st, int i, i128 *v);

/* Step a statement that returns no rows, then reset it; 0 or -1. */
int db_step_done(sqlite3_stmt *st);

/* err = "what: " and SQLite's message for db; returns -1. */
int db_sqlerr(sqlite3 *db, const char *what, char *err, size_t errlen);

#endif
