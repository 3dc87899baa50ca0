/*
 * test_tune: the pool's decisions on how many threads walk
 * (fsscan/walk/tune.c), on synthetic windows. Every expected count is
 * worked out by hand from the rules in tune.c: blocked (busy time off the
 * CPUs at least half of it) with the CPUs under 85% full probes more
 * threads (twice the count whose CPU time, growing with the count, would
 * fill the CPUs: from 2 to 8 times the threads; 2 when queued more than
 * asleep), kept only on 15% more entries per second; not blocked, or the
 * CPUs full with more of the time off them queued for one than asleep
 * and less than 8% of the busy time asleep, probes half, kept unless the
 * rate fell by more than 3%; nothing is
 * probed while threads waited for work a quarter of the window, the rate
 * is at 80% of --max-rate, or the threads are blocked with the CPUs full;
 * a probe not kept is undone and followed by 1, 2, 4 ... windows of
 * hold.
 */
#include <stdio.h>

#include "tap.h"
#include "walk/tune_int.h"

#define MS	1000000ull
#define WIN	(200 * MS)

/* A window of 200 ms in which threads threads were busy, the CPUs did
 * cpu_ms of work and entries were stat'ed. */
static struct tune_sample
win(int threads, uint64_t cpu_ms, uint64_t entries)
{
	return (struct tune_sample){ .ns = WIN, .entries = entries,
	    .busy_ns = (uint64_t)threads * WIN, .cpu_ns = cpu_ms * MS };
}

/* A warm window: the busy time off the CPUs is all in the run queue. */
static struct tune_sample
warm(int threads, uint64_t cpu_ms, uint64_t entries)
{
	struct tune_sample s = win(threads, cpu_ms, entries);

	s.runq_ns = s.busy_ns - s.cpu_ns;
	return s;
}

static int
step(struct tune *t, struct tune_sample s)
{
	return tune_step(t, &s);
}

static void
test_climb(void)
{
	struct tune t;
	struct tune_sample s;

	tune_init(&t, 2, 64, 2.0, 0);
	ok(tune_adaptive(&t), "2 to 64 threads: adaptive");
	/* 2 threads busy 400 ms, 100 ms of CPU: 75% blocked; half a CPU
	 * used, so 8 threads would use 2: probe twice that. */
	s = win(2, 100, 10000);
	ok(tune_blocked(&t, &s), "blocked: 300 of 400 ms off the CPUs");
	is_i64(tune_step(&t, &s), 16, "blocked at 2, half a CPU: probe 16");
	/* 50,000/s before; 60,000/s is 20% more: kept. 1.6 CPUs used (80%
	 * of 2): 2 x 2 / 1.6 = 2.5 times the threads. */
	is_i64(step(&t, win(16, 320, 12000)), 40,
	    "16 paid 20%%, still blocked: probe 40");
	/* 62,500/s against 60,000/s: 4% is no gain. */
	is_i64(step(&t, win(40, 330, 12500)), 16,
	    "40 paid 4%%: back to 16");
	is_i64(step(&t, win(16, 320, 12000)), 16,
	    "blocked, one window of hold");
	is_i64(step(&t, win(16, 320, 12000)), 40,
	    "hold over: probe 40 again");
	is_i64(step(&t, win(40, 320, 12000)), 16,
	    "40 paid nothing: back to 16");
	for (int i = 0; i < 2; i++)
		is_i64(step(&t, win(16, 320, 12000)),
		    16, "two windows of hold now");
	is_i64(step(&t, win(16, 320, 12000)), 40,
	    "then probe 40 once more");
}

/* How far a probe up goes. */
static void
test_reach(void)
{
	struct tune t;
	struct tune_sample s;

	/* 25 ms of CPU in 200 ms: an eighth of a CPU; 2 x 2 / 0.125 is 32
	 * times the threads, and a probe adds at most 8 times. */
	tune_init(&t, 2, 64, 2.0, 0);
	is_i64(step(&t, win(2, 25, 10000)), 16, "an eighth of a CPU: 8 times");
	/* 1.2 CPUs of 2 (60%): 2 x 2 / 1.2 = 3.33 times 3 threads, 10. */
	tune_init(&t, 3, 64, 2.0, 0);
	is_i64(step(&t, win(3, 240, 10000)), 10, "1.2 CPUs used: 3 to 10");
	/* 4 CPUs, 0.75 used: 2 x 4 / 0.75 = 10.7 times, at most 8. */
	tune_init(&t, 2, 64, 4.0, 0);
	is_i64(step(&t, win(2, 150, 10000)), 16, "0.75 of 4 CPUs: 8 times");
	/* Blocked, but queued for a CPU more than asleep: other work holds
	 * the CPUs, twice only. 400 ms busy, 50 on a CPU, 200 queued, 150
	 * asleep. */
	tune_init(&t, 2, 64, 2.0, 0);
	s = win(2, 50, 10000);
	s.runq_ns = 200 * MS;
	is_i64(tune_step(&t, &s), 4, "queued more than asleep: twice");
	s.runq_ns = 170 * MS;
	tune_init(&t, 2, 64, 2.0, 0);
	is_i64(tune_step(&t, &s), 16, "asleep more than queued: 8 times");
	/* A CPU share of a rank (--cpus 0.5): 0.25 used is half of it,
	 * 2 x 0.5 / 0.25 = 4 times. */
	tune_init(&t, 2, 64, 0.5, 0);
	is_i64(step(&t, win(2, 50, 10000)), 8, "a quarter of half a CPU: 4 times");
}

static void
test_bounds(void)
{
	struct tune t;

	/* 64 MiB of state: 1 MiB a thread allows 64, 54 MiB only 1. */
	is_i64(tune_cap(2, 32, 1 << 20), 32, "1 MiB a thread: the most, 32");
	is_i64(tune_cap(2, 128, 1 << 20), 64, "1 MiB a thread: 64");
	is_i64(tune_cap(2, 32, 54u << 20), 2, "54 MiB a thread: the start");
	is_i64(tune_cap(2, 32, 0), 32, "nothing known: the most");

	tune_init(&t, 2, 3, 2.0, 0);
	is_i64(step(&t, win(2, 50, 10000)), 3,
	    "a probe stops at the most threads");
	is_i64(step(&t, win(3, 60, 20000)), 3,
	    "kept at the most: nothing more to probe");
	tune_init(&t, 4, 4, 2.0, 0);
	ok(!tune_adaptive(&t), "-j 4: fixed");
	is_i64(step(&t, win(4, 50, 10000)), 4,
	    "fixed: blocked changes nothing");
	is_i64(step(&t, win(4, 400, 10000)), 4,
	    "fixed: CPUs full change nothing");
	tune_init(&t, 4, 2, 2.0, 0);
	is_i64(t.hi, 4, "a most below the start is the start");
}

static void
test_warm(void)
{
	struct tune t;
	struct tune_sample s;

	tune_init(&t, 2, 32, 2.0, 0);
	/* At 2 threads, half a CPU: to 16. At 16, 50,000/s against 25,000/s
	 * is kept; 1.5 CPUs used, 2 x 2 / 1.5 times is 42, no more than
	 * 32. */
	is_i64(step(&t, win(2, 100, 5000)), 16, "cold: probe 16");
	is_i64(step(&t, win(16, 300, 10000)), 32,
	    "cold: 16 kept, probing 32");
	/* The cache is warm now: 380 ms of CPU in 200 ms on 2 CPUs, and
	 * the rest of the threads' time queued for them. */
	s = warm(32, 380, 20000);
	is_i64(tune_step(&t, &s), 32,
	    "32 paid 100%%: kept, though the CPUs are full now");
	is_i64(step(&t, warm(32, 380, 20000)), 16, "CPUs full, queued: probe 16");
	/* 99,000/s against 100,000/s: 1% lost, within 3%: kept. */
	is_i64(step(&t, warm(16, 380, 19800)), 8,
	    "16 kept, CPUs full: probe 8");
	is_i64(step(&t, warm(8, 380, 19700)), 4,
	    "8 kept: probe 4");
	is_i64(step(&t, warm(4, 380, 19600)), 2,
	    "4 kept: probe 2");
	is_i64(step(&t, warm(2, 380, 19500)), 2,
	    "back at the start, and no lower");
	is_i64(step(&t, warm(2, 380, 19500)), 2,
	    "warm at the start: stays");
	/* 95,000/s against 100,000/s: 5% lost is too much. */
	tune_init(&t, 2, 32, 2.0, 0);
	t.cur = t.base = 16;
	is_i64(step(&t, warm(16, 380, 20000)), 8, "warm at 16: probe 8");
	is_i64(step(&t, warm(8, 380, 19000)), 16, "8 lost 5%%: back to 16");
	/* A drop back that costs 20% is undone. */
	tune_init(&t, 2, 32, 2.0, 0);
	step(&t, win(2, 100, 5000));
	is_i64(step(&t, warm(16, 380, 20000)), 16, "16 kept");
	is_i64(step(&t, warm(16, 380, 20000)), 8, "CPUs full: probe 8");
	is_i64(step(&t, warm(8, 380, 16000)), 16,
	    "8 lost 20%%: back to 16");
}

static void
test_stay(void)
{
	struct tune t;
	struct tune_sample s;

	tune_init(&t, 2, 32, 2.0, 0);
	/* Blocked, but the threads waited 120 ms for work: a quarter of
	 * 2 x 200 ms is 100 ms. */
	s = win(2, 50, 10000);
	s.wait_ns = 120 * MS;
	is_i64(tune_step(&t, &s), 2, "lacking work: no probe");
	s.wait_ns = 90 * MS;
	is_i64(tune_step(&t, &s), 16, "waiting 90 ms: blocked, probe");
	/* --max-rate 60,000/s: 50,000/s is 83% of it. */
	tune_init(&t, 2, 32, 2.0, 60000);
	is_i64(step(&t, win(2, 50, 10000)), 2,
	    "near --max-rate: no probe");
	is_i64(step(&t, win(2, 50, 9000)), 16,
	    "at 75%% of --max-rate: probe");
	/* Half the busy time on the CPUs is not blocked. */
	tune_init(&t, 2, 32, 4.0, 0);
	s = win(2, 210, 10000);
	ok(!tune_blocked(&t, &s), "210 of 400 ms on CPUs: not blocked");
	s = win(2, 190, 10000);
	ok(tune_blocked(&t, &s), "190 of 400 ms on CPUs: blocked");
	s = (struct tune_sample){ 0 };
	is_i64(tune_step(&t, &s), 2, "an empty window: nothing");
	/* Cold, and the CPUs full too: 4 x 200 ms busy, 350 ms of CPU on
	 * 2 CPUs (87%), 450 ms off them. */
	tune_init(&t, 2, 32, 2.0, 0);
	t.cur = t.base = 4;
	s = win(4, 350, 10000);
	ok(tune_blocked(&t, &s), "4 threads, 350 of 800 ms on CPUs: blocked");
	is_i64(tune_step(&t, &s), 4,
	    "blocked in the kernel, the CPUs full: no probe");
	/* Queued 300 of the 450 ms off them, but 150 ms of 800 (19%)
	 * asleep: still cold, and half the threads would leave the CPUs
	 * idle while they sleep. */
	s.runq_ns = 300 * MS;
	is_i64(tune_step(&t, &s), 4,
	    "CPUs full, queued, 19%% asleep: no probe");
	/* 70 ms asleep is 8.75%: the same. */
	s.runq_ns = 380 * MS;
	is_i64(tune_step(&t, &s), 4, "8.75%% asleep: no probe");
	/* 10 ms asleep (1.25%): warm, they wait for each other. */
	s.runq_ns = 440 * MS;
	is_i64(tune_step(&t, &s), 2,
	    "CPUs full, queued, 1.25%% asleep: probe 2");
	tune_init(&t, 2, 32, 2.0, 0);
	t.cur = t.base = 4;
	is_i64(step(&t, win(4, 320, 10000)), 10,
	    "blocked, CPUs 80%% full: 2 x 2 / 1.6 times, 10");
}

int
main(void)
{
	test_climb();
	test_reach();
	test_bounds();
	test_warm();
	test_stay();
	return tap_end();
}
