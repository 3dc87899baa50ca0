/*
 * snapshot: write one scan into the census database. Every value is bound;
 * names and paths are stored as the bytes the file system returned.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "db.h"
#include "idname.h"
#include "record.h"
#include "xalloc.h"

/* A statement and the error context of one write. */
struct w {
	sqlite3 *db;
	char *err;
	size_t errlen;
};

static sqlite3_stmt *
prep(struct w *w, const char *sql)
{
	return db_prepare(w->db, sql, w->err, w->errlen);
}

static int
done(struct w *w, sqlite3_stmt *st)
{
	/* R1: every row of a snapshot is written inside a transaction:
	 * its running row, then all the others at once */
	assert(db_in_txn(w->db));
	if (db_step_done(st) == 0)
		return 0;
	snprintf(w->err, w->errlen, "%s", sqlite3_errmsg(w->db));
	return -1;
}

/* dir_scope: how deep the dir rows go, so that an empty depth can be
 * told from one the scan did not keep. */
static int
write_dir_scope(struct w *w, int64_t id, int depth)
{
	sqlite3_stmt *st = prep(w, "INSERT INTO dir_scope (snapshot_id,"
	    " max_depth) VALUES (?,?)");
	int rc;

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	db_bind_opt(st, 2, depth >= 0, depth);
	rc = done(w, st);
	sqlite3_finalize(st);
	return rc;
}

static int
insert_snapshot(struct w *w, const struct snap_meta *m, int64_t *id)
{
	sqlite3_stmt *st = prep(w,
	    "INSERT INTO snapshot (fs, root, root_abs, host, fstype, fs_source,"
	    " fs_uuid, fs_label, mount_opts, started_at, now_ref, status,"
	    " threads, options, version, scanned_at, fs_dev, fs_mountpoint)"
	    " VALUES (?,?,?,?,?,?,?,?,?,?,?,'running',?,?,?,?,?,?)");
	int rc;

	if (!st)
		return -1;
	db_bind_text(st, 1, m->fs);
	db_bind_text(st, 2, m->root);
	db_bind_text(st, 3, m->root_abs);
	db_bind_text(st, 4, m->host);
	db_bind_text(st, 5, m->fstype);
	db_bind_text(st, 6, m->source);
	db_bind_text(st, 7, m->uuid);
	db_bind_text(st, 8, m->label);
	db_bind_text(st, 9, m->mntopts);
	sqlite3_bind_int64(st, 10, m->started);
	sqlite3_bind_int64(st, 11, m->now_ref);
	sqlite3_bind_int(st, 12, m->threads);
	db_bind_text(st, 13, m->options);
	db_bind_text(st, 14, IOCENSUS_VERSION);
	sqlite3_bind_int64(st, 15, m->scanned);
	db_bind_text(st, 16, m->dev);
	db_bind_text(st, 17, m->mountpoint);
	rc = done(w, st);
	*id = sqlite3_last_insert_rowid(w->db);
	sqlite3_finalize(st);
	return rc;
}

int
snapshot_begin(sqlite3 *db, const struct snap_meta *m, int64_t *id,
    char *err, size_t errlen)
{
	struct w w = { db, err, errlen };

	if (db_begin(db) < 0) {
		snprintf(err, errlen, "%s", sqlite3_errmsg(db));
		return -1;
	}
	if (insert_snapshot(&w, m, id) < 0 ||
	    write_dir_scope(&w, *id, m->dirs_depth) < 0 || db_commit(db) < 0) {
		if (!err[0])
			snprintf(err, errlen, "%s", sqlite3_errmsg(db));
		db_rollback(db);
		return -1;
	}
	return 0;
}

/* When the scan finished on the snapshot's clock: --as-of dates the start
 * in the past, and the walk took as long as it really did (never less
 * than nothing, whatever the clock did meanwhile). started <= scanned, so
 * the sum is at most the time now. */
static int64_t
finished_at(const struct snap_parts *p)
{
	int64_t now = (int64_t)time(NULL);

	return now > p->scanned ? p->started + (now - p->scanned) :
	    p->started;
}

/* `iocensus forget --force` may have removed the running row while the
 * walk went on: then the scan is not recorded, rather than its rows
 * failing one by one on their missing snapshot. */
static int
check_alive(struct w *w, int64_t id)
{
	sqlite3_stmt *st = prep(w, "SELECT 1 FROM snapshot WHERE id = ?");
	int rc;

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc == SQLITE_ROW)
		return 0;
	if (rc == SQLITE_DONE)
		snprintf(w->err, w->errlen, "snapshot %lld was removed while "
		    "the scan ran (iocensus forget --force): not recorded",
		    (long long)id);
	else
		snprintf(w->err, w->errlen, "%s", sqlite3_errmsg(w->db));
	return -1;
}

static int
write_totals(struct w *w, int64_t id, const struct walk_result *r,
    const char *status, const struct snap_parts *p)
{
	const struct fs_capacity *cap = p->cap, none = { 0 };
	const struct fs_capacity *cv = cap ? cap : &none;
	i128 capv[] = { cv->bytes, cv->free_bytes, cv->avail_bytes,
	    cv->inodes, cv->free_inodes };
	const struct census *c = &r->c;
	sqlite3_stmt *st;

	/* R1: complete only after the whole walk, with every row of the
	 * snapshot in this one transaction */
	assert(strcmp(status, "complete") != 0 || !r->interrupted);
	assert(db_in_txn(w->db));	/* R1 */
	/* R2: below this, no total can have wrapped (snapshot_finish) */
	assert(census_entries(c) < CENSUS_MAX_ENTRIES);
	st = prep(w,
	    "UPDATE snapshot SET status=?, finished_at=?, files=?, dirs=?,"
	    " symlinks=?, others=?, hardlink_dups=?, snapshot_dirs=?,"
	    " symlink_rel=?, symlink_abs=?, mounts_skipped=?, excluded=?,"
	    " errors=?, bytes=?, alloc_bytes=?, all_size=?, all_blocks=?,"
	    " entries_per_s=?, fs_bytes=?, fs_free_bytes=?, fs_avail_bytes=?,"
	    " fs_inodes=?, fs_free_inodes=? WHERE id=?");
	uint64_t v[] = { c->files, c->dirs, c->symlinks, c->others,
	    c->hardlink_dups, c->snapshot_dirs, c->symlink_rel,
	    c->symlink_abs, c->mounts_skipped, c->excluded, c->nerrors };
	u128 b[] = { c->bytes, c->alloc, c->all_size, c->all_blocks };
	int i = 1, rc;

	if (!st)
		return -1;
	db_bind_text(st, i++, status);
	sqlite3_bind_int64(st, i++, finished_at(p));
	for (size_t k = 0; k < sizeof v / sizeof *v; k++)
		sqlite3_bind_int64(st, i++, (int64_t)v[k]);
	for (size_t k = 0; k < sizeof b / sizeof *b; k++)
		db_bind_i128(st, i++, (i128)b[k]);
	sqlite3_bind_double(st, i++, r->seconds > 0 ?
	    (double)r->entries / r->seconds : 0.0);
	/* Capacity is exact too (a product of 64-bit counts): NULL unknown. */
	for (size_t k = 0; k < sizeof capv / sizeof *capv; k++)
		db_bind_opt(st, i++, cap != NULL, capv[k]);
	sqlite3_bind_int64(st, i, id);
	rc = done(w, st);
	sqlite3_finalize(st);
	return rc;
}

/* Counts stay far below 2^63; bytes are 128-bit (below 2^127 within
 * CENSUS_MAX_ENTRIES entries) and go in as exact text beyond 2^63 - 1. */
static int
bind_acct(sqlite3_stmt *st, int i, const struct acct *a)
{
	sqlite3_bind_int64(st, i, (int64_t)a->files);
	sqlite3_bind_int64(st, i + 1, (int64_t)a->dirs);
	db_bind_i128(st, i + 2, (i128)a->bytes);
	db_bind_i128(st, i + 3, (i128)a->alloc);
	return i + 4;
}

/*
 * The projects written: those with entries, in the order of their names
 * (bytes, as SQLite's BINARY collation orders them), so that every
 * per-project table is written in the order of its key. A project's row
 * and its other rows carry its number in this order, 1 up (project.id),
 * not its name.
 */
struct proj_order {
	int32_t *p;		/* the walk's project numbers, by name */
	size_t n;
};

struct named {
	const char *name;
	int32_t p;
};

static int
named_cmp(const void *a, const void *b)
{
	return strcmp(((const struct named *)a)->name,
	    ((const struct named *)b)->name);
}

static void
proj_order_make(struct proj_order *o, const struct census *c,
    const struct project_rules *rules)
{
	size_t end = (size_t)census_proj_end(c);
	struct named *v = xcalloc(end + 1, sizeof *v);

	o->p = xcalloc(end + 1, sizeof *o->p);
	o->n = 0;
	for (int32_t p = 0; p < (int32_t)end; p++) {
		const struct proj_stats *ps = census_proj_find(c, p);

		if (ps && ps->entries)
			v[o->n++] = (struct named){ project_name(rules, p),
			    p };
	}
	qsort(v, o->n, sizeof *v, named_cmp);
	for (size_t i = 0; i < o->n; i++)
		o->p[i] = v[i].p;
	free(v);
}

/* The whole file system's histogram rows: one per non-empty slot. */
static int
write_hist_rows(struct w *w, sqlite3_stmt *st, int64_t id, const char *metric,
    const struct hist *h)
{
	char b1[I128_STRLEN], b2[HIST_VW_STRLEN];

	for (int slot = 0; slot < HIST_NB; slot++) {
		if (!h->n[slot])
			continue;
		sqlite3_bind_int64(st, 1, id);
		db_bind_text(st, 2, metric);
		sqlite3_bind_int(st, 3, slot);
		sqlite3_bind_int64(st, 4, (int64_t)h->n[slot]);
		db_bind_i128(st, 5, (i128)h->w[slot]);
		db_bind_text(st, 6, i128_str(h->v[slot], b1));
		db_bind_text(st, 7, hist_vw_str(&h->vw[slot], b2));
		if (done(w, st) < 0)
			return -1;
	}
	return 0;
}

/* A project's rows of one file metric (k, its code in file_metric): one
 * per non-empty slot. */
static int
write_proj_hist(struct w *w, sqlite3_stmt *st, int64_t id, int64_t pid,
    int k, const struct phist *h)
{
	for (int slot = 0; slot < HIST_NB; slot++) {
		if (!h->n[slot])
			continue;
		sqlite3_bind_int64(st, 1, id);
		sqlite3_bind_int64(st, 2, pid);
		sqlite3_bind_int(st, 3, k);
		sqlite3_bind_int(st, 4, slot);
		sqlite3_bind_int64(st, 5, (int64_t)h->n[slot]);
		db_bind_i128(st, 6, (i128)h->w[slot]);
		if (done(w, st) < 0)
			return -1;
	}
	return 0;
}

/* A project's extremes, when it has regular files: every one is in each
 * of its file histograms, so all four have them or none. */
static int
write_project_extent(struct w *w, sqlite3_stmt *st, int64_t id, int64_t pid,
    const struct phist *const ph[METRIC_NFILE])
{
	if (ph[0]->count == 0)
		return 0;
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_int64(st, 2, pid);
	for (int k = 0; k < METRIC_NFILE; k++) {
		db_bind_i128(st, 3 + 2 * k, ph[k]->min);
		db_bind_i128(st, 4 + 2 * k, ph[k]->max);
	}
	return done(w, st);
}

static int
write_hists(struct w *w, int64_t id, const struct census *c,
    const struct proj_order *o)
{
	sqlite3_stmt *st = prep(w, "INSERT INTO hist (snapshot_id, metric,"
	    " slot, n, w, v, vw) VALUES (?,?,?,?,?,?,?)");
	sqlite3_stmt *ph = prep(w, "INSERT INTO project_hist (snapshot_id,"
	    " project_id, metric, slot, n, w) VALUES (?,?,?,?,?,?)");
	sqlite3_stmt *ex = prep(w, "INSERT INTO hist_extent (snapshot_id,"
	    " metric, min, max) VALUES (?,?,?,?)");
	/* The columns in the order of metric_file[]. */
	sqlite3_stmt *px = prep(w, "INSERT INTO project_extent (snapshot_id,"
	    " project_id, size_min, size_max, atime_min, atime_max, mtime_min,"
	    " mtime_max, ctime_min, ctime_max) VALUES (?,?,?,?,?,?,?,?,?,?)");
	struct proj_dist pd;
	int rc = -1;

	if (!st || !ph || !ex || !px)
		goto out;
	for (int i = 0; i < METRIC_COUNT; i++) {
		const struct hist *h = &c->h[i];
		/* Overhead rows are chosen by size, so their bounds are sizes. */
		if (write_hist_rows(w, st, id, metric_def[i].name, h) < 0)
			goto out;
		if (!hist_total(h))
			continue;
		sqlite3_bind_int64(ex, 1, id);
		db_bind_text(ex, 2, metric_def[i].name);
		db_bind_i128(ex, 3, h->min);
		db_bind_i128(ex, 4, h->max);
		if (done(w, ex) < 0)
			goto out;
	}
	for (size_t i = 0; i < o->n; i++) {
		/* In the order of metric_file[], the codes of file_metric. */
		const struct phist *const hs[METRIC_NFILE] = { &pd.size,
		    &pd.atime, &pd.mtime, &pd.ctime };
		int64_t pid = (int64_t)i + 1;

		census_proj_dist(c, o->p[i], &pd);

		for (int k = 0; k < METRIC_NFILE; k++)
			if (write_proj_hist(w, ph, id, pid, k, hs[k]) < 0)
				goto out;
		if (write_project_extent(w, px, id, pid, hs) < 0)
			goto out;
	}
	rc = 0;
out:
	sqlite3_finalize(st);
	sqlite3_finalize(ph);
	sqlite3_finalize(ex);
	sqlite3_finalize(px);
	return rc;
}

static int
write_projects(struct w *w, int64_t id, const struct census *c,
    const struct project_rules *rules, const struct proj_order *o)
{
	sqlite3_stmt *st = prep(w, "INSERT INTO project (snapshot_id, name,"
	    " source, files, dirs, bytes, alloc_bytes, entries, public, id)"
	    " VALUES (?,?,?,?,?,?,?,?,?,?)");
	char src[512];
	int rc = 0;

	if (!st)
		return -1;
	for (size_t i = 0; i < o->n && rc == 0; i++) {
		int32_t p = o->p[i];
		const struct proj_stats *ps = census_proj_find(c, p);

		project_sources(rules, p, src, sizeof src);
		sqlite3_bind_int64(st, 1, id);
		db_bind_text(st, 2, project_name(rules, p));
		db_bind_text(st, 3, src);
		bind_acct(st, 4, &ps->a);
		sqlite3_bind_int64(st, 8, (int64_t)ps->entries);
		sqlite3_bind_int(st, 9, project_public(rules, p));
		sqlite3_bind_int64(st, 10, (int64_t)i + 1);
		rc = done(w, st);
	}
	sqlite3_finalize(st);
	return rc;
}

/* Whose cold rows: the whole file system's (kind NULL, id 0), a
 * project's (kind NULL, its project.id) or an owner's (kind "user" or
 * "group", its uid or gid). */
struct cold_of {
	const char *kind;
	int64_t id;
};

/*
 * The cold rows of one project, owner or of the whole file system into
 * st, numbered k = metric * ncold + threshold (atime first, thresholds
 * ascending). The file system's go into cold, every one, zero included:
 * they are the thresholds the scan recorded. A project's go into
 * project_cold, an owner's into owner_cold, where it differs from the
 * next threshold's; v_cold and v_cold_owner give the others.
 */
static int
write_cold_rows(struct w *w, sqlite3_stmt *st, int64_t id,
    const struct cold_of *of, const struct cold_bins *cb,
    const struct snap_parts *p)
{
	static const char *const metric[ACCOUNT_NCOLD_METRIC] = {
	    [ACCOUNT_ATIME] = "atime", [ACCOUNT_MTIME] = "mtime" };
	int fs = !of->kind && of->id == 0;

	for (int m = 0; m < ACCOUNT_NCOLD_METRIC; m++)
		for (int k = 0; k < p->ncold; k++) {
			uint64_t files;
			u128 bytes;
			int i = 1;

			/* A project's or owner's row where it differs from
			 * the next threshold's (zero past the last): where
			 * its bin holds files. The views take the others
			 * from the next row kept. */
			if (!fs && cb[m].n[k] == 0)
				continue;
			census_cold_sum(&cb[m], p->ncold, k, &files, &bytes);
			sqlite3_bind_int64(st, i++, id);
			if (of->kind)
				db_bind_text(st, i++, of->kind);
			if (!fs)
				sqlite3_bind_int64(st, i++, of->id);
			sqlite3_bind_int(st, i++, m * p->ncold + k);
			if (fs) {
				db_bind_text(st, i++, metric[m]);
				sqlite3_bind_int64(st, i++, p->cold_days[k]);
			}
			sqlite3_bind_int64(st, i++, (int64_t)files);
			db_bind_i128(st, i, (i128)bytes);
			if (done(w, st) < 0)
				return -1;
		}
	return 0;
}

/* v_cold: each project's rows, then the whole file system's, the sum of
 * the projects' bins (every regular file is in one project). */
static int
write_cold(struct w *w, int64_t id, const struct census *c,
    const struct proj_order *o, const struct snap_parts *p)
{
	sqlite3_stmt *fs = prep(w, "INSERT INTO cold (snapshot_id, k, metric,"
	    " days, files, bytes) VALUES (?,?,?,?,?,?)");
	sqlite3_stmt *pc = prep(w, "INSERT INTO project_cold (snapshot_id,"
	    " project_id, k, files, bytes) VALUES (?,?,?,?,?)");
	struct cold_bins all[ACCOUNT_NCOLD_METRIC] = { 0 };
	struct proj_dist pd;
	int rc = fs && pc ? 0 : -1;

	for (size_t i = 0; i < o->n && rc == 0; i++) {
		const struct cold_bins *cold = pd.cold;
		struct cold_of of = { NULL, (int64_t)i + 1 };

		census_proj_dist(c, o->p[i], &pd);
		for (int m = 0; m < ACCOUNT_NCOLD_METRIC; m++)
			census_cold_merge(&all[m], &cold[m]);
		rc = write_cold_rows(w, pc, id, &of, cold, p);
	}
	if (rc == 0)
		rc = write_cold_rows(w, fs, id, &(struct cold_of){ NULL, 0 },
		    all, p);
	sqlite3_finalize(fs);
	sqlite3_finalize(pc);
	return rc;
}

/* v_cold_owner: the owners of one kind that have cold files; the others'
 * rows, all zero, come from owner (census.c keeps no bins for them). */
static int
write_owner_cold(struct w *w, int64_t id, const struct idmap *m,
    const char *kind, const struct snap_parts *p)
{
	sqlite3_stmt *st = prep(w, "INSERT INTO owner_cold (snapshot_id,"
	    " kind, id, k, files, bytes) VALUES (?,?,?,?,?,?)");
	struct cold_bins cb[ACCOUNT_NCOLD_METRIC];
	int rc = st ? 0 : -1;

	for (size_t i = 0; i < m->cap && rc == 0; i++) {
		const struct idmap_ent *e = &m->e[i];
		if (!e->used || !e->cold)
			continue;
		census_idmap_cold(e, cb);
		rc = write_cold_rows(w, st, id, &(struct cold_of){ kind,
		    e->id }, cb, p);
	}
	sqlite3_finalize(st);
	return rc;
}

static int
write_owners(struct w *w, int64_t id, const struct idmap *m, const char *kind)
{
	sqlite3_stmt *st = prep(w, "INSERT INTO owner (snapshot_id, kind, id,"
	    " name, files, dirs, bytes, alloc_bytes) VALUES (?,?,?,?,?,?,?,?)");
	int rc = 0;

	if (!st)
		return -1;
	for (size_t i = 0; i < m->cap && rc == 0; i++) {
		const struct idmap_ent *e = &m->e[i];
		char *name;
		if (!e->used)
			continue;
		name = idname_of(kind[0] == 'u' ? ID_USER : ID_GROUP, e->id);
		sqlite3_bind_int64(st, 1, id);
		db_bind_text(st, 2, kind);
		sqlite3_bind_int64(st, 3, e->id);
		db_bind_text(st, 4, name);
		bind_acct(st, 5, &e->a);
		rc = done(w, st);
		free(name);
	}
	sqlite3_finalize(st);
	return rc;
}

/* The first free dir row id: rows of this snapshot are base + seq. */
static int
dir_base(struct w *w, int64_t *base)
{
	sqlite3_stmt *st = prep(w, "SELECT ifnull(max(id), 0) + 1 FROM dir");
	int rc = -1;

	if (!st)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW) {
		*base = sqlite3_column_int64(st, 0);
		rc = 0;
	} else {
		snprintf(w->err, w->errlen, "%s", sqlite3_errmsg(w->db));
	}
	sqlite3_finalize(st);
	return rc;
}

void
snapshot_dir_row(const struct dirtot *t, uint64_t parent_seq,
    struct dir_row *row)
{
	row->seq = t->seq;
	row->has_parent = t->parent != NULL;
	row->parent_seq = t->parent ? parent_seq : 0;
	row->depth = t->depth;
	row->name = t->name;
	row->namelen = t->namelen;
	dirtot_get(t, &row->tot);
}

/* The walk's own nodes, in seq order. */
struct list_src {
	const struct dirtot_list *l;
	size_t i;
};

static int
list_next(void *arg, struct dir_row *row, char *err, size_t errlen)
{
	struct list_src *s = arg;
	const struct dirtot *t;

	(void)err;
	(void)errlen;
	if (s->i == s->l->len)
		return 0;
	t = s->l->v[s->i++];
	snapshot_dir_row(t, t->parent ? t->parent->seq : 0, row);
	return 1;
}

/* One row per node: its name and its parent's row, never a path, so the
 * rows of a deep tree take space linear in its size. cold_bytes is NULL
 * when the scan recorded no cold data (no --cold): unknown, not zero. */
static int
write_dirs(struct w *w, int64_t id, const struct dir_source *src, int cold)
{
	struct dir_row row;
	sqlite3_stmt *st;
	int64_t base;
	int rc = 0, more;

	if (dir_base(w, &base) < 0)
		return -1;
	st = prep(w, "INSERT INTO dir (id, snapshot_id, parent, name, depth,"
	    " files, dirs, bytes, alloc_bytes, max_mtime, cold_bytes)"
	    " VALUES (?,?,?,?,?,?,?,?,?,?,?)");
	if (!st)
		return -1;
	while (rc == 0 &&
	    (more = src->next(src->arg, &row, w->err, w->errlen)) > 0) {
		struct acct a = { row.tot.files, row.tot.dirs, row.tot.bytes,
		    row.tot.alloc };
		sqlite3_bind_int64(st, 1, base + (int64_t)row.seq);
		sqlite3_bind_int64(st, 2, id);
		if (row.has_parent)
			sqlite3_bind_int64(st, 3, base + (int64_t)row.parent_seq);
		else
			sqlite3_bind_null(st, 3);
		db_bind_blobtext(st, 4, row.name, row.namelen);
		sqlite3_bind_int(st, 5, row.depth);
		bind_acct(st, 6, &a);
		db_bind_opt(st, 10, row.tot.any, row.tot.max_mtime);
		if (cold)
			db_bind_i128(st, 11, (i128)row.tot.cold);
		else
			sqlite3_bind_null(st, 11);
		rc = done(w, st);
	}
	sqlite3_finalize(st);
	return rc < 0 || more < 0 ? -1 : 0;
}

static int
write_ranks(struct w *w, int64_t id, const struct rank_stat *rs, int n)
{
	sqlite3_stmt *st = prep(w, "INSERT INTO scan_rank (snapshot_id, rank,"
	    " host, threads, entries, dirs, items_in, items_out, steals,"
	    " seconds) VALUES (?,?,?,?,?,?,?,?,?,?)");
	int rc = 0;

	if (!st)
		return -1;
	for (int i = 0; i < n && rc == 0; i++) {
		sqlite3_bind_int64(st, 1, id);
		sqlite3_bind_int(st, 2, rs[i].rank);
		db_bind_text(st, 3, rs[i].host[0] ? rs[i].host : NULL);
		sqlite3_bind_int(st, 4, rs[i].threads);
		sqlite3_bind_int64(st, 5, (int64_t)rs[i].entries);
		sqlite3_bind_int64(st, 6, (int64_t)rs[i].dirs);
		sqlite3_bind_int64(st, 7, (int64_t)rs[i].items_in);
		sqlite3_bind_int64(st, 8, (int64_t)rs[i].items_out);
		sqlite3_bind_int64(st, 9, (int64_t)rs[i].steals);
		sqlite3_bind_double(st, 10, rs[i].seconds);
		rc = done(w, st);
	}
	sqlite3_finalize(st);
	return rc;
}

static int
write_top(struct w *w, sqlite3_stmt *st, int64_t id, const char *kind,
    const struct topn *t)
{
	for (int i = 0; i < t->len; i++) {
		sqlite3_bind_int64(st, 1, id);
		db_bind_text(st, 2, kind);
		sqlite3_bind_int(st, 3, i + 1);
		db_bind_i128(st, 4, t->e[i].key);
		db_bind_blobtext(st, 5, t->e[i].path, strlen(t->e[i].path));
		if (done(w, st) < 0)
			return -1;
	}
	return 0;
}

static int
write_limits(struct w *w, int64_t id, const struct limits *l)
{
	sqlite3_stmt *st;
	int rc = 0;

	if (!l || l->n == 0)
		return 0;
	st = prep(w, "INSERT INTO project_limit (snapshot_id, project, bytes,"
	    " inodes, source) VALUES (?,?,?,?,?)");
	if (!st)
		return -1;
	for (size_t i = 0; i < l->n && rc == 0; i++) {
		sqlite3_bind_int64(st, 1, id);
		db_bind_blobtext(st, 2, l->v[i].project,
		    strlen(l->v[i].project));
		db_bind_opt(st, 3, l->v[i].has_bytes, l->v[i].bytes);
		db_bind_opt(st, 4, l->v[i].has_inodes, l->v[i].inodes);
		db_bind_text(st, 5, l->v[i].source);
		rc = done(w, st);
	}
	sqlite3_finalize(st);
	return rc;
}

static int
write_errors(struct w *w, int64_t id, const struct census *c)
{
	sqlite3_stmt *e = prep(w, "INSERT INTO scan_error (snapshot_id, errno,"
	    " message, count) VALUES (?,?,?,?)");
	sqlite3_stmt *p = prep(w, "INSERT INTO scan_error_path (snapshot_id,"
	    " errno, seq, path) VALUES (?,?,?,?)");
	int rc = -1;

	if (!e || !p)
		goto out;
	for (size_t i = 0; i < c->nerrs; i++) {
		const struct errstat *s = &c->errs[i];
		sqlite3_bind_int64(e, 1, id);
		sqlite3_bind_int(e, 2, s->err);
		db_bind_text(e, 3, strerror(s->err));
		sqlite3_bind_int64(e, 4, (int64_t)s->count);
		if (done(w, e) < 0)
			goto out;
		for (int k = 0; k < s->npaths; k++) {
			sqlite3_bind_int64(p, 1, id);
			sqlite3_bind_int(p, 2, s->err);
			sqlite3_bind_int(p, 3, k + 1);
			db_bind_blobtext(p, 4, s->paths[k],
			    strlen(s->paths[k]));
			if (done(w, p) < 0)
				goto out;
		}
	}
	rc = 0;
out:
	sqlite3_finalize(e);
	sqlite3_finalize(p);
	return rc;
}

int
snapshot_finish(sqlite3 *db, int64_t id, const struct walk_result *r,
    const struct project_rules *rules, const char *status,
    const struct snap_parts *parts, char *err, size_t errlen)
{
	struct w w = { db, err, errlen };
	struct list_src ls = { &r->dirs, 0 };
	struct dir_source own = { list_next, &ls };
	struct proj_order order = { NULL, 0 };
	sqlite3_stmt *top;

	/* Sums are exact only below CENSUS_MAX_ENTRIES (walk/walk.h, R2). */
	if (census_entries(&r->c) >= CENSUS_MAX_ENTRIES) {
		snprintf(err, errlen, "the scan counted 2^54 entries or more:"
		    " its byte totals could exceed 2^127, so it is not"
		    " recorded");
		return -1;
	}
	if (db_begin(db) < 0) {
		snprintf(err, errlen, "%s", sqlite3_errmsg(db));
		return -1;
	}
	top = prep(&w, "INSERT INTO top (snapshot_id, kind, rank, value, path)"
	    " VALUES (?,?,?,?,?)");
	proj_order_make(&order, &r->c, rules);
	if (!top || check_alive(&w, id) < 0 ||
	    write_projects(&w, id, &r->c, rules, &order) < 0 ||
	    write_cold(&w, id, &r->c, &order, parts) < 0 ||
	    write_owners(&w, id, &r->c.users, "user") < 0 ||
	    write_owners(&w, id, &r->c.groups, "group") < 0 ||
	    write_owner_cold(&w, id, &r->c.users, "user", parts) < 0 ||
	    write_owner_cold(&w, id, &r->c.groups, "group", parts) < 0 ||
	    write_hists(&w, id, &r->c, &order) < 0 ||
	    write_dirs(&w, id, parts->dirs ? parts->dirs : &own,
	    parts->ncold > 0) < 0 ||
	    write_ranks(&w, id, parts->ranks, parts->nranks) < 0 ||
	    write_top(&w, top, id, "file", &r->c.top_files) < 0 ||
	    write_top(&w, top, id, "dir", &r->c.top_dirs) < 0 ||
	    write_errors(&w, id, &r->c) < 0 ||
	    write_limits(&w, id, parts->limits) < 0 ||
	    write_totals(&w, id, r, status, parts) < 0 || db_commit(db) < 0) {
		if (!err[0])
			snprintf(err, errlen, "%s", sqlite3_errmsg(db));
		sqlite3_finalize(top);
		free(order.p);
		db_rollback(db);
		return -1;
	}
	sqlite3_finalize(top);
	free(order.p);
	return 0;
}

void
snapshot_fail(sqlite3 *db, int64_t id)
{
	sqlite3_stmt *st = NULL;

	if (sqlite3_prepare_v2(db, "UPDATE snapshot SET status='failed',"
	    " finished_at=? WHERE id=?", -1, &st, NULL) != SQLITE_OK)
		return;
	sqlite3_bind_int64(st, 1, (int64_t)time(NULL));
	sqlite3_bind_int64(st, 2, id);
	sqlite3_step(st);
	sqlite3_finalize(st);
}
