/*
 * traffic_health_track: the hours of one member (a device, or a host's
 * devices of one kind), in time order, and the verdict they give
 * (docs/analyses.md, "Device health").
 *
 * Each direction, reads and writes, has its own track over the hours
 * compared in it: with x = +1 for an hour above K and -1 for one that is
 * not, its onset is the hour above K from which the sum of x to the end
 * is greatest (the latest of equals), so one early hour above K before
 * hours below it does not move the onset back. The direction is slow
 * when that sum is positive and HEALTH_MIN_HOURS of its hours since the
 * onset are above K, suspect when positive with fewer. The sum from hour
 * i is the total less the prefix before i, so the onset is the hour
 * above K with the least prefix before it: one pass, a few counters per
 * member and direction, however long the window.
 */
#include <assert.h>
#include <math.h>
#include <string.h>

#include "traffic_health_int.h"

void
traffic_health_track_init(struct health_track *t)
{
	assert(t != NULL);
	memset(t, 0, sizeof *t);
	for (int d = 0; d < HD_N; d++)
		t->dir[d].onset = -1;
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
	for (int d = 0; d < HD_N; d++)
		if (!isnan(c->adj[d])) {
			s->fnum[d] += (double)h->ios[d] * c->adj[d];
			s->fden[d] += (double)h->ios[d] * c->peer[d];
			s->fhours[d]++;
		}
}

/* Direction d's x for the hour, when it is compared in d. */
static void
dir_hour(struct health_dir *t, int64_t hour, double slow, double k)
{
	int above = slow >= k;

	if (above && (t->onset < 0 || t->prefix <= t->min_prefix)) {
		t->onset = hour;
		t->min_prefix = t->prefix;
		t->above = 0;
		memset(&t->since, 0, sizeof t->since);
	}
	t->prefix += above ? 1 : -1;
	if (above)
		t->above++;
}

void
traffic_health_track_hour(struct health_track *t, int64_t hour,
    const struct health_hour *h, const struct health_cmp *c, double k)
{
	int above;

	assert(t != NULL && h != NULL && c != NULL);
	if (!h->busy)
		return;
	t->busy++;
	t->busy_ms += h->ms;
	t->busy_nios += h->nios;
	if (!traffic_health_cmp_compared(c))
		return;
	above = traffic_health_cmp_above(c, k);
	add(&t->all, h, c, above);
	for (int d = 0; d < HD_N; d++) {
		if (!isnan(c->slow[d]))
			dir_hour(&t->dir[d], hour, c->slow[d], k);
		if (t->dir[d].onset >= 0)
			add(&t->dir[d].since, h, c, above);
	}
}

int
traffic_health_track_dir(const struct health_track *t, int d)
{
	const struct health_dir *x = &t->dir[d];

	if (x->onset < 0 || x->prefix - x->min_prefix <= 0)
		return 0;
	return x->above >= HEALTH_MIN_HOURS ? 2 : 1;
}

/* The directions whose track says `what` (2 slow, 1 suspect). */
static unsigned
dirs_of(const struct health_track *t, int what)
{
	unsigned m = 0;

	for (int d = 0; d < HD_N; d++)
		if (traffic_health_track_dir(t, d) == what)
			m |= 1u << d;
	return m;
}

enum health_verdict
traffic_health_track_verdict(const struct health_track *t, size_t npeers,
    size_t episodes)
{
	assert(t != NULL);
	if (npeers < HEALTH_MIN_PEERS)
		return HV_FEW_PEERS;
	if (t->busy < HEALTH_MIN_HOURS)
		return HV_FEW_BUSY;
	if (t->all.hours < HEALTH_MIN_HOURS)
		return HV_FEW_COMPARED;
	if (dirs_of(t, 2))
		return HV_SLOW;
	if (episodes >= HEALTH_EPISODES)
		return HV_INTERMITTENT;
	if (dirs_of(t, 1))
		return HV_SUSPECT;
	return HV_HEALTHY;
}

unsigned
traffic_health_track_dirs(const struct health_track *t,
    enum health_verdict v)
{
	return v == HV_SLOW ? dirs_of(t, 2) : v == HV_SUSPECT ? dirs_of(t, 1) :
	    0;
}

int
traffic_health_track_first(const struct health_track *t, unsigned dirs)
{
	int best = -1;

	for (int d = 0; d < HD_N; d++)
		if ((dirs & 1u << d) && (best < 0 ||
		    t->dir[d].onset < t->dir[best].onset))
			best = d;
	return best;
}

const struct health_sums *
traffic_health_track_period(const struct health_track *t,
    enum health_verdict v)
{
	unsigned dirs = traffic_health_track_dirs(t, v);

	return dirs ? &t->dir[traffic_health_track_first(t, dirs)].since :
	    &t->all;
}

const char *
traffic_health_track_confidence(const struct health_track *t,
    enum health_verdict v)
{
	const struct health_sums *s = traffic_health_track_period(t, v);

	if (v == HV_SLOW) {
		if (s->above >= HEALTH_CONF_HIGH && 100 * s->above >=
		    HEALTH_SLOW_HIGH_PCT * s->hours)
			return "high";
		if (s->above >= HEALTH_CONF_MEDIUM && 100 * s->above >=
		    HEALTH_SLOW_MEDIUM_PCT * s->hours)
			return "medium";
		return "low";
	}
	if (v != HV_HEALTHY)
		return NULL;
	if (s->hours >= HEALTH_CONF_HIGH && 100 * s->above <=
	    HEALTH_OK_HIGH_PCT * s->hours)
		return "high";
	if (s->hours >= HEALTH_CONF_MEDIUM && 100 * s->above <=
	    HEALTH_OK_MEDIUM_PCT * s->hours)
		return "medium";
	return "low";
}
