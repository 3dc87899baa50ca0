/*
 * tune_int: the pool's concurrency, decided from what the walk measured
 * in each window of time (tune.c says how). The decisions only: the pool
 * (pool.c) measures and starts or parks the threads.
 */
#ifndef FSSCAN_TUNE_INT_H
#define FSSCAN_TUNE_INT_H

#include <stdint.h>

#define TUNE_WINDOW_MS	200
/* The first window is short: a cold walk is told from a warm one at
 * once, and its first threads are added early. */
#define TUNE_FIRST_MS	50
/* Per-thread state (census, buffers) the pool grows to at most by
 * adding threads: beyond the threads it starts with, none is added that
 * would take the threads' state past it (tune_cap). */
#define TUNE_MEM_MAX	((uint64_t)64 << 20)

/* What one window measured. */
struct tune_sample {
	uint64_t ns;		/* its length */
	uint64_t entries;	/* entries stat'ed in it */
	uint64_t busy_ns;	/* the walking threads' time in directories */
	uint64_t wait_ns;	/* their time waiting for work */
	uint64_t cpu_ns;	/* their CPU time (else the process's) */
	uint64_t runq_ns;	/* their time runnable, waiting for a CPU
				   (0 when the kernel does not say) */
};

struct tune {
	int lo, hi;		/* bounds on the threads */
	int cur;		/* the threads that walk now */
	int base;		/* the count that has paid; cur != base:
				   probing */
	double cpus;		/* CPUs this process may use */
	uint64_t max_rate;	/* --max-rate, 0: none */
	double probe_rate;	/* entries/s at base, before the probe */
	int hold;		/* windows until the next probe */
	int backoff;		/* hold after the next probe that fails */
};

/* Start with lo threads, never more than hi. */
void tune_init(struct tune *t, int lo, int hi, double cpus, uint64_t max_rate);
/* Is there any choice (hi > lo)? */
int tune_adaptive(const struct tune *t);
/* Were the threads of s blocked on the file system, with CPUs to
 * spare? */
int tune_blocked(const struct tune *t, const struct tune_sample *s);
/* The threads for the next window, after window s. */
int tune_step(struct tune *t, const struct tune_sample *s);
/* The most threads (from lo to hi) whose state, per_thread bytes each,
 * stays within TUNE_MEM_MAX; lo even when it does not. */
int tune_cap(int lo, int hi, uint64_t per_thread);

#endif
