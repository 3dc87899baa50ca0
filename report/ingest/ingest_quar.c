/*
 * ingest_quar: samples whose times cannot be real, kept apart.
 *
 * A server whose clock was reset (to 1970, or to a firmware's 2000) or
 * set years ahead writes samples at times no analysis can use: stored
 * with the others, one such sample would make every device expected
 * until 2199 and every window span centuries. A sample is plausible when
 * its whole interval lies in [INGEST_TIME_FLOOR, the ingest's time +
 * INGEST_AHEAD_S]; the others go to io_quarantine, whole and apart, and
 * touch nothing else (I3): no host, device, chunk, roll-up or window. An
 * ingest that finds quarantined samples plausible (its --now is later)
 * stores them and takes them out: that is how they are released.
 */
#include <assert.h>
#include <string.h>

#include "db.h"
#include "ingest_store_int.h"
#include "xalloc.h"

int
ingest_quar_plausible(const struct src *s, const struct io_sample *x)
{
	return x->t_ms - x->dur_ms >= s->ok_from_ms && x->t_ms <= s->ok_to_ms;
}

void
ingest_quar_split(struct src *s, struct src_dev *d)
{
	size_t keep = 0, nq = 0;

	for (size_t i = 0; i < d->n; i++)
		nq += !ingest_quar_plausible(s, &d->s[i]);
	if (nq == 0)
		return;
	d->q = xreallocarray(NULL, nq, sizeof *d->q);
	for (size_t i = 0; i < d->n; i++) {
		if (ingest_quar_plausible(s, &d->s[i]))
			d->s[keep++] = d->s[i];
		else
			d->q[d->nq++] = d->s[i];
	}
	d->n = keep;
	s->quarantined += nq;
}

void
ingest_quar_host(const struct src *s, size_t host, struct quar_host *q)
{
	memset(q, 0, sizeof *q);
	for (size_t i = 0; i < s->ndev; i++) {
		const struct src_dev *d = &s->dev[i];

		if (d->host != host || d->nq == 0)
			continue;
		if (q->n == 0 || d->q[0].t_ms < q->first_ms)
			q->first_ms = d->q[0].t_ms;
		if (q->n == 0 || d->q[d->nq - 1].t_ms > q->last_ms)
			q->last_ms = d->q[d->nq - 1].t_ms;
		q->n += d->nq;
	}
}

/* The device's plausible samples that io_quarantine holds (quarantined
 * by an ingest whose time made them implausible) leave it: they are
 * stored now. One probe per device; a delete per sample only if the
 * probe finds any. */
static int
release(struct store *st, const struct src *s, const struct src_dev *d,
    uint64_t *released)
{
	sqlite3_stmt *p = st->q[Q_QPROBE], *del = st->q[Q_QDEL];
	const char *host = s->host[d->host].name;
	int rc;

	db_bind_text(p, 1, host);
	db_bind_text(p, 2, d->name);
	sqlite3_bind_int64(p, 3, d->s[0].t_ms);
	sqlite3_bind_int64(p, 4, d->s[d->n - 1].t_ms);
	rc = sqlite3_step(p);
	sqlite3_reset(p);
	if (rc != SQLITE_ROW)
		return rc == SQLITE_DONE ? 0 : -1;
	for (size_t j = 0; j < d->n; j++) {
		db_bind_text(del, 1, host);
		db_bind_text(del, 2, d->name);
		sqlite3_bind_int64(del, 3, d->s[j].t_ms);
		if (db_step_done(del) < 0)
			return -1;
		*released += (uint64_t)sqlite3_changes(st->db);
	}
	return 0;
}

int
ingest_quar_store(struct store *st, const struct src *s,
    struct store_stats *out)
{
	sqlite3_stmt *q = st->q[Q_QUAR];

	assert(db_in_txn(st->db));	/* I1 */
	for (size_t i = 0; i < s->ndev; i++) {
		const struct src_dev *d = &s->dev[i];
		const struct src_host *h = &s->host[d->host];

		if (d->n > 0 && release(st, s, d, &out->released) < 0)
			return -1;
		for (size_t j = 0; j < d->nq; j++) {
			const struct io_sample *x = &d->q[j];

			db_bind_text(q, 1, h->name);
			db_bind_text(q, 2, d->name);
			sqlite3_bind_int64(q, 3, x->t_ms);
			sqlite3_bind_int64(q, 4, x->dur_ms);
			sqlite3_bind_int64(q, 5, h->interval_ms);
			for (int k = 0; k < IOF_N; k++)	/* <= R127_MAX */
				sqlite3_bind_int64(q, 6 + k,
				    (sqlite3_int64)x->v[k]);
			if (db_step_done(q) < 0)
				return -1;
		}
	}
	return 0;
}
