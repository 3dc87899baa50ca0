/* test_opts: the defaults report/opts/opts.c's opts_init gives every
 * question's options, written out here by hand. */
#include <stdint.h>
#include <string.h>

#include "opts/opts.h"
#include "tap.h"

static void
defaults(void)
{
	struct opts o;
	static const int64_t edges[] = { 60, 600, 3600, 7200, 14400, 28800,
	    86400 };

	opts_init(&o);
	is_i64(o.every, 3600, "default every");
	ok(o.threshold_pct.n == 5 && o.threshold_pct.k == 0,
	    "default threshold 5%%");
	ok(o.peak.n == 0 && o.strict == 0 && o.nann == 0,
	    "no peak, not strict");
	is_i64((int64_t)o.nidle_edges, 7, "seven idle classes");
	ok(memcmp(o.idle_edges, edges, sizeof edges) == 0, "idle edges");
	is_i64((int64_t)o.nburst_c, 3, "three burst thresholds");
	ok(o.burst_c[0] == 0 && o.burst_c[1] == 131072 &&
	    o.burst_c[2] == 1048576, "burst thresholds 0, 128K, 1M");
	is_i64(o.dir_depth, 1, "dir depth 1");
}

int
main(void)
{
	defaults();
	return tap_end();
}
