/*
 * mpi_xchg: every rank sends records to every rank, in rounds of at most
 * XCHG_LIMIT bytes packed per rank, until no rank has any left. Memory is
 * bounded by the round, not by the records (hard links and subtree
 * contributions can be many).
 */
#include <stdlib.h>

#include "mpi.h"
#include "xalloc.h"

#define XCHG_LIMIT (256u << 10)

void
mpi_xchg(const struct mpi_job *j, const struct xchg_ops *ops)
{
	int n = j->n, more, any;
	struct iobuf *out = xcalloc((size_t)n, sizeof *out), send = { 0 },
	    recv = { 0 };
	int *sc = xcalloc((size_t)n, sizeof *sc), *rc = xcalloc((size_t)n,
	    sizeof *rc), *sd = xcalloc((size_t)n, sizeof *sd),
	    *rd = xcalloc((size_t)n, sizeof *rd);

	do {
		size_t stot = 0, rtot = 0;

		for (int i = 0; i < n; i++)
			out[i].len = 0;
		more = ops->pack(ops->arg, out, XCHG_LIMIT);
		send.len = 0;
		for (int i = 0; i < n; i++) {
			if (out[i].oom)
				mpi_comm_fail("exchange", "out of memory");
			sd[i] = (int)stot;
			sc[i] = (int)out[i].len;
			iobuf_add(&send, out[i].p, out[i].len);
			stot += out[i].len;
		}
		MPI_Alltoall(sc, 1, MPI_INT, rc, 1, MPI_INT, j->comm);
		for (int i = 0; i < n; i++) {
			rd[i] = (int)rtot;
			rtot += (size_t)rc[i];
		}
		if (rtot > (size_t)INT32_MAX)
			mpi_comm_fail("exchange", "round over 2 GiB");
		recv.len = 0;
		if (iobuf_reserve(&recv, rtot + 1) < 0 || send.oom)
			mpi_comm_fail("exchange", "out of memory");
		MPI_Alltoallv(send.p, sc, sd, MPI_BYTE, recv.p, rc, rd, MPI_BYTE,
		    j->comm);
		for (int i = 0; i < n; i++) {
			struct cursor c = { recv.p + rd[i], recv.p + rd[i] + rc[i],
			    NULL };
			while (c.p < c.end && !c.err)
				ops->unpack(ops->arg, i, &c);
			if (c.err)
				mpi_comm_fail("exchange", c.err);
		}
		MPI_Allreduce(&more, &any, 1, MPI_INT, MPI_LOR, j->comm);
	} while (any);
	for (int i = 0; i < n; i++)
		iobuf_free(&out[i]);
	iobuf_free(&send);
	iobuf_free(&recv);
	free(out);
	free(sc);
	free(rc);
	free(sd);
	free(rd);
}
