/*
 * query_seldev: the devices of a resolved selection expected somewhere in
 * its window (io_dev and io_expect, IO_DEV_EXPECTED_IN), sorted by host
 * name then device name: the rows every per-device loader starts from.
 */
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "query_int.h"
#include "xalloc.h"

static int
cmp_seldev(const void *a, const void *b)
{
	const struct sel_dev *x = a, *y = b;

	if (x->host != y->host)
		return x->host < y->host ? -1 : 1;
	return strcmp(x->name, y->name);
}

int
query_seldev_load(sqlite3 *db, const struct io_sel *sel, struct sel_dev **out,
    size_t *n, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	size_t cap = 0;
	int rc;

	*out = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(db, "SELECT d.id, d.host_id, d.name, "
	    "d.interval_ms" IO_DEV_EXPECTED_IN, -1, &st, NULL) != SQLITE_OK)
		return db_sqlerr(db, "reading io_dev", err, errlen);
	sqlite3_bind_int64(st, 1, sel->from * 1000);
	sqlite3_bind_int64(st, 2, sel->to * 1000);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		long h = query_sel_index(sel, sqlite3_column_int64(st, 1));
		const char *name = (const char *)sqlite3_column_text(st, 2);
		struct sel_dev *d;

		if (h < 0 || name == NULL)
			continue;
		*out = xgrow(*out, *n, &cap, sizeof **out, 64);
		d = &(*out)[(*n)++];
		d->id = sqlite3_column_int64(st, 0);
		d->interval_ms = sqlite3_column_int64(st, 3);
		d->host = (size_t)h;
		d->name = xstrdup(name);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		query_seldev_free(*out, *n);
		*out = NULL;
		*n = 0;
		return db_sqlerr(db, "reading io_dev", err, errlen);
	}
	if (*n)
		qsort(*out, *n, sizeof **out, cmp_seldev);
	return 0;
}

void
query_seldev_free(struct sel_dev *d, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(d[i].name);
	free(d);
}
