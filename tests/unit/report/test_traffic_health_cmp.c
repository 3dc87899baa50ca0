/* test_traffic_health_cmp: one hour of a group in
 * report/traffic/traffic_health_cmp.c, on hand-made device hours whose
 * medians, alike members and ratios are worked out by hand below. */
#include <math.h>
#include <string.h>

#include "traffic/traffic_health_int.h"
#include "tap.h"

#define N 6

/* A device hour: 60 valid minutes, reads and writes of 64 KiB each
 * (size s KiB when given), taking rd ms per read and wr ms per write. */
static struct devh_row
row(uint64_t reads, uint64_t writes, uint64_t rd, uint64_t wr, uint64_t kib)
{
	return (struct devh_row){ .minutes = 60, .rd_ios = reads,
	    .wr_ios = writes, .rd_bytes = reads * kib * 1024,
	    .wr_bytes = writes * kib * 1024, .rd_ms = reads * rd,
	    .wr_ms = writes * wr };
}

static void
compare(struct devh_row *r, size_t n, struct health_cmp *out)
{
	struct health_hour h[N];
	const struct health_hour *m[N];
	double v[HM_N][N];
	const struct health_hour *alike[N];
	unsigned char flag[N];
	struct health_scratch s = { .alike = alike, .flag = flag };

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
	struct devh_row r = row(1000, 500, 6, 3, 64);
	struct health_hour h;

	traffic_health_cmp_dev(&h, &r);
	ok(h.busy && h.v[HM_RD] == 6 && h.v[HM_WR] == 3 &&
	    h.v[HM_AWAIT] == 7500.0 / 1500 && h.v[HM_IOS] == 1500 &&
	    h.v[HM_SIZE] == 65536, "a device hour's measures");
	ok(h.v[HM_TPB] == 7500.0 / (1500.0 * 65536) * 1048576,
	    "time per byte in ms per MiB: 80");
	r = row(999, 0, 6, 3, 64);
	traffic_health_cmp_dev(&h, &r);
	ok(!h.busy && isnan(h.v[HM_WR]), "999 requests: not busy; no "
	    "writes: no time per write");
	r = row(1000, 99, 6, 3, 64);
	r.minutes = 29;
	traffic_health_cmp_dev(&h, &r);
	ok(!h.busy && isnan(h.v[HM_WR]), "29 valid minutes: not busy; 99 "
	    "writes: no time per write");
}

static void
group(void)
{
	struct devh_row r[N];
	struct health_cmp c[N];

	/* Five alike disks (reads 4, 5, 6, 7 ms; writes 2 ms) and one that
	 * takes 24 ms a read and 8 a write. */
	r[0] = row(2000, 1000, 4, 2, 64);
	r[1] = row(2000, 1000, 5, 2, 64);
	r[2] = row(2000, 1000, 6, 2, 64);
	r[3] = row(2000, 1000, 7, 2, 64);
	r[4] = row(2000, 1000, 24, 8, 64);
	r[5] = row(2000, 1000, 6, 2, 64);
	compare(r, N, c);
	/* Disk 4's peers read in 4, 5, 6, 7, 6 ms: median 6 (ratio 4);
	 * write in 2 (ratio 4); time per byte: (2 x 24 + 8) / (2 x 6 + 2)
	 * = 56 / 14 = 4. Slowness 4. */
	ok(c[4].compared && c[4].npeers == 5 && c[4].slowness == 4,
	    "the slow disk: 4 times its peers by every measure");
	/* Its peers' awaits: (2 x rd + 2) / 3 = 10/3, 4, 14/3, 16/3, 14/3:
	 * median 14/3, least 10/3, greatest 16/3. */
	ok(c[4].med == 14.0 / 3 && c[4].lo == 10.0 / 3 &&
	    c[4].hi == 16.0 / 3, "its peers' median, least and greatest "
	    "await");
	/* Disk 0 against 5, 6, 7, 24, 6: reads median 6 (4/6), writes 2
	 * (1), time per byte (2x4+2)/(2x6+2) = 10/14: slowness 2/3. */
	ok(c[0].compared && fabs(c[0].slowness - 4.0 / 6) < 1e-15,
	    "a fast disk: the least of its ratios");
	/* One disk with 3 times the requests, one with 4 times the size:
	 * not alike, not compared, and not a peer. */
	r[1] = row(6000, 3000, 50, 50, 64);
	r[3] = row(2000, 1000, 50, 50, 256);
	compare(r, N, c);
	ok(!c[1].compared && !c[3].compared, "3 times the load, 4 times the "
	    "size: not compared");
	/* Disk 4 against 4, 6, 6 ms reads: median 6, still 4 times. */
	ok(c[4].compared && c[4].npeers == 3 && c[4].slowness == 4,
	    "the slow disk against the alike ones only");
	/* Only two alike: nobody is compared. */
	r[0] = row(0, 0, 0, 0, 64);
	r[2] = row(500, 0, 6, 0, 64);
	compare(r, N, c);
	ok(!c[4].compared && !c[5].compared, "two alike disks: no "
	    "comparison");
}

int
main(void)
{
	measures();
	group();
	return tap_end();
}
