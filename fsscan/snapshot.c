/*
 * snapshot: write one scan into the census database. Every value is bound;
 * names and paths are stored as the bytes the file system returned.
 */
#include "snapshot.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "db.h"
#include "idname.h"

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
	    " threads, options, version, scanned_at)"
	    " VALUES (?,?,?,?,?,?,?,?,?,?,?,'running',?,?,?,?)");
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
finished_at(const struct snap_extra *x)
{
	int64_t now = (int64_t)time(NULL);

	return now > x->scanned ? x->started + (now - x->scanned) :
	    x->started;
}

static int
write_totals(struct w *w, int64_t id, const struct walk_result *r,
    const char *status, const struct snap_extra *x)
{
	const struct fs_capacity *cap = x->cap, none = { 0 };
	const struct fs_capacity *cv = cap ? cap : &none;
	i128 capv[] = { cv->bytes, cv->free_bytes, cv->avail_bytes,
	    cv->inodes, cv->free_inodes };
	const struct census *c = &r->c;
	sqlite3_stmt *st;

	/* invariant 1: complete only after the whole walk, with every row of
	 * the snapshot in this one transaction */
	assert(strcmp(status, "complete") != 0 || !r->interrupted);
	assert(!sqlite3_get_autocommit(w->db));
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
	sqlite3_bind_int64(st, i++, finished_at(x));
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

/* One histogram row per non-empty slot; v/vw only for whole-fs rows. */
static int
write_hist_rows(struct w *w, sqlite3_stmt *st, int64_t id, const char *proj,
    const char *metric, enum hist_scheme s, const uint64_t *n,
    const u128 *wt, const i128 *v, const struct hist_vw *vw)
{
	char b1[I128_STRLEN], b2[HIST_VW_STRLEN];

	for (int slot = 0; slot < HIST_NB; slot++) {
		i128 lo, hi;
		if (!n[slot])
			continue;
		hist_bounds_base(s, slot, &lo, &hi);
		sqlite3_bind_int64(st, 1, id);
		db_bind_text(st, 2, proj);
		db_bind_text(st, 3, metric);
		sqlite3_bind_int(st, 4, slot);
		db_bind_i128(st, 5, lo);
		db_bind_i128(st, 6, hi);
		sqlite3_bind_int64(st, 7, (int64_t)n[slot]);
		db_bind_i128(st, 8, (i128)wt[slot]);
		db_bind_text(st, 9, v ? i128_str(v[slot], b1) : NULL);
		db_bind_text(st, 10, vw ? hist_vw_str(&vw[slot], b2) : NULL);
		if (done(w, st) < 0)
			return -1;
	}
	return 0;
}

/* A project's extremes of one metric, when it has regular files. */
static int
write_project_extent(struct w *w, sqlite3_stmt *st, int64_t id,
    const char *proj, const char *metric, const struct phist *h)
{
	if (h->count == 0)
		return 0;
	sqlite3_bind_int64(st, 1, id);
	db_bind_text(st, 2, proj);
	db_bind_text(st, 3, metric);
	db_bind_i128(st, 4, h->min);
	db_bind_i128(st, 5, h->max);
	return done(w, st);
}

static int
write_hists(struct w *w, int64_t id, const struct census *c,
    const struct project_rules *rules)
{
	sqlite3_stmt *st = prep(w, "INSERT INTO hist (snapshot_id, project,"
	    " metric, slot, lo, hi, n, w, v, vw) VALUES (?,?,?,?,?,?,?,?,?,?)");
	sqlite3_stmt *ex = prep(w, "INSERT INTO hist_extent (snapshot_id,"
	    " metric, min, max) VALUES (?,?,?,?)");
	sqlite3_stmt *px = prep(w, "INSERT INTO project_extent (snapshot_id,"
	    " project, metric, min, max) VALUES (?,?,?,?,?)");
	int rc = -1;

	if (!st || !ex || !px)
		goto out;
	for (int i = 0; i < METRIC_COUNT; i++) {
		const struct hist *h = &c->h[i];
		/* Overhead rows are chosen by size, so their bounds are sizes. */
		if (write_hist_rows(w, st, id, NULL, metric_def[i].name,
		    metric_def[i].scheme, h->n, h->w, h->v, h->vw) < 0)
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
	for (size_t p = 0; p < c->nproj; p++) {
		const struct proj_stats *ps = &c->proj[p];
		const char *name = project_name(rules, (int32_t)p);
		/* In the order of metric_file[]. */
		const struct phist *ph[METRIC_NFILE] = { &ps->size, &ps->atime,
		    &ps->mtime, &ps->ctime };
		if (!ps->entries)
			continue;
		for (int k = 0; k < METRIC_NFILE; k++) {
			const struct metric_def *m = &metric_def[metric_file[k]];
			if (write_hist_rows(w, st, id, name, m->name, m->scheme,
			    ph[k]->n, ph[k]->w, NULL, NULL) < 0 ||
			    write_project_extent(w, px, id, name, m->name,
			    ph[k]) < 0)
				goto out;
		}
	}
	rc = 0;
out:
	sqlite3_finalize(st);
	sqlite3_finalize(ex);
	sqlite3_finalize(px);
	return rc;
}

static int
write_projects(struct w *w, int64_t id, const struct census *c,
    const struct project_rules *rules)
{
	sqlite3_stmt *st = prep(w, "INSERT INTO project (snapshot_id, name,"
	    " source, files, dirs, bytes, alloc_bytes, entries)"
	    " VALUES (?,?,?,?,?,?,?,?)");
	char src[512];
	int rc = 0;

	if (!st)
		return -1;
	for (size_t p = 0; p < c->nproj && rc == 0; p++) {
		if (!c->proj[p].entries)
			continue;
		project_sources(rules, (int32_t)p, src, sizeof src);
		sqlite3_bind_int64(st, 1, id);
		db_bind_text(st, 2, project_name(rules, (int32_t)p));
		db_bind_text(st, 3, src);
		bind_acct(st, 4, &c->proj[p].a);
		sqlite3_bind_int64(st, 8, (int64_t)c->proj[p].entries);
		rc = done(w, st);
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
		name = id_name(kind[0] == 'u' ? ID_USER : ID_GROUP, e->id);
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

static int
write_dirs(struct w *w, int64_t id, const struct dirtot_list *l)
{
	sqlite3_stmt *st = prep(w, "INSERT INTO dir (snapshot_id, path, depth,"
	    " files, dirs, bytes, alloc_bytes, max_mtime) VALUES (?,?,?,?,?,?,?,?)");
	int rc = 0;

	if (!st)
		return -1;
	for (size_t i = 0; i < l->len && rc == 0; i++) {
		const struct dirtot *t = l->v[i];
		struct acct a = { t->files, t->dirs,
		    dirtot_u128_get(&t->bytes), dirtot_u128_get(&t->alloc) };
		sqlite3_bind_int64(st, 1, id);
		db_bind_blobtext(st, 2, t->path, strlen(t->path));
		sqlite3_bind_int(st, 3, t->depth);
		bind_acct(st, 4, &a);
		db_bind_opt(st, 8, t->has_mtime, t->max_mtime);
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
    const struct snap_extra *x, char *err, size_t errlen)
{
	struct w w = { db, err, errlen };
	sqlite3_stmt *top;

	/* Sums are exact only below CENSUS_MAX_ENTRIES (census.h). */
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
	if (!top || write_projects(&w, id, &r->c, rules) < 0 ||
	    write_owners(&w, id, &r->c.users, "user") < 0 ||
	    write_owners(&w, id, &r->c.groups, "group") < 0 ||
	    write_hists(&w, id, &r->c, rules) < 0 ||
	    write_dirs(&w, id, &r->dirs) < 0 ||
	    write_top(&w, top, id, "file", &r->c.top_files) < 0 ||
	    write_top(&w, top, id, "dir", &r->c.top_dirs) < 0 ||
	    write_errors(&w, id, &r->c) < 0 ||
	    write_limits(&w, id, x->limits) < 0 ||
	    write_totals(&w, id, r, status, x) < 0 || db_commit(db) < 0) {
		if (!err[0])
			snprintf(err, errlen, "%s", sqlite3_errmsg(db));
		sqlite3_finalize(top);
		db_rollback(db);
		return -1;
	}
	sqlite3_finalize(top);
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
