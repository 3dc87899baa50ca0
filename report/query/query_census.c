/*
 * query_census: loaders for the snapshot analyses (query.h). Every statement
 * binds its values; text columns are copied with their byte length, so
 * names are kept exactly as stored.
 */
#include "query.h"

#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf.h"
#include "db.h"
#include "epoch.h"
#include "strtab.h"
#include "xalloc.h"

static char *
col_dup(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);

	if (!s)
		return NULL;
	return xstrndup((const char *)s, (size_t)sqlite3_column_bytes(st, i));
}

static struct nint
col_nint(sqlite3_stmt *st, int i)
{
	struct nint n = { 0, 0 };

	if (sqlite3_column_type(st, i) != SQLITE_NULL) {
		n.v = sqlite3_column_int64(st, i);
		n.has = 1;
	}
	return n;
}

/* An exact integer column (any sign: bounds, extremes); -1 with err when
 * it holds anything else. */
static int
col_exact(sqlite3_stmt *st, int i, int64_t id, i128 *v, char *err,
    size_t errlen)
{
	if (db_column_i128(st, i, v) == 0)
		return 0;
	snprintf(err, errlen, "census database: snapshot %" PRId64 ": %s is"
	    " not an exact integer", id, sqlite3_column_name(st, i));
	return -1;
}

/* A total: an exact integer in [0, max]. */
static int
col_total(sqlite3_stmt *st, int i, int64_t id, i128 max, i128 *v, char *err,
    size_t errlen)
{
	if (col_exact(st, i, id, v, err, errlen) < 0)
		return -1;
	if (*v >= 0 && *v <= max)
		return 0;
	snprintf(err, errlen, "census database: snapshot %" PRId64 ": %s is"
	    " out of range for a total", id, sqlite3_column_name(st, i));
	return -1;
}

/* A total in [0, max] that may be NULL (a snapshot that never finished,
 * a capacity not recorded). */
static int
col_nmax(sqlite3_stmt *st, int i, int64_t id, i128 max, struct nint *n,
    char *err, size_t errlen)
{
	n->has = sqlite3_column_type(st, i) != SQLITE_NULL;
	n->v = 0;
	return n->has ? col_total(st, i, id, max, &n->v, err, errlen) : 0;
}

static int
col_ntotal(sqlite3_stmt *st, int i, int64_t id, struct nint *n, char *err,
    size_t errlen)
{
	return col_nmax(st, i, id, I128_MAX, n, err, errlen);
}

/* Finish a statement's rows: 0 when stepping ended cleanly. */
static int
step_end(sqlite3 *db, int rc, char *err, size_t errlen)
{
	if (rc == SQLITE_DONE)
		return 0;
	snprintf(err, errlen, "census database: %s", sqlite3_errmsg(db));
	return -1;
}

/* Step a statement that yields at most one row: 1 a row (read it before
 * finalizing), 0 none, -1 error. */
static int
step_one(sqlite3 *db, sqlite3_stmt *st, char *err, size_t errlen)
{
	int rc = sqlite3_step(st);

	return rc == SQLITE_ROW ? 1 : step_end(db, rc, err, errlen);
}

#define SNAP_COLS "SELECT s.id, s.fs, s.root, s.started_at, s.finished_at," \
    " s.complete, s.files, s.dirs, s.bytes, s.alloc_bytes, s.errors," \
    " t.status, t.mount_opts, t.now_ref, t.scanned_at, s.fs_bytes," \
    " s.fs_free_bytes, s.fs_avail_bytes, s.fs_inodes, s.fs_free_inodes," \
    " s.fs_device, nullif(t.fs_mountpoint, ''), nullif(t.fs_source, '')," \
    " nullif(t.fstype, '') FROM v_snapshot s JOIN snapshot t ON t.id = s.id"

/* A time of the snapshot, NULL where may_null allows: one of lib/epoch.h
 * (fsscan writes no other), so that the analyses' differences and
 * scalings of times stay exact; a row another program wrote with any
 * other is refused, naming it. */
static int
col_time(sqlite3_stmt *st, int i, int64_t id, int may_null,
    struct nint *t, char *err, size_t errlen)
{
	char d[I128_STRLEN];

	t->has = sqlite3_column_type(st, i) != SQLITE_NULL;
	t->v = 0;
	if (!t->has && may_null)
		return 0;
	if (t->has && col_exact(st, i, id, &t->v, err, errlen) < 0)
		return -1;
	if (t->has && t->v >= EPOCH_MIN && t->v <= EPOCH_MAX)
		return 0;
	snprintf(err, errlen, "census database: snapshot %" PRId64 ": %s %s"
	    " is not a time of the years 0 to 9999 (unix seconds %lld to"
	    " %lld): the analyses cannot date the snapshot", id,
	    sqlite3_column_name(st, i), t->has ? i128_str(t->v, d) : "NULL",
	    (long long)EPOCH_MIN, (long long)EPOCH_MAX);
	return -1;
}

static int
snap_read(sqlite3_stmt *st, struct snap *s, char *err, size_t errlen)
{
	struct nint *cap[] = { &s->cap.bytes, &s->cap.free_bytes,
	    &s->cap.avail_bytes, &s->cap.inodes, &s->cap.free_inodes };
	struct nint started, now_ref;

	memset(s, 0, sizeof *s);
	s->id = sqlite3_column_int64(st, 0);
	s->fs = col_dup(st, 1);
	s->root = col_dup(st, 2);
	s->complete = sqlite3_column_int(st, 5) != 0;
	s->files = col_nint(st, 6);
	s->dirs = col_nint(st, 7);
	s->errors = col_nint(st, 10);
	s->status = col_dup(st, 11);
	s->mount_opts = col_dup(st, 12);
	s->fs_device = col_dup(st, 20);
	s->mountpoint = col_dup(st, 21);
	s->source = col_dup(st, 22);
	s->fstype = col_dup(st, 23);
	if (col_time(st, 3, s->id, 0, &started, err, errlen) < 0 ||
	    col_time(st, 4, s->id, 1, &s->finished_at, err, errlen) < 0 ||
	    col_time(st, 13, s->id, 0, &now_ref, err, errlen) < 0 ||
	    col_time(st, 14, s->id, 1, &s->scanned_at, err, errlen) < 0)
		return -1;
	s->started_at = (int64_t)started.v;
	s->now_ref = (int64_t)now_ref.v;
	if (col_ntotal(st, 8, s->id, &s->bytes, err, errlen) < 0 ||
	    col_ntotal(st, 9, s->id, &s->alloc, err, errlen) < 0)
		return -1;
	for (size_t k = 0; k < sizeof cap / sizeof *cap; k++)
		if (col_nmax(st, 15 + (int)k, s->id, DB_CAPACITY_MAX, cap[k], err,
		    errlen) < 0)
			return -1;
	return 0;
}

int
query_census_snapshots(sqlite3 *db, struct snap **out, size_t *n, char *err,
    size_t errlen)
{
	sqlite3_stmt *st = db_prepare(db, SNAP_COLS " ORDER BY s.id", err,
	    errlen);
	size_t cap = 0;
	int rc;

	*out = NULL;
	*n = 0;
	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		*out = xgrow(*out, *n, &cap, sizeof **out, 16);
		if (snap_read(st, &(*out)[(*n)++], err, errlen) < 0)
			break;
	}
	rc = rc == SQLITE_ROW ? -1 : step_end(db, rc, err, errlen);
	sqlite3_finalize(st);
	if (rc < 0) {
		query_census_snaps_free(*out, *n);
		*out = NULL;
		*n = 0;
	}
	return rc;
}

int
query_census_snapshot(sqlite3 *db, int64_t id, struct snap *out, char *err,
    size_t errlen)
{
	sqlite3_stmt *st = db_prepare(db, SNAP_COLS " WHERE s.id = ?", err,
	    errlen);
	int rc;

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	if ((rc = step_one(db, st, err, errlen)) == 1 &&
	    snap_read(st, out, err, errlen) < 0) {
		query_census_snap_clear(out);
		rc = -1;
	}
	sqlite3_finalize(st);
	return rc;
}

int
query_census_fs_latest(sqlite3 *db, struct fs_latest **out, size_t *n,
    char *err, size_t errlen)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT fs,"
	    " (SELECT id FROM v_snapshot b WHERE b.fs = a.fs"
	    "  ORDER BY started_at DESC, id DESC LIMIT 1),"
	    " (SELECT id FROM v_snapshot b WHERE b.fs = a.fs AND complete"
	    "  ORDER BY started_at DESC, id DESC LIMIT 1)"
	    " FROM (SELECT DISTINCT fs FROM v_snapshot) a"
	    " ORDER BY CAST(fs AS BLOB)", err, errlen);
	size_t cap = 0;
	int rc;

	*out = NULL;
	*n = 0;
	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct fs_latest *l;

		*out = xgrow(*out, *n, &cap, sizeof **out, 8);
		l = &(*out)[(*n)++];
		l->fs = col_dup(st, 0);
		l->latest = sqlite3_column_int64(st, 1);
		l->complete = sqlite3_column_int64(st, 2);
	}
	rc = step_end(db, rc, err, errlen);
	sqlite3_finalize(st);
	return rc;
}

void
query_census_fs_latest_free(struct fs_latest *l, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(l[i].fs);
	free(l);
}

void
query_census_snap_clear(struct snap *s)
{
	free(s->fs);
	free(s->root);
	free(s->status);
	free(s->mount_opts);
	free(s->fs_device);
	free(s->mountpoint);
	free(s->source);
	free(s->fstype);
	memset(s, 0, sizeof *s);
}

void
query_census_snaps_free(struct snap *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		query_census_snap_clear(&s[i]);
	free(s);
}

/* Each query yields key, display name, files, bytes, alloc_bytes; a
 * directory its cold bytes too. */
static const char *const group_sql[] = {
	[BY_PROJECT] = "SELECT project, project, files, bytes, alloc_bytes"
	    " FROM v_project WHERE snapshot_id = ?1",
	[BY_USER] = "SELECT id, ifnull(name, id), files, bytes, alloc_bytes"
	    " FROM owner WHERE snapshot_id = ?1 AND kind = 'user'",
	[BY_GROUP] = "SELECT id, ifnull(name, id), files, bytes, alloc_bytes"
	    " FROM owner WHERE snapshot_id = ?1 AND kind = 'group'",
	[BY_DIR] = "SELECT path, path, files, bytes, alloc_bytes, cold_bytes"
	    " FROM v_dir WHERE snapshot_id = ?1 AND depth = ?2",
};

static int
gtot_cmp(const void *a, const void *b)
{
	return strcmp(((const struct gtot *)a)->key,
	    ((const struct gtot *)b)->key);
}

int
query_census_groups(sqlite3 *db, int64_t id, enum group_by by, int depth,
    struct gtot **out, size_t *n, char *err, size_t errlen)
{
	sqlite3_stmt *st = db_prepare(db, group_sql[by], err, errlen);
	size_t cap = 0;
	int rc;

	*out = NULL;
	*n = 0;
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	if (by == BY_DIR)
		sqlite3_bind_int(st, 2, depth);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct gtot *g;
		*out = xgrow(*out, *n, &cap, sizeof **out, 64);
		g = &(*out)[(*n)++];
		g->key = col_dup(st, 0);
		g->name = col_dup(st, 1);
		g->files = sqlite3_column_int64(st, 2);
		g->cold = 0;
		g->hascold = by == BY_DIR &&
		    sqlite3_column_type(st, 5) != SQLITE_NULL;
		if (col_total(st, 3, id, I128_MAX, &g->bytes, err, errlen) < 0 ||
		    col_total(st, 4, id, I128_MAX, &g->alloc, err, errlen) < 0 ||
		    (g->hascold && col_total(st, 5, id, I128_MAX, &g->cold, err,
		    errlen) < 0))
			break;
	}
	rc = rc == SQLITE_ROW ? -1 : step_end(db, rc, err, errlen);
	sqlite3_finalize(st);
	if (rc < 0) {
		query_census_gtots_free(*out, *n);
		*out = NULL;
		*n = 0;
	}
	if (*n > 1)	/* byte order, not SQLite's collation of numbers */
		qsort(*out, *n, sizeof **out, gtot_cmp);
	return rc;
}

/* query_census_cold's rows: key, name, days, files, bytes; ?1 the
 * snapshot, ?2 the metric, ?3 the owners' kind. */
#define COLD_FS "SELECT NULL AS key, NULL AS name, days, files, bytes" \
	" FROM cold WHERE snapshot_id = ?1 AND metric = ?2"
#define COLD_ORDER " ORDER BY days, key IS NOT NULL, CAST(key AS BLOB)"
static const char cold_project_sql[] = "SELECT project AS key, project"
    " AS name, days, files, bytes FROM v_cold WHERE snapshot_id = ?1 AND"
    " metric = ?2" COLD_ORDER;
static const char cold_owner_sql[] = "SELECT * FROM (" COLD_FS
    " UNION ALL SELECT c.owner, ifnull(o.name, c.owner), c.days, c.files,"
    " c.bytes FROM v_cold_owner c JOIN owner o ON o.snapshot_id ="
    " c.snapshot_id AND o.kind = c.kind AND o.id = c.owner"
    " WHERE c.snapshot_id = ?1 AND c.metric = ?2 AND c.kind = ?3)"
    COLD_ORDER;

int
query_census_cold(sqlite3 *db, int64_t id, const char *metric,
    enum group_by by, struct cold_row **out, size_t *n, char *err,
    size_t errlen)
{
	sqlite3_stmt *st;
	size_t cap = 0;
	int rc;

	assert(by == BY_PROJECT || by == BY_USER || by == BY_GROUP);
	*out = NULL;
	*n = 0;
	st = db_prepare(db, by == BY_PROJECT ? cold_project_sql :
	    cold_owner_sql, err, errlen);
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	db_bind_text(st, 2, metric);
	if (by != BY_PROJECT)
		db_bind_text(st, 3, by == BY_USER ? "user" : "group");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct cold_row *c;
		*out = xgrow(*out, *n, &cap, sizeof **out, 64);
		c = &(*out)[(*n)++];
		c->key = col_dup(st, 0);
		c->name = col_dup(st, 1);
		c->days = sqlite3_column_int64(st, 2);
		c->files = sqlite3_column_int64(st, 3);
		if (col_total(st, 4, id, I128_MAX, &c->bytes, err, errlen) < 0)
			break;
	}
	rc = rc == SQLITE_ROW ? -1 : step_end(db, rc, err, errlen);
	sqlite3_finalize(st);
	if (rc < 0) {
		query_census_cold_free(*out, *n);
		*out = NULL;
		*n = 0;
	}
	return rc;
}

void
query_census_cold_free(struct cold_row *r, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(r[i].key);
		free(r[i].name);
	}
	free(r);
}

void
query_census_gtots_free(struct gtot *g, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(g[i].key);
		free(g[i].name);
	}
	free(g);
}

/* The row of snapshot id (and key, unless NULL, as ?2) that sql selects,
 * stepped in *st for the caller to read and finalize: 1 found, 0 none,
 * -1 error (*st NULL when it could not be prepared). */
static int
row_of(sqlite3 *db, const char *sql, int64_t id, const char *key,
    sqlite3_stmt **st, char *err, size_t errlen)
{
	if (!(*st = db_prepare(db, sql, err, errlen)))
		return -1;
	sqlite3_bind_int64(*st, 1, id);
	if (key)
		db_bind_text(*st, 2, key);
	return step_one(db, *st, err, errlen);
}

int
query_census_project_totals(sqlite3 *db, int64_t id, const char *project,
    int64_t *files, i128 *bytes, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	int rc = row_of(db, "SELECT files, bytes FROM v_project WHERE"
	    " snapshot_id = ? AND project = ?", id, project, &st, err, errlen);

	*files = 0;
	*bytes = 0;
	if (rc == 1) {
		*files = sqlite3_column_int64(st, 0);
		if (col_total(st, 1, id, I128_MAX, bytes, err, errlen) < 0)
			rc = -1;
	}
	sqlite3_finalize(st);
	return rc < 0 ? -1 : 0;
}

int
query_census_hist(sqlite3 *db, int64_t id, const char *project,
    const char *metric,
    struct chist *h, char *err, size_t errlen)
{
	/* The whole file system's rows (project NULL), or the project's,
	 * found by its name, then by its number (sql/schema.sql). */
	sqlite3_stmt *st = db_prepare(db, "SELECT h.slot, b.lo, b.hi, h.n, h.w"
	    " FROM hist h JOIN hist_slot b ON b.metric = h.metric"
	    " AND b.slot = h.slot"
	    " WHERE ?3 IS NULL AND h.snapshot_id = ?1 AND h.metric = ?2"
	    " UNION ALL SELECT h.slot, b.lo, b.hi, h.n, h.w FROM project p"
	    " CROSS JOIN file_metric m CROSS JOIN project_hist h"
	    " ON h.snapshot_id = p.snapshot_id AND h.project_id = p.id"
	    " AND h.metric = m.id"
	    " CROSS JOIN hist_slot b ON b.metric = m.metric AND b.slot = h.slot"
	    " WHERE p.snapshot_id = ?1 AND p.name = ?3 AND m.metric = ?2",
	    err, errlen);
	int rc, rows = 0;

	memset(h, 0, sizeof *h);
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	db_bind_text(st, 2, metric);
	db_bind_text(st, 3, project);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int slot = sqlite3_column_int(st, 0);
		if (slot < 0 || slot >= HIST_NB) {
			snprintf(err, errlen, "census database: histogram slot"
			    " %d of snapshot %" PRId64 " out of range", slot,
			    id);
			sqlite3_finalize(st);
			return -1;
		}
		h->has[slot] = 1;
		h->files[slot] = sqlite3_column_int64(st, 3);
		if (col_exact(st, 1, id, &h->lo[slot], err, errlen) < 0 ||
		    col_exact(st, 2, id, &h->hi[slot], err, errlen) < 0 ||
		    col_total(st, 4, id, CENSUS_BUCKET_MAX, &h->bytes[slot],
		    err, errlen) < 0)
			break;
		rows++;
	}
	rc = rc == SQLITE_ROW ? -1 : step_end(db, rc, err, errlen);
	sqlite3_finalize(st);
	return rc < 0 ? -1 : rows;
}

int
query_census_extent(sqlite3 *db, int64_t id, const char *metric, i128 *min,
    i128 *max, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	int rc = row_of(db, "SELECT min, max FROM hist_extent WHERE"
	    " snapshot_id = ? AND metric = ?", id, metric, &st, err, errlen);

	if (rc == 1 && (col_exact(st, 0, id, min, err, errlen) < 0 ||
	    col_exact(st, 1, id, max, err, errlen) < 0))
		rc = -1;
	sqlite3_finalize(st);
	return rc;
}

static int
excluded(const char *name, const char *const *exclude, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(name, exclude[i]) == 0)
			return 1;
	return 0;
}

int
query_census_project_extent(sqlite3 *db, int64_t id, const char *metric,
    const char *project, const char *const *exclude, size_t nexclude,
    i128 *min, i128 *max, char *err, size_t errlen)
{
	/* One row per project: the metric's two columns, where known. */
	sqlite3_stmt *st = db_prepare(db, "SELECT name, lo, hi FROM"
	    " (SELECT p.name AS name,"
	    " CASE ?2 WHEN 'size' THEN e.size_min WHEN 'atime' THEN e.atime_min"
	    " WHEN 'mtime' THEN e.mtime_min WHEN 'ctime' THEN e.ctime_min END"
	    " AS lo,"
	    " CASE ?2 WHEN 'size' THEN e.size_max WHEN 'atime' THEN e.atime_max"
	    " WHEN 'mtime' THEN e.mtime_max WHEN 'ctime' THEN e.ctime_max END"
	    " AS hi FROM project p CROSS JOIN project_extent e"
	    " ON e.snapshot_id = p.snapshot_id AND e.project_id = p.id"
	    " WHERE p.snapshot_id = ?1 AND (?3 IS NULL OR p.name = ?3))"
	    " WHERE lo IS NOT NULL AND hi IS NOT NULL", err, errlen);
	int rc, found = 0;

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	db_bind_text(st, 2, metric);
	db_bind_text(st, 3, project);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		i128 lo, hi;
		if (!name || excluded(name, exclude, nexclude))
			continue;
		if (col_exact(st, 1, id, &lo, err, errlen) < 0 ||
		    col_exact(st, 2, id, &hi, err, errlen) < 0)
			break;
		if (!found || lo < *min)
			*min = lo;
		if (!found || hi > *max)
			*max = hi;
		found = 1;
	}
	rc = rc == SQLITE_ROW ? -1 : step_end(db, rc, err, errlen);
	sqlite3_finalize(st);
	return rc < 0 ? -1 : found;
}

int
query_census_has_project_extent(sqlite3 *db, int64_t id, char *err,
    size_t errlen)
{
	sqlite3_stmt *st;
	int rc = row_of(db, "SELECT 1 FROM project_extent WHERE snapshot_id = ?"
	    " LIMIT 1", id, NULL, &st, err, errlen);

	sqlite3_finalize(st);
	return rc;
}

int
query_census_dir_scope(sqlite3 *db, int64_t id, int *depth, char *err,
    size_t errlen)
{
	sqlite3_stmt *st;
	int rc = row_of(db, "SELECT max_depth FROM dir_scope WHERE"
	    " snapshot_id = ?", id, NULL, &st, err, errlen);

	if (rc == 1)
		*depth = sqlite3_column_type(st, 0) == SQLITE_NULL ? -1 :
		    sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return rc;
}

/* Both forms read: snapshot id, name, found, files, dirs, bytes, alloc,
 * entries, limit bytes, limit inodes. */
static const char project_one_sql[] =
    "SELECT s.id, ?2, p.files IS NOT NULL, p.files, p.dirs, p.bytes,"
    " p.alloc_bytes, p.entries, l.bytes, l.inodes FROM v_snapshot s"
    " LEFT JOIN project p ON p.snapshot_id = s.id AND p.name = ?2"
    " LEFT JOIN project_limit l ON l.snapshot_id = s.id AND l.project = ?2"
    " WHERE s.fs = ?1 ORDER BY s.id";
/* In the primary key's order (snapshot, then name): SQLite sorting by
 * name instead would cost more than the whole scan. */
static const char project_all_sql[] =
    "SELECT p.snapshot_id, p.name, 1, p.files, p.dirs, p.bytes,"
    " p.alloc_bytes, p.entries, l.bytes, l.inodes FROM v_snapshot s"
    " JOIN project p ON p.snapshot_id = s.id"
    " LEFT JOIN project_limit l ON l.snapshot_id = p.snapshot_id"
    " AND l.project = p.name"
    " WHERE s.fs = ?1 AND s.complete AND s.started_at < ?3";

/* The index of the row's name (column 1) in ns, added when new. */
static size_t
name_index(sqlite3_stmt *st, struct strtab *ns)
{
	const char *s = (const char *)sqlite3_column_text(st, 1);

	return strtab_add(ns, s, (size_t)sqlite3_column_bytes(st, 1), NULL);
}

static const char *const *sort_names;

static int
by_name(const void *a, const void *b)
{
	return strcmp(sort_names[*(const size_t *)a],
	    sort_names[*(const size_t *)b]);
}

/* Names sorted (byte order), and rows grouped by name in snapshot order:
 * a counting sort on the names' ranks keeps the scan's snapshot order. */
static void
group_by_name(char **name, size_t nn, struct prow **rows, size_t n)
{
	size_t *order = xcalloc(nn + 1, sizeof *order);
	size_t *rank = xcalloc(nn + 1, sizeof *rank);
	size_t *start = xcalloc(nn + 2, sizeof *start);
	char **sorted = xcalloc(nn + 1, sizeof *sorted);
	struct prow *out = xcalloc(n + 1, sizeof *out);

	for (size_t i = 0; i < nn; i++)
		order[i] = i;
	sort_names = (const char *const *)name;
	qsort(order, nn, sizeof *order, by_name);
	for (size_t i = 0; i < nn; i++) {
		rank[order[i]] = i;
		sorted[i] = name[order[i]];
	}
	for (size_t i = 0; i < n; i++)
		start[rank[(*rows)[i].name] + 1]++;
	for (size_t i = 0; i < nn; i++)
		start[i + 1] += start[i];
	for (size_t i = 0; i < n; i++) {
		size_t r = rank[(*rows)[i].name];
		out[start[r]] = (*rows)[i];
		out[start[r]++].name = r;
	}
	memcpy(name, sorted, nn * sizeof *name);
	free(sorted);
	free(*rows);
	*rows = out;
	free(order);
	free(rank);
	free(start);
}

int
query_census_project_rows(sqlite3 *db, const char *fs, const char *project,
    int64_t to, struct prow **rows, size_t *n, char ***names,
    size_t *nnames, char *err, size_t errlen)
{
	sqlite3_stmt *st = db_prepare(db, project ? project_one_sql :
	    project_all_sql, err, errlen);
	struct strtab ns = { 0 };
	size_t cap = 0;
	int rc;

	*rows = NULL;
	*names = NULL;
	*n = *nnames = 0;
	if (!st)
		return -1;
	db_bind_text(st, 1, fs);
	if (project)
		db_bind_text(st, 2, project);
	else
		sqlite3_bind_int64(st, 3, to);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct prow *r;
		*rows = xgrow(*rows, *n, &cap, sizeof **rows, 256);
		r = &(*rows)[(*n)++];
		r->snapshot_id = sqlite3_column_int64(st, 0);
		r->name = name_index(st, &ns);
		r->found = sqlite3_column_int(st, 2) != 0;
		r->files = sqlite3_column_int64(st, 3);
		r->dirs = sqlite3_column_int64(st, 4);
		r->bytes = r->alloc = 0;
		r->entries = sqlite3_column_int64(st, 7);
		r->limit_bytes = sqlite3_column_int64(st, 8);
		r->limit_inodes = sqlite3_column_int64(st, 9);
		r->has = (!r->found || sqlite3_column_type(st, 7) !=
		    SQLITE_NULL ? PROW_ENTRIES : 0) |
		    (sqlite3_column_type(st, 8) != SQLITE_NULL ?
		    PROW_LIMIT_BYTES : 0) | (sqlite3_column_type(st, 9) !=
		    SQLITE_NULL ? PROW_LIMIT_INODES : 0);
		if (r->found && (col_total(st, 5, r->snapshot_id, I128_MAX,
		    &r->bytes, err, errlen) < 0 || col_total(st, 6,
		    r->snapshot_id, I128_MAX, &r->alloc, err, errlen) < 0))
			break;
	}
	rc = rc == SQLITE_ROW ? -1 : step_end(db, rc, err, errlen);
	sqlite3_finalize(st);
	*names = strtab_take(&ns, nnames);
	if (rc == 0 && !project && *nnames > 1)
		group_by_name(*names, *nnames, rows, *n);
	return rc;
}

/*
 * The largest subtree totals, and only their paths. v_dir builds a path
 * for each row a query returns, walking up one row per level: sorting
 * every row with its path first would cost the tree's depth for each of
 * its rows, quadratic in the depth of a chain of directories. So the rows
 * are chosen by their numbers first, and paths are built only for the
 * rows that can rank:
 *
 * - A directory's ancestors hold at least its bytes and their paths are
 *   prefixes of its own: each ranks before it, so one deeper than max
 *   (max ancestors of depth 1 or more) never is among the first max.
 *   Only a row whose parent has no row (kept by the upgrade from paths,
 *   lib/db.c) breaks the chain: the depth bound is dropped then.
 * - edge is the bytes of the max-th row by bytes alone: a row below it
 *   never ranks; the rows at it and above are sorted with their paths.
 *
 * bytes is exact: an INTEGER, or beyond 2^63 - 1 its decimal TEXT, which
 * SQLite compares as text. Neither has a sign or leading zeros, so the
 * longer digits are the larger number, and at one length SQLite's order
 * (every INTEGER below any TEXT, integers by value, texts by bytes) is
 * the numbers' order; (length, bytes) compares rows as that order does.
 */
static const char dirs_by_bytes_sql[] =
    "WITH scope(all_depths) AS (SELECT EXISTS (SELECT 1 FROM dir"
    "   WHERE snapshot_id = ?1 AND depth > 0 AND parent IS NULL)),"
    " edge(len, bytes) AS (SELECT length(bytes), bytes FROM v_dir"
    "   WHERE snapshot_id = ?1 AND depth >= 1"
    "   AND (depth <= ?2 OR (SELECT all_depths FROM scope))"
    "   ORDER BY 1 DESC, 2 DESC LIMIT 1 OFFSET ?2 - 1)"
    " SELECT path, depth, files, bytes, alloc_bytes FROM v_dir"
    " WHERE snapshot_id = ?1 AND depth >= 1"
    "   AND (depth <= ?2 OR (SELECT all_depths FROM scope))"
    "   AND (NOT EXISTS (SELECT 1 FROM edge)"
    "     OR (length(bytes), bytes) >= (SELECT len, bytes FROM edge))"
    " ORDER BY length(bytes) DESC, bytes DESC, path LIMIT ?2";

int
query_census_dirs_by_bytes(sqlite3 *db, int64_t id, size_t max,
    struct dir_entry **out, size_t *n, char *err, size_t errlen)
{
	sqlite3_stmt *st = db_prepare(db, dirs_by_bytes_sql, err, errlen);
	int rc;

	*out = xcalloc(max + 1, sizeof **out);
	*n = 0;
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_int64(st, 2, (int64_t)max);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && *n < max) {
		struct dir_entry *d = &(*out)[(*n)++];
		d->path = col_dup(st, 0);
		d->depth = sqlite3_column_int(st, 1);
		d->files = sqlite3_column_int64(st, 2);
		if (col_total(st, 3, id, I128_MAX, &d->bytes, err, errlen) < 0 ||
		    col_total(st, 4, id, I128_MAX, &d->alloc, err, errlen) < 0) {
			rc = -1;
			break;
		}
	}
	rc = rc == SQLITE_ROW ? 0 : rc < 0 ? -1 : step_end(db, rc, err,
	    errlen);
	sqlite3_finalize(st);
	return rc;
}

void
query_census_dirs_free(struct dir_entry *d, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(d[i].path);
	free(d);
}

/*
 * du's rows. dir has one index, (snapshot_id, depth): a row is found by
 * its depth, its parent's id and its name, so a path is walked down one
 * level at a time, and a subtree is read one level at a time, each row of
 * the level kept when its parent was kept. A level's rows come in id
 * order (the index's), so the kept ones are sorted by id for the next
 * level's look-ups. No path is built here: v_dir would build one for
 * every row it reads.
 */
int
query_census_dir_find(sqlite3 *db, int64_t snap, const char *const *names,
    size_t n, int64_t *id, char *err, size_t errlen)
{
	sqlite3_stmt *root, *down;
	int rc;

	assert(db != NULL && id != NULL && (n == 0 || names != NULL));
	root = db_prepare(db, "SELECT id FROM dir WHERE snapshot_id = ?1"
	    " AND depth = 0 AND parent IS NULL", err, errlen);
	down = db_prepare(db, "SELECT id FROM dir WHERE snapshot_id = ?1"
	    " AND depth = ?2 AND parent = ?3 AND name = ?4", err, errlen);
	if (!root || !down) {
		sqlite3_finalize(root);
		sqlite3_finalize(down);
		return -1;
	}
	sqlite3_bind_int64(root, 1, snap);
	if ((rc = step_one(db, root, err, errlen)) == 1)
		*id = sqlite3_column_int64(root, 0);
	for (size_t i = 0; rc == 1 && i < n; i++) {
		sqlite3_reset(down);
		sqlite3_bind_int64(down, 1, snap);
		sqlite3_bind_int64(down, 2, (int64_t)i + 1);
		sqlite3_bind_int64(down, 3, *id);
		db_bind_blobtext(down, 4, names[i], strlen(names[i]));
		if ((rc = step_one(db, down, err, errlen)) == 1)
			*id = sqlite3_column_int64(down, 0);
	}
	sqlite3_finalize(root);
	sqlite3_finalize(down);
	return rc;
}

/* The index of row id among r[lo, hi), sorted by id, or hi. */
static size_t
du_find(const struct du_row *r, size_t lo, size_t hi, int64_t id)
{
	size_t end = hi;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r[mid].id == id)
			return mid;
		if (r[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return end;
}

/* Row st's totals (columns 3 on: files, bytes, alloc_bytes, cold_bytes)
 * into d. */
static int
du_totals(sqlite3_stmt *st, int64_t snap, struct du_row *d, char *err,
    size_t errlen)
{
	d->files = sqlite3_column_int64(st, 3);
	return col_total(st, 4, snap, I128_MAX, &d->bytes, err, errlen) < 0 ||
	    col_total(st, 5, snap, I128_MAX, &d->alloc, err, errlen) < 0 ||
	    col_ntotal(st, 6, snap, &d->cold, err, errlen) < 0 ? -1 : 0;
}

int
query_census_du_rows(sqlite3 *db, int64_t snap, int64_t id, int depth,
    int levels, struct du_row **out, size_t *n, char *err, size_t errlen)
{
	sqlite3_stmt *top, *lvl;
	size_t cap = 0, from = 0, to;
	int rc;

	assert(db != NULL && out != NULL && n != NULL && depth >= 0 &&
	    levels >= 0);
	*out = NULL;
	*n = 0;
	top = db_prepare(db, "SELECT id, parent, name, files, bytes,"
	    " alloc_bytes, cold_bytes FROM dir WHERE id = ?1 AND"
	    " snapshot_id = ?2", err, errlen);
	lvl = db_prepare(db, "SELECT id, parent, name, files, bytes,"
	    " alloc_bytes, cold_bytes FROM dir WHERE snapshot_id = ?1 AND"
	    " depth = ?2 AND parent IS NOT NULL ORDER BY id", err, errlen);
	if (!top || !lvl) {
		rc = -1;
		goto out;
	}
	sqlite3_bind_int64(top, 1, id);
	sqlite3_bind_int64(top, 2, snap);
	if ((rc = step_one(db, top, err, errlen)) <= 0) {
		if (rc == 0)
			snprintf(err, errlen, "census database: snapshot %"
			    PRId64 " has no directory row %" PRId64, snap, id);
		rc = -1;
		goto out;
	}
	*out = xgrow(*out, 0, &cap, sizeof **out, 64);
	**out = (struct du_row){ .id = id, .name = col_dup(top, 2) };
	*n = 1;
	if ((rc = du_totals(top, snap, *out, err, errlen)) < 0)
		goto out;
	for (int l = 1; l <= levels && from < *n; l++, from = to) {
		to = *n;
		sqlite3_reset(lvl);
		sqlite3_bind_int64(lvl, 1, snap);
		sqlite3_bind_int64(lvl, 2, (int64_t)depth + l);
		while ((rc = sqlite3_step(lvl)) == SQLITE_ROW) {
			size_t up = du_find(*out, from, to,
			    sqlite3_column_int64(lvl, 1));
			struct du_row *d;

			if (up == to)
				continue;
			*out = xgrow(*out, *n, &cap, sizeof **out, 64);
			d = &(*out)[(*n)++];
			*d = (struct du_row){ .id = sqlite3_column_int64(lvl, 0),
			    .up = up, .level = l, .name = col_dup(lvl, 2) };
			if (du_totals(lvl, snap, d, err, errlen) < 0)
				break;
		}
		if ((rc = rc == SQLITE_ROW ? -1 : step_end(db, rc, err,
		    errlen)) < 0)
			break;
	}
out:
	sqlite3_finalize(top);
	sqlite3_finalize(lvl);
	if (rc < 0) {
		query_census_du_free(*out, *n);
		*out = NULL;
		*n = 0;
		return -1;
	}
	return 0;
}

void
query_census_du_free(struct du_row *r, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(r[i].name);
	free(r);
}

int
query_census_cold_longest(sqlite3 *db, int64_t id, int64_t *days, char *err,
    size_t errlen)
{
	sqlite3_stmt *st;
	int rc;

	assert(db != NULL && days != NULL);
	rc = row_of(db, "SELECT max(days) FROM cold WHERE snapshot_id = ?"
	    " AND metric = 'atime'", id, NULL, &st, err, errlen);

	if (rc == 1 && sqlite3_column_type(st, 0) == SQLITE_NULL)
		rc = 0;
	else if (rc == 1)
		*days = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return rc;
}

int
query_census_project_known(sqlite3 *db, const char *fs, const char *project,
    char *err, size_t errlen)
{
	/* One primary-key look-up per snapshot, not a scan of every name. */
	sqlite3_stmt *st = db_prepare(db, "SELECT 1 FROM snapshot s JOIN"
	    " project p ON p.snapshot_id = s.id AND p.name = ?2"
	    " WHERE ?1 IS NULL OR s.fs = ?1 LIMIT 1", err, errlen);
	int rc;

	if (!st)
		return -1;
	db_bind_text(st, 1, fs);
	db_bind_text(st, 2, project);
	rc = step_one(db, st, err, errlen);
	sqlite3_finalize(st);
	return rc;
}

int
query_census_fs_projects(sqlite3 *db, const char *fs, char ***names, size_t *n,
    char *err, size_t errlen)
{
	/* The names are TEXT: SQLite's BINARY order is byte order, as
	 * query_census_groups sorts. */
	sqlite3_stmt *st = db_prepare(db, "SELECT DISTINCT p.project FROM"
	    " v_project p JOIN v_snapshot s ON s.id = p.snapshot_id"
	    " WHERE ?1 IS NULL OR s.fs = ?1 ORDER BY 1", err, errlen);
	size_t cap = 0;
	int rc;

	*names = NULL;
	*n = 0;
	if (!st)
		return -1;
	db_bind_text(st, 1, fs);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		*names = xgrow(*names, *n, &cap, sizeof **names, 16);
		(*names)[(*n)++] = col_dup(st, 0);
	}
	rc = step_end(db, rc, err, errlen);
	sqlite3_finalize(st);
	return rc;
}

int
query_census_fs_at(sqlite3 *db, const char *want, char ***names, size_t *n,
    char *err, size_t errlen)
{
	/* ROOT as given or made absolute, a trailing slash aside ("/"
	 * itself matched whole); a name spelled as the path counts too. */
	sqlite3_stmt *st = db_prepare(db, "SELECT DISTINCT fs FROM snapshot"
	    " WHERE fs = ?1 OR ?2 IN (root, root_abs) OR rtrim(root, '/') = ?2"
	    " OR rtrim(root_abs, '/') = ?2 ORDER BY CAST(fs AS BLOB)", err,
	    errlen);
	size_t cap = 0;
	int rc;

	assert(want != NULL);
	*names = NULL;
	*n = 0;
	if (!st)
		return -1;
	db_bind_text(st, 1, want);
	db_bind_blobtext(st, 2, want, conf_root_len(want));
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		*names = xgrow(*names, *n, &cap, sizeof **names, 4);
		(*names)[(*n)++] = col_dup(st, 0);
	}
	rc = step_end(db, rc, err, errlen);
	sqlite3_finalize(st);
	return rc;
}

void
query_census_names_free(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

int
query_census_top(sqlite3 *db, int64_t id, const char *kind,
    struct top_entry **out,
    size_t *n, char *err, size_t errlen)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT value, path FROM top WHERE"
	    " snapshot_id = ?1 AND kind = ?2 ORDER BY rank", err, errlen);
	size_t cap = 0;
	int rc;

	*out = NULL;
	*n = 0;
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	db_bind_text(st, 2, kind);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		*out = xgrow(*out, *n, &cap, sizeof **out, 32);
		(*out)[*n].path = col_dup(st, 1);
		if (col_total(st, 0, id, I128_MAX, &(*out)[(*n)++].value, err,
		    errlen) < 0)
			break;
	}
	rc = rc == SQLITE_ROW ? -1 : step_end(db, rc, err, errlen);
	sqlite3_finalize(st);
	if (rc < 0) {
		query_census_top_free(*out, *n);
		*out = NULL;
		*n = 0;
	}
	return rc;
}

void
query_census_top_free(struct top_entry *t, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(t[i].path);
	free(t);
}
