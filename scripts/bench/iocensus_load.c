/*
 * iocensus_load: the benchmark's load model. See iocensus_load.h.
 *
 * Scale: a device at full speed moves DEV_PEAK bytes a minute (28 MiB/s,
 * so 128 hosts of 10 devices peak near the study's 35,890 MiB/s). A minute
 * of a device is background (a few hundred KiB/s of small requests, zero
 * in about one device-minute of eight) plus the jobs running on its host.
 * Jobs arrive more often in the day, rarely in quiet spells that last
 * hours (a two-state chain switched once an hour), last 3 minutes to 6
 * hours (log-uniform), and have a heavy-tailed level: most are small, a
 * few drive every server near its peak. Reads dominate (about 80 %) until
 * day 33, after which writes catch up, as after EarthScience tapered off.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "iocensus_load.h"
#include "xalloc.h"

#define DEV_PEAK	(28.0 * 1048576 * 60)	/* bytes per minute */
#define BG_LEVEL	0.0025			/* background, share of peak */
#define BG_ZERO		0.12			/* device-minutes without I/O */
#define REBOOT_EVERY	32			/* host h reboots if h % 32 == 5 */
#define REBOOT_DOWN	6			/* minutes without samples */

/* Background by UTC hour: quiet nights, busy days. */
static const double diurnal[24] = {
	0.5, 0.4, 0.4, 0.4, 0.5, 0.6, 0.8, 1.0, 1.3, 1.5, 1.6, 1.6,
	1.5, 1.6, 1.6, 1.5, 1.4, 1.3, 1.1, 1.0, 0.9, 0.8, 0.7, 0.6
};

uint64_t
load_rnd(uint64_t *s)
{
	uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

double
load_u01(uint64_t *s)
{
	return (double)(load_rnd(s) >> 11) * 0x1p-53;
}

static int
in(int64_t k, int64_t lo, int64_t hi)
{
	return k >= lo && k < hi;
}

static void
add_job(struct load *l, int64_t k, uint64_t *s)
{
	static const uint32_t req[4] = { 512, 1024, 2048, 8192 };
	struct load_job *j;
	double u = load_u01(s);

	if ((l->njob & (l->njob - 1)) == 0)
		l->job = xreallocarray(l->job, l->njob ? 2 * l->njob : 64,
		    sizeof *l->job);
	j = &l->job[l->njob++];
	j->start = k;
	j->end = k + (int64_t)exp(log(3.0) + load_u01(s) * log(120.0));
	if (j->end > l->minutes)
		j->end = l->minutes;
	if (l->maint0 >= 0 && j->start < l->maint0 && j->end > l->maint0)
		j->end = l->maint0;	/* drained before maintenance */
	j->level = fmin(1.0, 0.008 * pow(1.0 - load_u01(s), -0.8));
	if (u < 0.4) {
		j->h0 = 0;
		j->nh = l->hosts;
	} else {
		j->h0 = (int)(load_rnd(s) % (uint64_t)l->hosts);
		j->nh = 1 + (int)(load_u01(s) * l->hosts / 2);
	}
	u = load_u01(s);
	if (k < 33 * LOAD_DAY_MIN)
		j->rd_share = u < 0.55 ? 0.95 : u < 0.8 ? 0.85 : 0.3;
	else
		j->rd_share = u < 0.2 ? 0.95 : u < 0.5 ? 0.6 : 0.2;
	j->req_sect = req[load_rnd(s) % 4];
}

/* The jobs of every minute, as one flat list with offsets. */
static void
index_jobs(struct load *l)
{
	int64_t n = l->minutes;
	uint32_t *cnt = xcalloc((size_t)n + 1, sizeof *cnt);

	for (size_t i = 0; i < l->njob; i++)
		for (int64_t k = l->job[i].start; k < l->job[i].end; k++)
			cnt[k + 1]++;
	for (int64_t k = 0; k < n; k++)
		cnt[k + 1] += cnt[k];
	l->at_off = cnt;
	l->at = xcalloc(cnt[n] ? cnt[n] : 1, sizeof *l->at);
	uint32_t *fill = xcalloc((size_t)n, sizeof *fill);
	for (size_t i = 0; i < l->njob; i++)
		for (int64_t k = l->job[i].start; k < l->job[i].end; k++)
			l->at[cnt[k] + fill[k]++] = (uint32_t)i;
	free(fill);
}

void
load_build(struct load *l, int hosts, int days, int64_t start, uint64_t seed,
    int lost_day, int maint_day)
{
	uint64_t s = seed * UINT64_C(0x2545f4914f6cdd1d) + 1;
	int quiet = 0;

	memset(l, 0, sizeof *l);
	l->hosts = hosts;
	l->minutes = (int64_t)days * LOAD_DAY_MIN;
	l->lost0 = l->lost1 = l->maint0 = l->maint1 = -1;
	if (lost_day >= 0 && lost_day < days) {
		l->lost0 = (int64_t)lost_day * LOAD_DAY_MIN + 9 * 60;
		l->lost1 = (int64_t)(lost_day + 4) * LOAD_DAY_MIN + 10 * 60;
	}
	if (maint_day >= 0 && maint_day < days) {
		l->maint0 = (int64_t)maint_day * LOAD_DAY_MIN + 4 * 60;
		l->maint1 = (int64_t)maint_day * LOAD_DAY_MIN + 23 * 60;
	}
	l->bg = xcalloc((size_t)l->minutes, sizeof *l->bg);
	for (int64_t k = 0; k < l->minutes; k++) {
		int hour = (int)(k / 60 % 24);
		/* 1970-01-01 was a Thursday: wday 0 is Sunday. */
		int wday = (int)(((start + k * 60) / 86400 + 4) % 7);
		double week = wday == 0 || wday == 6 ? 0.7 : 1.0;
		double rate = (hour >= 8 && hour < 20 ? 1.0 / 10 : 1.0 / 30);

		if (k % 60 == 0)
			quiet = load_u01(&s) < (quiet ? 0.7 : 0.1);
		if (in(k, l->maint0, l->maint1))
			continue;
		l->bg[k] = BG_LEVEL * diurnal[hour] * week;
		if (load_u01(&s) < rate * week * (quiet ? 0.05 : 1))
			add_job(l, k, &s);
	}
	index_jobs(l);
}

void
load_free(struct load *l)
{
	free(l->bg);
	free(l->job);
	free(l->at_off);
	free(l->at);
}

int64_t
load_reboot_at(const struct load *l, int h)
{
	int64_t days = l->minutes / LOAD_DAY_MIN;
	int64_t day = (3 + 13 * (h / REBOOT_EVERY)) % (days ? days : 1);

	if (h % REBOOT_EVERY != 5)
		return -1;
	return day * LOAD_DAY_MIN + 14 * 60 + REBOOT_DOWN;
}

int
load_absent(const struct load *l, int h, int64_t k)
{
	int64_t r = load_reboot_at(l, h);

	return in(k, l->lost0, l->lost1) || (r >= 0 && in(k, r - REBOOT_DOWN, r));
}

double
load_dev_weight(uint64_t *rng)
{
	return 0.6 + 0.8 * load_u01(rng);
}

/* Increments of one direction: ios, merges, sectors, ms. */
static void
direction(uint64_t sect, double req, double lat, uint64_t *f)
{
	uint64_t ios = sect ? (uint64_t)((double)sect / req) + 1 : 0;

	f[0] = ios;
	f[1] = ios / 6;
	f[2] = sect;
	f[3] = (uint64_t)((double)ios * lat);
}

uint64_t
load_device_minute(const struct load *l, int h, double w, int64_t k,
    uint64_t *rng, uint64_t inc[DS_KNOWN], uint64_t *in_flight)
{
	double noise = 0.8 + 0.4 * load_u01(rng);
	double bg = load_u01(rng) < BG_ZERO ? 0 : l->bg[k] * w * noise;
	double bg_req = 8 << (load_rnd(rng) % 5);	/* 4 to 64 KiB */
	double job = 0, rd = 0.55 * bg, req = bg_req, frac, util, lat;
	uint64_t rd_sect, wr_sect;

	for (uint32_t i = l->at_off[k]; i < l->at_off[k + 1]; i++) {
		const struct load_job *j = &l->job[l->at[i]];
		int off = ((h - j->h0) % l->hosts + l->hosts) % l->hosts;

		if (off >= j->nh)
			continue;
		job += j->level * w * noise;
		rd += j->level * w * noise * j->rd_share;
		req = j->req_sect;
	}
	memset(inc, 0, DS_KNOWN * sizeof *inc);
	*in_flight = 0;
	frac = fmin(bg + job, 1.0);
	if (frac <= 0)
		return 0;
	rd_sect = (uint64_t)(DEV_PEAK / 512 * frac * (rd / (bg + job)));
	wr_sect = (uint64_t)(DEV_PEAK / 512 * frac) - rd_sect;
	util = fmin(1.0, 0.02 + 0.95 * frac);
	lat = 0.5 + 12 * util;
	direction(rd_sect, req, lat, &inc[DS_RD_IOS]);
	direction(wr_sect, req, lat, &inc[DS_WR_IOS]);
	inc[DS_FL_IOS] = inc[DS_WR_IOS] ? 1 + inc[DS_WR_IOS] / 64 : 0;
	inc[DS_FL_MS] = 2 * inc[DS_FL_IOS];
	inc[DS_IO_MS] = (uint64_t)(util * 60000);
	inc[DS_WEIGHTED_MS] = inc[DS_RD_MS] + inc[DS_WR_MS] + inc[DS_FL_MS];
	*in_flight = (uint64_t)(util * 16);
	return (rd_sect + wr_sect) * 512;
}
