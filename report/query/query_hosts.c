/*
 * query_hosts: the hosts with data in a window, the check that every
 * --host pattern names a known host, and when each host's data ends.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "query_int.h"
#include "db.h"
#include "globlist.h"
#include "query.h"
#include "xalloc.h"

/* Known hosts named in a message, at most this many. */
#define LIST_HOSTS 10

/* Append the known hosts (names[0..n), the total known) to err. */
static void
list_hosts(char **names, size_t n, size_t total, char *err, size_t errlen)
{
	size_t len = strlen(err);

	if (total == 0) {
		snprintf(err + len, errlen - len, ": the database has no I/O "
		    "data");
		return;
	}
	for (size_t i = 0; i < n && len < errlen; i++)
		len += (size_t)snprintf(err + len, errlen - len, "%s%s",
		    i ? ", " : "; hosts: ", names[i]);
	if (total > n && len < errlen)
		snprintf(err + len, errlen - len, " and %zu more", total - n);
}

int
query_hosts_check(sqlite3 *db, const struct io_window *w, char *err,
    size_t errlen)
{
	unsigned char *hit;
	char *names[LIST_HOSTS];
	size_t n = 0, total = 0;
	sqlite3_stmt *st;
	int rc;

	if (w->nhosts == 0)
		return 0;
	if (sqlite3_prepare_v2(db, "SELECT name FROM io_host WHERE name IS "
	    "NOT NULL ORDER BY name", -1, &st, NULL) != SQLITE_OK)
		return db_sqlerr(db, "reading I/O hosts", err, errlen);
	hit = xcalloc(w->nhosts, 1);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);

		for (size_t i = 0; i < w->nhosts; i++)
			hit[i] |= globlist_match(&w->hosts[i], 1, name) != NULL;
		if (n < LIST_HOSTS)
			names[n++] = xstrdup(name);
		total++;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		rc = db_sqlerr(db, "reading I/O hosts", err, errlen);
	else
		rc = 0;
	for (size_t i = 0; rc == 0 && i < w->nhosts; i++)
		if (!hit[i]) {
			snprintf(err, errlen, FMT_USAGE "--host %s matches no "
			    "host", w->hosts[i]);
			list_hosts(names, n, total, err, errlen);
			rc = -1;
		}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(hit);
	return rc;
}

/* Hosts of the selection with a device expected in the window. */
int
query_hosts_load(sqlite3 *db, const struct io_window *w, struct host_list *hl,
    char *err, size_t errlen)
{
	struct io_sel sel;
	sqlite3_stmt *st = NULL;
	char *with = NULL;
	int rc = -1;

	memset(hl, 0, sizeof *hl);
	if ((rc = query_sel_open(db, w, &sel, err, errlen)) <= 0)
		goto out;
	rc = 0;
	if (sel.n == 0)
		goto out;
	if (sqlite3_prepare_v2(db, "SELECT DISTINCT d.host_id"
	    IO_DEV_EXPECTED_IN, -1, &st, NULL) != SQLITE_OK) {
		rc = db_sqlerr(db, "reading io_dev", err, errlen);
		goto out;
	}
	with = xcalloc(sel.n, 1);
	sqlite3_bind_int64(st, 1, sel.from * 1000);
	sqlite3_bind_int64(st, 2, sel.to * 1000);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		long i = query_sel_index(&sel, sqlite3_column_int64(st, 0));

		if (i >= 0)
			with[i] = 1;
	}
	rc = rc == SQLITE_DONE ? 0 : db_sqlerr(db, "reading io_dev", err,
	    errlen);
	hl->name = xcalloc(sel.n, sizeof *hl->name);
	for (size_t i = 0; i < sel.n && rc == 0; i++)
		if (with[i])
			hl->name[hl->n++] = xstrdup(sel.name[i]);
out:
	sqlite3_finalize(st);
	free(with);
	query_sel_free(&sel);
	if (rc < 0)
		query_hosts_free(hl);
	return rc;
}

void
query_hosts_free(struct host_list *hl)
{
	for (size_t i = 0; i < hl->n; i++)
		free(hl->name[i]);
	free(hl->name);
	memset(hl, 0, sizeof *hl);
}

int
query_hosts_last(sqlite3 *db, struct host_last **out, size_t *n, char *err,
    size_t errlen)
{
	sqlite3_stmt *st;
	size_t cap = 0;
	int rc;

	*out = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(db, "SELECT h.name, max(d.last_ms) FROM io_host h"
	    " JOIN io_dev d ON d.host_id = h.id GROUP BY h.id ORDER BY h.name",
	    -1, &st, NULL) != SQLITE_OK)
		return db_sqlerr(db, "reading io_dev", err, errlen);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		*out = xgrow(*out, *n, &cap, sizeof **out, 16);
		(*out)[*n].host = xstrdup((const char *)sqlite3_column_text(st,
		    0));
		(*out)[(*n)++].last_ms = sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
	if (rc == SQLITE_DONE)
		return 0;
	query_hosts_last_free(*out, *n);
	*out = NULL;
	*n = 0;
	return db_sqlerr(db, "reading io_dev", err, errlen);
}

void
query_hosts_last_free(struct host_last *h, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(h[i].host);
	free(h);
}
