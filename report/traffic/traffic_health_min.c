/*
 * traffic_health_min: the minutes of the alike devices' hours, and the
 * episodes and onset minutes they give (docs/analyses.md, "Device
 * health"). An hour's mean hides a 20-minute episode, and rounds an
 * onset to the hour: minute by minute, each alike device's time per read
 * (write), divided by its hour's queue factor, against the median of the
 * other alike devices' that minute. The minutes are those the roll-ups
 * sum (query_devhours_minutes), read one device hour at a time by
 * traffic_health_run.c: memory per group hour, never per window.
 */
#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "traffic_health_int.h"
#include "xalloc.h"

void
traffic_health_min_compare(const struct health_minute *m, const double *q,
    size_t n, double *tmp, double *ratio)
{
	assert((m != NULL && q != NULL && tmp != NULL && ratio != NULL) ||
	    n == 0);
	for (size_t i = 0; i < n * HEALTH_HOUR_MINUTES * HD_N; i++)
		ratio[i] = NAN;
	for (size_t j = 0; j < HEALTH_HOUR_MINUTES; j++)
		for (int d = 0; d < HD_N; d++) {
			size_t nv = 0;

			for (size_t i = 0; i < n; i++) {
				const struct health_minute *x =
				    &m[i * HEALTH_HOUR_MINUTES + j];

				if (x->valid && x->ios[d] >= HEALTH_MINUTE_IOS)
					tmp[nv++] = (double)x->ms[d] /
					    (double)x->ios[d] / q[i];
			}
			if (nv < HEALTH_MIN_PEERS + 1)
				continue;
			traffic_health_cmp_sort(tmp, nv);
			for (size_t i = 0; i < n; i++) {
				const struct health_minute *x =
				    &m[i * HEALTH_HOUR_MINUTES + j];
				double a, med;

				if (!x->valid || x->ios[d] < HEALTH_MINUTE_IOS)
					continue;
				a = (double)x->ms[d] / (double)x->ios[d] / q[i];
				med = traffic_health_cmp_median_without(tmp, nv, a);
				if (med > 0)
					ratio[(i * HEALTH_HOUR_MINUTES + j) *
					    HD_N + d] = a / med;
			}
		}
}

void
traffic_health_min_init(struct health_mtrack *t, int64_t onset_read,
    int64_t onset_write)
{
	assert(t != NULL);
	memset(t, 0, sizeof *t);
	t->hour[HD_READ] = onset_read;
	t->hour[HD_WRITE] = onset_write;
	for (int d = 0; d < HD_N; d++)
		t->onset[d] = -1;
}

/* The open run ends: an episode when it has enough slow minutes. */
static void
close_run(struct health_mtrack *t)
{
	if (t->run.slow >= HEALTH_EPISODE_MINUTES) {
		t->ep = xgrow(t->ep, t->nep, &t->cap, sizeof *t->ep, 8);
		t->ep[t->nep++] = t->run;
	}
	memset(&t->run, 0, sizeof t->run);
}

/* A slow minute joins the open run when at most HEALTH_EPISODE_GAP
 * minutes after its last slow one, else starts a run. */
static void
slow_minute(struct health_mtrack *t, int64_t minute, unsigned dirs,
    double factor)
{
	if (t->run.slow && minute + 60 - t->run.end >
	    HEALTH_EPISODE_GAP * 60)
		close_run(t);
	if (t->run.slow == 0) {
		t->run.start = minute;
		t->run.factor = factor;
	}
	t->run.end = minute + 60;
	t->run.dirs |= dirs;
	t->run.slow++;
	if (factor > t->run.factor)
		t->run.factor = factor;
}

/* Direction d's minute track: the compared minute starting before the
 * end of the onset hour with the least prefix before it (the latest of
 * equals) is the minute from which the sum of x to the end is greatest. */
static void
onset_minute(struct health_mtrack *t, int d, int64_t minute, int above)
{
	if (t->hour[d] >= 0 && minute < t->hour[d] + 3600 &&
	    (t->onset[d] < 0 || t->prefix[d] <= t->least[d])) {
		t->onset[d] = minute;
		t->least[d] = t->prefix[d];
	}
	t->prefix[d] += above ? 1 : -1;
}

void
traffic_health_min_add(struct health_mtrack *t, int64_t minute,
    const double ratio[HD_N], double k)
{
	unsigned dirs = 0;
	double most = NAN;

	assert(t != NULL && ratio != NULL);
	for (int d = 0; d < HD_N; d++) {
		if (isnan(ratio[d]))
			continue;
		onset_minute(t, d, minute, ratio[d] >= k);
		if (ratio[d] >= k)
			dirs |= 1u << d;
		if (isnan(most) || ratio[d] > most)
			most = ratio[d];
	}
	if (dirs)
		slow_minute(t, minute, dirs, most);
}

void
traffic_health_min_end(struct health_mtrack *t)
{
	close_run(t);
}

int64_t
traffic_health_min_onset(const struct health_mtrack *t, int d)
{
	return t->onset[d] >= 0 ? t->onset[d] : t->hour[d];
}

void
traffic_health_min_free(struct health_mtrack *t)
{
	free(t->ep);
	memset(t, 0, sizeof *t);
}
