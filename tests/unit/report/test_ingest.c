/*
 * ingest: what only a hand-written log can show. Values r127 cannot hold
 * (dropped, reported, recorded), a clock that steps back (samples sorted,
 * a repeated time keeps its first sample, conflicts counted), a stop
 * request (status 3, nothing half-written). t_io_ingest.py covers the
 * rest through the command line.
 */
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "db.h"
#include "ingest/ingest.h"
#include "chunk/chunk.h"
#include "iolog/iolog.h"
#include "tap.h"

#define T0 UINT64_C(1700000000)
#define NS UINT64_C(1000000000)

static char dir[] = "/tmp/test_ingest.XXXXXX";

static void
sample(struct iolog_writer *w, int seq, uint64_t t, uint64_t mono,
    struct iolog_val *v)
{
	struct iolog_clock c = { .seq = (uint64_t)seq, .realtime_ns = t * NS,
	    .monotonic_ns = mono * NS, .boottime_ns = mono * NS };

	if ((seq == 0 ? iolog_write_keyframe(w, &c, v, 2) :
	    iolog_write_sample(w, &c, v, 2)) != 0)
		printf("# write failed\n");
}

/* sda, sdb; samples (seq: realtime s after T0, values):
 *   1: 60  ordinary              4: 60 again (clock stepped back), other
 *   2: 120 sda wr_ios too big,      values: duplicates, conflicts
 *          sdb dc+fl wraps       5: 90  sorted in between
 *   3: 180 sda rd_ios = R127_MAX */
static void
write_log(const char *path)
{
	struct iolog_header h = { .long_bits = 64, .interval_ms = 60000,
	    .created_ns = T0 * NS };
	struct iolog_dev d[2] = { { .id = 1, .name = "sda", .major = 8,
	    .fields = 0x1ffff }, { .id = 2, .name = "sdb", .major = 8,
	    .minor = 16, .fields = 0x1ffff } };
	struct iolog_val v[2];
	char err[256];
	struct iolog_writer *w = iolog_writer_open(path, NULL, err, sizeof err);

	if (w == NULL) {
		printf("not ok - open %s: %s\n", path, err);
		exit(1);
	}
	snprintf(h.host, sizeof h.host, "hx");
	iolog_write_header(w, &h);
	iolog_write_table(w, d, 2);
	memset(v, 0, sizeof v);
	sample(w, 0, T0, 1000, v);
	v[0].v[DS_RD_IOS] = 5, v[1].v[DS_WR_IOS] = 7;
	sample(w, 1, T0 + 60, 1060, v);
	v[0].v[DS_WR_IOS] = R127_MAX + 1;
	v[1].v[DS_DC_IOS] = UINT64_MAX, v[1].v[DS_FL_IOS] = 2;
	sample(w, 2, T0 + 120, 1120, v);
	memset(v, 0, sizeof v);
	v[0].v[DS_RD_IOS] = R127_MAX;
	sample(w, 3, T0 + 180, 1180, v);
	v[0].v[DS_RD_IOS] = 99, v[1].v[DS_WR_IOS] = 7;	/* sdb: same */
	sample(w, 4, T0 + 60, 1240, v);
	v[0].v[DS_RD_IOS] = 11;
	sample(w, 5, T0 + 90, 1300, v);
	iolog_writer_close(w);
}

static int64_t
one_int(sqlite3 *db, const char *q)
{
	sqlite3_stmt *st = NULL;
	int64_t v = -1;

	if (sqlite3_prepare_v2(db, q, -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

static const struct cell *
cell(const struct result *r, const char *table, const char *col)
{
	int t = result_table_index(r, table);

	if (t < 0 || r->table[t].nrow == 0)
		return NULL;
	for (size_t c = 0; c < r->table[t].ncol; c++)
		if (!strcmp(r->table[t].col[c].key, col))
			return result_cell(&r->table[t], 0, (int)c);
	return NULL;
}

static uint64_t
cell_u(const struct result *r, const char *table, const char *col)
{
	const struct cell *c = cell(r, table, col);

	return c && c->kind == CK_UINT ? c->v.u : UINT64_MAX;
}

static void
test_values(sqlite3 *db, char *log)
{
	struct ingest_opts o = { .threads = 2, .now = time(NULL) };
	char err[256] = "", q[256];
	int status = -1;
	struct result *r = ingest_run(db, &log, 1, &o, &status, err,
	    sizeof err);

	ok(r != NULL, "ingest ran %s", err);
	is_i64(status, 1, "damage and conflicts: status 1");
	is_i64(one_int(db, "SELECT count(*) FROM v_io"), 6, "six samples kept "
	    "(two dropped, two repeated times)");
	snprintf(q, sizeof q, "SELECT rd_ios FROM v_io WHERE device = 'sda' "
	    "AND t = %" PRIu64, T0 + 180);
	is_i64(one_int(db, q), (int64_t)R127_MAX, "R127_MAX is stored");
	snprintf(q, sizeof q, "SELECT count(*) FROM v_io WHERE t = %" PRIu64,
	    T0 + 120);
	is_i64(one_int(db, q), 0, "samples with unstorable values dropped");
	snprintf(q, sizeof q, "SELECT sum(rd_ios) FROM v_io WHERE t = %"
	    PRIu64, T0 + 60);
	is_i64(one_int(db, q), 5, "a repeated time keeps the first sample");
	snprintf(q, sizeof q, "SELECT count(*) FROM v_io WHERE t = %" PRIu64
	    " AND seconds = 60 AND rd_ios = 11", T0 + 90);
	is_i64(one_int(db, q), 1, "a sample between others sorted in");
	is_i64(one_int(db, "SELECT count(*) FROM io_damage WHERE reason LIKE "
	    "'%exceeds the largest storable value%'"), 2,
	    "each dropped sample recorded as damage");
	is_i64(one_int(db, "SELECT damaged FROM io_source"), 2,
	    "io_source.damaged counts them");
	is_u64(cell_u(r, "sources", "duplicates"), 2, "duplicates counted");
	is_u64(cell_u(r, "sources", "conflicts"), 1, "sda's conflict counted, "
	    "sdb's identical repeat is not one");
	is_u64(cell_u(r, "totals", "samples"), 10, "totals: samples read");
	is_u64(cell_u(r, "totals", "new_samples"), 6, "totals: new samples");
	is_u64(cell_u(r, "totals", "devices"), 2, "totals: devices");
	result_free(r);
}

static void
test_stop(sqlite3 *db, char *log)
{
	volatile sig_atomic_t stop = 1;
	struct ingest_opts o = { .threads = 1, .now = time(NULL),
	    .stop = &stop };
	char err[256] = "";
	int status = -1;
	struct result *r;

	db_exec(db, "DELETE FROM io_source", NULL, 0);
	r = ingest_run(db, &log, 1, &o, &status, err, sizeof err);
	ok(r != NULL, "stopped ingest still returns a result %s", err);
	is_i64(status, 3, "stopped: status 3");
	is_i64(one_int(db, "SELECT count(*) FROM io_source"), 0,
	    "stopped before the first source: nothing written");
	result_free(r);
}

int
main(void)
{
	static const char *const files[] = { "x.iolog.gz", "i.db", "i.db-wal",
	    "i.db-shm" };
	char log[96], path[96], err[256];
	sqlite3 *db;

	if (mkdtemp(dir) == NULL)
		return 1;
	snprintf(log, sizeof log, "%s/x.iolog.gz", dir);
	snprintf(path, sizeof path, "%s/i.db", dir);
	write_log(log);
	db = db_open(path, DB_GROUP_OWN, err, sizeof err);
	if (db == NULL) {
		printf("not ok - open %s: %s\n", path, err);
		return 1;
	}
	test_values(db, log);
	test_stop(db, log);
	db_close(db);
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, files[i]);
		unlink(path);
	}
	rmdir(dir);
	return tap_end();
}
