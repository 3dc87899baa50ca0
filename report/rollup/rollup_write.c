/*
 * rollup_write: the derived rows of sql/io.sql (io_dev_hour, io_host_hour,
 * io_minute, io_hour, io_day) from the minutes rollup.c accumulated.
 * Values of a minute that is not complete are never summed into a roll-up;
 * a roll-up with no complete minute has NULL peaks. Rows are written only
 * where some device has a value: a minute (or a host's hour) in which
 * devices are expected but none has one is missing, and readers know it
 * from the devices' expected spans (io_dev, io_expect), so that time in
 * which nothing was sampled costs no row, however long.
 */
#include <stdio.h>
#include <string.h>

#include "db.h"
#include "rollup_int.h"

static sqlite3_stmt *
prep(sqlite3 *db, const char *sql, int *bad)
{
	sqlite3_stmt *st = NULL;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		*bad = 1;
	return st;
}

int
rollup_write_open(struct rollup_out *o, sqlite3 *db, char *err, size_t errlen)
{
	int bad = 0;

	memset(o, 0, sizeof *o);
	o->db = db;
	o->del_dev_hour = prep(db, "DELETE FROM io_dev_hour WHERE dev_id = ?1 "
	    "AND t0 >= ?2 AND t0 < ?3", &bad);
	o->ins_dev_hour = prep(db, "INSERT INTO io_dev_hour (dev_id, t0, "
	    "peak_bytes, peak_t, peak_ios, minutes, samples, rd_bytes, "
	    "wr_bytes, ios, rd_ios, wr_ios, oth_ios, rd_ms, wr_ms, io_ms) "
	    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, "
	    "?14, ?15, ?16)", &bad);
	o->ins_host_hour = prep(db, "INSERT INTO io_host_hour (host_id, t0, "
	    "expected, complete, rd, wr, ios) VALUES (?1, ?2, ?3, ?4, ?5, ?6, "
	    "?7)", &bad);
	o->ins_minute = prep(db, "INSERT INTO io_minute (t, expected, valid, "
	    "rd_bytes, wr_bytes, ios) VALUES (?1, ?2, ?3, ?4, ?5, ?6)", &bad);
	o->ins_hour = prep(db, "INSERT INTO io_hour (t, minutes, rd_bytes, "
	    "wr_bytes, ios, peak_bytes, peak_rd, peak_wr) VALUES (?1, ?2, ?3, "
	    "?4, ?5, ?6, ?7, ?8)", &bad);
	if (bad) {
		db_sqlerr(db, "roll-up statements", err, errlen);
		rollup_write_close(o);
		return -1;
	}
	return 0;
}

void
rollup_write_close(struct rollup_out *o)
{
	sqlite3_finalize(o->del_dev_hour);
	sqlite3_finalize(o->ins_dev_hour);
	sqlite3_finalize(o->ins_host_hour);
	sqlite3_finalize(o->ins_minute);
	sqlite3_finalize(o->ins_hour);
	memset(o, 0, sizeof *o);
}

/* Step a bound statement that returns no rows, and reset it. */
static int
done(struct rollup_out *o, sqlite3_stmt *st, const char *what, char *err,
    size_t errlen)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : db_sqlerr(o->db, what, err, errlen);
}

static void
bind_u64(sqlite3_stmt *st, int i, uint64_t v)
{
	sqlite3_bind_int64(st, i, (sqlite3_int64)v);
}

/* A peak over n minutes: NULL when there were none. */
static void
bind_peak(sqlite3_stmt *st, int i, uint64_t v, uint64_t n)
{
	if (n)
		bind_u64(st, i, v);
	else
		sqlite3_bind_null(st, i);
}

int
rollup_write_clear(struct rollup_out *o, int64_t a, int64_t b, char *err,
    size_t errlen)
{
	static const char *const sql[] = {
		"DELETE FROM io_minute WHERE t >= ?1 AND t < ?2",
		"DELETE FROM io_host_hour WHERE t0 >= ?1 AND t0 < ?2",
		"DELETE FROM io_hour WHERE t >= ?1 AND t < ?2",
	};

	for (size_t i = 0; i < sizeof sql / sizeof sql[0]; i++) {
		sqlite3_stmt *st;

		if (sqlite3_prepare_v2(o->db, sql[i], -1, &st, NULL) !=
		    SQLITE_OK)
			return db_sqlerr(o->db, "clearing roll-ups", err,
			    errlen);
		sqlite3_bind_int64(st, 1, a);
		sqlite3_bind_int64(st, 2, b);
		if (done(o, st, "clearing roll-ups", err, errlen) < 0) {
			sqlite3_finalize(st);
			return -1;
		}
		sqlite3_finalize(st);
	}
	return 0;
}

/* One hour of a device, minutes [first, first + 60) of m: the sums over
 * its valid minutes, their count, the busiest by bytes (the first of
 * equals) and the most requests. */
struct dev_hour {
	uint64_t minutes, samples, sum[MV_N], peak_bytes, peak_ios;
	int64_t peak_t;
};

static void
dev_hour(const struct dev_minutes *m, size_t first, struct dev_hour *h)
{
	memset(h, 0, sizeof *h);
	for (size_t i = first; i < first + 60 && i < m->n; i++) {
		uint64_t b = m->v[MV_RD][i] + m->v[MV_WR][i];

		if (!chunk_minute_valid(m, i))
			continue;
		if (h->minutes++ == 0 || b > h->peak_bytes) {
			h->peak_bytes = b;
			h->peak_t = m->a + 60 * (int64_t)i;
		}
		if (m->v[MV_IOS][i] > h->peak_ios)
			h->peak_ios = m->v[MV_IOS][i];
		h->samples += m->samples[i];
		for (int j = 0; j < MV_N; j++)
			h->sum[j] += m->v[j][i];
	}
}

int
rollup_write_dev_hours(struct rollup_out *o, int64_t dev_id,
    const struct dev_minutes *m, char *err, size_t errlen)
{
	sqlite3_stmt *st = o->ins_dev_hour;

	for (size_t j = 0; j < m->n; j += 60) {
		struct dev_hour h;

		dev_hour(m, j, &h);
		if (h.minutes == 0)
			continue;
		sqlite3_bind_int64(st, 1, dev_id);
		sqlite3_bind_int64(st, 2, m->a + 60 * (int64_t)j);
		bind_u64(st, 3, h.peak_bytes);
		sqlite3_bind_int64(st, 4, h.peak_t);
		bind_u64(st, 5, h.peak_ios);
		bind_u64(st, 6, h.minutes);
		bind_u64(st, 7, h.samples);
		for (int k = 0; k < MV_N; k++)	/* ?8.. in MV_ order */
			bind_u64(st, 8 + k, h.sum[k]);
		if (done(o, st, "writing io_dev_hour", err, errlen) < 0)
			return -1;
	}
	return 0;
}

/* r127 of 60 values, or NULL when all are 0. */
static void
bind_r127_60(sqlite3_stmt *st, int i, const uint64_t *v, char *buf)
{
	size_t len = chunk_r127_encode(v, 60, buf);

	if (len == 0)
		sqlite3_bind_null(st, i);
	else
		sqlite3_bind_blob(st, i, buf, (int)len, SQLITE_STATIC);
}

int
rollup_write_host_hours(struct rollup_out *o, int64_t host_id, int64_t a,
    size_t n, const struct minute_acc *h, char *err, size_t errlen)
{
	sqlite3_stmt *st = o->ins_host_hour;
	char buf[3][60 * 10];

	for (size_t j = 0; j < n; j += 60) {
		uint64_t exp = 0, comp = 0, v[3][60];
		int live = 0;

		memset(v, 0, sizeof v);
		for (size_t i = 0; i < 60 && j + i < n; i++) {
			size_t k = j + i;

			if (h->exp[k] == 0)
				continue;
			exp |= UINT64_C(1) << i;
			live |= h->val[k] > 0;
			if (h->val[k] != h->exp[k])
				continue;
			comp |= UINT64_C(1) << i;
			v[0][i] = h->rd[k];
			v[1][i] = h->wr[k];
			v[2][i] = h->ios[k];
		}
		if (!live)
			continue;
		sqlite3_bind_int64(st, 1, host_id);
		sqlite3_bind_int64(st, 2, a + 60 * (int64_t)j);
		sqlite3_bind_int64(st, 3, (sqlite3_int64)exp);
		sqlite3_bind_int64(st, 4, (sqlite3_int64)comp);
		for (int f = 0; f < 3; f++)
			bind_r127_60(st, 5 + f, v[f], buf[f]);
		if (done(o, st, "writing io_host_hour", err, errlen) < 0)
			return -1;
	}
	return 0;
}

/* Max over complete minutes: first sets it. */
static void
peak(uint64_t *p, uint64_t x, uint64_t complete)
{
	if (complete == 1 || x > *p)
		*p = x;
}

int
rollup_write_system(struct rollup_out *o, int64_t a, size_t n,
    const struct minute_acc *s, char *err, size_t errlen)
{
	for (size_t j = 0; j < n; j += 60) {
		uint64_t rows = 0, comp = 0, rd = 0, wr = 0, ios = 0;
		uint64_t pb = 0, prd = 0, pwr = 0;
		sqlite3_stmt *st = o->ins_minute;

		for (size_t k = j; k < j + 60 && k < n; k++) {
			if (s->val[k] == 0)	/* missing: no row */
				continue;
			rows++;
			sqlite3_bind_int64(st, 1, a + 60 * (int64_t)k);
			sqlite3_bind_int64(st, 2, s->exp[k]);
			sqlite3_bind_int64(st, 3, s->val[k]);
			bind_u64(st, 4, s->rd[k]);
			bind_u64(st, 5, s->wr[k]);
			bind_u64(st, 6, s->ios[k]);
			if (done(o, st, "writing io_minute", err, errlen) < 0)
				return -1;
			if (s->val[k] != s->exp[k])
				continue;
			comp++;
			rd += s->rd[k];
			wr += s->wr[k];
			ios += s->ios[k];
			peak(&pb, s->rd[k] + s->wr[k], comp);
			peak(&prd, s->rd[k], comp);
			peak(&pwr, s->wr[k], comp);
		}
		if (rows == 0)
			continue;
		st = o->ins_hour;
		sqlite3_bind_int64(st, 1, a + 60 * (int64_t)j);
		bind_u64(st, 2, comp);
		bind_u64(st, 3, rd);
		bind_u64(st, 4, wr);
		bind_u64(st, 5, ios);
		bind_peak(st, 6, pb, comp);
		bind_peak(st, 7, prd, comp);
		bind_peak(st, 8, pwr, comp);
		if (done(o, st, "writing io_hour", err, errlen) < 0)
			return -1;
	}
	return 0;
}

int
rollup_write_days(sqlite3 *db, int64_t a, int64_t b, char *err, size_t errlen)
{
	int64_t d0 = floor_div64(a, 86400) * 86400;
	int64_t d1 = floor_div64(b - 1, 86400) * 86400 + 86400;
	static const char *const sql[] = {
		"DELETE FROM io_day WHERE t >= ?1 AND t < ?2",
		"INSERT INTO io_day (t, minutes, rd_bytes, wr_bytes, ios, "
		"peak_bytes, peak_rd, peak_wr) SELECT t - ((t % 86400) + 86400) "
		"% 86400 AS d, sum(minutes), sum(rd_bytes), sum(wr_bytes), "
		"sum(ios), max(peak_bytes), max(peak_rd), max(peak_wr) FROM "
		"io_hour WHERE t >= ?1 AND t < ?2 GROUP BY d",
	};

	for (int i = 0; i < 2; i++) {
		sqlite3_stmt *st;
		int rc;

		if (sqlite3_prepare_v2(db, sql[i], -1, &st, NULL) != SQLITE_OK)
			return db_sqlerr(db, "writing io_day", err, errlen);
		sqlite3_bind_int64(st, 1, d0);
		sqlite3_bind_int64(st, 2, d1);
		rc = sqlite3_step(st);
		sqlite3_finalize(st);
		if (rc != SQLITE_DONE)
			return db_sqlerr(db, "writing io_day", err, errlen);
	}
	return 0;
}
