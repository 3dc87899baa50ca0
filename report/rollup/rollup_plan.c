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
 * reach of an interval; joined again, kept only where it is within that
 * reach of some chunk, and cut into pieces of bounded length. Derived
 * rows exist only where some device has a value (rollup_write.c), which
 * needs a sample nearby: so an hour far from every chunk has no row to
 * rebuild, and a gap of years (a host that logged once in 2005) costs a
 * roll-up nothing. Rebuilding an hour that did not change gives the same
 * rows, so joining near spans is always safe.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "rollup_int.h"
#include "xalloc.h"

#define JOIN_S	(24 * 3600)	/* spans closer than this are joined */
#define LIVE_S	(24 * 3600)	/* a chunk keeps this much after it */

struct spans {
	struct span *v;
	size_t n, cap;
};

static void
push(struct spans *s, int64_t a, int64_t b)
{
	if (a >= b)
		return;
	s->v = xgrow(s->v, s->n, &s->cap, sizeof *s->v, 64);
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

/* The statements that walk the devices and their chunk hours. */
struct walk {
	sqlite3_stmt *devs;		/* id, first_ms of every device */
	sqlite3_stmt *next, *prev;	/* its first chunk hour >= ?2, last < */
};

static int
walk_open(sqlite3 *db, struct walk *w)
{
	return sqlite3_prepare_v2(db,
	    "SELECT id, first_ms FROM io_dev ORDER BY id",
	    -1, &w->devs, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "SELECT t0 FROM io_chunk WHERE dev_id = ?1 "
	    "AND t0 >= ?2 ORDER BY t0 LIMIT 1", -1, &w->next, NULL) !=
	    SQLITE_OK ||
	    sqlite3_prepare_v2(db, "SELECT t0 FROM io_chunk WHERE dev_id = ?1 "
	    "AND t0 < ?2 ORDER BY t0 DESC LIMIT 1", -1, &w->prev, NULL) !=
	    SQLITE_OK ? -1 : 0;
}

static void
walk_close(struct walk *w)
{
	sqlite3_finalize(w->devs);
	sqlite3_finalize(w->next);
	sqlite3_finalize(w->prev);
}

/* The gap hours between each device's chunks in a run and its nearest
 * chunks outside it. 0 or -1. */
static int
gap_spans(struct walk *w, const struct spans *runs, struct spans *out)
{
	int r;

	sqlite3_reset(w->devs);
	while ((r = sqlite3_step(w->devs)) == SQLITE_ROW) {
		int64_t dev = sqlite3_column_int64(w->devs, 0);
		int64_t first = floor_div64(sqlite3_column_int64(w->devs, 1),
		    MS_HOUR) * 3600;

		for (size_t i = 0; i < runs->n; i++) {
			int64_t a = runs->v[i].a, b = runs->v[i].b, t;
			int has;

			if ((has = seek(w->next, dev, a, &t)) < 0)
				return -1;
			if (!has || t >= b)
				continue;	/* no chunk in the run */
			if ((has = seek(w->prev, dev, a, &t)) < 0)
				return -1;
			if (has)
				push(out, t + 3600, a);
			else		/* a first sample may be long */
				push(out, first, a);
			if ((has = seek(w->next, dev, b, &t)) < 0)
				return -1;
			if (has)
				push(out, b, t);
		}
	}
	return r == SQLITE_DONE ? 0 : -1;
}

/* Where the plan's spans (padded by pad hours) meet chunks: a chunk at
 * t0 keeps [t0 - pad, t0 + LIVE_S + pad) hours, and the next chunk is
 * looked for after that, one lookup per device and day with samples.
 * 0 or -1. */
static int
live_spans(struct walk *w, const struct spans *all, int64_t pad,
    struct spans *out)
{
	int r;

	sqlite3_reset(w->devs);
	while ((r = sqlite3_step(w->devs)) == SQLITE_ROW) {
		int64_t dev = sqlite3_column_int64(w->devs, 0);

		for (size_t i = 0; i < all->n; i++) {
			int64_t t = all->v[i].a - pad * 3600, c;
			int has;

			while ((has = seek(w->next, dev, t, &c)) == 1 &&
			    c < all->v[i].b + pad * 3600) {
				push(out, c - pad * 3600, c + LIVE_S +
				    pad * 3600);
				t = c + LIVE_S;
			}
			if (has < 0)
				return -1;
		}
	}
	join(out, 0);
	return r == SQLITE_DONE ? 0 : -1;
}

/* x = x ∩ y, both sorted and disjoint. */
static void
intersect(struct spans *x, const struct spans *y)
{
	struct spans z = { 0 };
	size_t i = 0, j = 0;

	while (i < x->n && j < y->n) {
		int64_t a = x->v[i].a > y->v[j].a ? x->v[i].a : y->v[j].a;
		int64_t b = x->v[i].b < y->v[j].b ? x->v[i].b : y->v[j].b;

		push(&z, a, b);
		if (x->v[i].b < y->v[j].b)
			i++;
		else
			j++;
	}
	free(x->v);
	*x = z;
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
	struct spans runs = { 0 }, all = { 0 }, live = { 0 };
	struct walk w = { 0 };
	int64_t pad = 0;
	int rc = -1;

	*out = NULL;
	*n = 0;
	if (dirty_runs(db, &runs, err, errlen) < 0 ||
	    rollup_expect(db, moved, &all, err, errlen) < 0)
		goto out;
	if (runs.n || all.n) {
		if (walk_open(db, &w) < 0 ||
		    (runs.n && gap_spans(&w, &runs, &all) < 0)) {
			db_sqlerr(db, "planning the roll-up", err, errlen);
			goto out;
		}
		if (reach_hours(db, &pad, err, errlen) < 0)
			goto out;
	}
	for (size_t i = 0; i < runs.n; i++)
		push(&all, runs.v[i].a, runs.v[i].b);
	for (size_t i = 0; i < all.n; i++) {
		all.v[i].a -= pad * 3600;
		all.v[i].b += pad * 3600;
	}
	join(&all, JOIN_S);
	if (all.n && live_spans(&w, &all, pad, &live) < 0) {
		db_sqlerr(db, "planning the roll-up", err, errlen);
		goto out;
	}
	intersect(&all, &live);
	/* Cut into pieces (in place would overwrite: build anew). */
	runs.n = 0;
	for (size_t i = 0; i < all.n; i++)
		for (int64_t a = all.v[i].a; a < all.v[i].b; a += ROLLUP_PIECE_S)
			push(&runs, a, a + ROLLUP_PIECE_S < all.v[i].b ?
			    a + ROLLUP_PIECE_S : all.v[i].b);
	*out = runs.v;
	*n = runs.n;
	runs.v = NULL;
	rc = 0;
out:
	walk_close(&w);
	free(runs.v);
	free(all.v);
	free(live.v);
	return rc;
}
