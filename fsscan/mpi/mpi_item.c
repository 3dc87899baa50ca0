/*
 * mpi_item: directories handed from one rank to another.
 *
 * A directory item needs its ancestors: to open it (relative to the
 * nearest open one, ROOT at worst, checking each one's identity on the
 * way down, so that paths longer than PATH_MAX work), to name it in
 * messages and top-N lists, for its parent's project state, and for the
 * v_dir node its totals go to. So an item travels with its chain below
 * ROOT: per ancestor its name, identity, owner (for O_NOATIME) and the
 * (rank, seq) of its v_dir node; and its parent's project state. The
 * receiver rebuilds the chain as stand-in items that are never visited
 * (fd -1: the first visit reopens through them, and shares each fd it
 * reopens with the other items below it, walk/visit.c) and stand-in v_dir
 * nodes (dirtot stubs, M2).
 *
 * Items of one batch usually share most of their chain (half of a deque's
 * shallowest items, often siblings), so each item sends only the part of
 * its chain that differs from the previous item's, and the receiver
 * shares those stand-ins, as the sender shares the originals.
 *
 *   batch    varint items, then per item:
 *   item     varint keep (ancestors shared with the previous item's
 *            chain), varint new, new x ancestor, byte proj (1: the
 *            parent's project state follows, 0: as the previous item's
 *            parent), [state], str name, varint dev ino size blocks,
 *            zigzag mtime, varint uid gid, byte no_read, byte listable
 *   ancestor str name, varint dev ino uid node_rank node_seq
 *   state    per rule: varint 0 (no match), 1 + str project name, or
 *            2 + str the name of a public project; varint projid, byte
 *            projinherit, byte listed
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "mpi.h"
#include "xalloc.h"

#define CHAIN0 64

struct chain {
	struct dnode **v;
	size_t n, cap;
};

static void
chain_push(struct chain *c, struct dnode *d)
{
	c->v = xgrow(c->v, c->n, &c->cap, sizeof *c->v, CHAIN0);
	c->v[c->n++] = d;
}

/* d's ancestors below ROOT, ROOT's child first. */
static void
chain_of(const struct dnode *d, struct chain *c)
{
	size_t n = 0;

	for (const struct dnode *p = d->parent; p && p->parent; p = p->parent)
		n++;
	c->n = 0;
	for (size_t i = 0; i < n; i++)
		chain_push(c, NULL);
	for (struct dnode *p = d->parent; p && p->parent; p = p->parent)
		c->v[--n] = p;
}

static void
put_node(const struct mpi_job *j, struct iobuf *b, const struct dirtot *t)
{
	iobuf_varint(b, (uint64_t)(t->rank < 0 ? j->rank : t->rank));
	iobuf_varint(b, t->seq);
}

static void
put_state(struct iobuf *b, const struct project_rules *rules,
    const struct proj_dir *p)
{
	for (int i = 0; i < PROJECT_MAX_RULES; i++) {
		const char *name = p->match[i] >= 0 ?
		    project_name(rules, p->match[i]) : NULL;
		if (!name) {
			iobuf_varint(b, 0);
			continue;
		}
		/* a depth rule's name keeps whether it is public on the
		 * rank that finds it again */
		iobuf_varint(b, project_public(rules, p->match[i]) ? 2 : 1);
		iobuf_str(b, name, strlen(name));
	}
	iobuf_varint(b, p->projid);
	iobuf_byte(b, p->projinherit);
	iobuf_byte(b, p->listed);
}

void
mpi_item_pack(const struct mpi_job *j, struct walker *g,
    struct dnode **items, size_t n, struct iobuf *out)
{
	struct chain prev = { 0 }, cur = { 0 };
	const struct dnode *prev_parent = NULL;

	iobuf_varint(out, n);
	for (size_t i = 0; i < n; i++) {
		const struct dnode *d = items[i];
		size_t keep = 0;

		/* M1: ROOT is each rank's own, never handed over */
		assert(d->parent != NULL);
		chain_of(d, &cur);
		while (keep < cur.n && keep < prev.n &&
		    cur.v[keep] == prev.v[keep])
			keep++;
		iobuf_varint(out, keep);
		iobuf_varint(out, cur.n - keep);
		for (size_t k = keep; k < cur.n; k++) {
			const struct dnode *a = cur.v[k];
			iobuf_str(out, a->name, a->namelen);
			iobuf_varint(out, mpi_dev_out(j, a->dev));
			iobuf_varint(out, a->ino);
			iobuf_varint(out, a->uid);
			put_node(j, out, a->acct);
		}
		iobuf_byte(out, d->parent != prev_parent);
		if (d->parent != prev_parent)
			put_state(out, walk_rules(g), &d->parent->proj);
		prev_parent = d->parent;
		iobuf_str(out, d->name, d->namelen);
		iobuf_varint(out, mpi_dev_out(j, d->dev));
		iobuf_varint(out, d->ino);
		iobuf_varint(out, d->size);
		iobuf_varint(out, d->blocks);
		iobuf_varint(out, zigzag(d->mtime));
		iobuf_varint(out, d->uid);
		iobuf_varint(out, d->gid);
		iobuf_byte(out, d->no_read);
		iobuf_byte(out, d->listable);
		struct chain t = prev;
		prev = cur;
		cur = t;
	}
	free(prev.v);
	free(cur.v);
}

static uint8_t
get_byte(struct cursor *c)
{
	const uint8_t *p = cursor_bytes(c, 1);

	return p ? *p : 0;
}

/* The stand-in for node (rank, seq) below parent's node: the parent's
 * own when it is the same node (a directory deeper than --dirs). */
static struct dirtot *
node_for(struct walker *g, struct dirtot *parent, uint64_t rank,
    uint64_t seq, int me)
{
	int prank = parent->rank < 0 ? me : parent->rank;

	if ((uint64_t)prank == rank && parent->seq == seq)
		return parent;
	return walk_stub(g, parent, (int)rank, seq);
}

static void
get_state(struct cursor *c, struct project_rules *rules,
    struct proj_dir *p, char **buf, size_t *cap)
{
	for (int i = 0; i < PROJECT_MAX_RULES; i++) {
		uint64_t v = cursor_varint(c);

		p->match[i] = -1;
		if (v)
			p->match[i] = project_id(rules, mpi_comm_str(c, buf,
			    cap, NULL), v == 2);
	}
	p->projid = (uint32_t)cursor_varint(c);
	p->projinherit = get_byte(c);
	p->listed = get_byte(c);
}

/* A stand-in ancestor: never visited, opened only to reach its children. */
static struct dnode *
get_ancestor(const struct mpi_job *j, struct walker *g, struct cursor *c,
    struct dnode *parent, char **buf, size_t *cap)
{
	size_t len;
	const char *name = mpi_comm_str(c, buf, cap, &len);
	struct dnode *a = dnode_new(parent, name, len);
	uint64_t rank, seq;

	a->dev = mpi_dev_in(j, cursor_varint(c));
	a->ino = cursor_varint(c);
	a->uid = (uint32_t)cursor_varint(c);
	rank = cursor_varint(c);
	seq = cursor_varint(c);
	a->acct = node_for(g, parent->acct, rank, seq, j->rank);
	for (int i = 0; i < PROJECT_MAX_RULES; i++)
		a->proj.match[i] = -1;
	a->proj.map_node = project_map_child(walk_rules(g), &parent->proj,
	    a->name);
	return a;
}

static struct dnode *
get_item(const struct mpi_job *j, struct cursor *c, struct dnode *parent,
    char **buf, size_t *cap)
{
	size_t len;
	const char *name = mpi_comm_str(c, buf, cap, &len);
	struct dnode *d = dnode_new(parent, name, len);

	d->dev = mpi_dev_in(j, cursor_varint(c));
	d->ino = cursor_varint(c);
	d->size = cursor_varint(c);
	d->blocks = cursor_varint(c);
	d->mtime = unzigzag(cursor_varint(c));
	d->uid = (uint32_t)cursor_varint(c);
	d->gid = (uint32_t)cursor_varint(c);
	d->no_read = get_byte(c);
	d->listable = get_byte(c);
	return d;
}

/*
 * Rebuild the items of a batch and queue them. The stand-ins are all made
 * before any item is queued, so no walker thread reads one while it is
 * filled in; each then loses its own reference and lives as long as its
 * children.
 */
size_t
mpi_item_unpack(const struct mpi_job *j, struct walker *g, const uint8_t *p,
    size_t len)
{
	struct cursor c = { p, p + len, NULL };
	struct chain chain = { 0 }, made = { 0 }, items = { 0 };
	struct dnode *root = walk_root(g);
	struct proj_dir scratch;
	char *buf = NULL;
	size_t cap = 0, n = cursor_varint(&c);

	for (size_t i = 0; i < n && !c.err; i++) {
		size_t keep = cursor_varint(&c), nnew = cursor_varint(&c);
		struct dnode *parent;

		if (keep > chain.n)
			cursor_fail(&c, "chain longer than the last");
		chain.n = keep < chain.n ? keep : chain.n;
		for (size_t k = 0; k < nnew && !c.err; k++) {
			parent = chain.n ? chain.v[chain.n - 1] : root;
			chain_push(&chain, get_ancestor(j, g, &c, parent, &buf,
			    &cap));
			chain_push(&made, chain.v[chain.n - 1]);
		}
		parent = chain.n ? chain.v[chain.n - 1] : root;
		if (get_byte(&c)) {
			/* ROOT's own state is this rank's, and read by its
			 * threads: never overwritten. */
			get_state(&c, walk_rules(g), parent == root ?
			    &scratch : &parent->proj, &buf, &cap);
		}
		chain_push(&items, get_item(j, &c, parent, &buf, &cap));
	}
	if (c.err || c.p != c.end)
		mpi_comm_fail("directories from another rank", c.err ? c.err :
		    "trailing bytes");
	for (size_t i = 0; i < made.n; i++)
		dnode_release(g, made.v[i]);
	/* One thread's deque: the others steal runs of siblings from it. */
	pool_feed(g, items.v, items.n);
	free(chain.v);
	free(made.v);
	free(items.v);
	free(buf);
	return items.n;
}
