/*
 * traffic_metrics: the I/O data as Prometheus gauges, per host: when its
 * latest ingested sample ends, and what its devices read and wrote over
 * its latest complete UTC day, with that day's start.
 *
 * A day is complete for a host when each of its 1,440 minutes is
 * complete for it: every device the host was expected to have then had
 * a value (docs/analyses.md, "Minutes, expected devices and complete
 * minutes"); throughput calls a day with fewer complete minutes partial
 * and so is it here. A day with a gap, the day the data starts or ends
 * in, and a day outside the window are not complete: the latest day
 * before them that is counts, and a host without one has no sample. The
 * days looked at are the 366 UTC days up to the end of the data (as the
 * default window of every I/O question is its last 366 days), and the
 * sums are the hosts' minute values (io_host_hour, through
 * query_scan_host_minutes), each host's devices as iostatmon sampled them.
 *
 * iocensus_device_info is an info family, as node_exporter's
 * node_disk_info: the value 1, the facts in the labels, one sample per
 * device with a known identity (its current one, query_ident.c), a label
 * the device has no value for left out.
 */
#include <stdlib.h>

#include "traffic_int.h"
#include "floordiv.h"
#include "xalloc.h"
#include "i128.h"

#define SCAN_DAYS 8

enum { F_LAST, F_DAY, F_READ, F_WRITE, NFAMILY };

static const struct {
	const char *name, *help, *unit;
} family[NFAMILY] = {
	[F_LAST] = { "iocensus_io_last_sample_timestamp_seconds", "End of "
	    "the host's latest ingested I/O sample, unix seconds (rounded "
	    "down): it stops growing when its logs stop arriving or are no "
	    "longer ingested.", "seconds" },
	[F_DAY] = { "iocensus_io_day_timestamp_seconds", "Start of the "
	    "host's latest complete UTC day (every minute complete), unix "
	    "seconds: the day iocensus_io_day_read_bytes and "
	    "iocensus_io_day_write_bytes count.", "seconds" },
	[F_READ] = { "iocensus_io_day_read_bytes", "Bytes the host's devices "
	    "read over its latest complete UTC day.", "bytes" },
	[F_WRITE] = { "iocensus_io_day_write_bytes", "Bytes the host's "
	    "devices wrote over its latest complete UTC day.", "bytes" },
};

static const struct rcol_spec info_cols[] = {
	{ "host", "Host", NULL, CF_PLAIN, 0 },
	{ "device", "Device", NULL, CF_PLAIN, 0 },
	{ "wwn", "WWN", NULL, CF_PLAIN, 0 },
	{ "serial", "Serial", NULL, CF_PLAIN, 0 },
	{ "model", "Model", NULL, CF_PLAIN, 0 },
	{ "slot", "Slot", NULL, CF_PLAIN, 0 },
	{ "value", "Value", NULL, CF_PLAIN, 0 },
};

/* The devices' current identities as iocensus_device_info. */
static int
info_family(sqlite3 *db, struct result *r, char *err, size_t errlen)
{
	struct rtable *t = result_table(r, "iocensus_device_info", "The "
	    "identity of the disk a host's device name is now (its logs' "
	    "latest): WWN, serial, model and enclosure slot or by-path name; "
	    "a label without a value is left out.", info_cols,
	    sizeof info_cols / sizeof *info_cols);
	struct dev_ident_row *v;
	size_t n;

	if (query_ident_all(db, &v, &n, err, errlen) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		const char *label[] = { v[i].host, v[i].device, v[i].id.wwn,
		    v[i].id.serial, v[i].id.model, v[i].id.slot };

		result_sample(t, label, 1);
	}
	query_ident_rows_free(v, n);
	return 0;
}

/* One host's current day and its latest complete one. */
struct day_acc {
	int64_t day;		/* start of the day being summed */
	size_t complete;	/* its complete minutes so far */
	u128 rd, wr;		/* over them (1,440 x 2^64 fits) */
	int has;		/* a complete day was seen: */
	int64_t best;		/* the latest, and its sums */
	u128 best_rd, best_wr;
};

/* The day a ends: kept when every minute of it was complete. */
static void
close_day(struct day_acc *a)
{
	if (a->complete != IO_DAY_S / IO_MINUTE_S)
		return;
	a->has = 1;
	a->best = a->day;
	a->best_rd = a->rd;
	a->best_wr = a->wr;
}

/* Minutes come in time order: a new day closes the one before. */
static int
minute(const struct host_minute *m, void *arg)
{
	struct day_acc *acc = arg;
	int64_t day = floor_align64(m->t, IO_DAY_S);

	for (size_t h = 0; h < m->nhost; h++) {
		struct day_acc *a = &acc[h];

		if (a->day != day) {
			close_day(a);
			a->day = day;
			a->complete = 0;
			a->rd = a->wr = 0;
		}
		if (m->state[h] != MIN_COMPLETE)
			continue;
		a->complete++;
		a->rd += m->rd[h];
		a->wr += m->wr[h];
	}
	return 0;
}

static void
put(struct result *r, int f, const char *host, i128 v)
{
	result_sample(&r->table[f], &host, v);
}

/* Take the chunk's complete days: a host's latest is its answer. */
static void
take(struct day_acc *acc, struct day_acc *chunk, const size_t *ix, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		close_day(&chunk[k]);
		if (chunk[k].has)
			acc[ix[k]] = chunk[k];
	}
}

/* The latest complete day of each host (last[0..n), every host with
 * data), in the 366 UTC days up to the day the data ends: SCAN_DAYS
 * whole days at a time from that end back, each time over the hosts
 * without one yet, so that the usual answer, yesterday, costs a week. */
static int
days(sqlite3 *db, const struct host_last *last, size_t n, struct day_acc *acc,
    char *err, size_t errlen)
{
	struct day_acc *chunk = xcalloc(n + 1, sizeof *chunk);
	struct host_list hl = { 0, xcalloc(n + 1, sizeof *hl.name) };
	size_t *ix = xcalloc(n + 1, sizeof *ix);
	int64_t end = INT64_MIN, lo, from;
	int rc = 0;

	for (size_t i = 0; i < n; i++)
		if (last[i].last_ms > end)
			end = last[i].last_ms;
	end = floor_align64(floor_div64(end, 1000), IO_DAY_S) + IO_DAY_S;
	lo = end - (IO_DEFAULT_DAYS + 1) * IO_DAY_S;
	for (int64_t to = end; n > 0 && to > lo && rc == 0; to = from) {
		struct io_window w = { .has_from = 1, .has_to = 1 };

		from = to - SCAN_DAYS * IO_DAY_S > lo ? to - SCAN_DAYS *
		    IO_DAY_S : lo;
		hl.n = 0;
		for (size_t i = 0; i < n; i++)
			if (!acc[i].has) {
				chunk[hl.n] = (struct day_acc){ .day =
				    INT64_MIN };
				hl.name[hl.n] = last[i].host;
				ix[hl.n++] = i;
			}
		if (hl.n == 0)
			break;
		w.from = from;
		w.to = to;
		rc = query_scan_host_minutes(db, &w, &hl, minute, chunk, err,
		    errlen);
		if (rc == 0)
			take(acc, chunk, ix, hl.n);
	}
	free(chunk);
	free(hl.name);
	free(ix);
	return rc;
}

struct result *
traffic_metrics(sqlite3 *db, const struct opts *o, char *err, size_t errlen)
{
	struct result *r = result_new("metrics", "I/O metrics");
	struct host_last *last;
	struct day_acc *acc;
	size_t n;

	(void)o;	/* no option: every host, the default window */

	for (int f = 0; f < NFAMILY; f++) {
		const struct rcol_spec cols[] = {
			{ "host", "Host", NULL, CF_PLAIN, 0 },
			{ "value", "Value", family[f].unit, CF_PLAIN, 0 },
		};
		result_table(r, family[f].name, family[f].help, cols, 2);
	}
	if (query_hosts_last(db, &last, &n, err, errlen) < 0) {
		result_free(r);
		return NULL;
	}
	acc = xcalloc(n + 1, sizeof *acc);
	if (days(db, last, n, acc, err, errlen) < 0 ||
	    info_family(db, r, err, errlen) < 0) {
		result_free(r);
		r = NULL;
	}
	for (size_t i = 0; r && i < n; i++) {
		put(r, F_LAST, last[i].host, floor_div64(last[i].last_ms,
		    1000));
		if (!acc[i].has)
			continue;
		put(r, F_DAY, last[i].host, acc[i].best);
		put(r, F_READ, last[i].host, (i128)acc[i].best_rd);
		put(r, F_WRITE, last[i].host, (i128)acc[i].best_wr);
	}
	free(acc);
	query_hosts_last_free(last, n);
	return r;
}
