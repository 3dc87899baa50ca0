/*
 * traffic_health_cmp: the hour of each member of a group against the
 * other members' (docs/analyses.md, "Device health").
 *
 * A member's hour is busy when it has HEALTH_BUSY_MINUTES valid minutes
 * and HEALTH_BUSY_IOS reads and writes: fewer requests make a mean time
 * that a few slow ones decide. A disk that receives more requests queues
 * them and waits longer per request without being slower: with S the
 * median service time of the busy members, a member of load L would keep
 * a disk of its peers' speed busy rho = L S of the time, and its
 * requests would wait q = 1 / (1 - rho) times their service time
 * (M/M/1). Its times divided by q are what is compared. A member is
 * alike when its request size is within HEALTH_SIMILAR of the median and
 * rho < HEALTH_RHO_MAX (a load that saturates a disk of its peers' speed
 * is one the model cannot explain). Each alike member's ratios are its
 * adjusted time per read, per MiB read, per write and per MiB written
 * over the median of the other alike members' (fewer than
 * HEALTH_MIN_PEERS others with a value, or a median of 0, gives none);
 * a direction's slowness is the lesser of its two, so a direction is
 * slow only when both its measures say so, and each direction stands on
 * its own. Per hour and group: sorts of the group's values, O(n log n).
 */
#include <assert.h>
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

/* ms per MiB of bytes, with at least HEALTH_DIR_IOS requests. */
static double
per_mib(uint64_t ms, uint64_t bytes, uint64_t ios)
{
	return ios >= HEALTH_DIR_IOS && bytes ? (double)ms / (double)bytes *
	    IO_MIB : NAN;
}

void
traffic_health_cmp_dev(struct health_hour *h, const struct devh_row *r)
{
	uint64_t nios = r->rd_ios + r->wr_ios;
	uint64_t bytes = r->rd_bytes + r->wr_bytes;

	assert(h != NULL && r != NULL);
	h->busy = r->minutes >= HEALTH_BUSY_MINUTES &&
	    nios >= HEALTH_BUSY_IOS && bytes > 0;
	h->v[HM_TR] = r->rd_ios >= HEALTH_DIR_IOS ? per(r->rd_ms, r->rd_ios) :
	    NAN;
	h->v[HM_BR] = per_mib(r->rd_ms, r->rd_bytes, r->rd_ios);
	h->v[HM_TW] = r->wr_ios >= HEALTH_DIR_IOS ? per(r->wr_ms, r->wr_ios) :
	    NAN;
	h->v[HM_BW] = per_mib(r->wr_ms, r->wr_bytes, r->wr_ios);
	h->v[HM_AWAIT] = per(r->rd_ms + r->wr_ms, nios);
	h->v[HM_LOAD] = r->minutes ? (double)nios / ((double)r->minutes *
	    60000) : NAN;
	h->v[HM_SVC] = r->io_ms ? per(r->io_ms, nios) : NAN;
	h->v[HM_SIZE] = per(bytes, nios);
	h->ms = (double)(r->rd_ms + r->wr_ms);
	h->ios[HD_READ] = r->rd_ios;
	h->ios[HD_WRITE] = r->wr_ios;
	h->nios = nios;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

void
traffic_health_cmp_sort(double *v, size_t n)
{
	if (n)
		qsort(v, n, sizeof *v, cmp_double);
}

/* Measure k of the busy members that have it, divided by their q when q
 * is given, sorted into v. Returns how many. */
static size_t
sorted(const struct health_hour *const *m, const double *q, size_t n, int k,
    double *v)
{
	size_t nv = 0;

	for (size_t i = 0; i < n; i++)
		if (m[i]->busy && !isnan(m[i]->v[k]))
			v[nv++] = q ? m[i]->v[k] / q[i] : m[i]->v[k];
	traffic_health_cmp_sort(v, nv);
	return nv;
}

double
traffic_health_cmp_median(const double *v, size_t n)
{
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double
traffic_health_cmp_without_at(const double *v, size_t n, double x, size_t i)
{
	const double *f = bsearch(&x, v, n, sizeof *v, cmp_double);
	size_t j = (size_t)(f - v);

	return i < j ? v[i] : v[i + 1];
}

double
traffic_health_cmp_median_without(const double *v, size_t n, double x)
{
	size_t m = n - 1;

	return m % 2 ? traffic_health_cmp_without_at(v, n, x, m / 2) :
	    (traffic_health_cmp_without_at(v, n, x, m / 2 - 1) +
	    traffic_health_cmp_without_at(v, n, x, m / 2)) / 2;
}

void
traffic_health_cmp_group(struct health_hour *h,
    const struct health_hour *const *m, size_t n, double *tmp)
{
	assert(h != NULL && (m != NULL || n == 0));
	*h = (struct health_hour){ 0 };
	for (size_t i = 0; i < n; i++)
		if (m[i]->busy) {
			h->busy = 1;
			h->nios += m[i]->nios;
			for (int d = 0; d < HD_N; d++)
				h->ios[d] += m[i]->ios[d];
		}
	for (int k = 0; k < HM_N; k++) {
		size_t nv = sorted(m, NULL, n, k, tmp);

		h->v[k] = nv ? traffic_health_cmp_median(tmp, nv) : NAN;
	}
	/* Its await weighted by its requests: the same statistic as its
	 * peers' median over hours. */
	h->ms = h->busy ? h->v[HM_AWAIT] * (double)h->nios : 0;
}

double
traffic_health_cmp_queue(double load, double svc, double *rho)
{
	if (isnan(svc)) {
		*rho = 0;
		return 1;
	}
	*rho = load * svc;
	return 1 / (1 - *rho);
}

/* Is x within a factor of HEALTH_SIMILAR of y? */
static int
similar(double x, double y)
{
	return x * HEALTH_SIMILAR >= y && y * HEALTH_SIMILAR >= x;
}

int
traffic_health_cmp_compared(const struct health_cmp *c)
{
	return !isnan(c->slow[HD_READ]) || !isnan(c->slow[HD_WRITE]);
}

int
traffic_health_cmp_above(const struct health_cmp *c, double k)
{
	return c->slow[HD_READ] >= k || c->slow[HD_WRITE] >= k;
}

/* Member i (alike) against the other alike members: v[k] holds the nv[k]
 * sorted adjusted values of measure k, v[HM_AWAIT] the awaits. */
static void
compare_one(const struct health_hour *m, double q, double *const v[HM_N],
    const size_t nv[HM_N], struct health_cmp *out)
{
	static const int dir_of[] = { HD_READ, HD_READ, HD_WRITE, HD_WRITE };

	for (int k = HM_TR; k <= HM_BW; k++) {
		int d = dir_of[k];
		double a, med, r;

		if (isnan(m->v[k]) || nv[k] - 1 < HEALTH_MIN_PEERS)
			continue;
		a = m->v[k] / q;
		med = traffic_health_cmp_median_without(v[k], nv[k], a);
		if (!(med > 0))
			continue;
		r = a / med;
		if (isnan(out->slow[d]) || r < out->slow[d])
			out->slow[d] = r;
		if (k == HM_TR || k == HM_TW) {
			out->adj[d] = a;
			out->peer[d] = med;
		}
	}
	out->med = traffic_health_cmp_median_without(v[HM_AWAIT], nv[HM_AWAIT],
	    m->v[HM_AWAIT]);
	out->lo = traffic_health_cmp_without_at(v[HM_AWAIT], nv[HM_AWAIT],
	    m->v[HM_AWAIT], 0);
	out->hi = traffic_health_cmp_without_at(v[HM_AWAIT], nv[HM_AWAIT],
	    m->v[HM_AWAIT], nv[HM_AWAIT] - 2);
}

void
traffic_health_cmp_hour(const struct health_hour *const *m, size_t n,
    struct health_scratch *s, struct health_cmp *out)
{
	size_t nb, nalike = 0, nv[HM_N];
	double svc, size, rho;

	assert((m != NULL && s != NULL && out != NULL) || n == 0);
	for (size_t i = 0; i < n; i++)
		out[i] = (struct health_cmp){ .q = NAN, .slow = { NAN, NAN },
		    .adj = { NAN, NAN }, .peer = { NAN, NAN }, .med = NAN,
		    .lo = NAN, .hi = NAN };
	if ((nb = sorted(m, NULL, n, HM_SIZE, s->v[0])) == 0)
		return;
	size = traffic_health_cmp_median(s->v[0], nb);
	nb = sorted(m, NULL, n, HM_SVC, s->v[0]);
	svc = nb ? traffic_health_cmp_median(s->v[0], nb) : NAN;
	for (size_t i = 0; i < n; i++) {
		if (!m[i]->busy)
			continue;
		out[i].q = traffic_health_cmp_queue(m[i]->v[HM_LOAD], svc,
		    &rho);
		out[i].alike = similar(m[i]->v[HM_SIZE], size) &&
		    rho < HEALTH_RHO_MAX;
		if (out[i].alike) {
			s->q[nalike] = out[i].q;
			s->alike[nalike++] = m[i];
		}
	}
	if (nalike < HEALTH_MIN_PEERS + 1) {
		for (size_t i = 0; i < n; i++)
			out[i].alike = 0;
		return;
	}
	for (int k = 0; k < HM_N; k++)
		nv[k] = sorted(s->alike, k <= HM_BW ? s->q : NULL, nalike, k,
		    s->v[k]);
	for (size_t i = 0; i < n; i++)
		if (out[i].alike)
			compare_one(m[i], out[i].q, s->v, nv, &out[i]);
}
