/*
 * query_census: loaders for the snapshot analyses (query.h). Every statement
 * binds its values; text columns are copied with their byte length, so
 * names are kept exactly as stored.
 */
#include "query.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
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

/* A total that may be NULL (a snapshot that never finished). */
static int
col_ntotal(sqlite3_stmt *st, int i, int64_t id, struct nint *n, char *err,
    size_t errlen)
{
	n->has = sqlite3_column_type(st, i) != SQLITE_NULL;
	n->v = 0;
	return n->has ? col_total(st, i, id, I128_MAX, &n->v, err, errlen) : 0;
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
    " t.status, t.mount_opts, t.now_ref FROM v_snapshot s" \
    " JOIN snapshot t ON t.id = s.id"

static int
snap_read(sqlite3_stmt *st, struct snap *s, char *err, size_t errlen)
{
	memset(s, 0, sizeof *s);
	s->id = sqlite3_column_int64(st, 0);
	s->fs = col_dup(st, 1);
	s->root = col_dup(st, 2);
	s->started_at = sqlite3_column_int64(st, 3);
	s->finished_at = col_nint(st, 4);
	s->complete = sqlite3_column_int(st, 5) != 0;
	s->files = col_nint(st, 6);
	s->dirs = col_nint(st, 7);
	s->errors = col_nint(st, 10);
	s->status = col_dup(st, 11);
	s->mount_opts = col_dup(st, 12);
	s->now_ref = sqlite3_column_int64(st, 13);
	return col_ntotal(st, 8, s->id, &s->bytes, err, errlen) < 0 ||
	    col_ntotal(st, 9, s->id, &s->alloc, err, errlen) < 0 ? -1 : 0;
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
		if (*n == cap) {
			cap = cap ? 2 * cap : 16;
			*out = xrealloc(*out, cap * sizeof **out);
		}
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
query_census_latest_complete(sqlite3 *db, int64_t *id, char *err, size_t errlen)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT id FROM v_snapshot WHERE"
	    " complete ORDER BY started_at DESC, id DESC LIMIT 1", err, errlen);
	int rc;

	if (!st)
		return -1;
	if ((rc = step_one(db, st, err, errlen)) == 1)
		*id = sqlite3_column_int64(st, 0);
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

		if (*n == cap) {
			cap = cap ? 2 * cap : 8;
			*out = xrealloc(*out, cap * sizeof **out);
		}
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

/* The capacity columns, as v_snapshot names them. */
static const char *const cap_cols[] = { "fs_bytes", "fs_free_bytes",
    "fs_avail_bytes", "fs_inodes", "fs_free_inodes" };
#define NCAP (sizeof cap_cols / sizeof *cap_cols)

/* Whether v_snapshot has every capacity column: 1, 0, -1 error. A
 * database written before fsscan recorded capacity has none. */
static int
has_capacity(sqlite3 *db, char *err, size_t errlen)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT name FROM"
	    " pragma_table_info('v_snapshot')", err, errlen);
	unsigned seen = 0;
	int rc;

	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);

		for (size_t i = 0; name && i < NCAP; i++)
			if (!strcmp(name, cap_cols[i]))
				seen |= 1u << i;
	}
	rc = step_end(db, rc, err, errlen);
	sqlite3_finalize(st);
	return rc < 0 ? -1 : seen == (1u << NCAP) - 1;
}

int
query_census_capacity(sqlite3 *db, int64_t id, struct capacity *c,
    char *err, size_t errlen)
{
	struct nint *v[NCAP] = { &c->bytes, &c->free_bytes, &c->avail_bytes,
	    &c->inodes, &c->free_inodes };
	sqlite3_stmt *st;
	int rc;

	memset(c, 0, sizeof *c);
	if ((rc = has_capacity(db, err, errlen)) <= 0)
		return rc;
	c->known = 1;
	st = db_prepare(db, "SELECT fs_bytes, fs_free_bytes, fs_avail_bytes,"
	    " fs_inodes, fs_free_inodes FROM v_snapshot WHERE id = ?", err,
	    errlen);
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	if ((rc = step_one(db, st, err, errlen)) == 1)
		for (size_t i = 0; i < NCAP; i++)
			*v[i] = col_nint(st, (int)i);
	sqlite3_finalize(st);
	return rc < 0 ? -1 : 0;
}

void
query_census_snap_clear(struct snap *s)
{
	free(s->fs);
	free(s->root);
	free(s->status);
	free(s->mount_opts);
	memset(s, 0, sizeof *s);
}

void
query_census_snaps_free(struct snap *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		query_census_snap_clear(&s[i]);
	free(s);
}

/* Each query yields key, display name, files, bytes, alloc_bytes. */
static const char *const group_sql[] = {
	[BY_PROJECT] = "SELECT project, project, files, bytes, alloc_bytes"
	    " FROM v_project WHERE snapshot_id = ?1",
	[BY_USER] = "SELECT id, ifnull(name, id), files, bytes, alloc_bytes"
	    " FROM owner WHERE snapshot_id = ?1 AND kind = 'user'",
	[BY_GROUP] = "SELECT id, ifnull(name, id), files, bytes, alloc_bytes"
	    " FROM owner WHERE snapshot_id = ?1 AND kind = 'group'",
	[BY_DIR] = "SELECT path, path, files, bytes, alloc_bytes"
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
		if (*n == cap) {
			cap = cap ? 2 * cap : 64;
			*out = xrealloc(*out, cap * sizeof **out);
		}
		g = &(*out)[(*n)++];
		g->key = col_dup(st, 0);
		g->name = col_dup(st, 1);
		g->files = sqlite3_column_int64(st, 2);
		if (col_total(st, 3, id, I128_MAX, &g->bytes, err, errlen) < 0 ||
		    col_total(st, 4, id, I128_MAX, &g->alloc, err, errlen) < 0)
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
	sqlite3_stmt *st = db_prepare(db, "SELECT slot, lo, hi, n, w FROM hist"
	    " WHERE snapshot_id = ?1 AND metric = ?2 AND"
	    " (CASE WHEN ?3 IS NULL THEN project IS NULL"
	    " ELSE project = ?3 END)",
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
	sqlite3_stmt *st = db_prepare(db, "SELECT project, min, max FROM"
	    " project_extent WHERE snapshot_id = ?1 AND metric = ?2 AND"
	    " (?3 IS NULL OR project = ?3)", err, errlen);
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
		if (*n == cap) {
			cap = cap ? 2 * cap : 16;
			*names = xrealloc(*names, cap * sizeof **names);
		}
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
		if (*n == cap) {
			cap = cap ? 2 * cap : 32;
			*out = xrealloc(*out, cap * sizeof **out);
		}
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
