/*
 * mpi_comm: messages between ranks, and the one way to give up.
 *
 * Waiting never spins a core: Open MPI's blocking calls poll in a loop,
 * and a rank that waits while rank 0 writes the database, or while its
 * walker threads work, would take a core from them. These test, then
 * sleep a little, and test again.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mpi_int.h"
#include "xalloc.h"

#define WAIT_MAX_US 2000

void
mpi_comm_nap(long us)
{
	struct timespec ts = { us / 1000000, (us % 1000000) * 1000 };

	nanosleep(&ts, NULL);
}

void
mpi_comm_fail(const char *what, const char *why)
{
	fprintf(stderr, "fsscan-mpi: %s: %s\n", what, why);
	MPI_Abort(MPI_COMM_WORLD, 3);
	exit(3);
}

void
mpi_comm_wait(MPI_Request *req)
{
	long us = 20;
	int done = 0;

	for (;;) {
		MPI_Test(req, &done, MPI_STATUS_IGNORE);
		if (done)
			return;
		mpi_comm_nap(us);
		if (us < WAIT_MAX_US)
			us *= 2;
	}
}

void
mpi_comm_recv(void *buf, int n, int src, int tag, MPI_Comm comm)
{
	MPI_Request req;

	MPI_Irecv(buf, n, MPI_BYTE, src, tag, comm, &req);
	mpi_comm_wait(&req);
}

void
mpi_comm_recv_buf(struct iobuf *b, int src, int tag, MPI_Comm comm)
{
	MPI_Status st;
	long us = 20;
	int flag = 0, n;

	for (;;) {
		MPI_Iprobe(src, tag, comm, &flag, &st);
		if (flag)
			break;
		mpi_comm_nap(us);
		if (us < WAIT_MAX_US)
			us *= 2;
	}
	MPI_Get_count(&st, MPI_BYTE, &n);
	b->len = 0;
	if (iobuf_reserve(b, (size_t)n + 1) < 0)
		mpi_comm_fail("receive", "out of memory");
	MPI_Recv(b->p, n, MPI_BYTE, st.MPI_SOURCE, tag, comm,
	    MPI_STATUS_IGNORE);
	b->len = (size_t)n;
}

void
mpi_comm_send_buf(const struct iobuf *b, int dst, int tag, MPI_Comm comm)
{
	MPI_Request req;

	if (b->oom)
		mpi_comm_fail("send", "out of memory");
	if (b->len > (size_t)INT32_MAX)
		mpi_comm_fail("send", "message over 2 GiB");
	MPI_Isend(b->p, (int)b->len, MPI_BYTE, dst, tag, comm, &req);
	mpi_comm_wait(&req);
}

char *
mpi_comm_str(struct cursor *c, char **buf, size_t *cap, size_t *len)
{
	uint64_t n = cursor_varint(c);
	const uint8_t *p = cursor_bytes(c, n);

	if (!p)
		n = 0;
	if (n + 1 > *cap) {
		*cap = n + 1;
		*buf = xrealloc(*buf, *cap);
	}
	memcpy(*buf, p ? (const char *)p : "", n);
	(*buf)[n] = 0;
	if (len)
		*len = n;
	return *buf;
}
