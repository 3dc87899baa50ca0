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

struct dirtot {
	struct dirtot *parent;
	uint64_t seq;			/* dense per scan, ROOT 0 */
	int depth;
	_Atomic uint64_t files, dirs, bytes, alloc;
	_Atomic int64_t max_mtime;
	int has_mtime;			/* set by dirtot_finish */
	size_t namelen;
	char name[];			/* own name, "." for ROOT */
};

struct dirtot_list {
	struct dirtot **v;
	size_t len, cap;
};

/* Direct content of one directory, gathered without atomics. */
struct dirlocal {
	uint64_t files, dirs, bytes, alloc;
	int64_t max_mtime;
	int any;
};

/* A node under parent (NULL: ROOT, named "."), numbered from *seq. */
struct dirtot *dirtot_new(struct dirtot *parent, const char *name,
    size_t namelen, _Atomic uint64_t *seq);
void dirtot_add(struct dirtot *t, const struct dirlocal *l);
void dirlocal_mtime(struct dirlocal *l, int64_t mtime);
void dirtot_list_push(struct dirtot_list *l, struct dirtot *t);
/* Move every node of src into dst. */
void dirtot_list_take(struct dirtot_list *dst, struct dirtot_list *src);
/* Sum subtrees and order the nodes by seq (parents before children);
 * call once, single-threaded. */
void dirtot_finish(struct dirtot_list *l);
void dirtot_list_free(struct dirtot_list *l);

#endif
