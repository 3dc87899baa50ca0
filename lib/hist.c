/*
 * hist: bucket formulas. All integer; see hist.h for the slot layout.
 */
#include "hist.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define DAY 86400

/* Log2 bucket of a non-negative count: bucket 0 holds 0 and 1. */
static int log2_bucket(uint64_t n) { return n < 2 ? 0 : hist_lg(n); }

int
hist_slot(enum hist_scheme s, i128 v)
{
	uint64_t u;

	if (v < 0)		/* only ages can be negative: a future time */
		return s == HS_LINEAR8 ? 1 : HIST_UNDER;
	/* Values stay below 2^64 (hist.h); a larger one goes to the top. */
	u = v >> 64 ? UINT64_MAX : (uint64_t)v;
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
hist_add(struct hist *h, enum hist_scheme s, i128 v, uint64_t weight)
{
	hist_add_slot(h, hist_slot(s, v), v, weight);
}

/* Widen [*min, *max] to hold v; count: values already held (0: none, so
 * the range is v alone). */
static void
extent_add(i128 *min, i128 *max, uint64_t count, i128 v)
{
	if (count == 0 || v < *min)
		*min = v;
	if (count == 0 || v > *max)
		*max = v;
}

void
hist_extent_merge(i128 *min, i128 *max, uint64_t *count, i128 smin, i128 smax,
    uint64_t scount)
{
	if (scount == 0)
		return;
	extent_add(min, max, *count, smin);
	extent_add(min, max, 1, smax);
	*count += scount;
}

static void
vw_negate(struct hist_vw *x)
{
	int carry = 1;

	for (int i = 0; i < 3; i++) {
		x->limb[i] = ~x->limb[i] + (uint64_t)carry;
		carry = carry && x->limb[i] == 0;
	}
}

void
hist_vw_add(struct hist_vw *dst, const struct hist_vw *src)
{
	u128 carry = 0;

	for (int i = 0; i < 3; i++) {
		u128 t = (u128)dst->limb[i] + src->limb[i] + carry;
		dst->limb[i] = (uint64_t)t;
		carry = t >> 64;
	}
}

/* *acc += v * weight: |v| < 2^127 and weight < 2^64 make |product| <
 * 2^191, which 192-bit two's complement holds. */
static void
vw_add_product(struct hist_vw *acc, i128 v, uint64_t weight)
{
	u128 m = v < 0 ? -(u128)v : (u128)v;
	u128 lo = (u128)(uint64_t)m * weight;
	u128 hi = (u128)(uint64_t)(m >> 64) * weight;
	u128 mid = (lo >> 64) + (uint64_t)hi;
	struct hist_vw p = { { (uint64_t)lo, (uint64_t)mid,
	    (uint64_t)((mid >> 64) + (hi >> 64)) } };

	if (v == 0 || weight == 0)
		return;
	if (v < 0)
		vw_negate(&p);
	hist_vw_add(acc, &p);
}

char *
hist_vw_str(const struct hist_vw *x, char buf[HIST_VW_STRLEN])
{
	static const uint64_t e19 = 10000000000000000000ull;
	struct hist_vw m = *x;
	uint64_t part[4];
	int neg = m.limb[2] >> 63, n = 0, k = 0;

	if (neg)
		vw_negate(&m);
	/* Base 10^19 digits, least significant first, by long division. */
	do {
		u128 r = 0;
		for (int i = 2; i >= 0; i--) {
			u128 cur = r << 64 | m.limb[i];
			m.limb[i] = (uint64_t)(cur / e19);
			r = cur % e19;
		}
		part[n++] = (uint64_t)r;
	} while (m.limb[0] | m.limb[1] | m.limb[2]);
	if (neg)
		buf[k++] = '-';
	k += snprintf(buf + k, (size_t)(HIST_VW_STRLEN - k), "%" PRIu64,
	    part[--n]);
	while (n)
		k += snprintf(buf + k, (size_t)(HIST_VW_STRLEN - k), "%019"
		    PRIu64, part[--n]);
	return buf;
}

double
hist_vw_double(const struct hist_vw *x)
{
	struct hist_vw m = *x;
	int neg = m.limb[2] >> 63;
	double d;

	if (neg)
		vw_negate(&m);
	/* Below 2^128 one conversion rounds once, as (double) of an i128
	 * does; above it the low limb is far below half a unit. */
	if (m.limb[2] == 0)
		d = (double)((u128)m.limb[1] << 64 | m.limb[0]);
	else
		d = ldexp((double)((u128)m.limb[2] << 64 | m.limb[1]), 64);
	return neg ? -d : d;
}

void
hist_add_slot(struct hist *h, int i, i128 v, uint64_t weight)
{
	extent_add(&h->min, &h->max, h->count, v);
	h->count++;
	h->n[i]++;
	h->w[i] += weight;
	h->v[i] += v;
	vw_add_product(&h->vw[i], v, weight);
}

uint64_t
hist_total(const struct hist *h)
{
	return h->count;
}

void
hist_merge(struct hist *dst, const struct hist *src)
{
	hist_extent_merge(&dst->min, &dst->max, &dst->count, src->min, src->max,
	    src->count);
	for (int i = 0; i < HIST_NB; i++) {
		dst->n[i] += src->n[i];
		dst->w[i] += src->w[i];
		dst->v[i] += src->v[i];
		hist_vw_add(&dst->vw[i], &src->vw[i]);
	}
}

void
hist_phist_add(struct phist *h, enum hist_scheme s, i128 v, uint64_t weight)
{
	int i = hist_slot(s, v);

	extent_add(&h->min, &h->max, h->count, v);
	h->count++;
	h->n[i]++;
	h->w[i] += weight;
}

void
hist_phist_merge(struct phist *dst, const struct phist *src)
{
	hist_extent_merge(&dst->min, &dst->max, &dst->count, src->min, src->max,
	    src->count);
	for (int i = 0; i < HIST_NB; i++) {
		dst->n[i] += src->n[i];
		dst->w[i] += src->w[i];
	}
}

/* Log2 bucket b covers [lo, 2^(b+1)) * unit, where lo is 0 for b = 0,
 * else 2^b * unit; exact in 128 bits for every bucket a value below 2^64
 * can reach. */
static void
log2_bounds(int b, i128 unit, i128 *lo, i128 *hi)
{
	*lo = b == 0 ? 0 : ((i128)1 << b) * unit;
	*hi = ((i128)1 << (b + 1)) * unit;
}

void
hist_bounds_base(enum hist_scheme s, int slot, i128 *lo, i128 *hi)
{
	int b = slot - 1;

	if (slot == HIST_UNDER) {
		*lo = INT64_MIN;	/* marker: every negative age */
		*hi = 0;
		return;
	}
	switch (s) {
	case HS_SIZE:		/* [0, 2^11), then [2^(b+10), 2^(b+11)) */
		log2_bounds(b + 10, 1, lo, hi);
		if (b == 0)
			*lo = 0;
		return;
	case HS_BLOCKS:		/* [0, 4), then [2^(b+1), 2^(b+2)) */
		log2_bounds(b + 1, 1, lo, hi);
		if (b == 0)
			*lo = 0;
		return;
	case HS_AGE:
		log2_bounds(b, DAY, lo, hi);
		return;
	case HS_COUNT:
		log2_bounds(b, 1, lo, hi);
		return;
	case HS_LINEAR8:
		if (slot == HIST_OVER) { *lo = 128; *hi = INT64_MAX; return; }
		*lo = 8 * (i128)b;
		*hi = 8 * (i128)b + 8;
		return;
	}
}

void
hist_bounds_fsstats(enum hist_scheme s, int slot, i128 *lo, i128 *hi)
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
		*lo = 8 * (i128)b;
		*hi = 8 * (i128)b + 7;
		return;
	}
}
