/* test_traffic_health_track: the onset and verdicts of
 * report/traffic/traffic_health_track.c on sequences of hours whose
 * answers are worked out by hand below (docs/analyses.md, "Device
 * health"). */
#include <math.h>
#include <string.h>

#include "traffic/traffic_health_int.h"
#include "tap.h"

#define K 3.0

/* Per direction, hours "a" (above K), "b" (compared, below), "-" (not
 * compared in it), one an hour from hour 0; in reads "i" (busy, not
 * compared) and "." (idle) too. Writes NULL: never compared. Each hour:
 * 10 ms over 2 requests (1 read, 1 write), peers' median await 1.5 ms;
 * adjusted time per read 4 above K, 1 below, against 1. */
static void
feed2(struct health_track *t, const char *rd, const char *wr)
{
	traffic_health_track_init(t);
	for (int64_t h = 0; rd[h]; h++) {
		struct health_hour hh = { .busy = rd[h] != '.', .ms = 10,
		    .nios = 2, .ios = { 1, 1 } };
		struct health_cmp c = { .slow = { NAN, NAN }, .adj = { NAN,
		    NAN }, .peer = { NAN, NAN }, .med = 1.5 };
		char x[HD_N] = { rd[h], wr ? wr[h] : '-' };

		for (int d = 0; d < HD_N; d++)
			if (x[d] == 'a' || x[d] == 'b') {
				c.slow[d] = x[d] == 'a' ? 4 : 1;
				c.adj[d] = c.slow[d];
				c.peer[d] = 1;
			}
		traffic_health_track_hour(t, h * 3600, &hh, &c, K);
	}
}

static void
feed(struct health_track *t, const char *hours)
{
	feed2(t, hours, NULL);
}

#define ONSET(t)	((t).dir[HD_READ].onset)
#define SINCE(t)	((t).dir[HD_READ].since)

static void
onsets(void)
{
	struct health_track t;

	feed(&t, "bbbbbbaaaaaa");
	is_i64(traffic_health_track_verdict(&t, 7, 0), HV_SLOW, "6 above after "
	    "6 below: slow");
	is_i64(ONSET(t), 6 * 3600, "... since the first hour above");
	/* One stray hour above, two below, then the run: the stray hour
	 * before hours below it does not move the onset back. */
	feed(&t, "bbbabbaaaaaaaa");
	is_i64(ONSET(t), 6 * 3600, "a stray hour above before the run: the "
	    "onset is the run's");
	is_i64(traffic_health_track_verdict(&t, 7, 0), HV_SLOW, "... slow");
	/* Stray, one below, run: the sums from the stray hour and from the
	 * run are equal (8 - 1 + 1 = 8): the later wins. */
	feed(&t, "bbbabaaaaaaaa");
	is_i64(ONSET(t), 5 * 3600, "equal sums: the later onset");
	/* Mostly above since hour 2, with a few hours below. */
	feed(&t, "bbaabaabaaab");
	is_i64(ONSET(t), 2 * 3600, "hours below inside the run keep the onset");
	ok(SINCE(t).above == 7 && SINCE(t).hours == 10, "7 of 10 hours above "
	    "since then");
	is_i64(traffic_health_track_verdict(&t, 7, 0), HV_SLOW, "... slow");
	/* Slow, then recovered for longer: healthy. */
	feed(&t, "aaaaaaaabbbbbbbbbbbb");
	is_i64(traffic_health_track_verdict(&t, 7, 0), HV_HEALTHY, "8 above "
	    "then 12 below: healthy");
	/* Idle and uncompared hours count for nothing. */
	feed(&t, "bbbbbb..ii..aaaaaa");
	is_i64(ONSET(t), 12 * 3600, "idle and uncompared hours skipped");
	ok(t.busy == 14 && t.all.hours == 12, "14 busy, 12 compared hours");
}

static void
verdicts(void)
{
	struct health_track t;

	feed(&t, "bbbbbbbbbbbbbbbbbbbbbbbb");
	is_i64(traffic_health_track_verdict(&t, 1, 0), HV_FEW_PEERS,
	    "one peer: not called");
	is_i64(traffic_health_track_verdict(&t, 2, 0), HV_HEALTHY,
	    "two peers: healthy");
	is_str(traffic_health_track_confidence(&t, HV_HEALTHY), "high",
	    "24 compared hours, none above: high confidence");
	feed(&t, "bbbbb");
	is_i64(traffic_health_track_verdict(&t, 7, 0), HV_FEW_BUSY,
	    "5 busy hours: not called");
	feed(&t, "bbbbbiiiii");
	is_i64(traffic_health_track_verdict(&t, 7, 0), HV_FEW_COMPARED,
	    "10 busy, 5 compared: not called");
	feed(&t, "bbbbbbbbaaaaa");
	is_i64(traffic_health_track_verdict(&t, 7, 0), HV_SUSPECT,
	    "5 hours above since the onset: suspect");
	ok(traffic_health_track_confidence(&t, HV_SUSPECT) == NULL,
	    "... and no confidence");
	is_i64(traffic_health_track_verdict(&t, 7, 2), HV_INTERMITTENT,
	    "... intermittent with 2 episodes");
	is_i64(traffic_health_track_verdict(&t, 7, 1), HV_SUSPECT,
	    "... suspect with 1");
	feed(&t, "bbbbbbaaaaaa");
	is_i64(traffic_health_track_verdict(&t, 7, 5), HV_SLOW,
	    "slow before intermittent");
	feed(&t, "bbbbbbaaaaaaaaaaaa");
	is_str(traffic_health_track_confidence(&t, HV_SLOW), "medium",
	    "12 hours above: medium confidence");
	feed(&t, "aaaaaaaaaaaaaaaaaaaaaaab");
	is_str(traffic_health_track_confidence(&t, HV_SLOW), "medium",
	    "23 of 24 above: fewer than 24, medium");
	feed(&t, "aaaaaaaaaaaaaaaaaaaaaaaab");
	is_str(traffic_health_track_confidence(&t, HV_SLOW), "high",
	    "24 of 25 above: high");
	feed(&t, "aaaaaaaaaaaaaaaaaaaaaaaabbbbbbbbbbbbb");
	is_i64(traffic_health_track_verdict(&t, 7, 0), HV_SLOW,
	    "24 above, 13 below: slow");
	is_str(traffic_health_track_confidence(&t, HV_SLOW), "low",
	    "... with 65%% of the period above: low");
	/* The period's sums: 2 requests and 10 ms an hour, peers' median
	 * await 1.5 ms. */
	feed(&t, "bbbbbbaaaaaa");
	ok(SINCE(t).ms == 60 && SINCE(t).nios == 12 && SINCE(t).peer_ms == 18,
	    "sums since the onset: 60 ms, 12 requests, 12 x 1.5 ms at the "
	    "peers' median");
	ok(t.all.ms == 120 && t.all.hours == 12 && t.all.above == 6,
	    "sums of every compared hour");
}

static void
directions(void)
{
	struct health_track t;
	const struct health_sums *p;

	/* Slow in reads, writes compared and never above: the old rule's
	 * least ratio never called it. */
	feed2(&t, "bbbbbbaaaaaa", "bbbbbbbbbbbb");
	is_i64(traffic_health_track_verdict(&t, 7, 0), HV_SLOW, "slow in "
	    "reads alone");
	is_u64(traffic_health_track_dirs(&t, HV_SLOW), 1u << HD_READ,
	    "... its direction: read");
	p = traffic_health_track_period(&t, HV_SLOW);
	/* Period: hours 6-11; reads 6 x 1 x 4 / 6 x 1 x 1 = 4; writes 1. */
	ok(p->hours == 6 && p->above == 6 && p->fnum[HD_READ] == 24 &&
	    p->fden[HD_READ] == 6 && p->fnum[HD_WRITE] == 6 &&
	    p->fden[HD_WRITE] == 6, "the period's hours and factors");
	/* Writes: 6 below, 2 above (onset 6), 6 above; reads: 8 below,
	 * then 6 above (onset 8). Both slow; the period from hour 6. */
	feed2(&t, "bbbbbbbbaaaaaa", "bbbbbbaaaaaaaa");
	is_u64(traffic_health_track_dirs(&t, HV_SLOW), 3, "both slow");
	is_i64(traffic_health_track_first(&t, 3), HD_WRITE, "writes first");
	p = traffic_health_track_period(&t, HV_SLOW);
	ok(p->hours == 8 && p->above == 8, "the period from the earlier "
	    "onset: 8 hours, all above in some direction");
	/* Reads slow, writes suspect: the verdict names reads only. */
	feed2(&t, "bbbbbbaaaaaaaa", "bbbbbbbbbbbaaa");
	is_u64(traffic_health_track_dirs(&t, HV_SLOW), 1u << HD_READ,
	    "a suspect direction beside a slow one is not named");
	/* Suspect in writes only. */
	feed2(&t, "bbbbbbbbbbbb", "bbbbbbbbbaaa");
	is_i64(traffic_health_track_verdict(&t, 7, 0), HV_SUSPECT,
	    "3 hours above in writes: suspect");
	is_u64(traffic_health_track_dirs(&t, HV_SUSPECT), 1u << HD_WRITE,
	    "... in writes");
	/* Hours compared in reads only do not move the write track. */
	feed2(&t, "bbbbbbbbbbbbb", "------aaaaaaa");
	is_i64(t.dir[HD_WRITE].onset, 6 * 3600, "writes compared from hour "
	    "6 only");
	ok(t.dir[HD_WRITE].prefix == 7, "... their track has 7 hours");
}

int
main(void)
{
	onsets();
	verdicts();
	directions();
	return tap_end();
}
