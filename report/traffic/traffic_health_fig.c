/*
 * traffic_health_fig: per slow device, its hourly await against its
 * peers' band: a second pass over the window collects the compared hours
 * of the slow devices only (the first kept a few counters per device),
 * into a table and a figure each.
 */
#include <stdio.h>
#include <stdlib.h>

#include "human.h"
#include "traffic_health_int.h"
#include "xalloc.h"

static const struct rcol_spec fig_cols[] = {
	{ "t", "Hour", NULL, CF_TIME, 0 },
	{ "await_ms", "Await", "ms", CF_PLAIN, 2 },
	{ "peers_min_ms", "Peers' await, least", "ms", CF_PLAIN, 2 },
	{ "peers_max_ms", "Peers' await, greatest", "ms", CF_PLAIN, 2 },
	{ "peers_median_ms", "Peers' median await", "ms", CF_PLAIN, 2 },
};

/* The table and figure of device i, the nth slow one, shaded from
 * since. */
static void
add_figure(struct result *r, const struct health_run *run, size_t i,
    size_t nth, int64_t since)
{
	const struct health_series *s = run->series[i];
	char key[32], title[512], d[32];
	struct rfigure *f;
	struct rtable *tb;

	snprintf(key, sizeof key, "slow_%zu", nth);
	snprintf(title, sizeof title, "Await of %s %s against its peers'",
	    run->l->host[i], run->l->device[i]);
	tb = result_table(r, key, title, fig_cols,
	    sizeof fig_cols / sizeof *fig_cols);
	tb->detail = 1;
	for (size_t j = 0; j < s->n; j++) {
		size_t row = result_row(tb);

		result_set_int(tb, row, 0, s->p[j].t);
		result_set_real(tb, row, 1, s->p[j].await);
		result_set_real(tb, row, 2, s->p[j].lo);
		result_set_real(tb, row, 3, s->p[j].hi);
		result_set_real(tb, row, 4, s->p[j].med);
	}
	snprintf(title, sizeof title, "%s %s: hourly await against its "
	    "peers'", run->l->host[i], run->l->device[i]);
	f = result_figure(r, key, FIG_LINE, r->ntable - 1, title,
	    "The device's await (ms per read and write) in each hour it was "
	    "compared, its peers' awaits from least to greatest (the band) "
	    "and their median; shaded from the minute it became slow.",
	    "Hour (UTC)", "Await (ms)");
	f->xcol = 0;
	f->xtime = 1;
	f->ny = 4;
	for (int k = 0; k < 4; k++)
		f->ycol[k] = k + 1;
	f->band = 1u << 1;
	if (s->n)
		result_span(f, (double)since, (double)s->p[s->n - 1].t + 3600,
		    human_date(since, 1, d, sizeof d));
}

void
traffic_health_fig_want(struct health_run *run)
{
	run->series = xcalloc(run->l->n ? run->l->n : 1,
	    sizeof *run->series);
	for (size_t i = 0; i < run->l->n; i++)
		if (traffic_health_run_dev_verdict(run, i) == HV_SLOW)
			run->series[i] = xcalloc(1, sizeof *run->series[i]);
}

void
traffic_health_fig_add(struct result *r, const struct health_run *run)
{
	size_t nth = 0;

	for (size_t i = 0; run->series && i < run->l->n; i++)
		if (run->series[i])
			add_figure(r, run, i, ++nth,
			    traffic_health_run_since(run, i));
}
