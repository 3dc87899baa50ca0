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
 * Every window (TUNE_WINDOW_MS; the first is TUNE_FIRST_MS) the walk
 * reports what it did: the entries it stat'ed, the time its threads spent
 * visiting directories (busy), the time they waited for work, and, as
 * the kernel counts them per thread (/proc/self/task/TID/schedstat), their
 * time on a CPU and their time runnable in its queue. Busy time off the
 * CPUs is time asleep in the kernel or queued for a CPU. Then the pool
 * probes, for one window:
 *   - more threads when they were off the CPUs for most of their busy
 *     time and the CPUs were not full: kept only if the entries per
 *     second rose by TUNE_GAIN. The probe goes to twice the threads that
 *     would fill the CPUs if the threads' CPU time grew with their count
 *     (up_to), from 2 to UP_MOST times as many;
 *   - half when they were on the CPUs most of the time, or the CPUs were
 *     full, the threads queued for one more than they slept in the
 *     kernel, and they hardly slept (the cache is warm: they wait for
 *     each other, not the disk): kept unless the rate fell by more than
 *     TUNE_LOSS.
 * A probe not kept is undone, and none is tried for 1, 2, 4 ... windows
 * after it. Nothing is probed while the threads lack work, or the rate is
 * near --max-rate (the throttle's sleeps would look like waiting on the
 * disk), nor below the threads the walk started with, nor above its most
 * (tune_cap bounds that by the memory the threads hold).
 *
 * Why twice the threads that would fill the CPUs: threads that sleep at
 * random times leave a CPU idle whenever fewer of them than CPUs are
 * awake. With 2 CPUs and threads each on a CPU a quarter of the time, 8
 * threads fill them on average but keep them busy 77% of the time, 16
 * threads 96% (the threads awake are a binomial count). A cold walk is
 * over in a few windows of doubling otherwise: on the aged benchmark tree
 * the pool took 450 ms of a 1.2 s walk to reach the 16 threads it wants,
 * and one probe now reaches them from the first window.
 *
 * Why a cold walk whose threads fill the CPUs keeps them: it still
 * sleeps (8 to 13% of its busy time on the aged benchmark tree), and
 * half the threads leave the CPUs idle while they sleep (a probe from 7
 * threads to 3 lost 30% of the rate); a warm walk sleeps within a few
 * percent of never. Once the cache turns warm, the threads stop sleeping
 * and the pool drops back; between the two, the rate decides.
 *
 * A cold walk on a busy machine is off the CPUs mostly in their queue:
 * more threads get it more of the CPUs, and more requests in flight,
 * which the rate shows, so off the CPUs is enough to try more; but only
 * twice as many, since its CPU time says nothing of what more would
 * take. One window's rate varies by 10 to 20% with the directories
 * walked in it; windows of 200 ms and a gain of 15% keep most wrong
 * additions out, and the hold after a failed probe makes the others
 * cheap. A warm walk's rate varies by a few percent only, so 3% tells a
 * needless thread. Without schedstat no time counts as queued: then a
 * walk whose CPUs are full keeps its threads.
 */
#include "tune_int.h"

/* The share of busy time off the CPUs that says "blocked". */
#define BLOCKED_SHARE	0.5
/* CPU time per window, as a share of the CPUs, that says "CPUs full". */
#define CPU_FULL	0.85
/* A window whose threads waited this share of it for work lacked work. */
#define STARVED_SHARE	0.25
/* --max-rate: at this share of the rate, more threads cannot help. */
#define RATE_NEAR	0.8
#define TUNE_GAIN	0.15
#define TUNE_LOSS	0.03
#define HOLD_MAX	32
/* A probe up adds at most this many times the threads. */
#define UP_MOST		8
/* Asleep this share of the busy time: the cache is not warm yet. */
#define ASLEEP_SHARE	0.08

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
	double busy = (double)s->busy_ns;

	(void)t;
	return busy > 0 && busy - (double)s->cpu_ns >= BLOCKED_SHARE * busy;
}

static int
cpus_full(const struct tune *t, const struct tune_sample *s)
{
	return (double)s->cpu_ns >= CPU_FULL * t->cpus * (double)s->ns;
}

/* The threads' busy time asleep in the kernel: neither on a CPU nor
 * queued for one. */
static double
sleep_ns(const struct tune_sample *s)
{
	return (double)s->busy_ns - (double)s->cpu_ns - (double)s->runq_ns;
}

/* Of the time off the CPUs, was more spent queued for one than asleep
 * in the kernel? Then the threads wait for each other, not the disk. */
static int
queued(const struct tune_sample *s)
{
	return (double)s->runq_ns >= sleep_ns(s);
}

/* Did the threads sleep for ASLEEP_SHARE of their busy time? */
static int
asleep(const struct tune_sample *s)
{
	return sleep_ns(s) >= ASLEEP_SHARE * (double)s->busy_ns;
}

/* What the window asks for: more threads (off the CPUs most of the time,
 * and the CPUs not full), fewer (on the CPUs most of the time, or the
 * CPUs full and the threads queued for them, hardly asleep), or neither
 * (they lacked work, --max-rate holds them, or they were blocked with the
 * CPUs full). */
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
	if (!tune_blocked(t, s))
		return DOWN;
	if (!cpus_full(t, s))
		return UP;
	return queued(s) && !asleep(s) ? DOWN : STAY;
}

/* How far a probe up goes: twice the threads that would fill the CPUs
 * if their CPU time grew with their count, from 2 to UP_MOST times the
 * threads; twice only when they queued for a CPU more than they slept
 * (other work holds the CPUs). */
static int
up_to(const struct tune *t, const struct tune_sample *s)
{
	double used = (double)s->cpu_ns / (double)s->ns, f = 2;

	if (!queued(s) && used > 0) {
		f = 2 * t->cpus / used;
		f = f < 2 ? 2 : f > UP_MOST ? UP_MOST : f;
	}
	return (int)(t->cur * f);
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
		probe(t, s, up_to(t, s));
	else if (w == DOWN && t->cur > t->lo)
		probe(t, s, t->cur / 2);
	return t->cur;
}

int
tune_cap(int lo, int hi, uint64_t per_thread)
{
	uint64_t n = per_thread ? TUNE_MEM_MAX / per_thread : (uint64_t)hi;

	if (n > (uint64_t)hi)
		n = (uint64_t)hi;
	return n > (uint64_t)lo ? (int)n : lo;
}
