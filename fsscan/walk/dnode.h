/*
 * dnode: the names of a walk's directories, each item pointing to its
 * parent, so that a path is never stored but built when one is shown.
 *
 * A top-N entry holds a directory as a reference (dnode_hold) rather
 * than as its path, and compares it with another by dnode_pathcmp in
 * time logarithmic in their depth: building each candidate's path to
 * compare it, as a chain of directories would have every level do, costs
 * time quadratic in the depth.
 */
#ifndef FSSCAN_DNODE_H
#define FSSCAN_DNODE_H

#include <stddef.h>

struct dnode;

/* Full path of name inside d (or of d itself when name is NULL), joined
 * from ROOT as given. */
char *dnode_path(const struct dnode *d, const char *name, size_t namelen);
/* d's path below ROOT, "a/b/c" (its components, ROOT's excluded). */
char *dnode_relpath(const struct dnode *d);
/* strcmp(dnode_path(a, an, alen), dnode_path(b, bn, blen)), as its sign,
 * without building either path (an and bn may be NULL). */
int dnode_pathcmp(const struct dnode *a, const char *an, size_t alen,
    const struct dnode *b, const char *bn, size_t blen);
/* Keep d's name and its ancestors' (not its fd) until dnode_drop. */
void dnode_hold(struct dnode *d);
void dnode_drop(struct dnode *d);

#endif
