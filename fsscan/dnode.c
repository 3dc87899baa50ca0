/*
 * dnode: one directory item of the walk and its chain of ancestors, which
 * holds the names for messages and the fds that children open against.
 */
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
	atomic_init(&d->refs, 1);
	if (parent) {
		d->depth = parent->depth + 1;
		atomic_fetch_add(&parent->refs, 1);
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
dnode_release(struct walker *g, struct dnode *d)
{
	while (d && atomic_fetch_sub(&d->refs, 1) == 1) {
		struct dnode *p = d->parent;
		if (d->fd >= 0 && p) {
			close(d->fd);
			if (d->fd_budgeted)
				atomic_fetch_sub(&g->open_fds, 1);
		}
		free(d);
		d = p;
	}
}
