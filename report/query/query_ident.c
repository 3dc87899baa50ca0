/*
 * query_ident: the devices' current identities (v_io_device, schema 13):
 * for the metrics, every device that has one; for a table of devices,
 * those of a given set. Both read the same one query, whatever the
 * number of devices, and match names byte for byte.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "query.h"
#include "query_int.h"
#include "xalloc.h"

static char *
text_or_null(sqlite3_stmt *st, int col)
{
	const char *s = (const char *)sqlite3_column_text(st, col);

	return s ? xstrdup(s) : NULL;
}

int
query_ident_all(sqlite3 *db, struct dev_ident_row **out, size_t *n,
    char *err, size_t errlen)
{
	struct dev_ident_row *v = NULL;
	size_t cap = 0;
	sqlite3_stmt *st;
	int rc;

	assert(db != NULL && out != NULL && n != NULL);
	*out = NULL;
	*n = 0;
	/* BINARY collation orders as strcmp does: query_ident_load's
	 * bsearch relies on it. */
	if (sqlite3_prepare_v2(db, "SELECT host, device, wwn, serial, model, "
	    "slot FROM v_io_device WHERE current ORDER BY host, device", -1,
	    &st, NULL) != SQLITE_OK)
		return db_sqlerr(db, "reading device identities", err,
		    errlen);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct dev_ident_row *r;

		v = xgrow(v, *n, &cap, sizeof *v, 16);
		r = &v[(*n)++];
		r->host = text_or_null(st, 0);
		r->device = text_or_null(st, 1);
		r->id.wwn = text_or_null(st, 2);
		r->id.serial = text_or_null(st, 3);
		r->id.model = text_or_null(st, 4);
		r->id.slot = text_or_null(st, 5);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		query_ident_rows_free(v, *n);
		*n = 0;
		return db_sqlerr(db, "reading device identities", err,
		    errlen);
	}
	*out = v;
	return 0;
}

static void
ident_clear(struct dev_ident *d)
{
	free(d->wwn);
	free(d->serial);
	free(d->model);
	free(d->slot);
	memset(d, 0, sizeof *d);
}

void
query_ident_rows_free(struct dev_ident_row *r, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(r[i].host);
		free(r[i].device);
		ident_clear(&r[i].id);
	}
	free(r);
}

struct key {
	const char *host, *device;
};

static int
cmp_row(const void *a, const void *b)
{
	const struct key *k = a;
	const struct dev_ident_row *r = b;
	int c = strcmp(k->host, r->host);

	return c ? c : strcmp(k->device, r->device);
}

static char *
dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

int
query_ident_load(sqlite3 *db, const char *const *host,
    const char *const *device, size_t n, struct dev_ident **out, char *err,
    size_t errlen)
{
	struct dev_ident_row *all;
	struct dev_ident *v;
	size_t nall;

	assert(db != NULL && out != NULL && (n == 0 || (host && device)));
	*out = NULL;
	if (query_ident_all(db, &all, &nall, err, errlen) < 0)
		return -1;
	v = xcalloc(n ? n : 1, sizeof *v);
	for (size_t i = 0; i < n; i++) {
		struct key k = { host[i], device[i] };
		const struct dev_ident_row *r;

		assert(host[i] != NULL && device[i] != NULL);
		r = nall ? bsearch(&k, all, nall, sizeof *all, cmp_row) : NULL;
		if (r == NULL)
			continue;
		v[i].wwn = dup_or_null(r->id.wwn);
		v[i].serial = dup_or_null(r->id.serial);
		v[i].model = dup_or_null(r->id.model);
		v[i].slot = dup_or_null(r->id.slot);
	}
	query_ident_rows_free(all, nall);
	*out = v;
	return 0;
}

void
query_ident_free(struct dev_ident *d, size_t n)
{
	if (d == NULL)
		return;
	for (size_t i = 0; i < n; i++)
		ident_clear(&d[i]);
	free(d);
}
