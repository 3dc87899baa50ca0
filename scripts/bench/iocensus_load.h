/*
 * iocensus_load: the load model behind the benchmark's generated logs
 * (scripts/bench/iocensus_gen.c). A study-like storage system, after the
 * Intrepid study: mostly low throughput, with jobs that move a lot of data
 * on many servers at once, a daily rhythm, quiet spells of hours, a
 * maintenance day without any I/O, a window of about four days lost on every
 * host, and a reboot (counter reset) on a few hosts.
 *
 * Everything is a function of the seed: the system-wide schedule (jobs,
 * background level per minute) is built once, and each host draws its
 * per-minute noise from its own random stream, so hosts can be generated
 * in any order and in parallel with the same result.
 */
#ifndef IOCENSUS_LOAD_H
#define IOCENSUS_LOAD_H

#include <stdint.h>

#include "diskstats.h"

#define LOAD_DAY_MIN 1440

struct load_job {
	int64_t start, end;	/* minutes [start, end) from the first sample */
	double level;		/* share of a device's peak on each host hit */
	double rd_share;	/* share of its bytes that are reads */
	int h0, nh;		/* hosts h0 .. h0 + nh - 1, modulo the host count */
	uint32_t req_sect;	/* request size, sectors */
};

struct load {
	int hosts;
	int64_t minutes;	/* days * 1440 */
	int64_t lost0, lost1;	/* minutes lost on every host; -1: none */
	int64_t maint0, maint1;	/* the maintenance window: no I/O at all */
	double *bg;		/* background level per minute */
	struct load_job *job;
	size_t njob;
	uint32_t *at_off, *at;	/* jobs of minute k: at[at_off[k] .. at_off[k + 1]) */
};

/* Random numbers: splitmix64, a stream per seed. */
uint64_t load_rnd(uint64_t *state);
double load_u01(uint64_t *state);

/* Build the schedule. start: unix seconds of the first sample (for the day
 * of the week); lost_day/maint_day: day index of the lost window (09:00 to
 * 10:00 four days later) and of the maintenance day (04:00 to 23:00), -1
 * for none. */
void load_build(struct load *l, int hosts, int days, int64_t start,
    uint64_t seed, int lost_day, int maint_day);
void load_free(struct load *l);

/* Is host h without a sample at minute k (lost window, reboot downtime)? */
int load_absent(const struct load *l, int h, int64_t k);
/* The minute of host h's first sample after its reboot, or -1. */
int64_t load_reboot_at(const struct load *l, int h);

/* A device's static share of its host's load (imbalance), from the seed. */
double load_dev_weight(uint64_t *rng);

/* The counter increments of one device of host h over minute k (weight w),
 * 17 fields in DS_* order, and in_flight at the end of the minute. Returns
 * the bytes read plus written. */
uint64_t load_device_minute(const struct load *l, int h, double w, int64_t k,
    uint64_t *rng, uint64_t inc[DS_KNOWN], uint64_t *in_flight);

#endif
