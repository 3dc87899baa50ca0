/*
 * traffic_health_run: the hours of a window, group by group: each
 * device against the others of its group (a host's devices of one kind),
 * then each group, as one member, against the groups of its kind on the
 * other hosts (docs/analyses.md, "Device health"). A first pass tracks
 * the hours; a second compares again the groups' hours with enough alike
 * devices, this time minute by minute (the episodes, and the onset
 * minutes of the directions the first found slow or suspect), and
 * collects the figure rows of the slow devices. Memory: a few values per
 * device and group, one hour of rows and one group hour of minutes.
 */
#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "traffic_health_int.h"
#include "xalloc.h"

/* Devices into groups: a host's devices of one kind, in list order. */
static void
make_groups(struct health_run *r)
{
	const struct devh_list *l = r->l;
	size_t n = l->n, first = 0, *count, *at;

	r->group = xcalloc(n ? n : 1, sizeof *r->group);
	r->group_of = xcalloc(n ? n : 1, sizeof *r->group_of);
	for (size_t i = 0; i < n; i++) {
		const struct traffic_kind *kd = traffic_kind_of(l->device[i]);
		size_t g;

		if (i && l->hostix[i] != l->hostix[i - 1])
			first = r->ngroup;
		for (g = first; g < r->ngroup && r->group[g].kind != kd; g++)
			;
		if (g == r->ngroup)
			r->group[r->ngroup++] = (struct health_group){
			    .host = i, .kind = kd };
		r->group_of[i] = g;
		r->group[g].n++;
	}
	count = xcalloc(r->ngroup + 1, sizeof *count);
	at = r->members = xcalloc(n ? n : 1, sizeof *r->members);
	for (size_t g = 0; g < r->ngroup; g++) {
		r->group[g].dev = at;
		at += r->group[g].n;
	}
	for (size_t i = 0; i < n; i++) {
		size_t g = r->group_of[i];

		r->group[g].dev[count[g]++] = i;
	}
	free(count);
}

/* The groups of each kind: the hosts compared with each other. */
static void
make_kinds(struct health_run *r)
{
	size_t *at;

	r->kind = xcalloc(r->ngroup ? r->ngroup : 1, sizeof *r->kind);
	at = r->kind_members = xcalloc(r->ngroup ? r->ngroup : 1,
	    sizeof *r->kind_members);
	for (size_t g = 0; g < r->ngroup; g++) {
		size_t k;

		for (k = 0; k < r->nkind && r->kind[k].kind !=
		    r->group[g].kind; k++)
			;
		if (k == r->nkind)
			r->kind[r->nkind++].kind = r->group[g].kind;
		r->kind[k].n++;
	}
	for (size_t k = 0; k < r->nkind; k++) {
		r->kind[k].grp = at;
		at += r->kind[k].n;
		r->kind[k].n = 0;
	}
	for (size_t g = 0; g < r->ngroup; g++)
		for (size_t k = 0; k < r->nkind; k++)
			if (r->kind[k].kind == r->group[g].kind) {
				r->group[g].kind_ix = k;
				r->kind[k].grp[r->kind[k].n++] = g;
			}
}

void
traffic_health_run_init(struct health_run *r, const struct devh_list *l,
    double k)
{
	size_t most;

	memset(r, 0, sizeof *r);
	r->l = l;
	r->k = k;
	make_groups(r);
	make_kinds(r);
	most = r->ngroup;
	for (size_t g = 0; g < r->ngroup; g++)
		most = r->group[g].n > most ? r->group[g].n : most;
	most = most ? most : 1;
	r->dev = xcalloc(l->n ? l->n : 1, sizeof *r->dev);
	r->host = xcalloc(r->ngroup ? r->ngroup : 1, sizeof *r->host);
	for (size_t i = 0; i < l->n; i++)
		traffic_health_track_init(&r->dev[i]);
	for (size_t g = 0; g < r->ngroup; g++)
		traffic_health_track_init(&r->host[g]);
	r->dh = xcalloc(l->n ? l->n : 1, sizeof *r->dh);
	r->gh = xcalloc(r->ngroup ? r->ngroup : 1, sizeof *r->gh);
	r->m = xcalloc(most, sizeof *r->m);
	r->cmp = xcalloc(most, sizeof *r->cmp);
	for (int i = 0; i < HM_N; i++)
		r->s.v[i] = xcalloc(most, sizeof *r->s.v[i]);
	r->s.alike = xcalloc(most, sizeof *r->s.alike);
	r->s.q = xcalloc(most, sizeof *r->s.q);
	r->min = xcalloc(l->n ? l->n : 1, sizeof *r->min);
	r->mm = xcalloc(most, HEALTH_HOUR_MINUTES * sizeof *r->mm);
	r->ratio = xcalloc(most, HEALTH_HOUR_MINUTES * HD_N *
	    sizeof *r->ratio);
	r->who = xcalloc(most, sizeof *r->who);
	r->q = xcalloc(most, sizeof *r->q);
	r->dm = xcalloc(HEALTH_HOUR_MINUTES, sizeof *r->dm);
}

static void
series_free(struct health_series *s)
{
	if (s)
		free(s->p);
	free(s);
}

void
traffic_health_run_free(struct health_run *r)
{
	for (size_t i = 0; r->series && i < r->l->n; i++)
		series_free(r->series[i]);
	free(r->series);
	free(r->group);
	free(r->group_of);
	free(r->members);
	free(r->kind);
	free(r->kind_members);
	free(r->dev);
	free(r->host);
	free(r->dh);
	free(r->gh);
	free(r->m);
	free(r->cmp);
	for (int i = 0; i < HM_N; i++)
		free(r->s.v[i]);
	free(r->s.alike);
	free(r->s.q);
	for (size_t i = 0; r->min && i < r->l->n; i++)
		traffic_health_min_free(&r->min[i]);
	free(r->min);
	free(r->mm);
	free(r->ratio);
	free(r->who);
	free(r->q);
	free(r->dm);
	query_devhours_mclose(r->reader);
	memset(r, 0, sizeof *r);
}

static void
series_add(struct health_series *s, int64_t t, const struct health_hour *h,
    const struct health_cmp *c)
{
	s->p = xgrow(s->p, s->n, &s->cap, sizeof *s->p, 64);
	s->p[s->n++] = (struct health_point){ t, h->v[HM_AWAIT], c->lo,
	    c->hi, c->med };
}

/* The minutes of alike device d in hour t into out. 0, or -1. */
static int
load_minutes(struct health_run *r, size_t d, int64_t t,
    struct health_minute *out)
{
	if (query_devhours_minutes(r->reader, r->l, d, t, r->dm, r->err,
	    r->errlen) < 0)
		return -1;
	for (size_t j = 0; j < HEALTH_HOUR_MINUTES; j++)
		out[j] = (struct health_minute){ .valid = r->dm[j].valid,
		    .ios = { r->dm[j].rd_ios, r->dm[j].wr_ios },
		    .ms = { r->dm[j].rd_ms, r->dm[j].wr_ms } };
	return 0;
}

/* Group g's alike devices in hour t, minute by minute. 0, or -1. */
static int
group_minutes(struct health_run *r, size_t g, int64_t t)
{
	const struct health_group *gr = &r->group[g];
	size_t n = 0;

	for (size_t j = 0; j < gr->n; j++)
		if (r->cmp[j].alike) {
			r->who[n] = gr->dev[j];
			r->q[n++] = r->cmp[j].q;
		}
	if (n < HEALTH_MIN_PEERS + 1)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (load_minutes(r, r->who[i], t,
		    &r->mm[i * HEALTH_HOUR_MINUTES]) < 0)
			return -1;
	traffic_health_min_compare(r->mm, r->q, n, r->s.v[0], r->ratio);
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < HEALTH_HOUR_MINUTES; j++)
			traffic_health_min_add(&r->min[r->who[i]], t + 60 *
			    (int64_t)j, &r->ratio[(i * HEALTH_HOUR_MINUTES +
			    j) * HD_N], r->k);
	return 0;
}

/* Group g's devices in hour t against each other; in the first pass its
 * hour as a member, in the second its minutes. 0, or -1. */
static int
group_hour(struct health_run *r, size_t g, int64_t t)
{
	const struct health_group *gr = &r->group[g];

	for (size_t j = 0; j < gr->n; j++)
		r->m[j] = &r->dh[gr->dev[j]];
	traffic_health_cmp_hour(r->m, gr->n, &r->s, r->cmp);
	if (!r->second) {
		for (size_t j = 0; j < gr->n; j++)
			traffic_health_track_hour(&r->dev[gr->dev[j]], t,
			    r->m[j], &r->cmp[j], r->k);
		traffic_health_cmp_group(&r->gh[g], r->m, gr->n, r->s.v[0]);
		return 0;
	}
	for (size_t j = 0; j < gr->n; j++) {
		size_t d = gr->dev[j];

		if (r->series && r->series[d] &&
		    traffic_health_cmp_compared(&r->cmp[j]))
			series_add(r->series[d], t, r->m[j], &r->cmp[j]);
	}
	return group_minutes(r, g, t);
}

/* The groups of kind k in hour t against each other. */
static void
kind_hour(struct health_run *r, size_t k, int64_t t)
{
	const struct health_kind *kd = &r->kind[k];

	for (size_t j = 0; j < kd->n; j++)
		r->m[j] = &r->gh[kd->grp[j]];
	traffic_health_cmp_hour(r->m, kd->n, &r->s, r->cmp);
	for (size_t j = 0; j < kd->n; j++)
		traffic_health_track_hour(&r->host[kd->grp[j]], t, r->m[j],
		    &r->cmp[j], r->k);
}

static int
hour(int64_t t, const struct devh_row *row, size_t n, void *arg)
{
	struct health_run *r = arg;

	memset(r->dh, 0, r->l->n * sizeof *r->dh);
	for (size_t i = 0; i < n; i++)
		traffic_health_cmp_dev(&r->dh[row[i].dev], &row[i]);
	for (size_t g = 0; g < r->ngroup; g++)
		if (group_hour(r, g, t) < 0)
			return -1;
	for (size_t k = 0; !r->second && k < r->nkind; k++)
		kind_hour(r, k, t);
	return 0;
}

size_t
traffic_health_run_dev_peers(const struct health_run *r, size_t i)
{
	return r->group[r->group_of[i]].n - 1;
}

size_t
traffic_health_run_host_peers(const struct health_run *r, size_t g)
{
	return r->kind[r->group[g].kind_ix].n - 1;
}

size_t
traffic_health_run_episodes(const struct health_run *r, size_t i)
{
	return r->min[i].nep;
}

int64_t
traffic_health_run_since(const struct health_run *r, size_t i)
{
	unsigned dirs = traffic_health_track_dirs(&r->dev[i],
	    traffic_health_run_dev_verdict(r, i));
	int64_t since = -1;

	for (int d = 0; d < HD_N; d++)
		if (dirs & 1u << d) {
			int64_t t = traffic_health_min_onset(&r->min[i], d);

			if (since < 0 || t < since)
				since = t;
		}
	return since;
}

enum health_verdict
traffic_health_run_dev_verdict(const struct health_run *r, size_t i)
{
	return traffic_health_track_verdict(&r->dev[i],
	    traffic_health_run_dev_peers(r, i), r->min[i].nep);
}

enum health_verdict
traffic_health_run_host_verdict(const struct health_run *r, size_t g)
{
	return traffic_health_track_verdict(&r->host[g],
	    traffic_health_run_host_peers(r, g), 0);
}

/* The onset hour of direction d of device i to refine to the minute:
 * the direction is slow or suspect; else -1. */
static int64_t
to_refine(const struct health_run *r, size_t i, int d)
{
	return traffic_health_track_dir(&r->dev[i], d) ?
	    r->dev[i].dir[d].onset : -1;
}

int
traffic_health_run_hours(sqlite3 *db, struct health_run *r, char *err,
    size_t errlen)
{
	assert(db != NULL && r != NULL && r->l != NULL);
	r->err = err;
	r->errlen = errlen;
	r->second = 0;
	if (query_devhours_scan(db, r->l, hour, r, err, errlen) < 0)
		return -1;
	for (size_t i = 0; i < r->l->n; i++)
		traffic_health_min_init(&r->min[i], to_refine(r, i, HD_READ),
		    to_refine(r, i, HD_WRITE));
	return 0;
}

int
traffic_health_run_minutes(sqlite3 *db, struct health_run *r, char *err,
    size_t errlen)
{
	int rc;

	assert(db != NULL && r != NULL && r->l != NULL);
	if (r->l->n == 0)
		return 0;
	if (!(r->reader = query_devhours_mopen(db, err, errlen)))
		return -1;
	r->err = err;
	r->errlen = errlen;
	r->second = 1;
	rc = query_devhours_scan(db, r->l, hour, r, err, errlen);
	for (size_t i = 0; i < r->l->n; i++)
		traffic_health_min_end(&r->min[i]);
	return rc < 0 ? -1 : 0;
}
