/*
 * mpi_dirs: v_dir subtree totals across ranks, and their rows on rank 0.
 *
 * Roll-up without rounds per level: each rank first sums its own nodes
 * bottom-up (dirtot_finish); a node whose parent is another rank's adds
 * its sum into the stand-in for that parent, as do the directories it
 * visited below --dirs under a stand-in. Then what each stand-in holds is
 * sent to its node and to every ancestor of it (the stand-ins' parents),
 * which add it without passing it further up: every directory's content
 * reaches each of its ancestors exactly once (invariant 2).
 *
 *   contribution   varint seq files dirs bytes alloc, byte any,
 *                  [zigzag max_mtime]
 *
 * Rows: rank 0 writes them inside its snapshot transaction, its own and
 * then each rank's, asking for one batch of at most ROWS_BATCH bytes at a
 * time; so no rank ever holds more than its own nodes and one batch, and
 * rank 0 never the tree. A row's id is the snapshot's base plus its
 * rank's offset (the node counts of the ranks before it) plus its seq.
 *
 *   batch          varint rows, then per row: varint seq, varint parent
 *                  (0: none, else 1 + parent's rank), [varint parent seq],
 *                  varint depth, str name, contribution's totals
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_int.h"
#include "xalloc.h"

#define ROWS_BATCH (256u << 10)

struct roll {
	const struct mpi_job *j;
	struct walk_result *r;
	size_t next;			/* stand-in being sent */
};

static void
put_tot(struct iobuf *b, const struct dirlocal *l)
{
	iobuf_varint(b, l->files);
	iobuf_varint(b, l->dirs);
	iobuf_varint(b, l->bytes);
	iobuf_varint(b, l->alloc);
	iobuf_byte(b, (uint8_t)l->any);
	if (l->any)
		iobuf_varint(b, zigzag(l->max_mtime));
}

static void
get_tot(struct cursor *c, struct dirlocal *l)
{
	const uint8_t *any;

	l->files = cursor_varint(c);
	l->dirs = cursor_varint(c);
	l->bytes = cursor_varint(c);
	l->alloc = cursor_varint(c);
	any = cursor_bytes(c, 1);
	l->any = any && *any;
	l->max_mtime = l->any ? unzigzag(cursor_varint(c)) : 0;
}

static int
rank_of(const struct mpi_job *j, const struct dirtot *t)
{
	return t->rank < 0 ? j->rank : t->rank;
}

static int
pack_stub(void *arg, struct iobuf *out, size_t limit)
{
	struct roll *o = arg;
	const struct dirtot_list *s = &o->r->stubs;
	size_t used = 0;

	for (; o->next < s->len && used < limit; o->next++) {
		struct dirlocal l;

		dirtot_get(s->v[o->next], &l);
		if (!l.any && !l.files && !l.dirs && !l.bytes && !l.alloc)
			continue;
		for (const struct dirtot *t = s->v[o->next]; t; t = t->parent) {
			struct iobuf *b = &out[rank_of(o->j, t)];
			size_t before = b->len;
			iobuf_varint(b, t->seq);
			put_tot(b, &l);
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
	get_tot(c, &l);
	if (seq >= o->r->dirs.len) {
		cursor_fail(c, "subtree total for a directory not here");
		return;
	}
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

/* ---- rows ---------------------------------------------------------- */

static void
put_row(const struct mpi_job *j, struct iobuf *b, const struct dirtot *t)
{
	struct dirlocal l;

	iobuf_varint(b, t->seq);
	iobuf_varint(b, t->parent ? 1 + (uint64_t)rank_of(j, t->parent) : 0);
	if (t->parent)
		iobuf_varint(b, t->parent->seq);
	iobuf_varint(b, (uint64_t)t->depth);
	iobuf_str(b, t->name, t->namelen);
	dirtot_get(t, &l);
	put_tot(b, &l);
}

/* The next batch of rows from position *next of l, into b. */
static void
pack_rows(const struct mpi_job *j, const struct dirtot_list *l,
    size_t *next, struct iobuf *b, struct iobuf *rows)
{
	size_t n = 0;

	rows->len = 0;
	for (; *next < l->len && rows->len < ROWS_BATCH; (*next)++, n++)
		put_row(j, rows, l->v[*next]);
	b->len = 0;
	iobuf_varint(b, n);
	iobuf_add(b, rows->p, rows->len);
}

void
mpi_rows_serve(const struct mpi_job *j, const struct walk_result *r)
{
	struct iobuf b = { 0 }, rows = { 0 };
	size_t next = 0;
	int more;

	for (;;) {
		mpi_recv(&more, sizeof more, 0, TAG_ROWS_REQ, j->comm);
		if (!more)
			break;
		pack_rows(j, &r->dirs, &next, &b, &rows);
		mpi_send_buf(&b, 0, TAG_ROWS, j->comm);
	}
	iobuf_free(&b);
	iobuf_free(&rows);
}

struct mpi_rows {
	const struct mpi_job *j;
	const struct walk_result *r;
	uint64_t *off;			/* seq offset of each rank */
	int at;				/* rank being read */
	size_t next;			/* rank 0: its next node */
	struct iobuf in;
	struct cursor c;
	uint64_t left;			/* rows left in the batch */
	char *name;
	size_t cap;
};

/* Rank 0's own rows: straight from its nodes. */
static int
own_row(struct mpi_rows *rs, struct dir_row *row)
{
	const struct dirtot *t;

	if (rs->next == rs->r->dirs.len)
		return 0;
	t = rs->r->dirs.v[rs->next++];
	snapshot_dir_row(t, t->parent ? rs->off[rank_of(rs->j, t->parent)] +
	    t->parent->seq : 0, row);
	return 1;
}

static int
batch(struct mpi_rows *rs, char *err, size_t errlen)
{
	int more = 1;

	MPI_Send(&more, sizeof more, MPI_BYTE, rs->at, TAG_ROWS_REQ,
	    rs->j->comm);
	mpi_recv_buf(&rs->in, rs->at, TAG_ROWS, rs->j->comm);
	rs->c = (struct cursor){ rs->in.p, rs->in.p + rs->in.len, NULL };
	rs->left = cursor_varint(&rs->c);
	if (rs->c.err) {
		snprintf(err, errlen, "rows of rank %d: %s", rs->at, rs->c.err);
		return -1;
	}
	return 0;
}

static int
next_row(void *arg, struct dir_row *row, char *err, size_t errlen)
{
	struct mpi_rows *rs = arg;
	struct cursor *c = &rs->c;
	uint64_t parent;

	if (rs->at == 0) {
		if (own_row(rs, row))
			return 1;
		rs->at = 1;
		rs->left = 0;
	}
	while (rs->left == 0) {
		if (rs->at >= rs->j->n)
			return 0;
		if (batch(rs, err, errlen) < 0)
			return -1;
		if (rs->left == 0)
			rs->at++;	/* that rank has no more */
	}
	rs->left--;
	row->seq = rs->off[rs->at] + cursor_varint(c);
	parent = cursor_varint(c);
	row->has_parent = parent != 0;
	row->parent_seq = 0;
	if (parent) {
		uint64_t pseq = cursor_varint(c);
		if (parent - 1 >= (uint64_t)rs->j->n)
			cursor_fail(c, "parent on no rank");
		else
			row->parent_seq = rs->off[parent - 1] + pseq;
	}
	row->depth = (int)cursor_varint(c);
	row->name = mpi_str(c, &rs->name, &rs->cap, &row->namelen);
	get_tot(c, &row->tot);
	if (c->err) {
		snprintf(err, errlen, "rows of rank %d: %s", rs->at, c->err);
		return -1;
	}
	return 1;
}

struct mpi_rows *
mpi_rows_new(const struct mpi_job *j, const struct walk_result *r,
    const uint64_t *counts, struct dir_source *src)
{
	struct mpi_rows *rs = xcalloc(1, sizeof *rs);

	rs->j = j;
	rs->r = r;
	rs->off = xcalloc((size_t)j->n, sizeof *rs->off);
	for (int i = 1; i < j->n; i++)
		rs->off[i] = rs->off[i - 1] + counts[i - 1];
	src->next = next_row;
	src->arg = rs;
	return rs;
}

/* Tell every rank that no more rows are wanted, read or not. */
void
mpi_rows_end(struct mpi_rows *rs)
{
	int stop = 0;

	for (int i = 1; i < rs->j->n; i++)
		MPI_Send(&stop, sizeof stop, MPI_BYTE, i, TAG_ROWS_REQ,
		    rs->j->comm);
	iobuf_free(&rs->in);
	free(rs->off);
	free(rs->name);
	free(rs);
}
