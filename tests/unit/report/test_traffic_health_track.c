/* test_traffic_health_track: the onset and verdicts of
 * report/traffic/traffic_health_track.c on sequences of hours whose
 * answers are worked out by hand below (docs/analyses.md, "Device
 * health"). */
#include <math.h>
#include <string.h>

#include "traffic/traffic_health_int.h"
#include "tap.h"

#define K 3.0

/* Feed hours "a" (above K), "b" (compared, below), "i" (busy, not
 * compared), "." (idle), one an hour from hour 0. */
static void
feed(struct health_track *t, const char *hours)
{
	traffic_health_track_init(t);
	for (int64_t h = 0; hours[h]; h++) {
		struct health_hour hh = { .busy = hours[h] != '.', .ms = 10,
		    .nios = 2 };
		struct health_cmp c = { .compared = hours[h] == 'a' ||
		    hours[h] == 'b', .slowness = hours[h] == 'a' ? 4 : 1,
		    .med = 1.5 };

		traffic_health_track_hour(t, h * 3600, &hh, &c, K);
	}
}

static void
onsets(void)
{
	struct health_track t;

	feed(&t, "bbbbbbaaaaaa");
	is_i64(traffic_health_track_verdict(&t, 7), HV_SLOW, "6 above after "
	    "6 below: slow");
	is_i64(t.onset, 6 * 3600, "... since the first hour above");
	/* One stray hour above, two below, then the run: the stray hour
	 * before hours below it does not move the onset back. */
	feed(&t, "bbbabbaaaaaaaa");
	is_i64(t.onset, 6 * 3600, "a stray hour above before the run: the "
	    "onset is the run's");
	is_i64(traffic_health_track_verdict(&t, 7), HV_SLOW, "... slow");
	/* Stray, one below, run: the sums from the stray hour and from the
	 * run are equal (8 - 1 + 1 = 8): the later wins. */
	feed(&t, "bbbabaaaaaaaa");
	is_i64(t.onset, 5 * 3600, "equal sums: the later onset");
	/* Mostly above since hour 2, with a few hours below. */
	feed(&t, "bbaabaabaaab");
	is_i64(t.onset, 2 * 3600, "hours below inside the run keep the onset");
	ok(t.since.above == 7 && t.since.hours == 10, "7 of 10 hours above "
	    "since then");
	is_i64(traffic_health_track_verdict(&t, 7), HV_SLOW, "... slow");
	/* Slow, then recovered for longer: healthy. */
	feed(&t, "aaaaaaaabbbbbbbbbbbb");
	is_i64(traffic_health_track_verdict(&t, 7), HV_HEALTHY, "8 above "
	    "then 12 below: healthy");
	/* Idle and uncompared hours count for nothing. */
	feed(&t, "bbbbbb..ii..aaaaaa");
	is_i64(t.onset, 12 * 3600, "idle and uncompared hours skipped");
	ok(t.busy == 14 && t.all.hours == 12, "14 busy, 12 compared hours");
}

static void
verdicts(void)
{
	struct health_track t;

	feed(&t, "bbbbbbbbbbbbbbbbbbbbbbbb");
	is_i64(traffic_health_track_verdict(&t, 1), HV_FEW_PEERS,
	    "one peer: not called");
	is_i64(traffic_health_track_verdict(&t, 2), HV_HEALTHY,
	    "two peers: healthy");
	is_str(traffic_health_track_confidence(&t, HV_HEALTHY), "high",
	    "24 compared hours, none above: high confidence");
	feed(&t, "bbbbb");
	is_i64(traffic_health_track_verdict(&t, 7), HV_FEW_BUSY,
	    "5 busy hours: not called");
	feed(&t, "bbbbbiiiii");
	is_i64(traffic_health_track_verdict(&t, 7), HV_FEW_COMPARED,
	    "10 busy, 5 compared: not called");
	feed(&t, "bbbbbbbbaaaaa");
	is_i64(traffic_health_track_verdict(&t, 7), HV_TOO_SOON,
	    "5 hours above since the onset: not called yet");
	ok(traffic_health_track_confidence(&t, HV_TOO_SOON) == NULL,
	    "... and no confidence");
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
	is_i64(traffic_health_track_verdict(&t, 7), HV_SLOW,
	    "24 above, 13 below: slow");
	is_str(traffic_health_track_confidence(&t, HV_SLOW), "low",
	    "... with 65%% of the period above: low");
	/* The period's sums: 2 requests and 10 ms an hour, peers' median
	 * await 1.5 ms. */
	feed(&t, "bbbbbbaaaaaa");
	ok(t.since.ms == 60 && t.since.nios == 12 && t.since.peer_ms == 18,
	    "sums since the onset: 60 ms, 12 requests, 12 x 1.5 ms at the "
	    "peers' median");
	ok(t.all.ms == 120 && t.all.hours == 12 && t.all.above == 6,
	    "sums of every compared hour");
}

int
main(void)
{
	onsets();
	verdicts();
	return tap_end();
}
