/*
 * tune: how many of the pool's threads walk (tune_int.h).
 *
 * A warm walk is bound by the kernel's CPU time: as many threads as CPUs
 * is best, and more only switch between each other. A cold walk waits on
 * the disk: a thread blocked in a stat or a getdents holds no CPU, and
 * only more requests in flight hide the wait (the disk's queue and the
 * file system's inode-table readahead serve many at once). Which of the
 * two a walk is, and how many requests pay, depends on the cache, the
 * disk and the tree, and changes during the walk; so the pool measures.
 *
 * Every window (TUNE_WINDOW_MS) the walk reports what it did: the
 * entries it stat'ed, the time its threads spent visiting directories
 * (busy) and the process's CPU time. Busy time that is not CPU time is
 * time the threads were blocked. When they were blocked for most of it,
 * the CPUs had room, and they did not lack work, the pool tries twice
 * the threads for a window (a probe), and keeps them only when the
 * entries per second rose by TUNE_GAIN; a probe that did not pay is
 * undone and not tried again for a while, twice as long each time. When
 * the threads are no longer blocked (the cache is warm, or CPUs are
 * full) for TUNE_CALM windows, the pool halves its threads, down to what
 * it started with.
 */
#include "tune_int.h"

/* The share of busy time spent blocked that says "waiting on the disk". */
#define BLOCKED_SHARE	0.5
/* CPU time per window, as a share of the CPUs, that says "CPUs full". */
#define CPU_FULL	0.85
/* A window whose threads waited this share of it for work lacked work. */
#define STARVED_SHARE	0.25
/* --max-rate: at this share of the rate, more threads cannot help. */
#define RATE_NEAR	0.8
#define TUNE_GAIN	0.15
#define TUNE_LOSS	0.08
#define HOLD_MAX	32

void
tune_init(struct tune *t, int lo, int hi, double cpus, uint64_t max_rate)
{
	*t = (struct tune){ .lo = lo, .hi = hi > lo ? hi : lo, .cur = lo,
	    .base = lo, .cpus = cpus > 0 ? cpus : 1, .max_rate = max_rate,
	    .backoff = 1 };
}

int
tune_adaptive(const struct tune *t)
{
	return t->hi > t->lo;
}

static double
rate_of(const struct tune_sample *s)
{
	return s->ns ? (double)s->entries * 1e9 / (double)s->ns : 0;
}

/* Were the threads waiting on the file system, with room for more? */
int
tune_blocked(const struct tune *t, const struct tune_sample *s)
{
	double busy = (double)s->busy_ns, cpu = (double)s->cpu_ns;

	/* With the CPUs full, busy time off them is time in the run
	 * queue as much as on the disk: more threads cannot help. */
	if (busy <= 0 || cpu >= CPU_FULL * t->cpus * (double)s->ns)
		return 0;
	return busy - cpu >= BLOCKED_SHARE * busy;
}

/* What the window asks for: more threads (blocked, with room), fewer
 * (the CPUs are full, or the threads are not blocked), or neither (they
 * lacked work, or --max-rate holds them). */
enum { STAY, UP, DOWN };

static int
wants(const struct tune *t, const struct tune_sample *s)
{
	double ns = (double)s->ns;

	if (s->ns == 0 || s->busy_ns == 0)
		return STAY;
	if ((double)s->wait_ns >= STARVED_SHARE * t->cur * ns)
		return STAY;
	if (t->max_rate && rate_of(s) >= RATE_NEAR * (double)t->max_rate)
		return STAY;
	return tune_blocked(t, s) ? UP : DOWN;
}

/* Try to threads for one window, from the count that has paid. */
static void
probe(struct tune *t, const struct tune_sample *s, int to)
{
	t->probe_rate = rate_of(s);
	t->cur = to < t->lo ? t->lo : to > t->hi ? t->hi : to;
}

/* Was the probe worth keeping? More threads must raise the rate by
 * TUNE_GAIN; fewer may lower it by TUNE_LOSS at most. */
static int
paid(const struct tune *t, const struct tune_sample *s)
{
	double r = rate_of(s);

	if (t->cur > t->base)
		return r >= (1 + TUNE_GAIN) * t->probe_rate;
	return r >= (1 - TUNE_LOSS) * t->probe_rate;
}

int
tune_step(struct tune *t, const struct tune_sample *s)
{
	int w = wants(t, s);

	if (t->cur != t->base) {
		if (!paid(t, s)) {
			t->cur = t->base;
			t->hold = t->backoff;
			if (t->backoff < HOLD_MAX)
				t->backoff *= 2;
			return t->cur;
		}
		/* Kept; the next probe, if any, goes on the same way. */
		w = w == (t->cur > t->base ? UP : DOWN) ? w : STAY;
		t->base = t->cur;
		t->backoff = 1;
		t->hold = 0;
	} else if (t->hold > 0) {
		t->hold--;
		return t->cur;
	}
	if (w == UP && t->cur < t->hi)
		probe(t, s, t->cur * 2);
	else if (w == DOWN && t->cur > t->lo)
		probe(t, s, t->cur / 2);
	return t->cur;
}
