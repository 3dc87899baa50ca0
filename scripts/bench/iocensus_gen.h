/*
 * iocensus_gen: options, per-thread counts and the closing summary of the
 * benchmark's log generator (iocensus_gen.c).
 */
#ifndef IOCENSUS_GEN_H
#define IOCENSUS_GEN_H

#include <stdint.h>

#include "iocensus_load.h"

/* A slow device (for the demo's device health): host h's device d takes
 * factor times as long per read (reads_only) or per request, in the
 * minutes [from, from + len) of every day from day `day` on (len 1440:
 * every minute of those days). */
struct gen_fault {
	int h, d, day, reads_only;
	int64_t from, len;
	double factor;
};

#define GEN_FAULTS 4

struct gen {
	const char *out, *raw;		/* log directory, raw capture directory */
	int hosts, devices, days, threads;
	int raw_hosts, raw_days;
	int lost_day, maint_day;	/* -1: none */
	int64_t start;			/* unix seconds of the first read */
	uint64_t seed;
	int stats;			/* print the model's aggregate */
	struct gen_fault fault[GEN_FAULTS];
	int nfault;
	struct load load;
};

/* What one thread wrote, and the bytes of every interval it knows. */
struct gen_count {
	const struct gen *g;
	int thread;
	uint64_t files, samples;	/* device-samples in S frames */
	uint64_t *bytes;		/* per minute: rd + wr of known intervals */
	uint32_t *hosts;		/* per minute: hosts that know it */
};

/* Parse the command line into g (defaults: the study's size). 0 or -1. */
int gen_options(struct gen *g, int argc, char **argv);

/* Slow minute k's increments of host h's device d by the faults. */
void gen_fault_apply(const struct gen *g, int h, int d, int64_t k,
    uint64_t inc[DS_KNOWN]);

void gen_count_init(struct gen_count *c, const struct gen *g, int thread);
void gen_count_free(struct gen_count *c);

static inline void
gen_count_interval(struct gen_count *c, int64_t k, uint64_t bytes)
{
	c->bytes[k] += bytes;
	c->hosts[k]++;
}

/* Print files, device-samples and log bytes; with --stats, the aggregate
 * over the minutes every host knows: mean, peak, time below x% of peak,
 * idle time in runs of an hour or more. */
void gen_report(const struct gen *g, const struct gen_count *c);

#endif
