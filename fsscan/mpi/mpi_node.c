/*
 * mpi_node: the ranks that share this node, and a doorbell (walk/walk.h) for
 * each in memory they share, an MPI shared-memory window.
 *
 * A rank's driver naps between polls of MPI (mpi_steal.c), and a message
 * waits for its next poll: 1.7 ms for a steal request, as measured, and up
 * to 8 ms while the victim naps between bursts of steals, and meanwhile the
 * thief's threads wait. A rank on the same node rings the receiver's bell
 * after each message it sends it, which ends the nap at once. Messages
 * from other nodes still wait for the next poll.
 *
 * Without the window (an MPI that cannot make one) every rank polls, as
 * before: the bells are an optimisation, never needed for correctness.
 */
#include <stdlib.h>

#include "mpi.h"
#include "xalloc.h"

/* One cache line per rank: a ring does not disturb the neighbours'. */
#define BELL_BYTES 64

/* The window on the node's ranks and every rank's bell in it. */
static void
bells_map(struct mpi_job *j, MPI_Comm node)
{
	MPI_Group world, local;
	MPI_Aint size;
	int unit, here;
	void *p;

	MPI_Comm_group(j->comm, &world);
	MPI_Comm_group(node, &local);
	for (int r = 0; r < j->n; r++) {
		MPI_Group_translate_ranks(world, 1, &r, local, &here);
		if (here == MPI_UNDEFINED)
			continue;
		MPI_Win_shared_query(j->bell_win, here, &size, &unit, &p);
		j->bells[r] = p;
	}
	MPI_Group_free(&world);
	MPI_Group_free(&local);
}

int
mpi_node_open(struct mpi_job *j)
{
	MPI_Comm node;
	void *base = NULL;
	int size, ok, all;

	MPI_Comm_split_type(j->comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL,
	    &node);
	MPI_Comm_size(node, &size);
	j->bells = xcalloc((size_t)j->n, sizeof *j->bells);
	j->bell_win = MPI_WIN_NULL;
	MPI_Comm_set_errhandler(node, MPI_ERRORS_RETURN);
	ok = MPI_Win_allocate_shared(BELL_BYTES, 1, MPI_INFO_NULL, node,
	    &base, &j->bell_win) == MPI_SUCCESS;
	MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, node);
	if (all) {
		atomic_init((_Atomic uint32_t *)base, 0);
		bells_map(j, node);
		/* No rank rings a bell before its owner has set it. */
		MPI_Barrier(node);
	} else if (ok) {
		MPI_Win_free(&j->bell_win);
	}
	/* This rank's own naps wait on a bell even without the window: its
	 * walker threads ring it. */
	if (!j->bells[j->rank])
		j->bells[j->rank] = &j->bell_own;
	j->local = all && size == j->n;
	MPI_Comm_free(&node);
	return size;
}

void
mpi_node_ring(const struct mpi_job *j, int rank)
{
	if (j->bells[rank])
		bell_ring(j->bells[rank]);
}

void
mpi_node_close(struct mpi_job *j)
{
	if (j->bell_win != MPI_WIN_NULL)
		MPI_Win_free(&j->bell_win);
	free(j->bells);
	j->bells = NULL;
}
