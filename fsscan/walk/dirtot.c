/*
 * dirtot: subtree totals. See walk.h.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "walk_int.h"
#include "xalloc.h"

struct dirtot *
dirtot_new(struct dirtot *parent, const char *name, size_t namelen,
    _Atomic uint64_t *seq)
{
	struct dirtot *t;

	if (!parent) {
		name = ".";
		namelen = 1;
	}
	t = xcalloc(1, sizeof *t + namelen + 1);
	t->parent = parent;
	t->seq = atomic_fetch_add_explicit(seq, 1, memory_order_relaxed);
	t->rank = -1;
	t->depth = parent ? parent->depth + 1 : 0;
	/* the identity of max, not a marker: any_mtime says whether there
	 * is a time */
	atomic_init(&t->max_mtime, INT64_MIN);
	memcpy(t->name, name, namelen);
	t->namelen = namelen;
	return t;
}

struct dirtot *
dirtot_stub(struct dirtot *parent, int rank, uint64_t seq)
{
	struct dirtot *t = xcalloc(1, sizeof *t);

	t->parent = parent;
	t->seq = seq;
	t->rank = rank;
	t->depth = parent ? parent->depth + 1 : 0;
	atomic_init(&t->max_mtime, INT64_MIN);
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
dirtot_local_mtime(struct dirlocal *l, int64_t mtime)
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

static u128
u128_get(const struct dirtot_u128 *x)
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
	u128_add(&t->cold, l->cold);
	if (l->any) {
		max_store(&t->max_mtime, l->max_mtime);
		atomic_store_explicit(&t->any_mtime, 1, memory_order_relaxed);
	}
}

void
dirtot_get(const struct dirtot *t, struct dirlocal *l)
{
	l->files = t->files;
	l->dirs = t->dirs;
	l->bytes = u128_get(&t->bytes);
	l->alloc = u128_get(&t->alloc);
	l->cold = u128_get(&t->cold);
	l->max_mtime = t->max_mtime;
	l->any = t->any_mtime;
}

void
dirtot_list_push(struct dirtot_list *l, struct dirtot *t)
{
	l->v = xgrow(l->v, l->len, &l->cap, sizeof *l->v, 64);
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

/*
 * Sequence numbers are dense and a parent is numbered before its
 * children (W6), so placing each node at its seq orders the list in
 * linear time, and walking it backwards sums every child before its
 * parent.
 */
void
dirtot_finish(struct dirtot_list *l)
{
	struct dirtot **v = xcalloc(l->len ? l->len : 1, sizeof *v);

	for (size_t i = 0; i < l->len; i++) {
		struct dirtot *t = l->v[i];

		assert(t->seq < l->len && v[t->seq] == NULL);	/* W6 */
		/* W6: a parent made by this process is numbered first */
		assert(!t->parent || t->parent->rank >= 0 ||
		    t->parent->seq < t->seq);
		v[t->seq] = t;
	}
	free(l->v);
	l->v = v;
	l->cap = l->len ? l->len : 1;
	for (size_t i = l->len; i-- > 0;) {
		struct dirtot *t = v[i];
		struct dirlocal sum;

		if (t->parent) {
			dirtot_get(t, &sum);
			dirtot_add(t->parent, &sum);
		}
	}
}

void
dirtot_list_free(struct dirtot_list *l)
{
	for (size_t i = 0; i < l->len; i++)
		free(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof *l);
}
