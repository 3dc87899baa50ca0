/*
 * test_hist: bucket formulas, bounds, sums and 128-bit text of lib/hist.
 * Every expected value below was worked out by hand from the fsstats
 * reference (docs/fsstats-compat.md, docs/fsstats-format.md "Bucket schemes"); none is
 * computed with the code under test.
 */
#include <stdint.h>
#include <string.h>

#include "hist.h"
#include "tap.h"

#define DAY 86400LL
#define P2(k) ((i128)1 << (k))

struct slot_case {
	enum hist_scheme s;
	i128 v;
	int slot;
};

static const char *scheme_name[] = {
	[HS_SIZE] = "size", [HS_BLOCKS] = "blocks", [HS_AGE] = "age",
	[HS_COUNT] = "count", [HS_LINEAR8] = "linear8",
};

/* slot = 1 + bucket; bucket per the reference's integer formulas. */
static const struct slot_case slot_cases[] = {
	/* bytes: b = s < 2048 ? 0 : lg(s) - 10 */
	{ HS_SIZE, 0, 1 }, { HS_SIZE, 1, 1 }, { HS_SIZE, 2047, 1 },
	{ HS_SIZE, 2048, 2 }, { HS_SIZE, 2049, 2 }, { HS_SIZE, 4095, 2 },
	{ HS_SIZE, 4096, 3 }, { HS_SIZE, 8191, 3 }, { HS_SIZE, 8192, 4 },
	{ HS_SIZE, 1048575, 10 }, { HS_SIZE, 1048576, 11 },	/* 1 MiB */
	{ HS_SIZE, 1099511627776LL, 31 },			/* 1 TiB */
	{ HS_SIZE, INT64_MAX, 53 }, { HS_SIZE, P2(63), 54 },
	{ HS_SIZE, UINT64_MAX, 54 },
	/* 512-byte blocks: b = n < 4 ? 0 : lg(n) - 1 */
	{ HS_BLOCKS, 0, 1 }, { HS_BLOCKS, 1, 1 },
	{ HS_BLOCKS, 3, 1 },		/* 1.5 KB */
	{ HS_BLOCKS, 4, 2 },		/* 2 KB */
	{ HS_BLOCKS, 7, 2 }, { HS_BLOCKS, 8, 3 }, { HS_BLOCKS, 15, 3 },
	{ HS_BLOCKS, 16, 4 }, { HS_BLOCKS, 2048, 11 },	/* 1 MiB */
	{ HS_BLOCKS, INT64_MAX, 62 }, { HS_BLOCKS, UINT64_MAX, 63 },
	/* seconds: future -> under-min slot 0; d = a / 86400,
	 * b = d < 2 ? 0 : lg(d) */
	{ HS_AGE, -(i128)UINT64_MAX, 0 },	/* INT64_MIN - INT64_MAX */
	{ HS_AGE, INT64_MIN, 0 }, { HS_AGE, -DAY, 0 }, { HS_AGE, -1, 0 },
	{ HS_AGE, 0, 1 }, { HS_AGE, 1, 1 }, { HS_AGE, 86399, 1 },
	{ HS_AGE, DAY, 1 }, { HS_AGE, 2 * DAY - 1, 1 },
	{ HS_AGE, 2 * DAY, 2 }, { HS_AGE, 4 * DAY - 1, 2 },
	{ HS_AGE, 4 * DAY, 3 }, { HS_AGE, 8 * DAY - 1, 3 },
	{ HS_AGE, 8 * DAY, 4 }, { HS_AGE, 365 * DAY, 9 },	/* 256..511 */
	{ HS_AGE, 3039929748475084799LL, 45 },	/* 2^45 days - 1 s */
	{ HS_AGE, 3039929748475084800LL, 46 },	/* 2^45 days */
	{ HS_AGE, INT64_MAX, 47 },	/* 106751991167300 days */
	{ HS_AGE, P2(47) * DAY - 1, 47 }, { HS_AGE, P2(47) * DAY, 48 },
	{ HS_AGE, UINT64_MAX, 48 },	/* INT64_MAX - INT64_MIN */
	/* counts: b = n < 2 ? 0 : lg(n) */
	{ HS_COUNT, 0, 1 }, { HS_COUNT, 1, 1 }, { HS_COUNT, 2, 2 },
	{ HS_COUNT, 3, 2 }, { HS_COUNT, 4, 3 }, { HS_COUNT, 7, 3 },
	{ HS_COUNT, 8, 4 }, { HS_COUNT, 65535, 16 }, { HS_COUNT, 65536, 17 },
	{ HS_COUNT, INT64_MAX, 63 }, { HS_COUNT, UINT64_MAX, 64 },
	/* name bytes: L <= 127 ? L / 8 : overflow */
	{ HS_LINEAR8, 0, 1 }, { HS_LINEAR8, 7, 1 }, { HS_LINEAR8, 8, 2 },
	{ HS_LINEAR8, 15, 2 }, { HS_LINEAR8, 16, 3 }, { HS_LINEAR8, 120, 16 },
	{ HS_LINEAR8, 127, 16 }, { HS_LINEAR8, 128, HIST_OVER },
	{ HS_LINEAR8, 255, HIST_OVER }, { HS_LINEAR8, 4096, HIST_OVER },
	{ HS_LINEAR8, INT64_MAX, HIST_OVER },
};

static void
test_slots(void)
{
	for (size_t i = 0; i < sizeof slot_cases / sizeof slot_cases[0]; i++) {
		const struct slot_case *c = &slot_cases[i];
		char buf[I128_STRLEN];
		is_i64(hist_slot(c->s, c->v), c->slot, "slot %s %s",
		    scheme_name[c->s], i128_str(c->v, buf));
	}
}

/* Around every power of two: 2^k - 1, 2^k, 2^k + 1 for each log scheme. */
static void
test_slot_powers(void)
{
	int bad = 0;

	for (int k = 12; k <= 62; k++) {	/* bytes: 2^k is bucket k-10 */
		int64_t p = (int64_t)1 << k;
		bad += hist_slot(HS_SIZE, p - 1) != 1 + k - 11;
		bad += hist_slot(HS_SIZE, p) != 1 + k - 10;
		bad += hist_slot(HS_SIZE, p + 1) != 1 + k - 10;
	}
	is_i64(bad, 0, "size slots at 2^k-1, 2^k, 2^k+1");
	bad = 0;
	for (int k = 3; k <= 62; k++) {		/* blocks: 2^k is bucket k-1 */
		int64_t p = (int64_t)1 << k;
		bad += hist_slot(HS_BLOCKS, p - 1) != 1 + k - 2;
		bad += hist_slot(HS_BLOCKS, p) != 1 + k - 1;
		bad += hist_slot(HS_BLOCKS, p + 1) != 1 + k - 1;
	}
	is_i64(bad, 0, "block slots at 2^k-1, 2^k, 2^k+1");
	bad = 0;
	for (int k = 2; k <= 62; k++) {		/* counts: 2^k is bucket k */
		int64_t p = (int64_t)1 << k;
		bad += hist_slot(HS_COUNT, p - 1) != 1 + k - 1;
		bad += hist_slot(HS_COUNT, p) != 1 + k;
		bad += hist_slot(HS_COUNT, p + 1) != 1 + k;
	}
	is_i64(bad, 0, "count slots at 2^k-1, 2^k, 2^k+1");
	bad = 0;
	for (int k = 2; k <= 45; k++) {		/* 2^k days is bucket k */
		int64_t p = ((int64_t)1 << k) * DAY;
		bad += hist_slot(HS_AGE, p - 1) != 1 + k - 1;
		bad += hist_slot(HS_AGE, p) != 1 + k;
		bad += hist_slot(HS_AGE, p + 1) != 1 + k;
	}
	is_i64(bad, 0, "age slots at 2^k days -1 s, +0, +1 s");
}

struct bounds_case {
	enum hist_scheme s;
	int slot;
	i128 lo, hi;
};

/* [lo, hi) in base units; the top buckets end past INT64_MAX. */
static const struct bounds_case base_cases[] = {
	{ HS_SIZE, 1, 0, 2048 }, { HS_SIZE, 2, 2048, 4096 },
	{ HS_SIZE, 3, 4096, 8192 }, { HS_SIZE, 11, 1048576, 2097152 },
	{ HS_SIZE, 52, 2305843009213693952LL, 4611686018427387904LL },
	{ HS_SIZE, 53, 4611686018427387904LL, P2(63) },
	{ HS_SIZE, 54, P2(63), P2(64) },
	{ HS_BLOCKS, 1, 0, 4 }, { HS_BLOCKS, 2, 4, 8 }, { HS_BLOCKS, 3, 8, 16 },
	{ HS_BLOCKS, 62, 4611686018427387904LL, P2(63) },
	{ HS_BLOCKS, 63, P2(63), P2(64) },
	{ HS_AGE, 0, INT64_MIN, 0 }, { HS_AGE, 1, 0, 2 * DAY },
	{ HS_AGE, 2, 2 * DAY, 4 * DAY }, { HS_AGE, 3, 4 * DAY, 8 * DAY },
	{ HS_AGE, 9, 256 * DAY, 512 * DAY },
	{ HS_AGE, 46, 3039929748475084800LL, 6079859496950169600LL },
	/* 2^47 days = 12,159,718,993,900,339,200 s */
	{ HS_AGE, 47, 6079859496950169600LL, P2(47) * DAY },
	{ HS_AGE, 48, P2(47) * DAY, P2(48) * DAY },
	{ HS_COUNT, 64, P2(63), P2(64) },
	{ HS_COUNT, 1, 0, 2 }, { HS_COUNT, 2, 2, 4 }, { HS_COUNT, 3, 4, 8 },
	{ HS_COUNT, 17, 65536, 131072 },
	{ HS_LINEAR8, 1, 0, 8 }, { HS_LINEAR8, 2, 8, 16 },
	{ HS_LINEAR8, 16, 120, 128 }, { HS_LINEAR8, HIST_OVER, 128, INT64_MAX },
};

/* As fsstats prints them: half-open KB/days, inclusive counts/lengths. */
static const struct bounds_case fsstats_cases[] = {
	{ HS_SIZE, 1, 0, 2 }, { HS_SIZE, 2, 2, 4 }, { HS_SIZE, 3, 4, 8 },
	{ HS_SIZE, 10, 512, 1024 }, { HS_SIZE, 11, 1024, 2048 },
	{ HS_BLOCKS, 1, 0, 2 }, { HS_BLOCKS, 2, 2, 4 }, { HS_BLOCKS, 3, 4, 8 },
	{ HS_AGE, 0, -1, 0 }, { HS_AGE, 1, 0, 2 }, { HS_AGE, 2, 2, 4 },
	{ HS_AGE, 4, 8, 16 },
	{ HS_COUNT, 1, 0, 1 }, { HS_COUNT, 2, 2, 3 }, { HS_COUNT, 3, 4, 7 },
	{ HS_COUNT, 4, 8, 15 }, { HS_COUNT, 7, 64, 127 },
	{ HS_LINEAR8, 1, 0, 7 }, { HS_LINEAR8, 2, 8, 15 },
	{ HS_LINEAR8, 16, 120, 127 }, { HS_LINEAR8, HIST_OVER, 127, -1 },
};

static int i128_eq(i128 a, i128 b, const char *name);

typedef void (*bounds_fn)(enum hist_scheme, int, i128 *, i128 *);

static void
check_bounds(const char *kind, bounds_fn fn, const struct bounds_case *c,
    size_t n)
{
	char name[64];
	i128 lo, hi;

	for (size_t i = 0; i < n; i++) {
		fn(c[i].s, c[i].slot, &lo, &hi);
		snprintf(name, sizeof name, "%s lo %s slot %d", kind,
		    scheme_name[c[i].s], c[i].slot);
		i128_eq(lo, c[i].lo, name);
		snprintf(name, sizeof name, "%s hi %s slot %d", kind,
		    scheme_name[c[i].s], c[i].slot);
		i128_eq(hi, c[i].hi, name);
	}
}

static void
test_bounds(void)
{
	check_bounds("base", hist_bounds_base, base_cases,
	    sizeof base_cases / sizeof base_cases[0]);
	check_bounds("fsstats", hist_bounds_fsstats, fsstats_cases,
	    sizeof fsstats_cases / sizeof fsstats_cases[0]);
}

/* Every slot_cases value lies inside the base bounds of its slot. */
static void
test_slot_in_bounds(void)
{
	int bad = 0;
	i128 lo, hi;
	char a[I128_STRLEN], b[I128_STRLEN], v[I128_STRLEN];

	for (size_t i = 0; i < sizeof slot_cases / sizeof slot_cases[0]; i++) {
		const struct slot_case *c = &slot_cases[i];
		/* The two rows without an end: lo or hi is a marker. */
		int open_lo = c->slot == HIST_UNDER;
		int open_hi = c->s == HS_LINEAR8 && c->slot == HIST_OVER;
		hist_bounds_base(c->s, c->slot, &lo, &hi);
		if ((c->v < lo && !open_lo) || (c->v >= hi && !open_hi)) {
			printf("# %s %s outside [%s, %s)\n", scheme_name[c->s],
			    i128_str(c->v, v), i128_str(lo, a),
			    i128_str(hi, b));
			bad++;
		}
	}
	is_i64(bad, 0, "values lie within the base bounds of their slot");
}

static int
i128_eq(i128 a, i128 b, const char *name)
{
	char x[41], y[41];
	char why[100];

	snprintf(why, sizeof why, "got %s, want %s", i128_str(a, x), i128_str(b, y));
	return ok_why(a == b, why, "%s", name);
}

/* A 192-bit sum equals a value that fits 128 bits. */
static int
vw_eq(const struct hist_vw *x, i128 want, const char *name)
{
	char a[HIST_VW_STRLEN], b[I128_STRLEN];

	return is_str(hist_vw_str(x, a), i128_str(want, b), "%s", name);
}

static void
test_add(void)
{
	static struct hist h;

	memset(&h, 0, sizeof h);
	is_u64(hist_total(&h), 0, "empty total");
	hist_add(&h, HS_SIZE, 100, 100);
	hist_add(&h, HS_SIZE, 3000, 3000);
	hist_add(&h, HS_SIZE, 2000, 2000);
	is_u64(hist_total(&h), 3, "total after three adds");
	is_u64(h.n[1], 2, "n slot 1 (100, 2000)");
	is_u64(h.n[2], 1, "n slot 2 (3000)");
	is_u64(h.w[1], 2100, "w slot 1");
	i128_eq(h.v[1], 2100, "v slot 1");
	vw_eq(&h.vw[1], 100 * 100 + 2000 * 2000, "vw slot 1");
	vw_eq(&h.vw[2], 9000000, "vw slot 2");
	is_i64(h.min, 100, "min");
	is_i64(h.max, 3000, "max");

	/* A future age goes to slot 0 with negative sums. */
	memset(&h, 0, sizeof h);
	hist_add(&h, HS_AGE, 10 * DAY, 4096);
	hist_add(&h, HS_AGE, -5, 7);
	is_u64(h.n[HIST_UNDER], 1, "future age in under-min slot");
	i128_eq(h.v[HIST_UNDER], -5, "under-min value sum");
	vw_eq(&h.vw[HIST_UNDER], -35, "under-min value*weight");
	vw_eq(&h.vw[4], 10 * DAY * 4096, "10 days * 4096 bytes");
	is_i64(h.min, -5, "min is negative age");
	is_i64(h.max, 10 * DAY, "max age");

	/* Overhead rows are chosen by size, the value is something else. */
	memset(&h, 0, sizeof h);
	hist_add_slot(&h, hist_slot(HS_SIZE, 5000), 3192, 0);
	is_u64(h.n[3], 1, "add_slot puts the value in the given slot");
	i128_eq(h.v[3], 3192, "add_slot value sum");
	is_i64(h.min, 3192, "add_slot min");
	is_i64(h.max, 3192, "add_slot max");
}

/* Extreme products must not overflow: INT64_MAX s x UINT64_MAX bytes. */
static void
test_wide_sums(void)
{
	static struct hist h, one;
	char buf[I128_STRLEN], vbuf[HIST_VW_STRLEN];

	memset(&h, 0, sizeof h);
	hist_add(&h, HS_AGE, INT64_MAX, UINT64_MAX);
	is_str(hist_vw_str(&h.vw[47], vbuf),
	    "170141183460469231704017187605319778305",
	    "vw of INT64_MAX x UINT64_MAX");
	memset(&h, 0, sizeof h);
	hist_add(&h, HS_AGE, INT64_MIN, UINT64_MAX);
	is_str(hist_vw_str(&h.vw[0], vbuf),
	    "-170141183460469231722463931679029329920",
	    "vw of INT64_MIN x UINT64_MAX");

	/* Ages of 65 bits: INT64_MAX - INT64_MIN = 2^64 - 1 s, times
	 * 2^64 - 1 bytes, is (2^64 - 1)^2, past 127 bits; three of them in
	 * one slot, and their negatives in the future row. */
	memset(&h, 0, sizeof h);
	for (int k = 0; k < 3; k++) {
		hist_add(&h, HS_AGE, (i128)UINT64_MAX, UINT64_MAX);
		hist_add(&h, HS_AGE, -(i128)UINT64_MAX, UINT64_MAX);
	}
	is_str(hist_vw_str(&h.vw[48], vbuf),
	    "1020847100762815390279443357853047324675",
	    "vw of 3 x (2^64-1) s x (2^64-1) bytes");
	is_str(hist_vw_str(&h.vw[0], vbuf),
	    "-1020847100762815390279443357853047324675",
	    "vw of 3 x -(2^64-1) s x (2^64-1) bytes");
	is_str(i128_str(h.v[48], buf), "55340232221128654845",
	    "age sum of 3 x (2^64-1) s");
	is_str(i128_str((i128)h.w[48], buf), "55340232221128654845",
	    "bytes of 3 x (2^64-1)");
	is_str(i128_str(h.min, buf), "-18446744073709551615", "min age");
	is_str(i128_str(h.max, buf), "18446744073709551615", "max age");
	ok(hist_vw_double(&h.vw[48]) == 1.0208471007628154e39,
	    "vw as the nearest double");
	one = h;
	hist_merge(&h, &one);
	is_str(hist_vw_str(&h.vw[48], vbuf),
	    "2041694201525630780558886715706094649350", "merged vw doubles");
	is_str(hist_vw_str(&h.vw[0], vbuf),
	    "-2041694201525630780558886715706094649350",
	    "merged negative vw doubles");

	/* 2^30 (~1e9) files, each 1e9 s old and 1e7 bytes: 1e16 bytes in
	 * all, a value*weight sum near 1e25, far past 64 bits. Doubling by
	 * merging a copy 30 times stands for 2^30 adds. */
	memset(&h, 0, sizeof h);
	hist_add(&h, HS_AGE, 1000000000, 10000000);
	for (int i = 0; i < 30; i++) {
		one = h;
		hist_merge(&h, &one);
	}
	int s = hist_slot(HS_AGE, 1000000000);
	is_u64(hist_total(&h), 1073741824, "2^30 files");
	ok(h.w[s] == 10737418240000000ULL, "bytes of 2^30 files");
	is_str(i128_str(h.v[s], buf), "1073741824000000000", "age sum of 2^30 files");
	is_str(hist_vw_str(&h.vw[s], vbuf), "10737418240000000000000000",
	    "age*bytes sum of 2^30 files");
}

/* Adding A then B equals A merged with B, whatever the order. */
static void
test_merge(void)
{
	static struct hist a, b, all, e;
	static const int64_t va[] = { -3 * DAY, 0, 5, 2 * DAY, 100 * DAY };
	static const int64_t vb[] = { 7, 9 * DAY, -1, 40000 * DAY };
	int same;

	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	memset(&all, 0, sizeof all);
	for (size_t i = 0; i < 5; i++) {
		hist_add(&a, HS_AGE, va[i], (uint64_t)i * 1000 + 1);
		hist_add(&all, HS_AGE, va[i], (uint64_t)i * 1000 + 1);
	}
	for (size_t i = 0; i < 4; i++) {
		hist_add(&b, HS_AGE, vb[i], (uint64_t)i * 77);
		hist_add(&all, HS_AGE, vb[i], (uint64_t)i * 77);
	}
	hist_merge(&a, &b);
	same = !memcmp(a.n, all.n, sizeof a.n) && !memcmp(a.w, all.w, sizeof a.w) &&
	    !memcmp(a.v, all.v, sizeof a.v) && !memcmp(a.vw, all.vw, sizeof a.vw);
	ok(same, "merge equals adding both lists");
	is_i64(a.min, -3 * DAY, "merged min");
	is_i64(a.max, 40000 * DAY, "merged max");
	is_u64(hist_total(&a), 9, "merged total");

	/* Into an empty histogram: min/max come from src, not from zeros. */
	memset(&e, 0, sizeof e);
	memset(&b, 0, sizeof b);
	hist_add(&b, HS_COUNT, 5, 0);
	hist_add(&b, HS_COUNT, 9, 0);
	hist_merge(&e, &b);
	is_i64(e.min, 5, "merge into empty takes src min");
	is_i64(e.max, 9, "merge into empty takes src max");

	/* An empty src changes nothing, min/max included. */
	memset(&e, 0, sizeof e);
	hist_merge(&b, &e);
	is_i64(b.min, 5, "merging empty keeps min");
	is_i64(b.max, 9, "merging empty keeps max");
	is_u64(hist_total(&b), 2, "merging empty keeps total");

	static struct phist p, q;
	memset(&p, 0, sizeof p);
	memset(&q, 0, sizeof q);
	p.n[3] = 2; p.w[3] = 10;
	q.n[3] = 5; q.w[3] = 1; q.n[HIST_UNDER] = 1;
	hist_phist_merge(&p, &q);
	ok(p.n[3] == 7 && p.w[3] == 11 && p.n[HIST_UNDER] == 1 && q.n[3] == 5,
	    "phist merge adds slot by slot");

	/* Extremes: hist_phist_add keeps them; a merge takes the wider ones,
	 * and into an empty phist takes src's, not zeros. */
	memset(&p, 0, sizeof p);
	memset(&q, 0, sizeof q);
	hist_phist_add(&p, HS_SIZE, 5000, 5000);
	hist_phist_add(&p, HS_SIZE, 70, 70);
	hist_phist_add(&q, HS_AGE, -7, 1);
	hist_phist_add(&q, HS_AGE, 9 * DAY, 1);
	ok(p.count == 2 && p.min == 70 && p.max == 5000 && p.n[1] == 1 &&
	    p.n[3] == 1 && p.w[3] == 5000,
	    "hist_phist_add counts and keeps extremes");
	ok(q.n[HIST_UNDER] == 1 && q.min == -7 && q.max == 9 * DAY,
	    "hist_phist_add: a future age is the minimum");
	hist_phist_merge(&p, &q);
	ok(p.count == 4 && p.min == -7 && p.max == 9 * DAY,
	    "phist merge widens the extremes");
	memset(&p, 0, sizeof p);
	hist_phist_merge(&p, &q);
	ok(p.count == 2 && p.min == -7 && p.max == 9 * DAY,
	    "phist merge into empty takes src's extremes");
	memset(&q, 0, sizeof q);
	hist_phist_merge(&p, &q);
	ok(p.count == 2 && p.min == -7 && p.max == 9 * DAY,
	    "phist merge of an empty one keeps the extremes");
}

static void
roundtrip(i128 v, const char *text)
{
	char buf[41];
	i128 back = 0;

	is_str(i128_str(v, buf), text, "i128_str %s", text);
	is_i64(i128_parse(text, &back), 0, "i128_parse %s accepted", text);
	i128_eq(back, v, text);	/* name: the text itself */
}

static void
test_i128_text(void)
{
	i128 x = 42;

	roundtrip(0, "0");
	roundtrip(1, "1");
	roundtrip(-1, "-1");
	roundtrip(9, "9");
	roundtrip(10, "10");
	roundtrip(-10, "-10");
	roundtrip((i128)INT64_MAX, "9223372036854775807");
	roundtrip((i128)INT64_MIN, "-9223372036854775808");
	roundtrip((i128)UINT64_MAX + 1, "18446744073709551616");
	roundtrip(-((i128)UINT64_MAX + 1), "-18446744073709551616");
	roundtrip((i128)10000000000LL * 10000000000LL, "100000000000000000000");
	roundtrip(I128_MAX, "170141183460469231731687303715884105727");
	roundtrip(I128_MIN, "-170141183460469231731687303715884105728");

	ok(i128_parse("", &x) != 0, "i128_parse rejects empty");
	ok(i128_parse("-", &x) != 0, "i128_parse rejects lone minus");
	ok(i128_parse("12a", &x) != 0, "i128_parse rejects trailing garbage");
	ok(i128_parse(" 1", &x) != 0, "i128_parse rejects leading space");
	ok(i128_parse("+1", &x) != 0, "i128_parse rejects plus sign");
	ok(i128_parse("170141183460469231731687303715884105728", &x) != 0,
	    "i128_parse rejects 2^127");
	ok(i128_parse("-170141183460469231731687303715884105729", &x) != 0,
	    "i128_parse rejects -2^127 - 1");
	ok(i128_parse("1000000000000000000000000000000000000000000", &x) !=
	    0, "i128_parse rejects 43 digits");
}

int
main(void)
{
	test_slots();
	test_slot_powers();
	test_bounds();
	test_slot_in_bounds();
	test_add();
	test_wide_sums();
	test_merge();
	test_i128_text();
	return tap_end();
}
