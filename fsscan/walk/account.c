/*
 * account: add one entry to a thread's census. Called from the walk hot
 * loop: no locks, integer arithmetic only, no allocation but for a
 * project, user or group met for the first time and a project's or an
 * owner's new bins (census.c), and no path (W4: the caller builds one only for a
 * top-N candidate).
 */
#include <assert.h>

#include "walk_int.h"

/* Bytes of st_blocks: 512 * a 64-bit count needs 73 bits. */
static u128
blocks_bytes(uint64_t blocks)
{
	return (u128)blocks * 512;
}

/* fsstats' overhead rows are chosen by the entry's size. */
static void
add_overhead(struct census *c, uint64_t size, uint64_t blocks)
{
	u128 cap = blocks_bytes(blocks);
	int slot = hist_slot(HS_SIZE, size);

	if (cap >= size)
		hist_add_slot(&c->h[METRIC_POS_OVERHEAD], slot, (i128)(cap - size), 0);
	else
		hist_add_slot(&c->h[METRIC_NEG_OVERHEAD], slot, (i128)(size - cap), 0);
}

static void
add_totals(struct census *c, uint64_t size, uint64_t blocks)
{
	c->all_size += size;
	c->all_blocks += blocks;
}

/* An age in seconds: any two 64-bit times differ by less than 2^64, which
 * 128 bits hold exactly (a time near either end of time_t, or --now at
 * either limit, would overflow int64_t). */
static i128
age(int64_t now, int64_t t)
{
	return (i128)now - t;
}

void
account_ref_init(struct account_ref *ref, int64_t now, const uint32_t *days,
    int ndays)
{
	assert(ndays >= 0 && ndays <= ACCOUNT_COLD_MAX);
	ref->now = now;
	ref->ncold = ndays;
	for (int k = 0; k < ndays; k++) {
		/* Thresholds ascend, so the cuts descend; both are far from
		 * the ends of int64_t (walk.h). */
		assert(days[k] <= ACCOUNT_COLD_DAYS_MAX &&
		    (k == 0 || days[k] > days[k - 1]));
		ref->cut[k] = now - (int64_t)days[k] * 86400;
	}
}

/* Cold at days[k] when t <= cut[k]: the cuts descend, so the thresholds a
 * file reaches are the first few; it goes to the bin of the last (-1:
 * none). */
static int
cold_bin(const struct account_ref *ref, int64_t t)
{
	int k = 0;

	while (k < ref->ncold && t <= ref->cut[k])
		k++;
	return k - 1;
}

/* A cold file into its owner's bins, by the owner's uid and by its gid:
 * as its project, with the thresholds it reaches (cf->cold). */
static void
add_owner_cold(struct idmap *m, struct idmap_ent *e,
    const struct census_file *cf)
{
	for (int k = 0; k < ACCOUNT_NCOLD_METRIC; k++)
		if (cf->cold[k] >= 0)
			census_idmap_cold_add(m, e, k, cf->cold[k], 1,
			    cf->size);
}

void
account_file(struct census *c, const struct account_ref *ref,
    const struct hl_file *f, struct dirlocal *dl, char *path)
{
	struct dirlocal own = { 0 };
	struct proj_stats *ps = census_proj(c, f->proj);
	struct idmap_ent *ue = census_idmap_get(&c->users, f->uid);
	struct idmap_ent *ge = census_idmap_get(&c->groups, f->gid);
	struct acct *u = &ue->a, *g = &ge->a;
	u128 alloc = blocks_bytes(f->blocks);
	uint64_t size = f->size;
	int64_t now = ref->now;
	struct census_file cf = { f->size, { age(now, f->atime),
	    age(now, f->mtime), age(now, f->ctime) }, {
	    [ACCOUNT_ATIME] = cold_bin(ref, f->atime),
	    [ACCOUNT_MTIME] = cold_bin(ref, f->mtime) } };

	/* W4: a path comes only with a hard-linked file, accounted after
	 * the walk, never from the visit of a directory (dl) */
	assert(path == NULL || dl == NULL);
	c->files++;
	c->bytes += f->size;
	c->alloc += alloc;
	add_totals(c, f->size, f->blocks);
	hist_add(&c->h[METRIC_SIZE], HS_SIZE, size, f->size);
	hist_add(&c->h[METRIC_CAPACITY], HS_BLOCKS, f->blocks, 0);
	hist_add(&c->h[METRIC_LINK_COUNT], HS_COUNT, f->nlink, 0);
	hist_add(&c->h[METRIC_ATIME], HS_AGE, cf.age[0], f->size);
	hist_add(&c->h[METRIC_MTIME], HS_AGE, cf.age[1], f->size);
	hist_add(&c->h[METRIC_CTIME], HS_AGE, cf.age[2], f->size);
	add_overhead(c, f->size, f->blocks);

	ps->entries++;
	ps->a.files++;
	ps->a.bytes += f->size;
	ps->a.alloc += alloc;
	census_dist_file(c, ps, &cf);

	u->files++;
	u->bytes += f->size;
	u->alloc += alloc;
	g->files++;
	g->bytes += f->size;
	g->alloc += alloc;
	add_owner_cold(&c->users, ue, &cf);
	add_owner_cold(&c->groups, ge, &cf);

	if (!dl)
		dl = &own;
	dl->files++;
	dl->bytes += f->size;
	dl->alloc += alloc;
	/* v_dir's cold_bytes: the bytes the cold table counts at the
	 * longest atime threshold, the last of the ascending ones */
	if (ref->ncold > 0 && cf.cold[ACCOUNT_ATIME] == ref->ncold - 1)
		dl->cold += f->size;
	dirtot_local_mtime(dl, f->mtime);
	if (dl == &own)
		dirtot_add(f->acct, &own);

	if (path)
		topn_offer(&c->top_files, f->size, path);
}

void
account_dir(struct census *c, const struct dnode *d, struct dirlocal *dl)
{
	struct proj_stats *ps = census_proj(c, d->proj.self);

	c->dirs++;
	add_totals(c, d->size, d->blocks);
	add_overhead(c, d->size, d->blocks);
	ps->entries++;
	ps->a.dirs++;
	census_idmap_get(&c->users, d->uid)->a.dirs++;
	census_idmap_get(&c->groups, d->gid)->a.dirs++;
	dl->dirs++;
	dirtot_local_mtime(dl, d->mtime);
}

void
account_symlink(struct census *c, int32_t proj, uint64_t size,
    uint64_t blocks, int64_t mtime, int target_abs, struct dirlocal *dl)
{
	c->symlinks++;
	add_totals(c, size, blocks);
	add_overhead(c, size, blocks);
	hist_add(&c->h[METRIC_SYMLINK_LEN], HS_LINEAR8, size, 0);
	if (target_abs > 0)
		c->symlink_abs++;
	else if (target_abs == 0)
		c->symlink_rel++;
	census_proj(c, proj)->entries++;
	dirtot_local_mtime(dl, mtime);
}

void
account_other(struct census *c, int32_t proj, uint64_t size,
    uint64_t blocks, int64_t mtime, struct dirlocal *dl)
{
	c->others++;
	add_totals(c, size, blocks);
	census_proj(c, proj)->entries++;
	dirtot_local_mtime(dl, mtime);
}
