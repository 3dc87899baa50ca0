/*
 * query_devhours: the devices of a window and their io_dev_hour rows over
 * its whole UTC hours, handed over one hour at a time, in time order, for
 * the analyses that compare devices with each other hour by hour. Memory:
 * the device list and one hour's rows; SQLite sorts the window's rows by
 * hour (io_dev_hour is keyed by device first) within its own bounds.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "query.h"
#include "chunk/chunk.h"
#include "db.h"
#include "floordiv.h"
#include "query_int.h"
#include "xalloc.h"

/* A device of the list: its id and sampling interval. */
struct dev_at {
	int64_t id, interval_ms;
};

/* A device id and its index in the list, sorted by id for lookups. */
struct id_ix {
	int64_t id;
	size_t ix;
};

static int
cmp_id(const void *a, const void *b)
{
	const struct id_ix *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

int
query_devhours_open(sqlite3 *db, const struct io_window *w,
    struct devh_list *l, char *err, size_t errlen)
{
	struct io_sel sel;
	struct sel_dev *sd = NULL;
	struct id_ix *ids;
	struct dev_at *at;
	size_t nsd = 0;
	int rc;

	memset(l, 0, sizeof *l);
	if ((rc = query_sel_open(db, w, &sel, err, errlen)) > 0)
		rc = query_seldev_load(db, &sel, &sd, &nsd, err, errlen);
	if (rc < 0) {
		query_sel_free(&sel);
		return -1;
	}
	l->from = floor_div64(sel.from + 3599, 3600) * 3600;
	l->to = floor_div64(sel.to, 3600) * 3600;
	if (l->to < l->from)
		l->to = l->from;
	l->cut = sel.cut;
	l->data_from = sel.data_from;
	l->n = nsd;
	l->host = xcalloc(nsd ? nsd : 1, sizeof *l->host);
	l->device = xcalloc(nsd ? nsd : 1, sizeof *l->device);
	l->hostix = xcalloc(nsd ? nsd : 1, sizeof *l->hostix);
	ids = xcalloc(nsd ? nsd : 1, sizeof *ids);
	at = xcalloc(nsd ? nsd : 1, sizeof *at);
	for (size_t i = 0; i < nsd; i++) {
		at[i] = (struct dev_at){ sd[i].id, sd[i].interval_ms };
		l->host[i] = xstrdup(sel.name[sd[i].host]);
		l->device[i] = xstrdup(sd[i].name);
		l->hostix[i] = sd[i].host;
		ids[i] = (struct id_ix){ sd[i].id, i };
	}
	if (nsd)
		qsort(ids, nsd, sizeof *ids, cmp_id);
	l->ids = ids;
	l->dev = at;
	query_seldev_free(sd, nsd);
	query_sel_free(&sel);
	return 0;
}

void
query_devhours_close(struct devh_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->host[i]);
		free(l->device[i]);
	}
	free(l->host);
	free(l->device);
	free(l->hostix);
	free(l->ids);
	free(l->dev);
	memset(l, 0, sizeof *l);
}

/* The list index of device id, or SIZE_MAX when it is not selected. */
static size_t
index_of(const struct devh_list *l, int64_t id)
{
	const struct id_ix key = { id, 0 }, *f;

	f = l->n ? bsearch(&key, l->ids, l->n, sizeof key, cmp_id) : NULL;
	return f ? f->ix : SIZE_MAX;
}

static int
cmp_row(const void *a, const void *b)
{
	const struct devh_row *x = a, *y = b;

	return x->dev < y->dev ? -1 : x->dev > y->dev;
}

/* Hand the hour t's rows over, in list order. */
static int
flush(int64_t t, struct devh_row *row, size_t *n, devh_fn fn, void *arg)
{
	int rc;

	if (*n == 0)
		return 0;
	qsort(row, *n, sizeof *row, cmp_row);
	rc = fn(t, row, *n, arg);
	*n = 0;
	return rc;
}

int
query_devhours_scan(sqlite3 *db, const struct devh_list *l, devh_fn fn,
    void *arg, char *err, size_t errlen)
{
	struct devh_row *row;
	sqlite3_stmt *st;
	size_t n = 0;
	int64_t t = 0;
	int rc = 0, step = SQLITE_DONE;

	if (l->n == 0 || l->to <= l->from)
		return 0;
	if (query_sel_prepare(db, "SELECT dev_id, t0, minutes, rd_ios, "
	    "wr_ios, rd_bytes, wr_bytes, rd_ms, wr_ms, io_ms FROM io_dev_hour "
	    "WHERE t0 >= ?1 AND t0 < ?2 ORDER BY t0, dev_id", &st, err,
	    errlen) < 0)
		return -1;
	sqlite3_bind_int64(st, 1, l->from);
	sqlite3_bind_int64(st, 2, l->to);
	row = xcalloc(l->n, sizeof *row);
	while (rc == 0 && (step = sqlite3_step(st)) == SQLITE_ROW) {
		size_t ix = index_of(l, sqlite3_column_int64(st, 0));
		int64_t t0 = sqlite3_column_int64(st, 1);
		struct devh_row *r;

		if (ix == SIZE_MAX)
			continue;
		if (n && t0 != t)
			rc = flush(t, row, &n, fn, arg);
		t = t0;
		r = &row[n++];		/* one row per device and hour */
		r->dev = ix;
		r->minutes = (uint64_t)sqlite3_column_int64(st, 2);
		r->rd_ios = (uint64_t)sqlite3_column_int64(st, 3);
		r->wr_ios = (uint64_t)sqlite3_column_int64(st, 4);
		r->rd_bytes = (uint64_t)sqlite3_column_int64(st, 5);
		r->wr_bytes = (uint64_t)sqlite3_column_int64(st, 6);
		r->rd_ms = (uint64_t)sqlite3_column_int64(st, 7);
		r->wr_ms = (uint64_t)sqlite3_column_int64(st, 8);
		r->io_ms = (uint64_t)sqlite3_column_int64(st, 9);
	}
	if (rc == 0 && step != SQLITE_DONE)
		rc = db_sqlerr(db, "reading io_dev_hour", err, errlen);
	if (rc == 0)
		rc = flush(t, row, &n, fn, arg);
	sqlite3_finalize(st);
	free(row);
	return rc;
}

struct devh_mreader {
	struct chunk_reader r;
	struct dev_minutes m;
};

struct devh_mreader *
query_devhours_mopen(sqlite3 *db, char *err, size_t errlen)
{
	struct devh_mreader *m = xcalloc(1, sizeof *m);

	assert(db != NULL);
	if (chunk_minute_reader_init(&m->r, db, err, errlen) < 0) {
		free(m);
		return NULL;
	}
	return m;
}

int
query_devhours_minutes(struct devh_mreader *m, const struct devh_list *l,
    size_t dev, int64_t t, struct devh_minute *out, char *err,
    size_t errlen)
{
	const struct dev_at *d;

	assert(m != NULL && l != NULL && dev < l->n && out != NULL &&
	    t % 3600 == 0);
	d = (const struct dev_at *)l->dev + dev;
	if (chunk_minute_load(&m->m, &m->r, d->id, d->interval_ms, t,
	    t + 3600, err, errlen) < 0)
		return -1;
	for (size_t j = 0; j < DEVH_MINUTES; j++) {
		int ok = j < m->m.n && chunk_minute_valid(&m->m, j);

		out[j] = (struct devh_minute){ .valid = ok };
		if (ok) {
			out[j].rd_ios = m->m.v[MV_RD_IOS][j];
			out[j].wr_ios = m->m.v[MV_WR_IOS][j];
			out[j].rd_ms = m->m.v[MV_RD_MS][j];
			out[j].wr_ms = m->m.v[MV_WR_MS][j];
		}
	}
	return 0;
}

void
query_devhours_mclose(struct devh_mreader *m)
{
	if (!m)
		return;
	chunk_minute_reader_free(&m->r);
	chunk_minute_free(&m->m);
	free(m);
}
