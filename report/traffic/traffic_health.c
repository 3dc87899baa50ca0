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
#include <assert.h>
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

static const struct rcol_spec dev_cols[] = {
	{ "host", "Host", NULL, CF_PLAIN, 0 },
	{ "device", "Device", NULL, CF_PLAIN, 0 },
	{ "slow", "Slow", NULL, CF_BOOL, 0 },
	{ "since", "Since", NULL, CF_TIME, 0 },
	{ "direction", "Direction", NULL, CF_PLAIN, 0 },
	{ "await_ms", "Await", "ms", CF_PLAIN, 2 },
	{ "peers_await_ms", "Peers' median await", "ms", CF_PLAIN, 2 },
	{ "factor", "Times its peers'", "times", CF_PLAIN, 2 },
	{ "read_factor", "Reads: times its peers'", "times", CF_PLAIN, 2 },
	{ "write_factor", "Writes: times its peers'", "times", CF_PLAIN, 2 },
	{ "threshold", "K", "times", CF_PLAIN, 2 },
	{ "peers", "Peers", "devices", CF_PLAIN, 0 },
	{ "busy_hours", "Busy hours", "h", CF_PLAIN, 0 },
	{ "compared_hours", "Compared hours", "h", CF_PLAIN, 0 },
	{ "hours_above", "Hours above K", "h", CF_PLAIN, 0 },
	{ "period_hours", "Hours of the period", "h", CF_PLAIN, 0 },
	{ "episodes", "Episodes", NULL, CF_PLAIN, 0 },
	{ "episode_seconds", "Time in episodes", NULL, CF_DURATION, 0 },
	{ "start", "Last episode, start", NULL, CF_TIME, 0 },
	{ "end", "Last episode, end", NULL, CF_TIME, 0 },
	{ "confidence", "Confidence", NULL, CF_PLAIN, 0 },
	{ "verdict", "Verdict", NULL, CF_PLAIN, 0 },
	{ "wwn", "WWN", NULL, CF_PLAIN, 0 },
	{ "serial", "Serial", NULL, CF_PLAIN, 0 },
	{ "model", "Model", NULL, CF_PLAIN, 0 },
	{ "slot", "Slot", NULL, CF_PLAIN, 0 },
};
#define NDEV_COLS	(sizeof dev_cols / sizeof *dev_cols)
/* The hosts table has the columns before "episodes" and from
 * "confidence" to "verdict". */
#define HOST_HEAD	16
#define HOST_TAIL	20
#define NHOST_COLS	(HOST_HEAD + 2)

/* The columns a terminal leaves out of the devices and hosts tables. */
#define HIDDEN_HOST "threshold,peers,busy_hours,compared_hours," \
	"hours_above,period_hours"
#define HIDDEN HIDDEN_HOST ",episode_seconds,start,end,wwn,serial,model,slot"

/* The host table: "kind" for "device", and other hosts as peers. */
static void
host_cols(struct rcol_spec out[NHOST_COLS])
{
	memcpy(out, dev_cols, HOST_HEAD * sizeof *dev_cols);
	memcpy(out + HOST_HEAD, dev_cols + HOST_TAIL, 2 * sizeof *dev_cols);
	out[1] = (struct rcol_spec){ "kind", "Devices of kind", NULL,
	    CF_PLAIN, 0 };
	out[11] = (struct rcol_spec){ "peers", "Peer hosts", "hosts",
	    CF_PLAIN, 0 };
}

static double
ratio(double num, double den)
{
	return den > 0 ? num / den : NAN;
}

/* A value by column key; a table without the column leaves it out. */
static void
set_real(struct rtable *tb, size_t row, const char *key, double v)
{
	int c = result_col_index(tb, key);

	if (c >= 0 && !isnan(v))
		result_set_real(tb, row, c, v);
}

static void
set_int(struct rtable *tb, size_t row, const char *key, int64_t v)
{
	int c = result_col_index(tb, key);

	if (c >= 0)
		result_set_int(tb, row, c, v);
}

static void
set_text(struct rtable *tb, size_t row, const char *key, const char *v)
{
	int c = result_col_index(tb, key);

	if (c >= 0 && v)
		result_set_text(tb, row, c, v);
}

/* "read", "write" or "both" for the directions dirs; NULL for none. */
static const char *
dir_word(unsigned dirs)
{
	static const char *const w[] = { NULL, "read", "write", "both" };

	return w[dirs & 3];
}

/* "reads", "writes", "reads and writes". */
static const char *
dir_plural(unsigned dirs)
{
	static const char *const w[] = { "", "reads", "writes",
	    "reads and writes" };

	return w[dirs & 3];
}

/* "1h40m", "20m". */
static const char *
hm(int64_t s, char *buf, size_t len)
{
	int64_t m = s / 60;

	if (m >= 60)
		snprintf(buf, len, "%" PRId64 "h%02" PRId64 "m", m / 60, m % 60);
	else
		snprintf(buf, len, "%" PRId64 "m", m);
	return buf;
}

/* What a member's row says of it. */
struct health_row {
	const struct health_track *t;
	enum health_verdict v;
	size_t npeers;
	int64_t since;			/* -1: none */
	const struct health_mtrack *min;	/* a device's; NULL: a host */
};

/* "2010-03-04 06:00-06:20" for an episode, the end's date when it is on
 * another day. */
static void
episode_when(const struct health_episode *e, char *buf, size_t len)
{
	char a[32], b[32];

	human_date(e->start, 1, a, sizeof a);
	human_date(e->end, 1, b, sizeof b);
	snprintf(buf, len, "%s-%s", a, strncmp(a, b, 11) == 0 ? b + 11 : b);
}

/* The verdict's text: its word first, then why. */
static void
verdict_text(const struct health_row *w, char *buf, size_t len)
{
	const struct health_track *t = w->t;
	char d[32], e[64], dur[32];
	int64_t secs = 0;

	switch (w->v) {
	case HV_SLOW:
	case HV_SUSPECT:
		snprintf(buf, len, "%s in %s since %s", w->v == HV_SLOW ?
		    "slow" : "suspect", dir_plural(traffic_health_track_dirs(t,
		    w->v)), human_date(w->since, 1, d, sizeof d));
		break;
	case HV_INTERMITTENT:
		for (size_t i = 0; i < w->min->nep; i++)
			secs += w->min->ep[i].end - w->min->ep[i].start;
		episode_when(&w->min->ep[w->min->nep - 1], e, sizeof e);
		snprintf(buf, len, "intermittent: %zu episodes, %s, the last %s",
		    w->min->nep, hm(secs, dur, sizeof dur), e);
		break;
	case HV_HEALTHY:
		snprintf(buf, len, "healthy");
		break;
	case HV_FEW_PEERS:
		snprintf(buf, len, "not called: %zu peer%s, %d needed",
		    w->npeers, w->npeers == 1 ? "" : "s", HEALTH_MIN_PEERS);
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
	}
}

static int
called(enum health_verdict v)
{
	return v == HV_SLOW || v == HV_INTERMITTENT || v == HV_SUSPECT ||
	    v == HV_HEALTHY;
}

/* The period's measures of a called member. */
static void
put_period(struct rtable *tb, size_t row, const struct health_sums *p)
{
	double a = ratio(p->ms, (double)p->nios);
	double b = ratio(p->peer_ms, (double)p->nios);

	set_real(tb, row, "await_ms", a);
	set_real(tb, row, "peers_await_ms", b);
	set_real(tb, row, "factor", ratio(a, b));
	if (p->fhours[HD_READ])
		set_real(tb, row, "read_factor", ratio(p->fnum[HD_READ],
		    p->fden[HD_READ]));
	if (p->fhours[HD_WRITE])
		set_real(tb, row, "write_factor", ratio(p->fnum[HD_WRITE],
		    p->fden[HD_WRITE]));
	set_int(tb, row, "hours_above", (int64_t)p->above);
	set_int(tb, row, "period_hours", (int64_t)p->hours);
}

/* A device's episodes: how many, how long, the last one. */
static void
put_episodes(struct rtable *tb, size_t row, const struct health_mtrack *m)
{
	int64_t secs = 0;

	for (size_t i = 0; i < m->nep; i++)
		secs += m->ep[i].end - m->ep[i].start;
	set_int(tb, row, "episodes", (int64_t)m->nep);
	set_int(tb, row, "episode_seconds", secs);
	if (m->nep) {
		set_int(tb, row, "start", m->ep[m->nep - 1].start);
		set_int(tb, row, "end", m->ep[m->nep - 1].end);
	}
}

/* One row of the devices or hosts table; its index. */
static size_t
put_row(struct rtable *tb, const char *host, const char *who,
    const struct health_row *w, double k)
{
	const struct health_track *t = w->t;
	const char *conf = traffic_health_track_confidence(t, w->v);
	size_t row = result_row(tb);
	char why[256];

	set_text(tb, row, "host", host);
	result_set_text(tb, row, 1, who);
	if (called(w->v))
		set_int(tb, row, "slow", w->v == HV_SLOW);
	if (w->since >= 0)
		set_int(tb, row, "since", w->since);
	set_text(tb, row, "direction", dir_word(traffic_health_track_dirs(t,
	    w->v)));
	set_real(tb, row, "threshold", k);
	set_int(tb, row, "peers", (int64_t)w->npeers);
	set_int(tb, row, "busy_hours", (int64_t)t->busy);
	set_int(tb, row, "compared_hours", (int64_t)t->all.hours);
	if (called(w->v))
		put_period(tb, row, traffic_health_track_period(t, w->v));
	else
		set_real(tb, row, "await_ms", ratio(t->busy_ms,
		    (double)t->busy_nios));
	if (w->min)
		put_episodes(tb, row, w->min);
	set_text(tb, row, "confidence", conf);
	verdict_text(w, why, sizeof why);
	set_text(tb, row, "verdict", why);
	return row;
}

/* Where the disk is: its identity, as its logs gave it last. */
static void
put_ident(struct rtable *tb, size_t row, const struct dev_ident *id)
{
	set_text(tb, row, "wwn", id->wwn);
	set_text(tb, row, "serial", id->serial);
	set_text(tb, row, "model", id->model);
	set_text(tb, row, "slot", id->slot);
}

static struct health_row
dev_row(const struct health_run *run, size_t i)
{
	return (struct health_row){ &run->dev[i],
	    traffic_health_run_dev_verdict(run, i),
	    traffic_health_run_dev_peers(run, i),
	    traffic_health_run_since(run, i), &run->min[i] };
}

/* A host's since is its onset hour. */
static struct health_row
host_row(const struct health_run *run, size_t g)
{
	struct health_row w = { &run->host[g],
	    traffic_health_run_host_verdict(run, g),
	    traffic_health_run_host_peers(run, g), -1, NULL };
	unsigned dirs = traffic_health_track_dirs(w.t, w.v);

	if (dirs)
		w.since = w.t->dir[traffic_health_track_first(w.t,
		    dirs)].onset;
	return w;
}

static void
devices_table(struct result *r, const struct health_run *run,
    const struct dev_ident *id)
{
	const struct devh_list *l = run->l;
	struct rtable *t = result_table(r, "devices", "Devices", dev_cols,
	    NDEV_COLS);

	result_wide(t, HIDDEN);

	for (size_t i = 0; i < l->n; i++) {
		struct health_row w = dev_row(run, i);

		put_ident(t, put_row(t, l->host[i], l->device[i], &w, run->k),
		    &id[i]);
	}
}

/* The columns of the devices called out. */
static const char *const out_keys[] = { "host", "device", "verdict",
	"direction", "since", "factor", "read_factor", "write_factor",
	"episodes", "episode_seconds", "start", "end", "confidence",
	"serial", "slot", "wwn", "model" };
#define NOUT	(sizeof out_keys / sizeof *out_keys)

/* A row per device called out: slow, intermittent or suspect. */
static void
called_table(struct result *r, const struct health_run *run,
    const struct dev_ident *id)
{
	struct rcol_spec cols[NOUT];
	struct rtable *t;

	for (size_t i = 0; i < NOUT; i++)
		for (size_t j = 0; j < NDEV_COLS; j++)
			if (strcmp(dev_cols[j].key, out_keys[i]) == 0)
				cols[i] = dev_cols[j];
	t = result_table(r, "called", "Devices called out: slow, "
	    "intermittent or suspect", cols, NOUT);
	result_wide(t, "start,end,wwn,model");
	for (size_t i = 0; i < run->l->n; i++) {
		struct health_row w = dev_row(run, i);

		if (w.v == HV_SLOW || w.v == HV_INTERMITTENT ||
		    w.v == HV_SUSPECT)
			put_ident(t, put_row(t, run->l->host[i],
			    run->l->device[i], &w, run->k), &id[i]);
	}
}

static void
hosts_table(struct result *r, const struct health_run *run)
{
	struct rcol_spec cols[NHOST_COLS];
	struct rtable *t;

	host_cols(cols);
	t = result_table(r, "hosts", "Hosts", cols, NHOST_COLS);
	result_wide(t, HIDDEN_HOST);
	for (size_t g = 0; g < run->ngroup; g++) {
		struct health_row w = host_row(run, g);

		put_row(t, run->l->host[run->group[g].host],
		    run->group[g].kind->kind, &w, run->k);
	}
}

static const struct rcol_spec ep_cols[] = {
	{ "host", "Host", NULL, CF_PLAIN, 0 },
	{ "device", "Device", NULL, CF_PLAIN, 0 },
	{ "start", "Start", NULL, CF_TIME, 0 },
	{ "end", "End", NULL, CF_TIME, 0 },
	{ "direction", "Direction", NULL, CF_PLAIN, 0 },
	{ "slow_minutes", "Slow minutes", "min", CF_PLAIN, 0 },
	{ "factor", "Times its peers' (greatest minute)", "times", CF_PLAIN,
	  2 },
};

/* Every device's episodes, whatever its verdict. */
static void
episodes_table(struct result *r, const struct health_run *run)
{
	struct rtable *t = result_table(r, "episodes", "Episodes", ep_cols,
	    sizeof ep_cols / sizeof *ep_cols);

	for (size_t i = 0; i < run->l->n; i++)
		for (size_t j = 0; j < run->min[i].nep; j++) {
			const struct health_episode *e = &run->min[i].ep[j];
			size_t row = result_row(t);

			result_set_text(t, row, 0, run->l->host[i]);
			result_set_text(t, row, 1, run->l->device[i]);
			result_set_int(t, row, 2, e->start);
			result_set_int(t, row, 3, e->end);
			result_set_text(t, row, 4, dir_word(e->dirs));
			result_set_uint(t, row, 5, e->slow);
			result_set_real(t, row, 6, e->factor);
		}
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
	{ "intermittent", "Intermittent", "devices", CF_PLAIN, 0 },
	{ "suspect", "Suspect", "devices", CF_PLAIN, 0 },
	{ "healthy", "Healthy", "devices", CF_PLAIN, 0 },
	{ "not_called", "Not called", "devices", CF_PLAIN, 0 },
	{ "slow_hosts", "Slow hosts", "hosts", CF_PLAIN, 0 },
	{ "threshold", "K", "times", CF_PLAIN, 2 },
};

/* How many devices have each verdict; how many hosts are slow. */
static void
summary_table(struct result *r, const struct health_run *run)
{
	struct rtable *t = result_table(r, "summary", "Summary", sum_cols,
	    sizeof sum_cols / sizeof *sum_cols);
	uint64_t n[HV_FEW_COMPARED + 1] = { 0 }, hosts = 0;
	size_t row;

	if (run->l->n == 0)
		return;		/* no data: no row */

	for (size_t i = 0; i < run->l->n; i++)
		n[traffic_health_run_dev_verdict(run, i)]++;
	for (size_t g = 0; g < run->ngroup; g++)
		hosts += traffic_health_run_host_verdict(run, g) == HV_SLOW;
	row = result_row(t);
	result_set_uint(t, row, 0, run->l->n);
	result_set_uint(t, row, 1, n[HV_SLOW]);
	result_set_uint(t, row, 2, n[HV_INTERMITTENT]);
	result_set_uint(t, row, 3, n[HV_SUSPECT]);
	result_set_uint(t, row, 4, n[HV_HEALTHY]);
	result_set_uint(t, row, 5, n[HV_FEW_PEERS] + n[HV_FEW_BUSY] +
	    n[HV_FEW_COMPARED]);
	result_set_uint(t, row, 6, hosts);
	result_set_real(t, row, 7, run->k);
}

/* "h001 sdc: slow in reads since 2010-03-02 06:45 UTC: await 23.70 ms
 * against its peers' 5.90 ms (4.02 times; reads 4.10 times); 24 of 24
 * compared hours since then above K". */
static void
slow_note(struct result *r, const char *what, const char *host,
    const char *who, const struct health_row *w, double k)
{
	const struct health_sums *p = traffic_health_track_period(w->t, w->v);
	double a = ratio(p->ms, (double)p->nios), b = ratio(p->peer_ms,
	    (double)p->nios);
	char d[32], f[96] = "";
	size_t at = 0;

	for (int x = 0; x < HD_N; x++)
		if (p->fhours[x] && p->fden[x] > 0)
			at += (size_t)snprintf(f + at, sizeof f - at, "; %s "
			    "%.2f times", x == HD_READ ? "reads" : "writes",
			    p->fnum[x] / p->fden[x]);
	result_note(r, "%s: %s %s slow in %s since %s UTC: await %.2f ms "
	    "against its peers' %.2f ms (%.2f times%s); %" PRIu64 " of its %"
	    PRIu64 " compared hours since then above %g times its peers' "
	    "median.", what, host, who, dir_plural(traffic_health_track_dirs(
	    w->t, w->v)), human_date(w->since, 1, d, sizeof d), a, b, a / b,
	    f, p->above, p->hours, k);
}

/* "h003 sdb: intermittent: 3 episodes, ..." */
static void
intermittent_note(struct result *r, const struct health_run *run, size_t i)
{
	struct health_row w = dev_row(run, i);
	char why[256];

	verdict_text(&w, why, sizeof why);
	result_note(r, "Intermittent device: %s %s: %s UTC (table episodes).",
	    run->l->host[i], run->l->device[i], why);
}

static void
health_notes(struct result *r, const struct health_run *run)
{
	size_t slow = 0, ncalled = 0;

	result_note(r, "Device health: hour by hour (the whole UTC hours of "
	    "the window), each device against the other devices of its kind "
	    "on its host, and each host's devices of a kind against those of "
	    "the other hosts. An hour is busy with at least %d valid minutes "
	    "and %d reads and writes; busy peers are compared when their "
	    "request size is within a factor of %d of the group's median and "
	    "their load would keep a disk of their peers' speed busy less "
	    "than %g of the time, by their time per read and per MiB read, "
	    "per write and per MiB written, each divided by the wait their "
	    "load explains (M/M/1), against the other alike peers' medians; "
	    "reads and writes apart. A device is slow in a direction when it "
	    "stays above K = %g times its peers' median for most of its hours "
	    "compared in it since some hour, and %d of them; intermittent "
	    "with %d or more episodes of %d or more slow minutes; suspect "
	    "when above K since some hour for fewer than %d hours "
	    "(docs/analyses.md, \"Device health\").", HEALTH_BUSY_MINUTES,
	    HEALTH_BUSY_IOS, HEALTH_SIMILAR, HEALTH_RHO_MAX, run->k,
	    HEALTH_MIN_HOURS, HEALTH_EPISODES, HEALTH_EPISODE_MINUTES,
	    HEALTH_MIN_HOURS);
	for (size_t i = 0; i < run->l->n; i++) {
		struct health_row w = dev_row(run, i);

		ncalled += called(w.v);
		if (w.v == HV_INTERMITTENT)
			intermittent_note(r, run, i);
		if (w.v != HV_SLOW)
			continue;
		slow_note(r, "Slow device", run->l->host[i],
		    run->l->device[i], &w, run->k);
		slow++;
	}
	for (size_t g = 0; g < run->ngroup; g++) {
		struct health_row w = host_row(run, g);

		if (w.v == HV_SLOW)
			slow_note(r, "Slow host, against the other hosts",
			    run->l->host[run->group[g].host],
			    run->group[g].kind->what, &w, run->k);
	}
	if (slow == 0 && ncalled)
		result_note(r, "No slow device: %zu of %zu devices called.",
		    ncalled, run->l->n);
	if (ncalled < run->l->n)
		result_note(r, "%zu device%s not called (too few peers, busy "
		    "hours or compared hours): never counted as healthy.",
		    run->l->n - ncalled, run->l->n - ncalled == 1 ? "" : "s");
	result_note(r, "The database keeps a device's host and kernel name, "
	    "not its model: a host's devices of one kind are peers whatever "
	    "their model, and a model K times slower than its peers would "
	    "be found slow.");
}

/* Open the window and track its hours. 0, or -1 with err; free both in
 * every case. */
static int
health_load(sqlite3 *db, const struct opts *o, struct devh_list *l,
    struct health_run *run, int figures, char *err, size_t errlen)
{
	memset(run, 0, sizeof *run);
	if (query_devhours_open(db, &o->win, l, err, errlen) < 0)
		return -1;
	traffic_health_run_init(run, l, opts_xdec_value(o->factor));
	if (traffic_health_run_hours(db, run, err, errlen) < 0)
		return -1;
	if (figures)
		traffic_health_fig_want(run);
	return traffic_health_run_minutes(db, run, err, errlen);
}

struct result *
traffic_health(sqlite3 *db, const struct opts *o, char *err, size_t errlen)
{
	struct result *r = result_new("health", "Device health");
	struct health_run run;
	struct devh_list l;
	struct dev_ident *id = NULL;
	size_t complete;
	int rc = -1;

	assert(db != NULL && o != NULL && err != NULL);
	if (health_load(db, o, &l, &run, 1, err, errlen) < 0 ||
	    traffic_coverage_window_notes(db, &o->win, l.n > 0, r, &complete,
	    err, errlen) < 0 ||
	    query_ident_load(db, (const char *const *)l.host,
	    (const char *const *)l.device, l.n, &id, err, errlen) < 0)
		goto out;
	if (l.n) {
		health_notes(r, &run);
		traffic_health_fig_add(r, &run);
	}
	summary_table(r, &run);
	called_table(r, &run, id);
	devices_table(r, &run, id);
	hosts_table(r, &run);
	episodes_table(r, &run);
	levels_table(r, &run);
	rc = 0;
out:
	query_ident_free(id, l.n);
	traffic_health_run_free(&run);
	query_devhours_close(&l);
	if (rc) {
		result_free(r);
		return NULL;
	}
	return r;
}

/* A family of the called devices: the value of each. */
static void
dev_family(struct result *r, const struct health_run *run, const char *name,
    const char *help, int slow)
{
	static const struct rcol_spec cols[] = {
		{ "host", "Host", NULL, CF_PLAIN, 0 },
		{ "device", "Device", NULL, CF_PLAIN, 0 },
		{ "value", "Value", NULL, CF_PLAIN, 0 },
	};
	struct rtable *t = result_table(r, name, help, cols, 3);

	for (size_t i = 0; i < run->l->n; i++) {
		enum health_verdict v = traffic_health_run_dev_verdict(run, i);
		size_t row = result_row(t);

		result_set_text(t, row, 0, run->l->host[i]);
		result_set_text(t, row, 1, run->l->device[i]);
		if (called(v))
			result_set_int(t, row, 2, slow ? v == HV_SLOW :
			    (int64_t)traffic_health_run_episodes(run, i));
	}
}

struct result *
traffic_health_metrics(sqlite3 *db, const struct opts *o, char *err,
    size_t errlen)
{
	struct result *r = result_new("metrics", "Device health");
	struct health_run run;
	struct devh_list l;
	char help[320];

	assert(db != NULL && o != NULL && err != NULL);
	if (health_load(db, o, &l, &run, 0, err, errlen) < 0) {
		traffic_health_run_free(&run);
		query_devhours_close(&l);
		result_free(r);
		return NULL;
	}
	snprintf(help, sizeof help, "1 if the device is slow: above %g times "
	    "its peers' in reads or writes for most of its compared hours "
	    "since some hour (iocensus health); 0 if intermittent, suspect or "
	    "healthy; no sample when it cannot be called.", run.k);
	dev_family(r, &run, "iocensus_device_slow", help, 1);
	snprintf(help, sizeof help, "Episodes of the device in the window: "
	    "runs of %d or more minutes above %g times its peers' (iocensus "
	    "health); no sample when it cannot be called.",
	    HEALTH_EPISODE_MINUTES, run.k);
	dev_family(r, &run, "iocensus_device_slow_episodes", help, 0);
	traffic_health_run_free(&run);
	query_devhours_close(&l);
	return r;
}
