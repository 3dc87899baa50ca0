/*
 * ioseries: the window of a question, and its minutes from io_minute (all
 * hosts) or io_host_hour (a host filter). Bulk reads only: one statement
 * per load, never one per minute.
 */
#include "ioseries.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyses.h"
#include "globlist.h"
#include "iochunk.h"
#include "ioseries_impl.h"
#include "minutesplit.h"
#include "xalloc.h"

static int
prepare(sqlite3 *db, const char *sql, sqlite3_stmt **st, char *err,
    size_t errlen)
{
	if (sqlite3_prepare_v2(db, sql, -1, st, NULL) == SQLITE_OK)
		return 0;
	*st = NULL;
	return io_sqlerr(db, "reading I/O minutes", err, errlen);
}

int
io_hour_values(sqlite3_stmt *st, int col, uint64_t v[60], char *err,
    size_t errlen)
{
	const char *s = sqlite3_column_blob(st, col);
	size_t len = s ? (size_t)sqlite3_column_bytes(st, col) : 0;

	if (r127_decode(s, len, 60, v) == 0)
		return 0;
	snprintf(err, errlen, "io_host_hour of %lld: a minute column is not "
	    "r127 of 60 values", (long long)sqlite3_column_int64(st, 1));
	return -1;
}

static int
load_hosts(sqlite3 *db, const struct io_window *w, struct io_sel *s,
    char *err, size_t errlen)
{
	sqlite3_stmt *st;
	size_t cap = 0;
	int rc;

	if (prepare(db, "SELECT id, name FROM io_host ORDER BY name", &st,
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
		return io_sqlerr(db, "reading I/O minutes", err, errlen);
	for (size_t i = 0; i < s->n; i++)
		if (s->id[i] > s->maxid)
			s->maxid = s->id[i];
	if (s->maxid > 4 * (int64_t)s->n + 4096)
		return 0;	/* sparse ids: io_sel_index searches */
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
		if (prepare(db, "SELECT min(t), max(t) + 60 FROM io_minute",
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
	if (prepare(db, "SELECT t0, expected FROM io_host_hour WHERE host_id "
	    "= ?1 ORDER BY t0 LIMIT 1", &first, err, errlen) < 0)
		return -1;
	if (prepare(db, "SELECT t0, expected FROM io_host_hour WHERE host_id "
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
	return rc < 0 ? io_sqlerr(db, "reading I/O minutes", err, errlen) : 0;
}

int
io_sel_resolve(sqlite3 *db, const struct io_window *w, struct io_sel *s,
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
io_sel_free(struct io_sel *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->name[i]);
	free(s->name);
	free(s->id);
	free(s->pos);
	memset(s, 0, sizeof *s);
}

long
io_sel_index(const struct io_sel *s, int64_t id)
{
	if (s->pos)
		return id >= 0 && id <= s->maxid ? s->pos[id] : -1;
	for (size_t i = 0; i < s->n; i++)
		if (s->id[i] == id)
			return (long)i;
	return -1;
}

int
io_sel_count(sqlite3 *db, const struct io_sel *s, size_t *nhost,
    size_t *ndev, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	int rc;

	*nhost = *ndev = 0;
	if (s->to <= s->from)
		return 0;
	if (prepare(db, "SELECT d.host_id, count(*)" IO_DEV_EXPECTED_IN
	    " GROUP BY d.host_id ORDER BY d.host_id", &st, err, errlen) < 0)
		return -1;
	sqlite3_bind_int64(st, 1, s->from * 1000);
	sqlite3_bind_int64(st, 2, s->to * 1000);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (io_sel_index(s, sqlite3_column_int64(st, 0)) < 0)
			continue;
		(*nhost)++;
		*ndev += (size_t)sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : io_sqlerr(db, "reading I/O minutes", err, errlen);
}

/* All hosts: io_minute as it is. */
static int
minutes_all(sqlite3 *db, struct minute_series *s, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	int rc;

	if (prepare(db, "SELECT t, expected, valid, rd_bytes, wr_bytes, ios "
	    "FROM io_minute WHERE t >= ?1 AND t < ?2", &st, err, errlen) < 0)
		return -1;
	sqlite3_bind_int64(st, 1, s->t0);
	sqlite3_bind_int64(st, 2, s->t0 + 60 * (int64_t)s->n);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		size_t i = (size_t)((sqlite3_column_int64(st, 0) - s->t0) / 60);

		if (sqlite3_column_int64(st, 1) != sqlite3_column_int64(st, 2)) {
			s->state[i] = MIN_MISSING;
			continue;
		}
		s->state[i] = MIN_COMPLETE;
		s->rd[i] = (uint64_t)sqlite3_column_int64(st, 3);
		s->wr[i] = (uint64_t)sqlite3_column_int64(st, 4);
		s->ios[i] = (uint64_t)sqlite3_column_int64(st, 5);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : io_sqlerr(db, "reading I/O minutes", err, errlen);
}

/* One io_host_hour row into the per-minute host counts and sums. */
static int
add_host_hour(sqlite3_stmt *st, struct minute_series *s, uint32_t *exp,
    uint32_t *comp, char *err, size_t errlen)
{
	int64_t t0 = sqlite3_column_int64(st, 1);
	uint64_t e = (uint64_t)sqlite3_column_int64(st, 2);
	uint64_t c = (uint64_t)sqlite3_column_int64(st, 3);
	uint64_t rd[60], wr[60], ios[60];
	int decoded = 0;

	for (int i = 0; i < 60; i++) {
		int64_t t = t0 + 60 * i;
		size_t k;

		if (!(e >> i & 1) || t < s->t0 || t >= s->t0 + 60 * (int64_t)s->n)
			continue;
		k = (size_t)((t - s->t0) / 60);
		exp[k]++;
		if (!(c >> i & 1))
			continue;
		if (!decoded++ && (io_hour_values(st, 4, rd, err, errlen) < 0 ||
		    io_hour_values(st, 5, wr, err, errlen) < 0 ||
		    io_hour_values(st, 6, ios, err, errlen) < 0))
			return -1;
		comp[k]++;
		s->rd[k] += rd[i];
		s->wr[k] += wr[i];
		s->ios[k] += ios[i];
	}
	return 0;
}

/* A host filter: complete when every selected host expected is complete. */
static int
minutes_hosts(sqlite3 *db, const struct io_sel *sel, struct minute_series *s,
    char *err, size_t errlen)
{
	uint32_t *exp = xcalloc(s->n, sizeof *exp);
	uint32_t *comp = xcalloc(s->n, sizeof *comp);
	sqlite3_stmt *st;
	int rc = -1;

	if (prepare(db, "SELECT host_id, t0, expected, complete, rd, wr, ios "
	    "FROM io_host_hour WHERE t0 >= ?1 AND t0 < ?2", &st, err,
	    errlen) < 0)
		goto out;
	sqlite3_bind_int64(st, 1, floor_div64(s->t0, 3600) * 3600);
	sqlite3_bind_int64(st, 2, s->t0 + 60 * (int64_t)s->n);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if (io_sel_index(sel, sqlite3_column_int64(st, 0)) >= 0 &&
		    add_host_hour(st, s, exp, comp, err, errlen) < 0)
			break;
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		rc = rc == SQLITE_ROW ? -1 : io_sqlerr(db, "reading I/O minutes", err, errlen);
		goto out;
	}
	rc = 0;
	for (size_t k = 0; k < s->n; k++) {
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

int
io_load_minutes(sqlite3 *db, const struct io_window *w,
    struct minute_series *s, char *err, size_t errlen)
{
	struct io_sel sel;
	int rc;

	memset(s, 0, sizeof *s);
	if (io_sel_resolve(db, w, &sel, err, errlen) < 0) {
		io_sel_free(&sel);
		return -1;
	}
	if ((sel.to - sel.from) / 60 > IO_MAX_MINUTES) {
		snprintf(err, errlen, AN_USAGE "the window holds %lld minutes;"
		    " at most %d (200 years) are analysed at once: narrow"
		    " --from/--to", (long long)((sel.to - sel.from) / 60),
		    IO_MAX_MINUTES);
		io_sel_free(&sel);
		return -1;
	}
	s->t0 = sel.from;
	s->n = (size_t)((sel.to - sel.from) / 60);
	if (s->n) {
		s->state = xcalloc(s->n, sizeof *s->state);
		s->rd = xcalloc(s->n, sizeof *s->rd);
		s->wr = xcalloc(s->n, sizeof *s->wr);
		s->ios = xcalloc(s->n, sizeof *s->ios);
	}
	rc = s->n == 0 ? 0 : sel.all ? minutes_all(db, s, err, errlen) :
	    minutes_hosts(db, &sel, s, err, errlen);
	if (rc == 0)
		rc = io_sel_count(db, &sel, &s->nhost, &s->ndev, err, errlen);
	io_sel_free(&sel);
	if (rc < 0)
		minute_series_free(s);
	return rc;
}

void
minute_series_free(struct minute_series *s)
{
	free(s->state);
	free(s->rd);
	free(s->wr);
	free(s->ios);
	memset(s, 0, sizeof *s);
}
