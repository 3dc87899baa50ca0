/*
 * query_devstats: per-device totals over a window: sums over the device's
 * valid minutes in [from, to) (chunk.h), so a sample that spans a
 * window edge counts with its parts inside the window only, and gaps
 * count nowhere. Whole hours come from io_dev_hour; a window edge inside
 * an hour is computed from the chunks with the same rules. The parts
 * [from, h0), whole hours and [h1, to) join without a gap or an overlap,
 * and are taken in time order, so the busiest minute is the earliest of
 * equals.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "query.h"
#include "chunk/chunk.h"
#include "db.h"
#include "query_int.h"
#include "xalloc.h"

struct dev_row {
	struct dev_stat st;
	int64_t id, interval_ms;
};

/* Busiest valid minute by bytes (the first of equals); most requests. */
static void
peak(struct dev_stat *d, uint64_t bytes, int64_t t, uint64_t ios)
{
	if (d->peak_t < 0 || bytes > d->peak_bytes) {
		d->peak_bytes = bytes;
		d->peak_t = t;
	}
	if (ios > d->peak_ios)
		d->peak_ios = ios;
}

/* The selection's devices expected in the window, sorted. */
static int
load_devices(sqlite3 *db, const struct io_sel *sel, struct dev_row **out,
    size_t *n, char *err, size_t errlen)
{
	struct sel_dev *sd;
	size_t nsd;

	if (query_seldev_load(db, sel, &sd, &nsd, err, errlen) < 0)
		return -1;
	*out = xcalloc(nsd ? nsd : 1, sizeof **out);
	for (size_t i = 0; i < nsd; i++) {
		struct dev_row *d = &(*out)[i];

		d->id = sd[i].id;
		d->interval_ms = sd[i].interval_ms;
		d->st.host = xstrdup(sel->name[sd[i].host]);
		d->st.device = xstrdup(sd[i].name);
		d->st.peak_t = -1;
	}
	*n = nsd;
	query_seldev_free(sd, nsd);
	return 0;
}

/* The sums of a dev_stat, in MV_ order (the order of io_dev_hour's
 * columns rd_bytes .. io_ms). */
static uint64_t *
sum_of(struct dev_stat *s, int k)
{
	uint64_t *f[MV_N] = { &s->rd_bytes, &s->wr_bytes, &s->ios,
	    &s->rd_ios, &s->wr_ios, &s->oth_ios, &s->rd_ms, &s->wr_ms,
	    &s->io_ms };

	return f[k];
}

/* Whole hours [a, b) of a device from io_dev_hour. */
static int
add_hours(sqlite3_stmt *st, struct dev_row *d, int64_t a, int64_t b)
{
	int rc;

	sqlite3_bind_int64(st, 1, d->id);
	sqlite3_bind_int64(st, 2, a);
	sqlite3_bind_int64(st, 3, b);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct dev_stat *s = &d->st;

		peak(s, (uint64_t)sqlite3_column_int64(st, 0),
		    sqlite3_column_int64(st, 1),
		    (uint64_t)sqlite3_column_int64(st, 2));
		s->minutes += (uint64_t)sqlite3_column_int64(st, 3);
		s->samples += (uint64_t)sqlite3_column_int64(st, 4);
		for (int k = 0; k < MV_N; k++)
			*sum_of(s, k) += (uint64_t)sqlite3_column_int64(st,
			    5 + k);
	}
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* Minutes [a, b) inside an hour, from the chunks. */
static int
add_edge(struct dev_minutes *m, struct chunk_reader *r, struct dev_row *d,
    int64_t a, int64_t b, char *err, size_t errlen)
{
	struct dev_stat *s = &d->st;

	if (chunk_minute_load(m, r, d->id, d->interval_ms, a, b, err,
	    errlen) < 0)
		return -1;
	for (size_t i = 0; i < m->n; i++) {
		if (!chunk_minute_valid(m, i))
			continue;
		peak(s, m->v[MV_RD][i] + m->v[MV_WR][i],
		    m->a + 60 * (int64_t)i, m->v[MV_IOS][i]);
		s->minutes++;
		s->samples += m->samples[i];
		for (int k = 0; k < MV_N; k++)
			*sum_of(s, k) += m->v[k][i];
	}
	return 0;
}

/* Every device: left edge, whole hours, right edge. */
static int
fill(sqlite3 *db, const struct io_sel *sel, struct dev_row *d, size_t n,
    char *err, size_t errlen)
{
	int64_t h0 = floor_div64(sel->from + 3599, 3600) * 3600;
	int64_t h1 = floor_div64(sel->to, 3600) * 3600;
	struct dev_minutes m = { 0 };
	struct chunk_reader r;
	sqlite3_stmt *st;
	int rc = 0;

	if (sqlite3_prepare_v2(db, "SELECT peak_bytes, peak_t, peak_ios, "
	    "minutes, samples, rd_bytes, wr_bytes, ios, rd_ios, wr_ios, "
	    "oth_ios, rd_ms, wr_ms, io_ms FROM io_dev_hour WHERE dev_id = ?1 "
	    "AND t0 >= ?2 AND t0 < ?3 ORDER BY t0", -1, &st, NULL) !=
	    SQLITE_OK) {
		return db_sqlerr(db, "reading io_dev_hour", err, errlen);
	}
	if (chunk_minute_reader_init(&r, db, err, errlen) < 0) {
		sqlite3_finalize(st);
		return -1;
	}
	for (size_t i = 0; i < n && rc == 0; i++) {
		if (h0 >= h1) {		/* no whole hour in the window */
			rc = add_edge(&m, &r, &d[i], sel->from, sel->to, err,
			    errlen);
			continue;
		}
		if (sel->from < h0)
			rc = add_edge(&m, &r, &d[i], sel->from, h0, err,
			    errlen);
		if (rc == 0 && add_hours(st, &d[i], h0, h1) < 0) {
			db_sqlerr(db, "reading io_dev_hour", err, errlen);
			rc = -1;
		}
		if (rc == 0 && h1 < sel->to)
			rc = add_edge(&m, &r, &d[i], h1, sel->to, err, errlen);
	}
	sqlite3_finalize(st);
	chunk_minute_reader_free(&r);
	chunk_minute_free(&m);
	return rc;
}

int
query_devstats_load(sqlite3 *db, const struct io_window *w,
    struct dev_stat **out, size_t *n, char *err, size_t errlen)
{
	struct io_sel sel;
	struct dev_row *d = NULL;
	size_t nd = 0;
	int rc = -1;

	*out = NULL;
	*n = 0;
	if ((rc = query_sel_open(db, w, &sel, err, errlen)) <= 0)
		goto out;
	if ((rc = load_devices(db, &sel, &d, &nd, err, errlen)) == 0 && nd)
		rc = fill(db, &sel, d, nd, err, errlen);
	if (rc == 0 && nd) {
		*out = xcalloc(nd, sizeof **out);
		for (size_t i = 0; i < nd; i++)
			(*out)[i] = d[i].st;
		*n = nd;
	} else {
		for (size_t i = 0; i < nd; i++) {
			free(d[i].st.host);
			free(d[i].st.device);
		}
	}
out:
	free(d);
	query_sel_free(&sel);
	return rc;
}

void
query_devstats_free(struct dev_stat *d, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(d[i].host);
		free(d[i].device);
	}
	free(d);
}
