/*
 * delta: modular deltas and the reset verdict of one device. See delta.h
 * and docs/iolog-format.md; the policy is that of docs/diskstats.md ("Differences"): an interval
 * that cannot be known is reported as unknown, never clamped to zero.
 */
#include <string.h>

#include "delta.h"

static int
is_ms_field(int f)
{
	return f == DS_RD_MS || f == DS_WR_MS || f == DS_DC_MS ||
	    f == DS_FL_MS || f == DS_WEIGHTED_MS;
}

static int
is_sector_field(int f)
{
	return f == DS_RD_SECTORS || f == DS_WR_SECTORS || f == DS_DC_SECTORS;
}

/* The ms field that sums the latencies of ios field f, or -1. */
static int
ms_of_ios(int f)
{
	switch (f) {
	case DS_RD_IOS: return DS_RD_MS;
	case DS_WR_IOS: return DS_WR_MS;
	case DS_DC_IOS: return DS_DC_MS;
	case DS_FL_IOS: return DS_FL_MS;
	default: return -1;
	}
}

/* Could field f have advanced by d in dt_ms? */
static int
plausible(int f, uint64_t d, uint64_t dt_ms)
{
	if (f == DS_IO_MS)
		return d <= dt_ms + DELTA_SLACK_MS + dt_ms / 4;
	if (is_ms_field(f))
		return d <= (dt_ms + 1) * DELTA_QD_MAX;
	if (is_sector_field(f))
		return d <= (dt_ms + 1) * DELTA_SECT_PER_MS;
	if (f < DS_KNOWN)	/* ios and merges */
		return d <= (dt_ms + 1) * DELTA_IOS_PER_MS;
	return 1;		/* fields not named yet: width check only */
}

void
delta_absolute(const uint64_t *cur, uint32_t fields, struct iolog_val *out)
{
	out->state = IOLOG_RESET;
	out->mask = 0;
	for (int f = 0; f < DS_FIELDS; f++) {
		out->v[f] = (fields >> f & 1) ? cur[f] : 0;
		if (out->v[f])
			out->mask |= UINT32_C(1) << f;
	}
}

/* On a 32-bit kernel: did an ios counter go backwards with its ms field? */
static int
ios_and_ms_backwards(const uint64_t *prev, const uint64_t *cur,
    uint32_t fields)
{
	for (int f = 0; f < DS_KNOWN; f++) {
		int m = ms_of_ios(f);

		if (m < 0 || !(fields >> f & 1) || !(fields >> m & 1))
			continue;
		if (cur[f] < prev[f] && cur[m] < prev[m])
			return 1;
	}
	return 0;
}

int
delta_compute(const uint64_t *prev, const uint64_t *cur, uint32_t fields,
    int long_bits, uint64_t dt_ns, struct iolog_val *out)
{
	uint64_t dt_ms = dt_ns / 1000000;

	if (long_bits < 64 && ios_and_ms_backwards(prev, cur, fields))
		goto reset;
	memset(out->v, 0, sizeof out->v);
	out->mask = 0;
	/* the fields provided only, lowest first */
	for (uint32_t left = fields & ((UINT32_C(1) << DS_FIELDS) - 1);
	    left != 0; left &= left - 1) {
		int f = __builtin_ctz(left);
		int bits = diskstats_field_bits(f, long_bits);
		uint64_t d;

		if (diskstats_is_gauge(f)) {
			d = cur[f];
		} else {
			if (bits >= 64 && cur[f] < prev[f])
				goto reset;
			d = diskstats_delta(prev[f], cur[f], bits);
			if (!plausible(f, d, dt_ms))
				goto reset;
		}
		out->v[f] = d;
		if (d)
			out->mask |= UINT32_C(1) << f;
	}
	out->state = IOLOG_OK;
	return IOLOG_OK;
reset:
	delta_absolute(cur, fields, out);
	return IOLOG_RESET;
}
