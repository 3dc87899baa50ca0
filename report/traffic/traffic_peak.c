/*
 * traffic_peak: the peak of an I/O question and exact percent-of-peak
 * comparisons (traffic_int.h).
 */
#include <math.h>
#include <stdio.h>

#include "traffic_int.h"
#include "i128.h"

void
traffic_peak_observed(struct io_peak *p, uint64_t bytes, int64_t t)
{
	*p = (struct io_peak){ .bytes = bytes, .t = t,
	    .mib_s = traffic_mib_s(bytes) };
}

void
traffic_peak_configured(struct io_peak *p, struct xdec mib_s)
{
	*p = (struct io_peak){ .configured = 1, .t = -1, .cfg = mib_s,
	    .mib_s = opts_xdec_value(mib_s) };
}

void
traffic_peak_resolve(const struct minute_series *s, struct xdec configured,
    struct io_peak *p)
{
	uint64_t best = 0;
	int64_t t = -1;

	if (configured.n > 0) {
		traffic_peak_configured(p, configured);
		return;
	}
	for (size_t j = 0; j < s->len; j++) {	/* the rest is NONE */
		uint64_t b = s->rd[j] + s->wr[j];
		if (s->state[j] == MIN_COMPLETE && (t < 0 || b > best)) {
			best = b;
			t = s->t0 + (int64_t)(s->lo + j) * IO_MINUTE_S;
		}
	}
	traffic_peak_observed(p, best, t);
}

const char *
traffic_peak_source(const struct io_peak *p)
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
	u128 l = (u128)bytes * 5 * opts_xdec_pow10(pct.k) *
	    opts_xdec_pow10(peak.k);
	u128 r = (u128)pct.n * peak.n * 3;

	if (r >> LHS_BITS)
		return -1;
	return cmp_u128(l, r << 20);
}

int
traffic_peak_cmp(const struct io_peak *p, uint64_t bytes, struct xdec pct)
{
	if (p->configured)
		return cmp_configured(bytes, pct, p->cfg);
	return cmp_u128((u128)bytes * 100 * opts_xdec_pow10(pct.k),
	    (u128)pct.n * p->bytes);
}

int
traffic_peak_below_pct(const struct io_peak *p, uint64_t bytes, struct xdec pct)
{
	return traffic_peak_cmp(p, bytes, pct) < 0;
}

double
traffic_peak_pct_mib_s(const struct io_peak *p, struct xdec pct)
{
	return opts_xdec_value(pct) / 100 * p->mib_s;
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
traffic_peak_ratio(const struct io_peak *p, uint64_t bytes)
{
	if (p->configured)
		return div_u128((u128)bytes * opts_xdec_pow10(p->cfg.k),
		    (u128)p->cfg.n * IO_MINUTE_S << 20);
	return p->bytes ? div_u128(bytes, p->bytes) : NAN;
}
