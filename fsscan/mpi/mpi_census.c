/*
 * mpi_census: every rank's census, summed on rank 0.
 *
 * The fixed part (the counters, the 128-bit byte totals and the fsstats
 * histograms, whose sums are 128-bit and 192-bit) is reduced with
 * MPI_Reduce under an operation of our own that adds exactly what
 * census_merge adds: hist_merge's exact sums, extremes by min and max.
 *
 * The keyed part (projects, owners, top-N lists, errors) has a size of
 * its own on each rank, and projects are known by name only (each rank
 * numbers the names it meets): it goes up a binomial tree, each rank
 * merging what its children send into its own census (census_merge), in
 * log2(ranks) steps, so rank 0 never holds more than two of them.
 *
 *   keyed   varint projects, per project: str name, varint rule bits,
 *           acct entries, varint has-distributions, then 4 x phist
 *           (varint slots used, per slot ascending: slot n wide w;
 *           zigzag wide min max, varint count) and 2 x cold (atime,
 *           mtime: 8 n, 8 wide w); per owner kind: varint n, n x (id
 *           acct, varint cold bins, per bin: varint key n, wide w: the
 *           bins it uses, key = metric * ACCOUNT_COLD_MAX + threshold);
 *           per top-N list: varint n, n x (key, str path); varint
 *           errnos, per errno: err count paths, str path...; varint
 *           n, n x varint project ID met (a projid rule's)
 *   acct    varint files dirs, wide bytes alloc
 *   wide    a 128-bit integer as two varints, low half first (mpi.h)
 */
#include <stdlib.h>
#include <string.h>

#include "mpi.h"
#include "xalloc.h"

/* The census counters that add, in two lists: 64-bit counts, and the
 * 128-bit byte totals. */
#define SCALARS(X) X(files) X(dirs) X(symlinks) X(others) \
	X(hardlink_dups) X(snapshot_dirs) X(symlink_rel) X(symlink_abs) \
	X(mounts_skipped) X(excluded)
#define WIDE(X) X(bytes) X(alloc) X(all_size) X(all_blocks)
#define COUNT_ONE(f) + 1
#define NSCALAR (0 SCALARS(COUNT_ONE))
#define NWIDE (0 WIDE(COUNT_ONE))

struct fixed {
	uint64_t v[NSCALAR];
	u128 w[NWIDE];
	struct hist h[METRIC_COUNT];
};

static void
fixed_get(const struct census *c, struct fixed *f)
{
	int k = 0, m = 0;

#define GET(x) f->v[k++] = c->x;
#define GETW(x) f->w[m++] = c->x;
	SCALARS(GET)
	WIDE(GETW)
#undef GET
#undef GETW
	memcpy(f->h, c->h, sizeof f->h);
}

static void
fixed_put(const struct fixed *f, struct census *c)
{
	int k = 0, m = 0;

#define PUT(x) c->x = f->v[k++];
#define PUTW(x) c->x = f->w[m++];
	SCALARS(PUT)
	WIDE(PUTW)
#undef PUT
#undef PUTW
	memcpy(c->h, f->h, sizeof c->h);
}

/* MPI's buffers need not be aligned for 128-bit sums: work on copies. */
static void
fixed_op(void *in, void *inout, int *len, MPI_Datatype *type)
{
	struct fixed *a = xmalloc(sizeof *a), *b = xmalloc(sizeof *b);

	(void)type;
	for (int i = 0; i < *len; i++) {
		memcpy(a, (char *)in + (size_t)i * sizeof *a, sizeof *a);
		memcpy(b, (char *)inout + (size_t)i * sizeof *b, sizeof *b);
		for (int k = 0; k < NSCALAR; k++)
			b->v[k] += a->v[k];
		for (int k = 0; k < NWIDE; k++)
			b->w[k] += a->w[k];
		for (int k = 0; k < METRIC_COUNT; k++)
			hist_merge(&b->h[k], &a->h[k]);
		memcpy((char *)inout + (size_t)i * sizeof *b, b, sizeof *b);
	}
	free(a);
	free(b);
}

static void
reduce_fixed(const struct mpi_job *j, struct census *c)
{
	struct fixed *mine = xcalloc(1, sizeof *mine);
	struct fixed *sum = xcalloc(1, sizeof *sum);
	MPI_Datatype type;
	MPI_Op op;

	fixed_get(c, mine);
	MPI_Type_contiguous((int)sizeof *mine, MPI_BYTE, &type);
	MPI_Type_commit(&type);
	MPI_Op_create(fixed_op, 1, &op);
	MPI_Reduce(mine, sum, 1, type, op, 0, j->comm);
	MPI_Op_free(&op);
	MPI_Type_free(&type);
	if (j->rank == 0)
		fixed_put(sum, c);
	free(mine);
	free(sum);
}

/* ---- the keyed part ------------------------------------------------ */

static void
put_acct(struct iobuf *b, const struct acct *a)
{
	iobuf_varint(b, a->files);
	iobuf_varint(b, a->dirs);
	mpi_put_u128(b, a->bytes);
	mpi_put_u128(b, a->alloc);
}

static void
get_acct(struct cursor *c, struct acct *a)
{
	a->files = cursor_varint(c);
	a->dirs = cursor_varint(c);
	a->bytes = mpi_get_u128(c);
	a->alloc = mpi_get_u128(c);
}

/* A histogram's non-empty slots, ascending: a project of a few files
 * has a few of its 66. */
static void
put_phist(struct iobuf *b, const struct phist *h)
{
	uint64_t used = 0;

	for (int i = 0; i < HIST_NB; i++)
		used += h->n[i] != 0;
	iobuf_varint(b, used);
	for (int i = 0; i < HIST_NB; i++) {
		if (!h->n[i])
			continue;
		iobuf_varint(b, (uint64_t)i);
		iobuf_varint(b, h->n[i]);
		mpi_put_u128(b, h->w[i]);
	}
	mpi_put_u128(b, zigzag128(h->min));
	mpi_put_u128(b, zigzag128(h->max));
	iobuf_varint(b, h->count);
}

/* Into h, empty. */
static void
get_phist(struct cursor *c, struct phist *h)
{
	uint64_t used = cursor_varint_max(c, HIST_NB, "too many slots");
	int64_t last = -1;

	for (uint64_t k = 0; k < used && !c->err; k++) {
		uint64_t i = cursor_varint(c);
		if (i >= HIST_NB || (int64_t)i <= last) {
			cursor_fail(c, "slot out of order");
			return;
		}
		last = (int64_t)i;
		h->n[i] = cursor_varint(c);
		h->w[i] = mpi_get_u128(c);
	}
	h->min = unzigzag128(mpi_get_u128(c));
	h->max = unzigzag128(mpi_get_u128(c));
	h->count = cursor_varint(c);
}

/* A project's cold-data bins, every one (walk.h: the thresholds are the
 * same on every rank, and unused bins are 0). */
static void
put_cold(struct iobuf *b, const struct cold_bins *cb)
{
	for (int i = 0; i < ACCOUNT_COLD_MAX; i++)
		iobuf_varint(b, cb->n[i]);
	for (int i = 0; i < ACCOUNT_COLD_MAX; i++)
		mpi_put_u128(b, cb->w[i]);
}

static void
get_cold(struct cursor *c, struct cold_bins *cb)
{
	for (int i = 0; i < ACCOUNT_COLD_MAX; i++)
		cb->n[i] = cursor_varint(c);
	for (int i = 0; i < ACCOUNT_COLD_MAX; i++)
		cb->w[i] = mpi_get_u128(c);
}

static void
put_dist(struct iobuf *b, const struct proj_dist *d)
{
	put_phist(b, &d->size);
	put_phist(b, &d->atime);
	put_phist(b, &d->mtime);
	put_phist(b, &d->ctime);
	for (int m = 0; m < ACCOUNT_NCOLD_METRIC; m++)
		put_cold(b, &d->cold[m]);
}

static void
get_dist(struct cursor *c, struct proj_dist *d)
{
	get_phist(c, &d->size);
	get_phist(c, &d->atime);
	get_phist(c, &d->mtime);
	get_phist(c, &d->ctime);
	for (int m = 0; m < ACCOUNT_NCOLD_METRIC; m++)
		get_cold(c, &d->cold[m]);
}

/* An owner's cold bins, those it uses (most owners have none). */
static void
put_owner_cold(struct iobuf *b, const struct idmap_ent *e)
{
	struct cold_bins cb[ACCOUNT_NCOLD_METRIC];
	uint64_t n = 0;

	census_idmap_cold(e, cb);
	for (int m = 0; m < ACCOUNT_NCOLD_METRIC; m++)
		for (int k = 0; k < ACCOUNT_COLD_MAX; k++)
			n += cb[m].n[k] != 0;
	iobuf_varint(b, n);
	for (int m = 0; m < ACCOUNT_NCOLD_METRIC; m++)
		for (int k = 0; k < ACCOUNT_COLD_MAX; k++) {
			if (!cb[m].n[k])
				continue;
			iobuf_varint(b, (uint64_t)(m * ACCOUNT_COLD_MAX + k));
			iobuf_varint(b, cb[m].n[k]);
			mpi_put_u128(b, cb[m].w[k]);
		}
}

static void
get_owner_cold(struct cursor *c, struct idmap *m, struct idmap_ent *e)
{
	uint64_t n = cursor_varint_max(c, ACCOUNT_NCOLD_METRIC *
	    ACCOUNT_COLD_MAX, "too many cold bins");

	for (uint64_t i = 0; i < n && !c->err; i++) {
		uint64_t key = cursor_varint_max(c, ACCOUNT_NCOLD_METRIC *
		    ACCOUNT_COLD_MAX - 1, "cold bin out of range");
		uint64_t files = cursor_varint(c);
		u128 w = mpi_get_u128(c);
		if (!c->err)
			census_idmap_cold_add(m, e, (int)(key /
			    ACCOUNT_COLD_MAX), (int)(key % ACCOUNT_COLD_MAX),
			    files, w);
	}
}

static void
put_idmap(struct iobuf *b, const struct idmap *m)
{
	iobuf_varint(b, m->len);
	for (size_t i = 0; i < m->cap; i++) {
		if (!m->e[i].used)
			continue;
		iobuf_varint(b, m->e[i].id);
		put_acct(b, &m->e[i].a);
		put_owner_cold(b, &m->e[i]);
	}
}

static void
put_topn(struct iobuf *b, const struct topn *t)
{
	iobuf_varint(b, (uint64_t)t->len);
	for (int i = 0; i < t->len; i++) {
		iobuf_varint(b, t->e[i].key);
		iobuf_str(b, t->e[i].path, strlen(t->e[i].path));
	}
}

/* The project IDs this rank met, so that rank 0 can read the quotas of
 * every one (scan/scan.c) and name them as the rank that met them did. */
static void
put_projids(struct iobuf *b, const struct project_rules *rules)
{
	uint32_t *ids;
	int32_t *projs;
	size_t n = project_projids(rules, &ids, &projs);

	iobuf_varint(b, n);
	for (size_t i = 0; i < n; i++)
		iobuf_varint(b, ids[i]);
	free(ids);
	free(projs);
}

static void
get_projids(struct cursor *c, struct project_rules *rules)
{
	uint64_t n = cursor_varint(c);

	for (uint64_t i = 0; i < n && !c->err; i++) {
		uint64_t id = cursor_varint(c);
		if (id == 0 || id > UINT32_MAX) {
			cursor_fail(c, "project ID out of range");
			return;
		}
		project_projid_note(rules, (uint32_t)id);
	}
}

static void
pack_keyed(const struct census *c, const struct project_rules *rules,
    struct iobuf *b)
{
	struct proj_dist *pd = xmalloc(sizeof *pd);
	size_t np = 0;

	for (int32_t p = 0; p < census_proj_end(c); p++) {
		const struct proj_stats *ps = census_proj_find(c, p);
		np += ps && ps->entries;
	}
	iobuf_varint(b, np);
	for (int32_t p = 0; p < census_proj_end(c); p++) {
		const struct proj_stats *ps = census_proj_find(c, p);
		const char *name = project_name(rules, p);
		if (!ps || !ps->entries)
			continue;
		census_proj_dist(c, p, pd);
		iobuf_str(b, name, strlen(name));
		iobuf_varint(b, project_source_bits(rules, p));
		put_acct(b, &ps->a);
		iobuf_varint(b, ps->entries);
		/* the distributions only when there are some */
		iobuf_varint(b, pd->size.count != 0);
		if (pd->size.count)
			put_dist(b, pd);
	}
	free(pd);
	put_idmap(b, &c->users);
	put_idmap(b, &c->groups);
	put_topn(b, &c->top_files);
	put_topn(b, &c->top_dirs);
	iobuf_varint(b, c->nerrs);
	for (size_t i = 0; i < c->nerrs; i++) {
		const struct errstat *e = &c->errs[i];
		iobuf_varint(b, (uint64_t)e->err);
		iobuf_varint(b, e->count);
		iobuf_varint(b, (uint64_t)e->npaths);
		for (int k = 0; k < e->npaths; k++)
			iobuf_str(b, e->paths[k], strlen(e->paths[k]));
	}
	put_projids(b, rules);
}

static void
get_idmap(struct cursor *c, struct idmap *m)
{
	uint64_t n = cursor_varint(c);

	for (uint64_t i = 0; i < n && !c->err; i++) {
		uint32_t id = (uint32_t)cursor_varint(c);
		struct idmap_ent *e = census_idmap_get(m, id);
		get_acct(c, &e->a);
		get_owner_cold(c, m, e);
	}
}

static void
get_topn(struct cursor *c, struct topn *t, char **buf, size_t *cap)
{
	uint64_t n = cursor_varint(c);

	for (uint64_t i = 0; i < n && !c->err; i++) {
		uint64_t key = cursor_varint(c);
		topn_offer(t, key, xstrdup(mpi_comm_str(c, buf, cap, NULL)));
	}
}

static void
get_errors(struct cursor *c, struct census *t, char **buf, size_t *cap)
{
	uint64_t n = cursor_varint(c);

	for (uint64_t i = 0; i < n && !c->err; i++) {
		int err = (int)cursor_varint(c);
		uint64_t count = cursor_varint(c);
		uint64_t np = cursor_varint_max(c, ERR_PATHS, "too many paths");

		for (uint64_t k = 0; k < np && !c->err; k++)
			census_error(t, err, xstrdup(mpi_comm_str(c, buf,
			    cap, NULL)));
		if (count < np)
			cursor_fail(c, "fewer errors than paths");
		else
			census_error_count(t, err, count - np);
	}
}

/* Into t (empty but for its top-N sizes), names in this rank's registry. */
static void
unpack_keyed(struct cursor *c, struct census *t, struct project_rules *rules)
{
	struct proj_dist *pd = xmalloc(sizeof *pd);
	char *buf = NULL;
	size_t cap = 0;
	uint64_t np = cursor_varint(c);

	for (uint64_t i = 0; i < np && !c->err; i++) {
		int32_t id = project_id(rules, mpi_comm_str(c, &buf, &cap,
		    NULL), 0);
		struct proj_stats *ps = census_proj(t, id);
		project_add_sources(rules, id, (uint32_t)cursor_varint(c));
		get_acct(c, &ps->a);
		ps->entries = cursor_varint(c);
		if (cursor_varint(c)) {
			memset(pd, 0, sizeof *pd);
			get_dist(c, pd);
			if (!c->err)
				census_proj_dist_add(t, id, pd);
		}
	}
	free(pd);
	get_idmap(c, &t->users);
	get_idmap(c, &t->groups);
	get_topn(c, &t->top_files, &buf, &cap);
	get_topn(c, &t->top_dirs, &buf, &cap);
	get_errors(c, t, &buf, &cap);
	get_projids(c, rules);
	free(buf);
}

static void
merge_tree(const struct mpi_job *j, struct census *c,
    struct project_rules *rules)
{
	struct iobuf b = { 0 };

	for (int step = 1; step < j->n; step <<= 1) {
		if (j->rank & step) {
			b.len = 0;
			pack_keyed(c, rules, &b);
			mpi_comm_send_buf(j, &b, j->rank - step, TAG_MERGE);
			break;
		}
		if (j->rank + step < j->n) {
			struct census t;
			struct cursor cur;

			census_init(&t, c->top_files.cap);
			mpi_comm_recv_buf(j, &b, j->rank + step, TAG_MERGE);
			cur = (struct cursor){ b.p, b.p + b.len, NULL };
			unpack_keyed(&cur, &t, rules);
			if (cur.err || cur.p != cur.end)
				mpi_comm_fail("census of another rank",
				    cur.err ? cur.err : "trailing bytes");
			census_merge(c, &t);
			census_free(&t);
		}
	}
	iobuf_free(&b);
}

void
mpi_census_reduce(const struct mpi_job *j, struct census *c,
    struct project_rules *rules)
{
	reduce_fixed(j, c);
	merge_tree(j, c, rules);
}
