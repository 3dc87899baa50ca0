/*
 * traffic_health_run: the hours of a window, group by group: each
 * device against the others of its group (a host's devices of one kind),
 * then each group, as one member, against the groups of its kind on the
 * other hosts (docs/analyses.md, "Device health"). Memory: a few values
 * per device and group, and one hour of rows.
 */
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
	r->s.flag = xcalloc(most, sizeof *r->s.flag);
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
	free(r->s.flag);
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

/* Group g's devices in hour t against each other; its hour as a
 * member. */
static void
group_hour(struct health_run *r, size_t g, int64_t t)
{
	const struct health_group *gr = &r->group[g];

	for (size_t j = 0; j < gr->n; j++)
		r->m[j] = &r->dh[gr->dev[j]];
	traffic_health_cmp_hour(r->m, gr->n, &r->s, r->cmp);
	for (size_t j = 0; j < gr->n; j++) {
		size_t d = gr->dev[j];

		if (!r->series)
			traffic_health_track_hour(&r->dev[d], t, r->m[j],
			    &r->cmp[j], r->k);
		else if (r->series[d] && r->cmp[j].compared)
			series_add(r->series[d], t, r->m[j], &r->cmp[j]);
	}
	traffic_health_cmp_group(&r->gh[g], r->m, gr->n, r->s.v[0]);
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
		group_hour(r, g, t);
	for (size_t k = 0; !r->series && k < r->nkind; k++)
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

enum health_verdict
traffic_health_run_dev_verdict(const struct health_run *r, size_t i)
{
	return traffic_health_track_verdict(&r->dev[i],
	    traffic_health_run_dev_peers(r, i));
}

enum health_verdict
traffic_health_run_host_verdict(const struct health_run *r, size_t g)
{
	return traffic_health_track_verdict(&r->host[g],
	    traffic_health_run_host_peers(r, g));
}

int
traffic_health_run_scan(sqlite3 *db, struct health_run *r, char *err,
    size_t errlen)
{
	return query_devhours_scan(db, r->l, hour, r, err, errlen);
}
