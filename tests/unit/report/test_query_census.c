/* test_query_census: report/query/query_census.c against a census
 * database this test writes row by row (db_open makes the schema): each
 * file system's latest and latest complete snapshot (by start time, then
 * id, the names in byte order), and a snapshot's projects sorted by name
 * with byte totals past 2^63 exact; a negative total is an error, never a
 * number. Every expected value is written out here. */
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

#include "db.h"
#include "i128.h"
#include "query/query.h"
#include "scratch.h"
#include "tap.h"

static void
exec(sqlite3 *db, const char *sql)
{
	char *msg = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		printf("# %s: %s\n", sql, msg);
		sqlite3_free(msg);
		exit(1);
	}
}

/* Snapshots: fs "b" three (2 and 3 start at once: the higher id is the
 * later; 3 complete), fs "a" one still running, fs "B" one complete
 * ("B" sorts before "a" in byte order). */
static const char SNAPS[] =
    "INSERT INTO snapshot (id, fs, root, started_at, now_ref, status)"
    " VALUES (1, 'b', '/b', 100, 100, 'complete'),"
    " (2, 'b', '/b', 200, 200, 'failed'),"
    " (3, 'b', '/b', 200, 200, 'complete'),"
    " (4, 'a', '/a', 50, 50, 'running'),"
    " (5, 'B', '/B', 10, 10, 'complete'),"
    " (6, 'b', '/b', 150, 150, 'interrupted');"
    "INSERT INTO project (snapshot_id, name, source, files, dirs, bytes,"
    " alloc_bytes, id) VALUES"
    " (3, 'zeta', 'depth:1', 2, 1, 5, 8192, 3),"
    " (3, 'Alpha', 'depth:1', 1, 0, '18446744073709551616',"
    "  '170141183460469231731687303715884105727', 1),"
    " (3, 'alpha', 'depth:1', 0, 1, 0, 0, 2),"
    " (1, 'bad', 'depth:1', 1, 0, -1, 0, 1);";

static void
latest(sqlite3 *db)
{
	struct fs_latest *l = NULL;
	size_t n = 0;
	char err[256] = "";

	if (!ok_why(query_census_fs_latest(db, &l, &n, err, sizeof err) == 0,
	    err, "fs_latest: read"))
		return;
	if (!is_u64(n, 3, "fs_latest: three file systems"))
		return;
	is_str(l[0].fs, "B", "fs_latest: B first (byte order)");
	ok(l[0].latest == 5 && l[0].complete == 5, "fs_latest: B 5, 5");
	is_str(l[1].fs, "a", "fs_latest: then a");
	ok(l[1].latest == 4 && l[1].complete == 0,
	    "fs_latest: a 4, none complete (0)");
	is_str(l[2].fs, "b", "fs_latest: then b");
	ok(l[2].latest == 3 && l[2].complete == 3,
	    "fs_latest: b 3 (the higher id of two at 200), complete 3");
	query_census_fs_latest_free(l, n);
}

static void
projects(sqlite3 *db)
{
	struct gtot *g = NULL;
	size_t n = 0;
	char err[256] = "", buf[I128_STRLEN];

	if (!ok_why(query_census_groups(db, 3, BY_PROJECT, 0, &g, &n, err,
	    sizeof err) == 0, err, "groups of 3: read"))
		return;
	if (!is_u64(n, 3, "groups of 3: three projects"))
		return;
	is_str(g[0].key, "Alpha", "groups: Alpha first (strcmp)");
	is_str(i128_str(g[0].bytes, buf), "18446744073709551616",
	    "groups: Alpha's bytes, 2^64, exact");
	is_str(i128_str(g[0].alloc, buf),
	    "170141183460469231731687303715884105727",
	    "groups: Alpha's allocation, 2^127 - 1, exact");
	is_str(g[1].key, "alpha", "groups: then alpha");
	ok(g[1].files == 0 && g[1].bytes == 0, "groups: alpha empty");
	is_str(g[2].key, "zeta", "groups: then zeta");
	ok(g[2].files == 2 && g[2].bytes == 5 && g[2].alloc == 8192,
	    "groups: zeta 2 files, 5 bytes, 8192 allocated");
	query_census_gtots_free(g, n);

	g = NULL, n = 0, err[0] = '\0';
	ok(query_census_groups(db, 1, BY_PROJECT, 0, &g, &n, err,
	    sizeof err) == -1 && strstr(err, "census database") != NULL,
	    "groups of 1: a negative total is an error: %s", err);
	if (g)
		query_census_gtots_free(g, n);
	g = NULL, n = 0;
	ok(query_census_groups(db, 99, BY_PROJECT, 0, &g, &n, err,
	    sizeof err) == 0 && n == 0, "groups of a snapshot not there: none");
	query_census_gtots_free(g, n);
}

int
main(void)
{
	char err[256];
	sqlite3 *db;

	scratch_make("test_query_census");
	db = db_open(scratch_at("census.db"), DB_GROUP_OWN, err, sizeof err);
	if (!ok_why(db != NULL, err, "a new census database"))
		return tap_end();
	exec(db, SNAPS);
	latest(db);
	projects(db);
	db_close(db);
	scratch_remove();
	return tap_end();
}
