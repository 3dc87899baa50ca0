/*
 * hist: exact integer histograms in fsstats' bucket schemes.
 *
 * Every histogram has HIST_NB slots. Slot 0 is the under-minimum row (a
 * timestamp in the future), slots 1..64 hold log2 or linear bucket b = slot-1,
 * and slot HIST_OVER is the overflow row of the linear schemes. Values are
 * kept in base units (bytes, 512-byte blocks, seconds, counts); conversion
 * to KB or days happens only when rendering. See docs/ and
 * the fsstats reference for the formulas.
 */
#ifndef IOCENSUS_HIST_H
#define IOCENSUS_HIST_H

#include <stdint.h>

#define HIST_NB    66
#define HIST_UNDER 0
#define HIST_OVER  65

typedef __int128 i128;

enum hist_scheme {
	HS_SIZE,	/* bytes, rendered as KB, log2 half-open: [0,2) [2,4) .. KB */
	HS_BLOCKS,	/* 512-byte blocks, rendered as KB, log2 half-open */
	HS_AGE,		/* seconds, rendered as days, log2 half-open, future row */
	HS_COUNT,	/* counts (entries, links), log2 inclusive: [0-1] [2-3] */
	HS_LINEAR8	/* bytes of a name, linear 8 wide 0..127, overflow row */
};

/* Full histogram: count, weight (bytes) and two 128-bit value sums. */
struct hist {
	uint64_t n[HIST_NB];	/* items */
	uint64_t w[HIST_NB];	/* sum of weights (file bytes) */
	i128 v[HIST_NB];	/* sum of values */
	i128 vw[HIST_NB];	/* sum of value * weight */
	int64_t min, max;	/* extreme values, valid when count > 0 */
	uint64_t count;		/* items in all slots */
};

/* Lean histogram for per-project tables: count and bytes, and the
 * extremes (the largest file, the oldest age of a project). */
struct phist {
	uint64_t n[HIST_NB];
	uint64_t w[HIST_NB];
	int64_t min, max;	/* extreme values, valid when count > 0 */
	uint64_t count;		/* items in all slots */
};

int hist_slot(enum hist_scheme s, int64_t v);
void hist_add(struct hist *h, enum hist_scheme s, int64_t v, uint64_t weight);
/* Add value v with weight to a given slot (overhead rows are chosen by size). */
void hist_add_slot(struct hist *h, int slot, int64_t v, uint64_t weight);
void hist_merge(struct hist *dst, const struct hist *src);
void phist_add(struct phist *h, enum hist_scheme s, int64_t v,
    uint64_t weight);
void phist_merge(struct phist *dst, const struct phist *src);
uint64_t hist_total(const struct hist *h);

/* Bounds of a slot in base units, [lo, hi); slot 0 of HS_AGE is
 * [INT64_MIN, 0). Used by the stable v_hist view. */
void hist_bounds_base(enum hist_scheme s, int slot, int64_t *lo, int64_t *hi);

/* Bounds of a slot as fsstats prints them (KB, days, counts, chars). */
void hist_bounds_fsstats(enum hist_scheme s, int slot, int64_t *lo, int64_t *hi);

/* Floor of log2 for x >= 1. */
static inline int hist_lg(uint64_t x) { return 63 - __builtin_clzll(x); }

/* Decimal text of a signed 128-bit integer; buf must hold 41 bytes. */
char *i128_str(i128 v, char buf[41]);
/* Parse what i128_str wrote; returns 0 on success. */
int i128_parse(const char *s, i128 *out);

#endif
