/*
 * minutesplit: the minute rules applied to one device's chunks (see
 * minutesplit.h). Exact: the split uses 128-bit products, so the parts of
 * a value always sum to it.
 */
#include "minutesplit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

#define JITTER_MS	1000	/* clock jitter closed by rule 1 */

int
io_sqlerr(sqlite3 *db, const char *what, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: %s", what, sqlite3_errmsg(db));
	return -1;
}

int
chunk_reader_init(struct chunk_reader *r, sqlite3 *db, char *err,
    size_t errlen)
{
	r->chunk = NULL;
	if (sqlite3_prepare_v2(db, "SELECT t0, " IOCHUNK_SELECT_COLS
	    " FROM io_chunk WHERE dev_id = ?1 AND t0 >= ?2 AND t0 < ?3"
	    " ORDER BY t0", -1, &r->st, NULL) != SQLITE_OK) {
		r->st = NULL;
		return io_sqlerr(db, "reading io_chunk", err, errlen);
	}
	r->chunk = xmalloc(sizeof *r->chunk);
	return 0;
}

void
chunk_reader_free(struct chunk_reader *r)
{
	sqlite3_finalize(r->st);
	free(r->chunk);
	r->st = NULL;
	r->chunk = NULL;
}

void
devmin_free(struct dev_minutes *m)
{
	free(m->covered);
	free(m->rd);
	free(m->wr);
	free(m->ios);
	free(m->hs);
	memset(m, 0, sizeof *m);
}

/* Zeroed arrays for n minutes and nh hours. */
static void
reserve(struct dev_minutes *m, size_t n, size_t nh)
{
	if (m->cap < n) {
		free(m->covered);
		free(m->rd);
		free(m->wr);
		free(m->ios);
		m->covered = xmalloc(n * sizeof *m->covered);
		m->rd = xmalloc(n * sizeof *m->rd);
		m->wr = xmalloc(n * sizeof *m->wr);
		m->ios = xmalloc(n * sizeof *m->ios);
		m->cap = n;
	}
	if (m->hcap < nh) {
		free(m->hs);
		m->hs = xmalloc(nh * sizeof *m->hs);
		m->hcap = nh;
	}
	memset(m->covered, 0, n * sizeof *m->covered);
	memset(m->rd, 0, n * sizeof *m->rd);
	memset(m->wr, 0, n * sizeof *m->wr);
	memset(m->ios, 0, n * sizeof *m->ios);
	memset(m->hs, 0, nh * sizeof *m->hs);
}

/* Add the parts of one bridged interval [start, end) to the minutes. */
static void
split(struct dev_minutes *m, int64_t start, int64_t end,
    const struct io_sample *s)
{
	unsigned __int128 d[3], before[3] = { 0, 0, 0 };
	int64_t k0 = floor_div64(start, MS_MINUTE);
	int64_t k1 = floor_div64(end - 1, MS_MINUTE);
	int64_t first = m->a / 60, len = end - start, c = 0;

	d[0] = (unsigned __int128)s->v[IOF_RD_SEC] * 512;
	d[1] = (unsigned __int128)s->v[IOF_WR_SEC] * 512;
	d[2] = (unsigned __int128)s->v[IOF_RD_IOS] + s->v[IOF_WR_IOS] +
	    s->v[IOF_OTH_IOS];
	if (k0 == k1) {		/* the usual case: one minute, no division */
		if (k0 >= first && k0 - first < (int64_t)m->n) {
			size_t i = (size_t)(k0 - first);

			m->covered[i] += (uint32_t)len;
			m->rd[i] += (uint64_t)d[0];
			m->wr[i] += (uint64_t)d[1];
			m->ios[i] += (uint64_t)d[2];
		}
		return;
	}
	/* D * C fits 64 bits for any sane D: divide in 64 bits then (the
	 * 128-bit division is a slow library call). */
	int narrow = (d[0] | d[1] | d[2]) <= UINT64_MAX / (uint64_t)len;

	for (int64_t k = k0; k <= k1; k++) {
		int64_t lo = k * MS_MINUTE, hi = lo + MS_MINUTE;
		int64_t ov = (end < hi ? end : hi) - (start > lo ? start : lo);
		unsigned __int128 upto[3];

		c += ov;
		for (int j = 0; j < 3; j++)
			if (k == k1)		/* C = L: the rest */
				upto[j] = d[j];
			else if (narrow)
				upto[j] = (uint64_t)d[j] * (uint64_t)c /
				    (uint64_t)len;
			else
				upto[j] = d[j] * (uint64_t)c / (uint64_t)len;
		if (k >= first && k - first < (int64_t)m->n) {
			size_t i = (size_t)(k - first);

			m->covered[i] += (uint32_t)ov;
			m->rd[i] += (uint64_t)(upto[0] - before[0]);
			m->wr[i] += (uint64_t)(upto[1] - before[1]);
			m->ios[i] += (uint64_t)(upto[2] - before[2]);
		}
		memcpy(before, upto, sizeof before);
	}
}

/* Sums of a sample into its hour, when it ends inside (a, a + 60 n]. A
 * sample counts where its interval lies: the hour t0 takes the samples
 * ending in (t0, t0 + 3600], so one ending exactly at t0 + 3600 (stored in
 * chunk t0 + 3600) is hour t0's, and one ending at t0 is the hour before. */
static void
add_hour(struct dev_minutes *m, const struct io_sample *s)
{
	int64_t h;
	struct dev_hour_sum *x;

	if (s->t_ms <= m->a * 1000 || s->t_ms > (m->a + 60 * (int64_t)m->n) *
	    1000)
		return;
	h = floor_div64(s->t_ms - 1, MS_HOUR) - m->h0 / 3600;
	x = &m->hs[h];
	x->samples++;
	if (s->dur_ms > 0)
		x->covered_ms += (uint64_t)s->dur_ms;
	for (int k = 0; k < IOF_N; k++)
		x->v[k] += s->v[k];
}

/* Rule 1 over one chunk; *p is the end of the previous sample (have_p). */
static void
bridge_chunk(struct dev_minutes *m, const struct iochunk *c,
    int64_t interval_ms, int64_t *p, int *have_p)
{
	for (size_t i = 0; i < c->n; i++) {
		const struct io_sample *s = &c->s[i];
		int64_t end = s->t_ms, start = end - s->dur_ms;
		int ok = s->dur_ms > 0 && s->dur_ms <= 2 * interval_ms;

		if (ok && *have_p) {
			if (start - *p <= JITTER_MS && *p - start <= JITTER_MS)
				start = *p;
			else if (start < *p)
				ok = 0;		/* overlaps the previous one */
		}
		if (ok && end > start)
			split(m, start, end, s);
		add_hour(m, s);
		*p = end;
		*have_p = 1;
	}
}

int
devmin_load(struct dev_minutes *m, struct chunk_reader *r, int64_t dev_id,
    int64_t interval_ms, int64_t a, int64_t b, char *err, size_t errlen)
{
	/* Samples that can reach [a, b): ending after a (less the jitter and
	 * their previous sample) and starting before b. The chunk of b's hour
	 * is always read: its first sample may end exactly at b, which the
	 * hour sums of (a, b] include. */
	int64_t reach = 2 * interval_ms + JITTER_MS;
	int64_t lo = floor_div64(a * 1000 - reach, MS_HOUR) * 3600;
	int64_t hi = floor_div64(b * 1000 + reach, MS_HOUR) * 3600 + 3600;
	int64_t p = 0;
	int have_p = 0, rc;

	m->a = a;
	m->n = (size_t)((b - a) / 60);
	m->h0 = floor_div64(a, 3600) * 3600;
	m->nh = (size_t)((floor_div64(b - 1, 3600) * 3600 - m->h0) / 3600 + 1);
	reserve(m, m->n, m->nh);
	sqlite3_bind_int64(r->st, 1, dev_id);
	sqlite3_bind_int64(r->st, 2, lo);
	sqlite3_bind_int64(r->st, 3, hi);
	while ((rc = sqlite3_step(r->st)) == SQLITE_ROW) {
		r->chunk->t0 = sqlite3_column_int64(r->st, 0);
		if (iochunk_from_row(r->st, 1, r->chunk, err, errlen) < 0) {
			sqlite3_reset(r->st);
			return -1;
		}
		bridge_chunk(m, r->chunk, interval_ms, &p, &have_p);
	}
	if (rc != SQLITE_DONE) {
		sqlite3_reset(r->st);
		return io_sqlerr(sqlite3_db_handle(r->st), "reading io_chunk",
		    err, errlen);
	}
	sqlite3_reset(r->st);
	return 0;
}
