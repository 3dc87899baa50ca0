/*
 * traffic_health_cmp: the hour of each member of a group against the
 * other members' (docs/analyses.md, "Device health").
 *
 * A member's hour is busy when it has HEALTH_BUSY_MINUTES valid minutes
 * and HEALTH_BUSY_IOS reads and writes: fewer requests make a mean time
 * that a few slow ones decide. Of a group's busy members, those alike
 * are compared: their requests and their mean request size within a
 * factor of HEALTH_SIMILAR of the group's medians. A member that queues
 * far more requests, or moves far larger ones, takes longer per request
 * without being slower, and one that does far less says little: they
 * are not compared that hour. Each alike member's ratios are its time
 * per read, per write and per byte over the median of the other alike
 * members' (a direction with fewer than HEALTH_DIR_IOS requests, fewer
 * than HEALTH_MIN_PEERS others with a value, or a median of 0 gives
 * none); its slowness is the least of them, so an hour counts as slow
 * only when every measure says so. Per hour and group: sorts of the
 * group's values, O(n log n), however many members.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "traffic_health_int.h"
#include "traffic_int.h"

static double
per(uint64_t num, uint64_t den)
{
	return den ? (double)num / (double)den : NAN;
}

void
traffic_health_cmp_dev(struct health_hour *h, const struct devh_row *r)
{
	uint64_t nios = r->rd_ios + r->wr_ios;
	uint64_t bytes = r->rd_bytes + r->wr_bytes;

	h->busy = r->minutes >= HEALTH_BUSY_MINUTES &&
	    nios >= HEALTH_BUSY_IOS && bytes > 0;
	h->v[HM_RD] = r->rd_ios >= HEALTH_DIR_IOS ? per(r->rd_ms, r->rd_ios) :
	    NAN;
	h->v[HM_WR] = r->wr_ios >= HEALTH_DIR_IOS ? per(r->wr_ms, r->wr_ios) :
	    NAN;
	h->v[HM_TPB] = bytes ? (double)(r->rd_ms + r->wr_ms) / (double)bytes *
	    IO_MIB : NAN;
	h->v[HM_AWAIT] = per(r->rd_ms + r->wr_ms, nios);
	h->v[HM_IOS] = (double)nios;
	h->v[HM_SIZE] = per(bytes, nios);
	h->ms = r->rd_ms + r->wr_ms;
	h->nios = nios;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Measure k of the busy members that have it, sorted, into v; NaN
 * values and idle members left out. Returns how many. */
static size_t
sorted(const struct health_hour *const *m, size_t n, int k, double *v)
{
	size_t nv = 0;

	for (size_t i = 0; i < n; i++)
		if (m[i]->busy && !isnan(m[i]->v[k]))
			v[nv++] = m[i]->v[k];
	qsort(v, nv, sizeof *v, cmp_double);
	return nv;
}

/* The median of sorted v[0..n) (n > 0): the middle value, or the mean of
 * the two middle ones. */
static double
median(const double *v, size_t n)
{
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void
traffic_health_cmp_group(struct health_hour *h,
    const struct health_hour *const *m, size_t n, double *tmp)
{
	*h = (struct health_hour){ 0 };
	for (size_t i = 0; i < n; i++)
		if (m[i]->busy) {
			h->busy = 1;
			h->ms += m[i]->ms;
			h->nios += m[i]->nios;
		}
	for (int k = 0; k < HM_N; k++) {
		size_t nv = sorted(m, n, k, tmp);

		h->v[k] = nv ? median(tmp, nv) : NAN;
	}
}

/* Is x within a factor of HEALTH_SIMILAR of y? */
static int
similar(double x, double y)
{
	return x * HEALTH_SIMILAR >= y && y * HEALTH_SIMILAR >= x;
}

/* Element i of sorted v[0..n) without one element equal to x (which is
 * in v). */
static double
without_at(const double *v, size_t n, double x, size_t i)
{
	const double *f = bsearch(&x, v, n, sizeof *v, cmp_double);
	size_t j = (size_t)(f - v);

	return i < j ? v[i] : v[i + 1];
}

/* The median of sorted v[0..n) without one element equal to x; n >= 2. */
static double
median_without(const double *v, size_t n, double x)
{
	size_t m = n - 1;

	return m % 2 ? without_at(v, n, x, m / 2) :
	    (without_at(v, n, x, m / 2 - 1) + without_at(v, n, x, m / 2)) / 2;
}

/* Member m, alike, against the others of the sorted alike values. */
static void
compare_one(const struct health_hour *m, double *const v[HM_N],
    const size_t nv[HM_N], size_t nalike, struct health_cmp *out)
{
	static const int ratios[] = { HM_RD, HM_WR, HM_TPB };

	out->npeers = nalike - 1;
	for (size_t i = 0; i < sizeof ratios / sizeof *ratios; i++) {
		int k = ratios[i];
		double med, r;

		if (isnan(m->v[k]) || nv[k] - 1 < HEALTH_MIN_PEERS)
			continue;
		med = median_without(v[k], nv[k], m->v[k]);
		if (!(med > 0))
			continue;
		r = m->v[k] / med;
		if (isnan(out->slowness) || r < out->slowness)
			out->slowness = r;
	}
	out->compared = !isnan(out->slowness);
	out->med = median_without(v[HM_AWAIT], nv[HM_AWAIT],
	    m->v[HM_AWAIT]);
	out->lo = without_at(v[HM_AWAIT], nv[HM_AWAIT], m->v[HM_AWAIT], 0);
	out->hi = without_at(v[HM_AWAIT], nv[HM_AWAIT], m->v[HM_AWAIT],
	    nv[HM_AWAIT] - 2);
}

void
traffic_health_cmp_hour(const struct health_hour *const *m, size_t n,
    struct health_scratch *s, struct health_cmp *out)
{
	size_t nb, nalike = 0, nv[HM_N];
	double load, size;

	for (size_t i = 0; i < n; i++)
		out[i] = (struct health_cmp){ .slowness = NAN, .med = NAN,
		    .lo = NAN, .hi = NAN };
	if ((nb = sorted(m, n, HM_IOS, s->v[0])) == 0)
		return;
	load = median(s->v[0], nb);
	size = median(s->v[0], sorted(m, n, HM_SIZE, s->v[0]));
	for (size_t i = 0; i < n; i++) {
		s->flag[i] = m[i]->busy && similar(m[i]->v[HM_IOS], load) &&
		    similar(m[i]->v[HM_SIZE], size);
		if (s->flag[i])
			s->alike[nalike++] = m[i];
	}
	if (nalike < HEALTH_MIN_PEERS + 1)
		return;
	for (int k = 0; k < HM_N; k++)
		nv[k] = sorted(s->alike, nalike, k, s->v[k]);
	for (size_t i = 0; i < n; i++)
		if (s->flag[i])
			compare_one(m[i], s->v, nv, nalike, &out[i]);
}
