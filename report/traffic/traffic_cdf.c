/*
 * traffic_cdf: the CDF of aggregate throughput over one-minute intervals
 * (docs/analyses.md; Fig. 7 of the Intrepid study): mean, peak, nearest-rank quantiles and
 * the share of time below f% of the peak.
 *
 * X(m) is kept as integer bytes per complete minute, sorted. Quantiles
 * and plot points use integer ranks ceil(k * n / 1000), so no rounding
 * decides which minute a quantile is; "below f% of peak" goes through
 * traffic_peak_cmp (exact), F(x) counts X <= x on integers.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>

#include "traffic.h"
#include "traffic_int.h"
#include "human.h"
#include "xalloc.h"
#include "i128.h"

/* f of the study's B(f) table, in percent. */
static const uint64_t below_pct[] = { 5, 10, 25, 33, 50, 75 };
/* The share of the summary and the study's sentence: below 33% of P. */
#define SENTENCE_PCT	XDEC_INT(33)
/* Quantiles as per-mille ranks: 0.5, 0.9, 0.95, 0.99, 0.999. */
static const int quantile_pm[] = { 500, 900, 950, 990, 999 };
#define CDF_POINTS 1000

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* The bytes of the complete minutes, ascending; *sum gets their total. */
static uint64_t *
sorted_minutes(const struct minute_series *s, size_t n, u128 *sum)
{
	uint64_t *x = xreallocarray(NULL, n ? n : 1, sizeof *x);
	size_t k = 0;

	*sum = 0;
	for (size_t j = 0; j < s->len; j++)	/* the rest is NONE */
		if (s->state[j] == MIN_COMPLETE) {	/* A1 */
			x[k] = s->rd[j] + s->wr[j];
			*sum += x[k++];
		}
	assert(k == n);	/* A1: the complete minutes, and no other */
	qsort(x, n, sizeof *x, cmp_u64);
	return x;
}

/* Nearest rank of per-mille p among n values, 1-based: ceil(p n / 1000),
 * at least 1. */
static size_t
rank_pm(int pm, size_t n)
{
	size_t r = ((u128)pm * n + 999) / 1000;

	return r ? r : 1;
}

/* Values <= x[i]: one past the last index holding x[i]. */
static size_t
count_le(const uint64_t *x, size_t n, size_t i)
{
	while (i + 1 < n && x[i + 1] == x[i])
		i++;
	return i + 1;
}

/* Values < pct% of P (x ascending, so the first one not below ends it). */
static size_t
count_below(const uint64_t *x, size_t n, const struct io_peak *p,
    struct xdec pct)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (traffic_peak_below_pct(p, x[mid], pct))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static const struct rcol_spec summary_cols[] = {
	{ "n", "Complete minutes", "min", CF_PLAIN, 0 },
	{ "calendar_minutes", "Calendar minutes", "min", CF_PLAIN, 0 },
	{ "coverage", "Coverage", "%", CF_PCT, 2 },
	{ "mean_mib_s", "Mean", "MiB/s", CF_PLAIN, 2 },
	{ "peak_mib_s", "Peak P", "MiB/s", CF_PLAIN, 2 },
	{ "peak_source", "Peak source", NULL, CF_PLAIN, 0 },
	{ "peak_t", "Peak minute", NULL, CF_TIME, 0 },
	{ "mean_share_of_peak", "Mean / P", "%", CF_PCT, 2 },
	{ "median_mib_s", "Median", "MiB/s", CF_PLAIN, 2 },
	{ "max_mib_s", "Observed maximum", "MiB/s", CF_PLAIN, 2 },
	{ "below_33_share", "Time below 33% of P", "%", CF_PCT, 2 },
	{ "total_bytes", "Bytes moved", "B", CF_BYTES, 2 },
};

static const struct rcol_spec below_cols[] = {
	{ "f_pct", "f", "% of P", CF_PLAIN, 0 },
	{ "threshold_mib_s", "f x P", "MiB/s", CF_PLAIN, 2 },
	{ "minutes", "Minutes below", "min", CF_PLAIN, 0 },
	{ "share", "Share of time below", "%", CF_PCT, 2 },
};

static const struct rcol_spec quantile_cols[] = {
	{ "p", "p", NULL, CF_PLAIN, 3 },
	{ "rank", "Rank", NULL, CF_PLAIN, 0 },
	{ "bytes", "Bytes in the minute", "B", CF_BYTES, 2 },
	{ "mib_s", "X", "MiB/s", CF_PLAIN, 2 },
};

static const struct rcol_spec cdf_cols[] = {
	{ "mib_s", "X", "MiB/s", CF_PLAIN, 2 },
	{ "bytes", "Bytes in the minute", "B", CF_BYTES, 2 },
	{ "minutes", "Minutes with X <= x", "min", CF_PLAIN, 0 },
	{ "f", "F(x)", "%", CF_PCT, 2 },
};

static void
fill_summary(struct rtable *t, const struct io_coverage *c,
    const struct io_peak *p, const uint64_t *x, size_t n, u128 sum,
    double mean)
{
	size_t r = result_row(t);

	result_set_int(t, r, 0, (int64_t)n);
	result_set_int(t, r, 1, (int64_t)c->calendar);
	result_set_real(t, r, 2, traffic_coverage_share(c));
	result_set_real(t, r, 3, mean);
	result_set_real(t, r, 4, p->mib_s);
	result_set_text(t, r, 5, traffic_peak_source(p));
	if (!p->configured)
		result_set_int(t, r, 6, p->t);
	if (p->mib_s > 0)
		result_set_real(t, r, 7, mean / p->mib_s);
	result_set_real(t, r, 8, traffic_mib_s(x[rank_pm(500, n) - 1]));
	result_set_real(t, r, 9, traffic_mib_s(x[n - 1]));
	result_set_real(t, r, 10, (double)count_below(x, n, p, SENTENCE_PCT) /
	    (double)n);
	result_set_uint(t, r, 11, (uint64_t)sum);
}

static void
fill_below(struct rtable *t, const struct io_peak *p, const uint64_t *x,
    size_t n)
{
	for (size_t i = 0; i < sizeof below_pct / sizeof below_pct[0]; i++) {
		struct xdec f = XDEC_INT(below_pct[i]);
		size_t r = result_row(t), k = count_below(x, n, p, f);
		result_set_real(t, r, 0, opts_xdec_value(f));
		result_set_real(t, r, 1, traffic_peak_pct_mib_s(p, f));
		result_set_int(t, r, 2, (int64_t)k);
		result_set_real(t, r, 3, (double)k / (double)n);
	}
}

static void
fill_quantiles(struct rtable *t, const uint64_t *x, size_t n)
{
	for (size_t i = 0; i < sizeof quantile_pm / sizeof quantile_pm[0];
	    i++) {
		size_t r = result_row(t), k = rank_pm(quantile_pm[i], n);
		result_set_real(t, r, 0, quantile_pm[i] / 1000.0);
		result_set_int(t, r, 1, (int64_t)k);
		result_set_uint(t, r, 2, x[k - 1]);
		result_set_real(t, r, 3, traffic_mib_s(x[k - 1]));
	}
}

/* The plot points: x = q_(k/1000) for k = 0..1000 (k = 0 is the minimum),
 * one row per distinct value, F(x) = share of minutes with X <= x. */
static void
fill_cdf(struct rtable *t, const uint64_t *x, size_t n)
{
	size_t last = n;	/* index of the previous point */

	for (int k = 0; k <= CDF_POINTS; k++) {
		size_t i = rank_pm(k, n) - 1;
		if (last < n && x[i] == x[last])
			continue;
		size_t le = count_le(x, n, i), r = result_row(t);
		result_set_real(t, r, 0, traffic_mib_s(x[i]));
		result_set_uint(t, r, 1, x[i]);
		result_set_int(t, r, 2, (int64_t)le);
		result_set_real(t, r, 3, (double)le / (double)n);
		last = i;
	}
}

static void
add_notes(struct result *r, const struct io_peak *p, const uint64_t *x,
    size_t n, double mean)
{
	double b33 = 100.0 * (double)count_below(x, n, p, SENTENCE_PCT) /
	    (double)n;
	char rel[64] = "", f[32], pk[32], mn[32], cnt[32];

	if (p->mib_s > 0)
		snprintf(rel, sizeof rel, " = %.1f%% of peak", 100 * mean /
		    p->mib_s);
	result_note(r, "%.1f%% of the time below 33%% of peak bandwidth "
	    "(%s MiB/s, peak %s MiB/s %s); mean %s MiB/s%s.", b33,
	    human_real(traffic_peak_pct_mib_s(p, SENTENCE_PCT), 1, f, sizeof f),
	    human_real(p->mib_s, 1, pk, sizeof pk), traffic_peak_source(p),
	    human_real(mean, 1, mn, sizeof mn), rel);
	if (p->configured && traffic_mib_s(x[n - 1]) > p->mib_s)
		result_note(r, "The observed maximum, %.1f MiB/s, exceeds the "
		    "configured peak.", traffic_mib_s(x[n - 1]));
	result_note(r, "Mean, peak, quantiles and shares are over the %s "
	    "complete minute%s. Quantiles use the nearest rank q_p = "
	    "X_(ceil(p n)); \"below\" is strict (<), the CDF counts X <= x.",
	    human_uint(n, cnt, sizeof cnt), n == 1 ? "" : "s");
}

static void
add_figure(struct result *r, const struct io_peak *p)
{
	char cap[256];
	struct rfigure *f;

	snprintf(cap, sizeof cap, "Share of complete one-minute intervals "
	    "with aggregate throughput at most x (linear x axis, as the "
	    "study's Fig. 7); peak P = %.1f MiB/s (%s).", p->mib_s,
	    traffic_peak_source(p));
	f = result_figure(r, "cdf", FIG_STEP, 3, "Throughput CDF", cap,
	    "Aggregate throughput per minute (MiB/s)", "Share of minutes (%)");
	f->xcol = 0;
	f->ycol[0] = 3;
	f->ny = 1;
}

struct result *
traffic_cdf(sqlite3 *db, const struct opts *o, char *err, size_t errlen)
{
	struct minute_series s;
	struct io_coverage c;
	struct io_peak p;
	u128 sum;

	if (query_minutes_load(db, &o->win, &s, err, errlen) != 0)
		return NULL;
	traffic_coverage_count(&s, &c);
	struct result *r = result_new("cdf",
	    "Throughput CDF over one-minute intervals");
	result_wide(result_table(r, "summary", "Summary", summary_cols,
	    sizeof summary_cols / sizeof summary_cols[0]),
	    "n,calendar_minutes,peak_source,peak_t");
	result_table(r, "below_peak", "Time below f% of peak", below_cols,
	    sizeof below_cols / sizeof below_cols[0]);
	result_table(r, "quantiles", "Quantiles (nearest rank)",
	    quantile_cols, sizeof quantile_cols / sizeof quantile_cols[0]);
	result_table(r, "cdf", "CDF points", cdf_cols,
	    sizeof cdf_cols / sizeof cdf_cols[0])->detail = 1;
	size_t n = traffic_coverage_notes(r, db, &c);
	if (n > 0) {
		uint64_t *x = sorted_minutes(&s, n, &sum);
		double mean = traffic_mean_mib_s((double)sum, (double)n);

		traffic_peak_resolve(&s, o->peak, &p);
		fill_summary(&r->table[0], &c, &p, x, n, sum, mean);
		fill_below(&r->table[1], &p, x, n);
		fill_quantiles(&r->table[2], x, n);
		fill_cdf(&r->table[3], x, n);
		add_notes(r, &p, x, n, mean);
		add_figure(r, &p);
		free(x);
	}
	query_minutes_free(&s);
	return r;
}
