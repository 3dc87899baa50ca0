/*
 * traffic_health: `iocensus health`, the device that fails slowly, found
 * among its peers (docs/analyses.md, "Device health"). Hour by hour each
 * device is compared with the other devices of its kind on its host, and
 * each host's devices of a kind with those of the other hosts
 * (traffic_health_run.c); a member that stays above K times its peers'
 * median since some hour is slow (traffic_health_track.c). Tables:
 * devices, hosts, the level each host's devices were sampled at, and a
 * summary; per slow device a figure of its hourly await against its
 * peers' band (traffic_health_fig.c).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "traffic.h"
#include "human.h"
#include "traffic_health_int.h"
#include "traffic_int.h"
#include "xalloc.h"

enum { C_HOST, C_WHO, C_SLOW, C_SINCE, C_AWAIT, C_PEERS_AWAIT, C_FACTOR,
	C_K, C_PEERS, C_BUSY, C_COMPARED, C_ABOVE, C_PERIOD, C_CONF,
	C_VERDICT, C_NCOL };

static const struct rcol_spec dev_cols[C_NCOL] = {
	{ "host", "Host", NULL, CF_PLAIN, 0 },
	{ "device", "Device", NULL, CF_PLAIN, 0 },
	{ "slow", "Slow", NULL, CF_BOOL, 0 },
	{ "since", "Slow since", NULL, CF_TIME, 0 },
	{ "await_ms", "Await", "ms", CF_PLAIN, 2 },
	{ "peers_await_ms", "Peers' median await", "ms", CF_PLAIN, 2 },
	{ "factor", "Times its peers'", "times", CF_PLAIN, 2 },
	{ "threshold", "K", "times", CF_PLAIN, 2 },
	{ "peers", "Peers", "devices", CF_PLAIN, 0 },
	{ "busy_hours", "Busy hours", "h", CF_PLAIN, 0 },
	{ "compared_hours", "Compared hours", "h", CF_PLAIN, 0 },
	{ "hours_above", "Hours above K", "h", CF_PLAIN, 0 },
	{ "period_hours", "Hours of the period", "h", CF_PLAIN, 0 },
	{ "confidence", "Confidence", NULL, CF_PLAIN, 0 },
	{ "verdict", "Verdict", NULL, CF_PLAIN, 0 },
};

/* The columns a terminal leaves out of the devices and hosts tables. */
#define HIDDEN "threshold,peers,busy_hours,compared_hours,hours_above," \
	"period_hours"

/* The host table: "kind" for "device", and other hosts as peers. */
static void
host_cols(struct rcol_spec out[C_NCOL])
{
	memcpy(out, dev_cols, sizeof dev_cols);
	out[C_WHO] = (struct rcol_spec){ "kind", "Devices of kind", NULL,
	    CF_PLAIN, 0 };
	out[C_PEERS] = (struct rcol_spec){ "peers", "Peer hosts", "hosts",
	    CF_PLAIN, 0 };
}

static double
ratio(double num, uint64_t den)
{
	return den ? num / (double)den : NAN;
}

/* Why a member was not called, or its verdict. */
static void
verdict_text(const struct health_track *t, enum health_verdict v,
    size_t npeers, double k, char *buf, size_t len)
{
	char d[32];

	switch (v) {
	case HV_SLOW:
		snprintf(buf, len, "slow");
		break;
	case HV_HEALTHY:
		snprintf(buf, len, "healthy");
		break;
	case HV_FEW_PEERS:
		snprintf(buf, len, "not called: %zu peer%s, %d needed", npeers,
		    npeers == 1 ? "" : "s", HEALTH_MIN_PEERS);
		break;
	case HV_FEW_BUSY:
		snprintf(buf, len, "not called: %" PRIu64 " busy hour%s, %d "
		    "needed", t->busy, t->busy == 1 ? "" : "s",
		    HEALTH_MIN_HOURS);
		break;
	case HV_FEW_COMPARED:
		snprintf(buf, len, "not called: %" PRIu64 " hour%s compared "
		    "with %d or more alike peers, %d needed", t->all.hours,
		    t->all.hours == 1 ? "" : "s", HEALTH_MIN_PEERS,
		    HEALTH_MIN_HOURS);
		break;
	case HV_TOO_SOON:
		snprintf(buf, len, "not called yet: %" PRIu64 " hour%s above "
		    "%g times its peers since %s UTC, %d needed",
		    t->since.above, t->since.above == 1 ? "" : "s", k,
		    human_date(t->onset, 1, d, sizeof d), HEALTH_MIN_HOURS);
		break;
	}
}

/* One row of the devices or hosts table. */
static void
put_row(struct rtable *tb, const char *host, const char *who,
    const struct health_track *t, size_t npeers, double k)
{
	enum health_verdict v = traffic_health_track_verdict(t, npeers);
	const struct health_sums *p = traffic_health_track_period(t, v);
	const char *conf = traffic_health_track_confidence(t, v);
	size_t row = result_row(tb);
	char why[256];

	result_set_text(tb, row, C_HOST, host);
	result_set_text(tb, row, C_WHO, who);
	if (v == HV_SLOW || v == HV_HEALTHY)
		result_set_int(tb, row, C_SLOW, v == HV_SLOW);
	if (v == HV_SLOW)
		result_set_int(tb, row, C_SINCE, t->onset);
	result_set_real(tb, row, C_K, k);
	result_set_uint(tb, row, C_PEERS, npeers);
	result_set_uint(tb, row, C_BUSY, t->busy);
	result_set_uint(tb, row, C_COMPARED, t->all.hours);
	if (v == HV_SLOW || v == HV_HEALTHY || v == HV_TOO_SOON) {
		double a = ratio((double)p->ms, p->nios);
		double b = ratio(p->peer_ms, p->nios);

		result_set_real(tb, row, C_AWAIT, a);
		result_set_real(tb, row, C_PEERS_AWAIT, b);
		if (b > 0)
			result_set_real(tb, row, C_FACTOR, a / b);
		result_set_uint(tb, row, C_ABOVE, p->above);
		result_set_uint(tb, row, C_PERIOD, p->hours);
	} else {
		result_set_real(tb, row, C_AWAIT, ratio((double)t->busy_ms,
		    t->busy_nios));
	}
	if (conf)
		result_set_text(tb, row, C_CONF, conf);
	verdict_text(t, v, npeers, k, why, sizeof why);
	result_set_text(tb, row, C_VERDICT, why);
}

static void
devices_table(struct result *r, const struct health_run *run)
{
	const struct devh_list *l = run->l;
	struct rtable *t = result_table(r, "devices", "Devices", dev_cols,
	    C_NCOL);

	result_wide(t, HIDDEN);

	for (size_t i = 0; i < l->n; i++)
		put_row(t, l->host[i], l->device[i], &run->dev[i],
		    traffic_health_run_dev_peers(run, i), run->k);
}

static void
hosts_table(struct result *r, const struct health_run *run)
{
	struct rcol_spec cols[C_NCOL];
	struct rtable *t;

	host_cols(cols);
	t = result_table(r, "hosts", "Hosts", cols, C_NCOL);
	result_wide(t, HIDDEN);
	for (size_t g = 0; g < run->ngroup; g++)
		put_row(t, run->l->host[run->group[g].host],
		    run->group[g].kind->kind, &run->host[g],
		    traffic_health_run_host_peers(run, g), run->k);
}

static const struct rcol_spec level_cols[] = {
	{ "host", "Host", NULL, CF_PLAIN, 0 },
	{ "devices", "Devices", NULL, CF_PLAIN, 0 },
	{ "kind", "Kind", NULL, CF_PLAIN, 0 },
	{ "what", "What they are", NULL, CF_PLAIN, 0 },
	{ "level", "What an aggregate counts", NULL, CF_PLAIN, 0 },
};

/* Per host and kind: the level its devices were sampled at. */
static void
levels_table(struct result *r, const struct health_run *run)
{
	struct rtable *t = result_table(r, "levels", "Sampled level per host",
	    level_cols, sizeof level_cols / sizeof *level_cols);

	result_wide(t, "devices,what");

	for (size_t g = 0; g < run->ngroup; g++) {
		const struct health_group *gr = &run->group[g];
		size_t row = result_row(t);

		result_set_text(t, row, 0, run->l->host[gr->host]);
		result_set_uint(t, row, 1, gr->n);
		result_set_text(t, row, 2, gr->kind->kind);
		result_set_text(t, row, 3, gr->kind->what);
		result_set_text(t, row, 4, traffic_kind_level(gr->kind));
	}
}

static const struct rcol_spec sum_cols[] = {
	{ "devices", "Devices", NULL, CF_PLAIN, 0 },
	{ "slow", "Slow", "devices", CF_PLAIN, 0 },
	{ "healthy", "Healthy", "devices", CF_PLAIN, 0 },
	{ "not_called", "Not called", "devices", CF_PLAIN, 0 },
	{ "slow_hosts", "Slow hosts", "hosts", CF_PLAIN, 0 },
	{ "threshold", "K", "times", CF_PLAIN, 2 },
};

/* How many devices are slow, healthy or not called; how many hosts are
 * slow. */
static void
summary_table(struct result *r, const struct health_run *run)
{
	struct rtable *t = result_table(r, "summary", "Summary", sum_cols,
	    sizeof sum_cols / sizeof *sum_cols);
	uint64_t slow = 0, healthy = 0, hosts = 0;
	size_t row;

	if (run->l->n == 0)
		return;		/* no data: no row */

	for (size_t i = 0; i < run->l->n; i++) {
		enum health_verdict v = traffic_health_run_dev_verdict(run, i);

		slow += v == HV_SLOW;
		healthy += v == HV_HEALTHY;
	}
	for (size_t g = 0; g < run->ngroup; g++)
		hosts += traffic_health_run_host_verdict(run, g) == HV_SLOW;
	row = result_row(t);
	result_set_uint(t, row, 0, run->l->n);
	result_set_uint(t, row, 1, slow);
	result_set_uint(t, row, 2, healthy);
	result_set_uint(t, row, 3, run->l->n - slow - healthy);
	result_set_uint(t, row, 4, hosts);
	result_set_real(t, row, 5, run->k);
}

/* "h001 sdc since 2010-03-02 00:00 UTC: await 23.70 ms against its
 * peers' 5.90 ms (4.02 times), 24 of 24 compared hours above K". */
static void
slow_note(struct result *r, const char *what, const char *host,
    const char *who, const struct health_track *t, double k)
{
	const struct health_sums *p = &t->since;
	double a = ratio((double)p->ms, p->nios), b = ratio(p->peer_ms,
	    p->nios);
	char d[32];

	result_note(r, "%s: %s %s since %s UTC: await %.2f ms against its "
	    "peers' %.2f ms (%.2f times); %" PRIu64 " of its %" PRIu64
	    " compared hours since then above %g times its peers' median.",
	    what, host, who, human_date(t->onset, 1, d, sizeof d), a, b,
	    a / b, p->above, p->hours, k);
}

static void
health_notes(struct result *r, const struct health_run *run)
{
	size_t slow = 0, called = 0;

	result_note(r, "Device health: hour by hour (the whole UTC hours of "
	    "the window), each device against the other devices of its kind "
	    "on its host, and each host's devices of a kind against those of "
	    "the other hosts. An hour is busy with at least %d valid minutes "
	    "and %d reads and writes; busy peers are compared when their "
	    "requests and request size are within a factor of %d of the "
	    "group's medians, by the least of the ratios of time per read, "
	    "per write and per byte to the other alike peers' medians. A "
	    "device is slow when it stays above K = %g times its peers' "
	    "median for most of its compared hours since some hour, and %d "
	    "of them (docs/analyses.md, \"Device health\").",
	    HEALTH_BUSY_MINUTES, HEALTH_BUSY_IOS, HEALTH_SIMILAR, run->k,
	    HEALTH_MIN_HOURS);
	for (size_t i = 0; i < run->l->n; i++) {
		enum health_verdict v = traffic_health_run_dev_verdict(run, i);

		called += v == HV_SLOW || v == HV_HEALTHY;
		if (v != HV_SLOW)
			continue;
		slow_note(r, "Slow device", run->l->host[i],
		    run->l->device[i], &run->dev[i], run->k);
		slow++;
	}
	for (size_t g = 0; g < run->ngroup; g++)
		if (traffic_health_run_host_verdict(run, g) == HV_SLOW)
			slow_note(r, "Slow host, against the other hosts",
			    run->l->host[run->group[g].host],
			    run->group[g].kind->what, &run->host[g], run->k);
	if (slow == 0 && called)
		result_note(r, "No slow device: %zu of %zu devices called "
		    "healthy.", called, run->l->n);
	if (called < run->l->n)
		result_note(r, "%zu device%s not called (too few peers, busy "
		    "hours or compared hours): never counted as healthy.",
		    run->l->n - called, run->l->n - called == 1 ? "" : "s");
	result_note(r, "The database keeps a device's host and kernel name, "
	    "not its model: a host's devices of one kind are peers whatever "
	    "their model, and a model K times slower than its peers would "
	    "be found slow.");
}

/* Open the window and track its hours. 0, or -1 with err; free both in
 * every case. */
static int
health_load(sqlite3 *db, const struct opts *o, struct devh_list *l,
    struct health_run *run, char *err, size_t errlen)
{
	memset(run, 0, sizeof *run);
	if (query_devhours_open(db, &o->win, l, err, errlen) < 0)
		return -1;
	traffic_health_run_init(run, l, opts_xdec_value(o->factor));
	return traffic_health_run_scan(db, run, err, errlen);
}

struct result *
traffic_health(sqlite3 *db, const struct opts *o, char *err, size_t errlen)
{
	struct result *r = result_new("health", "Device health");
	struct health_run run;
	struct devh_list l;
	size_t complete;
	int rc = -1;

	if (health_load(db, o, &l, &run, err, errlen) < 0 ||
	    traffic_coverage_window_notes(db, &o->win, l.n > 0, r, &complete,
	    err, errlen) < 0)
		goto out;
	if (l.n) {
		health_notes(r, &run);
		if (traffic_health_fig_add(db, r, &run, err, errlen) < 0)
			goto out;
	}
	summary_table(r, &run);
	devices_table(r, &run);
	hosts_table(r, &run);
	levels_table(r, &run);
	rc = 0;
out:
	traffic_health_run_free(&run);
	query_devhours_close(&l);
	if (rc) {
		result_free(r);
		return NULL;
	}
	return r;
}

struct result *
traffic_health_metrics(sqlite3 *db, const struct opts *o, char *err,
    size_t errlen)
{
	static const struct rcol_spec cols[] = {
		{ "host", "Host", NULL, CF_PLAIN, 0 },
		{ "device", "Device", NULL, CF_PLAIN, 0 },
		{ "value", "Value", NULL, CF_PLAIN, 0 },
	};
	struct result *r = result_new("metrics", "Device health");
	struct health_run run;
	struct devh_list l;
	struct rtable *t;
	char help[256];

	if (health_load(db, o, &l, &run, err, errlen) < 0) {
		traffic_health_run_free(&run);
		query_devhours_close(&l);
		result_free(r);
		return NULL;
	}
	snprintf(help, sizeof help, "1 if the device is slow: above %g times "
	    "its peers' median await for most of its busy hours since some "
	    "hour (iocensus health); 0 if healthy; no sample when it cannot "
	    "be called.", run.k);
	t = result_table(r, "iocensus_device_slow", help, cols, 3);
	for (size_t i = 0; i < l.n; i++) {
		enum health_verdict v = traffic_health_run_dev_verdict(&run, i);
		size_t row = result_row(t);

		result_set_text(t, row, 0, l.host[i]);
		result_set_text(t, row, 1, l.device[i]);
		if (v == HV_SLOW || v == HV_HEALTHY)
			result_set_int(t, row, 2, v == HV_SLOW);
	}
	traffic_health_run_free(&run);
	query_devhours_close(&l);
	return r;
}
