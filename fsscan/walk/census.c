/*
 * census: per-thread aggregates and their merge.
 */
#include <assert.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "walk_int.h"
#include "xalloc.h"

static void dist_free(struct census *c, struct proj_stats *ps);
static void idmap_free(struct idmap *m);

/* Fibonacci hashing spreads sequential ids (uids, project ids) over a
 * table. */
static size_t
id_hash(uint32_t id, size_t cap)
{
	return (size_t)(((uint64_t)id * 11400714819323198485ull) >> 32) & (cap - 1);
}

void
census_init(struct census *c, int topn)
{
	memset(c, 0, sizeof *c);
	c->top_files.cap = topn;
	c->top_dirs.cap = topn;
}

u128
census_entries(const struct census *c)
{
	return (u128)c->files + c->dirs + c->symlinks + c->others;
}

void
census_free(struct census *c)
{
	for (size_t i = 0; i < c->nprojs; i++)
		dist_free(c, &c->projs[i]);
	free(c->projs);
	free(c->projslot);
	idmap_free(&c->users);
	idmap_free(&c->groups);
	topn_free(&c->top_files);
	topn_free(&c->top_dirs);
	for (size_t i = 0; i < c->nerrs; i++)
		for (int k = 0; k < c->errs[i].npaths; k++)
			free(c->errs[i].paths[k]);
	free(c->errs);
	memset(c, 0, sizeof *c);
}

size_t
census_bytes(const struct census *c)
{
	return sizeof *c + c->capprojs * sizeof *c->projs +
	    c->nprojslot * sizeof *c->projslot + c->distbytes +
	    (c->users.cap + c->groups.cap) * sizeof *c->users.e +
	    c->users.coldbytes + c->groups.coldbytes;
}

/* ---- the projects met ------------------------------------------------ */

/* The index position of id: its own, or the empty one where it goes. */
static size_t
proj_slot(const struct census *c, int32_t id)
{
	size_t i = id_hash((uint32_t)id, c->nprojslot);

	while (c->projslot[i] != 0 && c->projs[c->projslot[i] - 1].id != id)
		i = (i + 1) & (c->nprojslot - 1);
	return i;
}

/* An index at most half full, so that a miss ends soon. */
static void
proj_reindex(struct census *c)
{
	size_t n = c->nprojslot ? c->nprojslot * 2 : 64;

	free(c->projslot);
	c->projslot = xcalloc(n, sizeof *c->projslot);
	c->nprojslot = n;
	for (size_t k = 0; k < c->nprojs; k++)
		c->projslot[proj_slot(c, c->projs[k].id)] = (uint32_t)(k + 1);
}

struct proj_stats *
census_proj(struct census *c, int32_t proj)
{
	size_t i;

	assert(proj >= 0);
	if (c->nprojs && c->projs[c->projlast].id == proj)
		return &c->projs[c->projlast];
	if (c->nprojslot) {
		i = proj_slot(c, proj);
		if (c->projslot[i] != 0) {
			c->projlast = c->projslot[i] - 1;
			return &c->projs[c->projlast];
		}
	}
	if (c->nprojs == UINT32_MAX) {
		fmt_diag(stderr, "fsscan", "too many projects");
		exit(3);
	}
	c->projs = xgrow(c->projs, c->nprojs, &c->capprojs, sizeof *c->projs,
	    16);
	memset(&c->projs[c->nprojs], 0, sizeof *c->projs);
	c->projs[c->nprojs].id = proj;
	c->projlast = c->nprojs++;
	if (c->nprojs * 2 > c->nprojslot)
		proj_reindex(c);
	else
		c->projslot[proj_slot(c, proj)] = (uint32_t)c->nprojs;
	if (proj >= c->projend)
		c->projend = proj + 1;
	return &c->projs[c->projlast];
}

int32_t
census_proj_end(const struct census *c)
{
	return c->projend;
}

const struct proj_stats *
census_proj_find(const struct census *c, int32_t proj)
{
	size_t i;

	if (proj < 0 || c->nprojslot == 0)
		return NULL;
	i = proj_slot(c, proj);
	return c->projslot[i] ? &c->projs[c->projslot[i] - 1] : NULL;
}

/* ---- a project's distributions ---------------------------------------
 *
 * Sparse, one allocation holds the extremes and the bins a project uses,
 * sorted by key (the metric's index times HIST_NB, plus the slot: the
 * four histograms in struct proj_dist's order, then the cold bins by
 * atime and by mtime), each with its files and bytes; the four
 * histograms share one count, every file being in each. A file of a
 * project of a few files adds to bins it has, found in a few
 * comparisons. A project that spreads over more than CENSUS_SPARSE_MAX
 * bins, or has more than 2^32 - 1 files in one, moves to the dense form,
 * which a thread walking a large project adds to as fast as ever.
 */
enum { PD_NHIST = 4, PD_COLD = PD_NHIST, PD_NKIND = PD_COLD +
    ACCOUNT_NCOLD_METRIC };
#define PD_GROW 4			/* bins added at a time */

struct pbin {
	uint64_t wlo, whi;		/* bytes, 128 bits in two halves:
					   8-byte aligned, 24 bytes a bin */
	uint32_t n;			/* files */
	uint16_t key;
};

struct pdist {
	uint64_t count;			/* files */
	i128 min[PD_NHIST], max[PD_NHIST];
	uint16_t len, cap;
	struct pbin bin[];
};

/* cap is at most CENSUS_SPARSE_MAX, so the product cannot wrap. */
static size_t
sparse_bytes(size_t cap)
{
	assert(cap <= CENSUS_SPARSE_MAX);
	return offsetof(struct pdist, bin) + cap * sizeof(struct pbin);
}

static const enum hist_scheme pd_scheme[PD_NHIST] = { HS_SIZE, HS_AGE,
    HS_AGE, HS_AGE };

static struct phist *
dense_hist(struct proj_dist *d, int m)
{
	struct phist *h[PD_NHIST] = { &d->size, &d->atime, &d->mtime,
	    &d->ctime };

	return h[m];
}

static const struct phist *
dense_hist_of(const struct proj_dist *d, int m)
{
	const struct phist *h[PD_NHIST] = { &d->size, &d->atime, &d->mtime,
	    &d->ctime };

	return h[m];
}

/* Is key a bin of struct proj_dist? */
static int
key_valid(unsigned key)
{
	unsigned m = key / HIST_NB;

	return m < PD_COLD || (m < PD_NKIND && key % HIST_NB < ACCOUNT_COLD_MAX);
}

/* The files and bytes of key in d. */
static void
dense_cell(struct proj_dist *d, unsigned key, uint64_t **n, u128 **w)
{
	unsigned m = key / HIST_NB, slot = key % HIST_NB;

	assert(key_valid(key));
	if (m < PD_NHIST) {
		*n = &dense_hist(d, (int)m)->n[slot];
		*w = &dense_hist(d, (int)m)->w[slot];
	} else {
		*n = &d->cold[m - PD_COLD].n[slot];
		*w = &d->cold[m - PD_COLD].w[slot];
	}
}

static void
dense_get(const struct proj_dist *d, unsigned key, uint64_t *n, u128 *w)
{
	unsigned m = key / HIST_NB, slot = key % HIST_NB;

	assert(key_valid(key));
	if (m < PD_NHIST) {
		*n = dense_hist_of(d, (int)m)->n[slot];
		*w = dense_hist_of(d, (int)m)->w[slot];
	} else {
		*n = d->cold[m - PD_COLD].n[slot];
		*w = d->cold[m - PD_COLD].w[slot];
	}
}

static u128
bin_w(const struct pbin *b)
{
	return (u128)b->whi << 64 | b->wlo;
}

static void
bin_add(struct pbin *b, uint64_t n, u128 w)
{
	u128 sum = bin_w(b) + w;

	assert(n <= UINT32_MAX - b->n);
	b->n += (uint32_t)n;
	b->wlo = (uint64_t)sum;
	b->whi = (uint64_t)(sum >> 64);
}

static void
dist_free(struct census *c, struct proj_stats *ps)
{
	if (ps->sparse)
		c->distbytes -= sparse_bytes(ps->sparse->cap);
	if (ps->dense)
		c->distbytes -= sizeof *ps->dense;
	free(ps->sparse);
	free(ps->dense);
	ps->sparse = NULL;
	ps->dense = NULL;
}

/* Where key is in s, or where it goes: 1 when it is there. */
static int
sparse_find(const struct pdist *s, unsigned key, size_t *at)
{
	size_t lo = 0, hi = s->len;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->bin[mid].key < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	*at = lo;
	return lo < s->len && s->bin[lo].key == key;
}

/* ps's sparse form, made empty when it has none. */
static struct pdist *
dist_sparse(struct census *c, struct proj_stats *ps)
{
	if (!ps->sparse) {
		ps->sparse = xcalloc(1, sparse_bytes(PD_GROW));
		ps->sparse->cap = PD_GROW;
		c->distbytes += sparse_bytes(PD_GROW);
	}
	return ps->sparse;
}

/* An empty bin key at position at of ps's sparse form, which has fewer
 * than CENSUS_SPARSE_MAX. */
static void
sparse_insert(struct census *c, struct proj_stats *ps, size_t at,
    unsigned key)
{
	struct pdist *s = ps->sparse;

	assert(s->len < CENSUS_SPARSE_MAX && at <= s->len);
	if (s->len == s->cap) {
		s = xrealloc(s, sparse_bytes(s->cap + PD_GROW));
		c->distbytes += sparse_bytes(s->cap + PD_GROW) -
		    sparse_bytes(s->cap);
		s->cap += PD_GROW;
		ps->sparse = s;
	}
	memmove(&s->bin[at + 1], &s->bin[at], (s->len - at) * sizeof *s->bin);
	memset(&s->bin[at], 0, sizeof *s->bin);
	s->bin[at].key = (uint16_t)key;
	s->len++;
}

/* s's bins and extremes into d, which is empty. */
static void
sparse_fill(const struct pdist *s, struct proj_dist *d)
{
	for (size_t i = 0; i < s->len; i++) {
		uint64_t *n;
		u128 *w;

		dense_cell(d, s->bin[i].key, &n, &w);
		*n = s->bin[i].n;
		*w = bin_w(&s->bin[i]);
	}
	for (int m = 0; m < PD_NHIST && s->count; m++) {
		struct phist *h = dense_hist(d, m);
		h->min = s->min[m];
		h->max = s->max[m];
		h->count = s->count;
	}
}

/* ps's distributions made dense. */
static void
dist_dense(struct census *c, struct proj_stats *ps)
{
	assert(ps->dense == NULL);
	ps->dense = xcalloc(1, sizeof *ps->dense);
	c->distbytes += sizeof *ps->dense;
	if (ps->sparse) {
		sparse_fill(ps->sparse, ps->dense);
		c->distbytes -= sparse_bytes(ps->sparse->cap);
		free(ps->sparse);
		ps->sparse = NULL;
	}
}

/* n files of w bytes into bin key of ps. */
static void
dist_bin(struct census *c, struct proj_stats *ps, unsigned key, uint64_t n,
    u128 w)
{
	uint64_t *dn;
	u128 *dw;

	if (!ps->dense) {
		size_t at;
		int found = sparse_find(dist_sparse(c, ps), key, &at);

		if (!found && ps->sparse->len < CENSUS_SPARSE_MAX) {
			sparse_insert(c, ps, at, key);
			found = 1;
		}
		if (found && n <= UINT32_MAX - ps->sparse->bin[at].n) {
			bin_add(&ps->sparse->bin[at], n, w);
			return;
		}
		dist_dense(c, ps);
	}
	dense_cell(ps->dense, key, &dn, &dw);
	*dn += n;
	*dw += w;
}

/* The extremes of n files, by metric, into ps. */
static void
dist_extent(struct census *c, struct proj_stats *ps, const i128 *min,
    const i128 *max, uint64_t n)
{
	struct pdist *s;

	if (n == 0)
		return;
	if (ps->dense) {
		for (int m = 0; m < PD_NHIST; m++) {
			struct phist *h = dense_hist(ps->dense, m);
			hist_extent_merge(&h->min, &h->max, &h->count,
			    min[m], max[m], n);
		}
		return;
	}
	s = dist_sparse(c, ps);
	for (int m = 0; m < PD_NHIST; m++) {
		uint64_t count = s->count;
		hist_extent_merge(&s->min[m], &s->max[m], &count, min[m],
		    max[m], n);
	}
	s->count += n;
}

/* d's bins and extremes into ps. */
static void
dist_add_dense(struct census *c, struct proj_stats *ps,
    const struct proj_dist *d)
{
	i128 min[PD_NHIST], max[PD_NHIST];

	if (ps->dense) {
		for (int m = 0; m < PD_NHIST; m++)
			hist_phist_merge(dense_hist(ps->dense, m),
			    dense_hist_of(d, m));
		for (int m = 0; m < ACCOUNT_NCOLD_METRIC; m++)
			census_cold_merge(&ps->dense->cold[m], &d->cold[m]);
		return;
	}
	for (unsigned key = 0; key < PD_NKIND * HIST_NB; key++) {
		uint64_t n;
		u128 w;

		if (!key_valid(key))
			continue;
		dense_get(d, key, &n, &w);
		if (n || w)
			dist_bin(c, ps, key, n, w);
	}
	for (int m = 0; m < PD_NHIST; m++) {
		min[m] = dense_hist_of(d, m)->min;
		max[m] = dense_hist_of(d, m)->max;
	}
	dist_extent(c, ps, min, max, d->size.count);
}

/* f into ps's sparse form, whole, or nothing (0) when it would take
 * more bins than the form holds, or more files in one. */
static int
sparse_file(struct census *c, struct proj_stats *ps,
    const struct census_file *f, const i128 *v)
{
	struct pdist *s = dist_sparse(c, ps);
	unsigned key[PD_NKIND];
	size_t at[PD_NKIND], missing = 0;
	int nk = 0, found[PD_NKIND];

	for (int m = 0; m < PD_NHIST; m++)
		key[nk++] = m * HIST_NB + hist_slot(pd_scheme[m], v[m]);
	for (int m = 0; m < ACCOUNT_NCOLD_METRIC; m++)
		if (f->cold[m] >= 0)
			key[nk++] = (PD_COLD + m) * HIST_NB + f->cold[m];
	for (int k = 0; k < nk; k++) {
		found[k] = sparse_find(s, key[k], &at[k]);
		if (!found[k])
			missing++;
		else if (s->bin[at[k]].n == UINT32_MAX)
			return 0;
	}
	if (s->len + missing > CENSUS_SPARSE_MAX)
		return 0;
	/* The bins it has first: a new one moves those after it. */
	for (int k = 0; k < nk; k++)
		if (found[k])
			bin_add(&s->bin[at[k]], 1, f->size);
	for (int k = 0; k < nk; k++)
		if (!found[k])
			dist_bin(c, ps, key[k], 1, f->size);
	dist_extent(c, ps, v, v, 1);
	return 1;
}

void
census_dist_file(struct census *c, struct proj_stats *ps,
    const struct census_file *f)
{
	const i128 v[PD_NHIST] = { f->size, f->age[0], f->age[1], f->age[2] };
	struct proj_dist *d;

	if (!ps->dense && sparse_file(c, ps, f, v))
		return;
	if (!ps->dense)
		dist_dense(c, ps);
	d = ps->dense;
	for (int m = 0; m < PD_NHIST; m++)
		hist_phist_add(dense_hist(d, m), pd_scheme[m], v[m], f->size);
	for (int m = 0; m < ACCOUNT_NCOLD_METRIC; m++)
		if (f->cold[m] >= 0) {
			d->cold[m].n[f->cold[m]]++;
			d->cold[m].w[f->cold[m]] += f->size;
		}
}

void
census_proj_dist(const struct census *c, int32_t proj, struct proj_dist *d)
{
	const struct proj_stats *ps = census_proj_find(c, proj);

	assert(d != NULL);
	memset(d, 0, sizeof *d);
	if (ps == NULL)
		return;
	if (ps->dense)
		*d = *ps->dense;
	else if (ps->sparse)
		sparse_fill(ps->sparse, d);
}

void
census_proj_dist_add(struct census *c, int32_t proj,
    const struct proj_dist *d)
{
	assert(proj >= 0 && d != NULL);
	dist_add_dense(c, census_proj(c, proj), d);
}

/* s's distributions into d's, and s left with none: given whole to d
 * when d has none. */
static void
dist_merge(struct census *dc, struct proj_stats *d, struct census *sc,
    struct proj_stats *s)
{
	size_t held = (s->sparse ? sparse_bytes(s->sparse->cap) : 0) +
	    (s->dense ? sizeof *s->dense : 0);

	if (!d->sparse && !d->dense) {
		d->sparse = s->sparse;
		d->dense = s->dense;
		s->sparse = NULL;
		s->dense = NULL;
		sc->distbytes -= held;
		dc->distbytes += held;
		return;
	}
	if (s->dense)
		dist_add_dense(dc, d, s->dense);
	else if (s->sparse) {
		const struct pdist *p = s->sparse;
		for (size_t i = 0; i < p->len; i++)
			dist_bin(dc, d, p->bin[i].key, p->bin[i].n,
			    bin_w(&p->bin[i]));
		dist_extent(dc, d, p->min, p->max, p->count);
	}
	dist_free(sc, s);
}

/* ---- the owners met -------------------------------------------------
 *
 * An owner's cold-data bins are sparse: the bins it uses, in the order
 * of their keys (metric * ACCOUNT_COLD_MAX + threshold), each key's bit
 * set in mask, so that a bin's position is the number of bits set below
 * its own. An owner with no cold file holds none; one whose cold files
 * all reach the same thresholds holds two bins, 56 bytes; the most, 16,
 * take 392.
 */
#define OCOLD_NBIN (ACCOUNT_NCOLD_METRIC * ACCOUNT_COLD_MAX)
#define OCOLD_GROW 2			/* bins added at a time */
_Static_assert(OCOLD_NBIN <= 16, "an owner's bins are bits of a uint16_t");

struct ocold {
	uint16_t mask;
	uint8_t cap;
	struct obin {
		uint64_t n, wlo, whi;	/* files; bytes in two halves */
	} bin[];
};

/* cap is at most OCOLD_NBIN, so the product cannot wrap. */
static size_t
ocold_bytes(unsigned cap)
{
	return sizeof(struct ocold) + cap * sizeof(struct obin);
}

static void
idmap_free(struct idmap *m)
{
	for (size_t i = 0; i < m->cap; i++)
		free(m->e[i].cold);
	free(m->e);
	memset(m, 0, sizeof *m);
}

static void
idmap_grow(struct idmap *m)
{
	struct idmap old = *m;

	m->cap = old.cap ? old.cap * 2 : 64;
	m->e = xcalloc(m->cap, sizeof *m->e);
	m->len = 0;
	for (size_t i = 0; i < old.cap; i++)
		if (old.e[i].used) {
			struct idmap_ent *e = census_idmap_get(m,
			    old.e[i].id);
			e->a = old.e[i].a;
			e->cold = old.e[i].cold;
		}
	free(old.e);
}

struct idmap_ent *
census_idmap_get(struct idmap *m, uint32_t id)
{
	size_t i;

	if ((m->len + 1) * 4 > m->cap * 3)
		idmap_grow(m);
	for (i = id_hash(id, m->cap); m->e[i].used; i = (i + 1) & (m->cap - 1))
		if (m->e[i].id == id)
			return &m->e[i];
	m->e[i].used = 1;
	m->e[i].id = id;
	m->len++;
	return &m->e[i];
}

/* Room for one more bin in e's, made when it has none. */
static struct ocold *
ocold_room(struct idmap *m, struct idmap_ent *e)
{
	struct ocold *o = e->cold;
	unsigned len = o ? (unsigned)__builtin_popcount(o->mask) : 0;
	unsigned cap = o ? o->cap : 0;

	if (len < cap)
		return o;
	cap = len + OCOLD_GROW < OCOLD_NBIN ? len + OCOLD_GROW : OCOLD_NBIN;
	o = xrealloc(o, ocold_bytes(cap));
	if (!e->cold)
		o->mask = 0;
	m->coldbytes += ocold_bytes(cap) - (e->cold ? ocold_bytes(o->cap) : 0);
	o->cap = (uint8_t)cap;
	return e->cold = o;
}

void
census_idmap_cold_add(struct idmap *m, struct idmap_ent *e, int metric,
    int k, uint64_t n, u128 w)
{
	unsigned key = (unsigned)(metric * ACCOUNT_COLD_MAX + k), at, len;
	struct ocold *o = e->cold;
	struct obin *b;

	assert(e >= m->e && e < m->e + m->cap && e->used);
	assert(metric >= 0 && metric < ACCOUNT_NCOLD_METRIC && k >= 0 &&
	    k < ACCOUNT_COLD_MAX);
	if (!o || !(o->mask & 1u << key)) {
		o = ocold_room(m, e);
		len = (unsigned)__builtin_popcount(o->mask);
		at = (unsigned)__builtin_popcount(o->mask & ((1u << key) - 1));
		memmove(&o->bin[at + 1], &o->bin[at], (len - at) *
		    sizeof *o->bin);
		memset(&o->bin[at], 0, sizeof *o->bin);
		o->mask |= (uint16_t)(1u << key);
	} else {
		at = (unsigned)__builtin_popcount(o->mask & ((1u << key) - 1));
	}
	b = &o->bin[at];
	w += (u128)b->whi << 64 | b->wlo;
	b->n += n;
	b->wlo = (uint64_t)w;
	b->whi = (uint64_t)(w >> 64);
}

void
census_idmap_cold(const struct idmap_ent *e,
    struct cold_bins cb[ACCOUNT_NCOLD_METRIC])
{
	const struct ocold *o;
	unsigned at = 0;

	assert(e != NULL && e->used && cb != NULL);
	o = e->cold;
	memset(cb, 0, ACCOUNT_NCOLD_METRIC * sizeof *cb);
	for (unsigned key = 0; o && key < OCOLD_NBIN; key++) {
		const struct obin *b = &o->bin[at];
		if (!(o->mask & 1u << key))
			continue;
		cb[key / ACCOUNT_COLD_MAX].n[key % ACCOUNT_COLD_MAX] = b->n;
		cb[key / ACCOUNT_COLD_MAX].w[key % ACCOUNT_COLD_MAX] =
		    (u128)b->whi << 64 | b->wlo;
		at++;
	}
}

static void
acct_add(struct acct *d, const struct acct *s)
{
	d->files += s->files;
	d->dirs += s->dirs;
	d->bytes += s->bytes;
	d->alloc += s->alloc;
}

void
census_cold_sum(const struct cold_bins *b, int nthr, int k, uint64_t *files,
    u128 *bytes)
{
	*files = 0;
	*bytes = 0;
	for (int i = k; i < nthr; i++) {
		*files += b->n[i];
		*bytes += b->w[i];
	}
}

void
census_cold_merge(struct cold_bins *dst, const struct cold_bins *src)
{
	for (int i = 0; i < ACCOUNT_COLD_MAX; i++) {
		dst->n[i] += src->n[i];
		dst->w[i] += src->w[i];
	}
}

static struct errstat *
err_slot(struct census *c, int err)
{
	for (size_t i = 0; i < c->nerrs; i++)
		if (c->errs[i].err == err)
			return &c->errs[i];
	c->errs = xreallocarray(c->errs, c->nerrs + 1, sizeof *c->errs);
	memset(&c->errs[c->nerrs], 0, sizeof *c->errs);
	c->errs[c->nerrs].err = err;
	return &c->errs[c->nerrs++];
}

int
census_error_wants_path(const struct census *c, int err)
{
	for (size_t i = 0; i < c->nerrs; i++)
		if (c->errs[i].err == err)
			return c->errs[i].npaths < ERR_PATHS;
	return 1;
}

void
census_error(struct census *c, int err, char *path)
{
	struct errstat *e = err_slot(c, err);

	e->count++;
	c->nerrors++;
	if (path && e->npaths < ERR_PATHS)
		e->paths[e->npaths++] = path;
	else
		free(path);
}

void
census_error_count(struct census *c, int err, uint64_t n)
{
	err_slot(c, err)->count += n;
	c->nerrors += n;
}

static int
err_cmp(const void *a, const void *b)
{
	const struct errstat *x = a, *y = b;

	return (x->err > y->err) - (x->err < y->err);
}

/* Paths of one errno from several threads: keep the smallest ones so the
 * sample does not depend on thread timing more than necessary. */
static int
str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void
errs_merge(struct census *dst, struct census *src)
{
	for (size_t i = 0; i < src->nerrs; i++) {
		struct errstat *s = &src->errs[i], *d = err_slot(dst, s->err);
		char *all[2 * ERR_PATHS];
		int n = 0;

		d->count += s->count;
		for (int k = 0; k < d->npaths; k++)
			all[n++] = d->paths[k];
		for (int k = 0; k < s->npaths; k++)
			all[n++] = s->paths[k];
		qsort(all, (size_t)n, sizeof *all, str_cmp);
		d->npaths = n < ERR_PATHS ? n : ERR_PATHS;
		for (int k = 0; k < n; k++) {
			if (k < d->npaths)
				d->paths[k] = all[k];
			else
				free(all[k]);
		}
		s->npaths = 0;
	}
	dst->nerrors += src->nerrors;
	free(src->errs);
	src->errs = NULL;
	src->nerrs = 0;
	if (dst->nerrs)
		qsort(dst->errs, dst->nerrs, sizeof *dst->errs, err_cmp);
}

/* src's owners into dst's. An owner's cold bins move when dst has none
 * of its own, and are added bin by bin otherwise; src keeps its totals
 * and no cold bins. */
static void
idmap_merge(struct idmap *dst, struct idmap *src)
{
	for (size_t i = 0; i < src->cap; i++) {
		struct idmap_ent *s = &src->e[i], *d;
		struct cold_bins cb[ACCOUNT_NCOLD_METRIC];
		if (!s->used)
			continue;
		d = census_idmap_get(dst, s->id);
		acct_add(&d->a, &s->a);
		if (!s->cold)
			continue;
		if (!d->cold) {
			d->cold = s->cold;
			dst->coldbytes += ocold_bytes(s->cold->cap);
		} else {
			census_idmap_cold(s, cb);
			for (int m = 0; m < ACCOUNT_NCOLD_METRIC; m++)
				for (int k = 0; k < ACCOUNT_COLD_MAX; k++)
					if (cb[m].n[k])
						census_idmap_cold_add(dst, d,
						    m, k, cb[m].n[k],
						    cb[m].w[k]);
			free(s->cold);
		}
		s->cold = NULL;
	}
	src->coldbytes = 0;
}

/* src's projects into dst's; src is left with none. The first census
 * merged into an empty one is taken whole, so the table is not held
 * twice (walk_collect merges every thread's into an empty result). */
static void
projs_merge(struct census *dst, struct census *src)
{
	if (dst->nprojs == 0) {
		free(dst->projs);
		free(dst->projslot);
		dst->projs = src->projs;
		dst->nprojs = src->nprojs;
		dst->capprojs = src->capprojs;
		dst->projslot = src->projslot;
		dst->nprojslot = src->nprojslot;
		dst->projlast = src->projlast;
		dst->projend = src->projend;
		dst->distbytes += src->distbytes;
	} else {
		for (size_t p = 0; p < src->nprojs; p++) {
			struct proj_stats *s = &src->projs[p], *d;
			if (!s->entries)
				continue;
			d = census_proj(dst, s->id);
			acct_add(&d->a, &s->a);
			d->entries += s->entries;
			dist_merge(dst, d, src, s);
		}
		free(src->projs);
		free(src->projslot);
	}
	src->projs = NULL;
	src->projslot = NULL;
	src->nprojs = src->capprojs = src->nprojslot = src->projlast = 0;
	src->projend = 0;
	src->distbytes = 0;
}

void
census_merge(struct census *dst, struct census *src)
{
#ifndef NDEBUG
	u128 entries = census_entries(dst) + census_entries(src);
#endif

	dst->files += src->files;
	dst->dirs += src->dirs;
	dst->symlinks += src->symlinks;
	dst->others += src->others;
	dst->bytes += src->bytes;
	dst->alloc += src->alloc;
	dst->all_size += src->all_size;
	dst->all_blocks += src->all_blocks;
	dst->hardlink_dups += src->hardlink_dups;
	dst->snapshot_dirs += src->snapshot_dirs;
	dst->symlink_rel += src->symlink_rel;
	dst->symlink_abs += src->symlink_abs;
	dst->mounts_skipped += src->mounts_skipped;
	dst->excluded += src->excluded;
	for (int i = 0; i < METRIC_COUNT; i++)
		hist_merge(&dst->h[i], &src->h[i]);
	projs_merge(dst, src);
	idmap_merge(&dst->users, &src->users);
	idmap_merge(&dst->groups, &src->groups);
	topn_merge(&dst->top_files, &src->top_files);
	topn_merge(&dst->top_dirs, &src->top_dirs);
	errs_merge(dst, src);
	/* W5: every entry counted once, whatever the order */
	assert(census_entries(dst) == entries);
}
