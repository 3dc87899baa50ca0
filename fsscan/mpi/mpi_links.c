/*
 * mpi_links: regular files with nlink > 1, counted once per (dev, ino)
 * across ranks.
 *
 * Each rank has merged its threads' tables (walk/hardlink.c): per inode, the
 * links it saw, the smallest (parent inode, name) among them and that
 * link's file, and the smallest path offered for the top-N list. The
 * inode's owner rank, chosen by hashing (dev, ino), combines every rank's
 * entry with the same rule (hardlink_add), so it knows the owning link of the
 * whole tree and the rank that saw it, and it counts the duplicates. It
 * then tells that rank, which accounts the file exactly as fsscan would
 * (its project and v_dir node are that rank's), with the smallest path
 * (M5).
 *
 *   to the owner   varint dev ino links pino, str name, byte has_path,
 *                  [str path]
 *   to the origin  varint dev ino, byte has_path, [str path]
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "mpi.h"
#include "xalloc.h"

struct links {
	const struct mpi_job *j;
	struct walk_result *r;
	struct hltab own;		/* inodes this rank owns */
	size_t next;			/* packing position */
	struct account_ref ref;		/* now and the cold-data cuts */
	char *buf;
	size_t cap;
};

static int
owner_of(const struct mpi_job *j, uint64_t dev, uint64_t ino)
{
	uint64_t h = (ino ^ (dev * 0x9e3779b97f4a7c15ull)) * 0xbf58476d1ce4e5b9ull;

	return (int)((h >> 32) % (uint64_t)j->n);
}

static void
put_path(struct iobuf *b, const char *path)
{
	iobuf_byte(b, path != NULL);
	if (path)
		iobuf_str(b, path, strlen(path));
}

static char *
get_path(struct links *l, struct cursor *c)
{
	const uint8_t *has = cursor_bytes(c, 1);

	if (!has || !*has)
		return NULL;
	return xstrdup(mpi_comm_str(c, &l->buf, &l->cap, NULL));
}

static size_t
total(const struct iobuf *out, int n)
{
	size_t t = 0;

	for (int i = 0; i < n; i++)
		t += out[i].len;
	return t;
}

static int
pack_seen(void *arg, struct iobuf *out, size_t limit)
{
	struct links *l = arg;
	struct hltab *t = &l->r->hl;

	for (; l->next < t->len && total(out, l->j->n) < limit; l->next++) {
		const struct hl_ent *e = &t->e[l->next];
		uint64_t dev = mpi_dev_out(l->j, e->dev);
		struct iobuf *b = &out[owner_of(l->j, dev, e->ino)];

		iobuf_varint(b, dev);
		iobuf_varint(b, e->ino);
		iobuf_varint(b, e->links);
		iobuf_varint(b, e->owner_pino);
		iobuf_str(b, e->owner_name, e->owner_namelen);
		put_path(b, e->top.path);
	}
	return l->next < t->len;
}

static void
unpack_seen(void *arg, int src, struct cursor *c)
{
	struct links *l = arg;
	struct hl_file f = { .rank = src };
	uint64_t dev = cursor_varint(c), ino = cursor_varint(c);
	uint64_t links = cursor_varint(c), pino = cursor_varint(c);
	size_t len;
	char *name = xstrdup(mpi_comm_str(c, &l->buf, &l->cap, &len));

	/* The name may hold no NUL, so len is its length. */
	struct top_ent top = { .path = get_path(l, c) };

	/* M5: every link of an inode comes to its one owner: this rank */
	assert(c->err || owner_of(l->j, dev, ino) == l->j->rank);

	hardlink_add(&l->own, dev, ino, links, pino, name, len, &f, &top);
}

static int
pack_owned(void *arg, struct iobuf *out, size_t limit)
{
	struct links *l = arg;
	struct hltab *t = &l->own;

	for (; l->next < t->len && total(out, l->j->n) < limit; l->next++) {
		const struct hl_ent *e = &t->e[l->next];
		struct iobuf *b = &out[e->f.rank];

		iobuf_varint(b, e->dev);
		iobuf_varint(b, e->ino);
		put_path(b, e->top.path);
	}
	return l->next < t->len;
}

static void
unpack_owned(void *arg, int src, struct cursor *c)
{
	struct links *l = arg;
	uint64_t wire = cursor_varint(c), dev = mpi_dev_in(l->j, wire);
	uint64_t ino = cursor_varint(c);
	char *path = get_path(l, c);
	struct hl_ent *e = hardlink_find(&l->r->hl, dev, ino);

	/* M5: told by the inode's owner, as that rank saw the owning link */
	assert(c->err || owner_of(l->j, wire, ino) == src);
	(void)src;
	(void)wire;
	if (!e) {
		free(path);
		cursor_fail(c, "hard link owned by a link this rank did not see");
		return;
	}
	account_file(&l->r->c, &l->ref, &e->f, NULL, path);
}

void
mpi_links(const struct mpi_job *j, struct walk_result *r,
    const struct walk_opts *o)
{
	struct links l = { .j = j, .r = r };
	struct xchg_ops seen = { pack_seen, unpack_seen, &l };
	struct xchg_ops owned = { pack_owned, unpack_owned, &l };

	account_ref_init(&l.ref, o->now, o->cold_days, o->ncold);

	mpi_xchg(j, &seen);
	r->c.hardlink_dups += l.own.links - l.own.len;
	l.next = 0;
	mpi_xchg(j, &owned);
	hardlink_free(&l.own);
	hardlink_free(&r->hl);
	free(l.buf);
}
