/*
 * chunk: the r127 column codec and one io_chunk row <-> struct iochunk.
 *
 * r127 keeps every value of a column at one width, so v_io can find value
 * i at byte i * width with substr() alone. Columns are BLOBs: substr() of a
 * BLOB goes straight to a byte offset, while on TEXT it walks the UTF-8
 * from the start (an hour of 1 s samples would make v_io quadratic).
 * Digits 1..127 keep every byte one ASCII character without NUL, so v_io
 * reads a digit with unicode(CAST(byte AS TEXT)). docs/census-db.md
 * describes the bytes.
 */
#include "chunk.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define R127_WIDTH_MAX 9

/* Digits needed for v (0 for 0). */
static int
r127_width(uint64_t v)
{
	int w = 0;

	while (v) {
		v /= 127;
		w++;
	}
	return w;
}

/* Width w of every value in 32-bit arithmetic (127^4 < 2^32), the common
 * case: counter deltas of a minute rarely need more than 4 digits. */
static void
r127_encode32(const uint64_t *v, size_t n, int w, char *out)
{
	for (size_t i = 0; i < n; i++) {
		uint32_t x = (uint32_t)v[i];

		for (int d = 0; d < w; d++) {
			*out++ = (char)(x % 127 + 1);
			x /= 127;
		}
	}
}

size_t
chunk_r127_encode(const uint64_t *v, size_t n, char *out)
{
	uint64_t max = 0;
	int w;

	for (size_t i = 0; i < n; i++)
		if (v[i] > max)
			max = v[i];
	w = r127_width(max);
	if (w == 1) {
		for (size_t i = 0; i < n; i++)
			out[i] = (char)(v[i] + 1);
		return n;
	}
	if (w <= 4) {
		r127_encode32(v, n, w, out);
		return n * (size_t)w;
	}
	for (size_t i = 0; i < n; i++) {
		uint64_t x = v[i];

		for (int d = 0; d < w; d++) {
			*out++ = (char)(x % 127 + 1);
			x /= 127;
		}
	}
	return n * (size_t)w;
}

int
chunk_r127_decode(const char *s, size_t len, size_t n, uint64_t *v)
{
	size_t w;

	if (len == 0) {
		memset(v, 0, n * sizeof *v);
		return 0;
	}
	if (n == 0 || len % n != 0 || len / n > R127_WIDTH_MAX)
		return -1;
	w = len / n;
	for (size_t i = 0; i < n; i++) {
		const unsigned char *p = (const unsigned char *)s + i * w;
		uint64_t x = 0;

		for (size_t d = w; d-- > 0;) {
			if (p[d] < 1 || p[d] > 127)
				return -1;
			x = x * 127 + (uint64_t)(p[d] - 1);
		}
		v[i] = x;
	}
	return 0;
}

/* Zigzag: small deviations of either sign become small unsigned values. */
static uint64_t
zz_enc(int64_t d)
{
	return ((uint64_t)d << 1) ^ (uint64_t)(d >> 63);
}

static int64_t
zz_dec(uint64_t z)
{
	return (int64_t)(z >> 1) ^ -(int64_t)(z & 1);
}

static int
cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* Nearest multiple of 1000 (d > 0). */
static int64_t
whole_seconds(int64_t d)
{
	return (d + 500) / 1000 * 1000;
}

/* The step: the most common difference of consecutive t_ms, each rounded
 * to whole seconds (the smallest of equally common ones), so that t_dev
 * is 0 for a regular series and stays within the reads' jitter (a few ms
 * either way) for a jittered one: a step off by the jitter would make
 * the deviations grow along the hour. Differences under half a second
 * are taken exactly. One sample: its duration, so that s_dev is 0. */
static int64_t
chunk_step(const struct io_sample *s, size_t n)
{
	int64_t diff[IOCHUNK_MAX];
	size_t nd = n - 1, best_n = 0, run;
	int64_t best;

	if (n == 1)
		return s[0].dur_ms;
	for (size_t i = 0; i < nd; i++) {
		diff[i] = s[i + 1].t_ms - s[i].t_ms;
		if (diff[i] >= 500)
			diff[i] = whole_seconds(diff[i]);
	}
	for (run = 1; run < nd && diff[run] == diff[0]; run++)
		;
	if (run == nd)
		return diff[0];
	qsort(diff, nd, sizeof *diff, cmp_i64);
	best = diff[0];
	for (size_t i = 0; i < nd; i += run) {
		for (run = 1; i + run < nd && diff[i + run] == diff[i]; run++)
			;
		if (run > best_n) {
			best_n = run;
			best = diff[i];
		}
	}
	return best;
}

/* One encoded column: r127 of v into buf at *used. */
static void
put_column(struct iochunk_enc *e, int col, const uint64_t *v, size_t n,
    char *buf, size_t *used)
{
	e->off[col] = *used;
	e->len[col] = chunk_r127_encode(v, n, buf + *used);
	*used += e->len[col];
}

#ifndef NDEBUG
/* Do n samples end in hour t0, each after the one before (C1)? */
static int
one_hour_in_order(int64_t t0, const struct io_sample *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (floor_div64(s[i].t_ms, MS_HOUR) * 3600 != t0 ||
		    (i > 0 && s[i].t_ms <= s[i - 1].t_ms))
			return 0;
	return 1;
}
#endif

/* A chunk's whole state, where a function that changes it begins and
 * ends: its hour, up to IOCHUNK_MAX samples of that hour in time order
 * (0 before the first merge into it). */
#ifdef NDEBUG
#define assert_chunk_state(c)	((void)0)
#else
static void
assert_chunk_state(const struct iochunk *c)
{
	assert(c != NULL && c->n <= IOCHUNK_MAX);	/* C1 */
	assert(floor_div64(c->t0, 3600) * 3600 == c->t0);	/* C1: an hour */
	assert(one_hour_in_order(c->t0, c->s, c->n));	/* C1 */
}
#endif

int
chunk_encode(int64_t t0, const struct io_sample *s, size_t n,
    struct iochunk_enc *e, char *buf, size_t *used)
{
	uint64_t tdev[IOCHUNK_MAX], sdev[IOCHUNK_MAX];
	int64_t base;

	if (n < 1 || n > IOCHUNK_MAX)
		return -1;
	assert(one_hour_in_order(t0, s, n));	/* C1 */
	base = t0 * 1000;
	e->n = (int64_t)n;
	e->t1_ms = s[0].t_ms - base;
	e->step_ms = chunk_step(s, n);
	for (size_t i = 0; i < n; i++) {
		/* Unsigned arithmetic: a wild clock wraps instead of being
		 * undefined, and is then caught by the range check. */
		int64_t want = (int64_t)((uint64_t)base + (uint64_t)e->t1_ms +
		    (uint64_t)i * (uint64_t)e->step_ms);

		tdev[i] = zz_enc((int64_t)((uint64_t)s[i].t_ms -
		    (uint64_t)want));
		sdev[i] = zz_enc((int64_t)((uint64_t)s[i].dur_ms -
		    (uint64_t)e->step_ms));
		if (tdev[i] > R127_MAX || sdev[i] > R127_MAX)
			return -1;
	}
	put_column(e, 0, tdev, n, buf, used);
	put_column(e, 1, sdev, n, buf, used);
	for (int k = 0; k < IOF_N; k++) {
		for (size_t i = 0; i < n; i++) {
			tdev[i] = s[i].v[k];
			if (tdev[i] > R127_MAX)
				return -1;
		}
		put_column(e, 2 + k, tdev, n, buf, used);
	}
	return 0;
}

int
chunk_bind_enc(sqlite3_stmt *st, int first, const struct iochunk_enc *e,
    const char *buf)
{
	int rc = 0;

	rc |= sqlite3_bind_int64(st, first, e->n);
	rc |= sqlite3_bind_int64(st, first + 1, e->t1_ms);
	rc |= sqlite3_bind_int64(st, first + 2, e->step_ms);
	for (int k = 0; k < 2 + IOF_N; k++) {
		if (e->len[k] == 0)
			rc |= sqlite3_bind_null(st, first + 3 + k);
		else
			rc |= sqlite3_bind_blob(st, first + 3 + k,
			    buf + e->off[k], (int)e->len[k], SQLITE_STATIC);
	}
	return rc == SQLITE_OK ? 0 : -1;
}

int
chunk_bind(sqlite3_stmt *st, int first, const struct iochunk *c,
    struct iochunk_scratch *scratch)
{
	char *buf = (char *)(void *)scratch;	/* 13 * IOCHUNK_MAX * 9 */
	struct iochunk_enc e;
	size_t used = 0;

	if (chunk_encode(c->t0, c->s, c->n, &e, buf, &used) < 0)
		return -1;
	return chunk_bind_enc(st, first, &e, buf);
}

/* BLOB column `col` of the row as n values; NULL is all zero. */
static int
column_r127(sqlite3_stmt *st, int col, size_t n, uint64_t *v)
{
	const char *s = sqlite3_column_blob(st, col);
	int len = sqlite3_column_bytes(st, col);

	if (s == NULL)
		len = 0;
	return chunk_r127_decode(s, (size_t)len, n, v);
}

int
chunk_from_row(sqlite3_stmt *st, int first, struct iochunk *c,
    char *err, size_t errlen)
{
	static const char *const names[] = { "t_dev", "s_dev", "rd_ios",
	    "wr_ios", "rd_sec", "wr_sec", "rd_ms", "wr_ms", "io_ms",
	    "oth_ios" };
	uint64_t v[IOCHUNK_MAX];
	sqlite3_int64 n = sqlite3_column_int64(st, first);
	uint64_t base, t1, step;

	if (n < 1 || n > IOCHUNK_MAX) {
		snprintf(err, errlen, "chunk of hour %lld: n = %lld out of "
		    "range", (long long)c->t0, (long long)n);
		return -1;
	}
	c->n = (size_t)n;
	base = (uint64_t)c->t0 * 1000;
	t1 = (uint64_t)sqlite3_column_int64(st, first + 1);
	step = (uint64_t)sqlite3_column_int64(st, first + 2);
	for (int k = 0; k < 2 + IOF_N; k++) {
		if (column_r127(st, first + 3 + k, c->n, v) < 0) {
			snprintf(err, errlen, "chunk of hour %lld: column %s "
			    "is not r127 of %lld values", (long long)c->t0,
			    names[k], (long long)n);
			return -1;
		}
		for (size_t i = 0; i < c->n; i++) {
			struct io_sample *s = &c->s[i];

			if (k == 0)
				s->t_ms = (int64_t)(base + t1 + i * step +
				    (uint64_t)zz_dec(v[i]));
			else if (k == 1)
				s->dur_ms = (int64_t)(step +
				    (uint64_t)zz_dec(v[i]));
			else
				s->v[k - 2] = v[i];
		}
	}
	/* Merging relies on order and on the hour: check both. */
	if (floor_div64(c->t0, 3600) * 3600 != c->t0) {
		snprintf(err, errlen, "chunk of hour %lld: not the start of an "
		    "hour", (long long)c->t0);
		return -1;
	}
	for (size_t i = 0; i < c->n; i++) {
		int64_t t = c->s[i].t_ms;

		if (t < c->t0 * 1000 || t >= c->t0 * 1000 + 3600000 ||
		    (i > 0 && t <= c->s[i - 1].t_ms)) {
			snprintf(err, errlen, "chunk of hour %lld: sample %zu "
			    "ends at %lld ms, out of order or outside the hour",
			    (long long)c->t0, i, (long long)t);
			return -1;
		}
	}
	assert_chunk_state(c);
	return 0;
}

static int
same_values(const struct io_sample *a, const struct io_sample *b)
{
	if (a->dur_ms != b->dur_ms)
		return 0;
	for (int k = 0; k < IOF_N; k++)
		if (a->v[k] != b->v[k])
			return 0;
	return 1;
}

/* Samples of the union of c and add (by t_ms); counts duplicates. */
static size_t
union_size(const struct iochunk *c, const struct io_sample *add,
    size_t nadd, uint64_t *dups, uint64_t *conflicts)
{
	size_t i = 0, j = 0, u = 0;

	while (i < c->n || j < nadd) {
		if (j == nadd || (i < c->n && c->s[i].t_ms < add[j].t_ms)) {
			i++;
		} else if (i == c->n || add[j].t_ms < c->s[i].t_ms) {
			j++;
		} else {
			(*dups)++;
			if (!same_values(&c->s[i], &add[j]))
				(*conflicts)++;
			i++, j++;
		}
		u++;
	}
	return u;
}

/* Merging from the back works in place: the write position never passes
 * the next sample of c still to be read. When the union holds more than
 * IOCHUNK_MAX samples, the latest ones are left out: keeping the earliest
 * IOCHUNK_MAX of a set does not depend on the order the sets arrive in, so
 * ingest stays idempotent even then. */
size_t
chunk_merge(struct iochunk *c, const struct io_sample *add, size_t nadd,
    uint64_t *dups, uint64_t *conflicts)
{
	uint64_t dups0;
	size_t u;
	size_t skip;
	size_t i, j = nadd, k, added = 0;

	assert_chunk_state(c);
	assert((add != NULL || nadd == 0) && dups != NULL && conflicts != NULL);
	dups0 = *dups;
	u = union_size(c, add, nadd, dups, conflicts);
	skip = u > IOCHUNK_MAX ? u - IOCHUNK_MAX : 0;
	i = c->n;
	k = u - skip;
	c->n = k;
	while (i > 0 || j > 0) {
		const struct io_sample *from;
		int mine;

		if (j == 0 || (i > 0 && c->s[i - 1].t_ms > add[j - 1].t_ms)) {
			from = &c->s[--i];
			mine = 0;
		} else if (i == 0 || add[j - 1].t_ms > c->s[i - 1].t_ms) {
			from = &add[--j];
			mine = 1;
		} else {
			--j;	/* a duplicate: the stored one stays (C2) */
			from = &c->s[--i];
			mine = 0;
		}
		if (skip > 0) {
			skip--;
			continue;
		}
		c->s[--k] = *from;
		added += (size_t)mine;
	}
	assert_chunk_state(c);
	/* C2: what is stored already adds nothing: merging a set again
	 * changes no chunk */
	assert(added + (size_t)(*dups - dups0) <= nadd &&
	    (*dups - dups0 < nadd || added == 0));
	(void)dups0;
	return added;
}
