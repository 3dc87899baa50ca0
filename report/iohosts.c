/*
 * iohosts: every --host pattern must name a known host (iohosts.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyses.h"
#include "globlist.h"
#include "iohosts.h"
#include "minutesplit.h"
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
io_hosts_check(sqlite3 *db, const struct io_window *w, char *err,
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
		return io_sqlerr(db, "reading I/O hosts", err, errlen);
	hit = xcalloc(w->nhosts, 1);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);

		for (size_t i = 0; i < w->nhosts; i++)
			hit[i] |= glob_match(&w->hosts[i], 1, name) != NULL;
		if (n < LIST_HOSTS)
			names[n++] = xstrdup(name);
		total++;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		rc = io_sqlerr(db, "reading I/O hosts", err, errlen);
	else
		rc = 0;
	for (size_t i = 0; rc == 0 && i < w->nhosts; i++)
		if (!hit[i]) {
			snprintf(err, errlen, AN_USAGE "--host %s matches no "
			    "host", w->hosts[i]);
			list_hosts(names, n, total, err, errlen);
			rc = -1;
		}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(hit);
	return rc;
}
