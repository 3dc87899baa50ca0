/* test_traffic_health_min: the minute comparison, the episode joiner and
 * the onset minute of report/traffic/traffic_health_min.c, on minutes
 * whose answers are worked out by hand below (docs/analyses.md, "Device
 * health"). */
#include <math.h>
#include <string.h>

#include "traffic/traffic_health_int.h"
#include "tap.h"

#define K 3.0
#define M HEALTH_HOUR_MINUTES

static int
near(double a, double b)
{
	return fabs(a - b) <= 1e-12 * (fabs(b) > 1 ? fabs(b) : 1);
}

static double
at(const double *ratio, size_t dev, size_t minute, int d)
{
	return ratio[(dev * M + minute) * HD_N + d];
}

static void
compare(void)
{
	static struct health_minute m[3 * M];
	double q[3] = { 1, 1, 1 }, tmp[3], ratio[3 * M * HD_N];

	memset(m, 0, sizeof m);
	for (size_t i = 0; i < 3 * M; i++)
		m[i].valid = 1;
	/* Minute 0: reads of 10, 2 and 2 ms. */
	m[0 * M].ios[HD_READ] = 20, m[0 * M].ms[HD_READ] = 200;
	m[1 * M].ios[HD_READ] = 20, m[1 * M].ms[HD_READ] = 40;
	m[2 * M].ios[HD_READ] = 30, m[2 * M].ms[HD_READ] = 60;
	/* Minute 1: device 2 has 19 reads: two left, no ratio. */
	m[0 * M + 1] = m[0 * M];
	m[1 * M + 1] = m[1 * M];
	m[2 * M + 1].ios[HD_READ] = 19, m[2 * M + 1].ms[HD_READ] = 38;
	/* Minute 2: device 0 not valid. */
	m[0 * M + 2] = m[0 * M];
	m[0 * M + 2].valid = 0;
	m[1 * M + 2] = m[1 * M];
	m[2 * M + 2] = m[2 * M];
	traffic_health_min_compare(m, q, 3, tmp, ratio);
	ok(at(ratio, 0, 0, HD_READ) == 5 && near(at(ratio, 1, 0, HD_READ),
	    2.0 / 6), "10 ms against 2 and 2: 5; 2 against 10 and 2: 1/3");
	ok(isnan(at(ratio, 0, 0, HD_WRITE)), "no writes: no write ratio");
	ok(isnan(at(ratio, 0, 1, HD_READ)) && isnan(at(ratio, 2, 1,
	    HD_READ)), "19 reads: one peer short, no ratio");
	ok(isnan(at(ratio, 0, 2, HD_READ)) && isnan(at(ratio, 1, 2,
	    HD_READ)), "a minute that is not valid: missing, and no peer");
	/* Device 0's queue factor 2: 5 against 2 and 2. */
	q[0] = 2;
	traffic_health_min_compare(m, q, 3, tmp, ratio);
	ok(at(ratio, 0, 0, HD_READ) == 2.5 && near(at(ratio, 1, 0, HD_READ),
	    2 / 3.5), "divided by the hour's queue factor");
}

/* Feed minutes from minute 0: "r" slow in reads (ratio 4), "w" in
 * writes (ratio 5), "b" both (6), "c" compared below (ratio 1), "."
 * missing. */
static void
feed(struct health_mtrack *t, const char *s, int64_t h_read)
{
	traffic_health_min_init(t, h_read, -1);
	for (int64_t i = 0; s[i]; i++) {
		double r[HD_N] = { NAN, NAN };

		switch (s[i]) {
		case 'r': r[HD_READ] = 4; break;
		case 'w': r[HD_WRITE] = 5; r[HD_READ] = 1; break;
		case 'b': r[HD_READ] = 6; r[HD_WRITE] = 6; break;
		case 'c': r[HD_READ] = 1; break;
		default: continue;
		}
		traffic_health_min_add(t, i * 60, r, K);
	}
	traffic_health_min_end(t);
}

static void
episodes(void)
{
	struct health_mtrack t;

	feed(&t, "ccrrrrrrrrrrcc", -1);
	ok(t.nep == 1 && t.ep[0].start == 120 && t.ep[0].end == 720 &&
	    t.ep[0].slow == 10 && t.ep[0].dirs == 1u << HD_READ &&
	    t.ep[0].factor == 4, "10 slow minutes: an episode, 02:00 to 12:00");
	traffic_health_min_free(&t);
	feed(&t, "rrrrr", -1);
	ok(t.nep == 0, "5 slow minutes: none");
	traffic_health_min_free(&t);
	/* Minutes 4 and 7 are 3 apart: one run of 10. */
	feed(&t, "rrrrrc.rrrww", -1);
	ok(t.nep == 1 && t.ep[0].start == 0 && t.ep[0].end == 720 &&
	    t.ep[0].slow == 10 && t.ep[0].dirs == 3 && t.ep[0].factor == 5,
	    "2 minutes between slow ones: joined; reads and writes; the "
	    "greatest ratio");
	traffic_health_min_free(&t);
	/* Minutes 4 and 8 are 4 apart: two runs of 5. */
	feed(&t, "rrrrrcc.rrrrr", -1);
	ok(t.nep == 0, "3 minutes between: two runs of 5, no episode");
	traffic_health_min_free(&t);
	feed(&t, "bbbbbbbbbbcccccrrrrrrrrrr", -1);
	ok(t.nep == 2 && t.ep[0].dirs == 3 && t.ep[0].factor == 6 &&
	    t.ep[1].start == 900 && t.ep[1].end == 1500, "two episodes");
	traffic_health_min_free(&t);
}

static void
onsets(void)
{
	struct health_mtrack t;
	char s[300];

	/* Onset hour 01:00. Minutes 0-69 below, 70-179 slow: from minute
	 * 70 the sum is greatest, and it starts before 02:00. */
	memset(s, 'c', 70);
	memset(s + 70, 'r', 110);
	s[180] = '\0';
	feed(&t, s, 3600);
	is_i64(traffic_health_min_onset(&t, HD_READ), 70 * 60, "the onset "
	    "to the minute: 01:10");
	traffic_health_min_free(&t);
	/* A slow minute then two below: the sum is greatest from the run
	 * after them. */
	memcpy(s, "crccr", 5);
	memset(s + 5, 'r', 20);
	s[25] = '\0';
	feed(&t, s, 0);
	is_i64(traffic_health_min_onset(&t, HD_READ), 4 * 60, "a stray slow "
	    "minute before two below: the run's");
	traffic_health_min_free(&t);
	/* Slow, one below, slow: the sums from minutes 0 and 2 are equal:
	 * the later. */
	memcpy(s, "rcr", 3);
	memset(s + 3, 'r', 20);
	s[23] = '\0';
	feed(&t, s, 0);
	is_i64(traffic_health_min_onset(&t, HD_READ), 2 * 60, "equal sums: "
	    "the later minute");
	traffic_health_min_free(&t);
	/* The slow run starts after the onset hour's end: the onset is
	 * still a minute before 01:00, the last with the least prefix. */
	memset(s, 'c', 60);
	memset(s + 60, 'r', 60);
	s[120] = '\0';
	feed(&t, s, 0);
	is_i64(traffic_health_min_onset(&t, HD_READ), 59 * 60, "only minutes "
	    "starting before the onset hour's end");
	traffic_health_min_free(&t);
	/* No compared minute: the onset hour. */
	feed(&t, "....", 7200);
	is_i64(traffic_health_min_onset(&t, HD_READ), 7200, "no compared "
	    "minute: the onset hour");
	is_i64(traffic_health_min_onset(&t, HD_WRITE), -1, "a direction "
	    "not refined: none");
	traffic_health_min_free(&t);
}

int
main(void)
{
	compare();
	episodes();
	onsets();
	return tap_end();
}
