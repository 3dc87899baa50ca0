/*
 * census: per-thread aggregates and their merge.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "walk_int.h"
#include "xalloc.h"

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
	for (size_t p = 0; p < c->nproj; p++)
		free(c->proj[p].dist);
	free(c->proj);
	free(c->users.e);
	free(c->groups.e);
	topn_free(&c->top_files);
	topn_free(&c->top_dirs);
	for (size_t i = 0; i < c->nerrs; i++)
		for (int k = 0; k < c->errs[i].npaths; k++)
			free(c->errs[i].paths[k]);
	free(c->errs);
	memset(c, 0, sizeof *c);
}

struct proj_stats *
census_proj(struct census *c, int proj)
{
	if ((size_t)proj >= c->nproj) {
		size_t n = c->nproj ? c->nproj : 16;
		while (n <= (size_t)proj)
			n *= 2;
		c->proj = xrealloc(c->proj, n * sizeof *c->proj);
		memset(c->proj + c->nproj, 0, (n - c->nproj) * sizeof *c->proj);
		c->nproj = n;
	}
	return &c->proj[proj];
}

struct proj_dist *
census_proj_dist(struct proj_stats *ps)
{
	if (!ps->dist)
		ps->dist = xcalloc(1, sizeof *ps->dist);
	return ps->dist;
}

const struct proj_dist *
census_proj_dist_of(const struct proj_stats *ps)
{
	static const struct proj_dist none;

	return ps->dist ? ps->dist : &none;
}

/* dst's distributions += src's; src's given to dst when dst has none. */
static void
dist_merge(struct proj_stats *d, struct proj_stats *s)
{
	struct proj_dist *dd;

	if (!s->dist)
		return;
	if (!d->dist) {
		d->dist = s->dist;
		s->dist = NULL;
		return;
	}
	dd = d->dist;
	hist_phist_merge(&dd->size, &s->dist->size);
	hist_phist_merge(&dd->atime, &s->dist->atime);
	hist_phist_merge(&dd->mtime, &s->dist->mtime);
	hist_phist_merge(&dd->ctime, &s->dist->ctime);
	for (int m = 0; m < ACCOUNT_NCOLD_METRIC; m++)
		census_cold_merge(&dd->cold[m], &s->dist->cold[m]);
}

/* Fibonacci hashing spreads sequential uids over the table. */
static size_t
id_hash(uint32_t id, size_t cap)
{
	return (size_t)(((uint64_t)id * 11400714819323198485ull) >> 32) & (cap - 1);
}

static void
idmap_grow(struct idmap *m)
{
	struct idmap old = *m;

	m->cap = old.cap ? old.cap * 2 : 64;
	m->e = xcalloc(m->cap, sizeof *m->e);
	m->len = 0;
	for (size_t i = 0; i < old.cap; i++)
		if (old.e[i].used)
			*census_idmap_get(m, old.e[i].id) = old.e[i].a;
	free(old.e);
}

struct acct *
census_idmap_get(struct idmap *m, uint32_t id)
{
	size_t i;

	if ((m->len + 1) * 4 > m->cap * 3)
		idmap_grow(m);
	for (i = id_hash(id, m->cap); m->e[i].used; i = (i + 1) & (m->cap - 1))
		if (m->e[i].id == id)
			return &m->e[i].a;
	m->e[i].used = 1;
	m->e[i].id = id;
	m->len++;
	return &m->e[i].a;
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
	c->errs = xrealloc(c->errs, (c->nerrs + 1) * sizeof *c->errs);
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

static void
idmap_merge(struct idmap *dst, const struct idmap *src)
{
	for (size_t i = 0; i < src->cap; i++)
		if (src->e[i].used)
			acct_add(census_idmap_get(dst, src->e[i].id),
			    &src->e[i].a);
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
	for (size_t p = 0; p < src->nproj; p++) {
		struct proj_stats *s = &src->proj[p], *d;
		if (!s->entries)
			continue;
		d = census_proj(dst, (int)p);
		acct_add(&d->a, &s->a);
		d->entries += s->entries;
		dist_merge(d, s);
	}
	idmap_merge(&dst->users, &src->users);
	idmap_merge(&dst->groups, &src->groups);
	topn_merge(&dst->top_files, &src->top_files);
	topn_merge(&dst->top_dirs, &src->top_dirs);
	errs_merge(dst, src);
	/* W5: every entry counted once, whatever the order */
	assert(census_entries(dst) == entries);
}
