/*
 * project: the attribution rule chain and the project name registry.
 *
 * Semantics are in project.h. How it is built:
 *
 * - The registry interns names to dense ids (0 is "(none)") under one
 *   mutex. Entries live in chunks that never move (chunk k holds
 *   CHUNK0 << k entries), so a walker thread can read an entry's name and
 *   source bits without the lock while another thread appends.
 * - Source bits ("which rules attributed entries to this name") are set
 *   when a rule's result is actually used: for directory rules the first
 *   time a thread sees the bit missing (a shared read, rarely a write),
 *   for owner rules when a thread's cache misses.
 * - Rule results keyed by a number (projid -> name, gid -> group name,
 *   uid -> user name, gid -> gidmap project) are memoised in one shared
 *   table under the mutex, so NSS is asked once per id, not once per id
 *   per thread. Files reach it only through the per-thread cache;
 *   directories take the mutex when their own owner rule is reached.
 * - map rules share one component trie. A directory walks one level
 *   down from its parent's node with its own name, so no path is ever
 *   built. Each node holds one value per map rule; a directory's match
 *   is the value at its node, or else its parent's match, which is the
 *   longest matching prefix.
 * - Names of map and gidmap projects are interned on first use, so ids
 *   stay dense even with site-wide maps that mostly match nothing here.
 */
#include <sys/ioctl.h>
#include <sys/types.h>
#include <linux/fs.h>

#include <errno.h>
#include <grp.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "project.h"
#include "xalloc.h"

#define PROJID_FILE	"/etc/projid"
#define PROJID_ENV	"IOCENSUS_PROJID_FILE"
#define NONE_NAME	"(none)"

#define CHUNK0		64
#define NCHUNK		26	/* CHUNK0 * (2^26 - 1) > INT32_MAX ids */
#define ID_LAZY		(-2)	/* map value not interned yet */
#define PC_EMPTY	INT32_MIN	/* free per-thread cache slot */
#define PC_CAP0		64

enum rule_kind { R_PROJID, R_DEPTH, R_MAP, R_GIDMAP, R_GROUP, R_USER };

/* One map rule's value at a trie node. */
struct mval {
	char *name;		/* NULL: no prefix of this rule ends here */
	_Atomic int32_t id;	/* interned id, or ID_LAZY */
	int line;		/* for duplicate diagnostics */
	int len;		/* prefix components (root: ancestors compete) */
};

struct mnode {
	char *name;
	struct mnode **kids;	/* sorted by strcmp of name */
	size_t nkids, capkids;
	struct mval *val;	/* one per map rule, or NULL */
};

struct idname {
	uint32_t id;
	int line;
	char *name;
};

struct rule {
	enum rule_kind kind;
	char *spec;		/* as reported by project_sources */
	int depth;		/* R_DEPTH */
	int mapi;		/* R_MAP: index into mnode.val */
	int owneri;		/* owner rules: per-thread cache sub-table */
	struct idname *gids;	/* R_GIDMAP, sorted by gid */
	size_t ngids, capgids;
};

struct pname {
	char *name;
	_Atomic uint32_t bits;	/* bit i: rule i attributed entries */
};

struct okey {
	uint64_t key;		/* rule index << 32 | numeric id */
	int32_t proj;		/* -1: the rule does not match */
	int used;
};

struct project_rules {
	struct rule rule[PROJECT_MAX_RULES];
	int nrules, nmap, nowner, has_projid;
	struct mnode *trie;		/* NULL without map rules */
	struct idname *projnames;	/* /etc/projid, sorted by id */
	size_t nprojnames;

	pthread_mutex_t lock;		/* guards the fields below */
	_Atomic(struct pname *) chunk[NCHUNK];	/* readable without it */
	_Atomic int32_t count;
	int32_t *hash;			/* name -> id; -1 empty */
	size_t hcap;
	struct okey *otab;		/* memoised numeric rule results */
	size_t ocap, olen;
};

/* Error reporting ------------------------------------------------------ */

static void
seterr(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err == NULL || errlen == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/* Hashing --------------------------------------------------------------- */

static uint64_t
mix64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

static uint64_t
hash_str(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return mix64(h);
}

/* Registry -------------------------------------------------------------- */

static struct pname *
pname_at(const struct project_rules *r, int32_t id)
{
	uint32_t q = (uint32_t)id / CHUNK0 + 1;
	int k = 31 - __builtin_clz(q);
	uint32_t off = (uint32_t)id - CHUNK0 * ((1u << k) - 1);
	struct pname *c = atomic_load_explicit(
	    &((struct project_rules *)r)->chunk[k], memory_order_acquire);

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
	int32_t *h = xmalloc(cap * sizeof *h);
	int32_t n = atomic_load_explicit(&r->count, memory_order_relaxed);

	for (size_t i = 0; i < cap; i++)
		h[i] = -1;
	for (int32_t id = 0; id < n; id++)
		hash_put(h, cap, pname_at(r, id)->name, id);
	free(r->hash);
	r->hash = h;
	r->hcap = cap;
}

/* Name -> id, adding the name when new. Caller holds r->lock. */
static int32_t
intern_locked(struct project_rules *r, const char *name)
{
	int32_t n = atomic_load_explicit(&r->count, memory_order_relaxed);
	size_t i;

	if (r->hcap) {
		for (i = hash_str(name) & (r->hcap - 1); r->hash[i] >= 0;
		    i = (i + 1) & (r->hcap - 1))
			if (strcmp(pname_at(r, r->hash[i])->name, name) == 0)
				return r->hash[i];
	}
	if (n == INT32_MAX) {
		fprintf(stderr, "fsscan: too many projects\n");
		exit(3);
	}
	uint32_t q = (uint32_t)n / CHUNK0 + 1;
	int k = 31 - __builtin_clz(q);
	if (atomic_load_explicit(&r->chunk[k], memory_order_relaxed) == NULL)
		atomic_store_explicit(&r->chunk[k],
		    xcalloc((size_t)CHUNK0 << k, sizeof(struct pname)),
		    memory_order_release);
	struct pname *p = pname_at(r, n);
	p->name = xstrdup(name);
	atomic_init(&p->bits, 0);
	atomic_store_explicit(&r->count, n + 1, memory_order_release);
	if ((size_t)(n + 1) * 2 > r->hcap)
		hash_grow(r);		/* rehashes the new name too */
	else
		hash_put(r->hash, r->hcap, p->name, n);
	return n;
}

static int32_t
intern(struct project_rules *r, const char *name)
{
	int32_t id;

	pthread_mutex_lock(&r->lock);
	id = intern_locked(r, name);
	pthread_mutex_unlock(&r->lock);
	return id;
}

/* Record that rule i attributed something to p. Cheap when already set. */
static void
mark(struct project_rules *r, int i, int32_t p)
{
	struct pname *n;
	uint32_t bit = 1u << i;

	if (p <= PROJECT_NONE)
		return;
	n = pname_at(r, p);
	if (!(atomic_load_explicit(&n->bits, memory_order_relaxed) & bit))
		atomic_fetch_or_explicit(&n->bits, bit, memory_order_relaxed);
}

/* Numeric rule results ------------------------------------------------- */

/* Slot for key, empty if absent; grows first so an insert always fits.
 * Caller holds r->lock. */
static struct okey *
otab_slot(struct project_rules *r, uint64_t key)
{
	size_t i;

	if ((r->olen + 1) * 2 > r->ocap) {
		size_t cap = r->ocap ? r->ocap * 2 : 64;
		struct okey *t = xcalloc(cap, sizeof *t);

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

/* The user or group name of id, or NULL when unknown. */
static char *
owner_name(enum rule_kind kind, uint32_t id)
{
	size_t cap = 1024;
	char *buf = NULL, *res = NULL;
	int e;

	for (;;) {
		buf = xrealloc(buf, cap);
		if (kind == R_USER) {
			struct passwd pw, *pp = NULL;
			e = getpwuid_r((uid_t)id, &pw, buf, cap, &pp);
			if (e == 0 && pp)
				res = xstrdup(pp->pw_name);
		} else {
			struct group gr, *gp = NULL;
			e = getgrgid_r((gid_t)id, &gr, buf, cap, &gp);
			if (e == 0 && gp)
				res = xstrdup(gp->gr_name);
		}
		if (e != ERANGE || cap >= (1u << 24))
			break;
		cap *= 2;
	}
	free(buf);
	return res;
}

/* The project name rule i gives numeric id, or NULL for no match.
 * May be slow (NSS), so it runs without the lock. */
static char *
rule_name(const struct project_rules *r, int i, uint32_t id)
{
	const struct rule *ru = &r->rule[i];
	const struct idname *in;
	char dec[16], *s = NULL;

	switch (ru->kind) {
	case R_PROJID:
		in = idname_find(r->projnames, r->nprojnames, id);
		if (in)
			return xstrdup(in->name);
		break;
	case R_GIDMAP:
		in = idname_find(ru->gids, ru->ngids, id);
		return in ? xstrdup(in->name) : NULL;
	case R_GROUP:
	case R_USER:
		s = owner_name(ru->kind, id);
		if (s)
			return s;
		break;
	default:
		return NULL;
	}
	snprintf(dec, sizeof dec, "%" PRIu32, id);
	return xstrdup(dec);
}

/* Project of numeric id under rule i (-1: no match), memoised for all
 * threads. Does not mark: callers mark when they use the result. */
static int32_t
resolve(struct project_rules *r, int i, uint32_t id)
{
	uint64_t key = (uint64_t)i << 32 | id;
	struct okey *s;
	char *name;
	int32_t p;
	int used;

	pthread_mutex_lock(&r->lock);
	s = otab_slot(r, key);
	used = s->used;
	p = s->proj;
	pthread_mutex_unlock(&r->lock);
	if (used)
		return p;

	name = rule_name(r, i, id);
	pthread_mutex_lock(&r->lock);
	s = otab_slot(r, key);	/* another thread may have added it */
	if (!s->used) {
		s->key = key;
		s->proj = name ? intern_locked(r, name) : -1;
		s->used = 1;
		r->olen++;
	}
	p = s->proj;
	pthread_mutex_unlock(&r->lock);
	free(name);
	return p;
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
	struct pc_ent *e = xmalloc(nsub * cap * sizeof *e);

	for (size_t j = 0; j < nsub * cap; j++)
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

static int32_t
cache_get(struct project_rules *r, struct project_cache *c, int i,
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
	p = resolve(r, i, id);
	mark(r, i, p);
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

/* Prefix trie ----------------------------------------------------------- */

static struct mnode *
mnode_new(const char *name)
{
	struct mnode *n = xcalloc(1, sizeof *n);

	n->name = xstrdup(name);
	return n;
}

static void
mnode_free(struct mnode *n, int nmap)
{
	if (n == NULL)
		return;
	for (size_t i = 0; i < n->nkids; i++)
		mnode_free(n->kids[i], nmap);
	if (n->val)
		for (int i = 0; i < nmap; i++)
			free(n->val[i].name);
	free(n->val);
	free(n->kids);
	free(n->name);
	free(n);
}

/* Index of the first kid whose name is >= name. */
static size_t
mnode_lower(const struct mnode *n, const char *name)
{
	size_t lo = 0, hi = n->nkids;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(n->kids[mid]->name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static const struct mnode *
mnode_child(const struct mnode *n, const char *name)
{
	size_t i = mnode_lower(n, name);

	if (i < n->nkids && strcmp(n->kids[i]->name, name) == 0)
		return n->kids[i];
	return NULL;
}

static struct mnode *
mnode_add(struct mnode *n, const char *name)
{
	size_t i = mnode_lower(n, name);

	if (i < n->nkids && strcmp(n->kids[i]->name, name) == 0)
		return n->kids[i];
	if (n->nkids == n->capkids) {
		n->capkids = n->capkids ? n->capkids * 2 : 4;
		n->kids = xrealloc(n->kids, n->capkids * sizeof *n->kids);
	}
	memmove(n->kids + i + 1, n->kids + i,
	    (n->nkids - i) * sizeof *n->kids);
	n->kids[i] = mnode_new(name);
	n->nkids++;
	return n->kids[i];
}

/* The interned id of map rule mi's value at node n, or -1. */
static int32_t
mnode_id(struct project_rules *r, const struct mnode *n, int mi)
{
	struct mval *v;
	int32_t id;

	if (n == NULL || n->val == NULL || n->val[mi].name == NULL)
		return -1;
	v = &n->val[mi];
	id = atomic_load_explicit(&v->id, memory_order_acquire);
	if (id != ID_LAZY)
		return id;
	pthread_mutex_lock(&r->lock);
	id = atomic_load_explicit(&v->id, memory_order_relaxed);
	if (id == ID_LAZY) {
		id = intern_locked(r, v->name);
		atomic_store_explicit(&v->id, id, memory_order_release);
	}
	pthread_mutex_unlock(&r->lock);
	return id;
}

/* Parsing --------------------------------------------------------------- */

struct comps {
	char **v;
	size_t n, cap;
};

/* Split path (modified in place) into components, dropping empty and "."
 * ones. ".." pops when allowed, else fails. */
static int
split_path(char *path, struct comps *c, int dotdot_ok)
{
	char *save = NULL, *t;

	c->n = 0;
	for (t = strtok_r(path, "/", &save); t; t = strtok_r(NULL, "/", &save)) {
		if (strcmp(t, ".") == 0)
			continue;
		if (strcmp(t, "..") == 0) {
			if (!dotdot_ok)
				return -1;
			if (c->n)
				c->n--;
			continue;
		}
		if (c->n == c->cap) {
			c->cap = c->cap ? c->cap * 2 : 16;
			c->v = xrealloc(c->v, c->cap * sizeof *c->v);
		}
		c->v[c->n++] = t;
	}
	return 0;
}

/* Split line into blank-separated fields; '#' at the start of a field
 * starts a comment. Returns the number of fields, up to max + 1. */
static int
split_fields(char *line, char **f, int max)
{
	int n = 0;
	char *p = line;

	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
			p++;
		if (*p == '\0' || *p == '#')
			return n;
		if (n == max)
			return max + 1;
		f[n++] = p;
		while (*p && *p != ' ' && *p != '\t' && *p != '\r' &&
		    *p != '\n')
			p++;
		if (*p)
			*p++ = '\0';
	}
}

static int
parse_u32(const char *s, uint32_t *out)
{
	uint64_t v = 0;

	if (*s == '\0')
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		v = v * 10 + (uint64_t)(*s - '0');
		if (v > UINT32_MAX)
			return -1;
	}
	*out = (uint32_t)v;
	return 0;
}

static int
idname_cmp(const void *a, const void *b)
{
	const struct idname *x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->line - y->line;
}

static void
idnames_free(struct idname *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].name);
	free(v);
}

struct parse {
	struct project_rules *r;
	struct comps root;	/* components of root_abs */
	struct comps pc;	/* scratch */
	char *err;
	size_t errlen;
};

/* Attach a map value to node n for map rule mi. */
static int
map_set(struct parse *ps, const struct rule *ru, struct mnode *n, int len,
    const char *proj, int line)
{
	struct mval *v;

	if (n->val == NULL) {
		n->val = xcalloc((size_t)ps->r->nmap, sizeof *n->val);
		for (int i = 0; i < ps->r->nmap; i++)
			atomic_init(&n->val[i].id, ID_LAZY);
	}
	v = &n->val[ru->mapi];
	if (v->name && v->len == len) {
		seterr(ps->err, ps->errlen,
		    "%s line %d: duplicate PATH-PREFIX (first on line %d)",
		    ru->spec, line, v->line);
		return -1;
	}
	if (v->name && v->len > len)	/* a longer ancestor of ROOT won */
		return 0;
	free(v->name);
	v->name = xstrdup(proj);
	v->line = line;
	v->len = len;
	return 0;
}

/* One "PATH-PREFIX PROJECT" line of map rule ru. */
static int
map_line(struct parse *ps, const struct rule *ru, char *prefix,
    const char *proj, int line)
{
	struct comps *pc = &ps->pc, *rc = &ps->root;
	struct mnode *n = ps->r->trie;
	size_t skip = 0, j;
	int absolute = prefix[0] == '/';

	if (split_path(prefix, pc, 0) < 0) {
		seterr(ps->err, ps->errlen,
		    "%s line %d: '..' is not allowed in PATH-PREFIX", ru->spec,
		    line);
		return -1;
	}
	if (absolute) {
		/* Compare with ROOT; a prefix elsewhere can never match. */
		size_t common = pc->n < rc->n ? pc->n : rc->n;
		for (j = 0; j < common; j++)
			if (strcmp(pc->v[j], rc->v[j]) != 0)
				return 0;
		if (pc->n <= rc->n)	/* ROOT or an ancestor: all of it */
			return map_set(ps, ru, n, (int)pc->n, proj, line);
		skip = rc->n;
	}
	for (j = skip; j < pc->n; j++)
		n = mnode_add(n, pc->v[j]);
	return map_set(ps, ru, n, (int)(rc->n + pc->n - skip), proj, line);
}

/* Read FILE line by line, calling fn on the fields of each non-blank
 * line; fields must number exactly two. */
typedef int (*line_fn)(struct parse *, const struct rule *, char *,
    const char *, int);

static int
read_pairs(struct parse *ps, const struct rule *ru, const char *file,
    const char *expect, line_fn fn)
{
	FILE *fp = fopen(file, "r");
	char *buf = NULL, *f[2];
	size_t cap = 0;
	int line = 0, rc = 0;

	if (fp == NULL) {
		seterr(ps->err, ps->errlen, "%s: cannot open %s: %s", ru->spec,
		    file, strerror(errno));
		return -1;
	}
	while (rc == 0 && getline(&buf, &cap, fp) >= 0) {
		int n = split_fields(buf, f, 2);
		line++;
		if (n == 0)
			continue;
		if (n != 2) {
			seterr(ps->err, ps->errlen, "%s line %d: expected '%s'",
			    ru->spec, line, expect);
			rc = -1;
			break;
		}
		rc = fn(ps, ru, f[0], f[1], line);
	}
	if (rc == 0 && ferror(fp)) {
		seterr(ps->err, ps->errlen, "%s: reading %s: %s", ru->spec,
		    file, strerror(errno));
		rc = -1;
	}
	free(buf);
	fclose(fp);
	return rc;
}

static int
gidmap_line(struct parse *ps, const struct rule *cru, char *gid,
    const char *proj, int line)
{
	struct rule *ru = (struct rule *)cru;
	uint32_t g;

	if (parse_u32(gid, &g) < 0) {
		seterr(ps->err, ps->errlen,
		    "%s line %d: bad GID '%s' (expected a decimal number)",
		    ru->spec, line, gid);
		return -1;
	}
	if (ru->ngids == ru->capgids) {
		ru->capgids = ru->capgids ? ru->capgids * 2 : 16;
		ru->gids = xrealloc(ru->gids, ru->capgids * sizeof *ru->gids);
	}
	ru->gids[ru->ngids++] = (struct idname){ g, line, xstrdup(proj) };
	return 0;
}

static int
gidmap_finish(struct parse *ps, struct rule *ru)
{
	qsort(ru->gids, ru->ngids, sizeof *ru->gids, idname_cmp);
	for (size_t i = 1; i < ru->ngids; i++)
		if (ru->gids[i].id == ru->gids[i - 1].id) {
			seterr(ps->err, ps->errlen,
			    "%s line %d: duplicate GID %" PRIu32
			    " (first on line %d)", ru->spec, ru->gids[i].line,
			    ru->gids[i].id, ru->gids[i - 1].line);
			return -1;
		}
	return 0;
}

/* Load project names, "name:id" per line, '#' comments. A missing
 * /etc/projid is fine; a missing IOCENSUS_PROJID_FILE is an error. */
static int
load_projid(struct parse *ps)
{
	struct project_rules *r = ps->r;
	const char *file = getenv(PROJID_ENV);
	int explicit = file && *file;
	char *buf = NULL;
	size_t cap = 0, alloc = 0;
	int line = 0, rc = 0;
	FILE *fp;

	if (!explicit)
		file = PROJID_FILE;
	fp = fopen(file, "r");
	if (fp == NULL) {
		if (errno == ENOENT && !explicit)
			return 0;
		seterr(ps->err, ps->errlen, "projid: cannot open %s: %s", file,
		    strerror(errno));
		return -1;
	}
	while (getline(&buf, &cap, fp) >= 0) {
		char *f[1], *colon;
		uint32_t id;

		line++;
		int n = split_fields(buf, f, 1);
		if (n == 0)
			continue;
		colon = n == 1 ? strchr(f[0], ':') : NULL;
		if (colon == NULL || colon == f[0] ||
		    parse_u32(colon + 1, &id) < 0) {
			seterr(ps->err, ps->errlen,
			    "projid: %s line %d: expected 'NAME:ID'", file,
			    line);
			rc = -1;
			break;
		}
		*colon = '\0';
		if (r->nprojnames == alloc) {
			alloc = alloc ? alloc * 2 : 16;
			r->projnames = xrealloc(r->projnames,
			    alloc * sizeof *r->projnames);
		}
		r->projnames[r->nprojnames++] =
		    (struct idname){ id, line, xstrdup(f[0]) };
	}
	free(buf);
	fclose(fp);
	if (rc < 0)
		return rc;
	/* Duplicate IDs: the first line wins, as in xfs_quota. */
	qsort(r->projnames, r->nprojnames, sizeof *r->projnames, idname_cmp);
	size_t k = 0;
	for (size_t i = 0; i < r->nprojnames; i++) {
		if (k && r->projnames[k - 1].id == r->projnames[i].id) {
			free(r->projnames[i].name);
			continue;
		}
		r->projnames[k++] = r->projnames[i];
	}
	r->nprojnames = k;
	return 0;
}

/* Classify one spec into rule i (no files read yet). */
static int
parse_spec(struct parse *ps, const char *spec, int i)
{
	struct project_rules *r = ps->r;
	struct rule *ru = &r->rule[i];
	const char *arg = strchr(spec, ':');
	size_t klen = arg ? (size_t)(arg - spec) : strlen(spec);
	char buf[32];

	if (arg)
		arg++;
	if (klen == 6 && strncmp(spec, "projid", 6) == 0 && !arg) {
		ru->kind = R_PROJID;
		r->has_projid = 1;
	} else if (klen == 5 && strncmp(spec, "group", 5) == 0 && !arg) {
		ru->kind = R_GROUP;
	} else if (klen == 4 && strncmp(spec, "user", 4) == 0 && !arg) {
		ru->kind = R_USER;
	} else if (klen == 5 && strncmp(spec, "depth", 5) == 0) {
		uint32_t n;
		if (!arg || parse_u32(arg, &n) < 0 || n < 1 || n > INT_MAX) {
			seterr(ps->err, ps->errlen,
			    "bad project rule '%s': expected depth:N with "
			    "N >= 1", spec);
			return -1;
		}
		ru->kind = R_DEPTH;
		ru->depth = (int)n;
		snprintf(buf, sizeof buf, "depth:%d", ru->depth);
		ru->spec = xstrdup(buf);
		return 0;
	} else if ((klen == 3 && strncmp(spec, "map", 3) == 0) ||
	    (klen == 6 && strncmp(spec, "gidmap", 6) == 0)) {
		if (!arg || *arg == '\0') {
			seterr(ps->err, ps->errlen,
			    "bad project rule '%s': expected %.*s:FILE", spec,
			    (int)klen, spec);
			return -1;
		}
		ru->kind = klen == 3 ? R_MAP : R_GIDMAP;
		if (ru->kind == R_MAP)
			ru->mapi = r->nmap++;
	} else {
		seterr(ps->err, ps->errlen,
		    "unknown project rule '%s' (expected projid, depth:N, "
		    "map:FILE, gidmap:FILE, group or user)", spec);
		return -1;
	}
	if (ru->kind == R_GIDMAP || ru->kind == R_GROUP || ru->kind == R_USER)
		ru->owneri = r->nowner++;
	ru->spec = xstrdup(spec);
	return 0;
}

static int
load_files(struct parse *ps, const char *root_abs)
{
	struct project_rules *r = ps->r;
	char *rootcopy;

	if (r->has_projid && load_projid(ps) < 0)
		return -1;
	if (r->nmap) {
		if (root_abs == NULL || root_abs[0] != '/') {
			seterr(ps->err, ps->errlen,
			    "map rules need an absolute ROOT path, got '%s'",
			    root_abs ? root_abs : "(null)");
			return -1;
		}
		r->trie = mnode_new("");
	}
	/* The component pointers stay valid while rootcopy lives. */
	rootcopy = xstrdup(root_abs ? root_abs : "/");
	split_path(rootcopy, &ps->root, 1);
	for (int i = 0; i < r->nrules; i++) {
		struct rule *ru = &r->rule[i];
		const char *file = strchr(ru->spec, ':');
		int rc = 0;

		if (ru->kind == R_MAP)
			rc = read_pairs(ps, ru, file + 1,
			    "PATH-PREFIX PROJECT", map_line);
		else if (ru->kind == R_GIDMAP)
			rc = read_pairs(ps, ru, file + 1, "GID PROJECT",
			    gidmap_line);
		if (rc == 0 && ru->kind == R_GIDMAP)
			rc = gidmap_finish(ps, ru);
		if (rc < 0) {
			free(rootcopy);
			return -1;
		}
	}
	free(rootcopy);
	return 0;
}

struct project_rules *
project_rules_new(const char *const *specs, int nspecs, const char *root_abs,
    char *err, size_t errlen)
{
	static const char *const dflt[] = { "depth:1" };
	struct project_rules *r;
	struct parse ps = { .err = err, .errlen = errlen };
	int rc = 0;

	if (specs == NULL || nspecs <= 0) {
		specs = dflt;
		nspecs = 1;
	}
	if (nspecs > PROJECT_MAX_RULES) {
		seterr(err, errlen, "too many project rules (%d, at most %d)",
		    nspecs, PROJECT_MAX_RULES);
		return NULL;
	}
	r = xcalloc(1, sizeof *r);
	pthread_mutex_init(&r->lock, NULL);
	for (int k = 0; k < NCHUNK; k++)
		atomic_init(&r->chunk[k], NULL);
	atomic_init(&r->count, 0);
	intern_locked(r, NONE_NAME);	/* id 0 == PROJECT_NONE */
	ps.r = r;
	for (int i = 0; i < nspecs && rc == 0; i++) {
		rc = parse_spec(&ps, specs[i] ? specs[i] : "", i);
		if (rc == 0)
			r->nrules++;
	}
	if (rc == 0)
		rc = load_files(&ps, root_abs);
	free(ps.root.v);
	free(ps.pc.v);
	if (rc < 0) {
		project_rules_free(r);
		return NULL;
	}
	return r;
}

void
project_rules_free(struct project_rules *r)
{
	int32_t n;

	if (r == NULL)
		return;
	for (int i = 0; i < r->nrules; i++) {
		free(r->rule[i].spec);
		idnames_free(r->rule[i].gids, r->rule[i].ngids);
	}
	mnode_free(r->trie, r->nmap);
	idnames_free(r->projnames, r->nprojnames);
	n = atomic_load(&r->count);
	for (int32_t id = 0; id < n; id++)
		free(pname_at(r, id)->name);
	for (int k = 0; k < NCHUNK; k++)
		free(atomic_load(&r->chunk[k]));
	free(r->hash);
	free(r->otab);
	pthread_mutex_destroy(&r->lock);
	free(r);
}

/* Walking --------------------------------------------------------------- */

static void
read_projid(int fd, struct proj_dir *d)
{
	struct fsxattr fa;

	/* ENOTTY and friends: this file system has no project IDs. */
	if (fd < 0 || ioctl(fd, FS_IOC_FSGETXATTR, &fa) != 0)
		return;
	d->projid = fa.fsx_projid;
	d->projinherit = (fa.fsx_xflags & FS_XFLAG_PROJINHERIT) != 0;
}

/* The project named by this directory's own project ID. Subtrees under
 * PROJINHERIT share their parent's ID, so this rarely needs the lock. */
static int32_t
projid_project(struct project_rules *r, int i, const struct proj_dir *parent,
    uint32_t projid)
{
	if (parent && parent->projid == projid && parent->match[i] >= 0)
		return parent->match[i];
	return resolve(r, i, projid);
}

/* The directory's own project: the first rule that matches it. */
static int32_t
dir_self(struct project_rules *r, const struct proj_dir *parent,
    const struct proj_dir *d, uid_t uid, gid_t gid)
{
	for (int i = 0; i < r->nrules; i++) {
		const struct rule *ru = &r->rule[i];
		int32_t p = -1;

		switch (ru->kind) {
		case R_PROJID:
			if (d->projid == 0)
				break;
			p = d->match[i] >= 0 ? d->match[i] :
			    projid_project(r, i, parent, d->projid);
			break;
		case R_DEPTH:
		case R_MAP:
			p = d->match[i];
			break;
		case R_USER:
			p = resolve(r, i, (uint32_t)uid);
			break;
		case R_GIDMAP:
		case R_GROUP:
			p = resolve(r, i, (uint32_t)gid);
			break;
		}
		if (p >= 0) {
			mark(r, i, p);
			return p;
		}
	}
	return PROJECT_NONE;
}

/* Fill d for a directory; parent is NULL for ROOT. */
static void
dir_state(struct project_rules *r, const struct proj_dir *parent,
    struct proj_dir *out, const char *name, int depth, int fd, uid_t uid,
    gid_t gid)
{
	struct proj_dir d;

	memset(&d, 0, sizeof d);
	for (int i = 0; i < PROJECT_MAX_RULES; i++)
		d.match[i] = -1;
	if (r->has_projid)
		read_projid(fd, &d);
	if (r->trie)
		d.map_node = parent == NULL ? r->trie :
		    parent->map_node ? mnode_child(parent->map_node, name) :
		    NULL;
	for (int i = 0; i < r->nrules; i++) {
		const struct rule *ru = &r->rule[i];
		int32_t inherited = parent ? parent->match[i] : -1;

		switch (ru->kind) {
		case R_PROJID:
			if (d.projid && d.projinherit)
				d.match[i] = projid_project(r, i, parent,
				    d.projid);
			break;
		case R_DEPTH:
			if (depth == ru->depth)
				d.match[i] = intern(r, name);
			else if (depth > ru->depth)
				d.match[i] = inherited;
			break;
		case R_MAP:
			d.match[i] = mnode_id(r, d.map_node, ru->mapi);
			if (d.match[i] < 0)
				d.match[i] = inherited;
			break;
		default:
			break;		/* owner rules are per entry */
		}
	}
	d.self = dir_self(r, parent, &d, uid, gid);
	*out = d;
}

void
project_root(struct project_rules *r, struct proj_dir *out, int fd,
    uid_t uid, gid_t gid)
{
	dir_state(r, NULL, out, "", 0, fd, uid, gid);
}

void
project_dir(struct project_rules *r, const struct proj_dir *parent,
    struct proj_dir *out, const char *name, int depth, int fd,
    uid_t uid, gid_t gid)
{
	dir_state(r, parent, out, name, depth, fd, uid, gid);
}

int32_t
project_of(struct project_rules *r, const struct proj_dir *d,
    struct project_cache *c, uid_t uid, gid_t gid)
{
	for (int i = 0; i < r->nrules; i++) {
		int32_t p;

		switch (r->rule[i].kind) {
		case R_USER:
			p = cache_get(r, c, i, (uint32_t)uid);
			break;
		case R_GIDMAP:
		case R_GROUP:
			p = cache_get(r, c, i, (uint32_t)gid);
			break;
		default:
			p = d->match[i];
			if (p >= 0)
				mark(r, i, p);
			break;
		}
		if (p >= 0)
			return p;
	}
	return PROJECT_NONE;
}

/* Registry queries ------------------------------------------------------ */

int32_t
project_count(const struct project_rules *r)
{
	return atomic_load_explicit(&((struct project_rules *)r)->count,
	    memory_order_acquire);
}

const char *
project_name(const struct project_rules *r, int32_t id)
{
	if (id < 0 || id >= project_count(r))
		return NULL;
	return pname_at(r, id)->name;
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
		const char *spec = r->rule[i].spec;
		int dup = 0;

		if (!(bits & (1u << i)))
			continue;
		/* "--project group --project group" reports group once */
		for (int j = 0; j < i; j++)
			if ((bits & (1u << j)) &&
			    strcmp(r->rule[j].spec, spec) == 0)
				dup = 1;
		if (dup)
			continue;
		int n = snprintf(buf + used, len - used, "%s%s",
		    used ? "," : "", spec);
		if (n < 0 || (size_t)n >= len - used)
			return;		/* truncated, still terminated */
		used += (size_t)n;
	}
}
