/*
 * hardlink: see walk.h.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "walk_int.h"
#include "xalloc.h"

static size_t
slot_of(uint64_t dev, uint64_t ino, size_t cap)
{
	uint64_t h = (ino ^ (dev * 0x9e3779b97f4a7c15ull)) * 0xff51afd7ed558ccdull;

	return (size_t)(h >> 17) & (cap - 1);
}

/* The index slot of (dev, ino): its entry's, or the empty one to use. */
static uint32_t *
slot_for(const struct hltab *t, uint64_t dev, uint64_t ino)
{
	size_t i;

	for (i = slot_of(dev, ino, t->nslot); t->slot[i];
	    i = (i + 1) & (t->nslot - 1)) {
		const struct hl_ent *e = &t->e[t->slot[i] - 1];
		if (e->ino == ino && e->dev == dev)
			break;
	}
	return &t->slot[i];
}

/* Entries are dense and the index holds their positions: the table is
 * the one part of a scan that grows with the files, and a sparse table of
 * whole entries would be a third empty. */
static void
grow(struct hltab *t)
{
	t->e = xgrow(t->e, t->len, &t->cap, sizeof *t->e, 256);
	if ((t->len + 1) * 4 > t->nslot * 3) {
		free(t->slot);
		t->nslot = t->nslot ? 2 * t->nslot : 512;
		t->slot = xcalloc(t->nslot, sizeof *t->slot);
		for (size_t k = 0; k < t->len; k++)
			*slot_for(t, t->e[k].dev, t->e[k].ino) = (uint32_t)k + 1;
	}
}

static struct hl_ent *
find_or_add(struct hltab *t, uint64_t dev, uint64_t ino, int *added)
{
	uint32_t *sl;
	struct hl_ent *e;

	grow(t);
	sl = slot_for(t, dev, ino);
	if (*sl) {
		*added = 0;
		return &t->e[*sl - 1];
	}
	e = &t->e[t->len];
	memset(e, 0, sizeof *e);
	e->dev = dev;
	e->ino = ino;
	*sl = (uint32_t)++t->len;
	*added = 1;
	return e;
}

/* Is (pino, name) a smaller owner key than the entry's? The owner of an
 * inode is the smallest key of its links, whatever order threads meet
 * them in (W5). */
static int
owner_less(uint64_t pino, const char *name, size_t len, const struct hl_ent *e)
{
	size_t n = len < e->owner_namelen ? len : e->owner_namelen;
	int c;

	if (pino != e->owner_pino)
		return pino < e->owner_pino;
	c = memcmp(name, e->owner_name, n);
	if (c != 0)
		return c < 0;
	return len < e->owner_namelen;
}

/* The smallest path offered stays (topn_ent_pathcmp compares held ones
 * without building them). */
static void
keep_top(struct hl_ent *e, struct top_ent *top)
{
	if (!top->path && !top->dir)
		return;
	if ((!e->top.path && !e->top.dir) ||
	    topn_ent_pathcmp(top, &e->top) < 0) {
		topn_ent_free(&e->top);
		e->top = *top;
	} else {
		topn_ent_free(top);
	}
	memset(top, 0, sizeof *top);
}

/* Combine one link (or a set of links, from a merge) into the table. */
void
hardlink_add(struct hltab *t, uint64_t dev, uint64_t ino, uint64_t links,
    uint64_t pino, char *name, size_t namelen, const struct hl_file *f,
    struct top_ent *top)
{
	int added;
	struct hl_ent *e = find_or_add(t, dev, ino, &added);

	if (added || owner_less(pino, name, namelen, e)) {
		if (!added)
			free(e->owner_name);
		e->owner_pino = pino;
		e->owner_name = name;
		e->owner_namelen = namelen;
		e->f = *f;
	} else {
		free(name);
	}
	/* W5: the owner's key is the smallest offered: never above this one */
	assert(e->owner_pino <= pino);
	e->links += links;
	t->links += links;
	keep_top(e, top);
}

void
hardlink_note(struct hltab *t, uint64_t dev, uint64_t ino, uint64_t pino,
    struct dnode *dir, const char *name, size_t namelen,
    const struct hl_file *f, int top)
{
	struct top_ent cand = { 0 };

	if (top) {
		dnode_hold(dir);
		cand.dir = dir;
		cand.leaf = xstrndup(name, namelen);
		cand.leaflen = namelen;
	}
	hardlink_add(t, dev, ino, 1, pino, xstrndup(name, namelen), namelen, f,
	    &cand);
}

void
hardlink_merge(struct hltab *dst, struct hltab *src)
{
	/* Into an empty table: take src whole rather than copy it entry by
	 * entry, which would hold both tables at once. */
	if (dst->len == 0) {
		hardlink_free(dst);
		*dst = *src;
		memset(src, 0, sizeof *src);
		return;
	}
#ifndef NDEBUG
	uint64_t links = dst->links + src->links;
#endif
	for (size_t i = 0; i < src->len; i++) {
		struct hl_ent *e = &src->e[i];
		hardlink_add(dst, e->dev, e->ino, e->links, e->owner_pino,
		    e->owner_name, e->owner_namelen, &e->f, &e->top);
	}
	assert(dst->links == links);	/* W5: every link counted, once */
	free(src->e);
	free(src->slot);
	memset(src, 0, sizeof *src);
}

struct hl_ent *
hardlink_find(struct hltab *t, uint64_t dev, uint64_t ino)
{
	uint32_t *sl;

	if (t->nslot == 0)
		return NULL;
	sl = slot_for(t, dev, ino);
	return *sl ? &t->e[*sl - 1] : NULL;
}

void
hardlink_free(struct hltab *t)
{
	for (size_t i = 0; i < t->len; i++) {
		free(t->e[i].owner_name);
		topn_ent_free(&t->e[i].top);
	}
	free(t->e);
	free(t->slot);
	memset(t, 0, sizeof *t);
}

void
hardlink_resolve(struct hltab *t)
{
	for (size_t i = 0; i < t->len; i++)
		topn_ent_resolve(&t->e[i].top);
}
