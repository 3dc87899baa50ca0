/*
 * dirtot: subtree totals. See dirtot.h.
 */
#include "dirtot.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

#define MTIME_NONE INT64_MIN

struct dirtot *
dirtot_new(struct dirtot *parent, const char *name, size_t namelen)
{
	struct dirtot *t = xcalloc(1, sizeof *t);

	t->parent = parent;
	atomic_init(&t->max_mtime, MTIME_NONE);
	if (!parent) {
		t->path = xstrdup(".");
		return t;
	}
	t->depth = parent->depth + 1;
	if (parent->depth == 0) {
		t->path = xstrndup(name, namelen);
	} else {
		size_t pl = strlen(parent->path);
		t->path = xmalloc(pl + 1 + namelen + 1);
		memcpy(t->path, parent->path, pl);
		t->path[pl] = '/';
		memcpy(t->path + pl + 1, name, namelen);
		t->path[pl + 1 + namelen] = 0;
	}
	return t;
}

static void
max_store(_Atomic int64_t *m, int64_t v)
{
	int64_t cur = atomic_load_explicit(m, memory_order_relaxed);

	while (v > cur && !atomic_compare_exchange_weak_explicit(m, &cur, v,
	    memory_order_relaxed, memory_order_relaxed))
		;
}

void
dirlocal_mtime(struct dirlocal *l, int64_t mtime)
{
	if (!l->any || mtime > l->max_mtime)
		l->max_mtime = mtime;
	l->any = 1;
}

/* Concurrent adds are exact: every add that wraps the low half sees the
 * old value it wrapped from, so each carry is counted once. */
static void
u128_add(struct dirtot_u128 *x, u128 v)
{
	uint64_t lo = (uint64_t)v, hi = (uint64_t)(v >> 64);
	uint64_t old = atomic_fetch_add_explicit(&x->lo, lo,
	    memory_order_relaxed);

	hi += old + lo < old;
	if (hi)
		atomic_fetch_add_explicit(&x->hi, hi, memory_order_relaxed);
}

u128
dirtot_u128_get(const struct dirtot_u128 *x)
{
	return (u128)atomic_load_explicit(&x->hi, memory_order_relaxed) << 64 |
	    atomic_load_explicit(&x->lo, memory_order_relaxed);
}

void
dirtot_add(struct dirtot *t, const struct dirlocal *l)
{
	atomic_fetch_add_explicit(&t->files, l->files, memory_order_relaxed);
	atomic_fetch_add_explicit(&t->dirs, l->dirs, memory_order_relaxed);
	u128_add(&t->bytes, l->bytes);
	u128_add(&t->alloc, l->alloc);
	if (l->any) {
		max_store(&t->max_mtime, l->max_mtime);
		atomic_store_explicit(&t->any_mtime, 1, memory_order_relaxed);
	}
}

void
dirtot_list_push(struct dirtot_list *l, struct dirtot *t)
{
	if (l->len == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 64;
		l->v = xrealloc(l->v, l->cap * sizeof *l->v);
	}
	l->v[l->len++] = t;
}

void
dirtot_list_take(struct dirtot_list *dst, struct dirtot_list *src)
{
	for (size_t i = 0; i < src->len; i++)
		dirtot_list_push(dst, src->v[i]);
	free(src->v);
	memset(src, 0, sizeof *src);
}

static int
by_depth_desc(const void *a, const void *b)
{
	const struct dirtot *x = *(struct dirtot *const *)a;
	const struct dirtot *y = *(struct dirtot *const *)b;

	return (y->depth > x->depth) - (y->depth < x->depth);
}

static int
by_path(const void *a, const void *b)
{
	const struct dirtot *x = *(struct dirtot *const *)a;
	const struct dirtot *y = *(struct dirtot *const *)b;

	return strcmp(x->path, y->path);
}

void
dirtot_finish(struct dirtot_list *l)
{
	qsort(l->v, l->len, sizeof *l->v, by_depth_desc);
	for (size_t i = 0; i < l->len; i++) {
		struct dirtot *t = l->v[i];
		struct dirlocal sum = {
			.files = t->files, .dirs = t->dirs,
			.bytes = dirtot_u128_get(&t->bytes),
			.alloc = dirtot_u128_get(&t->alloc),
			.max_mtime = t->max_mtime,
			.any = t->any_mtime,
		};
		t->has_mtime = sum.any;
		if (t->parent)
			dirtot_add(t->parent, &sum);
	}
	qsort(l->v, l->len, sizeof *l->v, by_path);
}

void
dirtot_list_free(struct dirtot_list *l)
{
	for (size_t i = 0; i < l->len; i++) {
		free(l->v[i]->path);
		free(l->v[i]);
	}
	free(l->v);
	memset(l, 0, sizeof *l);
}
