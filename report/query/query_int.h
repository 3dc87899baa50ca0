/*
 * query_int: what the I/O loaders of query/ share: the window and host
 * selection (query_sel.c) and the hour rows' minute values
 * (query_minutes.c). Private to query/.
 */
#ifndef IOCENSUS_QUERY_INT_H
#define IOCENSUS_QUERY_INT_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#include "query.h"
#include "chunk/chunk.h"

/* A question's hosts and minutes, resolved (rule 7 of docs/census-db.md):
 * [from, to) minute-aligned; from == to when there is nothing to load. */
struct io_sel {
	int all;		/* no host filter */
	size_t n;		/* selected hosts, by name */
	int64_t *id;
	char **name;
	long *pos;		/* pos[host id] = index, or -1 */
	int64_t maxid;
	int64_t from, to;
	int cut;		/* from was cut to IO_DEFAULT_DAYS ... */
	int64_t data_from;	/* ... from where the data starts */
};

/* SQL: the devices (d) expected somewhere in [?1, ?2) unix ms, from their
 * first interval start to their expected end (io_expect; last_ms for a
 * device no roll-up has seen yet). */
#define IO_DEV_EXPECTED_IN \
	" FROM io_dev d LEFT JOIN io_expect e ON e.dev_id = d.id" \
	" WHERE d.first_ms < ?2 AND coalesce(e.end_ms, d.last_ms) > ?1"

/* Hosts matching w's patterns, then the window: w's bounds rounded down
 * to minutes, a missing bound from the selection's first/last minute with
 * an expected device (io_minute, or io_host_hour's masks under a filter).
 * 0, or -1 with err. */
int query_sel_resolve(sqlite3 *db, const struct io_window *w, struct io_sel *s,
    char *err, size_t errlen);
void query_sel_free(struct io_sel *s);

/* The preamble of every loader: query_sel_resolve, then whether the
 * window holds anything. 1 there is a window to load, 0 it is empty (s
 * resolved all the same), -1 error; query_sel_free(s) in every case. */
int query_sel_open(sqlite3 *db, const struct io_window *w, struct io_sel *s,
    char *err, size_t errlen);

/* sqlite3_prepare_v2, with err = "reading I/O minutes: " and SQLite's
 * message on failure. 0, or -1 with *st NULL. */
int query_sel_prepare(sqlite3 *db, const char *sql, sqlite3_stmt **st,
    char *err, size_t errlen);

/* Position of host id in the selection, or -1. */
long query_sel_index(const struct io_sel *s, int64_t id);

/* query_seldev.c: the selection's devices expected somewhere in its
 * window, sorted by host (selection index: name order) then name. 0, or
 * -1 with err; free with query_seldev_free. */
struct sel_dev {
	int64_t id, interval_ms;
	size_t host;		/* selection index */
	char *name;
};
int query_seldev_load(sqlite3 *db, const struct io_sel *sel,
    struct sel_dev **out, size_t *n, char *err, size_t errlen);
void query_seldev_free(struct sel_dev *d, size_t n);

/* Hosts and devices of the selection expected somewhere in its window. */
int query_sel_count(sqlite3 *db, const struct io_sel *s, size_t *nhost,
    size_t *ndev, char *err, size_t errlen);

/* query_sel.c: the minutes [a, b) of [from, to) (unix seconds,
 * minute-aligned) in which a host has an expected device, sorted and
 * disjoint: per_host, h[i] for host i of the selection; else h[0] for
 * all its hosts together. The derived tables have no row for such a
 * minute when no device has a value (it is missing). */
struct tspan {
	int64_t a, b;
};
/* Beyond any time a sample can have, and x 1000 within int64_t. */
#define QUERY_T_FAR (INT64_C(1) << 52)
struct host_expect {
	size_t n, cap;
	struct tspan *v;
};
struct expect_map {
	size_t n;
	struct host_expect *h;
};
int query_sel_expect(sqlite3 *db, const struct io_sel *s, int per_host,
    int64_t from, int64_t to, struct expect_map *e, char *err,
    size_t errlen);
void query_sel_expect_free(struct expect_map *e);

/* The 60 minute values of an io_host_hour r127 column. */
int query_minutes_hour_values(sqlite3_stmt *st, int col, uint64_t v[60],
    char *err,
    size_t errlen);

#endif
