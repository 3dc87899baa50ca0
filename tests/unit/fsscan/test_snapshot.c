/*
 * test_snapshot: the snapshot writer refuses a census of
 * CENSUS_MAX_ENTRIES (2^54) entries or more, whose 128-bit byte totals
 * could have wrapped (fsscan/walk/walk.h), and records one just below it.
 *
 * The limit counts every kind of entry together: fsscan-mpi's rank 0
 * hands the writer the job's census, so a job whose ranks each stay
 * below 2^54 but together do not is refused the same way. No tree that
 * large can be walked in a test; the census is filled in by hand.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db.h"
#include "record/record.h"
#include "tap.h"

static char tmpdir[] = "/tmp/test_snapshot.XXXXXX";

/* Write a snapshot whose census counts files, dirs, symlinks and others;
 * its status in the database after a refusal is the caller's. */
static int
record(sqlite3 *db, struct project_rules *rules, const uint64_t n[4],
    char *err, size_t errlen)
{
	struct snap_meta m = { .fs = "t", .root = "/t", .started = 1,
	    .now_ref = 1, .threads = 1, .dirs_depth = 0 };
	struct rank_stat rs = { .rank = 0, .threads = 1 };
	struct snap_parts parts = { .ranks = &rs, .nranks = 1 };
	struct walk_result r;
	int64_t id;
	int rc;

	memset(&r, 0, sizeof r);
	census_init(&r.c, 0);
	r.c.files = n[0];
	r.c.dirs = n[1];
	r.c.symlinks = n[2];
	r.c.others = n[3];
	if (snapshot_begin(db, &m, &id, err, errlen) < 0)
		return -2;
	rc = snapshot_finish(db, id, &r, rules, "complete", &parts, err,
	    errlen);
	census_free(&r.c);
	return rc;
}

static int64_t
count_complete(sqlite3 *db)
{
	sqlite3_stmt *st;
	int64_t n = -1;

	if (sqlite3_prepare_v2(db, "SELECT count(*) FROM v_snapshot WHERE"
	    " complete", -1, &st, NULL) != SQLITE_OK)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}

int
main(void)
{
	const uint64_t max = (uint64_t)CENSUS_MAX_ENTRIES;
	const uint64_t below[4] = { max / 2, max / 4, max / 8, max / 8 - 1 };
	const uint64_t at[4] = { max / 2, max / 4, max / 8, max / 8 };
	const uint64_t files[4] = { max, 0, 0, 0 };
	char path[256], err[512] = "";
	struct project_rules *rules;
	sqlite3 *db;

	if (!mkdtemp(tmpdir)) {
		ok(0, "mkdtemp");
		return tap_end();
	}
	snprintf(path, sizeof path, "%s/db", tmpdir);
	db = db_open(path, DB_GROUP_OWN, err, sizeof err);
	rules = project_rules_new(NULL, 0, tmpdir, err, sizeof err);
	if (!ok_why(db && rules, err, "a database and the default rules"))
		return tap_end();

	err[0] = 0;
	ok_why(record(db, rules, below, err, sizeof err) == 0, err,
	    "2^54 - 1 entries of four kinds: recorded");
	err[0] = 0;
	ok(record(db, rules, at, err, sizeof err) == -1 &&
	    strstr(err, "2^54") != NULL,
	    "2^54 entries of four kinds together: refused (%s)", err);
	err[0] = 0;
	ok(record(db, rules, files, err, sizeof err) == -1,
	    "2^54 files: refused");
	ok(count_complete(db) == 1, "only the first snapshot is complete");

	project_rules_free(rules);
	db_close(db);
	unlink(path);
	snprintf(path, sizeof path, "%s/db-wal", tmpdir);
	unlink(path);
	snprintf(path, sizeof path, "%s/db-shm", tmpdir);
	unlink(path);
	rmdir(tmpdir);
	return tap_end();
}
