/*
 * query_scan: every calendar minute of a window across its hosts, one
 * hour of io_host_hour rows at a time (one statement over the window, in
 * t0 order), over the minutes in which each host has an expected device
 * (query_sel.c: missing unless a row says more).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "query.h"
#include "chunk/chunk.h"
#include "db.h"
#include "query_int.h"
#include "xalloc.h"

/* One hour of the hosts: minute i, host h at [i * nhost + h]. */
struct hour_buf {
	size_t nhost;
	uint8_t *state;
	uint64_t *rd, *wr, *ios;
	long *slot;		/* io_host id -> host_list index, or -1 */
	int64_t maxid;
	struct expect_map e;	/* by selection index */
	size_t *next;		/* per selection index: its first span not
				 * yet past */
};

static int
map_hosts(sqlite3 *db, const struct host_list *hl, struct hour_buf *b,
    char *err, size_t errlen)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db, "SELECT max(id) FROM io_host", -1, &st,
	    NULL) != SQLITE_OK)
		goto fail;
	b->maxid = sqlite3_step(st) == SQLITE_ROW ?
	    sqlite3_column_int64(st, 0) : 0;
	sqlite3_finalize(st);
	if (b->maxid < 0)
		b->maxid = 0;
	b->slot = xreallocarray(NULL, (size_t)b->maxid + 1, sizeof *b->slot);
	for (int64_t i = 0; i <= b->maxid; i++)
		b->slot[i] = -1;
	if (sqlite3_prepare_v2(db, "SELECT id, name FROM io_host", -1, &st,
	    NULL) != SQLITE_OK)
		goto fail;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0);
		const char *name = (const char *)sqlite3_column_text(st, 1);

		for (size_t i = 0; name && id >= 0 && i < hl->n; i++)
			if (strcmp(hl->name[i], name) == 0)
				b->slot[id] = (long)i;
	}
	sqlite3_finalize(st);
	if (rc == SQLITE_DONE)
		return 0;
fail:
	return db_sqlerr(db, "reading io_host", err, errlen);
}

static void
clear_hour(struct hour_buf *b)
{
	size_t n = 60 * b->nhost;

	memset(b->state, MIN_NONE, n);
	memset(b->rd, 0, n * sizeof *b->rd);
	memset(b->wr, 0, n * sizeof *b->wr);
	memset(b->ios, 0, n * sizeof *b->ios);
}

/* Hour [t0, t0 + 3600): the minutes of each listed host that it
 * expects, missing until its row (if any) says more. */
static void
expected_hour(const struct io_sel *sel, struct hour_buf *b, int64_t t0)
{
	for (size_t i = 0; i < b->e.n; i++) {
		const struct host_expect *x = &b->e.h[i];
		long h = sel->id[i] >= 0 && sel->id[i] <= b->maxid ?
		    b->slot[sel->id[i]] : -1;

		while (b->next[i] < x->n && x->v[b->next[i]].b <= t0)
			b->next[i]++;
		for (size_t j = b->next[i]; h >= 0 && j < x->n &&
		    x->v[j].a < t0 + 3600; j++)
			for (int64_t t = x->v[j].a > t0 ? x->v[j].a : t0;
			    t < x->v[j].b && t < t0 + 3600; t += 60)
				b->state[(size_t)((t - t0) / 60) * b->nhost +
				    (size_t)h] = MIN_MISSING;
	}
}

/* One io_host_hour row of a listed host into the hour. */
static int
fill_row(sqlite3_stmt *st, struct hour_buf *b, size_t h, char *err,
    size_t errlen)
{
	uint64_t e = (uint64_t)sqlite3_column_int64(st, 2);
	uint64_t c = (uint64_t)sqlite3_column_int64(st, 3);
	uint64_t rd[60], wr[60], ios[60];

	if (c && (query_minutes_hour_values(st, 4, rd, err, errlen) < 0 ||
	    query_minutes_hour_values(st, 5, wr, err, errlen) < 0 ||
	    query_minutes_hour_values(st, 6, ios, err, errlen) < 0))
		return -1;
	for (size_t i = 0; i < 60; i++) {
		size_t k = i * b->nhost + h;

		if (!(e >> i & 1) || !(c >> i & 1))
			continue;
		b->state[k] = MIN_COMPLETE;
		b->rd[k] = rd[i];
		b->wr[k] = wr[i];
		b->ios[k] = ios[i];
	}
	return 0;
}

/* The minutes of hour t0 inside [from, to), to fn. */
static int
emit_hour(const struct hour_buf *b, int64_t t0, int64_t from, int64_t to,
    host_minute_fn fn, void *arg)
{
	for (size_t i = 0; i < 60; i++) {
		int64_t t = t0 + 60 * (int64_t)i;
		struct host_minute m;
		int rc;

		if (t < from || t >= to)
			continue;
		m.t = t;
		m.nhost = b->nhost;
		m.state = b->state + i * b->nhost;
		m.rd = b->rd + i * b->nhost;
		m.wr = b->wr + i * b->nhost;
		m.ios = b->ios + i * b->nhost;
		if ((rc = fn(&m, arg)) != 0)
			return rc;
	}
	return 0;
}

static int
scan(sqlite3 *db, const struct io_sel *sel, struct hour_buf *b,
    host_minute_fn fn, void *arg, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	int64_t h0 = floor_div64(sel->from, 3600) * 3600;
	int have, rc = 0;

	if (sqlite3_prepare_v2(db, "SELECT host_id, t0, expected, complete, "
	    "rd, wr, ios FROM io_host_hour WHERE t0 >= ?1 AND t0 < ?2 "
	    "ORDER BY t0", -1, &st, NULL) != SQLITE_OK) {
		return db_sqlerr(db, "reading io_host_hour", err, errlen);
	}
	sqlite3_bind_int64(st, 1, h0);
	sqlite3_bind_int64(st, 2, sel->to);
	have = sqlite3_step(st);
	for (int64_t t0 = h0; t0 < sel->to && rc == 0; t0 += 3600) {
		clear_hour(b);
		expected_hour(sel, b, t0);
		for (; have == SQLITE_ROW && sqlite3_column_int64(st, 1) <= t0;
		    have = sqlite3_step(st)) {
			int64_t id = sqlite3_column_int64(st, 0);
			long h = id >= 0 && id <= b->maxid ? b->slot[id] : -1;

			if (h >= 0 && sqlite3_column_int64(st, 1) == t0 &&
			    (rc = fill_row(st, b, (size_t)h, err, errlen)) < 0)
				break;
		}
		if (rc == 0 && have != SQLITE_ROW && have != SQLITE_DONE) {
			db_sqlerr(db, "reading io_host_hour", err, errlen);
			rc = -1;
		}
		if (rc == 0)
			rc = emit_hour(b, t0, sel->from, sel->to, fn, arg);
	}
	sqlite3_finalize(st);
	return rc;
}

int
query_scan_host_minutes(sqlite3 *db, const struct io_window *w,
    const struct host_list *hl, host_minute_fn fn, void *arg, char *err,
    size_t errlen)
{
	struct io_sel sel;
	struct hour_buf b = { .nhost = hl->n };
	size_t cells;
	int rc = -1;

	if ((rc = query_sel_open(db, w, &sel, err, errlen)) <= 0)
		goto out;
	rc = 0;
	if (map_hosts(db, hl, &b, err, errlen) < 0) {
		rc = -1;
		goto out;
	}
	cells = xmul(60, hl->n ? hl->n : 1);	/* an hour's minutes per host */
	b.state = xmalloc(cells);
	b.rd = xreallocarray(NULL, cells, sizeof *b.rd);
	b.wr = xreallocarray(NULL, cells, sizeof *b.wr);
	b.ios = xreallocarray(NULL, cells, sizeof *b.ios);
	rc = query_sel_expect(db, &sel, 1, sel.from, sel.to, &b.e, err,
	    errlen);
	b.next = xcalloc(b.e.n + 1, sizeof *b.next);
	if (rc == 0)
		rc = scan(db, &sel, &b, fn, arg, err, errlen);
out:
	query_sel_expect_free(&b.e);
	free(b.next);
	free(b.state);
	free(b.rd);
	free(b.wr);
	free(b.ios);
	free(b.slot);
	query_sel_free(&sel);
	return rc;
}
