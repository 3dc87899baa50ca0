/*
 * pool: the walk's work items. Per-thread deques of directories with
 * steal-half, and termination on an atomic count of pending items: the
 * walk is over when no item is queued or being visited. Under fsscan-mpi
 * (g->fed) items also come from, and go to, other ranks through a driver
 * thread (mpi/mpi_steal.c): an empty pool is then only idle, and the driver
 * says when the walk is over.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "walk_int.h"
#include "xalloc.h"

static void
deque_append(struct worker *w, struct dnode *d)
{
	if (w->tail == w->cap) {
		if (w->head > 0) {
			memmove(w->dq, w->dq + w->head,
			    (w->tail - w->head) * sizeof *w->dq);
			w->tail -= w->head;
			w->head = 0;
		}
		w->dq = xgrow(w->dq, w->tail, &w->cap, sizeof *w->dq, 256);
	}
	w->dq[w->tail++] = d;
}

void
pool_push(struct worker *w, struct dnode *d)
{
	struct walker *g = w->g;

	atomic_fetch_add(&g->pending, 1);
	atomic_fetch_add(&g->queued, 1);
	pthread_mutex_lock(&w->lk);
	deque_append(w, d);
	pthread_mutex_unlock(&w->lk);
	/* Sequentially consistent, as idle_wait's load of queued: one of
	 * the two sees the other's increment, so no wake-up is lost. */
	if (atomic_load(&g->idle) > 0) {
		pthread_mutex_lock(&g->idle_lk);
		pthread_cond_signal(&g->idle_cv);
		pthread_mutex_unlock(&g->idle_lk);
	}
}

/* The owner works depth-first from the tail. */
static struct dnode *
pop_local(struct worker *w)
{
	struct walker *g = w->g;
	struct dnode *d = NULL;

	pthread_mutex_lock(&w->lk);
	if (w->tail > w->head)
		d = w->dq[--w->tail];
	if (w->tail == w->head)
		w->head = w->tail = 0;
	pthread_mutex_unlock(&w->lk);
	if (d)
		atomic_fetch_sub(&g->queued, 1);
	return d;
}

/* Take half of a victim's items from the head: the shallowest ones, which
 * carry the most work, so steals stay rare. */
static struct dnode *
steal(struct worker *w)
{
	struct walker *g = w->g;
	struct dnode *tmp[512];
	/* Parked threads' deques too: what they queued is still to do. */
	int nw = atomic_load_explicit(&g->started, memory_order_acquire);

	for (int k = 1; k < nw; k++) {
		struct worker *v = &g->w[(w->id + k + (int)(rand_r(&w->seed) %
		    (unsigned)nw)) % nw];
		size_t n = 0;

		if (v == w)
			continue;
		pthread_mutex_lock(&v->lk);
		if (v->tail > v->head) {
			n = (v->tail - v->head + 1) / 2;
			if (n > sizeof tmp / sizeof *tmp)
				n = sizeof tmp / sizeof *tmp;
			memcpy(tmp, v->dq + v->head, n * sizeof *tmp);
			v->head += n;
		}
		pthread_mutex_unlock(&v->lk);
		if (n == 0)
			continue;
		pthread_mutex_lock(&w->lk);
		for (size_t i = 1; i < n; i++)
			deque_append(w, tmp[i]);
		pthread_mutex_unlock(&w->lk);
		atomic_fetch_sub(&g->queued, 1);
		return tmp[0];
	}
	return NULL;
}

void
pool_cond_init(pthread_cond_t *cv)
{
	pthread_condattr_t a;

	pthread_condattr_init(&a);
	pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
	pthread_cond_init(cv, &a);
	pthread_condattr_destroy(&a);
}

struct timespec
pool_deadline(long us)
{
	uint64_t t = throttle_mono_ns() + (uint64_t)us * 1000;

	return (struct timespec){ (time_t)(t / 1000000000),
	    (long)(t % 1000000000) };
}

static void
idle_wait(struct walker *g)
{
	struct timespec ts = pool_deadline(2000);

	pthread_mutex_lock(&g->idle_lk);
	atomic_fetch_add(&g->idle, 1);
	/* The feeder asks other ranks for work now, not after its nap. */
	if (g->fed)
		bell_ring(g->bell);
	/* An item queued since pool_take looked is taken now, not after
	 * the timeout: its pusher may have seen no idle thread to wake. */
	if (atomic_load(&g->queued) == 0 && (atomic_load(&g->pending) > 0 ||
	    (g->fed && !atomic_load(&g->over))))
		pthread_cond_timedwait(&g->idle_cv, &g->idle_lk, &ts);
	atomic_fetch_sub(&g->idle, 1);
	pthread_mutex_unlock(&g->idle_lk);
}

struct dnode *
pool_take(struct worker *w)
{
	struct dnode *d = pop_local(w);

	return d ? d : steal(w);
}

struct dnode *
pool_pop(struct worker *w)
{
	return pop_local(w);
}

size_t
pool_queued(const struct walker *g)
{
	return (size_t)atomic_load(&g->queued);
}

static int
walk_over(struct walker *g)
{
	return atomic_load(&g->pending) == 0 &&
	    (!g->fed || atomic_load(&g->over));
}

int
pool_wait(struct walker *g)
{
	if (walk_over(g))
		return 0;
	idle_wait(g);
	return 1;
}

int
pool_park(struct worker *w)
{
	struct walker *g = w->g;

	pthread_mutex_lock(&g->idle_lk);
	while (w->id >= atomic_load(&g->active) && !walk_over(g))
		pthread_cond_wait(&g->park_cv, &g->idle_lk);
	pthread_mutex_unlock(&g->idle_lk);
	return w->id < atomic_load(&g->active) || !walk_over(g);
}

void
pool_unpark(struct walker *g)
{
	pthread_mutex_lock(&g->idle_lk);
	pthread_cond_broadcast(&g->park_cv);
	pthread_mutex_unlock(&g->idle_lk);
}

void
pool_feed(struct walker *g, struct dnode **items, size_t n)
{
	int nw = atomic_load(&g->active);

	for (size_t i = 0; i < n; i++)
		pool_push(&g->w[g->feed % nw], items[i]);
	g->feed++;
}

int
pool_idle(struct walker *g)
{
	return atomic_load(&g->pending) == 0;
}

int
pool_hungry(struct walker *g)
{
	return atomic_load(&g->queued) == 0 && atomic_load(&g->idle) > 0;
}

/* Half of each deque's oldest items (the shallowest, carrying the most
 * work), as a thread steals them, up to max in all, keeping one for each
 * idle thread. */
size_t
pool_give(struct walker *g, struct dnode **out, size_t max)
{
	size_t got = 0;
	int64_t spare = atomic_load(&g->queued) - atomic_load(&g->idle), queued;
	int nw = atomic_load_explicit(&g->started, memory_order_acquire);

	/* Items our own idle threads are about to take stay here: given
	 * away, an item just received would bounce between two hungry ranks
	 * with no thread ever visiting it. */
	if (spare <= 0)
		return 0;
	if ((size_t)spare < max)
		max = (size_t)spare;

	for (int i = 0; i < nw && got < max; i++) {
		struct worker *w = &g->w[i];
		size_t n;

		pthread_mutex_lock(&w->lk);
		n = (w->tail - w->head + 1) / 2;
		if (n > max - got)
			n = max - got;
		/* ROOT is opened by each rank itself, never handed over: it
		 * is the only item when it is queued. */
		if (n && w->dq[w->head]->parent == NULL)
			n = 0;
		if (n)
			memcpy(out + got, w->dq + w->head, n * sizeof *out);
		w->head += n;
		if (w->tail == w->head)
			w->head = w->tail = 0;
		pthread_mutex_unlock(&w->lk);
		queued = atomic_fetch_sub(&g->queued, (int64_t)n);
		/* M1: what is given was queued here, and is no longer */
		assert(queued >= (int64_t)n);
		(void)queued;
		got += n;
	}
	return got;
}

void
pool_nap(struct walker *g, long us, uint32_t *seen)
{
	bell_wait(g->bell, seen, us);
}

/* Wake every thread that waits, for work or parked: the walk may be
 * over. */
static void
wake_all(struct walker *g)
{
	pthread_mutex_lock(&g->idle_lk);
	pthread_cond_broadcast(&g->idle_cv);
	pthread_cond_broadcast(&g->park_cv);
	pthread_mutex_unlock(&g->idle_lk);
}

void
pool_end(struct walker *g)
{
	atomic_store(&g->over, 1);
	wake_all(g);
}

void
pool_done(struct walker *g)
{
	if (atomic_fetch_sub(&g->pending, 1) == 1)
		wake_all(g);
}
