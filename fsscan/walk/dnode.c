/*
 * dnode: one directory item of the walk and its chain of ancestors, which
 * holds the names for messages and top-N entries and the fds that children
 * open against. See walk.h and walk_int.h.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "walk_int.h"
#include "xalloc.h"

struct dnode *
dnode_new(struct dnode *parent, const char *name, size_t len)
{
	struct dnode *d = xcalloc(1, sizeof *d + len + 1);

	memcpy(d->name, name, len);
	d->namelen = len;
	d->parent = parent;
	d->fd = -1;
	atomic_init(&d->shared_fd, -1);
	atomic_init(&d->refs, 1);
	atomic_init(&d->life, 1);
	d->jump = d;
	if (parent) {
		const struct dnode *j = parent->jump;
		int refs, life;

		d->depth = parent->depth + 1;
		d->jump = parent->depth - j->depth == j->depth - j->jump->depth ?
		    j->jump : parent;
		refs = atomic_fetch_add(&parent->refs, 1);
		life = atomic_fetch_add(&parent->life, 1);
		/* W1: a child is made only of a live item */
		assert(refs > 0 && life > 0);
		(void)refs;
		(void)life;
	}
	return d;
}

/* Is a separator needed between p's parent and p? Only ROOT, as given,
 * can already end in '/'. */
static int
needs_sep(const struct dnode *parent)
{
	return parent->namelen == 0 || parent->name[parent->namelen - 1] != '/';
}

/* Full path of name inside d (or of d itself when name is NULL), joined
 * from ROOT as given. Only for messages and top-N entries. */
char *
dnode_path(const struct dnode *d, const char *name, size_t namelen)
{
	size_t len = 0;
	const struct dnode *p;
	char *buf, *end;

	if (name)
		len += namelen + needs_sep(d);
	for (p = d; p; p = p->parent)
		len += p->namelen + (p->parent ? needs_sep(p->parent) : 0);
	buf = xmalloc(len + 1);
	end = buf + len;
	*end = 0;
	if (name) {
		end -= namelen;
		memcpy(end, name, namelen);
		if (needs_sep(d))
			*--end = '/';
	}
	for (p = d; p; p = p->parent) {
		end -= p->namelen;
		memcpy(end, p->name, p->namelen);
		if (p->parent && needs_sep(p->parent))
			*--end = '/';
	}
	return buf;
}

char *
dnode_relpath(const struct dnode *d)
{
	size_t len = 0;
	const struct dnode *p;
	char *buf, *end;

	for (p = d; p->parent; p = p->parent)
		len += p->namelen + (p != d);
	buf = xmalloc(len + 1);
	end = buf + len;
	*end = 0;
	for (p = d; p->parent; p = p->parent) {
		if (p != d)
			*--end = '/';
		end -= p->namelen;
		memcpy(end, p->name, p->namelen);
	}
	return buf;
}

void
dnode_hold(struct dnode *d)
{
	int life = atomic_fetch_add(&d->life, 1);

	assert(life > 0);	/* W1: held only while alive */
	(void)life;
}

void
dnode_drop(struct dnode *d)
{
	while (d) {
		struct dnode *p = d->parent;
		int life = atomic_fetch_sub(&d->life, 1);

		assert(life > 0);	/* W1 */
		if (life != 1)
			return;
		free(d);
		d = p;
	}
}

/* One budgeted fd of g closed (W3). */
static void
fd_unbudget(struct walker *g)
{
	int n = atomic_fetch_sub(&g->open_fds, 1);

	assert(n > walk_fd_reserve(g));	/* W3: never below the reserve */
	(void)n;
}

/* The last item reference closes the fds; the name may live on. */
void
dnode_release(struct walker *g, struct dnode *d)
{
	while (d) {
		struct dnode *p = d->parent;
		int refs = atomic_fetch_sub(&d->refs, 1), sfd;

		assert(refs > 0);	/* W1 */
		if (refs != 1)
			return;
		/* W1: refs held one of life until now */
		assert(atomic_load(&d->life) > 0);
		sfd = atomic_load(&d->shared_fd);
		if (d->fd >= 0 && p) {
			close(d->fd);
			d->fd = -1;
			if (d->fd_budgeted)
				fd_unbudget(g);
		}
		if (sfd >= 0) {
			close(sfd);
			atomic_store(&d->shared_fd, -1);
			fd_unbudget(g);
		}
		dnode_drop(d);
		d = p;
	}
}

/* d's ancestor at depth (d itself when as deep). */
static const struct dnode *
ancestor(const struct dnode *d, int depth)
{
	while (d->depth > depth)
		d = d->jump->depth >= depth ? d->jump : d->parent;
	return d;
}

/*
 * One component of a path and what follows it: name, then '/' when more
 * (deeper components or a leaf name) follows, else the end, which sorts
 * before any byte. Components of one directory never hold '/', so two
 * distinct names differ before either one's '/', or one ends first.
 * 0 only when both are the same name, ended alike: then the caller
 * cannot tell them apart here.
 */
static int
seg_cmp(const char *a, size_t alen, int amore, const char *b, size_t blen,
    int bmore)
{
	size_t n = alen < blen ? alen : blen;
	int c = memcmp(a, b, n), ca, cb;

	if (c != 0)
		return c;
	ca = alen > n ? (unsigned char)a[n] : amore ? '/' : -1;
	cb = blen > n ? (unsigned char)b[n] : bmore ? '/' : -1;
	return ca == cb ? 0 : ca < cb ? -1 : 1;
}

/* Build both paths: for the rare nodes that seg_cmp cannot tell apart,
 * distinct nodes of one name (fsscan-mpi's stand-ins for one directory). */
static int
built_cmp(const struct dnode *a, const char *an, size_t alen,
    const struct dnode *b, const char *bn, size_t blen)
{
	char *pa = dnode_path(a, an, alen), *pb = dnode_path(b, bn, blen);
	int c = strcmp(pa, pb);

	free(pa);
	free(pb);
	return c;
}

/*
 * The paths agree down to the deepest common ancestor: lift the deeper
 * node to the other's depth, then both to the children of that ancestor
 * (while their jumps differ, the common ancestor lies above them), and
 * compare the two components there. A node that is the other's ancestor
 * compares its leaf name, if any, with the other's next component.
 */
int
dnode_pathcmp(const struct dnode *a, const char *an, size_t alen,
    const struct dnode *b, const char *bn, size_t blen)
{
	const struct dnode *x, *y;
	int c;

	if (a->depth < b->depth)
		return -dnode_pathcmp(b, bn, blen, a, an, alen);
	x = ancestor(a, b->depth);
	if (x == b) {
		if (a == b) {
			if (!an || !bn)
				return (an != NULL) - (bn != NULL);
			c = seg_cmp(an, alen, 0, bn, blen, 0);
		} else {
			if (!bn)
				return 1;
			x = ancestor(a, b->depth + 1);
			c = seg_cmp(x->name, x->namelen, x != a || an != NULL,
			    bn, blen, 0);
		}
		return c ? c : built_cmp(a, an, alen, b, bn, blen);
	}
	y = b;
	while (x->parent != y->parent)
		if (x->jump != y->jump) {
			x = x->jump;
			y = y->jump;
		} else {
			x = x->parent;
			y = y->parent;
		}
	c = seg_cmp(x->name, x->namelen, x != a || an != NULL, y->name,
	    y->namelen, y != b || bn != NULL);
	return c ? c : built_cmp(a, an, alen, b, bn, blen);
}
