/*
 * iostat_calc: iostat -x columns from deltas. See iostat_calc.h.
 *
 * Every formula mirrors sysstat's expression order, so that the doubles
 * round the same way: a rate is Δ/itv·100 with itv in 1/100 s (S_VALUE),
 * kB/s is that rate of sectors /2, %util that of io_ms /10, aqu-sz that of
 * weighted_ms /1000, an await is Δms/Δios, a merge percentage is
 * merges/(merges + ios)·100, and a ratio with a zero denominator is 0, as
 * iostat prints it.
 */
#include "iostat_calc.h"

#define BIT(f) (UINT32_C(1) << (f))

static const char *const titles[IOX_NCOLS] = {
	"r/s", "rkB/s", "rrqm/s", "%rrqm", "r_await", "rareq-sz",
	"w/s", "wkB/s", "wrqm/s", "%wrqm", "w_await", "wareq-sz",
	"d/s", "dkB/s", "drqm/s", "%drqm", "d_await", "dareq-sz",
	"f/s", "f_await",
	"aqu-sz", "%util",
};

static const char *const json_keys[IOX_NCOLS] = {
	"r/s", "rkB/s", "rrqm/s", "rrqm", "r_await", "rareq-sz",
	"w/s", "wkB/s", "wrqm/s", "wrqm", "w_await", "wareq-sz",
	"d/s", "dkB/s", "drqm/s", "drqm", "d_await", "dareq-sz",
	"f/s", "f_await",
	"aqu-sz", "util",
};

const char *
iostat_calc_col_title(int col)
{
	return col >= 0 && col < IOX_NCOLS ? titles[col] : NULL;
}

const char *
iostat_calc_col_json(int col)
{
	return col >= 0 && col < IOX_NCOLS ? json_keys[col] : NULL;
}

static void
put(struct iox_row *r, int col, double v)
{
	r->v[col] = v;
	r->have |= BIT(col);
}

static int
has(uint32_t fields, uint32_t need)
{
	return (fields & need) == need;
}

/* sysstat's S_VALUE: per second, from the interval in 1/100 s. */
static double
per_s(uint64_t delta, double itv_cs)
{
	return (double)delta / itv_cs * 100;
}

/* Δa/Δb, or 0 when Δb is 0 (iostat's convention for await and areq-sz). */
static double
ratio(uint64_t a, uint64_t b)
{
	return b ? (double)a / (double)b : 0.0;
}

/*
 * One direction (read, write or discard): its six columns start at col0
 * in the order /s, kB/s, rqm/s, %rqm, await, areq-sz; its fields start at
 * f0 in the order ios, merges, sectors, ms.
 */
static void
direction(const uint64_t *d, uint32_t fields, double itv, int f0, int col0,
    struct iox_row *r)
{
	uint64_t ios = d[f0], merges = d[f0 + 1], sectors = d[f0 + 2];
	uint64_t ms = d[f0 + 3];
	int rates = itv > 0;

	if (rates && has(fields, BIT(f0)))
		put(r, col0, per_s(ios, itv));
	if (rates && has(fields, BIT(f0 + 2)))
		put(r, col0 + 1, per_s(sectors, itv) / 2);
	if (rates && has(fields, BIT(f0 + 1)))
		put(r, col0 + 2, per_s(merges, itv));
	if (has(fields, BIT(f0) | BIT(f0 + 1)))
		put(r, col0 + 3, merges + ios ?
		    (double)merges / (double)(merges + ios) * 100 : 0.0);
	if (has(fields, BIT(f0) | BIT(f0 + 3)))
		put(r, col0 + 4, ratio(ms, ios));
	if (has(fields, BIT(f0) | BIT(f0 + 2)))
		put(r, col0 + 5, ratio(sectors, ios) / 2);
}

void
iostat_calc_compute(const uint64_t delta[DS_FIELDS], uint32_t fields,
    uint64_t interval_ns, struct iox_row *out)
{
	/* exact when the interval is whole centiseconds (and < 2^53 ns) */
	double itv = (double)interval_ns / 1e7;
	int rates = interval_ns > 0;

	out->have = 0;
	for (int c = 0; c < IOX_NCOLS; c++)
		out->v[c] = 0;
	direction(delta, fields, itv, DS_RD_IOS, IOX_R_S, out);
	direction(delta, fields, itv, DS_WR_IOS, IOX_W_S, out);
	direction(delta, fields, itv, DS_DC_IOS, IOX_D_S, out);
	if (rates && has(fields, BIT(DS_FL_IOS)))
		put(out, IOX_F_S, per_s(delta[DS_FL_IOS], itv));
	if (has(fields, BIT(DS_FL_IOS) | BIT(DS_FL_MS)))
		put(out, IOX_F_AWAIT, ratio(delta[DS_FL_MS], delta[DS_FL_IOS]));
	if (rates && has(fields, BIT(DS_WEIGHTED_MS)))
		put(out, IOX_AQU_SZ, per_s(delta[DS_WEIGHTED_MS], itv) / 1000.0);
	if (rates && has(fields, BIT(DS_IO_MS)))
		put(out, IOX_UTIL, per_s(delta[DS_IO_MS], itv) / 10.0);
}
