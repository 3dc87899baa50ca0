/*
 * query_sel: the window and hosts of a question, resolved once for every
 * loader (rule 7 of docs/census-db.md): the hosts matching its patterns,
 * and its bounds, from the data where the question leaves them open;
 * and the minutes in which the selection's hosts have an expected
 * device, from io_dev and io_expect alone.
 *
 * The derived tables hold a row only where some device has a value
 * (report/rollup/rollup_write.c): a minute in which devices are expected
 * and none has one is missing without a row. The loaders mark those from
 * query_sel_expect: a device is expected in the minutes [floor(first_ms),
 * ceil(end)) of its first interval start and its expected end; a host's
 * are the union of its devices', a few spans however long the time they
 * cover.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "floordiv.h"
#include "globlist.h"
#include "query_int.h"
#include "xalloc.h"

int
query_sel_prepare(sqlite3 *db, const char *sql, sqlite3_stmt **st, char *err,
    size_t errlen)
{
	if (sqlite3_prepare_v2(db, sql, -1, st, NULL) == SQLITE_OK)
		return 0;
	*st = NULL;
	return db_sqlerr(db, "reading I/O minutes", err, errlen);
}

static int
load_hosts(sqlite3 *db, const struct io_window *w, struct io_sel *s,
    char *err, size_t errlen)
{
	sqlite3_stmt *st;
	size_t cap = 0;
	int rc;

	if (query_sel_prepare(db, "SELECT id, name FROM io_host ORDER BY name",
	    &st,
	    err, errlen) < 0)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 1);

		if (name == NULL || (!s->all &&
		    globlist_match(w->hosts, w->nhosts, name) == NULL))
			continue;
		if (s->n == cap) {
			cap = cap ? 2 * cap : 16;
			s->id = xreallocarray(s->id, cap, sizeof *s->id);
			s->name = xreallocarray(s->name, cap, sizeof *s->name);
		}
		s->id[s->n] = sqlite3_column_int64(st, 0);
		s->name[s->n++] = xstrdup(name);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_sqlerr(db, "reading I/O minutes", err, errlen);
	for (size_t i = 0; i < s->n; i++)
		if (s->id[i] > s->maxid)
			s->maxid = s->id[i];
	if (s->maxid > 4 * (int64_t)s->n + 4096)
		return 0;	/* sparse ids: query_sel_index searches */
	s->pos = xreallocarray(NULL, (size_t)s->maxid + 1, sizeof *s->pos);
	for (int64_t i = 0; i <= s->maxid; i++)
		s->pos[i] = -1;
	for (size_t i = 0; i < s->n; i++)
		if (s->id[i] >= 0)
			s->pos[s->id[i]] = (long)i;
	return 0;
}

static void
add_span(struct host_expect *h, int64_t a, int64_t b)
{
	if (h->n > 0 && a <= h->v[h->n - 1].b) {	/* sorted by a */
		if (b > h->v[h->n - 1].b)
			h->v[h->n - 1].b = b;
		return;
	}
	h->v = xgrow(h->v, h->n, &h->cap, sizeof *h->v, 4);
	h->v[h->n].a = a;
	h->v[h->n++].b = b;
}

int
query_sel_expect(sqlite3 *db, const struct io_sel *s, int per_host,
    int64_t from, int64_t to, struct expect_map *e, char *err,
    size_t errlen)
{
	sqlite3_stmt *st;
	int rc;

	memset(e, 0, sizeof *e);
	e->n = per_host ? s->n : 1;
	e->h = xcalloc(e->n ? e->n : 1, sizeof *e->h);
	if (query_sel_prepare(db, "SELECT d.host_id, d.first_ms, "
	    "coalesce(e.end_ms, d.last_ms)" IO_DEV_EXPECTED_IN
	    " ORDER BY d.first_ms", &st, err, errlen) < 0)
		return -1;
	sqlite3_bind_int64(st, 1, from * 1000);
	sqlite3_bind_int64(st, 2, to * 1000);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		long i = per_host ? query_sel_index(s,
		    sqlite3_column_int64(st, 0)) : 0;
		int64_t a = floor_div64(sqlite3_column_int64(st, 1),
		    MS_MINUTE) * 60;
		int64_t b = floor_div64(sqlite3_column_int64(st, 2) +
		    MS_MINUTE - 1, MS_MINUTE) * 60;

		if (i < 0)
			continue;
		if (a < from)
			a = from;
		if (b > to)
			b = to;
		if (a < b)
			add_span(&e->h[i], a, b);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_sqlerr(db, "reading io_dev", err, errlen);
	return 0;
}

void
query_sel_expect_free(struct expect_map *e)
{
	for (size_t i = 0; i < e->n; i++)
		free(e->h[i].v);
	free(e->h);
	memset(e, 0, sizeof *e);
}

/* [*a, *b) of the selection's expected minutes (query_sel.c); *a ==
 * *b when there are none. */
static int
data_bounds(sqlite3 *db, const struct io_sel *s, int64_t *a, int64_t *b,
    char *err, size_t errlen)
{
	struct expect_map e;
	int have = 0;

	*a = *b = 0;
	if (query_sel_expect(db, s, !s->all, -QUERY_T_FAR, QUERY_T_FAR, &e,
	    err, errlen) < 0) {
		query_sel_expect_free(&e);
		return -1;
	}
	for (size_t i = 0; i < e.n; i++) {
		const struct host_expect *h = &e.h[i];

		if (h->n == 0)
			continue;
		if (!have || h->v[0].a < *a)
			*a = h->v[0].a;
		if (!have || h->v[h->n - 1].b > *b)
			*b = h->v[h->n - 1].b;
		have = 1;
	}
	query_sel_expect_free(&e);
	return 0;
}

int
query_sel_resolve(sqlite3 *db, const struct io_window *w, struct io_sel *s,
    char *err, size_t errlen)
{
	int64_t a = 0, b = 0;

	memset(s, 0, sizeof *s);
	s->all = w->nhosts == 0;
	if (load_hosts(db, w, s, err, errlen) < 0)
		return -1;
	if ((!w->has_from || !w->has_to) &&
	    data_bounds(db, s, &a, &b, err, errlen) < 0)
		return -1;
	if ((!w->has_from || !w->has_to) && a == b)
		return 0;		/* no data to default a bound from */
	s->from = w->has_from ? floor_div64(w->from, 60) * 60 : a;
	s->to = w->has_to ? floor_div64(w->to, 60) * 60 : b;
	if (s->to <= s->from)
		s->to = s->from;
	if (!w->has_from && s->to - s->from > IO_DEFAULT_DAYS * 86400LL) {
		s->cut = 1;
		s->data_from = s->from;
		s->from = s->to - IO_DEFAULT_DAYS * 86400LL;
	}
	return 0;
}

void
query_sel_free(struct io_sel *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->name[i]);
	free(s->name);
	free(s->id);
	free(s->pos);
	memset(s, 0, sizeof *s);
}

long
query_sel_index(const struct io_sel *s, int64_t id)
{
	if (s->pos)
		return id >= 0 && id <= s->maxid ? s->pos[id] : -1;
	for (size_t i = 0; i < s->n; i++)
		if (s->id[i] == id)
			return (long)i;
	return -1;
}

int
query_sel_count(sqlite3 *db, const struct io_sel *s, size_t *nhost,
    size_t *ndev, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	int rc;

	*nhost = *ndev = 0;
	if (s->to <= s->from)
		return 0;
	if (query_sel_prepare(db,
	    "SELECT d.host_id, count(*)" IO_DEV_EXPECTED_IN
	    " GROUP BY d.host_id ORDER BY d.host_id", &st, err, errlen) < 0)
		return -1;
	sqlite3_bind_int64(st, 1, s->from * 1000);
	sqlite3_bind_int64(st, 2, s->to * 1000);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (query_sel_index(s, sqlite3_column_int64(st, 0)) < 0)
			continue;
		(*nhost)++;
		*ndev += (size_t)sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : db_sqlerr(db, "reading I/O minutes", err,
	    errlen);
}

/* All hosts: io_minute as it is. */

int
query_sel_open(sqlite3 *db, const struct io_window *w, struct io_sel *s,
    char *err, size_t errlen)
{
	if (query_sel_resolve(db, w, s, err, errlen) < 0)
		return -1;
	return s->to > s->from;
}
