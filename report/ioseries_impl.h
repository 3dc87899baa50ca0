/*
 * ioseries_impl: the window and host selection every ioseries loader
 * shares (ioseries.c, ioscan.c, iodevstats.c). Private to them.
 */
#ifndef IOCENSUS_IOSERIES_IMPL_H
#define IOCENSUS_IOSERIES_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#include "ioseries.h"

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
int io_sel_resolve(sqlite3 *db, const struct io_window *w, struct io_sel *s,
    char *err, size_t errlen);
void io_sel_free(struct io_sel *s);

/* Position of host id in the selection, or -1. */
long io_sel_index(const struct io_sel *s, int64_t id);

/* Hosts and devices of the selection expected somewhere in its window. */
int io_sel_count(sqlite3 *db, const struct io_sel *s, size_t *nhost,
    size_t *ndev, char *err, size_t errlen);

/* The 60 minute values of an io_host_hour r127 column. */
int io_hour_values(sqlite3_stmt *st, int col, uint64_t v[60], char *err,
    size_t errlen);

#endif
