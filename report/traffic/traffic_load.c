/*
 * traffic_load: Beacon's hourly load classes (docs/analyses.md, "Hourly load classes"; Yang et
 * al., NSDI 2019) per server, fed minute by minute by traffic_burst's scan.
 *
 * For each host and UTC hour, peak_h is the host's busiest complete
 * minute of the hour (rd + wr bytes); r = peak_h / P_ref, where P_ref is
 * --host-peak or the observed maximum over every host and complete
 * minute. idle r < 10%, low 10% <= r < 50%, mid 50% <= r <= 90%, high
 * r > 90%, compared exactly (traffic_int.h). An hour in which the host has an
 * expected minute that is not complete, or no complete minute at all, is
 * missing: it is never classed from part of its data.
 */
#include <stdlib.h>
#include <string.h>

#include "traffic_load_int.h"
#include "traffic_int.h"
#include "floordiv.h"
#include "human.h"
#include "xalloc.h"

#define HOUR_S	3600
/* "Time > 75%": minutes above this share of P_ref. */
#define ABOVE_PCT	XDEC_INT(75)

struct load_hour {		/* one host in one hour */
	uint64_t peak;		/* max bytes over its complete minutes */
	uint32_t complete;	/* complete minutes */
	uint8_t missing;	/* some expected minute was not complete */
};

struct load_acc {
	size_t nhost, nhour, cap;	/* cap: hours allocated */
	int64_t hour0;			/* start of hour 0 */
	struct load_hour *cell;		/* nhour * nhost, hour-major */
	int64_t t_first, t_end;		/* the minutes scanned: [first, end) */
	struct io_peak ref;		/* P_ref (observed: filled as we go) */
	size_t ref_host;		/* observed: whose minute it was */
	uint64_t *above, *complete;	/* per host: minutes > 75%, complete */
};

struct load_acc *
traffic_load_new(size_t nhost, struct xdec host_peak_mib_s)
{
	struct load_acc *a = xcalloc(1, sizeof *a);

	a->nhost = nhost;
	a->above = xcalloc(nhost ? nhost : 1, sizeof *a->above);
	a->complete = xcalloc(nhost ? nhost : 1, sizeof *a->complete);
	if (host_peak_mib_s.n > 0)
		traffic_peak_configured(&a->ref, host_peak_mib_s);
	else
		traffic_peak_observed(&a->ref, 0, -1);
	return a;
}

void
traffic_load_free(struct load_acc *a)
{
	if (!a)
		return;
	free(a->cell);
	free(a->above);
	free(a->complete);
	free(a);
}

/* The cells of the hour holding t, appending hours as the scan moves on
 * (minutes arrive in time order, so hours only grow). */
static struct load_hour *
hour_cells(struct load_acc *a, int64_t t)
{
	int64_t h = floor_align64(t, HOUR_S);

	if (a->nhour == 0)
		a->hour0 = h;
	while (a->hour0 + (int64_t)a->nhour * HOUR_S <= h) {
		a->cell = xgrow(a->cell, a->nhour, &a->cap,
		    xmul(a->nhost, sizeof *a->cell), 64);
		memset(&a->cell[a->nhour * a->nhost], 0,
		    a->nhost * sizeof *a->cell);
		a->nhour++;
	}
	return &a->cell[(size_t)((h - a->hour0) / HOUR_S) * a->nhost];
}

void
traffic_load_minute(struct load_acc *a, const struct host_minute *m)
{
	struct load_hour *c = hour_cells(a, m->t);

	if (a->t_end == 0)
		a->t_first = m->t;
	a->t_end = m->t + 60;
	for (size_t h = 0; h < a->nhost; h++) {
		uint64_t b;

		if (m->state[h] == MIN_MISSING)
			c[h].missing = 1;
		if (m->state[h] != MIN_COMPLETE)
			continue;
		b = m->rd[h] + m->wr[h];
		c[h].complete++;
		if (b > c[h].peak || c[h].complete == 1)
			c[h].peak = b;
		a->complete[h]++;
		if (a->ref.configured) {
			if (traffic_peak_cmp(&a->ref, b, ABOVE_PCT) > 0)
				a->above[h]++;
		} else if (a->ref.t < 0 || b > a->ref.bytes) {
			traffic_peak_observed(&a->ref, b, m->t);
			a->ref_host = h;
		}
	}
}

/* Second pass with an observed P_ref: minutes above 75% of it. */
static int
count_above(const struct host_minute *m, void *arg)
{
	struct load_acc *a = arg;

	for (size_t h = 0; h < a->nhost; h++)
		if (m->state[h] == MIN_COMPLETE &&
		    traffic_peak_cmp(&a->ref, m->rd[h] + m->wr[h],
		    ABOVE_PCT) > 0)
			a->above[h]++;
	return 0;
}

/* Can hour k hold a minute above 75% of P_ref? Only if some host's
 * busiest complete minute of it is. */
static int
hour_may_be_above(const struct load_acc *a, size_t k)
{
	const struct load_hour *c = &a->cell[k * a->nhost];

	for (size_t h = 0; h < a->nhost; h++)
		if (c[h].complete &&
		    traffic_peak_cmp(&a->ref, c[h].peak, ABOVE_PCT) > 0)
			return 1;
	return 0;
}

/* The observed P_ref is known only after the first scan: rescan the runs
 * of hours that can hold a minute above 75% of it (bursts are short, so
 * this is a small part of the window, and at worst all of it once). */
static int
rescan_above(struct load_acc *a, sqlite3 *db, const struct io_window *w,
    const struct host_list *hl, char *err, size_t errlen)
{
	for (size_t k = 0, e; k < a->nhour; k = e) {
		struct io_window sub = *w;
		int64_t from, to;

		if (!hour_may_be_above(a, k)) {
			e = k + 1;
			continue;
		}
		for (e = k + 1; e < a->nhour && hour_may_be_above(a, e); e++)
			;
		from = a->hour0 + (int64_t)k * HOUR_S;
		to = a->hour0 + (int64_t)e * HOUR_S;
		sub.from = from > a->t_first ? from : a->t_first;
		sub.to = to < a->t_end ? to : a->t_end;
		sub.has_from = sub.has_to = 1;
		if (query_scan_host_minutes(db, &sub, hl, count_above, a, err,
		    errlen))
			return -1;
	}
	return 0;
}

enum { CL_IDLE, CL_LOW, CL_MID, CL_HIGH, CL_MISSING, CL_N };
static const char *const class_name[CL_N] = {
	"idle", "low", "mid", "high", "missing"
};

/* An observed P_ref of 0 bytes (no server moved a byte) makes every
 * observed hour idle: r is 0/0, but nothing happened. */
static int
hour_class(const struct load_acc *a, const struct load_hour *c)
{
	if (c->missing || c->complete == 0)
		return CL_MISSING;
	if (!a->ref.configured && a->ref.bytes == 0)
		return CL_IDLE;
	if (traffic_peak_cmp(&a->ref, c->peak, XDEC_INT(10)) < 0)
		return CL_IDLE;
	if (traffic_peak_cmp(&a->ref, c->peak, XDEC_INT(50)) < 0)
		return CL_LOW;
	if (traffic_peak_cmp(&a->ref, c->peak, XDEC_INT(90)) <= 0)
		return CL_MID;
	return CL_HIGH;
}

/* peak_h / P_ref, NaN (stored as NULL) when P_ref is 0; one rounding,
 * so a minute at exactly 10% of a configured peak shows 0.1. */
static double
hour_ratio(const struct load_acc *a, uint64_t peak)
{
	return traffic_peak_ratio(&a->ref, peak);
}

static const struct rcol_spec class_cols[] = {
	{ "host", "Host", NULL, CF_PLAIN, 0 },
	{ "t", "Hour", NULL, CF_TIME, 0 },
	{ "class", "Class", NULL, CF_PLAIN, 0 },
	{ "complete_minutes", "Complete minutes", "min", CF_PLAIN, 0 },
	{ "peak_mib_s", "Peak", "MiB/s", CF_PLAIN, 3 },
	{ "ratio", "Peak / P_ref", "%", CF_PCT, 1 },
};

static const struct rcol_spec count_cols[] = {
	{ "host", "Host", NULL, CF_PLAIN, 0 },
	{ "idle", "Idle hours", "h", CF_PLAIN, 0 },
	{ "low", "Low hours", "h", CF_PLAIN, 0 },
	{ "mid", "Mid hours", "h", CF_PLAIN, 0 },
	{ "high", "High hours", "h", CF_PLAIN, 0 },
	{ "missing", "Missing hours", "h", CF_PLAIN, 0 },
	{ "complete_minutes", "Complete minutes", "min", CF_PLAIN, 0 },
	{ "above75_minutes", "Minutes > 75% of P_ref", "min", CF_PLAIN, 0 },
	{ "above75_share", "Time > 75% of P_ref", "%", CF_PCT, 1 },
};

/* One host's row in load_classes per hour; counts its classes. */
static void
host_rows(const struct load_acc *a, size_t h, const char *name,
    struct rtable *t, uint64_t count[CL_N])
{
	for (size_t k = 0; k < a->nhour; k++) {
		const struct load_hour *c = &a->cell[k * a->nhost + h];
		int cl = hour_class(a, c);
		size_t row = result_row(t);

		count[cl]++;
		result_set_text(t, row, 0, name);
		result_set_int(t, row, 1, a->hour0 + (int64_t)k * HOUR_S);
		result_set_text(t, row, 2, class_name[cl]);
		result_set_uint(t, row, 3, c->complete);
		if (cl == CL_MISSING)
			continue;
		result_set_real(t, row, 4, traffic_mib_s(c->peak));
		result_set_real(t, row, 5, hour_ratio(a, c->peak));
	}
}

/* Both tables exist before either is filled: adding a table may move the
 * table array, so rows go through indexes. */
static void
add_tables(const struct load_acc *a, const struct host_list *hl,
    struct result *r)
{
	size_t ti, ci;
	struct rfigure *f;

	result_table(r, "load_classes", "Hourly load class per server",
	    class_cols, sizeof class_cols / sizeof *class_cols)->detail = 1;
	ti = r->ntable - 1;
	result_table(r, "load_counts", "Load classes per server", count_cols,
	    sizeof count_cols / sizeof *count_cols);
	ci = r->ntable - 1;
	for (size_t h = 0; h < a->nhost; h++) {
		struct rtable *ct = &r->table[ci];
		uint64_t count[CL_N] = { 0 };
		size_t row;

		host_rows(a, h, hl->name[h], &r->table[ti], count);
		row = result_row(ct);
		result_set_text(ct, row, 0, hl->name[h]);
		for (int cl = 0; cl < CL_N; cl++)
			result_set_uint(ct, row, 1 + cl, count[cl]);
		result_set_uint(ct, row, 6, a->complete[h]);
		result_set_uint(ct, row, 7, a->above[h]);
		if (a->complete[h])
			result_set_real(ct, row, 8,
			    (double)a->above[h] / (double)a->complete[h]);
	}
	if (r->table[ti].nrow == 0)
		return;
	f = result_figure(r, "load_classes", FIG_HEAT, ti,
	    "Hourly load classes per server",
	    "Each cell is one server in one UTC hour, classed by its busiest "
	    "complete minute relative to P_ref: idle < 10%, low < 50%, "
	    "mid <= 90%, high > 90%; missing: the hour has an expected minute "
	    "without data.", "server", "UTC hour");
	f->xcol = 0;
	f->ycol[0] = 1;
	f->ycol[1] = 2;
	f->ny = 2;
}

static void
add_notes(const struct load_acc *a, const struct host_list *hl,
    struct result *r)
{
	char when[32];

	if (a->ref.configured)
		result_note(r, "Load classes (Beacon): P_ref = %.3f MiB/s per "
		    "server, configured (--host-peak).", a->ref.mib_s);
	else if (a->ref.t < 0)
		return;
	else if (a->ref.bytes == 0)
		result_note(r, "Load classes (Beacon): no server moved a byte "
		    "in a complete minute; every observed hour is idle and "
		    "the ratio to P_ref is undefined.");
	else
		result_note(r, "Load classes (Beacon): P_ref = %.3f MiB/s, "
		    "observed: the busiest complete minute of any server "
		    "(%s at %s UTC).", a->ref.mib_s, hl->name[a->ref_host],
		    human_date(a->ref.t, 1, when, sizeof when));
	result_note(r, "Each server's UTC hour is classed by its busiest "
	    "complete minute: idle below 10%% of P_ref, low from 10%% to "
	    "below 50%%, mid from 50%% to 90%% inclusive, high above 90%%; an "
	    "hour with an expected minute that is not complete, or with no "
	    "complete minute, is missing. \"Time > 75%%\" is the share of a "
	    "server's complete minutes above 75%% of P_ref.");
}

int
traffic_load_finish(struct load_acc *a, sqlite3 *db, const struct io_window *w,
    const struct host_list *hl, struct result *r, char *err, size_t errlen)
{
	if (!a->ref.configured && a->ref.bytes > 0 &&
	    rescan_above(a, db, w, hl, err, errlen))
		return -1;
	add_notes(a, hl, r);
	add_tables(a, hl, r);
	return 0;
}
