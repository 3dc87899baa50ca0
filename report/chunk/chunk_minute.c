/*
 * chunk_minute: the minute rules applied to one device's chunks (see
 * chunk.h). Exact: the split uses 128-bit products, so the parts of
 * a value always sum to it.
 */
#include "chunk.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "xalloc.h"

int
chunk_minute_reader_init(struct chunk_reader *r, sqlite3 *db, char *err,
    size_t errlen)
{
	r->chunk = NULL;
	if (sqlite3_prepare_v2(db, "SELECT t0, " IOCHUNK_SELECT_COLS
	    " FROM io_chunk WHERE dev_id = ?1 AND t0 >= ?2 AND t0 < ?3"
	    " ORDER BY t0", -1, &r->st, NULL) != SQLITE_OK) {
		r->st = NULL;
		return db_sqlerr(db, "reading io_chunk", err, errlen);
	}
	r->chunk = xmalloc(sizeof *r->chunk);
	return 0;
}

void
chunk_minute_reader_free(struct chunk_reader *r)
{
	sqlite3_finalize(r->st);
	free(r->chunk);
	r->st = NULL;
	r->chunk = NULL;
}

void
chunk_minute_free(struct dev_minutes *m)
{
	free(m->covered);
	free(m->samples);
	for (int j = 0; j < MV_N; j++)
		free(m->v[j]);
	memset(m, 0, sizeof *m);
}

/* Zeroed arrays for n minutes. */
static void
reserve(struct dev_minutes *m, size_t n)
{
	if (m->cap < n) {
		free(m->covered);
		free(m->samples);
		m->covered = xreallocarray(NULL, n, sizeof *m->covered);
		m->samples = xreallocarray(NULL, n, sizeof *m->samples);
		for (int j = 0; j < MV_N; j++) {
			free(m->v[j]);
			m->v[j] = xreallocarray(NULL, n, sizeof *m->v[j]);
		}
		m->cap = n;
	}
	memset(m->covered, 0, n * sizeof *m->covered);
	memset(m->samples, 0, n * sizeof *m->samples);
	for (int j = 0; j < MV_N; j++)
		memset(m->v[j], 0, n * sizeof *m->v[j]);
}

/* The values a sample's interval splits (MV_*). */
static void
values(const struct io_sample *s, unsigned __int128 d[MV_N])
{
	d[MV_RD] = (unsigned __int128)s->v[IOF_RD_SEC] * 512;
	d[MV_WR] = (unsigned __int128)s->v[IOF_WR_SEC] * 512;
	d[MV_IOS] = (unsigned __int128)s->v[IOF_RD_IOS] + s->v[IOF_WR_IOS] +
	    s->v[IOF_OTH_IOS];
	d[MV_RD_IOS] = s->v[IOF_RD_IOS];
	d[MV_WR_IOS] = s->v[IOF_WR_IOS];
	d[MV_OTH_IOS] = s->v[IOF_OTH_IOS];
	d[MV_RD_MS] = s->v[IOF_RD_MS];
	d[MV_WR_MS] = s->v[IOF_WR_MS];
	d[MV_IO_MS] = s->v[IOF_IO_MS];
}

/* Add the parts of one bridged interval [start, end) to the minutes; the
 * sample itself counts in the minute of its last millisecond. */
static void
split(struct dev_minutes *m, int64_t start, int64_t end,
    const struct io_sample *s)
{
	unsigned __int128 d[MV_N], before[MV_N], upto[MV_N], all = 0;
	int64_t k0 = floor_div64(start, MS_MINUTE);
	int64_t k1 = floor_div64(end - 1, MS_MINUTE);
	int64_t first = m->a / 60, len = end - start, c = 0;

	values(s, d);
	if (k1 >= first && k1 - first < (int64_t)m->n)
		m->samples[k1 - first]++;
	if (k0 == k1) {		/* the usual case: one minute, no division */
		if (k0 >= first && k0 - first < (int64_t)m->n) {
			size_t i = (size_t)(k0 - first);

			m->covered[i] += (uint32_t)len;
			for (int j = 0; j < MV_N; j++)
				m->v[j][i] += (uint64_t)d[j];
		}
		return;
	}
	/* D * C fits 64 bits for any sane D: divide in 64 bits then (the
	 * 128-bit division is a slow library call). */
	for (int j = 0; j < MV_N; j++) {
		all |= d[j];
		before[j] = 0;
	}
	int narrow = all <= UINT64_MAX / (uint64_t)len;

	for (int64_t k = k0; k <= k1; k++) {
		int64_t lo = k * MS_MINUTE, hi = lo + MS_MINUTE;
		int64_t ov = (end < hi ? end : hi) - (start > lo ? start : lo);

		c += ov;
		for (int j = 0; j < MV_N; j++)
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
			for (int j = 0; j < MV_N; j++)
				m->v[j][i] += (uint64_t)(upto[j] - before[j]);
		}
		memcpy(before, upto, sizeof before);
	}
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
		*p = end;
		*have_p = 1;
	}
}

int
chunk_minute_load(struct dev_minutes *m, struct chunk_reader *r, int64_t dev_id,
    int64_t interval_ms, int64_t a, int64_t b, char *err, size_t errlen)
{
	/* Samples that can reach [a, b): ending after a (less the jitter and
	 * their previous sample) and starting before b. */
	int64_t reach = 2 * interval_ms + JITTER_MS;
	int64_t lo = floor_div64(a * 1000 - reach, MS_HOUR) * 3600;
	int64_t hi = floor_div64(b * 1000 + reach, MS_HOUR) * 3600 + 3600;
	int64_t p = 0;
	int have_p = 0, rc;

	m->a = a;
	m->n = (size_t)((b - a) / 60);
	reserve(m, m->n);
	sqlite3_bind_int64(r->st, 1, dev_id);
	sqlite3_bind_int64(r->st, 2, lo);
	sqlite3_bind_int64(r->st, 3, hi);
	while ((rc = sqlite3_step(r->st)) == SQLITE_ROW) {
		r->chunk->t0 = sqlite3_column_int64(r->st, 0);
		if (chunk_from_row(r->st, 1, r->chunk, err, errlen) < 0) {
			sqlite3_reset(r->st);
			return -1;
		}
		bridge_chunk(m, r->chunk, interval_ms, &p, &have_p);
	}
	if (rc != SQLITE_DONE) {
		sqlite3_reset(r->st);
		return db_sqlerr(sqlite3_db_handle(r->st), "reading io_chunk",
		    err, errlen);
	}
	sqlite3_reset(r->st);
	return 0;
}
