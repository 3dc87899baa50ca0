/*
 * mpi_comm: messages between ranks, and the one way to give up.
 *
 * Waiting never spins a core: Open MPI's blocking calls poll in a loop,
 * and a rank that waits while rank 0 writes the database, or while its
 * walker threads work, would take a core from them. These test, then
 * sleep a little, and test again. A rank on the same node rings the
 * receiver's bell after each message (mpi_node.c), which ends the sleep
 * as the message comes. Only the thread that initialised MPI calls these
 * (M6).
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "mpi.h"
#include "xalloc.h"

#define WAIT_MAX_US 2000

#ifndef NDEBUG
/* Is this the thread that initialised MPI, the only one that calls it? */
static int
funneled(void)
{
	int flag = 0;

	MPI_Is_thread_main(&flag);
	return flag;
}
#endif

/* Sleep for up to us microseconds, less when a rank on this node rings
 * (*seen: this rank's bell as last seen: only later rings end the nap). */
static void
nap(const struct mpi_job *j, uint32_t *seen, long us)
{
	bell_wait(j->bells[j->rank], seen, us);
}

void
mpi_comm_fail(const char *what, const char *why)
{
	fmt_diag(stderr, "fsscan-mpi", "%s: %s", what, why);
	MPI_Abort(MPI_COMM_WORLD, 3);
	exit(3);
}

void
mpi_comm_wait(const struct mpi_job *j, MPI_Request *req)
{
	uint32_t seen = atomic_load(j->bells[j->rank]);
	long us = 20;
	int done = 0;

	assert(funneled());	/* M6 */
	for (;;) {
		MPI_Test(req, &done, MPI_STATUS_IGNORE);
		if (done)
			return;
		nap(j, &seen, us);
		if (us < WAIT_MAX_US)
			us *= 2;
	}
}

void
mpi_comm_join(const struct mpi_job *j, MPI_Request *req)
{
	for (int i = 0; i < j->n; i++)
		if (i != j->rank)
			mpi_node_ring(j, i);
	mpi_comm_wait(j, req);
}

void
mpi_comm_send(const struct mpi_job *j, const void *buf, int n,
    MPI_Datatype type, int dst, int tag)
{
	assert(funneled());	/* M6 */
	MPI_Send(buf, n, type, dst, tag, j->comm);
	mpi_node_ring(j, dst);
}

void
mpi_comm_isend(const struct mpi_job *j, const void *buf, int n,
    MPI_Datatype type, int dst, int tag, MPI_Request *req)
{
	assert(funneled());	/* M6 */
	MPI_Isend(buf, n, type, dst, tag, j->comm, req);
	mpi_node_ring(j, dst);
}

void
mpi_comm_recv(const struct mpi_job *j, void *buf, int n, int src, int tag)
{
	MPI_Request req;

	MPI_Irecv(buf, n, MPI_BYTE, src, tag, j->comm, &req);
	mpi_comm_wait(j, &req);
}

int
mpi_comm_probe(const struct mpi_job *j, int src, int tag, MPI_Status *st)
{
	int flag = 0;

	assert(funneled());	/* M6 */
	/* Open MPI's MPI_Iprobe matches the messages already taken in and
	 * only then makes progress, which takes in what has come since: a
	 * message whose ring woke us is found by the second probe. */
	for (int i = 0; i < 2 && !flag; i++)
		MPI_Iprobe(src, tag, j->comm, &flag, st);
	return flag;
}

void
mpi_comm_recv_buf(const struct mpi_job *j, struct iobuf *b, int src, int tag)
{
	MPI_Status st;
	uint32_t seen = atomic_load(j->bells[j->rank]);
	long us = 20;
	int n;

	while (!mpi_comm_probe(j, src, tag, &st)) {
		nap(j, &seen, us);
		if (us < WAIT_MAX_US)
			us *= 2;
	}
	MPI_Get_count(&st, MPI_BYTE, &n);
	b->len = 0;
	if (iobuf_reserve(b, (size_t)n + 1) < 0)
		mpi_comm_fail("receive", "out of memory");
	MPI_Recv(b->p, n, MPI_BYTE, st.MPI_SOURCE, tag, j->comm,
	    MPI_STATUS_IGNORE);
	b->len = (size_t)n;
}

void
mpi_comm_send_buf(const struct mpi_job *j, const struct iobuf *b, int dst,
    int tag)
{
	MPI_Request req;

	if (b->oom)
		mpi_comm_fail("send", "out of memory");
	if (b->len > (size_t)INT32_MAX)
		mpi_comm_fail("send", "message over 2 GiB");
	mpi_comm_isend(j, b->p, (int)b->len, MPI_BYTE, dst, tag, &req);
	mpi_comm_wait(j, &req);
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
