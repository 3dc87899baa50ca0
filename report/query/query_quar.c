/*
 * query_quar: what io_quarantine holds, per host: the samples ingest set
 * apart because their times cannot be real (docs/census-db.md). No
 * analysis reads them; the report says they are there.
 */
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "floordiv.h"
#include "query.h"
#include "xalloc.h"

int
query_quar_hosts(sqlite3 *db, struct quar_list *q, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	size_t cap = 0;
	int rc;

	memset(q, 0, sizeof *q);
	if (sqlite3_prepare_v2(db, "SELECT host, count(*), min(t_ms), "
	    "max(t_ms) FROM io_quarantine GROUP BY host ORDER BY host", -1,
	    &st, NULL) != SQLITE_OK)
		return db_sqlerr(db, "reading io_quarantine", err, errlen);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct quar_entry *e;

		q->e = xgrow(q->e, q->n, &cap, sizeof *q->e, 8);
		e = &q->e[q->n++];
		e->host = xstrdup((const char *)sqlite3_column_text(st, 0));
		e->samples = (uint64_t)sqlite3_column_int64(st, 1);
		e->first = floor_div64(sqlite3_column_int64(st, 2), 1000);
		e->last = floor_div64(sqlite3_column_int64(st, 3), 1000);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		query_quar_free(q);
		return db_sqlerr(db, "reading io_quarantine", err, errlen);
	}
	return 0;
}

void
query_quar_free(struct quar_list *q)
{
	for (size_t i = 0; i < q->n; i++)
		free(q->e[i].host);
	free(q->e);
	memset(q, 0, sizeof *q);
}
