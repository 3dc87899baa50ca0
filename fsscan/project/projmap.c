/*
 * projmap: map:FILE rules. All map rules share one component trie built
 * from their PATH-PREFIXes, relative to ROOT. A directory walks one level
 * down from its parent's node with its own name, so no path is ever
 * built. Each node holds one value per map rule; a directory's match is
 * the value at its node, or else its parent's match, which is the longest
 * matching prefix. Values are interned on first use (P1), under the
 * registry's lock (P3).
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "project_int.h"
#include "xalloc.h"

static struct mnode *
mnode_new(const char *name)
{
	struct mnode *n = xcalloc(1, sizeof *n);

	n->name = xstrdup(name);
	return n;
}

void
projmap_free(struct mnode *n, int nmap)
{
	if (n == NULL)
		return;
	for (size_t i = 0; i < n->nkids; i++)
		projmap_free(n->kids[i], nmap);
	if (n->val)
		for (int i = 0; i < nmap; i++)
			free(n->val[i].name);
	free(n->val);
	free(n->kids);
	free(n->name);
	free(n);
}

/* Index of the first kid whose name is >= name. */
static size_t
mnode_lower(const struct mnode *n, const char *name)
{
	size_t lo = 0, hi = n->nkids;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(n->kids[mid]->name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct mnode *
projmap_child(const struct mnode *n, const char *name)
{
	size_t i = mnode_lower(n, name);

	if (i < n->nkids && strcmp(n->kids[i]->name, name) == 0)
		return n->kids[i];
	return NULL;
}

static struct mnode *
mnode_add(struct mnode *n, const char *name)
{
	size_t i = mnode_lower(n, name);

	if (i < n->nkids && strcmp(n->kids[i]->name, name) == 0)
		return n->kids[i];
	n->kids = xgrow(n->kids, n->nkids, &n->capkids, sizeof *n->kids, 4);
	memmove(n->kids + i + 1, n->kids + i,
	    (n->nkids - i) * sizeof *n->kids);
	n->kids[i] = mnode_new(name);
	n->nkids++;
	return n->kids[i];
}

/* The interned id of map rule mi's value at node n, or -1. */
int32_t
projmap_id(struct project_rules *r, const struct mnode *n, int mi)
{
	struct mval *v;
	int32_t id;

	if (n == NULL || n->val == NULL || n->val[mi].name == NULL)
		return -1;
	v = &n->val[mi];
	id = atomic_load_explicit(&v->id, memory_order_acquire);
	if (id != ID_LAZY)
		return id;
	projreg_lock(r);
	id = atomic_load_explicit(&v->id, memory_order_relaxed);
	if (id == ID_LAZY) {
		id = projreg_intern_locked(r, v->name);
		atomic_store_explicit(&v->id, id, memory_order_release);
	}
	projreg_unlock(r);
	return id;
}

/* Split path (modified in place) into components, dropping empty and "."
 * ones. ".." pops when allowed, else fails. */
static int
split_path(char *path, struct comps *c, int dotdot_ok)
{
	char *save = NULL, *t;

	c->n = 0;
	for (t = strtok_r(path, "/", &save); t; t = strtok_r(NULL, "/", &save)) {
		if (strcmp(t, ".") == 0)
			continue;
		if (strcmp(t, "..") == 0) {
			if (!dotdot_ok)
				return -1;
			if (c->n)
				c->n--;
			continue;
		}
		c->v = xgrow(c->v, c->n, &c->cap, sizeof *c->v, 16);
		c->v[c->n++] = t;
	}
	return 0;
}

/* Create the trie and split ROOT, which anchors absolute prefixes. */
int
projmap_start(struct parse *ps, const char *root_abs)
{
	if (root_abs == NULL || root_abs[0] != '/') {
		projerr_set(ps->err, ps->errlen,
		    "map rules need an absolute ROOT path, got '%s'",
		    root_abs ? root_abs : "(null)");
		return -1;
	}
	ps->r->trie = mnode_new("");
	/* The component pointers stay valid while rootcopy lives. */
	ps->rootcopy = xstrdup(root_abs);
	split_path(ps->rootcopy, &ps->root, 1);
	return 0;
}

/* Attach a map value to node n for map rule mi. */
static int
map_set(struct parse *ps, const struct rule *ru, struct mnode *n, int len,
    const char *proj, int line)
{
	struct mval *v;

	if (n->val == NULL) {
		n->val = xcalloc((size_t)ps->r->nmap, sizeof *n->val);
		for (int i = 0; i < ps->r->nmap; i++)
			atomic_init(&n->val[i].id, ID_LAZY);
	}
	v = &n->val[ru->mapi];
	if (v->name && v->len == len) {
		projerr_set(ps->err, ps->errlen,
		    "%s line %d: duplicate PATH-PREFIX (first on line %d)",
		    ru->spec, line, v->line);
		return -1;
	}
	if (v->name && v->len > len)	/* a longer ancestor of ROOT won */
		return 0;
	free(v->name);
	v->name = xstrdup(proj);
	v->line = line;
	v->len = len;
	return 0;
}

/* One "PATH-PREFIX PROJECT" line of map rule ru. */
int
projmap_line(struct parse *ps, const struct rule *ru, char *prefix,
    const char *proj, int line)
{
	struct comps *pc = &ps->pc, *rc = &ps->root;
	struct mnode *n = ps->r->trie;
	size_t skip = 0, j;
	int absolute = prefix[0] == '/';

	if (split_path(prefix, pc, 0) < 0) {
		projerr_set(ps->err, ps->errlen,
		    "%s line %d: '..' is not allowed in PATH-PREFIX", ru->spec,
		    line);
		return -1;
	}
	if (absolute) {
		/* Compare with ROOT; a prefix elsewhere can never match. */
		size_t common = pc->n < rc->n ? pc->n : rc->n;
		for (j = 0; j < common; j++)
			if (strcmp(pc->v[j], rc->v[j]) != 0)
				return 0;
		if (pc->n <= rc->n)	/* ROOT or an ancestor: all of it */
			return map_set(ps, ru, n, (int)pc->n, proj, line);
		skip = rc->n;
	}
	for (j = skip; j < pc->n; j++)
		n = mnode_add(n, pc->v[j]);
	return map_set(ps, ru, n, (int)(rc->n + pc->n - skip), proj, line);
}
