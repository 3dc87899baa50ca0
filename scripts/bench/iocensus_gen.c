/*
 * iocensus_gen: write a study-sized set of iostatmon logs for `make bench`.
 *
 *   iocensus_gen --out DIR [--hosts 128] [--devices 10] [--days 62]
 *       [--start UNIX] [--seed 1] [--threads N] [--lost-day 9]
 *       [--maint-day 37] [--raw DIR --raw-hosts N --raw-days N] [--stats]
 *
 * One-minute samples of H hosts x D data devices over N days, one log per
 * host per UTC day (DIR/iostatmon-HOST-YYYYMMDD.iolog.gz), written through
 * lib/iolog's writer with the frame sequence of the daemon's sampler: a
 * member starts with H, T and a K of the previous read, each read gives an
 * S frame of deltas, a K follows the first S of every hour, a sample read
 * at 00:00 starts the next day's file, and after a gap (lost window) or a
 * reboot (new boot_id, K flagged NEW_BOOT) the next read starts a member of
 * its own. Reads come 1 to 40 ms after each minute, as the daemon's timer
 * and read delay make them. The load is iocensus_load.c's.
 *
 * --raw writes, for the first --raw-hosts hosts and --raw-days days, the
 * same counters as raw captures (docs: `iostatmon import`): RAW/HOST.raw, a
 * "T <seconds>.<ns>" line and 20-column diskstats lines per read, so that
 * `iostatmon import` of them gives the same samples as the logs (plus one
 * sample over the lost window, which import flags as a gap).
 *
 * --slow-read H,D,DAY,F makes device D of host H (indexes from 0) F times
 * slower per read from day DAY on; --episode H,D,MIN,LEN,F makes it F times
 * slower per request for LEN minutes from minute MIN of every day: the
 * demo's slow and intermittent disks (scripts/study-db).
 *
 * Each device's table entry carries a generated identity (wwid, serial
 * GEN<host><device>, model GENERATED-HDD, "Slot NN"), so that the analyses
 * show the disk to pull.
 *
 * --stats prints the model's aggregate over intervals every host knows
 * (approximately the minutes ingest will call complete).
 * Exit status: 0 done, 2 usage, 3 a file could not be written.
 */
#include <assert.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fmt.h"
#include "iocensus_gen.h"
#include "iocensus_load.h"
#include "iolog/iolog.h"
#include "xalloc.h"

#define NS	UINT64_C(1000000000)
#define MIN_NS	(60 * NS)
#define HOUR_NS	(3600 * NS)
#define DAY_NS	(86400 * NS)

struct host {
	const struct gen *g;
	int h;
	char name[64];
	uint64_t rng;
	double *w;		/* per device */
	/* Counters (in_flight: the gauge) now and at the last read. */
	uint64_t (*abs)[DS_FIELDS], (*prev)[DS_FIELDS];
	struct iolog_dev *tab;
	struct iolog_val *val;
	struct iolog_header hdr;
	struct iolog_writer *w_log;
	int64_t day;		/* of the open file */
	int have_prev, boot;
	struct iolog_clock prev_clock;
	uint64_t seq, k_hour, mono_off;
	FILE *raw;
	struct gen_count *cnt;
};

static void
die(const char *what, const char *path)
{
	const char *why = strerror(errno);

	fmt_diag(stderr, "iocensus_gen", "%s: %s: %s", path, what, why);
	exit(3);
}

static void
check(int rc, struct host *x, const char *what)
{
	if (rc < 0)
		die(what, x->name);
}

/* sdb, sdc, ... sdz, sdaa: sda is the local OS disk, never sampled. */
static void
dev_name(char *buf, size_t len, int j)
{
	char s[8];
	int n = 0;

	for (int i = j + 2; i > 0; i = (i - 1) / 26)
		s[n++] = (char)('a' + (i - 1) % 26);
	snprintf(buf, len, "sd");
	for (size_t p = 2; n > 0 && p + 1 < len; p++) {
		buf[p] = s[--n];
		buf[p + 1] = '\0';
	}
}

/* A generated identity, plainly not a real disk's, so that the analyses
 * show where each disk sits: wwid, serial, model and enclosure slot. */
static void
dev_ident(struct iolog_dev *t, int h, int j)
{
	static const char *const key[] = { "wwid", "serial", "model", "slot" };
	char v[4][48];

	snprintf(v[0], sizeof v[0], "naa.5000000000%03x%03x", h + 1, j);
	snprintf(v[1], sizeof v[1], "GEN%03d%03d", h + 1, j);
	snprintf(v[2], sizeof v[2], "GENERATED-HDD");
	snprintf(v[3], sizeof v[3], "Slot %02d", j);
	t->nattr = 4;
	t->attr = xcalloc(t->nattr, sizeof *t->attr);
	for (size_t k = 0; k < t->nattr; k++) {
		t->attr[k].key = xstrdup(key[k]);
		t->attr[k].value = xstrdup(v[k]);
	}
}

static void
host_init(struct host *x, const struct gen *g, int h, struct gen_count *cnt)
{
	int d = g->devices;

	memset(x, 0, sizeof *x);
	x->g = g;
	x->h = h;
	x->cnt = cnt;
	snprintf(x->name, sizeof x->name, "fs%03d", h + 1);
	x->rng = g->seed * UINT64_C(0x9e3779b97f4a7c15) + (uint64_t)h * 7919 + 17;
	x->w = xcalloc((size_t)d, sizeof *x->w);
	x->abs = xcalloc((size_t)d, sizeof *x->abs);
	x->prev = xcalloc((size_t)d, sizeof *x->prev);
	x->tab = xcalloc((size_t)d, sizeof *x->tab);
	x->val = xcalloc((size_t)d, sizeof *x->val);
	for (int j = 0; j < d; j++) {
		int i = j + 1;
		struct iolog_dev *t = &x->tab[j];

		x->w[j] = load_dev_weight(&x->rng);
		for (int f = 0; f < DS_KNOWN; f++)
			x->abs[j][f] = 1000000 + load_rnd(&x->rng) % 1000000000;
		x->abs[j][DS_IN_FLIGHT] = 0;
		dev_name(t->name, sizeof t->name, j);
		t->major = i < 16 ? 8 : 65 + (uint32_t)(i / 16 - 1);
		t->minor = (uint32_t)(i % 16) * 16;
		t->fields = (UINT32_C(1) << DS_KNOWN) - 1;
		dev_ident(t, h, j);
	}
	x->mono_off = (uint64_t)g->start * NS - 86400 * NS * (1 + (uint64_t)h % 30);
	x->day = -1;
}

static void
host_free(struct host *x)
{
	for (int j = 0; x->tab && j < x->g->devices; j++) {
		for (size_t k = 0; k < x->tab[j].nattr; k++) {
			free(x->tab[j].attr[k].key);
			free(x->tab[j].attr[k].value);
		}
		free(x->tab[j].attr);
	}
	free(x->w);
	free(x->abs);
	free(x->prev);
	free(x->tab);
	free(x->val);
}

/* A reboot: counters restart near zero, a new boot id and monotonic. */
static void
reboot(struct host *x, uint64_t t_ns)
{
	for (int j = 0; j < x->g->devices; j++)
		for (int f = 0; f < DS_KNOWN; f++)
			x->abs[j][f] = load_rnd(&x->rng) % 50;
	x->boot++;
	x->mono_off = t_ns - 90 * NS;
	x->have_prev = 0;
}

void
gen_fault_apply(const struct gen *g, int h, int d, int64_t k,
    uint64_t inc[DS_KNOWN])
{
	int64_t m = k % LOAD_DAY_MIN;

	assert(g != NULL && inc != NULL && k >= 0);
	for (int i = 0; i < g->nfault; i++) {
		const struct gen_fault *f = &g->fault[i];
		double ms = (double)(inc[DS_RD_MS] + inc[DS_WR_MS]), more;

		if (f->h != h || f->d != d || k / LOAD_DAY_MIN < f->day ||
		    m < f->from || m >= f->from + f->len || ms <= 0)
			continue;
		inc[DS_RD_MS] = (uint64_t)((double)inc[DS_RD_MS] * f->factor);
		if (!f->reads_only)
			inc[DS_WR_MS] = (uint64_t)((double)inc[DS_WR_MS] *
			    f->factor);
		/* The disk is busy longer by the share its time grew, and
		 * never more than 95% of the minute. */
		more = (double)(inc[DS_RD_MS] + inc[DS_WR_MS]) / ms;
		inc[DS_IO_MS] = (uint64_t)fmin((double)inc[DS_IO_MS] * more,
		    0.95 * 60000);
		inc[DS_WEIGHTED_MS] = inc[DS_RD_MS] + inc[DS_WR_MS] +
		    inc[DS_FL_MS];
	}
}

/* Raise every device's counters by minute k's activity. */
static void
advance(struct host *x, int64_t k, uint64_t *bytes)
{
	uint64_t inc[DS_KNOWN], flight;

	*bytes = 0;
	for (int j = 0; j < x->g->devices; j++) {
		*bytes += load_device_minute(&x->g->load, x->h, x->w[j], k,
		    &x->rng, inc, &flight);
		gen_fault_apply(x->g, x->h, j, k, inc);
		for (int f = 0; f < DS_KNOWN; f++)
			x->abs[j][f] += inc[f];
		x->abs[j][DS_IN_FLIGHT] = flight;
	}
}

/* The value the kernel prints: ms fields and in_flight are 32 bits. */
static uint64_t
printed(const uint64_t *abs, int f)
{
	return diskstats_field_bits(f, 64) == 32 ? abs[f] & 0xffffffffu :
	    abs[f];
}

/* x->val: the deltas since the last read (in_flight: its value now), or
 * the absolutes of the last read for a keyframe. */
static void
fill_vals(struct host *x, int deltas)
{
	for (int j = 0; j < x->g->devices; j++) {
		struct iolog_val *v = &x->val[j];
		const uint64_t *src = deltas ? x->abs[j] : x->prev[j];

		memset(v, 0, sizeof *v);
		for (int f = 0; f < DS_KNOWN; f++) {
			uint64_t a = printed(src, f);

			if (deltas && !diskstats_is_gauge(f))
				a = diskstats_delta(printed(x->prev[j], f), a,
				    diskstats_field_bits(f, 64));
			v->v[f] = a;
		}
	}
}

static void
open_day(struct host *x, int64_t day)
{
	char path[4096];
	time_t t = (time_t)(day * 86400);
	struct tm tm;

	if (x->w_log) {
		check(iolog_writer_close(x->w_log), x, "closing a log");
		x->cnt->files++;
	}
	gmtime_r(&t, &tm);
	snprintf(path, sizeof path, "%s/iostatmon-%s-%04d%02d%02d.iolog.gz",
	    x->g->out, x->name, tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday);
	if (unlink(path) < 0 && errno != ENOENT)
		die("cannot replace", path);
	if (!(x->w_log = iolog_writer_open(path, NULL, path, sizeof path))) {
		fmt_diag(stderr, "iocensus_gen", "%s", path);
		exit(3);
	}
	x->day = day;
}

/* H, T and a K of the values in x->val at clock c. */
static void
start_member(struct host *x, const struct iolog_clock *c)
{
	struct iolog_header *hd = &x->hdr;

	memset(hd, 0, sizeof *hd);
	snprintf(hd->host, sizeof hd->host, "%s", x->name);
	snprintf(hd->release, sizeof hd->release, "2.6.32-generated");
	snprintf(hd->machine, sizeof hd->machine, "x86_64");
	hd->long_bits = 64;
	hd->interval_ms = 60000;
	snprintf(hd->boot_id, sizeof hd->boot_id, "%08x-boot-%d",
	    (unsigned)(x->g->seed * 2654435761u + (unsigned)x->h), x->boot);
	hd->created_ns = c->realtime_ns;
	snprintf(hd->writer, sizeof hd->writer, "iocensus_gen");
	for (int j = 0; j < x->g->devices; j++)
		x->tab[j].id = (uint64_t)(x->boot * x->g->devices + j + 1);
	check(iolog_write_header(x->w_log, hd), x, "header");
	check(iolog_write_table(x->w_log, x->tab, (size_t)x->g->devices), x,
	    "table");
	check(iolog_write_keyframe(x->w_log, c, x->val, (size_t)x->g->devices),
	    x, "keyframe");
	x->k_hour = c->realtime_ns / HOUR_NS;
	x->seq = 1;
}

/* The frames of one read at t_ns (the sampler's sequence). */
static void
emit(struct host *x, uint64_t t_ns)
{
	struct iolog_clock c = {
		.realtime_ns = t_ns, .monotonic_ns = t_ns - x->mono_off,
		.boottime_ns = t_ns - x->mono_off,
		.read_ns = 20000 + load_rnd(&x->rng) % 60000,
	};
	int64_t day = (int64_t)(t_ns / DAY_NS);
	size_t n = (size_t)x->g->devices;

	if (day != x->day)
		open_day(x, day);
	if (!x->have_prev) {
		c.flags = x->boot ? IOLOG_NEW_BOOT : 0;
		memcpy(x->prev, x->abs, n * sizeof *x->prev);
		fill_vals(x, 0);
		start_member(x, &c);
	} else {
		if (iolog_writer_needs_header(x->w_log)) {
			struct iolog_clock pc = x->prev_clock;

			pc.seq = 0;
			pc.flags = 0;
			fill_vals(x, 0);
			start_member(x, &pc);
		}
		c.seq = x->seq++;
		fill_vals(x, 1);
		check(iolog_write_sample(x->w_log, &c, x->val, n), x, "sample");
		x->cnt->samples += n;
		memcpy(x->prev, x->abs, n * sizeof *x->prev);
		if (t_ns / HOUR_NS != x->k_hour) {
			fill_vals(x, 0);
			check(iolog_write_keyframe(x->w_log, &c, x->val, n), x,
			    "keyframe");
			x->k_hour = t_ns / HOUR_NS;
		}
	}
	x->prev_clock = c;
	x->have_prev = 1;
}

/* The read as a raw capture block. */
static void
emit_raw(struct host *x, uint64_t t_ns)
{
	char line[512];

	fprintf(x->raw, "T %" PRIu64 ".%09" PRIu64 "\n", t_ns / NS, t_ns % NS);
	for (int j = 0; j < x->g->devices; j++) {
		const struct iolog_dev *t = &x->tab[j];
		int p = snprintf(line, sizeof line, "%4u %7u %s", t->major,
		    t->minor, t->name);

		for (int f = 0; f < DS_KNOWN; f++)
			p += snprintf(line + p, sizeof line - (size_t)p, " %" PRIu64,
			    printed(x->abs[j], f));
		line[p++] = '\n';
		fwrite(line, 1, (size_t)p, x->raw);
	}
}

static void
open_raw(struct host *x)
{
	char path[4096];

	snprintf(path, sizeof path, "%s/%s.raw", x->g->raw, x->name);
	if (!(x->raw = fopen(path, "w")))
		die("cannot create", path);
	setvbuf(x->raw, NULL, _IOFBF, 1 << 20);
}

static void
gen_host(const struct gen *g, int h, struct gen_count *cnt)
{
	const struct load *l = &g->load;
	int64_t reboot_at = load_reboot_at(l, h);
	int64_t raw_n = g->raw && h < g->raw_hosts ?
	    (int64_t)g->raw_days * LOAD_DAY_MIN : 0;
	struct host x;
	uint64_t bytes;

	host_init(&x, g, h, cnt);
	if (raw_n)
		open_raw(&x);
	for (int64_t k = 0; k < l->minutes; k++) {
		uint64_t t_ns = (uint64_t)g->start * NS + (uint64_t)k * MIN_NS +
		    NS / 1000 + load_rnd(&x.rng) % (40 * NS / 1000);

		if (k > 0) {
			advance(&x, k - 1, &bytes);
			if (x.have_prev && !load_absent(l, h, k))
				gen_count_interval(cnt, k - 1, bytes);
		}
		if (k == reboot_at)
			reboot(&x, t_ns);
		if (load_absent(l, h, k)) {
			x.have_prev = 0;
			continue;
		}
		if (g->out)
			emit(&x, t_ns);
		if (k < raw_n)
			emit_raw(&x, t_ns);
		x.have_prev = 1;
	}
	if (x.w_log) {
		check(iolog_writer_close(x.w_log), &x, "closing a log");
		cnt->files++;
	}
	if (x.raw && fclose(x.raw) != 0)
		die("writing", x.name);
	host_free(&x);
}

/* mkdir -p */
static void
make_dir(const char *path)
{
	char buf[4096];

	snprintf(buf, sizeof buf, "%s", path);
	for (char *p = buf + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			if (mkdir(buf, 0777) < 0 && errno != EEXIST)
				die("cannot create", buf);
			*p = '/';
		}
	if (mkdir(buf, 0777) < 0 && errno != EEXIST)
		die("cannot create", buf);
}

static void *
worker(void *arg)
{
	struct gen_count *cnt = arg;
	const struct gen *g = cnt->g;

	for (int h = cnt->thread; h < g->hosts; h += g->threads)
		gen_host(g, h, cnt);
	return NULL;
}

int
main(int argc, char **argv)
{
	struct gen g;
	struct gen_count *cnt;
	pthread_t *tid;

	if (gen_options(&g, argc, argv) < 0)
		return 2;
	if (g.out)
		make_dir(g.out);
	if (g.raw)
		make_dir(g.raw);
	load_build(&g.load, g.hosts, g.days, g.start, g.seed, g.lost_day,
	    g.maint_day);
	cnt = xcalloc((size_t)g.threads, sizeof *cnt);
	tid = xcalloc((size_t)g.threads, sizeof *tid);
	for (int i = 0; i < g.threads; i++) {
		gen_count_init(&cnt[i], &g, i);
		if (pthread_create(&tid[i], NULL, worker, &cnt[i]) != 0)
			die("pthread_create", "threads");
	}
	for (int i = 0; i < g.threads; i++)
		pthread_join(tid[i], NULL);
	gen_report(&g, cnt);
	for (int i = 0; i < g.threads; i++)
		gen_count_free(&cnt[i]);
	free(cnt);
	free(tid);
	load_free(&g.load);
	return 0;
}
