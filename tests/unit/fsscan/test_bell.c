/*
 * test_bell: fsscan/walk/bell.c's doorbell between processes, as the MPI ranks
 * of one node ring each other's (fsscan/mpi/mpi_node.c): the word lies in a
 * shared mapping and another process rings it. A private futex, keyed by
 * one address space, would never wake the waiter.
 *
 * The naps are 60 s and a ring must end them: 30 s is slack for the
 * slowest sanitizer run, and a lost ring still fails.
 */
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "walk/walk.h"
#include "tap.h"

#define NAP_US (60 * 1000000L)

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A child that rings b once after 20 ms, then once more when told. */
static pid_t
ringer(_Atomic uint32_t *b, _Atomic uint32_t *go)
{
	pid_t pid = fork();

	if (pid != 0)
		return pid;
	usleep(20000);
	bell_ring(b);
	while (atomic_load(go) == 0)
		usleep(1000);
	bell_ring(b);
	_exit(0);
}

int
main(void)
{
	_Atomic uint32_t *m = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	_Atomic uint32_t *b = m, *go = m + 16;
	uint32_t seen = 0;
	double t;
	pid_t pid;
	int st;

	if (m == MAP_FAILED) {
		ok(0, "a shared mapping for the bell");
		return tap_end();
	}
	atomic_init(b, 0);
	atomic_init(go, 0);

	t = now_s();
	bell_wait(b, &seen, 1000);
	ok(now_s() - t < 30, "a nap that no ring ends ends with its time");
	is_i64(seen, 0, "and has seen no ring");

	pid = ringer(b, go);
	t = now_s();
	while (seen == 0 && now_s() - t < 30)
		bell_wait(b, &seen, NAP_US);
	ok(now_s() - t < 30, "another process's ring ends the nap");
	is_i64(seen, 1, "the nap has seen one ring");

	/* Rung while nobody waits: the next wait does not sleep. */
	atomic_store(go, 1);
	while (atomic_load(b) == 1)
		usleep(1000);
	t = now_s();
	bell_wait(b, &seen, NAP_US);
	ok(now_s() - t < 30, "a ring before the nap is not lost");
	is_i64(seen, 2, "the nap has seen both rings");

	waitpid(pid, &st, 0);
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the ringer exited");
	munmap(m, 4096);
	return tap_end();
}
