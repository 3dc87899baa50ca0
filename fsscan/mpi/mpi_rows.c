/*
 * mpi_rows: every rank's v_dir rows, written by rank 0.
 *
 * Rank 0 writes them inside its snapshot transaction, its own and then
 * each rank's, asking for one batch of at most ROWS_BATCH bytes at a
 * time; so no rank ever holds more than its own nodes and one batch, and
 * rank 0 never the tree. A row's id is the snapshot's base plus its
 * rank's offset (the node counts of the ranks before it) plus its seq.
 *
 *   batch          varint rows, then per row: varint seq, varint parent
 *                  (0: none, else 1 + parent's rank), [varint parent seq],
 *                  varint depth, str name, totals (mpi_dirs.c)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi.h"
#include "xalloc.h"

#define ROWS_BATCH (256u << 10)

static void
put_row(const struct mpi_job *j, struct iobuf *b, const struct dirtot *t)
{
	struct dirlocal l;

	iobuf_varint(b, t->seq);
	iobuf_varint(b, t->parent ? 1 + (uint64_t)mpi_rank_of(j, t->parent) :
	    0);
	if (t->parent)
		iobuf_varint(b, t->parent->seq);
	iobuf_varint(b, (uint64_t)t->depth);
	iobuf_str(b, t->name, t->namelen);
	dirtot_get(t, &l);
	mpi_dirs_put_tot(b, &l);
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
		mpi_comm_recv(j, &more, sizeof more, 0, TAG_ROWS_REQ);
		if (!more)
			break;
		pack_rows(j, &r->dirs, &next, &b, &rows);
		mpi_comm_send_buf(j, &b, 0, TAG_ROWS);
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
	snapshot_dir_row(t, t->parent ?
	    rs->off[mpi_rank_of(rs->j, t->parent)] + t->parent->seq : 0, row);
	return 1;
}

static int
batch(struct mpi_rows *rs, char *err, size_t errlen)
{
	int more = 1;

	mpi_comm_send(rs->j, &more, sizeof more, MPI_BYTE, rs->at,
	    TAG_ROWS_REQ);
	mpi_comm_recv_buf(rs->j, &rs->in, rs->at, TAG_ROWS);
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
	row->name = mpi_comm_str(c, &rs->name, &rs->cap, &row->namelen);
	mpi_dirs_get_tot(c, &row->tot);
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
		mpi_comm_send(rs->j, &stop, sizeof stop, MPI_BYTE, i,
		    TAG_ROWS_REQ);
	iobuf_free(&rs->in);
	free(rs->off);
	free(rs->name);
	free(rs);
}
