/*
 * coverage: coverage notes, the peak and exact percent-of-peak
 * comparisons shared by every I/O analysis (coverage.h).
 */
#include <math.h>
#include <stdio.h>

#include "coverage.h"
#include "floordiv.h"
#include "humanfmt.h"
#include "rollup.h"

typedef unsigned __int128 u128;

double
io_mib_s(uint64_t bytes_per_minute)
{
	return (double)bytes_per_minute / IO_MINUTE_S / IO_MIB;
}

double
io_mean_mib_s(double bytes, double minutes)
{
	return bytes / minutes / IO_MINUTE_S / IO_MIB;
}

int64_t
io_align(int64_t t, int64_t width)
{
	return floor_div64(t, width) * width;
}

/* The UTC day of unix second t. */
static int64_t
day_of(int64_t t)
{
	return io_align(t, IO_DAY_S) / IO_DAY_S;
}

void
io_coverage_count(const struct minute_series *s, struct io_coverage *c)
{
	*c = (struct io_coverage){ .from = s->t0,
	    .to = s->t0 + (int64_t)s->n * IO_MINUTE_S, .calendar = s->n,
	    .nhost = s->nhost, .ndev = s->ndev };
	if (s->n == 0)
		return;
	int64_t first = day_of(s->t0), day = first;
	size_t in_day = 0;	/* complete minutes of `day` */

	c->days = (size_t)(day_of(c->to - 1) - first + 1);
	for (size_t i = 0; i < s->n; i++) {
		int64_t d = day_of(s->t0 + (int64_t)i * IO_MINUTE_S);
		if (d != day) {
			c->days_empty += in_day == 0;
			day = d;
			in_day = 0;
		}
		if (s->state[i] == MIN_COMPLETE) {
			c->complete++;
			in_day++;
		} else if (s->state[i] == MIN_MISSING)
			c->missing++;
	}
	c->days_empty += in_day == 0;
}

double
io_coverage_share(const struct io_coverage *c)
{
	return c->calendar ? (double)c->complete / (double)c->calendar : 0;
}

size_t
io_coverage_notes(struct result *r, sqlite3 *db, const struct io_coverage *c)
{
	char a[32], b[32];

	if (c->complete == 0)
		result_note(r, "No I/O data in the window.");
	if (c->calendar > 0) {
		result_note(r, "Coverage: %zu of %zu calendar minutes complete "
		    "(%.2f%%); %zu of %zu days have no complete minute.",
		    c->complete, c->calendar, 100 * io_coverage_share(c),
		    c->days_empty, c->days);
		result_note(r, "Window: %s to %s UTC; %zu hosts, %zu devices.",
		    human_date(c->from, 1, a, sizeof a),
		    human_date(c->to, 1, b, sizeof b), c->nhost, c->ndev);
	}
	if (db) {
		long dirty = io_dirty_hours(db);
		if (dirty > 0)
			result_note(r, "Derived tables are stale for %ld "
			    "hours: run iocensus ingest.", dirty);
	}
	return c->complete;
}

void
io_peak_observed(struct io_peak *p, uint64_t bytes, int64_t t)
{
	*p = (struct io_peak){ .bytes = bytes, .t = t,
	    .mib_s = io_mib_s(bytes) };
}

void
io_peak_configured(struct io_peak *p, double mib_s)
{
	*p = (struct io_peak){ .configured = 1, .t = -1, .mib_s = mib_s };
}

void
io_peak_resolve(const struct minute_series *s, double configured_mib_s,
    struct io_peak *p)
{
	uint64_t best = 0;
	int64_t t = -1;

	if (configured_mib_s > 0) {
		io_peak_configured(p, configured_mib_s);
		return;
	}
	for (size_t i = 0; i < s->n; i++) {
		uint64_t b = s->rd[i] + s->wr[i];
		if (s->state[i] == MIN_COMPLETE && (t < 0 || b > best)) {
			best = b;
			t = s->t0 + (int64_t)i * IO_MINUTE_S;
		}
	}
	io_peak_observed(p, best, t);
}

const char *
io_peak_source(const struct io_peak *p)
{
	return p->configured ? "configured" : "observed";
}

static int
cmp_u128(u128 a, u128 b)
{
	return (a > b) - (a < b);
}

static int
bitlen(u128 v)
{
	int n = 0;

	while (v) {
		v >>= 1;
		n++;
	}
	return n;
}

/* d >= 0 finite as m * 2^e with m a 53-bit integer. */
static uint64_t
mantissa(double d, int *e)
{
	int x;
	double f = frexp(d, &x);

	*e = x - 53;
	return (uint64_t)ldexp(f, 53);
}

/* sign(bytes - pct/100 * mib_s * 60 * 2^20) over the rationals:
 * 100 b < pct * peak * 60 * 2^20  <=>  5 b < 3 * pct * peak * 2^20. */
static int
cmp_configured(uint64_t bytes, double pct, double mib_s)
{
	int e1, e2;
	u128 l = (u128)bytes * 5;
	u128 r = (u128)mantissa(pct, &e1) * mantissa(mib_s, &e2) * 3;
	int e = e1 + e2 + 20;

	if (r == 0 || l == 0)
		return cmp_u128(l, r);
	if (e >= 0) {
		if (e >= 128 - bitlen(r))
			return -1;	/* r * 2^e >= 2^127 > l */
		r <<= e;
	} else {
		if (-e >= 128 - bitlen(l))
			return 1;
		l <<= -e;
	}
	return cmp_u128(l, r);
}

int
io_peak_cmp(const struct io_peak *p, uint64_t bytes, double pct)
{
	if (!(pct > 0))
		pct = 0;
	if (p->configured)
		return cmp_configured(bytes, pct, p->mib_s);
	if (pct * 100 >= 0x1p62)
		return p->bytes ? -1 : cmp_u128(bytes, 0);
	u128 fx100 = (u128)(uint64_t)floor(pct * 100 + 0.5);
	return cmp_u128((u128)bytes * 10000, fx100 * p->bytes);
}

int
io_below_pct(const struct io_peak *p, uint64_t bytes, double pct)
{
	return io_peak_cmp(p, bytes, pct) < 0;
}

double
io_pct_mib_s(const struct io_peak *p, double pct)
{
	return pct / 100 * p->mib_s;
}
