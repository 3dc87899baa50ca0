/*
 * traffic_devices: per-device and per-host tables (average and peak MiB/s,
 * IOPS, utilisation, await, request size, read share) and the imbalance
 * across the devices of a host and across hosts (max / mean).
 *
 * Devices: sums over their valid minutes in the window (query_devstats_load),
 * so gaps, samples across a gap or a reset and time outside the window
 * never count; averages divide by those minutes' seconds, peaks are the
 * busiest of them (so an average never exceeds its peak). Every device
 * expected in the window has a row, whether or not the minutes of the
 * system are complete. Hosts: the sums over their devices; a host's
 * average rate is the sum of its devices' average rates, its peak the
 * busiest complete minute of the host as a whole (devices peak at
 * different minutes, so summing their peaks would overstate it).
 * Each device row ends with the device's current identity (WWN, serial,
 * model, slot: query_ident_load), the disk to pull.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "traffic.h"
#include "traffic_int.h"
#include "xalloc.h"

/* The figures of one device or host. */
struct io_row {
	const char *host, *device;	/* device NULL: a host row */
	size_t ndev;
	uint64_t samples, covered_ms, minutes;
	uint64_t rd_ios, wr_ios, oth_ios, rd_bytes, wr_bytes, rd_ms, wr_ms,
	    io_ms;
	double avg_mib_s, avg_iops;	/* NaN: no covered time */
	uint64_t peak_bytes, peak_ios;
	int64_t peak_t;			/* -1: no valid/complete minute */
	const struct dev_ident *id;	/* a device's; NULL for a host */
};

enum { D_HOST, D_DEV, D_SAMPLES, D_COVERED, D_MINUTES, D_RD, D_WR, D_AVG,
	D_PEAK, D_PEAK_T, D_AVG_IOPS, D_PEAK_IOPS, D_UTIL, D_AWAIT, D_REQ,
	D_RSHARE, D_WWN, D_SERIAL, D_MODEL, D_SLOT, D_NCOL };

/* The host table has the device table's columns up to its identity. */
#define H_NCOL D_WWN

/* What a terminal's table of devices and of hosts leaves out. */
#define WIDE_COLS "samples,covered_s,minutes,peak_t,avg_iops,peak_iops," \
	"avg_req_kib,read_share"
/* ... and the device table its identity, there for -o and --wide, CSV
 * and JSON: the rest still fits 80 columns. */
#define IDENT_COLS "wwn,serial,model,slot"

static const struct rcol_spec dev_cols[D_NCOL] = {
	{ "host", "Host", NULL, CF_PLAIN, 0 },
	{ "device", "Device", NULL, CF_PLAIN, 0 },
	{ "samples", "Samples", NULL, CF_PLAIN, 0 },
	{ "covered_s", "Covered", "s", CF_DURATION, 0 },
	{ "minutes", "Valid minutes", "min", CF_PLAIN, 0 },
	{ "rd_bytes", "Read", "bytes", CF_BYTES, 0 },
	{ "wr_bytes", "Written", "bytes", CF_BYTES, 0 },
	{ "avg_mib_s", "Average", "MiB/s", CF_PLAIN, 3 },
	{ "peak_mib_s", "Peak", "MiB/s", CF_PLAIN, 3 },
	{ "peak_t", "Peak minute", NULL, CF_TIME, 0 },
	{ "avg_iops", "Average IOPS", "1/s", CF_PLAIN, 1 },
	{ "peak_iops", "Peak IOPS", "1/s", CF_PLAIN, 1 },
	{ "util", "Utilisation", "%", CF_PCT, 1 },
	{ "await_ms", "Await", "ms", CF_PLAIN, 2 },
	{ "avg_req_kib", "Average request", "KiB", CF_PLAIN, 1 },
	{ "read_share", "Read share", "%", CF_PCT, 1 },
	{ "wwn", "WWN", NULL, CF_PLAIN, 0 },
	{ "serial", "Serial", NULL, CF_PLAIN, 0 },
	{ "model", "Model", NULL, CF_PLAIN, 0 },
	{ "slot", "Slot", NULL, CF_PLAIN, 0 },
};

/* The host table: the device table with "devices" for "device" and the
 * host's complete minutes for valid minutes. */
static void
host_cols(struct rcol_spec out[H_NCOL])
{
	memcpy(out, dev_cols, H_NCOL * sizeof *dev_cols);
	out[D_DEV] = (struct rcol_spec){ "devices", "Devices", NULL,
	    CF_PLAIN, 0 };
	out[D_COVERED].title = "Covered, all devices";
	out[D_MINUTES].title = "Complete minutes";
}

/* A ratio with a zero denominator is no value: NaN is stored as NULL. */
static double
ratio(double num, uint64_t den)
{
	return den ? num / (double)den : NAN;
}

static void
row_of_dev(struct io_row *r, const struct dev_stat *d,
    const struct dev_ident *id)
{
	double sec = (double)d->minutes * 60;

	memset(r, 0, sizeof *r);
	r->host = d->host;
	r->device = d->device;
	r->ndev = 1;
	r->samples = d->samples;
	r->covered_ms = d->minutes * 60000;
	r->minutes = d->minutes;
	r->rd_ios = d->rd_ios;
	r->wr_ios = d->wr_ios;
	r->oth_ios = d->oth_ios;
	r->rd_bytes = d->rd_bytes;
	r->wr_bytes = d->wr_bytes;
	r->rd_ms = d->rd_ms;
	r->wr_ms = d->wr_ms;
	r->io_ms = d->io_ms;
	r->avg_mib_s = d->minutes ?
	    (double)(d->rd_bytes + d->wr_bytes) / sec / IO_MIB : NAN;
	r->avg_iops = d->minutes ? (double)d->ios / sec : NAN;
	r->peak_bytes = d->peak_bytes;
	r->peak_ios = d->peak_ios;
	r->peak_t = d->peak_t;
	r->id = id;
}

/* Add device row d into host row h (rates add: the devices run side by
 * side; a device without covered time adds no rate). */
static void
row_add(struct io_row *h, const struct io_row *d)
{
	h->ndev++;
	h->samples += d->samples;
	h->covered_ms += d->covered_ms;
	h->rd_ios += d->rd_ios;
	h->wr_ios += d->wr_ios;
	h->oth_ios += d->oth_ios;
	h->rd_bytes += d->rd_bytes;
	h->wr_bytes += d->wr_bytes;
	h->rd_ms += d->rd_ms;
	h->wr_ms += d->wr_ms;
	h->io_ms += d->io_ms;
	if (d->covered_ms) {
		h->avg_mib_s = isnan(h->avg_mib_s) ? d->avg_mib_s :
		    h->avg_mib_s + d->avg_mib_s;
		h->avg_iops = isnan(h->avg_iops) ? d->avg_iops :
		    h->avg_iops + d->avg_iops;
	}
}

static void
put_row(struct rtable *t, const struct io_row *r)
{
	size_t row = result_row(t);
	uint64_t ios = r->rd_ios + r->wr_ios;
	uint64_t bytes = r->rd_bytes + r->wr_bytes;

	result_set_text(t, row, D_HOST, r->host);
	if (r->device)
		result_set_text(t, row, D_DEV, r->device);
	else
		result_set_uint(t, row, D_DEV, r->ndev);
	result_set_uint(t, row, D_SAMPLES, r->samples);
	result_set_real(t, row, D_COVERED, (double)r->covered_ms / 1000);
	result_set_uint(t, row, D_MINUTES, r->minutes);
	result_set_uint(t, row, D_RD, r->rd_bytes);
	result_set_uint(t, row, D_WR, r->wr_bytes);
	result_set_real(t, row, D_AVG, r->avg_mib_s);
	if (r->peak_t >= 0) {
		result_set_real(t, row, D_PEAK, traffic_mib_s(r->peak_bytes));
		result_set_int(t, row, D_PEAK_T, r->peak_t);
		result_set_real(t, row, D_PEAK_IOPS, (double)r->peak_ios / 60);
	}
	result_set_real(t, row, D_AVG_IOPS, r->avg_iops);
	result_set_real(t, row, D_UTIL, ratio((double)r->io_ms, r->covered_ms));
	result_set_real(t, row, D_AWAIT, ratio((double)(r->rd_ms + r->wr_ms),
	    ios));
	result_set_real(t, row, D_REQ, ratio((double)bytes / 1024, ios));
	result_set_real(t, row, D_RSHARE, ratio((double)r->rd_bytes, bytes));
	if (r->id) {
		result_set_text(t, row, D_WWN, r->id->wwn);
		result_set_text(t, row, D_SERIAL, r->id->serial);
		result_set_text(t, row, D_MODEL, r->id->model);
		result_set_text(t, row, D_SLOT, r->id->slot);
	}
}

/* Each host's busiest complete minute, by bytes and by requests. */
struct host_peaks {
	size_t n;
	uint64_t *bytes, *ios, *complete;
	int64_t *t;
};

static int
peak_minute(const struct host_minute *m, void *arg)
{
	struct host_peaks *p = arg;

	for (size_t h = 0; h < m->nhost; h++) {
		uint64_t b = m->rd[h] + m->wr[h];

		if (m->state[h] != MIN_COMPLETE)
			continue;
		if (p->t[h] < 0 || b > p->bytes[h]) {
			p->bytes[h] = b;
			p->t[h] = m->t;
		}
		if (p->complete[h] == 0 || m->ios[h] > p->ios[h])
			p->ios[h] = m->ios[h];
		p->complete[h]++;
	}
	return 0;
}

static int
host_peaks_load(sqlite3 *db, const struct io_window *w,
    const struct host_list *hl, struct host_peaks *p, char *err,
    size_t errlen)
{
	size_t n = hl->n ? hl->n : 1;

	p->n = hl->n;
	p->bytes = xcalloc(n, sizeof *p->bytes);
	p->ios = xcalloc(n, sizeof *p->ios);
	p->complete = xcalloc(n, sizeof *p->complete);
	p->t = xreallocarray(NULL, n, sizeof *p->t);
	for (size_t h = 0; h < n; h++)
		p->t[h] = -1;
	return hl->n ? query_scan_host_minutes(db, w, hl, peak_minute, p, err,
	    errlen) : 0;
}

static void
host_peaks_free(struct host_peaks *p)
{
	free(p->bytes);
	free(p->ios);
	free(p->complete);
	free(p->t);
}

static const struct rcol_spec imb_cols[] = {
	{ "scope", "Across", NULL, CF_PLAIN, 0 },
	{ "host", "Host", NULL, CF_PLAIN, 0 },
	{ "members", "Members", NULL, CF_PLAIN, 0 },
	{ "mean_avg_mib_s", "Mean average", "MiB/s", CF_PLAIN, 3 },
	{ "max_avg_mib_s", "Max average", "MiB/s", CF_PLAIN, 3 },
	{ "busiest", "Busiest", NULL, CF_PLAIN, 0 },
	{ "avg_imbalance", "Average max/mean", NULL, CF_PLAIN, 3 },
	{ "peak_members", "Members with a peak", NULL, CF_PLAIN, 0 },
	{ "mean_peak_mib_s", "Mean peak", "MiB/s", CF_PLAIN, 3 },
	{ "max_peak_mib_s", "Max peak", "MiB/s", CF_PLAIN, 3 },
	{ "peak_imbalance", "Peak max/mean", NULL, CF_PLAIN, 3 },
};

/* max / mean of the members' average rates and of their peaks; members
 * without a value (no covered time, no valid minute) are left out. */
static void
imbalance_row(struct rtable *t, const char *scope, const char *host,
    const struct io_row *m, size_t n)
{
	size_t row = result_row(t), navg = 0, npeak = 0, busiest = 0;
	double sum = 0, max = 0;
	uint64_t psum = 0, pmax = 0;

	result_set_text(t, row, 0, scope);
	result_set_text(t, row, 1, host);
	result_set_uint(t, row, 2, n);
	for (size_t i = 0; i < n; i++) {
		if (!isnan(m[i].avg_mib_s)) {
			if (navg == 0 || m[i].avg_mib_s > max) {
				max = m[i].avg_mib_s;
				busiest = i;
			}
			sum += m[i].avg_mib_s;
			navg++;
		}
		if (m[i].peak_t >= 0) {
			pmax = npeak == 0 || m[i].peak_bytes > pmax ?
			    m[i].peak_bytes : pmax;
			psum += m[i].peak_bytes;
			npeak++;
		}
	}
	if (navg) {
		result_set_real(t, row, 3, sum / (double)navg);
		result_set_real(t, row, 4, max);
		result_set_text(t, row, 5,
		    m[busiest].device ? m[busiest].device :
		    m[busiest].host);
		if (sum > 0)
			result_set_real(t, row, 6, max / (sum / (double)navg));
	}
	result_set_uint(t, row, 7, npeak);
	if (npeak) {
		result_set_real(t, row, 8, traffic_mean_mib_s((double)psum,
		    (double)npeak));
		result_set_real(t, row, 9, traffic_mib_s(pmax));
		if (psum > 0)
			result_set_real(t, row, 10,
			    (double)pmax * (double)npeak / (double)psum);
	}
}

static size_t
host_index(const struct host_list *hl, const char *name)
{
	for (size_t i = 0; i < hl->n; i++)
		if (!strcmp(hl->name[i], name))
			return i;
	return SIZE_MAX;
}

/* A host's row: its devices' sums, its own complete-minute peaks. */
static void
host_row(struct io_row *h, const struct io_row *dev, size_t ndev,
    const struct host_list *hl, const struct host_peaks *p)
{
	size_t k = host_index(hl, dev[0].host);

	memset(h, 0, sizeof *h);
	h->host = dev[0].host;
	h->avg_mib_s = h->avg_iops = NAN;
	h->peak_t = -1;
	for (size_t i = 0; i < ndev; i++)
		row_add(h, &dev[i]);
	if (k == SIZE_MAX)
		return;
	h->minutes = p->complete[k];
	h->peak_t = p->t[k];
	h->peak_bytes = p->bytes[k];
	h->peak_ios = p->ios[k];
}

/* Fill the three tables; dev rows are sorted by host then device. */
static void
fill_tables(struct result *r, struct io_row *dev, size_t ndev,
    const struct host_list *hl, const struct host_peaks *p)
{
	struct io_row *host = xcalloc(ndev ? ndev : 1, sizeof *host);
	size_t nhost = 0, ti = r->ntable;
	struct rcol_spec hcols[H_NCOL];

	host_cols(hcols);
	result_wide(result_table(r, "devices", "Devices", dev_cols, D_NCOL),
	    WIDE_COLS "," IDENT_COLS);
	result_wide(result_table(r, "hosts", "Hosts", hcols, H_NCOL),
	    WIDE_COLS);
	result_wide(result_table(r, "imbalance", "Imbalance (max / mean)",
	    imb_cols, sizeof imb_cols / sizeof *imb_cols),
	    "mean_avg_mib_s,peak_members,mean_peak_mib_s");
	for (size_t i = 0, j; i < ndev; i = j) {
		for (j = i; j < ndev && !strcmp(dev[j].host, dev[i].host); j++)
			put_row(&r->table[ti], &dev[j]);
		host_row(&host[nhost], &dev[i], j - i, hl, p);
		put_row(&r->table[ti + 1], &host[nhost++]);
		imbalance_row(&r->table[ti + 2], "devices of host",
		    dev[i].host, &dev[i], j - i);
	}
	if (nhost)
		imbalance_row(&r->table[ti + 2], "hosts", NULL, host, nhost);
	free(host);
}

static void
devices_notes(struct result *r)
{
	result_note(r, "Devices: sums over each device's valid minutes in "
	    "the window (a sample's counters split over the minutes it covers, "
	    "as for the minute series); gaps, samples across a gap or a reset, "
	    "partly covered minutes and time outside the window count nowhere. "
	    "Covered = 60 s per valid minute. Average MiB/s and IOPS divide by "
	    "it (IOPS count reads, writes, discards and flushes); peaks are the "
	    "busiest valid minute (bytes and requests separately). "
	    "Utilisation = busy time / covered time; await = (read + write "
	    "time) / (reads + writes); average request = bytes / (reads + "
	    "writes); read share by bytes.");
	result_note(r, "Hosts: sums over their devices; a host's average "
	    "rates are the sums of its devices' averages, its utilisation "
	    "the busy time over the covered time of all its devices, and its "
	    "peaks the busiest complete minute of the host as a whole.");
	result_note(r, "Imbalance: max / mean of the average MiB/s and of "
	    "the peak MiB/s, across the devices of each host and across "
	    "hosts; members without a value are left out, and the ratio is "
	    "n/a when the mean is 0.");
}

struct result *
traffic_devices(sqlite3 *db, const struct opts *o, char *err, size_t errlen)
{
	struct result *r = result_new("devices", "Devices and hosts");
	struct host_list hl = { 0 };
	struct host_peaks p = { 0 };
	struct dev_stat *ds = NULL;
	struct dev_ident *id = NULL;
	const char **host = NULL, **dev = NULL;
	struct io_row *rows = NULL;
	size_t nds = 0, nrow = 0, complete;
	int rc = -1;

	if (query_devstats_load(db, &o->win, &ds, &nds, err, errlen))
		goto out;
	/* A device with a valid minute is data, whether or not any minute
	 * is complete across every host: its rows appear. */
	for (size_t i = 0; i < nds && nrow == 0; i++)
		if (ds[i].minutes)
			nrow = nds;
	if (traffic_coverage_window_notes(db, &o->win, nrow > 0, r, &complete,
	    err, errlen) ||
	    query_hosts_load(db, &o->win, &hl, err, errlen) ||
	    host_peaks_load(db, &o->win, &hl, &p, err, errlen))
		goto out;
	host = xcalloc(nrow ? nrow : 1, sizeof *host);
	dev = xcalloc(nrow ? nrow : 1, sizeof *dev);
	for (size_t i = 0; i < nrow; i++) {
		host[i] = ds[i].host;
		dev[i] = ds[i].device;
	}
	if (query_ident_load(db, host, dev, nrow, &id, err, errlen) < 0)
		goto out;
	rows = xcalloc(nrow ? nrow : 1, sizeof *rows);
	for (size_t i = 0; i < nrow; i++)
		row_of_dev(&rows[i], &ds[i], &id[i]);
	if (nrow)
		devices_notes(r);
	fill_tables(r, rows, nrow, &hl, &p);
	rc = 0;
out:
	free(rows);
	free(host);
	free(dev);
	query_ident_free(id, nrow);
	query_devstats_free(ds, nds);
	host_peaks_free(&p);
	query_hosts_free(&hl);
	if (rc) {
		result_free(r);
		return NULL;
	}
	return r;
}
