/*
 * traffic_idle: idle periods (docs/analyses.md; Table III of the
 * Intrepid study) and the strict
 * variant ("no disk activity at all").
 *
 * A minute is idle iff it is COMPLETE and X < theta = threshold% of P
 * (exact, traffic_peak_cmp); strictly idle iff COMPLETE, no device completed
 * a request in it and no byte was read or written. A period is a maximal run of such minutes:
 * a busy minute, a missing minute or a minute without expected devices
 * ends it, so missing time is never idle. Durations are run length x
 * 60 s, classed by integer compares against the class edges: a run of
 * exactly 60 minutes is in [1 h, 2 h).
 */
#include <stdio.h>
#include <stdlib.h>

#include "traffic.h"
#include "traffic_int.h"
#include "human.h"
#include "xalloc.h"

/* A duration class [lo, hi); hi < 0: no upper bound. */
struct idle_class {
	int64_t lo, hi;
	int64_t periods, minutes;
};

struct idle_runs {
	size_t nclass;
	struct idle_class *cls;
	int64_t minutes, periods;	/* idle minutes, runs */
	int64_t longest, longest_t;	/* minutes; start, -1 if none */
};

/* Classes from the edges: [e_i, e_i+1) and >= the last edge, and a
 * "< e_0" class first when runs (>= 60 s) can be shorter than e_0. */
static void
runs_init(struct idle_runs *ir, const int64_t *edge, size_t nedge)
{
	size_t k = 0, first = edge[0] > IO_MINUTE_S;

	*ir = (struct idle_runs){ .nclass = nedge + first, .longest_t = -1 };
	ir->cls = xcalloc(ir->nclass, sizeof *ir->cls);
	if (first)
		ir->cls[k++] = (struct idle_class){ .lo = 0, .hi = edge[0] };
	for (size_t i = 0; i < nedge; i++)
		ir->cls[k++] = (struct idle_class){ .lo = edge[i],
		    .hi = i + 1 < nedge ? edge[i + 1] : -1 };
}

/* One run of len minutes starting at t. */
static void
runs_add(struct idle_runs *ir, int64_t len, int64_t t)
{
	int64_t d = len * IO_MINUTE_S;
	size_t k = ir->nclass;

	while (k > 0 && ir->cls[k - 1].lo > d)
		k--;
	if (k > 0) {
		ir->cls[k - 1].periods++;
		ir->cls[k - 1].minutes += len;
	}
	ir->periods++;
	ir->minutes += len;
	if (len > ir->longest) {
		ir->longest = len;
		ir->longest_t = t;
	}
}

enum idle_kind { IDLE_THRESHOLD, IDLE_STRICT };

/* Stored minute j of s. */
static int
is_idle(const struct minute_series *s, size_t j, enum idle_kind kind,
    const struct io_peak *p, struct xdec pct)
{
	if (s->state[j] != MIN_COMPLETE)	/* A1 */
		return 0;
	/* Samples that straddle minutes are split in whole requests and
	 * bytes (floor), so a minute can get a few bytes of a request
	 * counted in its neighbour: it is not "no activity at all". */
	if (kind == IDLE_STRICT)
		return s->ios[j] == 0 && s->rd[j] == 0 && s->wr[j] == 0;
	return traffic_peak_below_pct(p, s->rd[j] + s->wr[j], pct);
}

static void
find_runs(const struct minute_series *s, enum idle_kind kind,
    const struct io_peak *p, struct xdec pct, struct idle_runs *ir)
{
	size_t start = 0;
	int in_run = 0;

	/* A minute not stored is NONE, never idle: no run reaches one. */
	for (size_t j = 0; j <= s->len; j++) {
		int idle = j < s->len && is_idle(s, j, kind, p, pct);
		if (idle && !in_run)
			start = j;
		else if (!idle && in_run)
			runs_add(ir, (int64_t)(j - start),
			    s->t0 + (int64_t)(s->lo + start) * IO_MINUTE_S);
		in_run = idle;
	}
}

/* "90 s", "10 min", "2 h": the largest unit that divides s exactly. */
static void
fmt_edge(int64_t s, char *buf, size_t len)
{
	if (s > 0 && s % 3600 == 0)
		snprintf(buf, len, "%lld h", (long long)(s / 3600));
	else if (s > 0 && s % 60 == 0)
		snprintf(buf, len, "%lld min", (long long)(s / 60));
	else
		snprintf(buf, len, "%lld s", (long long)s);
}

static const struct rcol_spec period_cols[] = {
	{ "class", "Duration", NULL, CF_PLAIN, 0 },
	{ "lo_s", "From", "s", CF_DURATION, 0 },
	{ "hi_s", "Below", "s", CF_DURATION, 0 },
	{ "periods", "Periods", NULL, CF_PLAIN, 0 },
	{ "minutes", "Minutes", "min", CF_PLAIN, 0 },
	{ "share", "Share of observed time", "%", CF_PCT, 2 },
	{ "cum_share", "Cumulative share", "%", CF_PCT, 2 },
	{ "share_at_least", "Share in this class or longer", "%", CF_PCT, 2 },
};

static void
fill_periods(struct rtable *t, const struct idle_runs *ir, size_t n)
{
	int64_t cum = 0, rest = ir->minutes;
	char a[32], b[32], label[80];

	for (size_t k = 0; k < ir->nclass; k++) {
		const struct idle_class *c = &ir->cls[k];
		size_t r = result_row(t);
		fmt_edge(c->lo, a, sizeof a);
		fmt_edge(c->hi, b, sizeof b);
		if (c->hi < 0)
			snprintf(label, sizeof label, ">= %s", a);
		else if (k == 0 && c->lo == 0)
			snprintf(label, sizeof label, "< %s", b);
		else
			snprintf(label, sizeof label, "[%s, %s)", a, b);
		result_set_text(t, r, 0, label);
		result_set_int(t, r, 1, c->lo);
		if (c->hi >= 0)
			result_set_int(t, r, 2, c->hi);
		result_set_int(t, r, 3, c->periods);
		result_set_int(t, r, 4, c->minutes);
		cum += c->minutes;
		result_set_real(t, r, 5, (double)c->minutes / (double)n);
		result_set_real(t, r, 6, (double)cum / (double)n);
		result_set_real(t, r, 7, (double)rest / (double)n);
		rest -= c->minutes;
	}
}

static const struct rcol_spec summary_cols[] = {
	{ "n", "Complete minutes", "min", CF_PLAIN, 0 },
	{ "calendar_minutes", "Calendar minutes", "min", CF_PLAIN, 0 },
	{ "coverage", "Coverage", "%", CF_PCT, 2 },
	{ "peak_mib_s", "Peak P", "MiB/s", CF_PLAIN, 2 },
	{ "peak_source", "Peak source", NULL, CF_PLAIN, 0 },
	{ "peak_t", "Peak minute", NULL, CF_TIME, 0 },
	{ "threshold_pct", "Threshold", "% of P", CF_PLAIN, 2 },
	{ "threshold_mib_s", "Threshold", "MiB/s", CF_PLAIN, 2 },
	{ "idle_minutes", "Idle minutes", "min", CF_PLAIN, 0 },
	{ "idle_share", "Idle share", "%", CF_PCT, 2 },
	{ "idle_periods", "Idle periods", NULL, CF_PLAIN, 0 },
	{ "longest_minutes", "Longest period", "min", CF_MINUTES, 0 },
	{ "longest_t", "Longest period start", NULL, CF_TIME, 0 },
	{ "strict_minutes", "Strictly idle minutes", "min", CF_PLAIN, 0 },
	{ "strict_share", "Strictly idle share", "%", CF_PCT, 2 },
	{ "strict_periods", "Strictly idle periods", NULL, CF_PLAIN, 0 },
	{ "longest_strict_minutes", "Longest strict period", "min",
	    CF_MINUTES, 0 },
	{ "longest_strict_t", "Longest strict period start", NULL, CF_TIME,
	    0 },
};

/* Columns from `col` on: minutes, share, periods, longest, its start. */
static void
put_runs(struct rtable *t, size_t r, int col, const struct idle_runs *ir,
    size_t n)
{
	result_set_int(t, r, col, ir->minutes);
	result_set_real(t, r, col + 1, (double)ir->minutes / (double)n);
	result_set_int(t, r, col + 2, ir->periods);
	if (ir->periods == 0)
		return;
	result_set_int(t, r, col + 3, ir->longest);
	result_set_int(t, r, col + 4, ir->longest_t);
}

static void
fill_summary(struct rtable *t, const struct io_coverage *c,
    const struct io_peak *p, struct xdec pct, const struct idle_runs *idle,
    const struct idle_runs *strict)
{
	size_t r = result_row(t);

	result_set_int(t, r, 0, (int64_t)c->complete);
	result_set_int(t, r, 1, (int64_t)c->calendar);
	result_set_real(t, r, 2, traffic_coverage_share(c));
	result_set_real(t, r, 3, p->mib_s);
	result_set_text(t, r, 4, traffic_peak_source(p));
	if (!p->configured)
		result_set_int(t, r, 5, p->t);
	result_set_real(t, r, 6, opts_xdec_value(pct));
	result_set_real(t, r, 7, traffic_peak_pct_mib_s(p, pct));
	put_runs(t, r, 8, idle, c->complete);
	put_runs(t, r, 13, strict, c->complete);
}

static void
note_longest(struct result *r, const char *what, const struct idle_runs *ir)
{
	char when[32];

	if (ir->periods == 0) {
		result_note(r, "No %s period.", what);
		return;
	}
	human_date(ir->longest_t, 1, when, sizeof when);
	result_note(r, "Longest %s period: %lld minute%s from %s UTC.", what,
	    (long long)ir->longest, ir->longest == 1 ? "" : "s", when);
}

static void
add_notes(struct result *r, const struct io_peak *p, struct xdec pct,
    const struct idle_runs *idle, const struct idle_runs *strict)
{
	char num[32];

	result_note(r, "Idle: a complete minute with X < %s%% of peak = %.3f "
	    "MiB/s (peak %.1f MiB/s, %s). Strictly idle: a complete minute in "
	    "which no device completed a request (reads, writes, discards, "
	    "flushes). Missing minutes end a period and are neither idle nor "
	    "busy; shares are of the complete minutes.",
	    opts_xdec_fmt(pct, num, sizeof num),
	    traffic_peak_pct_mib_s(p, pct), p->mib_s, traffic_peak_source(p));
	note_longest(r, "idle", idle);
	note_longest(r, "strictly idle", strict);
}

static int
check_opts(const struct opts *o, char *err, size_t errlen)
{
	if (o->nidle_edges == 0 || o->idle_edges[0] <= 0) {
		snprintf(err, errlen, "idle classes need positive edges");
		return -1;
	}
	for (size_t i = 1; i < o->nidle_edges; i++)
		if (o->idle_edges[i] <= o->idle_edges[i - 1]) {
			snprintf(err, errlen, "idle class edges must ascend");
			return -1;
		}
	if (o->threshold_pct.k > XDEC_MAX_FRAC) {
		snprintf(err, errlen, "--threshold: at most %d decimals",
		    XDEC_MAX_FRAC);
		return -1;
	}
	return 0;
}

static void
add_figure(struct result *r, size_t table, int strict)
{
	struct rfigure *f = result_figure(r, strict ? "strict_periods" :
	    "idle_periods", FIG_BARS, table, strict ? "Strictly idle periods" :
	    "Idle periods", "Share of the complete minutes spent in idle "
	    "periods of each duration class.", "Duration of the period",
	    "Share of observed time (%)");

	f->xcol = 0;
	f->ycol[0] = 5;
	f->ny = 1;
}

struct result *
traffic_idle(sqlite3 *db, const struct opts *o, char *err, size_t errlen)
{
	struct minute_series s;
	struct io_coverage c;
	struct io_peak p;
	struct idle_runs idle, strict;

	if (check_opts(o, err, errlen) != 0 ||
	    query_minutes_load(db, &o->win, &s, err, errlen) != 0)
		return NULL;
	traffic_coverage_count(&s, &c);
	struct result *r = result_new("idle", "Idle periods");
	size_t ip = o->strict ? 1 : 0, is = o->strict ? 0 : 1;
	for (int k = 0; k < 2; k++)
		result_wide(result_table(r, (size_t)k == ip ? "periods" :
		    "strict_periods", (size_t)k == ip ? "Idle periods (below "
		    "the threshold)" : "Strictly idle periods (no request "
		    "completed)", period_cols, sizeof period_cols /
		    sizeof period_cols[0]), "lo_s,hi_s");
	result_wide(result_table(r, "summary", "Summary", summary_cols,
	    sizeof summary_cols / sizeof summary_cols[0]), "n,"
	    "calendar_minutes,peak_source,peak_t,threshold_pct,idle_minutes,"
	    "longest_t,strict_minutes,strict_periods,longest_strict_minutes,"
	    "longest_strict_t");
	if (traffic_coverage_notes(r, db, &c) > 0) {
		traffic_peak_resolve(&s, o->peak, &p);
		runs_init(&idle, o->idle_edges, o->nidle_edges);
		runs_init(&strict, o->idle_edges, o->nidle_edges);
		find_runs(&s, IDLE_THRESHOLD, &p, o->threshold_pct, &idle);
		find_runs(&s, IDLE_STRICT, &p, XDEC_INT(0), &strict);
		fill_periods(&r->table[ip], &idle, c.complete);
		fill_periods(&r->table[is], &strict, c.complete);
		fill_summary(&r->table[2], &c, &p, o->threshold_pct, &idle,
		    &strict);
		add_notes(r, &p, o->threshold_pct, &idle, &strict);
		add_figure(r, 0, o->strict);
		free(idle.cls);
		free(strict.cls);
	}
	query_minutes_free(&s);
	return r;
}
