/*
 * strtab: strings by index, found by an open-addressing hash (strtab.h).
 */
#include "strtab.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

static uint64_t
hash(const char *s, size_t len)
{
	uint64_t h = 1469598103934665603ull;	/* FNV-1a */

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	return h;
}

static int
same(const char *x, const char *s, size_t len)
{
	return strlen(x) == len && memcmp(x, s, len) == 0;
}

static void
grow(struct strtab *t)
{
	size_t nslot = t->nslot ? 2 * t->nslot : 1024;

	free(t->slot);
	t->slot = xcalloc(nslot, sizeof *t->slot);
	t->nslot = nslot;
	for (size_t i = 0; i < t->n; i++) {
		size_t h = hash(t->name[i], strlen(t->name[i])) & (nslot - 1);
		while (t->slot[h])
			h = (h + 1) & (nslot - 1);
		t->slot[h] = i + 1;
	}
}

/* The slot holding s, or the empty one where it would go. */
static size_t
slot_of(const struct strtab *t, const char *s, size_t len)
{
	size_t h;

	for (h = hash(s, len) & (t->nslot - 1); t->slot[h];
	    h = (h + 1) & (t->nslot - 1))
		if (same(t->name[t->slot[h] - 1], s, len))
			break;
	return h;
}

size_t
strtab_find(const struct strtab *t, const char *s, size_t len)
{
	size_t h;

	if (t->nslot == 0)
		return STRTAB_NONE;
	h = slot_of(t, s, len);
	return t->slot[h] ? t->slot[h] - 1 : STRTAB_NONE;
}

size_t
strtab_add(struct strtab *t, const char *s, size_t len, int *added)
{
	size_t h;

	if (2 * (t->n + 1) > t->nslot)
		grow(t);
	h = slot_of(t, s, len);
	if (added)
		*added = t->slot[h] == 0;
	if (t->slot[h])
		return t->slot[h] - 1;
	t->name = xgrow(t->name, t->n, &t->cap, sizeof *t->name, 64);
	t->name[t->n] = xstrndup(s, len);
	t->slot[h] = t->n + 1;
	return t->n++;
}

char **
strtab_take(struct strtab *t, size_t *n)
{
	char **name = t->name;

	*n = t->n;
	free(t->slot);
	memset(t, 0, sizeof *t);
	return name;
}

void
strtab_free(struct strtab *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->name[i]);
	free(t->name);
	free(t->slot);
	memset(t, 0, sizeof *t);
}
