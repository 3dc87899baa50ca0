/*
 * query_sel: the window and hosts of a question, resolved once for every
 * loader (rule 7 of docs/census-db.md): the hosts matching its patterns,
 * and its bounds, from the data where the question leaves them open.
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
		    glob_match(w->hosts, w->nhosts, name) == NULL))
			continue;
		if (s->n == cap) {
			cap = cap ? 2 * cap : 16;
			s->id = xrealloc(s->id, cap * sizeof *s->id);
			s->name = xrealloc(s->name, cap * sizeof *s->name);
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
	s->pos = xmalloc(((size_t)s->maxid + 1) * sizeof *s->pos);
	for (int64_t i = 0; i <= s->maxid; i++)
		s->pos[i] = -1;
	for (size_t i = 0; i < s->n; i++)
		if (s->id[i] >= 0)
			s->pos[s->id[i]] = (long)i;
	return 0;
}

/* First and last minute (+ 60) of one host's expected minutes; 0 if none. */
static int
host_bounds(sqlite3_stmt *first, sqlite3_stmt *last, int64_t id,
    int64_t *a, int64_t *b)
{
	int rc;

	sqlite3_bind_int64(first, 1, id);
	sqlite3_bind_int64(last, 1, id);
	rc = sqlite3_step(first);
	if (rc == SQLITE_ROW && sqlite3_step(last) == SQLITE_ROW) {
		uint64_t m0 = (uint64_t)sqlite3_column_int64(first, 1);
		uint64_t m1 = (uint64_t)sqlite3_column_int64(last, 1);

		*a = sqlite3_column_int64(first, 0) +
		    (m0 ? 60 * __builtin_ctzll(m0) : 0);
		*b = sqlite3_column_int64(last, 0) +
		    (m1 ? 60 * (64 - __builtin_clzll(m1)) : 3600);
		rc = 1;
	} else {
		rc = rc == SQLITE_DONE ? 0 : -1;
	}
	sqlite3_reset(first);
	sqlite3_reset(last);
	return rc;
}

/* [*a, *b) of the selection's data; *a == *b when there is none. */
static int
data_bounds(sqlite3 *db, const struct io_sel *s, int64_t *a, int64_t *b,
    char *err, size_t errlen)
{
	sqlite3_stmt *first, *last;
	int have = 0, rc = 0;

	*a = *b = 0;
	if (s->all) {
		if (query_sel_prepare(db,
		    "SELECT min(t), max(t) + 60 FROM io_minute",
		    &first, err, errlen) < 0)
			return -1;
		if (sqlite3_step(first) == SQLITE_ROW &&
		    sqlite3_column_type(first, 0) != SQLITE_NULL) {
			*a = sqlite3_column_int64(first, 0);
			*b = sqlite3_column_int64(first, 1);
		}
		sqlite3_finalize(first);
		return 0;
	}
	if (query_sel_prepare(db,
	    "SELECT t0, expected FROM io_host_hour WHERE host_id "
	    "= ?1 ORDER BY t0 LIMIT 1", &first, err, errlen) < 0)
		return -1;
	if (query_sel_prepare(db,
	    "SELECT t0, expected FROM io_host_hour WHERE host_id "
	    "= ?1 ORDER BY t0 DESC LIMIT 1", &last, err, errlen) < 0) {
		sqlite3_finalize(first);
		return -1;
	}
	for (size_t i = 0; i < s->n && rc >= 0; i++) {
		int64_t x, y;

		if ((rc = host_bounds(first, last, s->id[i], &x, &y)) != 1)
			continue;
		if (!have || x < *a)
			*a = x;
		if (!have || y > *b)
			*b = y;
		have = 1;
	}
	sqlite3_finalize(first);
	sqlite3_finalize(last);
	return rc < 0 ? db_sqlerr(db, "reading I/O minutes", err, errlen) : 0;
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
	if ((!w->from || !w->to) &&
	    data_bounds(db, s, &a, &b, err, errlen) < 0)
		return -1;
	if ((!w->from || !w->to) && a == b)
		return 0;		/* no data to default a bound from */
	s->from = w->from ? floor_div64(w->from, 60) * 60 : a;
	s->to = w->to ? floor_div64(w->to, 60) * 60 : b;
	if (s->to <= s->from)
		s->to = s->from;
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
