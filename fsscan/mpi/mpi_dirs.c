/*
 * mpi_dirs: v_dir subtree totals across ranks.
 *
 * Roll-up without rounds per level: each rank first sums its own nodes
 * bottom-up (dirtot_finish); a node whose parent is another rank's adds
 * its sum into the stand-in for that parent, as do the directories it
 * visited below --dirs under a stand-in. Then what each stand-in holds is
 * sent to its node and to every ancestor of it (the stand-ins' parents),
 * which add it without passing it further up: every directory's content
 * reaches each of its ancestors exactly once (M2).
 *
 *   contribution   varint seq, totals
 *   totals         varint files dirs, wide bytes alloc cold (mpi.h),
 *                  byte any, [zigzag max_mtime]
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi.h"
#include "xalloc.h"

struct roll {
	const struct mpi_job *j;
	struct walk_result *r;
	size_t next;			/* stand-in being sent */
};

void
mpi_dirs_put_tot(struct iobuf *b, const struct dirlocal *l)
{
	iobuf_varint(b, l->files);
	iobuf_varint(b, l->dirs);
	mpi_put_u128(b, l->bytes);
	mpi_put_u128(b, l->alloc);
	mpi_put_u128(b, l->cold);
	iobuf_byte(b, (uint8_t)l->any);
	if (l->any)
		iobuf_varint(b, zigzag(l->max_mtime));
}

void
mpi_dirs_get_tot(struct cursor *c, struct dirlocal *l)
{
	const uint8_t *any;

	l->files = cursor_varint(c);
	l->dirs = cursor_varint(c);
	l->bytes = mpi_get_u128(c);
	l->alloc = mpi_get_u128(c);
	l->cold = mpi_get_u128(c);
	any = cursor_bytes(c, 1);
	l->any = any && *any;
	l->max_mtime = l->any ? unzigzag(cursor_varint(c)) : 0;
}

static int
pack_stub(void *arg, struct iobuf *out, size_t limit)
{
	struct roll *o = arg;
	const struct dirtot_list *s = &o->r->stubs;
	size_t used = 0;

	for (; o->next < s->len && used < limit; o->next++) {
		struct dirlocal l;

		/* M2: what is sent is what stand-ins hold */
		assert(s->v[o->next]->rank >= 0);
		dirtot_get(s->v[o->next], &l);
		if (!l.any && !l.files && !l.dirs && !l.bytes && !l.alloc)
			continue;
		for (const struct dirtot *t = s->v[o->next]; t; t = t->parent) {
			struct iobuf *b = &out[mpi_rank_of(o->j, t)];
			size_t before = b->len;
			iobuf_varint(b, t->seq);
			mpi_dirs_put_tot(b, &l);
			used += b->len - before;
		}
	}
	return o->next < s->len;
}

static void
unpack_stub(void *arg, int src, struct cursor *c)
{
	struct roll *o = arg;
	struct dirlocal l;
	uint64_t seq = cursor_varint(c);

	(void)src;
	mpi_dirs_get_tot(c, &l);
	if (seq >= o->r->dirs.len) {
		cursor_fail(c, "subtree total for a directory not here");
		return;
	}
	/* M2: it lands on the node this rank made, never on a stand-in */
	assert(o->r->dirs.v[seq]->rank < 0 && o->r->dirs.v[seq]->seq == seq);
	dirtot_add(o->r->dirs.v[seq], &l);
}

uint64_t *
mpi_dirs_rollup(const struct mpi_job *j, struct walk_result *r)
{
	struct roll o = { j, r, 0 };
	struct xchg_ops ops = { pack_stub, unpack_stub, &o };
	uint64_t mine = r->dirs.len, *counts = NULL;

	dirtot_finish(&r->dirs);
	mpi_xchg(j, &ops);
	if (j->rank == 0)
		counts = xcalloc((size_t)j->n, sizeof *counts);
	MPI_Gather(&mine, 1, MPI_UINT64_T, counts, 1, MPI_UINT64_T, 0, j->comm);
	return counts;
}
