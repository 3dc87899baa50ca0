/*
 * hist: bucket formulas. All integer; see hist.h for the slot layout.
 */
#include "hist.h"

#include <string.h>

#define DAY 86400

/* Log2 bucket of a non-negative count: bucket 0 holds 0 and 1. */
static int log2_bucket(uint64_t n) { return n < 2 ? 0 : hist_lg(n); }

int
hist_slot(enum hist_scheme s, int64_t v)
{
	uint64_t u;

	if (v < 0)		/* only ages can be negative: a future time */
		return s == HS_LINEAR8 ? 1 : HIST_UNDER;
	u = (uint64_t)v;
	switch (s) {
	case HS_SIZE:
		return 1 + (u < 2048 ? 0 : hist_lg(u) - 10);
	case HS_BLOCKS:
		return 1 + (u < 4 ? 0 : hist_lg(u) - 1);
	case HS_AGE:
		return 1 + log2_bucket(u / DAY);
	case HS_COUNT:
		return 1 + log2_bucket(u);
	case HS_LINEAR8:
		return u <= 127 ? 1 + (int)(u / 8) : HIST_OVER;
	}
	return HIST_OVER;
}

void
hist_add(struct hist *h, enum hist_scheme s, int64_t v, uint64_t weight)
{
	hist_add_slot(h, hist_slot(s, v), v, weight);
}

/* Widen [*min, *max] to hold v; count: values already held (0: none, so
 * the range is v alone). */
static void
extent_add(int64_t *min, int64_t *max, uint64_t count, int64_t v)
{
	if (count == 0 || v < *min)
		*min = v;
	if (count == 0 || v > *max)
		*max = v;
}

void
hist_add_slot(struct hist *h, int i, int64_t v, uint64_t weight)
{
	extent_add(&h->min, &h->max, h->count, v);
	h->count++;
	h->n[i]++;
	h->w[i] += weight;
	h->v[i] += v;
	h->vw[i] += (i128)v * (i128)weight;
}

uint64_t
hist_total(const struct hist *h)
{
	return h->count;
}

void
hist_merge(struct hist *dst, const struct hist *src)
{
	if (src->count > 0) {
		extent_add(&dst->min, &dst->max, dst->count, src->min);
		extent_add(&dst->min, &dst->max, 1, src->max);
		dst->count += src->count;
	}
	for (int i = 0; i < HIST_NB; i++) {
		dst->n[i] += src->n[i];
		dst->w[i] += src->w[i];
		dst->v[i] += src->v[i];
		dst->vw[i] += src->vw[i];
	}
}

void
phist_add(struct phist *h, enum hist_scheme s, int64_t v, uint64_t weight)
{
	int i = hist_slot(s, v);

	extent_add(&h->min, &h->max, h->count, v);
	h->count++;
	h->n[i]++;
	h->w[i] += weight;
}

void
phist_merge(struct phist *dst, const struct phist *src)
{
	if (src->count > 0) {
		extent_add(&dst->min, &dst->max, dst->count, src->min);
		extent_add(&dst->min, &dst->max, 1, src->max);
		dst->count += src->count;
	}
	for (int i = 0; i < HIST_NB; i++) {
		dst->n[i] += src->n[i];
		dst->w[i] += src->w[i];
	}
}

/* Log2 bucket b covers [lo, 2^(b+1)) where lo is 0 for b = 0, else 2^b. */
static void
log2_bounds(int b, int64_t unit, int64_t *lo, int64_t *hi)
{
	*lo = b == 0 ? 0 : ((int64_t)1 << b) * unit;
	*hi = b >= 62 ? INT64_MAX : ((int64_t)1 << (b + 1)) * unit;
}

void
hist_bounds_base(enum hist_scheme s, int slot, int64_t *lo, int64_t *hi)
{
	int b = slot - 1;

	if (slot == HIST_UNDER) {
		*lo = INT64_MIN;
		*hi = 0;
		return;
	}
	switch (s) {
	case HS_SIZE:
		if (b + 11 >= 63) { *lo = (int64_t)1 << 62; *hi = INT64_MAX; return; }
		*lo = b == 0 ? 0 : (int64_t)1 << (b + 10);
		*hi = (int64_t)1 << (b + 11);
		return;
	case HS_BLOCKS:
		if (b + 2 >= 63) { *lo = (int64_t)1 << 62; *hi = INT64_MAX; return; }
		*lo = b == 0 ? 0 : (int64_t)1 << (b + 1);
		*hi = (int64_t)1 << (b + 2);
		return;
	case HS_AGE:
		if (b >= 46) { *lo = ((int64_t)1 << 46) * DAY; *hi = INT64_MAX; return; }
		log2_bounds(b, DAY, lo, hi);
		return;
	case HS_COUNT:
		log2_bounds(b, 1, lo, hi);
		return;
	case HS_LINEAR8:
		if (slot == HIST_OVER) { *lo = 128; *hi = INT64_MAX; return; }
		*lo = 8 * (int64_t)b;
		*hi = 8 * (int64_t)b + 8;
		return;
	}
}

void
hist_bounds_fsstats(enum hist_scheme s, int slot, int64_t *lo, int64_t *hi)
{
	int b = slot - 1;

	if (slot == HIST_UNDER) {
		*lo = -1;
		*hi = 0;
		return;
	}
	switch (s) {
	case HS_SIZE:
	case HS_BLOCKS:
	case HS_AGE:
		log2_bounds(b, 1, lo, hi);
		return;
	case HS_COUNT:		/* inclusive: [0-1] [2-3] [4-7] */
		log2_bounds(b, 1, lo, hi);
		*hi -= 1;
		return;
	case HS_LINEAR8:
		if (slot == HIST_OVER) { *lo = 127; *hi = -1; return; }
		*lo = 8 * (int64_t)b;
		*hi = 8 * (int64_t)b + 7;
		return;
	}
}

char *
i128_str(i128 v, char buf[41])
{
	char tmp[41];
	int n = 0, neg = v < 0;
	unsigned __int128 u = neg ? -(unsigned __int128)v : (unsigned __int128)v;

	do {
		tmp[n++] = (char)('0' + (int)(u % 10));
		u /= 10;
	} while (u);
	int k = 0;
	if (neg)
		buf[k++] = '-';
	while (n)
		buf[k++] = tmp[--n];
	buf[k] = 0;
	return buf;
}

int
i128_parse(const char *s, i128 *out)
{
	unsigned __int128 u = 0;
	int neg = 0;

	if (*s == '-') {
		neg = 1;
		s++;
	}
	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		u = u * 10 + (unsigned)(*s - '0');
	}
	*out = neg ? (i128)(0 - u) : (i128)u;	/* no overflow at INT128_MIN */
	return 0;
}
