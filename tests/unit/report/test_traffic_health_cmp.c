/* test_traffic_health_cmp: one hour of a group in
 * report/traffic/traffic_health_cmp.c, on hand-made device hours whose
 * load model, alike members and per-direction ratios are worked out by
 * hand below (docs/analyses.md, "Device health"). */
#include <math.h>
#include <string.h>

#include "traffic/traffic_health_int.h"
#include "tap.h"

#define N 6

static int
near(double a, double b)
{
	return fabs(a - b) <= 1e-12 * (fabs(b) > 1 ? fabs(b) : 1);
}

/* A device hour: 60 valid minutes, reads and writes of 64 KiB each,
 * taking rd ms per read and wr ms per write, busy svc ms per request. */
static struct devh_row
row(uint64_t reads, uint64_t writes, double rd, double wr, uint64_t svc)
{
	return (struct devh_row){ .minutes = 60, .rd_ios = reads,
	    .wr_ios = writes, .rd_bytes = reads * 65536,
	    .wr_bytes = writes * 65536, .rd_ms = (uint64_t)(reads * rd),
	    .wr_ms = (uint64_t)(writes * wr),
	    .io_ms = (reads + writes) * svc };
}

static void
compare(struct devh_row *r, size_t n, struct health_cmp *out)
{
	struct health_hour h[N];
	const struct health_hour *m[N];
	double v[HM_N][N], q[N];
	const struct health_hour *alike[N];
	struct health_scratch s = { .alike = alike, .q = q };

	for (int k = 0; k < HM_N; k++)
		s.v[k] = v[k];
	for (size_t i = 0; i < n; i++) {
		traffic_health_cmp_dev(&h[i], &r[i]);
		m[i] = &h[i];
	}
	traffic_health_cmp_hour(m, n, &s, out);
}

static void
measures(void)
{
	struct devh_row r = row(1000, 500, 6, 3, 2);
	struct health_hour h;

	traffic_health_cmp_dev(&h, &r);
	/* 6000 ms over 1000 reads of 64 KiB: 6 ms a read, 6000 / 62.5 MiB =
	 * 96 ms a MiB; writes 3 and 48; await 7500 / 1500 = 5; load 1500 /
	 * (60 x 60000) requests a ms; service 3000 / 1500 = 2 ms. */
	ok(h.busy && h.v[HM_TR] == 6 && h.v[HM_BR] == 96 &&
	    h.v[HM_TW] == 3 && h.v[HM_BW] == 48 && h.v[HM_AWAIT] == 5 &&
	    h.v[HM_LOAD] == 1500.0 / 3600000 && h.v[HM_SVC] == 2 &&
	    h.v[HM_SIZE] == 65536 && h.ios[HD_READ] == 1000 &&
	    h.ios[HD_WRITE] == 500 && h.ms == 7500, "a device hour's measures");
	r = row(999, 0, 6, 3, 2);
	traffic_health_cmp_dev(&h, &r);
	ok(!h.busy && isnan(h.v[HM_TW]) && isnan(h.v[HM_BW]), "999 requests: "
	    "not busy; no writes: no time per write or per MiB written");
	r = row(1000, 99, 6, 3, 0);
	r.minutes = 29;
	traffic_health_cmp_dev(&h, &r);
	ok(!h.busy && isnan(h.v[HM_TW]) && isnan(h.v[HM_SVC]), "29 valid "
	    "minutes: not busy; 99 writes: no time per write; no busy ms: no "
	    "service time");
}

static void
queue(void)
{
	double rho;

	ok(traffic_health_cmp_queue(0.1, 5, &rho) == 2 && rho == 0.5,
	    "load 0.1 a ms at 5 ms: busy half the time, waits twice");
	ok(traffic_health_cmp_queue(0.1, NAN, &rho) == 1 && rho == 0,
	    "no service time: no queue");
}

static void
group(void)
{
	struct devh_row r[N];
	struct health_cmp c[N];

	/* Five disks of 2400 reads and 1200 writes (0.001 requests a ms),
	 * 100 ms of service each: S = 100, rho = 0.1, q = 1/0.9. Disks 0-3
	 * read in 6 ms, disk 4 in 24; all write in 2. Disk 5 takes 3 times
	 * the requests (rho 0.3, q = 1/0.7) and reads in 7 ms. */
	for (int i = 0; i < 4; i++)
		r[i] = row(2400, 1200, 6, 2, 100);
	r[4] = row(2400, 1200, 24, 2, 100);
	r[5] = row(7200, 3600, 7, 2, 100);
	compare(r, N, c);
	ok(near(c[0].q, 1 / 0.9) && near(c[5].q, 1 / 0.7) && c[5].alike,
	    "the queue factors; 3 times the load is still alike");
	/* Disk 4: 24 x 0.9 = 21.6 against 5.4, 5.4, 5.4, 5.4 and 7 x 0.7 =
	 * 4.9: median 5.4, 4 times; per MiB the same; writes 1.8 against
	 * 1.8 x 4 and 1.4: 1. */
	ok(near(c[4].slow[HD_READ], 4) && near(c[4].slow[HD_WRITE], 1),
	    "slow in reads only: each direction on its own");
	ok(near(c[4].adj[HD_READ], 21.6) && near(c[4].peer[HD_READ], 5.4),
	    "its adjusted time per read and its peers' median");
	ok(traffic_health_cmp_above(&c[4], 3) &&
	    !traffic_health_cmp_above(&c[0], 3), "above K in reads: above");
	/* Disk 5: 4.9 against 5.4 x 4 and 21.6: median 5.4. */
	ok(near(c[5].slow[HD_READ], 4.9 / 5.4), "the busy disk, adjusted: "
	    "not slow");
	/* Awaits: disks 0-3 (2400 x 6 + 1200 x 2) / 3600 = 14/3, disk 5
	 * (7200 x 7 + 3600 x 2) / 10800 = 16/3: disk 4's peers' median
	 * 14/3, least 14/3, greatest 16/3 (unadjusted). */
	ok(near(c[4].med, 14.0 / 3) && near(c[4].lo, 14.0 / 3) &&
	    near(c[4].hi, 16.0 / 3), "its peers' median, least and greatest "
	    "await");
	/* Disk 5 at 10 times the load: rho 1, not alike; disk 3 with 4
	 * times the request size: not alike. */
	r[5] = row(36000, 0, 7, 2, 100);
	r[3].rd_bytes *= 4;
	r[3].wr_bytes *= 4;
	compare(r, N, c);
	ok(!c[5].alike && !traffic_health_cmp_compared(&c[5]) &&
	    !c[3].alike, "rho 1, or 4 times the size: not alike");
	/* Disk 4 against 5.4, 5.4, 5.4: 4 times. */
	ok(near(c[4].slow[HD_READ], 4), "the slow disk against the alike "
	    "ones only");
	/* No busy ms: S missing, q = 1: 24 against 6. */
	for (int i = 0; i < N; i++)
		r[i] = row(2400, 1200, i == 4 ? 24 : 6, 2, 0);
	compare(r, N, c);
	ok(c[4].q == 1 && c[4].slow[HD_READ] == 4, "no service time: q 1");
	/* Only two alike: nobody is compared. */
	r[0] = row(0, 0, 0, 0, 0);
	r[1] = row(500, 0, 6, 0, 0);
	r[2].rd_bytes *= 8;
	r[3].rd_bytes *= 8;
	compare(r, N, c);
	ok(!traffic_health_cmp_compared(&c[4]) && !c[4].alike &&
	    !traffic_health_cmp_compared(&c[5]), "two alike disks: no "
	    "comparison");
}

static void
host_hour(void)
{
	struct devh_row r[3] = { row(2000, 1000, 4, 2, 1),
	    row(3000, 0, 8, 0, 1), row(500, 0, 6, 0, 1) };
	struct health_hour h[3], g;
	const struct health_hour *m[3] = { &h[0], &h[1], &h[2] };
	double tmp[3];

	for (int i = 0; i < 3; i++)
		traffic_health_cmp_dev(&h[i], &r[i]);
	traffic_health_cmp_group(&g, m, 3, tmp);
	/* Busy: disks 0 and 1. Reads 4 and 8: median 6; writes: disk 0's
	 * 2; awaits 10/3 and 8: median 17/3 over 6000 requests. */
	ok(g.busy && g.v[HM_TR] == 6 && g.v[HM_TW] == 2 &&
	    near(g.v[HM_AWAIT], 17.0 / 3) && g.nios == 6000 &&
	    g.ios[HD_READ] == 5000 && g.ios[HD_WRITE] == 1000 &&
	    near(g.ms, 17.0 / 3 * 6000), "a host's hour: its busy disks' "
	    "medians, their requests summed");
}

int
main(void)
{
	measures();
	queue();
	group();
	host_hour();
	return tap_end();
}
