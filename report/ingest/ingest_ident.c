/*
 * ingest_ident: a device's identities, from the logs' device tables to
 * io_dev_ident (docs/census-db.md, "io_dev_ident").
 *
 * A device table entry names its device's identity in its attributes
 * (iostatmon/devident.c): wwid, serial, model, slot. The decoders give each
 * device the distinct identities its tables gave it, and each the times of
 * the plausible samples that followed such a table; the writer stores
 * them as a set, widened, so that a log ingested again, or logs ingested
 * in another order, give the same rows. A disk replaced under the same
 * kernel name is a new identity of the same device.
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "ingest_store_int.h"
#include "xalloc.h"

/* The log's attribute of each identity column, in IDENT_ order. */
static const char *const ident_key[IDENT_N] = { "wwid", "serial", "model",
    "slot" };

static const char *
attr_of(const struct iolog_dev *e, const char *key)
{
	for (size_t k = 0; k < e->nattr; k++)
		if (strcmp(e->attr[k].key, key) == 0)
			return e->attr[k].value;
	return "";
}

static int
same_ident(const struct src_ident *a, const char *const v[IDENT_N])
{
	for (int k = 0; k < IDENT_N; k++)
		if (strcmp(a->v[k], v[k]) != 0)
			return 0;
	return 1;
}

size_t
ingest_ident_of(struct src_dev *d, const struct iolog_dev *e)
{
	const char *v[IDENT_N];
	struct src_ident *id;
	int any = 0;
	size_t i;

	for (int k = 0; k < IDENT_N; k++) {
		v[k] = attr_of(e, ident_key[k]);
		any |= v[k][0] != '\0';
	}
	if (!any)
		return SIZE_MAX;
	/* A device has one identity per disk it ever was: a handful. */
	for (i = 0; i < d->nid; i++)
		if (same_ident(&d->id[i], v))
			return i;
	d->id = xgrow(d->id, d->nid, &d->idcap, sizeof *d->id, 1);
	id = &d->id[d->nid];
	memset(id, 0, sizeof *id);
	for (int k = 0; k < IDENT_N; k++)
		id->v[k] = xstrdup(v[k]);
	return d->nid++;
}

void
ingest_ident_widen(struct src_dev *d, size_t k, const struct io_sample *x)
{
	struct src_ident *id = &d->id[k];
	int64_t start = x->t_ms - x->dur_ms;

	assert(k < d->nid);
	if (!id->seen || start < id->first_ms)
		id->first_ms = start;
	if (!id->seen || x->t_ms > id->last_ms)
		id->last_ms = x->t_ms;
	id->seen = 1;
}

void
ingest_ident_free(struct src_dev *d)
{
	for (size_t i = 0; i < d->nid; i++)
		for (int k = 0; k < IDENT_N; k++)
			free(d->id[i].v[k]);
	free(d->id);
	d->id = NULL;
	d->nid = d->idcap = 0;
}

int
ingest_ident_store(struct store *st, int64_t dev_id, const struct src_dev *d)
{
	sqlite3_stmt *q = st->q[Q_IDENT];

	assert(db_in_txn(st->db));	/* I1 */
	for (size_t i = 0; i < d->nid; i++) {
		const struct src_ident *id = &d->id[i];

		if (!id->seen)
			continue;
		sqlite3_bind_int64(q, 1, dev_id);
		for (int k = 0; k < IDENT_N; k++)
			db_bind_text(q, 2 + k, id->v[k]);
		sqlite3_bind_int64(q, 6, id->first_ms);
		sqlite3_bind_int64(q, 7, id->last_ms);
		if (db_step_done(q) < 0)
			return -1;
	}
	return 0;
}
