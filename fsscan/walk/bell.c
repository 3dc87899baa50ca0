/*
 * bell: a futex word. Not FUTEX_PRIVATE_FLAG: the word may live in memory
 * that the MPI ranks of one node share (mpi/mpi_node.c), and a private futex
 * is keyed by one process's address space.
 */
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "walk.h"

void
bell_ring(_Atomic uint32_t *b)
{
	atomic_fetch_add(b, 1);
	syscall(SYS_futex, b, FUTEX_WAKE, 1, NULL, NULL, 0);
}

void
bell_wait(_Atomic uint32_t *b, uint32_t *seen, long us)
{
	/* FUTEX_WAIT's timeout is relative, on the monotonic clock: no
	 * clock setting stretches it. EINTR and EAGAIN (rung in between)
	 * end the wait as a ring does; the caller looks again either way. */
	struct timespec ts = { us / 1000000, (us % 1000000) * 1000 };
	uint32_t v = atomic_load(b);

	if (v == *seen)
		syscall(SYS_futex, b, FUTEX_WAIT, v, &ts, NULL, 0);
	*seen = atomic_load(b);
}
