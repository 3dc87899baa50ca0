/*
 * iostat_calc: the columns of `iostat -x`, computed from one interval's
 * counter deltas with sysstat's own formulas (iostat.c write_ext_stat(),
 * rd_stats.c compute_ext_disk_stats(); docs/iolog-format.md field order).
 * Pure arithmetic: nothing here formats or prints.
 *
 * Rates are sysstat's S_VALUE: the delta divided by the interval in
 * hundredths of a second, times 100 (iostat's interval comes from
 * /proc/uptime in 1/100 s; ours from CLOCK_MONOTONIC in ns, so it is
 * ns / 10^7 hundredths, a whole number for whole centiseconds). Dividing
 * by seconds instead rounds differently: on exact half-cents (0.125 r/s
 * over 8 s) the printed last digit would differ from iostat's. Every
 * column runs the same double operations in the same order as iostat, so
 * for the same interval the doubles, and the printed digits, are iostat's. A column whose inputs
 * the kernel does not provide (not in the device's fields mask) is absent,
 * never 0.
 */
#ifndef IOSTATMON_IOSTAT_CALC_H
#define IOSTATMON_IOSTAT_CALC_H

#include <stdint.h>

#include "diskstats.h"

/* In the order `iostat -dx` prints them (sysstat 12.x). */
enum iox_col {
	IOX_R_S, IOX_RKB_S, IOX_RRQM_S, IOX_RRQM_PC, IOX_R_AWAIT, IOX_RAREQ_SZ,
	IOX_W_S, IOX_WKB_S, IOX_WRQM_S, IOX_WRQM_PC, IOX_W_AWAIT, IOX_WAREQ_SZ,
	IOX_D_S, IOX_DKB_S, IOX_DRQM_S, IOX_DRQM_PC, IOX_D_AWAIT, IOX_DAREQ_SZ,
	IOX_F_S, IOX_F_AWAIT,
	IOX_AQU_SZ, IOX_UTIL,
	IOX_NCOLS
};

struct iox_row {
	uint32_t have;		/* bit c: column c computed */
	double v[IOX_NCOLS];
};

/* delta[f]: the interval's delta of field f (for in_flight, its value);
 * fields: mask of fields the kernel provides; interval_ns: its length.
 * With interval_ns 0 only the ratio columns are computed. */
void iostat_calc_compute(const uint64_t delta[DS_FIELDS], uint32_t fields,
    uint64_t interval_ns, struct iox_row *out);

/* Column headers as iostat's table prints them ("%rrqm") and as its JSON
 * names them ("rrqm"). */
const char *iostat_calc_col_title(int col);
const char *iostat_calc_col_json(int col);

#endif
