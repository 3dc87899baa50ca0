/*
 * traffic_health_track: the hours of one member (a device, or a host's
 * devices of one kind), in time order, and the verdict they give
 * (docs/analyses.md, "Device health").
 *
 * A member is slow when it stays above K times its peers' median for
 * most of its compared hours since some hour, its onset: with x = +1 for
 * a compared hour above K and -1 for one that is not, the onset is the
 * hour above K from which the sum of x to the end is greatest (the
 * latest of equals), so one early hour above K before hours below it
 * does not move the onset back. Slow when that sum is positive (more
 * hours above K than not since the onset) and HEALTH_MIN_HOURS of them
 * are above K. The sum from hour i is the total less the prefix before
 * i, so the onset is the hour above K with the least prefix before it:
 * one pass, a few counters per member, however long the window.
 */
#include <string.h>

#include "traffic_health_int.h"

void
traffic_health_track_init(struct health_track *t)
{
	memset(t, 0, sizeof *t);
	t->onset = -1;
}

static void
add(struct health_sums *s, const struct health_hour *h,
    const struct health_cmp *c, int above)
{
	s->hours++;
	s->above += above != 0;
	s->ms += h->ms;
	s->nios += h->nios;
	s->peer_ms += (double)h->nios * c->med;
}

void
traffic_health_track_hour(struct health_track *t, int64_t hour,
    const struct health_hour *h, const struct health_cmp *c, double k)
{
	int above;

	if (!h->busy)
		return;
	t->busy++;
	t->busy_ms += h->ms;
	t->busy_nios += h->nios;
	if (!c->compared)
		return;
	above = c->slowness >= k;
	add(&t->all, h, c, above);
	if (above && (t->onset < 0 || t->prefix <= t->min_prefix)) {
		t->onset = hour;
		t->min_prefix = t->prefix;
		memset(&t->since, 0, sizeof t->since);
	}
	t->prefix += above ? 1 : -1;
	if (t->onset >= 0)
		add(&t->since, h, c, above);
}

enum health_verdict
traffic_health_track_verdict(const struct health_track *t, size_t npeers)
{
	if (npeers < HEALTH_MIN_PEERS)
		return HV_FEW_PEERS;
	if (t->busy < HEALTH_MIN_HOURS)
		return HV_FEW_BUSY;
	if (t->all.hours < HEALTH_MIN_HOURS)
		return HV_FEW_COMPARED;
	if (t->onset >= 0 && 2 * t->since.above > t->since.hours)
		return t->since.above >= HEALTH_MIN_HOURS ? HV_SLOW :
		    HV_TOO_SOON;
	return HV_HEALTHY;
}

const struct health_sums *
traffic_health_track_period(const struct health_track *t,
    enum health_verdict v)
{
	return v == HV_SLOW || v == HV_TOO_SOON ? &t->since : &t->all;
}

const char *
traffic_health_track_confidence(const struct health_track *t,
    enum health_verdict v)
{
	const struct health_sums *s = traffic_health_track_period(t, v);

	if (v == HV_SLOW) {
		if (s->above >= 24 && 10 * s->above >= 9 * s->hours)
			return "high";
		if (s->above >= 12 && 4 * s->above >= 3 * s->hours)
			return "medium";
		return "low";
	}
	if (v != HV_HEALTHY)
		return NULL;
	if (s->hours >= 24 && 10 * s->above <= s->hours)
		return "high";
	if (s->hours >= 12 && 4 * s->above <= s->hours)
		return "medium";
	return "low";
}
