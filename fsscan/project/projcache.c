/*
 * projcache: rules whose result depends on a number (projid, gidmap,
 * group, user). Results are memoised twice: once for all threads in
 * r->otab under r->lock, so NSS is asked once per id, and again in each
 * walker thread's project_cache, so the per-file hot path takes no lock.
 */
#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idname.h"
#include "project_int.h"
#include "xalloc.h"

#define PC_EMPTY	INT32_MIN	/* free per-thread cache slot */
#define PC_CAP0		64

/* Shared memo ---------------------------------------------------------- */

static void
otab_grow(struct project_rules *r)
{
	size_t cap = r->ocap ? r->ocap * 2 : 64;
	struct okey *t = xcalloc(cap, sizeof *t);
	size_t i;

	for (size_t j = 0; j < r->ocap; j++) {
		if (!r->otab[j].used)
			continue;
		for (i = mix64(r->otab[j].key) & (cap - 1); t[i].used;
		    i = (i + 1) & (cap - 1))
			;
		t[i] = r->otab[j];
	}
	free(r->otab);
	r->otab = t;
	r->ocap = cap;
}

/* Slot for key, empty if absent; grows first so an insert always fits.
 * Caller holds r->lock. */
static struct okey *
otab_slot(struct project_rules *r, uint64_t key)
{
	size_t i;

	assert(projreg_locked(r));	/* P3 */
	if ((r->olen + 1) * 2 > r->ocap)
		otab_grow(r);
	for (i = mix64(key) & (r->ocap - 1); r->otab[i].used;
	    i = (i + 1) & (r->ocap - 1))
		if (r->otab[i].key == key)
			break;
	return &r->otab[i];
}

static const struct idname *
idname_find(const struct idname *v, size_t n, uint32_t id)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid].id == id)
			return &v[mid];
		if (v[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* The project name rule i gives numeric id, or NULL for no match.
 * May be slow (NSS), so it runs without the lock. A projid, group or user
 * named "(none)" goes by its number: that name is PROJECT_NONE's. */
static char *
rule_name(const struct project_rules *r, int i, uint32_t id)
{
	const struct rule *ru = &r->rule[i];
	const struct idname *in;
	char dec[16], *s = NULL;

	switch (ru->kind) {
	case R_PROJID:
		in = idname_find(r->projnames, r->nprojnames, id);
		if (in && strcmp(in->name, PROJECT_NONE_NAME) != 0)
			return xstrdup(in->name);
		break;
	case R_GIDMAP:
		in = idname_find(ru->gids, ru->ngids, id);
		return in ? xstrdup(in->name) : NULL;
	case R_GROUP:
	case R_USER:
		s = idname_of(ru->kind == R_USER ? ID_USER : ID_GROUP, id);
		if (s && strcmp(s, PROJECT_NONE_NAME) != 0)
			return s;
		free(s);
		break;
	default:
		return NULL;
	}
	snprintf(dec, sizeof dec, "%" PRIu32, id);
	return xstrdup(dec);
}

/* Project of numeric id under rule i (-1: no match), memoised for all
 * threads. Does not mark: callers mark when they use the result. */
int32_t
projcache_resolve(struct project_rules *r, int i, uint32_t id)
{
	uint64_t key = (uint64_t)i << 32 | id;
	struct okey *s;
	char *name;
	int32_t p;
	int used;

	projreg_lock(r);
	s = otab_slot(r, key);
	used = s->used;
	p = s->proj;
	projreg_unlock(r);
	if (used)
		return p;

	name = rule_name(r, i, id);
	projreg_lock(r);
	s = otab_slot(r, key);	/* another thread may have added it */
	if (!s->used) {
		s->key = key;
		s->proj = name ? projreg_intern_locked(r, name) : -1;
		s->used = 1;
		r->olen++;
	}
	/* P6: the memo answers for (rule, id) from now on, the first
	 * answer stored, whichever thread stored it */
	assert(s->used && s->key == key);
	p = s->proj;
	projreg_unlock(r);
	free(name);
	return p;
}

size_t
project_projids(const struct project_rules *r, uint32_t **ids,
    int32_t **projs)
{
	size_t n = 0;

	*ids = xcalloc(r->olen + 1, sizeof **ids);
	*projs = xcalloc(r->olen + 1, sizeof **projs);
	for (size_t j = 0; j < r->ocap; j++) {
		const struct okey *k = &r->otab[j];
		uint32_t id = (uint32_t)k->key;

		if (!k->used || k->proj < 0 || id == 0 ||
		    r->rule[k->key >> 32].kind != R_PROJID)
			continue;
		(*ids)[n] = id;
		(*projs)[n++] = k->proj;
	}
	return n;
}

void
project_projid_note(struct project_rules *r, uint32_t id)
{
	for (int i = 0; i < r->nrules; i++)
		if (r->rule[i].kind == R_PROJID)
			(void)projcache_resolve(r, i, id);
}

/* Per-thread cache ------------------------------------------------------ */

/* One open-addressing sub-table of cap slots per owner rule, so gid 100
 * under gidmap and under group never collide. len counts all sub-tables,
 * which keeps each one at most half full. */
static void
cache_grow(const struct project_rules *r, struct project_cache *c)
{
	size_t cap = c->cap ? c->cap * 2 : PC_CAP0;
	size_t nsub = (size_t)r->nowner;
	size_t n = xmul(nsub, cap);
	struct pc_ent *e = xreallocarray(NULL, n, sizeof *e);

	for (size_t j = 0; j < n; j++)
		e[j].proj = PC_EMPTY;
	for (size_t k = 0; k < nsub; k++) {
		struct pc_ent *from = c->e + k * c->cap, *to = e + k * cap;
		for (size_t j = 0; j < c->cap; j++) {
			size_t h;
			if (from[j].proj == PC_EMPTY)
				continue;
			for (h = mix64(from[j].key) & (cap - 1);
			    to[h].proj != PC_EMPTY; h = (h + 1) & (cap - 1))
				;
			to[h] = from[j];
		}
	}
	free(c->e);
	c->e = e;
	c->cap = cap;
}

static struct pc_ent *
cache_slot(struct project_cache *c, int k, uint32_t id)
{
	struct pc_ent *t = c->e + (size_t)k * c->cap;
	size_t h;

	for (h = mix64(id) & (c->cap - 1); t[h].proj != PC_EMPTY;
	    h = (h + 1) & (c->cap - 1))
		if (t[h].key == id)
			break;
	return &t[h];
}

/* Project of numeric id under owner rule i, through thread cache c.
 * Marks the rule on a miss, the first time this thread uses the result. */
int32_t
projcache_get(struct project_rules *r, struct project_cache *c, int i,
    uint32_t id)
{
	int k = r->rule[i].owneri;
	struct pc_ent *s;
	int32_t p;

	if (c->cap == 0)
		cache_grow(r, c);
	s = cache_slot(c, k, id);
	if (s->proj != PC_EMPTY)
		return s->proj;
	p = projcache_resolve(r, i, id);
	projreg_mark(r, i, p);	/* P5: before the first entry it names */
	if ((c->len + 1) * 2 > c->cap) {
		cache_grow(r, c);
		s = cache_slot(c, k, id);
	}
	s->key = id;
	s->proj = p;
	c->len++;
	return p;
}

void
project_cache_free(struct project_cache *c)
{
	free(c->e);
	c->e = NULL;
	c->cap = c->len = 0;
}
