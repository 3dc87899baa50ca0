/*
 * test_space: what the census questions of report/space/ tell the
 * renderers about their figures (report/result/result.h), which no CSV or
 * JSON output carries: space_growth's figure draws its table of
 * projection points with markers on the observed series only, and each
 * age figure of space_files names its metric.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "space/space.h"
#include "db.h"
#include "tap.h"

/* Two file systems: "one" with 2 complete snapshots and histograms,
 * "two" with 2 bare ones. */
static const char fixture[] =
    "INSERT INTO snapshot (id, fs, root, started_at, finished_at, now_ref,"
    " status, files, dirs, bytes, alloc_bytes, errors) VALUES"
    " (1, 'one', '/one', 1264550400, 1264550500, 1264550400, 'complete',"
    "  100, 1, 1000, 1000, 0),"
    " (2, 'one', '/one', 1269993600, 1269993700, 1269993600, 'complete',"
    "  200, 1, 2000, 2000, 0),"
    " (3, 'two', '/two', 1264896000, 1264896100, 1264896000, 'complete',"
    "  50, 1, 500, 500, 0),"
    " (4, 'two', '/two', 1270339200, 1270339300, 1270339200, 'complete',"
    "  90, 1, 900, 900, 0);"
    "INSERT INTO hist (snapshot_id, metric, slot, n, w)"
    " VALUES (2, 'size', 1, 200, 2000),"
    " (2, 'atime', 3, 200, 2000),"
    " (2, 'mtime', 3, 200, 2000),"
    " (2, 'ctime', 3, 200, 2000);";

static const struct rfigure *
figure(const struct result *r, const char *key)
{
	for (size_t i = 0; r && i < r->nfig; i++)
		if (!strcmp(r->fig[i].key, key))
			return &r->fig[i];
	return NULL;
}

static const char *
col_key(const struct result *r, const struct rfigure *f, int k)
{
	return r->table[f->table].col[f->ycol[k]].key;
}

static void
test_growth(sqlite3 *db)
{
	struct opts o;
	char err[512] = "";
	struct result *r;
	const struct rfigure *f;

	opts_init(&o);
	o.fs = "one";
	o.target = (struct opts_target){ 1, UNITS_PLAIN, 1000 };
	r = space_growth(db, &o, err, sizeof err);
	f = figure(r, "growth");
	ok(f && !strcmp(r->table[f->table].key, "projection_points"),
	    "growth figure draws the projection points");
	ok(f && f->kind == FIG_LINE && f->ny == 6 && f->xtime &&
	    !strcmp(col_key(r, f, 0), "observed") &&
	    !strcmp(col_key(r, f, 5), "target"),
	    "growth figure: observed, fits, band and target over time");
	ok(f && f->markers == 1u, "growth figure: markers on the observed"
	    " points only");
	ok(f && r->table[f->table].detail, "projection points: a detail"
	    " table");
	result_free(r);

	o.fs = "all";
	r = space_growth(db, &o, err, sizeof err);
	f = figure(r, "growth");
	ok(f && f->ny == 2 && f->markers == 0 &&
	    !strcmp(col_key(r, f, 0), "total_fit"),
	    "total growth figure: the sum of the lines and the target");
	result_free(r);
}

static void
test_ages(sqlite3 *db)
{
	static const char *const m[] = { "atime", "mtime", "ctime" };
	struct opts o;
	char err[512] = "", want[64];

	opts_init(&o);
	o.snapshot = 2;
	for (int i = 0; i < 3; i++) {
		struct result *r;
		const struct rfigure *f;
		o.by = m[i];
		r = space_files(db, &o, err, sizeof err);
		f = figure(r, "age_cdf");
		snprintf(want, sizeof want, "%s age CDF by count and by bytes",
		    m[i]);
		ok(f && !strcmp(f->title, want), "age figure title: %s", want);
		ok(f && strstr(f->caption, m[i]) && strstr(f->xlabel, m[i]),
		    "%s figure: caption and axis name the metric", m[i]);
		result_free(r);
	}
}

int
main(void)
{
	char dir[] = "/tmp/test_space.XXXXXX", path[512], err[512] = "";
	sqlite3 *db;

	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof path, "%s/census.db", dir);
	db = db_open(path, DB_GROUP_OWN, err, sizeof err);
	ok_why(db && db_exec(db, fixture, err, sizeof err) == 0, err,
	    "fixture loads");
	if (db) {
		test_growth(db);
		test_ages(db);
		db_close(db);
	}
	snprintf(path, sizeof path, "rm -rf %s", dir);
	if (system(path) != 0)
		return 1;
	return tap_end();
}
