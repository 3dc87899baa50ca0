/*
 * test_delta: modular deltas and the reset verdict of delta_compute(),
 * field by field, with hand-computed values: 32-bit wraps of the ms fields,
 * 2^32 and 2^64 wraps of ios, plausibility limits, 7-column lines.
 */
#include <string.h>

#include "delta.h"
#include "tap.h"

#define SEC 1000000000ULL
#define F14 0x7ffu		/* fields of a 14-column line */
#define F7  0x55u		/* 7-column partition line: 0, 2, 4, 6 */
#define T32 (UINT64_C(1) << 32)

static void
set4(uint64_t *v, uint64_t rd_ios, uint64_t rd_ms, uint64_t io_ms,
    uint64_t weighted)
{
	memset(v, 0, DS_FIELDS * sizeof *v);
	v[DS_RD_IOS] = rd_ios;
	v[DS_RD_MS] = rd_ms;
	v[DS_IO_MS] = io_ms;
	v[DS_WEIGHTED_MS] = weighted;
}

static void
test_delta(void)
{
	uint64_t p[DS_FIELDS], c[DS_FIELDS];
	struct iolog_val v;

	set4(p, 100, 50, 10, 60);
	set4(c, 130, 80, 900, 200);
	p[DS_IN_FLIGHT] = 7;
	c[DS_IN_FLIGHT] = 3;
	is_i64(delta_compute(p, c, F14, 64, SEC, &v), IOLOG_OK, "plain: ok");
	is_u64(v.v[DS_RD_IOS], 30, "plain: rd_ios 130-100");
	is_u64(v.v[DS_IO_MS], 890, "plain: io_ms 900-10");
	is_u64(v.v[DS_IN_FLIGHT], 3, "in_flight is the value, not -4");
	is_u64(v.mask, 1u << DS_RD_IOS | 1u << DS_RD_MS | 1u << DS_IN_FLIGHT |
	    1u << DS_IO_MS | 1u << DS_WEIGHTED_MS, "plain: mask of non-zero");

	/* rd_ms wraps at 2^32 on every kernel: 4294967000 -> 200 is +496. */
	set4(p, 100, T32 - 296, 0, 0);
	set4(c, 110, 200, 0, 0);
	is_i64(delta_compute(p, c, F14, 64, SEC, &v), IOLOG_OK, "rd_ms wrap ok");
	is_u64(v.v[DS_RD_MS], 496, "rd_ms wrap: 2^32-296 -> 200 = 496");

	/* io_ms wrap within dt: 2^32-100 -> 800 is +900 in 1 s: plausible. */
	set4(p, 0, 0, T32 - 100, 0);
	set4(c, 0, 0, 800, 0);
	is_i64(delta_compute(p, c, F14, 64, SEC, &v), IOLOG_OK, "io_ms wrap ok");
	is_u64(v.v[DS_IO_MS], 900, "io_ms wrap: 900");

	/* io_ms backwards 5000 -> 3000: 2^32-2000 ms busy in 1 s: reset. */
	set4(p, 5, 0, 5000, 0);
	set4(c, 6, 0, 3000, 0);
	is_i64(delta_compute(p, c, F14, 64, SEC, &v), IOLOG_RESET,
	    "io_ms backwards: reset");
	is_u64(v.v[DS_IO_MS], 3000, "reset stores absolutes (io_ms 3000)");
	is_u64(v.v[DS_RD_IOS], 6, "reset stores absolutes (rd_ios 6)");
	/* io_ms 1600 in 1000 ms exceeds 1000 + 250 + 250 of slack. */
	set4(c, 6, 0, 6600, 0);
	is_i64(delta_compute(p, c, F14, 64, SEC, &v), IOLOG_RESET,
	    "io_ms +1600 in 1 s: reset");
	set4(c, 6, 0, 6500, 0);
	is_i64(delta_compute(p, c, F14, 64, SEC, &v), IOLOG_OK,
	    "io_ms +1500 in 1 s: within slack");

	/* weighted: 1000 ms x 65536 in flight = 65,536,000 at most (+1 ms). */
	set4(p, 0, 0, 0, 1000);
	set4(c, 0, 0, 0, 1000 + 1001ULL * 65536);
	is_i64(delta_compute(p, c, F14, 64, SEC, &v), IOLOG_OK,
	    "weighted at the queue-depth limit: ok");
	set4(c, 0, 0, 0, 1000 + 1001ULL * 65536 + 1);
	is_i64(delta_compute(p, c, F14, 64, SEC, &v), IOLOG_RESET,
	    "weighted past the queue-depth limit: reset");
	/* weighted backwards by 10: 2^32-10 > limit: reset */
	set4(c, 0, 0, 0, 990);
	is_i64(delta_compute(p, c, F14, 64, SEC, &v), IOLOG_RESET,
	    "weighted backwards: reset");

	/* ios on a 64-bit kernel never wrap: 2^64-10 -> 5 is a reset. */
	set4(p, UINT64_MAX - 9, 0, 0, 0);
	set4(c, 5, 0, 0, 0);
	is_i64(delta_compute(p, c, F14, 64, SEC, &v), IOLOG_RESET,
	    "rd_ios 2^64-10 -> 5 on 64-bit: reset");
	/* ios on a 32-bit kernel wrap at 2^32: 2^32-10 -> 5 is +15. */
	set4(p, T32 - 10, 100, 0, 0);
	set4(c, 5, 130, 0, 0);
	is_i64(delta_compute(p, c, F14, 32, SEC, &v), IOLOG_OK,
	    "rd_ios 2^32 wrap on 32-bit: ok");
	is_u64(v.v[DS_RD_IOS], 15, "rd_ios 2^32-10 -> 5 = 15");
	is_u64(v.v[DS_RD_MS], 30, "rd_ms with it: 30");
	/* ... but not together with its ms field going backwards. */
	set4(c, 5, 90, 0, 0);
	is_i64(delta_compute(p, c, F14, 32, SEC, &v), IOLOG_RESET,
	    "rd_ios and rd_ms backwards on 32-bit: reset");
	/* sectors backwards on 32-bit: 2^32-50 sectors in 1 s: reset. */
	memset(p, 0, sizeof p);
	memset(c, 0, sizeof c);
	p[DS_WR_SECTORS] = 100;
	c[DS_WR_SECTORS] = 50;
	is_i64(delta_compute(p, c, F14, 32, SEC, &v), IOLOG_RESET,
	    "wr_sectors -50 on 32-bit: 2 TiB in 1 s: reset");

	/* A 7-column line: only fields 0, 2, 4, 6 exist. */
	memset(p, 0, sizeof p);
	memset(c, 0, sizeof c);
	p[DS_RD_IOS] = 1, c[DS_RD_IOS] = 4;
	p[DS_RD_SECTORS] = 8, c[DS_RD_SECTORS] = 32;
	c[DS_RD_MS] = 99;	/* not on the line: must be ignored */
	is_i64(delta_compute(p, c, F7, 64, SEC, &v), IOLOG_OK, "7-col: ok");
	is_u64(v.mask, 1u << DS_RD_IOS | 1u << DS_RD_SECTORS, "7-col: mask");
	is_u64(v.v[DS_RD_SECTORS], 24, "7-col: rd_sectors 24");
	is_u64(v.v[DS_RD_MS], 0, "7-col: absent field stays 0");
}

int
main(void)
{
	test_delta();
	return tap_end();
}
