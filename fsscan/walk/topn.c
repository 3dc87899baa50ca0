/*
 * topn: the census's lists of the largest files and directories, each a
 * bounded min-heap on (key, path) whose root is the entry evicted first.
 * An entry held while the walk runs names its directory item instead of
 * a path (W4) and is compared through it (dnode_pathcmp).
 */
#include <stdlib.h>
#include <string.h>

#include "walk_int.h"
#include "xalloc.h"

void
topn_ent_free(struct top_ent *e)
{
	free(e->path);
	free(e->leaf);
	dnode_drop(e->dir);
	memset(e, 0, sizeof *e);
}

void
topn_ent_resolve(struct top_ent *e)
{
	if (e->path || !e->dir)
		return;
	e->path = dnode_path(e->dir, e->leaf, e->leaflen);
	free(e->leaf);
	dnode_drop(e->dir);
	e->leaf = NULL;
	e->dir = NULL;
}

void
topn_free(struct topn *t)
{
	for (int i = 0; i < t->len; i++)
		topn_ent_free(&t->e[i]);
	free(t->e);
	t->e = NULL;
	t->len = 0;
}

static char *
top_path(const struct top_ent *e)
{
	return e->path ? e->path : dnode_path(e->dir, e->leaf, e->leaflen);
}

/* strcmp of the two paths; held entries are compared without them. */
int
topn_ent_pathcmp(const struct top_ent *a, const struct top_ent *b)
{
	char *pa, *pb;
	int c;

	if (!a->path && !b->path)
		return dnode_pathcmp(a->dir, a->leaf, a->leaflen, b->dir,
		    b->leaf, b->leaflen);
	pa = top_path(a);
	pb = top_path(b);
	c = strcmp(pa, pb);
	if (pa != a->path)
		free(pa);
	if (pb != b->path)
		free(pb);
	return c;
}

/* Min-heap on (key, path): the root is the entry evicted first. */
static int
top_less(const struct top_ent *a, const struct top_ent *b)
{
	if (a->key != b->key)
		return a->key < b->key;
	return topn_ent_pathcmp(a, b) > 0;	/* keep smaller paths on ties */
}

static void
heap_down(struct topn *t, int i)
{
	for (;;) {
		int l = 2 * i + 1, r = l + 1, m = i;
		if (l < t->len && top_less(&t->e[l], &t->e[m]))
			m = l;
		if (r < t->len && top_less(&t->e[r], &t->e[m]))
			m = r;
		if (m == i)
			return;
		struct top_ent tmp = t->e[i];
		t->e[i] = t->e[m];
		t->e[m] = tmp;
		i = m;
	}
}

static void
heap_up(struct topn *t, int i)
{
	while (i > 0) {
		int p = (i - 1) / 2;
		if (!top_less(&t->e[i], &t->e[p]))
			return;
		struct top_ent tmp = t->e[i];
		t->e[i] = t->e[p];
		t->e[p] = tmp;
		i = p;
	}
}

int
topn_wants(const struct topn *t, uint64_t key)
{
	return t->cap > 0 && (t->len < t->cap || key >= t->e[0].key);
}

/* Would e be kept? */
static int
topn_ranks(const struct topn *t, const struct top_ent *e)
{
	return t->cap > 0 && (t->len < t->cap || top_less(&t->e[0], e));
}

/* Keep e, which ranks (t owns it now). */
static void
topn_put(struct topn *t, const struct top_ent *e)
{
	if (!t->e)
		t->e = xcalloc((size_t)t->cap, sizeof *t->e);
	if (t->len < t->cap) {
		t->e[t->len++] = *e;
		heap_up(t, t->len - 1);
	} else {
		topn_ent_free(&t->e[0]);
		t->e[0] = *e;
		heap_down(t, 0);
	}
}

void
topn_offer_ent(struct topn *t, uint64_t key, struct top_ent *e)
{
	if (!e->path && !e->dir)
		return;
	e->key = key;
	if (topn_ranks(t, e))
		topn_put(t, e);
	else
		topn_ent_free(e);
	memset(e, 0, sizeof *e);
}

void
topn_offer(struct topn *t, uint64_t key, char *path)
{
	struct top_ent e = { .path = path };

	topn_offer_ent(t, key, &e);
}

void
topn_offer_at(struct topn *t, uint64_t key, struct dnode *dir,
    const char *leaf, size_t leaflen)
{
	struct top_ent e = { .key = key, .dir = dir, .leaf = (char *)leaf,
	    .leaflen = leaflen };

	if (!topn_ranks(t, &e))
		return;
	e.leaf = leaf ? xstrndup(leaf, leaflen) : NULL;
	dnode_hold(dir);
	topn_put(t, &e);
}

void
topn_resolve(struct topn *t)
{
	for (int i = 0; i < t->len; i++)
		topn_ent_resolve(&t->e[i]);
}

static int
top_cmp_desc(const void *a, const void *b)
{
	const struct top_ent *x = a, *y = b;

	if (top_less(x, y))
		return 1;
	if (top_less(y, x))
		return -1;
	return 0;
}

void
topn_sort(struct topn *t)
{
	if (t->len)
		qsort(t->e, (size_t)t->len, sizeof *t->e, top_cmp_desc);
}

void
topn_merge(struct topn *dst, struct topn *src)
{
	for (int i = 0; i < src->len; i++)
		if (topn_ranks(dst, &src->e[i]))
			topn_put(dst, &src->e[i]);
		else
			topn_ent_free(&src->e[i]);
	free(src->e);
	src->e = NULL;
	src->len = 0;
}
