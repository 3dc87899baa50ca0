/*
 * rollup_plan: which hours a roll-up rebuilds.
 *
 * New samples in hour h change the minutes their intervals reach (back to
 * twice the longest interval plus the jitter before h, and as far after h
 * through the next sample's jitter closing), and they can widen a
 * device's [first_ms, last_ms): when a device's new samples follow (or
 * precede) a gap, every minute of the gap becomes expected for it; a
 * device's very first sample may be long (a capture's first interval after
 * a gap) and make hours before its first chunk expected. So the plan is:
 * dirty hours, joined into runs; for each device with chunks in a run, the
 * gap hours to its neighbouring chunks outside the run (or back to its
 * first_ms when it has no chunk before the run); the hours between each
 * moved expected end and the old one (rollup_expect.c: a host that stops
 * or resumes, a later G, a device retired); all of it widened by the
 * reach of an interval; joined again and cut into pieces of bounded
 * length. Rebuilding an hour that did not change gives the same rows, so
 * joining near spans is always safe.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "rollup_int.h"
#include "xalloc.h"

#define JOIN_S	(24 * 3600)	/* spans closer than this are joined */

struct spans {
	struct span *v;
	size_t n, cap;
};

static void
push(struct spans *s, int64_t a, int64_t b)
{
	if (a >= b)
		return;
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 64;
		s->v = xrealloc(s->v, s->cap * sizeof *s->v);
	}
	s->v[s->n].a = a;
	s->v[s->n].b = b;
	s->n++;
}

static int
cmp_span(const void *x, const void *y)
{
	const struct span *p = x, *q = y;

	return (p->a > q->a) - (p->a < q->a);
}

/* Sort and join spans that overlap or are less than `join` apart. */
static void
join(struct spans *s, int64_t join)
{
	size_t k = 0;

	if (s->n == 0)
		return;		/* qsort(NULL, 0) is undefined */
	qsort(s->v, s->n, sizeof *s->v, cmp_span);
	for (size_t i = 0; i < s->n; i++) {
		if (k > 0 && s->v[i].a - s->v[k - 1].b <= join) {
			if (s->v[i].b > s->v[k - 1].b)
				s->v[k - 1].b = s->v[i].b;
		} else {
			s->v[k++] = s->v[i];
		}
	}
	s->n = k;
}

/* The dirty hours as runs. */
static int
dirty_runs(sqlite3 *db, struct spans *runs, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db, "SELECT t0 FROM io_dirty ORDER BY t0", -1,
	    &st, NULL) != SQLITE_OK)
		return db_sqlerr(db, "planning the roll-up", err, errlen);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t h = floor_div64(sqlite3_column_int64(st, 0), 3600) *
		    3600;

		push(runs, h, h + 3600);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_sqlerr(db, "planning the roll-up", err, errlen);
	join(runs, JOIN_S);
	return 0;
}

/* One chunk hour of a device found by st (bound ?2), or -1 for none. */
static int
seek(sqlite3_stmt *st, int64_t dev, int64_t t, int64_t *out)
{
	int rc;

	sqlite3_bind_int64(st, 1, dev);
	sqlite3_bind_int64(st, 2, t);
	rc = sqlite3_step(st);
	*out = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
	sqlite3_reset(st);
	if (rc == SQLITE_ROW)
		return 1;
	return rc == SQLITE_DONE ? 0 : -1;
}

/* The gap hours between each device's chunks in a run and its nearest
 * chunks outside it. */
static int
gap_spans(sqlite3 *db, const struct spans *runs, struct spans *out,
    char *err, size_t errlen)
{
	sqlite3_stmt *devs = NULL, *next = NULL, *prev = NULL;
	int rc = -1, r;

	if (sqlite3_prepare_v2(db,
	    "SELECT id, first_ms FROM io_dev ORDER BY id",
	    -1, &devs, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "SELECT t0 FROM io_chunk WHERE dev_id = ?1 "
	    "AND t0 >= ?2 ORDER BY t0 LIMIT 1", -1, &next, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "SELECT t0 FROM io_chunk WHERE dev_id = ?1 "
	    "AND t0 < ?2 ORDER BY t0 DESC LIMIT 1", -1, &prev, NULL) !=
	    SQLITE_OK)
		goto out;
	while ((r = sqlite3_step(devs)) == SQLITE_ROW) {
		int64_t dev = sqlite3_column_int64(devs, 0);
		int64_t first = floor_div64(sqlite3_column_int64(devs, 1),
		    MS_HOUR) * 3600;

		for (size_t i = 0; i < runs->n; i++) {
			int64_t a = runs->v[i].a, b = runs->v[i].b, t;
			int has;

			if ((has = seek(next, dev, a, &t)) < 0)
				goto out;
			if (!has || t >= b)
				continue;	/* no chunk in the run */
			if ((has = seek(prev, dev, a, &t)) < 0)
				goto out;
			if (has)
				push(out, t + 3600, a);
			else		/* a first sample may be long */
				push(out, first, a);
			if ((has = seek(next, dev, b, &t)) < 0)
				goto out;
			if (has)
				push(out, b, t);
		}
	}
	rc = r == SQLITE_DONE ? 0 : -1;
out:
	if (rc < 0)
		db_sqlerr(db, "planning the roll-up", err, errlen);
	sqlite3_finalize(devs);
	sqlite3_finalize(next);
	sqlite3_finalize(prev);
	return rc;
}

/* The hours of [a_ms, b_ms): an expected end moved across them. */
static void
moved(void *arg, int64_t a_ms, int64_t b_ms)
{
	push(arg, floor_div64(a_ms, MS_HOUR) * 3600,
	    floor_div64(b_ms + MS_HOUR - 1, MS_HOUR) * 3600);
}

/* Hours the samples of an hour can reach on either side: always at least
 * one, which also covers io_dev_hour of the hour before a changed chunk
 * (a sample ending exactly at the chunk's t0 is that hour's). */
static int
reach_hours(sqlite3 *db, int64_t *hours, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	int64_t iv = 0;
	int rc;

	if (sqlite3_prepare_v2(db, "SELECT max(interval_ms) FROM io_dev", -1,
	    &st, NULL) != SQLITE_OK)
		return db_sqlerr(db, "planning the roll-up", err, errlen);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		iv = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return db_sqlerr(db, "planning the roll-up", err, errlen);
	if (iv < 0)
		iv = 0;
	*hours = (2 * iv + 1000 + MS_HOUR - 1) / MS_HOUR;
	return 0;
}

int
rollup_plan(sqlite3 *db, struct span **out, size_t *n, char *err,
    size_t errlen)
{
	struct spans runs = { 0 }, all = { 0 };
	int64_t pad = 0;

	*out = NULL;
	*n = 0;
	if (dirty_runs(db, &runs, err, errlen) < 0 ||
	    rollup_expect(db, moved, &all, err, errlen) < 0 ||
	    (runs.n && gap_spans(db, &runs, &all, err, errlen) < 0) ||
	    ((runs.n || all.n) && reach_hours(db, &pad, err, errlen) < 0)) {
		free(runs.v);
		free(all.v);
		return -1;
	}
	for (size_t i = 0; i < runs.n; i++)
		push(&all, runs.v[i].a, runs.v[i].b);
	free(runs.v);
	for (size_t i = 0; i < all.n; i++) {
		all.v[i].a -= pad * 3600;
		all.v[i].b += pad * 3600;
	}
	join(&all, JOIN_S);
	/* Cut into pieces (in place would overwrite: build anew). */
	runs = (struct spans){ 0 };
	for (size_t i = 0; i < all.n; i++)
		for (int64_t a = all.v[i].a; a < all.v[i].b; a += ROLLUP_PIECE_S)
			push(&runs, a, a + ROLLUP_PIECE_S < all.v[i].b ?
			    a + ROLLUP_PIECE_S : all.v[i].b);
	free(all.v);
	*out = runs.v;
	*n = runs.n;
	return 0;
}
