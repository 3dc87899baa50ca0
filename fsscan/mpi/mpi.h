/*
 * mpi: the pieces of fsscan-mpi, the walk of one tree by many MPI ranks
 * (docs/fsscan-mpi.1), the one header of fsscan/mpi/, which no other room
 * uses. Not Open MPI's <mpi.h>, which it includes: the room's files name
 * this one "mpi.h", found beside them, and that one <mpi.h>, found on the
 * include path, where this folder never is.
 *
 *   mpi_main.c    the program: options, database on rank 0, the steps
 *   mpi_steal.c   the driver thread of each rank: stealing directories
 *                 between ranks, termination, progress
 *   mpi_item.c    directories on the wire: each with its chain of
 *                 ancestors, which the receiver rebuilds as stand-ins
 *   mpi_xchg.c    all-to-all exchange of records in bounded rounds
 *   mpi_links.c   hard links: each inode resolved by an owner rank
 *   mpi_dirs.c    subtree totals across ranks
 *   mpi_rows.c    every rank's v_dir rows streamed to rank 0
 *   mpi_census.c  the census reduced to rank 0
 *   mpi_comm.c    messages between ranks without spinning a core
 *   mpi_node.c    the ranks sharing this node: their doorbells
 *
 * The room keeps invariants M1 to M6 of docs/ARCHITECTURE.md, which
 * states them: a directory is visited by one rank (M1); its v_dir node is
 * made by that rank, and the others' stand-ins for it add into it and its
 * ancestors once (M2); the walk ends only when no rank has work and none
 * is in flight (M3); only rank 0 opens the database and the CSV (M4); a
 * hard-linked inode has one owner rank (M5); every MPI call of a rank is
 * made by its main thread, never by a walker thread (M6).
 */
#ifndef FSSCAN_MPI_H
#define FSSCAN_MPI_H

#include <mpi.h>
#include <stdint.h>

#include "i128.h"
#include "iobuf.h"
#include "record/record.h"
#include "walk/walk.h"

enum mpi_tag {
	TAG_REQ = 1,		/* steal request: empty */
	TAG_WORK,		/* directories: mpi_item */
	TAG_NOWORK,		/* nothing to give: empty */
	TAG_TOKEN,		/* termination token: its color */
	TAG_DONE,		/* rank 0: the walk is over */
	TAG_PROG,		/* entries, errors, bytes so far, to rank 0;
				   entries ~0: the last */
	TAG_XCHG,		/* mpi_xchg rounds */
	TAG_ROWS_REQ,		/* rank 0: send (1) more rows, or stop (0) */
	TAG_ROWS,		/* a batch of v_dir rows */
	TAG_MERGE,		/* census keyed parts, up the reduction tree */
};

struct mpi_job {
	MPI_Comm comm;
	int rank, n;
	uint64_t root_dev;	/* st_dev of ROOT here */
	uint64_t canon_dev;	/* ... and on rank 0: the wire's name for it */
	int progress;		/* rank 0 prints the job's progress */
	struct rank_stat st;	/* this rank's share */
	unsigned seed;
	MPI_Win bell_win;	/* mpi_node: the node's doorbells */
	/* Each rank's bell, NULL off this node or without the window; this
	 * rank's always, bell_own without the window. */
	_Atomic uint32_t **bells;
	_Atomic uint32_t bell_own;
	int local;		/* every rank on this node, with a bell */
};

/* Device numbers differ between nodes (NFS, Lustre clients number their
 * mounts in mount order): ROOT's travels as rank 0's number. */
static inline uint64_t
mpi_dev_out(const struct mpi_job *j, uint64_t dev)
{
	return dev == j->root_dev ? j->canon_dev : dev;
}

static inline uint64_t
mpi_dev_in(const struct mpi_job *j, uint64_t dev)
{
	return dev == j->canon_dev ? j->root_dev : dev;
}

/* The rank that holds node t: its own, or the one a stand-in is for. */
static inline int
mpi_rank_of(const struct mpi_job *j, const struct dirtot *t)
{
	return t->rank < 0 ? j->rank : t->rank;
}

static inline uint64_t
zigzag(int64_t v)
{
	return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static inline int64_t
unzigzag(uint64_t v)
{
	return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

static inline u128
zigzag128(i128 v)
{
	return ((u128)v << 1) ^ (u128)(v >> 127);
}

static inline i128
unzigzag128(u128 v)
{
	return (i128)(v >> 1) ^ -(i128)(v & 1);
}

/* A 128-bit total on the wire: two varints, the low half first (one
 * byte for the high half of any total below 2^64). */
static inline void
mpi_put_u128(struct iobuf *b, u128 v)
{
	iobuf_varint(b, (uint64_t)v);
	iobuf_varint(b, (uint64_t)(v >> 64));
}

static inline u128
mpi_get_u128(struct cursor *c)
{
	u128 lo = cursor_varint(c);

	return (u128)cursor_varint(c) << 64 | lo;
}

/* mpi_comm.c */
/* A string from the wire, copied NUL-terminated into a buffer of cap bytes
 * (names are at most 255 bytes, paths much longer: cap grows). */
char *mpi_comm_str(struct cursor *c, char **buf, size_t *cap, size_t *len);
void mpi_comm_wait(const struct mpi_job *j, MPI_Request *req);
/* A collective this rank has begun: ring the node's other ranks, which may
 * nap in their part of it, and wait for it. */
void mpi_comm_join(const struct mpi_job *j, MPI_Request *req);
/* Send to dst, then ring its bell: every message of the walk and after
 * goes through these two. */
void mpi_comm_send(const struct mpi_job *j, const void *buf, int n,
    MPI_Datatype type, int dst, int tag);
void mpi_comm_isend(const struct mpi_job *j, const void *buf, int n,
    MPI_Datatype type, int dst, int tag, MPI_Request *req);
void mpi_comm_recv(const struct mpi_job *j, void *buf, int n, int src,
    int tag);
/* Is a message from src (or MPI_ANY_SOURCE) with tag (or MPI_ANY_TAG)
 * there; its envelope into *st. */
int mpi_comm_probe(const struct mpi_job *j, int src, int tag,
    MPI_Status *st);
/* Receive a message of any length from src with tag into b (replaced). */
void mpi_comm_recv_buf(const struct mpi_job *j, struct iobuf *b, int src,
    int tag);
void mpi_comm_send_buf(const struct mpi_job *j, const struct iobuf *b,
    int dst, int tag);
void mpi_comm_fail(const char *what, const char *why);

/* mpi_node.c: find the ranks on this node and set up their bells
 * (returns how many share the node, this rank included); ring rank's
 * bell, if it has one, after a message to it; free them (collective). */
int mpi_node_open(struct mpi_job *j);
void mpi_node_ring(const struct mpi_job *j, int rank);
void mpi_node_close(struct mpi_job *j);

/* mpi_item.c */
void mpi_item_pack(const struct mpi_job *j, struct walker *g,
    struct dnode **items, size_t n, struct iobuf *out);
size_t mpi_item_unpack(const struct mpi_job *j, struct walker *g,
    const uint8_t *p, size_t len);

/* mpi_steal.c: the driver of walk_go (arg: struct mpi_job) */
void mpi_steal_drive(struct walker *g, void *arg);

/* mpi_xchg.c: rounds until no rank has records left. pack appends this
 * rank's next records to out[dest] until their total passes limit and
 * returns whether any remain; unpack takes one rank's records. */
struct xchg_ops {
	int (*pack)(void *arg, struct iobuf *out, size_t limit);
	void (*unpack)(void *arg, int src, struct cursor *c);
	void *arg;
};
void mpi_xchg(const struct mpi_job *j, const struct xchg_ops *ops);

/* mpi_links.c: account every hard-linked file once, under the owning link
 * serial fsscan would choose. */
void mpi_links(const struct mpi_job *j, struct walk_result *r,
    const struct walk_opts *o);

/* mpi_dirs.c: sum the subtrees across ranks (returns, on rank 0, every
 * rank's count of nodes); a node's totals on the wire. */
uint64_t *mpi_dirs_rollup(const struct mpi_job *j, struct walk_result *r);
void mpi_dirs_put_tot(struct iobuf *b, const struct dirlocal *l);
void mpi_dirs_get_tot(struct cursor *c, struct dirlocal *l);

/* mpi_rows.c: rank 0 reads every rank's rows through src while the
 * others serve them until mpi_rows_end. */
struct mpi_rows;
struct mpi_rows *mpi_rows_new(const struct mpi_job *j,
    const struct walk_result *r, const uint64_t *counts,
    struct dir_source *src);
void mpi_rows_end(struct mpi_rows *rs);
void mpi_rows_serve(const struct mpi_job *j, const struct walk_result *r);

/* mpi_census.c: the whole job's census on rank 0 (projects by name in
 * rank 0's registry); the others' are emptied. */
void mpi_census_reduce(const struct mpi_job *j, struct census *c,
    struct project_rules *rules);

#endif
