/*
 * drive: what a driver of the walk (fsscan-mpi's main thread, walk_go's
 * drive) sets and reads of it, so that it needs nothing of the walker's
 * state but walk.h. Called by the driver's thread only.
 */
#include "walk_int.h"

void
walk_feeder(struct walker *g, _Atomic uint32_t *bell)
{
	g->fed = 1;
	g->bell = bell;
}

void
walk_share(struct walker *g, int rank, int n)
{
	g->share_rank = rank;
	g->share_n = n;
}

struct dnode *
walk_root(struct walker *g)
{
	return g->root;
}

uint64_t
walk_root_dev(const struct walker *g)
{
	return g->root_dev;
}

struct project_rules *
walk_rules(const struct walker *g)
{
	return g->o->rules;
}

struct dirtot *
walk_stub(struct walker *g, struct dirtot *parent, int rank, uint64_t seq)
{
	struct dirtot *t = dirtot_stub(parent, rank, seq);

	dirtot_list_push(&g->stubs, t);
	return t;
}

/* Relaxed: the counts only show, and each is read by itself. */
void
walk_remote(struct walker *g, const struct walk_sofar *s)
{
	atomic_store_explicit(&g->remote_entries, s->entries,
	    memory_order_relaxed);
	atomic_store_explicit(&g->remote_errors, s->errors,
	    memory_order_relaxed);
	atomic_store_explicit(&g->remote_bytes, s->bytes,
	    memory_order_relaxed);
}

void
walk_clock_reset(struct walker *g)
{
	g->start_ns = throttle_mono_ns();
}
