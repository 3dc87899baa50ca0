/*
 * hist: exact integer histograms in fsstats' bucket schemes.
 *
 * Every histogram has HIST_NB slots. Slot 0 is the under-minimum row (a
 * timestamp in the future), slots 1..64 hold log2 or linear bucket b = slot-1,
 * and slot HIST_OVER is the overflow row of the linear schemes. Values are
 * kept in base units (bytes, 512-byte blocks, seconds, counts); conversion
 * to KB or days happens only when rendering. docs/fsstats-format.md
 * ("Bucket schemes") gives the formulas.
 */
#ifndef IOCENSUS_HIST_H
#define IOCENSUS_HIST_H

#include <stdint.h>

#include "i128.h"

#define HIST_NB    66
#define HIST_UNDER 0
#define HIST_OVER  65

enum hist_scheme {
	HS_SIZE,	/* bytes, rendered as KB, log2 half-open: [0,2) [2,4) .. KB */
	HS_BLOCKS,	/* 512-byte blocks, rendered as KB, log2 half-open */
	HS_AGE,		/* seconds, rendered as days, log2 half-open, future row */
	HS_COUNT,	/* counts (entries, links), log2 inclusive: [0-1] [2-3] */
	HS_LINEAR8	/* bytes of a name, linear 8 wide 0..127, overflow row */
};

/*
 * A sum of value * weight: a value below 2^73 (an overhead, an age of 65
 * bits) times a weight below 2^64 bytes, over fewer than 2^54 entries,
 * needs 192 bits. Two's complement, least significant limb first.
 */
struct hist_vw {
	uint64_t limb[3];
};
#define HIST_VW_STRLEN 60	/* 58 digits, a sign and the NUL */

/*
 * Full histogram: count, weight (bytes) and two exact value sums.
 * Values are below 2^73 in magnitude (sizes and blocks below 2^64, ages
 * of 65 bits, overheads up to 512 * blocks) and weights below 2^64, so
 * with fewer than 2^54 items (fsscan refuses a scan of more) every sum is
 * exact: w below 2^118, v below 2^127, vw below 2^191.
 */
struct hist {
	uint64_t n[HIST_NB];	/* items */
	u128 w[HIST_NB];	/* sum of weights (file bytes) */
	i128 v[HIST_NB];	/* sum of values */
	struct hist_vw vw[HIST_NB];	/* sum of value * weight */
	i128 min, max;		/* extreme values, valid when count > 0 */
	uint64_t count;		/* items in all slots */
};

/* Lean histogram for per-project tables: count and bytes, and the
 * extremes (the largest file, the oldest age of a project). */
struct phist {
	uint64_t n[HIST_NB];
	u128 w[HIST_NB];
	i128 min, max;		/* extreme values, valid when count > 0 */
	uint64_t count;		/* items in all slots */
};

/* The slot of value v; v below 2^64 in magnitude. */
int hist_slot(enum hist_scheme s, i128 v);
void hist_add(struct hist *h, enum hist_scheme s, i128 v, uint64_t weight);
/* Add value v with weight to a given slot (overhead rows are chosen by size). */
void hist_add_slot(struct hist *h, int slot, i128 v, uint64_t weight);
void hist_merge(struct hist *dst, const struct hist *src);
void hist_phist_add(struct phist *h, enum hist_scheme s, i128 v,
    uint64_t weight);
void hist_phist_merge(struct phist *dst, const struct phist *src);
/* Merge the extremes and count of scount values, smin to smax, into
 * *min, *max and *count: a phist's, or those of a form that keeps its
 * slots elsewhere (fsscan's sparse project distributions). */
void hist_extent_merge(i128 *min, i128 *max, uint64_t *count, i128 smin,
    i128 smax, uint64_t scount);
uint64_t hist_total(const struct hist *h);

/* *dst += *src. */
void hist_vw_add(struct hist_vw *dst, const struct hist_vw *src);
/* Decimal text; buf must hold HIST_VW_STRLEN bytes. */
char *hist_vw_str(const struct hist_vw *x, char buf[HIST_VW_STRLEN]);
/* The nearest double (for the fsstats CSV, which prints doubles). */
double hist_vw_double(const struct hist_vw *x);

/* Bounds of a slot in base units, [lo, hi), exact: the top log2 buckets
 * end beyond INT64_MAX (size 2^63, 2^64; ages 2^47 and 2^48 days). Two
 * rows have no end and carry markers: the future row of HS_AGE (slot 0)
 * is [INT64_MIN, 0) and holds every negative age, and the overflow row
 * of HS_LINEAR8 is [128, INT64_MAX). Used by the stable v_hist view. */
void hist_bounds_base(enum hist_scheme s, int slot, i128 *lo, i128 *hi);

/* Bounds of a slot as fsstats prints them (KB, days, counts, chars). */
void hist_bounds_fsstats(enum hist_scheme s, int slot, i128 *lo, i128 *hi);

/* Floor of log2 for x >= 1. */
static inline int hist_lg(uint64_t x) { return 63 - __builtin_clzll(x); }

#endif
