/*
 * dirtot: per-directory subtree totals for v_dir.
 *
 * Directories down to --dirs depth get a node; deeper ones add into their
 * nearest kept ancestor. A node holds its own name and a pointer to its
 * parent, never a path, so memory is linear in the number of nodes however
 * deep the tree (a path string per node would be quadratic in depth).
 * While walking, each directory adds its own direct content to its node
 * with relaxed atomic adds (once per directory, not per file);
 * dirtot_finish() then sums children into parents, deepest first.
 *
 * Each node has a sequence number, dense from 0 in the order nodes were
 * made (ROOT is 0): its row id in the database is a base plus seq, and
 * its parent's row id the same base plus the parent's seq.
 */
#ifndef FSSCAN_DIRTOT_H
#define FSSCAN_DIRTOT_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "i128.h"

/* A 128-bit total that threads add to without a lock: the low half with
 * an atomic add, and each carry out of it into the high half. */
struct dirtot_u128 {
	_Atomic uint64_t lo, hi;
};

struct dirtot {
	struct dirtot *parent;
	uint64_t seq;			/* dense per scan, ROOT 0 */
	int rank;			/* -1: this process's own node; else a
					   stand-in for node seq of that rank */
	int depth;
	_Atomic uint64_t files, dirs;
	struct dirtot_u128 bytes, alloc;
	_Atomic int64_t max_mtime;
	_Atomic int any_mtime;		/* max_mtime holds a time: INT64_MIN
					   is one too */
	size_t namelen;
	char name[];			/* own name, "." for ROOT */
};

struct dirtot_list {
	struct dirtot **v;
	size_t len, cap;
};

/* Direct content of one directory, gathered without atomics. */
struct dirlocal {
	uint64_t files, dirs;
	u128 bytes, alloc;
	int64_t max_mtime;
	int any;
};

/* A node under parent (NULL: ROOT, named "."), numbered from *seq. */
struct dirtot *dirtot_new(struct dirtot *parent, const char *name,
    size_t namelen, _Atomic uint64_t *seq);
/* fsscan-mpi: a stand-in for node seq of another rank (or of this one,
 * reached through another rank), under the stand-in of its parent. What
 * is added to it belongs to that node and to each of its ancestors. */
struct dirtot *dirtot_stub(struct dirtot *parent, int rank, uint64_t seq);
void dirtot_add(struct dirtot *t, const struct dirlocal *l);
/* What has been added to t, as a dirlocal (exact once every thread's
 * adds are done). */
void dirtot_get(const struct dirtot *t, struct dirlocal *l);
void dirlocal_mtime(struct dirlocal *l, int64_t mtime);
void dirtot_list_push(struct dirtot_list *l, struct dirtot *t);
/* Move every node of src into dst. */
void dirtot_list_take(struct dirtot_list *dst, struct dirtot_list *src);
/* Sum subtrees and order the nodes by seq (parents before children), so
 * that node seq is l->v[seq]; call once, single-threaded. A node whose
 * parent is a stand-in adds its sum to it. */
void dirtot_finish(struct dirtot_list *l);
void dirtot_list_free(struct dirtot_list *l);

#endif
