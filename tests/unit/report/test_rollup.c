/*
 * test_rollup: the roll-up (report/rollup/) and the minute loaders of
 * report/query/ that read what it writes, on a hand-made database whose
 * every expected value is worked out by hand below (the minute rules of
 * docs/census-db.md); none is computed with the code under test.
 *
 * With arguments it is a dump tool for tests/t_io_rollup.py, which
 * compares against tests/lib/io_oracle.py:
 *	test_rollup rollup DB
 *	test_rollup minutes|hosts|scan|devstats DB FROM TO [HOSTGLOB...]
 * (FROM/TO unix seconds, 0 = from the data).
 */
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db.h"
#include "chunk/chunk.h"
#include "query/query.h"
#include "rollup/rollup.h"
#include "tap.h"

#define T0 INT64_C(1262304000)		/* 2010-01-01 00:00 UTC */

/* ---- dump mode ---- */

static const char *state_name[] = { "none", "missing", "complete" };

static int
dump_minute(const struct host_minute *m, void *arg)
{
	(void)arg;
	printf("%" PRId64, m->t);
	for (size_t h = 0; h < m->nhost; h++)
		printf(" %s:%" PRIu64 ":%" PRIu64 ":%" PRIu64,
		    state_name[m->state[h]], m->rd[h], m->wr[h], m->ios[h]);
	printf("\n");
	return 0;
}

static int
dump(int argc, char **argv)
{
	char err[512];
	sqlite3 *db = db_open(argv[2], DB_GROUP_OWN, err, sizeof err);
	struct io_window w = { 0 };
	int rc = 0;

	if (db == NULL) {
		fprintf(stderr, "%s\n", err);
		return 3;
	}
	if (strcmp(argv[1], "rollup") == 0) {
		rc = rollup_run(db, NULL, err, sizeof err);
		goto out;
	}
	if (argc < 5) {
		rc = -1;
		snprintf(err, sizeof err, "usage");
		goto out;
	}
	/* 0: that bound of the data (callers never ask for 1970-01-01) */
	w.from = strtoll(argv[3], NULL, 10);
	w.to = strtoll(argv[4], NULL, 10);
	w.has_from = w.from != 0;
	w.has_to = w.to != 0;
	w.hosts = (const char *const *)argv + 5;
	w.nhosts = (size_t)(argc - 5);
	if (strcmp(argv[1], "minutes") == 0) {
		struct minute_series s;

		if ((rc = query_minutes_load(db, &w, &s, err, sizeof err)) == 0) {
			printf("n %zu t0 %" PRId64 " hosts %zu devices %zu\n",
			    s.n, s.t0, s.nhost, s.ndev);
			for (size_t i = 0; i < s.n; i++) {
				int st = query_minute_state(&s, i);
				size_t j = i - s.lo;	/* stored if st */

				printf("%" PRId64 " %s %" PRIu64 " %" PRIu64
				    " %" PRIu64 "\n", s.t0 + 60 * (int64_t)i,
				    state_name[st], st ? s.rd[j] : 0,
				    st ? s.wr[j] : 0, st ? s.ios[j] : 0);
			}
			query_minutes_free(&s);
		}
	} else if (strcmp(argv[1], "hosts") == 0 ||
	    strcmp(argv[1], "scan") == 0) {
		struct host_list hl;

		if ((rc = query_hosts_load(db, &w, &hl, err, sizeof err)) == 0) {
			for (size_t i = 0; i < hl.n; i++)
				printf("host %s\n", hl.name[i]);
			if (argv[1][0] == 's')
				rc = query_scan_host_minutes(db, &w, &hl,
				    dump_minute, NULL, err, sizeof err);
			query_hosts_free(&hl);
		}
	} else if (strcmp(argv[1], "devstats") == 0) {
		struct dev_stat *d;
		size_t n;

		if ((rc = query_devstats_load(db, &w, &d, &n, err,
		    sizeof err)) == 0) {
			for (size_t i = 0; i < n; i++)
				printf("%s %s %" PRIu64 " %" PRIu64 " %" PRIu64
				    " %" PRIu64 " %" PRIu64 " %" PRIu64 " %"
				    PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64
				    " %" PRIu64 " %" PRIu64 " %" PRIu64 " %"
				    PRId64 "\n", d[i].host, d[i].device,
				    d[i].samples, d[i].minutes, d[i].rd_bytes,
				    d[i].wr_bytes, d[i].ios, d[i].rd_ios,
				    d[i].wr_ios, d[i].oth_ios, d[i].rd_ms,
				    d[i].wr_ms, d[i].io_ms, d[i].peak_bytes,
				    d[i].peak_ios, d[i].peak_t);
			query_devstats_free(d, n);
		}
	} else {
		rc = -1;
		snprintf(err, sizeof err, "unknown command %s", argv[1]);
	}
out:
	if (rc != 0)
		fprintf(stderr, "%s\n", err);
	db_close(db);
	return rc != 0;
}

/* ---- the hand-made database ---- */

struct fx_sample {
	int64_t end, dur;		/* ms after T0 */
	uint64_t rd_ios, wr_ios, rd_sec, wr_sec, oth_ios;
};

/* The samples (sorted, all in one UTC hour) as that hour's chunk. */
static void
put_chunk(sqlite3 *db, int64_t dev, const char *name,
    const struct fx_sample *s, size_t n)
{
	static struct iochunk c;
	static struct iochunk_scratch scratch;
	sqlite3_stmt *st;

	memset(&c, 0, sizeof c);
	c.t0 = T0 + s[0].end / 3600000 * 3600;
	c.n = n;
	for (size_t i = 0; i < n; i++) {
		struct io_sample *x = &c.s[i];

		x->t_ms = T0 * 1000 + s[i].end;
		x->dur_ms = s[i].dur;
		x->v[IOF_RD_IOS] = s[i].rd_ios;
		x->v[IOF_WR_IOS] = s[i].wr_ios;
		x->v[IOF_RD_SEC] = s[i].rd_sec;
		x->v[IOF_WR_SEC] = s[i].wr_sec;
		x->v[IOF_OTH_IOS] = s[i].oth_ios;
		x->v[IOF_IO_MS] = 7;
	}
	sqlite3_prepare_v2(db, "INSERT INTO io_chunk (dev_id, t0, n, t1_ms, "
	    "step_ms, t_dev, s_dev, rd_ios, wr_ios, rd_sec, wr_sec, rd_ms, "
	    "wr_ms, io_ms, oth_ios) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, "
	    "?9, ?10, ?11, ?12, ?13, ?14, ?15)", -1, &st, NULL);
	sqlite3_bind_int64(st, 1, dev);
	sqlite3_bind_int64(st, 2, c.t0);
	ok(chunk_bind(st, 3, &c, &scratch) == 0 &&
	    sqlite3_step(st) == SQLITE_DONE, "chunk %" PRId64 " of %s stored",
	    c.t0, name);
	sqlite3_finalize(st);
}

/* The device's io_dev row (first_ms, last_ms of s) and its chunks: one
 * per UTC hour, a sample ending exactly on the hour in the later one. */
static void
put_device(sqlite3 *db, int64_t host, int64_t dev, const char *name,
    const struct fx_sample *s, size_t n)
{
	char sql[256];
	int64_t first = INT64_MAX, last = INT64_MIN;
	size_t i = 0;

	for (size_t k = 0; k < n; k++) {
		if (T0 * 1000 + s[k].end - s[k].dur < first)
			first = T0 * 1000 + s[k].end - s[k].dur;
		if (T0 * 1000 + s[k].end > last)
			last = T0 * 1000 + s[k].end;
	}
	snprintf(sql, sizeof sql, "INSERT INTO io_dev VALUES (%"
	    PRId64 ", %" PRId64 ", '%s', 60000, %" PRId64 ", %" PRId64 ")",
	    dev, host, name, first, last);
	sqlite3_exec(db, sql, NULL, NULL, NULL);
	while (i < n) {
		size_t j = i + 1;

		while (j < n && s[j].end / 3600000 == s[i].end / 3600000)
			j++;
		put_chunk(db, dev, name, s + i, j - i);
		i = j;
	}
}

/*
 * sda (host a): [0,60000) rd 2 sectors, 2 reads: minute 0.
 *   ends 120500 after 60000: starts 60500, closed to 60000 (jitter):
 *   L = 60500; rd 512 B: minute 1 floor(512*60000/60500) = 507, minute 2
 *   5; wr 121 sectors = 61952 B: 61440 and 512; 1 read: 0 and 1.
 *   ends 180000 after 59500: [120500,180000): minute 2 covered 500 +
 *   59500, valid. ends 400000 after 220000 > 2 intervals: not bridged.
 *   ends 460000 after 60000: minutes 6 and 7 partly covered: missing.
 *   Valid 0, 1, 2. io_ms 7 a sample: minute 0 7, minute 1
 *   floor(7*60000/60500) = 6, minute 2 1 + 7 = 8.
 * sdb (host a): [60000,120000) 10 sectors, 3 reads + 4 other: minute 1.
 * sdc (host b): [180000,240000) 4 sectors written, 1 write: minute 3.
 * Expected ends: G = 460000 (sda's last end). Host a ends at 460000: sda
 * is there, expected to G; sdb ended more than an interval (+ 1 s)
 * before, so a removed disk, expected in minute 1 only. Host b stopped at
 * 240000: sdc is expected to G, minutes 3..7, missing in 4..7.
 */
static const struct fx_sample sda[] = {
	{ 60000, 60000, 2, 0, 2, 0, 0 },
	{ 120500, 60000, 1, 0, 1, 121, 0 },
	{ 180000, 59500, 0, 0, 0, 0, 0 },
	{ 400000, 220000, 5, 5, 5, 5, 0 },
	{ 460000, 60000, 1, 1, 1, 1, 0 },
};
static const struct fx_sample sdb[] = { { 120000, 60000, 3, 0, 10, 0, 4 } };
static const struct fx_sample sdc[] = { { 240000, 60000, 0, 1, 0, 4, 0 } };

static sqlite3 *
fixture(const char *path)
{
	char err[512];
	sqlite3 *db = db_open(path, DB_GROUP_OWN, err, sizeof err);

	if (db == NULL) {
		ok(0, "open %s: %s", path, err);
		return NULL;
	}
	sqlite3_exec(db, "BEGIN; INSERT INTO io_host VALUES (1, 'a'), "
	    "(2, 'b'); INSERT INTO io_dirty VALUES (1262304000)", NULL, NULL,
	    NULL);
	put_device(db, 1, 1, "sda", sda, 5);
	put_device(db, 1, 2, "sdb", sdb, 1);
	put_device(db, 2, 3, "sdc", sdc, 1);
	sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
	ok(rollup_dirty_hours(db) == 1, "one dirty hour before the roll-up");
	ok(rollup_run(db, NULL, err, sizeof err) == 0, "roll-up: %s",
	    err);
	ok(rollup_dirty_hours(db) == 0, "no dirty hour after the roll-up");
	return db;
}

static void
check_all(sqlite3 *db)
{
	static const char st[] = { 2, 2, 2, 1, 1, 1, 1, 1 };
	static const uint64_t rd[] = { 1024, 5627, 5, 0, 0, 0, 0, 0 };
	static const uint64_t wr[] = { 0, 61440, 512, 0, 0, 0, 0, 0 };
	static const uint64_t ios[] = { 2, 7, 1, 0, 0, 0, 0, 0 };
	struct io_window w = { 0 };
	struct minute_series s;
	char err[512];

	ok(query_minutes_load(db, &w, &s, err, sizeof err) == 0, "load all");
	is_i64(s.t0, T0, "window starts at the first expected minute");
	is_i64((int64_t)s.n, 8, "8 calendar minutes");
	is_i64((int64_t)s.nhost, 2, "2 hosts");
	is_i64((int64_t)s.ndev, 3, "3 devices");
	for (size_t i = 0; i < s.n && i < 8; i++) {
		is_i64(s.state[i], st[i], "state of minute %zu", i);
		is_i64((int64_t)s.rd[i], (int64_t)rd[i], "rd of minute %zu", i);
		is_i64((int64_t)s.wr[i], (int64_t)wr[i], "wr of minute %zu", i);
		is_i64((int64_t)s.ios[i], (int64_t)ios[i], "ios of minute %zu",
		    i);
	}
	query_minutes_free(&s);
}

static int64_t
one(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	int64_t v = -1;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_type(st, 0) == SQLITE_NULL ? -2 :
		    sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

static void
check_tables(sqlite3 *db)
{
	/* minute 3: sda expected, not valid; sdc valid: sums over valid */
	is_i64(one(db, "SELECT expected * 100 + valid FROM io_minute WHERE "
	    "t = 1262304180"), 201, "minute 3: 2 expected, 1 valid");
	is_i64(one(db, "SELECT wr_bytes FROM io_minute WHERE t = 1262304180"),
	    2048, "minute 3 keeps the valid device's bytes");
	/* minutes 4..7: devices expected, none valid: missing, no row */
	is_i64(one(db, "SELECT count(*) FROM io_minute"), 4, "4 io_minute "
	    "rows: the minutes with a valid device");
	is_i64(one(db, "SELECT minutes FROM io_hour"), 3, "hour: 3 complete");
	is_i64(one(db, "SELECT rd_bytes FROM io_hour"), 6656, "hour rd");
	is_i64(one(db, "SELECT wr_bytes FROM io_hour"), 61952, "hour wr");
	is_i64(one(db, "SELECT ios FROM io_hour"), 10, "hour ios");
	is_i64(one(db, "SELECT peak_bytes FROM io_hour"), 67067, "hour peak");
	is_i64(one(db, "SELECT peak_rd FROM io_hour"), 5627, "hour peak rd");
	is_i64(one(db, "SELECT peak_wr FROM io_hour"), 61440, "hour peak wr");
	is_i64(one(db, "SELECT peak_bytes FROM io_day"), 67067, "day peak");
	is_i64(one(db, "SELECT expected FROM io_host_hour WHERE host_id = 1"),
	    0xff, "host a expected in minutes 0..7");
	is_i64(one(db, "SELECT complete FROM io_host_hour WHERE host_id = 1"),
	    7, "host a complete in minutes 0..2");
	is_i64(one(db, "SELECT end_ms FROM io_expect WHERE dev_id = 1"),
	    T0 * 1000 + 460000, "sda: expected to the end of the data");
	is_i64(one(db, "SELECT end_ms FROM io_expect WHERE dev_id = 2"),
	    T0 * 1000 + 120000, "sdb (removed): expected to its own end");
	is_i64(one(db, "SELECT end_ms FROM io_expect WHERE dev_id = 3"),
	    T0 * 1000 + 460000, "sdc (host b stopped): to the end of the data");
	is_i64(one(db, "SELECT count(*) FROM io_minute WHERE t = 1262304240"),
	    0, "minute 4: sda and sdc expected, none valid: no row");
	is_i64(one(db, "SELECT expected FROM io_host_hour WHERE host_id = 2"),
	    0xf8, "host b expected in minutes 3..7");
	is_i64(one(db, "SELECT complete FROM io_host_hour WHERE host_id = 2"),
	    8, "host b complete in minute 3 only");
	/* samples whose last ms lies in a valid minute: those ending at
	 * 60000, 120500, 180000; sums over minutes 0..2 */
	is_i64(one(db, "SELECT samples FROM io_dev_hour WHERE dev_id = 1"), 3,
	    "sda: 3 samples end in a valid minute");
	is_i64(one(db, "SELECT rd_bytes FROM io_dev_hour WHERE dev_id = 1"),
	    1536, "sda: read bytes of the valid minutes");
	is_i64(one(db, "SELECT wr_bytes FROM io_dev_hour WHERE dev_id = 1"),
	    61952, "sda: written bytes of the valid minutes");
	is_i64(one(db, "SELECT ios * 100 + rd_ios FROM io_dev_hour WHERE "
	    "dev_id = 1"), 303, "sda: 3 requests, 3 reads");
	is_i64(one(db, "SELECT io_ms FROM io_dev_hour WHERE dev_id = 1"), 21,
	    "sda: busy ms of the valid minutes, not of the gap");
	is_i64(one(db, "SELECT minutes FROM io_dev_hour WHERE dev_id = 1"), 3,
	    "sda: 3 valid minutes");
	is_i64(one(db, "SELECT peak_bytes FROM io_dev_hour WHERE dev_id = 1"),
	    61947, "sda: busiest minute's bytes");
	is_i64(one(db, "SELECT peak_t FROM io_dev_hour WHERE dev_id = 1"),
	    T0 + 60, "sda: busiest minute");
	is_i64(one(db, "SELECT peak_ios FROM io_dev_hour WHERE dev_id = 1"),
	    2, "sda: most requests in a minute");
}

static void
check_filters(sqlite3 *db)
{
	const char *b[] = { "b" };
	struct io_window w = { .hosts = b, .nhosts = 1 };
	struct minute_series s;
	struct dev_stat *d;
	size_t n;
	char err[512];

	ok(query_minutes_load(db, &w, &s, err, sizeof err) == 0 && s.n == 5 &&
	    s.t0 == T0 + 180 && s.state[0] == MIN_COMPLETE && s.wr[0] == 2048 &&
	    s.ios[0] == 1 && s.nhost == 1 && s.ndev == 1 &&
	    s.state[1] == MIN_MISSING && s.state[4] == MIN_MISSING,
	    "host b: its one minute complete, then missing to the end");
	query_minutes_free(&s);
	w = (struct io_window){ .from = T0 + 60, .to = T0 + 150,
	    .has_from = 1, .has_to = 1 };
	ok(query_minutes_load(db, &w, &s, err, sizeof err) == 0 && s.n == 1 &&
	    s.t0 == T0 + 60 && s.state[0] == MIN_COMPLETE && s.rd[0] == 5627,
	    "window rounded down to minutes");
	query_minutes_free(&s);
	w = (struct io_window){ .from = T0 + 60, .to = T0 + 180,
	    .has_from = 1, .has_to = 1 };
	ok(query_devstats_load(db, &w, &d, &n, err, sizeof err) == 0, "dev stats");
	ok(n == 2 && !strcmp(d[0].device, "sda") && !strcmp(d[1].device,
	    "sdb"), "devices expected in the window, by name");
	if (n == 2) {
		/* minutes 1 and 2: the samples ending at 120500 and 180000
		 * end in minute 2; the one ending at 60000 lies before */
		is_i64((int64_t)d[0].samples, 2, "sda: 2 samples end inside");
		is_i64((int64_t)d[0].rd_bytes, 512, "sda: read bytes of "
		    "minutes 1, 2");
		is_i64((int64_t)d[0].wr_bytes, 61952, "sda: written bytes");
		is_i64((int64_t)d[0].io_ms, 14, "sda: busy ms 6 + 8");
		is_i64((int64_t)d[0].ios, 1, "sda: requests");
		is_i64((int64_t)d[0].minutes, 2, "sda: minutes 1 and 2 valid");
		is_i64((int64_t)d[0].peak_bytes, 61947, "sda: peak bytes");
		is_i64(d[0].peak_t, T0 + 60, "sda: peak minute");
		is_i64((int64_t)d[1].oth_ios, 4, "sdb: other requests");
		is_i64((int64_t)d[1].peak_ios, 7, "sdb: peak requests");
	}
	query_devstats_free(d, n);
}

/* Stopped: nothing changes and the hour stays dirty. Inside the caller's
 * transaction (a savepoint, no worker threads): the same rows. */
static void
check_rerun(sqlite3 *db)
{
	volatile sig_atomic_t stop = 1;
	char err[512];

	sqlite3_exec(db, "INSERT INTO io_dirty VALUES (1262304000)", NULL, NULL,
	    NULL);
	ok(rollup_run(db, &stop, err, sizeof err) < 0 &&
	    strstr(err, "interrupted") != NULL, "a stopped roll-up fails");
	ok(rollup_dirty_hours(db) == 1, "a stopped roll-up leaves the hour dirty");
	check_all(db);
	sqlite3_exec(db, "BEGIN", NULL, NULL, NULL);
	ok(rollup_run(db, NULL, err, sizeof err) == 0,
	    "roll-up inside a transaction: %s", err);
	ok(sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK,
	    "the caller commits");
	ok(rollup_dirty_hours(db) == 0, "no dirty hour after it");
	check_all(db);
	check_tables(db);
}

/*
 * The hour edge. sdd: minutes 58, 59, 60 (T0 + 3480 .. T0 + 3660), read
 * sectors 1, 2, 4, one read each sector. The sample ending exactly at
 * T0 + 3600 is stored in chunk T0 + 3600 but covers minute 59, hour T0:
 *   io_dev_hour T0:        ends 3540000, 3600000: 2 samples, 1536 B,
 *                          minutes 58, 59 valid, busiest 59 (1024 B);
 *   io_dev_hour T0 + 3600: ends 3660000: 1 sample, 2048 B, minute 60.
 * First only the sample of chunk T0 is stored and rolled up; then chunk
 * T0 + 3600 arrives with only its own hour dirty: the roll-up must still
 * rebuild io_dev_hour T0.
 */
static const struct fx_sample sdd[] = {
	{ 3540000, 60000, 1, 0, 1, 0, 0 },
	{ 3600000, 60000, 2, 0, 2, 0, 0 },
	{ 3660000, 60000, 4, 0, 4, 0, 0 },
};

/* Device totals of the one device over [from, to) (0: the data's). */
static void
check_edge_stats(sqlite3 *db, int64_t from, int64_t to, int64_t samples,
    int64_t rd_bytes, int64_t minutes, const char *what)
{
	struct io_window w = { .from = from, .to = to, .has_from = from != 0,
	    .has_to = to != 0 };
	struct dev_stat *d = NULL;
	size_t n = 0;
	char err[512] = "";

	ok(query_devstats_load(db, &w, &d, &n, err, sizeof err) == 0 && n == 1,
	    "%s: one device %s", what, err);
	if (n == 1) {
		is_i64((int64_t)d[0].samples, samples, "%s: samples", what);
		is_i64((int64_t)d[0].rd_bytes, rd_bytes, "%s: bytes", what);
		is_i64((int64_t)d[0].rd_ios, rd_bytes / 512, "%s: reads", what);
		is_i64((int64_t)d[0].minutes, minutes, "%s: minutes", what);
	}
	query_devstats_free(d, n);
}

static void
check_hour_edge(const char *dir)
{
	char path[64], err[512] = "";
	sqlite3 *db;

	snprintf(path, sizeof path, "%s/edge.db", dir);
	if ((db = db_open(path, DB_GROUP_OWN, err, sizeof err)) == NULL) {
		ok(0, "open %s: %s", path, err);
		return;
	}
	sqlite3_exec(db, "INSERT INTO io_host VALUES (1, 'a'); INSERT INTO "
	    "io_dirty VALUES (1262304000)", NULL, NULL, NULL);
	put_device(db, 1, 1, "sdd", sdd, 1);
	ok(rollup_run(db, NULL, err, sizeof err) == 0, "edge: roll-up %s",
	    err);
	is_i64(one(db, "SELECT samples * 10000 + rd_bytes FROM io_dev_hour "
	    "WHERE t0 = 1262304000"), 10512, "edge: hour 0 holds 1 sample");
	put_chunk(db, 1, "sdd", sdd + 1, 2);
	sqlite3_exec(db, "UPDATE io_dev SET last_ms = 1262307660000; INSERT "
	    "INTO io_dirty VALUES (1262307600)", NULL, NULL, NULL);
	ok(rollup_run(db, NULL, err, sizeof err) == 0, "edge: roll-up "
	    "of the next chunk %s", err);
	is_i64(one(db, "SELECT count(*) FROM io_chunk"), 2, "edge: 2 chunks");
	is_i64(one(db, "SELECT samples FROM io_dev_hour WHERE t0 = "
	    "1262304000"), 2, "edge: hour 0 gained the sample ending at 1 h");
	is_i64(one(db, "SELECT io_ms FROM io_dev_hour WHERE t0 = "
	    "1262304000"), 14, "edge: hour 0 busy ms");
	is_i64(one(db, "SELECT rd_bytes FROM io_dev_hour WHERE t0 = "
	    "1262304000"), 1536, "edge: hour 0 bytes");
	is_i64(one(db, "SELECT rd_ios FROM io_dev_hour WHERE t0 = "
	    "1262304000"), 3, "edge: hour 0 reads");
	is_i64(one(db, "SELECT minutes * 10000 + peak_bytes FROM io_dev_hour "
	    "WHERE t0 = 1262304000"), 21024, "edge: hour 0: 2 minutes, peak");
	is_i64(one(db, "SELECT peak_t FROM io_dev_hour WHERE t0 = 1262304000"),
	    T0 + 3540, "edge: hour 0 busiest minute 59");
	is_i64(one(db, "SELECT samples * 10000 + rd_bytes FROM io_dev_hour "
	    "WHERE t0 = 1262307600"), 12048, "edge: hour 1: 1 sample");
	is_i64(one(db, "SELECT minutes * 10000 + peak_bytes FROM io_dev_hour "
	    "WHERE t0 = 1262307600"), 12048, "edge: hour 1: minute 60");
	/* default window [T0 + 3480, T0 + 3660): all three, the last one
	 * (ending at the window's end) too; edges on both sides of 1 h */
	check_edge_stats(db, 0, 0, 3, 3584, 3, "edge: default window");
	check_edge_stats(db, T0 + 3540, T0 + 3600, 1, 1024, 1,
	    "edge: minute 59");
	check_edge_stats(db, T0, T0 + 3600, 2, 1536, 2, "edge: hour 0 whole");
	check_edge_stats(db, T0 + 3600, T0 + 7200, 1, 2048, 1,
	    "edge: hour 1 whole");
	check_edge_stats(db, T0 + 3540, T0 + 7200, 2, 3072, 2,
	    "edge: minute 59 and hour 1");
	db_close(db);
}

int
main(int argc, char **argv)
{
	char dir[] = "/tmp/test_rollup.XXXXXX", path[64];
	sqlite3 *db;

	if (argc > 2)
		return dump(argc, argv);
	if (mkdtemp(dir) == NULL)
		return 1;
	snprintf(path, sizeof path, "%s/t.db", dir);
	if ((db = fixture(path)) != NULL) {
		check_all(db);
		check_tables(db);
		check_filters(db);
		check_rerun(db);
		db_close(db);
	}
	check_hour_edge(dir);
	snprintf(path, sizeof path, "rm -rf %s", dir);
	if (system(path) != 0)
		ok(0, "cleanup");
	return tap_end();
}
