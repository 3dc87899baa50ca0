/*
 * projreg: the project name registry. Interns names to dense ids under
 * r->lock (P3); readers look names and source bits up without it (P4).
 */
#include <assert.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "project_int.h"
#include "xalloc.h"

/* The registry whose lock this thread holds, for P3's asserts: one per
 * thread, so no other thread's lock passes for this one's. */
static _Thread_local const struct project_rules *holding;

void
projreg_lock(struct project_rules *r)
{
	pthread_mutex_lock(&r->lock);
	holding = r;
}

void
projreg_unlock(struct project_rules *r)
{
	holding = NULL;
	pthread_mutex_unlock(&r->lock);
}

int
projreg_locked(const struct project_rules *r)
{
	return holding == r;
}

static uint64_t
hash_str(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return mix64(h);
}

/* Chunk holding id: chunk k covers ids CHUNK0 * (2^k - 1) onwards. */
static int
chunk_of(int32_t id)
{
	uint32_t q = (uint32_t)id / CHUNK0 + 1;

	return 31 - __builtin_clz(q);
}

static struct pname *
pname_at(const struct project_rules *r, int32_t id)
{
	int k = chunk_of(id);
	uint32_t off = (uint32_t)id - CHUNK0 * ((1u << k) - 1);
	struct pname *c = atomic_load_explicit(
	    &((struct project_rules *)r)->chunk[k], memory_order_acquire);

	assert(c != NULL);	/* P4: an id's chunk is there before the id */
	return &c[off];
}

static void
hash_put(int32_t *h, size_t cap, const char *name, int32_t id)
{
	size_t i = hash_str(name) & (cap - 1);

	while (h[i] >= 0)
		i = (i + 1) & (cap - 1);
	h[i] = id;
}

static void
hash_grow(struct project_rules *r)
{
	size_t cap = r->hcap ? r->hcap * 2 : 64;
	int32_t *h = xreallocarray(NULL, cap, sizeof *h);
	int32_t n = atomic_load_explicit(&r->count, memory_order_relaxed);

	for (size_t i = 0; i < cap; i++)
		h[i] = -1;
	for (int32_t id = 0; id < n; id++)
		hash_put(h, cap, pname_at(r, id)->name, id);
	free(r->hash);
	r->hash = h;
	r->hcap = cap;
}

/* The id of name, or -1. Caller holds r->lock. */
static int32_t
hash_find(const struct project_rules *r, const char *name)
{
	size_t i;

	if (r->hcap == 0)
		return -1;
	for (i = hash_str(name) & (r->hcap - 1); r->hash[i] >= 0;
	    i = (i + 1) & (r->hcap - 1))
		if (strcmp(pname_at(r, r->hash[i])->name, name) == 0)
			return r->hash[i];
	return -1;
}

/* Name -> id, adding the name when new. Caller holds r->lock. */
static int32_t
intern_locked(struct project_rules *r, const char *name)
{
	int32_t n = atomic_load_explicit(&r->count, memory_order_relaxed);
	int32_t id = hash_find(r, name);
	struct pname *p;
	int k;

	assert(projreg_locked(r));	/* P3 */
	if (id >= 0)
		return id;
	/* P1: the next id; 0 is "(none)", the first interned */
	assert(n > 0 || strcmp(name, PROJECT_NONE_NAME) == 0);
	if (n == INT32_MAX) {
		fmt_diag(stderr, "fsscan", "too many projects");
		exit(3);
	}
	k = chunk_of(n);
	if (atomic_load_explicit(&r->chunk[k], memory_order_relaxed) == NULL)
		atomic_store_explicit(&r->chunk[k],
		    xcalloc((size_t)CHUNK0 << k, sizeof(struct pname)),
		    memory_order_release);
	p = pname_at(r, n);
	assert(p->name == NULL);	/* P4: an entry is written once */
	p->name = xstrdup(name);
	atomic_init(&p->bits, 0);
	atomic_store_explicit(&r->count, n + 1, memory_order_release);
	if ((size_t)(n + 1) * 2 > r->hcap)
		hash_grow(r);		/* rehashes the new name too */
	else
		hash_put(r->hash, r->hcap, p->name, n);
	return n;
}

static void
mark_public(struct project_rules *r, int32_t id)
{
	struct pname *n = pname_at(r, id);

	if (!(atomic_load_explicit(&n->bits, memory_order_relaxed) &
	    PROJECT_PUBLIC))
		atomic_fetch_or_explicit(&n->bits, PROJECT_PUBLIC,
		    memory_order_relaxed);
}

int32_t
projreg_intern_locked(struct project_rules *r, const char *name)
{
	int32_t id = intern_locked(r, name);

	mark_public(r, id);
	return id;
}

int32_t
projreg_intern(struct project_rules *r, const char *name, int public)
{
	int32_t id;

	projreg_lock(r);
	id = intern_locked(r, name);
	if (public)
		mark_public(r, id);
	projreg_unlock(r);
	return id;
}

/* Record that rule i attributed something to p. Cheap when already set. */
void
projreg_mark(struct project_rules *r, int i, int32_t p)
{
	struct pname *n;
	uint32_t bit = 1u << i;

	if (p <= PROJECT_NONE)
		return;
	n = pname_at(r, p);
	if (!(atomic_load_explicit(&n->bits, memory_order_relaxed) & bit))
		atomic_fetch_or_explicit(&n->bits, bit, memory_order_relaxed);
}

/* An empty registry holding only id 0 == PROJECT_NONE. */
void
projreg_init(struct project_rules *r)
{
	int32_t none;

	pthread_mutex_init(&r->lock, NULL);
	for (int k = 0; k < NCHUNK; k++)
		atomic_init(&r->chunk[k], NULL);
	atomic_init(&r->count, 0);
	none = projreg_intern(r, PROJECT_NONE_NAME, 1);
	assert(none == PROJECT_NONE);	/* P1 */
	(void)none;
}

/* Frees everything r->lock guards, the memo table included. */
void
projreg_free(struct project_rules *r)
{
	int32_t n = atomic_load(&r->count);

	for (int32_t id = 0; id < n; id++)
		free(pname_at(r, id)->name);
	for (int k = 0; k < NCHUNK; k++)
		free(atomic_load(&r->chunk[k]));
	free(r->hash);
	free(r->otab);
	pthread_mutex_destroy(&r->lock);
}

int32_t
project_id(struct project_rules *r, const char *name, int public)
{
	return projreg_intern(r, name, public);
}

int
project_public(const struct project_rules *r, int32_t id)
{
	if (id == PROJECT_NONE)
		return 1;
	if (id < 0 || id >= project_count(r))
		return 0;
	return (atomic_load_explicit(&pname_at(r, id)->bits,
	    memory_order_relaxed) & PROJECT_PUBLIC) != 0;
}

uint32_t
project_source_bits(const struct project_rules *r, int32_t id)
{
	if (id <= PROJECT_NONE || id >= project_count(r))
		return 0;
	return atomic_load_explicit(&pname_at(r, id)->bits,
	    memory_order_relaxed);
}

void
project_add_sources(struct project_rules *r, int32_t id, uint32_t bits)
{
	for (int i = 0; i < r->nrules; i++)
		if (bits & (1u << i))
			projreg_mark(r, i, id);
	if ((bits & PROJECT_PUBLIC) && id > PROJECT_NONE)
		mark_public(r, id);
}

int32_t
project_count(const struct project_rules *r)
{
	return atomic_load_explicit(&((struct project_rules *)r)->count,
	    memory_order_acquire);
}

const char *
project_name(const struct project_rules *r, int32_t id)
{
	const char *name;

	if (id < 0 || id >= project_count(r))
		return NULL;
	name = pname_at(r, id)->name;
	assert(name != NULL);	/* P4: stored before count says so */
	return name;
}

/* Whether an earlier rule j < i with bit set has the same spec:
 * "--project group --project group" reports group once. */
static int
spec_seen(const struct project_rules *r, uint32_t bits, int i)
{
	for (int j = 0; j < i; j++)
		if ((bits & (1u << j)) &&
		    strcmp(r->rule[j].spec, r->rule[i].spec) == 0)
			return 1;
	return 0;
}

void
project_sources(const struct project_rules *r, int32_t id, char *buf,
    size_t len)
{
	size_t used = 0;
	uint32_t bits;

	if (len == 0)
		return;
	buf[0] = '\0';
	if (id == PROJECT_NONE) {
		snprintf(buf, len, "none");
		return;
	}
	if (id < 0 || id >= project_count(r))
		return;
	bits = atomic_load_explicit(&pname_at(r, id)->bits,
	    memory_order_relaxed);
	for (int i = 0; i < r->nrules; i++) {
		if (!(bits & (1u << i)) || spec_seen(r, bits, i))
			continue;
		int n = snprintf(buf + used, len - used, "%s%s",
		    used ? "," : "", r->rule[i].spec);
		if (n < 0 || (size_t)n >= len - used)
			return;		/* truncated, still terminated */
		used += (size_t)n;
	}
}
