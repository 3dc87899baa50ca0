/*
 * hardlink: see hardlink.h.
 */
#include "hardlink.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

static size_t
slot_of(uint64_t dev, uint64_t ino, size_t cap)
{
	uint64_t h = (ino ^ (dev * 0x9e3779b97f4a7c15ull)) * 0xff51afd7ed558ccdull;

	return (size_t)(h >> 17) & (cap - 1);
}

static struct hl_ent *
find_or_add(struct hltab *t, uint64_t dev, uint64_t ino, int *added)
{
	size_t i;

	if ((t->len + 1) * 4 > t->cap * 3) {
		struct hltab old = *t;
		t->cap = old.cap ? old.cap * 2 : 256;
		t->e = xcalloc(t->cap, sizeof *t->e);
		t->len = 0;
		for (size_t k = 0; k < old.cap; k++) {
			if (!old.e[k].links)
				continue;
			int a;
			*find_or_add(t, old.e[k].dev, old.e[k].ino, &a) = old.e[k];
		}
		free(old.e);
	}
	for (i = slot_of(dev, ino, t->cap); t->e[i].links;
	    i = (i + 1) & (t->cap - 1))
		if (t->e[i].ino == ino && t->e[i].dev == dev) {
			*added = 0;
			return &t->e[i];
		}
	t->e[i].dev = dev;
	t->e[i].ino = ino;
	t->len++;
	*added = 1;
	return &t->e[i];
}

/* Is (pino, name) a smaller owner key than the entry's? The owner of an
 * inode is the smallest key of its links, whatever order threads meet
 * them in (invariant 2). */
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

static void
keep_path(struct hl_ent *e, char *path)
{
	if (!path)
		return;
	if (!e->path || strcmp(path, e->path) < 0) {
		free(e->path);
		e->path = path;
	} else {
		free(path);
	}
}

/* Combine one link (or a set of links, from a merge) into the table. */
static void
note(struct hltab *t, uint64_t dev, uint64_t ino, uint64_t links,
    uint64_t pino, char *name, size_t namelen, const struct hl_file *f,
    char *path)
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
	e->links += links;
	t->links += links;
	keep_path(e, path);
}

void
hl_note(struct hltab *t, uint64_t dev, uint64_t ino, uint64_t pino,
    const char *name, size_t namelen, const struct hl_file *f, char *path)
{
	note(t, dev, ino, 1, pino, xstrndup(name, namelen), namelen, f, path);
}

void
hl_merge(struct hltab *dst, struct hltab *src)
{
	for (size_t i = 0; i < src->cap; i++) {
		struct hl_ent *e = &src->e[i];
		if (e->links)
			note(dst, e->dev, e->ino, e->links, e->owner_pino,
			    e->owner_name, e->owner_namelen, &e->f, e->path);
	}
	free(src->e);
	memset(src, 0, sizeof *src);
}

void
hl_free(struct hltab *t)
{
	for (size_t i = 0; i < t->cap; i++) {
		if (t->e[i].links) {
			free(t->e[i].owner_name);
			free(t->e[i].path);
		}
	}
	free(t->e);
	memset(t, 0, sizeof *t);
}
