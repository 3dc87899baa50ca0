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

/* The plural ending of a count's noun. */
static const char *
plural(uint64_t n)
{
	return n == 1 ? "" : "s";
}

size_t
io_coverage_notes(struct result *r, sqlite3 *db, const struct io_coverage *c)
{
	char a[32], b[32], n[32], m[32], d[32], e[32];

	if (c->complete == 0 && c->partial)
		result_note(r, "No minute of the window is complete across "
		    "every expected device.");
	else if (c->complete == 0)
		result_note(r, "No I/O data in the window.");
	if (c->calendar > 0) {
		/* "1 of 3 days has", "0 of 1 day has", "2 of 3 days have" */
		result_note(r, "Coverage: %s of %s calendar minute%s complete "
		    "(%.2f%%); %s of %s day%s %s no complete minute.",
		    human_uint(c->complete, n, sizeof n),
		    human_uint(c->calendar, m, sizeof m), plural(c->calendar),
		    100 * io_coverage_share(c),
		    human_uint(c->days_empty, d, sizeof d),
		    human_uint(c->days, e, sizeof e),
		    plural(c->days), c->days_empty == 1 || c->days == 1 ?
		    "has" : "have");
		result_note(r, "Window: %s to %s UTC; %zu host%s, %zu device%s.",
		    human_date(c->from, 1, a, sizeof a),
		    human_date(c->to, 1, b, sizeof b), c->nhost,
		    plural(c->nhost), c->ndev, plural(c->ndev));
	}
	if (db) {
		long dirty = io_dirty_hours(db);
		if (dirty > 0)
			result_note(r, "Derived tables are stale for %ld "
			    "hour%s: run iocensus ingest.", dirty,
			    plural((uint64_t)dirty));
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
io_peak_configured(struct io_peak *p, struct xdec mib_s)
{
	*p = (struct io_peak){ .configured = 1, .t = -1, .cfg = mib_s,
	    .mib_s = xdec_value(mib_s) };
}

void
io_peak_resolve(const struct minute_series *s, struct xdec configured,
    struct io_peak *p)
{
	uint64_t best = 0;
	int64_t t = -1;

	if (configured.n > 0) {
		io_peak_configured(p, configured);
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

/*
 * The bounds that keep both sides in 128 bits. pct = a / 10^i is at most
 * 100 with i <= 6 (--threshold, and the fixed 5..90 of the analyses), so
 * a <= 10^8 < 2^27 and 10^i <= 10^6 < 2^20; bytes < 2^64.
 *  - observed Pb < 2^64: bytes * 100 * 10^i < 2^91, a * Pb < 2^91. (Any
 *    struct xdec, a < 2^60, still gives < 2^124.)
 *  - configured b / 10^j MiB/s <= 2^40 with j <= 6 (--peak, --host-peak):
 *    b <= 2^40 * 10^6 < 2^60, so 5 * 10^(i+j) * bytes < 2^3 * 2^40 *
 *    2^64 = 2^107 and 3 * a * b * 2^20 < 2^2 * 2^27 * 2^60 * 2^20 =
 *    2^109. Outside those limits a * b < 2^120 still fits, and a right
 *    side past 2^107 is known to exceed the left one before the shift.
 */
#define LHS_BITS	107

/* sign(bytes - pct/100 * b/10^j * 60 * 2^20) over the rationals:
 * 100 * 10^(i+j) * bytes vs a * b * 60 * 2^20, divided by 20. */
static int
cmp_configured(uint64_t bytes, struct xdec pct, struct xdec peak)
{
	u128 l = (u128)bytes * 5 * xdec_pow10(pct.k) * xdec_pow10(peak.k);
	u128 r = (u128)pct.n * peak.n * 3;

	if (r >> LHS_BITS)
		return -1;
	return cmp_u128(l, r << 20);
}

int
io_peak_cmp(const struct io_peak *p, uint64_t bytes, struct xdec pct)
{
	if (p->configured)
		return cmp_configured(bytes, pct, p->cfg);
	return cmp_u128((u128)bytes * 100 * xdec_pow10(pct.k),
	    (u128)pct.n * p->bytes);
}

int
io_below_pct(const struct io_peak *p, uint64_t bytes, struct xdec pct)
{
	return io_peak_cmp(p, bytes, pct) < 0;
}

double
io_pct_mib_s(const struct io_peak *p, struct xdec pct)
{
	return xdec_value(pct) / 100 * p->mib_s;
}

/* n / d for d < 2^126, correctly rounded: long division grows the
 * quotient to at least 55 bits, a nonzero remainder becomes a sticky
 * low bit below the rounding bit, and the conversion is the one
 * rounding (ldexp is exact: the result is far from subnormal). */
static double
div_u128(u128 n, u128 d)
{
	u128 q = n / d, r = n % d;
	int e = 0;

	if (n == 0)
		return 0;
	while (q >> 54 == 0) {
		q <<= 1;
		r <<= 1;
		if (r >= d) {
			r -= d;
			q |= 1;
		}
		e--;
	}
	return ldexp((double)(q | (r != 0)), e);
}

/* Configured: bytes / (b / 10^j * 60 * 2^20) = bytes * 10^j / (b * 60 *
 * 2^20), both below 2^86 by the bounds above. */
double
io_peak_ratio(const struct io_peak *p, uint64_t bytes)
{
	if (p->configured)
		return div_u128((u128)bytes * xdec_pow10(p->cfg.k),
		    (u128)p->cfg.n * IO_MINUTE_S << 20);
	return p->bytes ? div_u128(bytes, p->bytes) : NAN;
}
