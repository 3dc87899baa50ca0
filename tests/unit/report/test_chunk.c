/*
 * test_chunk: report/chunk/chunk.c's r127 bytes against hand-computed
 * expectations, width edges, corrupt input, chunk rows through SQLite and
 * back (also decoded by the v_io view, the plain-SQL decoder users rely
 * on), and merge rules.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db.h"
#include "chunk/chunk.h"
#include "tap.h"

static struct iochunk a, b, c;
static struct iochunk_scratch scratch;

static void
check_bytes(const uint64_t *v, size_t n, const char *want, size_t wantlen,
    const char *name)
{
	char out[64 * 9];
	uint64_t back[64];
	size_t len = chunk_r127_encode(v, n, out);
	int same = len == wantlen && memcmp(out, want, len) == 0;

	ok(same, "r127 bytes: %s", name);
	ok(chunk_r127_decode(out, len, n, back) == 0 &&
	    memcmp(back, v, n * sizeof *v) == 0, "r127 round trip: %s", name);
}

static void
test_r127_edges(void)
{
	uint64_t z[3] = { 0, 0, 0 }, w1[2] = { 0, 126 }, w2a[1] = { 127 },
	    w2b[2] = { 16128, 1 }, w3[1] = { 16129 }, mx[1] = { R127_MAX };

	check_bytes(z, 3, "", 0, "all zero is empty");
	check_bytes(w1, 2, "\x01\x7f", 2, "126 fits one digit");
	check_bytes(w2a, 1, "\x01\x02", 2, "127 needs two digits");
	check_bytes(w2b, 2, "\x7f\x7f\x02\x01", 4,
	    "16128 is the largest of two");
	check_bytes(w3, 1, "\x01\x01\x02", 3, "16129 needs three digits");
	check_bytes(mx, 1, "\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f", 9,
	    "R127_MAX is nine digits 126");
	is_u64(R127_MAX, UINT64_C(127) * 127 * 127 * 127 * 127 * 127 * 127 *
	    127 * 127 - 1, "R127_MAX is 127^9 - 1");
}

static void
test_r127_random(void)
{
	static uint64_t v[1000], back[1000];
	static char out[1000 * 9];
	uint64_t x = 88172645463325252ULL;
	int bad = 0;

	for (int round = 0; round < 200; round++) {
		size_t n = 1 + (size_t)round * 5;
		int bits = round % 63 + 1;

		for (size_t i = 0; i < n; i++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			v[i] = (x >> (64 - bits)) % (R127_MAX + 1);
		}
		size_t len = chunk_r127_encode(v, n, out);
		for (size_t i = 0; i < len; i++)
			bad += out[i] < 1;	/* signed char: 128+ is < 0 */
		if (chunk_r127_decode(out, len, n, back) != 0 ||
		    memcmp(back, v, n * sizeof *v) != 0)
			bad++;
	}
	ok(bad == 0, "r127 random round trips, bytes in 1..127");
}

static void
test_r127_corrupt(void)
{
	uint64_t v[4];

	ok(chunk_r127_decode("\x01\x02\x03", 3, 2, v) == -1, "length not n * width");
	ok(chunk_r127_decode("\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01", 10, 1, v)
	    == -1, "width 10");
	ok(chunk_r127_decode("\x01\x00", 2, 2, v) == -1, "byte 0");
	ok(chunk_r127_decode("\x01\x80", 2, 2, v) == -1, "byte 128");
	ok(chunk_r127_decode("\x01", 1, 0, v) == -1, "bytes for no values");
	v[0] = v[1] = 7;
	ok(chunk_r127_decode(NULL, 0, 2, v) == 0 && v[0] == 0 && v[1] == 0,
	    "empty means all zero");
}

static void
fill(struct iochunk *ch, int64_t t0, size_t n, int64_t first, int64_t step,
    int jitter)
{
	ch->t0 = t0;
	ch->n = n;
	for (size_t i = 0; i < n; i++) {
		struct io_sample *s = &ch->s[i];

		s->t_ms = t0 * 1000 + first + (int64_t)i * step +
		    (jitter ? (int64_t)(i * 7 % 5) - 2 : 0);
		s->dur_ms = step + (jitter ? (int64_t)(i % 3) - 1 : 0);
		for (int k = 0; k < IOF_N; k++)
			s->v[k] = k == IOF_WR_MS ? 0 :
			    (uint64_t)(i * 1000 + k) *
			    (k == IOF_RD_SEC ? 99991 : 1);
	}
}

static int
same_chunk(const struct iochunk *x, const struct iochunk *y)
{
	return x->n == y->n && memcmp(x->s, y->s, x->n * sizeof x->s[0]) == 0;
}

/* Store ch as the only chunk, read it back with chunk_from_row, and
 * compare v_io's rows with the samples. */
static void
roundtrip(sqlite3 *db, const struct iochunk *ch, const char *name)
{
	sqlite3_stmt *ins, *sel, *vio;
	char err[256] = "";
	size_t i = 0;
	int bad = 0;

	db_exec(db, "DELETE FROM io_chunk", NULL, 0);
	ins = db_prepare(db, "INSERT INTO io_chunk (dev_id, t0, "
	    IOCHUNK_SELECT_COLS ") VALUES (1, ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, "
	    "?9, ?10, ?11, ?12, ?13, ?14)", err, sizeof err);
	sqlite3_bind_int64(ins, 1, ch->t0);
	ok(chunk_bind(ins, 2, ch, &scratch) == 0 && db_step_done(ins) == 0,
	    "%s: stored", name);
	sqlite3_finalize(ins);
	sel = db_prepare(db, "SELECT t0, " IOCHUNK_SELECT_COLS
	    " FROM io_chunk", err, sizeof err);
	c.t0 = ch->t0;
	ok(sqlite3_step(sel) == SQLITE_ROW &&
	    chunk_from_row(sel, 1, &c, err, sizeof err) == 0 &&
	    same_chunk(&c, ch), "%s: read back %s", name, err);
	sqlite3_finalize(sel);
	/* v_io finds value i with substr() at a BLOB's byte offset: a
	 * full hour of seconds decodes in linear time, so it is checked at
	 * every size. */
	vio = db_prepare(db, "SELECT CAST(round(t * 1000) AS INTEGER), "
	    "CAST(round(seconds * 1000) AS INTEGER), rd_ios, wr_ios, rd_bytes, "
	    "wr_bytes, busy_ms FROM v_io ORDER BY t", err, sizeof err);
	while (sqlite3_step(vio) == SQLITE_ROW) {
		const struct io_sample *s = &ch->s[i++];
		uint64_t got[5];

		for (int k = 0; k < 5; k++)
			got[k] = (uint64_t)sqlite3_column_int64(vio, 2 + k);
		if (i > ch->n || sqlite3_column_int64(vio, 0) != s->t_ms ||
		    sqlite3_column_int64(vio, 1) != s->dur_ms ||
		    got[0] != s->v[IOF_RD_IOS] || got[1] != s->v[IOF_WR_IOS] ||
		    got[2] != s->v[IOF_RD_SEC] * 512 ||
		    got[3] != s->v[IOF_WR_SEC] * 512 ||
		    got[4] != s->v[IOF_IO_MS])
			bad++;
	}
	sqlite3_finalize(vio);
	ok(bad == 0 && i == ch->n, "%s: v_io decodes the same %zu rows", name,
	    ch->n);
}

static sqlite3 *
open_db(const char *path)
{
	char err[256];
	sqlite3 *db = db_open(path, DB_GROUP_OWN, err, sizeof err);

	if (db == NULL) {
		printf("not ok - open %s: %s\n", path, err);
		exit(1);
	}
	db_exec(db, "INSERT INTO io_host VALUES (1, 'h');"
	    "INSERT INTO io_dev VALUES (1, 1, 'sda', 60000, 0, 0);", NULL, 0);
	return db;
}

static void
test_rows(sqlite3 *db)
{
	sqlite3_stmt *st;
	char err[256];

	fill(&a, 1700000000 / 3600 * 3600, 60, 0, 60000, 0);
	roundtrip(db, &a, "regular minutes");
	st = db_prepare(db, "SELECT t1_ms, step_ms, typeof(t_dev), "
	    "typeof(s_dev), typeof(wr_ms), length(rd_ios), typeof(rd_ios) "
	    "FROM io_chunk", err, sizeof err);
	ok(sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int64(st, 0) == 0 &&
	    sqlite3_column_int64(st, 1) == 60000 &&
	    !strcmp((const char *)sqlite3_column_text(st, 2), "null") &&
	    !strcmp((const char *)sqlite3_column_text(st, 3), "null") &&
	    !strcmp((const char *)sqlite3_column_text(st, 4), "null") &&
	    sqlite3_column_int64(st, 5) == 60 * 3 &&
	    !strcmp((const char *)sqlite3_column_text(st, 6), "blob"),
	    "regular minutes: no deviations stored, zero column NULL, "
	    "rd_ios (max 59000) three digits, a BLOB");
	sqlite3_finalize(st);

	fill(&a, 1700000000 / 3600 * 3600, 3600, 500, 1000, 1);
	roundtrip(db, &a, "3600 jittered seconds");
	fill(&a, 1700000000 / 3600 * 3600, 720, 2500, 5000, 1);
	roundtrip(db, &a, "720 jittered 5 s intervals");
	fill(&a, 1700000000 / 3600 * 3600, 1, 3599999, 86400000, 0);
	roundtrip(db, &a, "one sample at the hour's last ms");
	fill(&a, 1700000000 / 3600 * 3600, 5, 0, 700000, 0);
	a.s[4].t_ms += 1000;		/* irregular: step is the mode */
	a.s[2].dur_ms = -5;
	a.s[3].v[IOF_IO_MS] = R127_MAX;
	roundtrip(db, &a, "irregular, negative duration, R127_MAX value");

	/* Corrupt rows are refused, not decoded into nonsense. */
	db_exec(db, "UPDATE io_chunk SET rd_ios = 'abc'", NULL, 0);
	st = db_prepare(db, "SELECT t0, " IOCHUNK_SELECT_COLS " FROM io_chunk",
	    err, sizeof err);
	c.t0 = a.t0;
	ok(sqlite3_step(st) == SQLITE_ROW &&
	    chunk_from_row(st, 1, &c, err, sizeof err) == -1 &&
	    strstr(err, "rd_ios") != NULL, "corrupt column refused: %s", err);
	sqlite3_finalize(st);
	db_exec(db, "UPDATE io_chunk SET rd_ios = NULL, t1_ms = 3599000",
	    NULL, 0);
	st = db_prepare(db, "SELECT t0, " IOCHUNK_SELECT_COLS " FROM io_chunk",
	    err, sizeof err);
	ok(sqlite3_step(st) == SQLITE_ROW &&
	    chunk_from_row(st, 1, &c, err, sizeof err) == -1,
	    "samples outside the hour refused: %s", err);
	sqlite3_finalize(st);
	a.s[3].v[IOF_IO_MS] = R127_MAX + 1;
	st = db_prepare(db, "INSERT INTO io_chunk (dev_id, t0, "
	    IOCHUNK_SELECT_COLS ") VALUES (1, 5, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
	    " ?, ?, ?)", err, sizeof err);
	ok(chunk_bind(st, 1, &a, &scratch) == -1, "value past R127_MAX "
	    "refused by bind");
	sqlite3_finalize(st);
}

/* The worked example of docs/census-db.md, byte for byte. */
static void
test_doc_example(sqlite3 *db)
{
	static const int64_t t[3] = { 4, 60002, 120010 },
	    dur[3] = { 60000, 59998, 60008 };
	static const uint64_t rd[3] = { 5, 0, 300 };
	sqlite3_stmt *st;
	char err[256], got[256] = "";

	memset(&a, 0, sizeof a);
	a.t0 = 1700002800;
	a.n = 3;
	for (int i = 0; i < 3; i++) {
		a.s[i].t_ms = a.t0 * 1000 + t[i];
		a.s[i].dur_ms = dur[i];
		a.s[i].v[IOF_RD_IOS] = rd[i];
	}
	roundtrip(db, &a, "documented example");
	st = db_prepare(db, "SELECT n || ' ' || t1_ms || ' ' || step_ms || "
	    "' ' || hex(t_dev) || ' ' || hex(s_dev) || ' ' || hex(rd_ios) || "
	    "' ' || typeof(wr_ios) || ' ' || typeof(t_dev) || ' ' || "
	    "typeof(rd_ios) FROM io_chunk", err, sizeof err);
	if (sqlite3_step(st) == SQLITE_ROW)
		snprintf(got, sizeof got, "%s", sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	is_str(got, "3 4 60000 01040D 010411 060101012F03 null blob blob",
	    "documented example: the row's bytes, BLOBs");
}

static void
set(struct iochunk *ch, const int64_t *t, size_t n, uint64_t val)
{
	ch->t0 = 0;
	ch->n = n;
	for (size_t i = 0; i < n; i++) {
		memset(&ch->s[i], 0, sizeof ch->s[i]);
		ch->s[i].t_ms = t[i];
		ch->s[i].dur_ms = 1000;
		ch->s[i].v[IOF_RD_IOS] = val + (uint64_t)t[i];
	}
}

static void
test_merge(void)
{
	static const int64_t ta[] = { 1000, 3000, 5000 },
	    tb[] = { 0, 3000, 5000, 9000 };
	uint64_t dups = 0, conf = 0;
	size_t added;

	set(&a, ta, 3, 0);
	set(&b, tb, 4, 0);
	b.s[2].v[IOF_WR_IOS] = 1;		/* 5000 differs: a conflict */
	added = chunk_merge(&a, b.s, b.n, &dups, &conf);
	is_u64(added, 2, "merge: 0 and 9000 added");
	is_u64(dups, 2, "merge: 3000, 5000 duplicates");
	is_u64(conf, 1, "merge: 5000 conflicts");
	ok(a.n == 5 && a.s[0].t_ms == 0 && a.s[1].t_ms == 1000 &&
	    a.s[2].t_ms == 3000 && a.s[3].t_ms == 5000 && a.s[4].t_ms == 9000 &&
	    a.s[3].v[IOF_WR_IOS] == 0, "merge: sorted union, stored one kept");
	added = chunk_merge(&a, b.s, b.n, &dups, &conf);
	ok(added == 0 && a.n == 5, "merge: again adds nothing");

	/* A union over IOCHUNK_MAX keeps the earliest, in either order. */
	fill(&a, 0, 3000, 0, 1000, 0);
	fill(&b, 0, 2000, 500, 1000, 0);
	c = b;
	dups = conf = 0;
	chunk_merge(&a, c.s, c.n, &dups, &conf);
	fill(&c, 0, 3000, 0, 1000, 0);
	chunk_merge(&b, c.s, c.n, &dups, &conf);
	ok(a.n == IOCHUNK_MAX && same_chunk(&a, &b) &&
	    a.s[IOCHUNK_MAX - 1].t_ms == 1799500, "merge: a full hour keeps "
	    "the earliest %d samples, whatever the order", IOCHUNK_MAX);
	c.n = 0;
	fill(&b, 0, 10, 0, 1000, 0);
	ok(chunk_merge(&c, b.s, b.n, &dups, &conf) == 10 &&
	    same_chunk(&c, &b),
	    "merge into an empty chunk copies");
}

int
main(void)
{
	/* A directory of its own: a database is never made in one that
	 * every user may write. */
	char path[] = "/tmp/test_chunk.XXXXXX";
	char db_path[64], side[80];
	sqlite3 *db;

	test_r127_edges();
	test_r127_random();
	test_r127_corrupt();
	test_merge();
	if (!mkdtemp(path))
		return 1;
	snprintf(db_path, sizeof db_path, "%s/t.db", path);
	db = open_db(db_path);
	test_rows(db);
	test_doc_example(db);
	db_close(db);
	unlink(db_path);
	snprintf(side, sizeof side, "%s-wal", db_path);
	unlink(side);
	snprintf(side, sizeof side, "%s-shm", db_path);
	unlink(side);
	rmdir(path);
	return tap_end();
}
