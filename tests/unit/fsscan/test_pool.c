/*
 * test_pool: what fsscan/walk/pool.c hands to another rank (pool_give),
 * the driver's nap that a thread waiting for work cuts short (pool_nap),
 * and a parked thread (pool_park): it stays parked while its id is not
 * below the threads that walk, wakes when they are more or the walk is
 * over, and what it queued is taken by the others.
 *
 * The walker is built by hand: one or two deques filled with pool_push,
 * and g->idle set as if that many threads waited for work. Every expected
 * count is worked out by hand from the rule in walk/walk.h: half of each
 * deque's oldest items, rounded up, at most max in all, and never the
 * items that our own idle threads are about to take.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "tap.h"
#include "walk/walk_int.h"
#include "xalloc.h"

static struct dnode *root;

static struct walker *
walker_new(int nw)
{
	struct walker *g = xcalloc(1, sizeof *g);

	g->nw = nw;
	atomic_init(&g->started, nw);
	atomic_init(&g->active, nw);
	g->fed = 1;
	pthread_mutex_init(&g->idle_lk, NULL);
	pool_cond_init(&g->idle_cv);
	pthread_cond_init(&g->park_cv, NULL);
	g->bell = &g->bell_own;
	g->w = xcalloc((size_t)nw, sizeof *g->w);
	for (int i = 0; i < nw; i++) {
		g->w[i].g = g;
		g->w[i].id = i;
		pthread_mutex_init(&g->w[i].lk, NULL);
	}
	return g;
}

/* Queue n children of ROOT on worker i; the first is returned. */
static struct dnode *
queue(struct walker *g, int i, int n)
{
	struct dnode *first = NULL;

	for (int k = 0; k < n; k++) {
		struct dnode *d = dnode_new(root, "d", 1);
		if (!first)
			first = d;
		pool_push(&g->w[i], d);
	}
	return first;
}

static void
release(struct walker *g, struct dnode **v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		dnode_release(g, v[i]);
		pool_done(g);
	}
}

/* Take and release whatever is still queued. */
static void
walker_free(struct walker *g)
{
	for (int i = 0; i < g->nw; i++) {
		struct worker *w = &g->w[i];
		for (size_t k = w->head; k < w->tail; k++)
			dnode_release(g, w->dq[k]);
		free(w->dq);
		pthread_mutex_destroy(&w->lk);
	}
	pthread_mutex_destroy(&g->idle_lk);
	pthread_cond_destroy(&g->idle_cv);
	pthread_cond_destroy(&g->park_cv);
	free(g->w);
	free(g);
}

/* One worker with q queued, idle threads waiting: how many go, at most
 * max; *oldest: whether the first given is the first queued. */
static size_t
give(int nw, int q, int idle, size_t max, int *oldest)
{
	struct walker *g = walker_new(nw);
	struct dnode *out[16];
	struct dnode *first = queue(g, 0, q);
	size_t n;

	atomic_store(&g->idle, idle);
	n = pool_give(g, out, max);
	if (oldest)
		*oldest = n > 0 && out[0] == first;
	ok(atomic_load(&g->queued) == (int64_t)(q - (int)n),
	    "%d queued, %d idle: the queued count drops by what was given", q,
	    idle);
	release(g, out, n);
	walker_free(g);
	return n;
}

static void
test_give(void)
{
	int oldest = 0;

	/* The case that made one directory bounce between two hungry ranks:
	 * it had just come in, and this rank's only thread waits for it. */
	is_i64((int64_t)give(1, 1, 1, 16, NULL), 0,
	    "an item our idle thread is about to take stays");
	is_i64((int64_t)give(1, 1, 0, 16, NULL), 1,
	    "a busy thread's only queued item goes to a hungry rank");
	is_i64((int64_t)give(1, 5, 0, 16, &oldest), 3,
	    "half of 5, rounded up");
	ok(oldest, "the oldest (shallowest) item goes first");
	is_i64((int64_t)give(2, 2, 1, 16, NULL), 1,
	    "2 queued, 1 idle of 2 threads: 1 spare");
	is_i64((int64_t)give(2, 3, 2, 16, NULL), 1,
	    "3 queued, 2 idle: half would be 2, 1 is spare");
	is_i64((int64_t)give(2, 4, 2, 16, NULL), 2,
	    "4 queued, 2 idle: half, 2, is spare");
	is_i64((int64_t)give(2, 2, 2, 16, NULL), 0,
	    "2 queued, 2 idle: nothing");
	is_i64((int64_t)give(1, 9, 0, 2, NULL), 2,
	    "at most max");
}

static void
test_give_two_deques(void)
{
	struct walker *g = walker_new(2);
	struct dnode *out[16];
	size_t n;

	queue(g, 0, 3);
	queue(g, 1, 5);
	n = pool_give(g, out, 16);
	is_i64((int64_t)n, 5, "half of each deque: 2 of 3 and 3 of 5");
	is_i64(atomic_load(&g->queued), 3, "3 stay queued");
	release(g, out, n);
	walker_free(g);
}

static void
test_give_root(void)
{
	struct walker *g = walker_new(1);
	struct dnode *r = dnode_new(NULL, "/r", 2), *out[4];

	atomic_fetch_add(&r->refs, 1);	/* ours, released below */
	pool_push(&g->w[0], r);
	is_i64((int64_t)pool_give(g, out, 4), 0,
	    "ROOT, each rank's own, is never handed over");
	walker_free(g);
	dnode_release(NULL, r);
}

static double
now_s(void)
{
	return (double)throttle_mono_ns() / 1e9;
}

static void *
start_waiting(void *arg)
{
	struct walker *g = arg;

	usleep(20000);
	atomic_fetch_add(&g->pending, 1);	/* another rank's item is out */
	pool_wait(g);
	atomic_fetch_sub(&g->pending, 1);
	return NULL;
}

/* The nap is 60 s; a working wake-up ends it at once. 30 s is slack for
 * the slowest sanitizer run, and a lost wake-up still fails. */
static void
test_nap(void)
{
	struct walker *g = walker_new(1);
	uint32_t seen = 0;
	pthread_t th;
	double t;

	t = now_s();
	pool_nap(g, 1000, &seen);
	ok(now_s() - t < 30, "a nap with nothing to say ends with its time");

	bell_ring(g->bell);		/* a thread began to wait before */
	t = now_s();
	pool_nap(g, 60 * 1000000L, &seen);
	ok(now_s() - t < 30, "a thread that began to wait before the nap "
	    "cuts it short");
	is_i64((int64_t)seen, 1, "the nap has seen that wait");

	pthread_create(&th, NULL, start_waiting, g);
	t = now_s();
	pool_nap(g, 60 * 1000000L, &seen);
	ok(now_s() - t < 30, "a thread that begins to wait during the nap "
	    "ends it");
	pthread_join(th, NULL);
	walker_free(g);
}

struct parked {
	struct worker *w;
	_Atomic int back;	/* pool_park returned */
	int more;		/* what it returned */
};

static void *
park(void *arg)
{
	struct parked *p = arg;

	p->more = pool_park(p->w);
	atomic_store(&p->back, 1);
	return NULL;
}

/* w's next item; a steal tries a few victims at random, as often as a
 * thread would in 100 waits for work. */
static struct dnode *
take(struct worker *w)
{
	struct dnode *d = NULL;

	for (int i = 0; i < 100 && !d; i++)
		d = pool_take(w);
	return d;
}

/* Park worker i in a thread of its own, and let it wait 20 ms. */
static void
park_start(struct walker *g, int i, struct parked *p, pthread_t *th)
{
	*p = (struct parked){ .w = &g->w[i] };
	pthread_create(th, NULL, park, p);
	usleep(20000);
}

static void
test_park(void)
{
	struct walker *g = walker_new(3);
	struct parked p;
	pthread_t th;
	struct dnode *d, *taken[3];

	atomic_store(&g->active, 1);
	atomic_store(&g->pending, 1);		/* an item is out */
	park_start(g, 2, &p, &th);
	ok(!atomic_load(&p.back), "thread 2 of 1 walking stays parked");
	atomic_store(&g->active, 3);
	pool_unpark(g);
	pthread_join(th, NULL);
	ok(p.back && p.more, "3 walk now: thread 2 walks again");

	/* What a parked thread queued is stolen by one that walks. */
	atomic_store(&g->active, 1);
	d = queue(g, 2, 3);
	for (int i = 0; i < 3; i++)
		taken[i] = take(&g->w[0]);
	ok(taken[0] == d, "thread 0 takes the parked one's oldest");
	ok(taken[1] && taken[2] && !take(&g->w[0]), "and the rest of them");

	/* fsscan-mpi: the driver ends the walk. */
	park_start(g, 1, &p, &th);
	ok(!atomic_load(&p.back), "thread 1 of 1 walking stays parked");
	atomic_store(&g->pending, 0);
	pool_end(g);
	pthread_join(th, NULL);
	ok(p.back && !p.more, "the walk is over: the parked thread ends");

	/* fsscan: the last item done ends the walk. */
	g->fed = 0;
	atomic_store(&g->over, 0);
	atomic_store(&g->pending, 4);		/* the 3 taken, and 1 */
	park_start(g, 2, &p, &th);
	for (int i = 0; i < 3; i++)
		pool_done(g);
	usleep(20000);
	ok(!atomic_load(&p.back), "items pending: still parked");
	pool_done(g);
	pthread_join(th, NULL);
	ok(p.back && !p.more, "the last item done: the parked thread ends");
	for (int i = 0; i < 3; i++)
		dnode_release(g, taken[i]);	/* as their visits would */
	walker_free(g);
}

int
main(void)
{
	root = dnode_new(NULL, "/", 1);
	test_give();
	test_give_two_deques();
	test_give_root();
	test_nap();
	test_park();
	dnode_release(NULL, root);
	return tap_end();
}
