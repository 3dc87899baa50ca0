/*
 * dirtot: per-directory subtree totals for v_dir.
 *
 * Directories down to --dirs depth get a node; deeper ones add into their
 * nearest kept ancestor. While walking, each directory adds its own direct
 * content to its node with relaxed atomic adds (once per directory, not per
 * file); dirtot_finish() then sums children into parents, deepest first.
 */
#ifndef FSSCAN_DIRTOT_H
#define FSSCAN_DIRTOT_H

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
	char *path;			/* relative to ROOT, "." for ROOT */
	int depth;
	_Atomic uint64_t files, dirs;
	struct dirtot_u128 bytes, alloc;
	_Atomic int64_t max_mtime;
	_Atomic int any_mtime;		/* max_mtime holds a time: INT64_MIN
					   is one too */
	int has_mtime;			/* set by dirtot_finish */
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

struct dirtot *dirtot_new(struct dirtot *parent, const char *name,
    size_t namelen);
void dirtot_add(struct dirtot *t, const struct dirlocal *l);
/* A total, once every thread's adds are done. */
u128 dirtot_u128_get(const struct dirtot_u128 *x);
void dirlocal_mtime(struct dirlocal *l, int64_t mtime);
void dirtot_list_push(struct dirtot_list *l, struct dirtot *t);
/* Move every node of src into dst. */
void dirtot_list_take(struct dirtot_list *dst, struct dirtot_list *src);
/* Sum subtrees and sort by path; call once, single-threaded. */
void dirtot_finish(struct dirtot_list *l);
void dirtot_list_free(struct dirtot_list *l);

#endif
