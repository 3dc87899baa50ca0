/*
 * query_minutes: the minutes of a question's window from io_minute (all
 * hosts) or io_host_hour (a host filter), over the minutes in which
 * devices are expected (query_sel.c: missing unless a row says more).
 * Only the span from the first to the last minute that can hold data is
 * stored, so a window of centuries costs what its data does. Bulk reads
 * only: a few statements per load, never one per minute.
 */
#include "query.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "chunk/chunk.h"
#include "db.h"
#include "query_int.h"
#include "xalloc.h"

int
query_minutes_hour_values(sqlite3_stmt *st, int col, uint64_t v[60], char *err,
    size_t errlen)
{
	const char *s = sqlite3_column_blob(st, col);
	size_t len = s ? (size_t)sqlite3_column_bytes(st, col) : 0;

	if (chunk_r127_decode(s, len, 60, v) == 0)
		return 0;
	snprintf(err, errlen, "io_host_hour of %lld: a minute column is not "
	    "r127 of 60 values", (long long)sqlite3_column_int64(st, 1));
	return -1;
}

/* Minutes of the spans, as indexes of s's stored minutes: fn(arg, j)
 * for each (the spans lie in the stored ones, span_bounds). */
static void
each_minute(const struct minute_series *s, const struct host_expect *h,
    void (*fn)(void *, size_t), void *arg)
{
	int64_t lo = s->t0 + 60 * (int64_t)s->lo;

	for (size_t j = 0; j < h->n; j++)
		for (int64_t t = h->v[j].a; t < h->v[j].b; t += 60)
			fn(arg, (size_t)((t - lo) / 60));
}

static void
set_missing(void *arg, size_t i)
{
	((uint8_t *)arg)[i] = MIN_MISSING;
}

static void
count_expected(void *arg, size_t i)
{
	((uint32_t *)arg)[i]++;
}

/* Index of time t among s's stored minutes, or -1 outside them. */
static long
stored_index(const struct minute_series *s, int64_t t)
{
	int64_t lo = s->t0 + 60 * (int64_t)s->lo;

	if (t < lo || t >= lo + 60 * (int64_t)s->len)
		return -1;
	return (long)((t - lo) / 60);
}

static int
minutes_all(sqlite3 *db, const struct expect_map *e, struct minute_series *s,
    char *err, size_t errlen)
{
	sqlite3_stmt *st;
	int rc;

	each_minute(s, &e->h[0], set_missing, s->state);
	if (query_sel_prepare(db,
	    "SELECT t, expected, valid, rd_bytes, wr_bytes, ios "
	    "FROM io_minute WHERE t >= ?1 AND t < ?2", &st, err, errlen) < 0)
		return -1;
	sqlite3_bind_int64(st, 1, s->t0 + 60 * (int64_t)s->lo);
	sqlite3_bind_int64(st, 2, s->t0 + 60 * (int64_t)(s->lo + s->len));
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		long i = stored_index(s, sqlite3_column_int64(st, 0));

		if (i < 0)
			continue;
		if (sqlite3_column_int64(st, 1) != sqlite3_column_int64(st,
		    2)) {
			s->state[i] = MIN_MISSING;
			continue;
		}
		s->state[i] = MIN_COMPLETE;
		s->rd[i] = (uint64_t)sqlite3_column_int64(st, 3);
		s->wr[i] = (uint64_t)sqlite3_column_int64(st, 4);
		s->ios[i] = (uint64_t)sqlite3_column_int64(st, 5);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : db_sqlerr(db, "reading I/O minutes", err,
	    errlen);
}

/* One io_host_hour row into the per-minute sums of complete hosts. */
static int
add_host_hour(sqlite3_stmt *st, struct minute_series *s, uint32_t *comp,
    char *err, size_t errlen)
{
	int64_t t0 = sqlite3_column_int64(st, 1);
	uint64_t e = (uint64_t)sqlite3_column_int64(st, 2);
	uint64_t c = (uint64_t)sqlite3_column_int64(st, 3);
	uint64_t rd[60], wr[60], ios[60];
	int decoded = 0;

	for (int i = 0; i < 60; i++) {
		long k = stored_index(s, t0 + 60 * i);

		if (!(e >> i & 1) || !(c >> i & 1) || k < 0)
			continue;
		if (!decoded++ && (query_minutes_hour_values(st, 4, rd, err,
		    errlen) < 0 ||
		    query_minutes_hour_values(st, 5, wr, err, errlen) < 0 ||
		    query_minutes_hour_values(st, 6, ios, err, errlen) < 0))
			return -1;
		comp[k]++;
		s->rd[k] += rd[i];
		s->wr[k] += wr[i];
		s->ios[k] += ios[i];
	}
	return 0;
}

/* A host filter: complete when every selected host expected is complete
 * (a minute no host expects is NONE, so only expected minutes are
 * stored). */
static int
minutes_hosts(sqlite3 *db, const struct io_sel *sel,
    const struct expect_map *e, struct minute_series *s, char *err,
    size_t errlen)
{
	uint32_t *exp = xcalloc(s->len ? s->len : 1, sizeof *exp);
	uint32_t *comp = xcalloc(s->len ? s->len : 1, sizeof *comp);
	sqlite3_stmt *st;
	int rc = -1;

	for (size_t h = 0; h < e->n; h++)
		each_minute(s, &e->h[h], count_expected, exp);
	if (query_sel_prepare(db,
	    "SELECT host_id, t0, expected, complete, rd, wr, ios "
	    "FROM io_host_hour WHERE t0 >= ?1 AND t0 < ?2", &st, err,
	    errlen) < 0)
		goto out;
	sqlite3_bind_int64(st, 1, floor_div64(s->t0 + 60 * (int64_t)s->lo,
	    3600) * 3600);
	sqlite3_bind_int64(st, 2, s->t0 + 60 * (int64_t)(s->lo + s->len));
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if (query_sel_index(sel, sqlite3_column_int64(st, 0)) >= 0 &&
		    add_host_hour(st, s, comp, err, errlen) < 0)
			break;
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		rc = rc == SQLITE_ROW ? -1 : db_sqlerr(db,
		    "reading I/O minutes", err, errlen);
		goto out;
	}
	rc = 0;
	for (size_t k = 0; k < s->len; k++) {
		s->state[k] = exp[k] == 0 ? MIN_NONE : comp[k] == exp[k] ?
		    MIN_COMPLETE : MIN_MISSING;
		if (s->state[k] != MIN_COMPLETE)
			s->rd[k] = s->wr[k] = s->ios[k] = 0;
	}
out:
	free(exp);
	free(comp);
	return rc;
}

/* Widen [*a, *b) to hold [x, y) (*a == *b: empty). */
static void
hull(int64_t *a, int64_t *b, int64_t x, int64_t y)
{
	if (x >= y)
		return;
	if (*a == *b) {
		*a = x;
		*b = y;
		return;
	}
	if (x < *a)
		*a = x;
	if (y > *b)
		*b = y;
}

/* The minutes of [from, to) that can hold data, [*a, *b): the expected
 * ones (e) and, without a host filter, those with an io_minute row (a
 * filter counts only expected minutes: any other is NONE). */
static int
span_bounds(sqlite3 *db, const struct io_sel *sel, const struct expect_map *e,
    int64_t *a, int64_t *b, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	int rc;

	*a = *b = sel->from;
	for (size_t h = 0; h < e->n; h++)
		if (e->h[h].n)
			hull(a, b, e->h[h].v[0].a, e->h[h].v[e->h[h].n - 1].b);
	if (!sel->all)
		return 0;
	if (query_sel_prepare(db, "SELECT min(t), max(t) FROM io_minute "
	    "WHERE t >= ?1 AND t < ?2", &st, err, errlen) < 0)
		return -1;
	sqlite3_bind_int64(st, 1, sel->from);
	sqlite3_bind_int64(st, 2, sel->to);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW &&
	    sqlite3_column_type(st, 0) != SQLITE_NULL)
		hull(a, b, floor_div64(sqlite3_column_int64(st, 0), 60) * 60,
		    floor_div64(sqlite3_column_int64(st, 1), 60) * 60 + 60);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : db_sqlerr(db, "reading I/O minutes", err,
	    errlen);
}

/* Allocate and fill s's stored minutes: the span of data in the window. */
static int
minutes_fill(sqlite3 *db, const struct io_sel *sel, struct minute_series *s,
    char *err, size_t errlen)
{
	struct expect_map e;
	int64_t a, b;
	int rc;

	rc = query_sel_expect(db, sel, !sel->all, sel->from, sel->to, &e, err,
	    errlen);
	if (rc == 0)
		rc = span_bounds(db, sel, &e, &a, &b, err, errlen);
	if (rc == 0 && a < b) {
		s->lo = (size_t)((a - s->t0) / 60);
		s->len = (size_t)((b - a) / 60);
		s->state = xcalloc(s->len, sizeof *s->state);
		s->rd = xcalloc(s->len, sizeof *s->rd);
		s->wr = xcalloc(s->len, sizeof *s->wr);
		s->ios = xcalloc(s->len, sizeof *s->ios);
		rc = sel->all ? minutes_all(db, &e, s, err, errlen) :
		    minutes_hosts(db, sel, &e, s, err, errlen);
	}
	query_sel_expect_free(&e);
	return rc;
}

int
query_minutes_load(sqlite3 *db, const struct io_window *w,
    struct minute_series *s, char *err, size_t errlen)
{
	struct io_sel sel;
	int rc;

	memset(s, 0, sizeof *s);
	if (query_sel_resolve(db, w, &sel, err, errlen) < 0) {
		query_sel_free(&sel);
		return -1;
	}
	if ((sel.to - sel.from) / 60 > IO_MAX_MINUTES) {
		snprintf(err, errlen, FMT_USAGE "the window holds %lld minutes;"
		    " at most %d (200 years) are analysed at once: narrow"
		    " --from/--to", (long long)((sel.to - sel.from) / 60),
		    IO_MAX_MINUTES);
		query_sel_free(&sel);
		return -1;
	}
	s->t0 = sel.from;
	s->cut = sel.cut;
	s->data_from = sel.data_from;
	s->n = (size_t)((sel.to - sel.from) / 60);
	rc = s->n == 0 ? 0 : minutes_fill(db, &sel, s, err, errlen);
	if (rc == 0)
		rc = query_sel_count(db, &sel, &s->nhost, &s->ndev, err,
		    errlen);
	query_sel_free(&sel);
	if (rc < 0)
		query_minutes_free(s);
#ifndef NDEBUG
	for (size_t i = 0; rc == 0 && i < s->len; i++) {
		/* A1: a minute that is not complete carries no value (one
		 * not stored has none) */
		assert(s->state[i] == MIN_COMPLETE || (s->rd[i] == 0 &&
		    s->wr[i] == 0 && s->ios[i] == 0));
	}
	assert(s->lo + s->len <= s->n);
#endif
	return rc;
}

void
query_minutes_free(struct minute_series *s)
{
	free(s->state);
	free(s->rd);
	free(s->wr);
	free(s->ios);
	memset(s, 0, sizeof *s);
}
