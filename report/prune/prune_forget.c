/*
 * prune_forget: `iocensus forget ID...` (prune.h): the snapshots named,
 * each with every row that belongs to it, removed in one transaction, or
 * none of them.
 */
#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "fmt.h"
#include "prune.h"
#include "prune_int.h"
#include "xalloc.h"

enum { C_ID, C_FS, C_START, C_STATUS, C_FILES, C_ROWS };

static const struct rcol_spec cols[] = {
	[C_ID] = { "id", "Id", NULL, CF_PLAIN, 0 },
	[C_FS] = { "fs", "File system", NULL, CF_PLAIN, 0 },
	[C_START] = { "started_at", "Started (UTC)", NULL, CF_TIME, 0 },
	[C_STATUS] = { "status", "Status", NULL, CF_PLAIN, 0 },
	[C_FILES] = { "files", "Files", "files", CF_PLAIN, 0 },
	[C_ROWS] = { "rows", "Rows removed", "rows", CF_PLAIN, 0 },
};

/* Snapshot id as the database has it: its row of the table to print,
 * filled but for the rows removed. 1 found, 0 not, -1 error. */
static int
describe(sqlite3 *db, int64_t id, struct rtable *t, size_t row,
    char *status, size_t slen, char *err, size_t errlen)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT fs, started_at, status, "
	    "files FROM snapshot WHERE id = ?", err, errlen);
	int rc;

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		result_set_int(t, row, C_ID, id);
		result_set_text(t, row, C_FS,
		    (const char *)sqlite3_column_text(st, 0));
		result_set_int(t, row, C_START, sqlite3_column_int64(st, 1));
		snprintf(status, slen, "%s", (const char *)sqlite3_column_text(
		    st, 2));
		result_set_text(t, row, C_STATUS, status);
		if (sqlite3_column_type(st, 3) == SQLITE_INTEGER)
			result_set_int(t, row, C_FILES,
			    sqlite3_column_int64(st, 3));
	}
	sqlite3_finalize(st);
	if (rc == SQLITE_ROW)
		return 1;
	return rc == SQLITE_DONE ? 0 : db_sqlerr(db, "snapshot", err, errlen);
}

static int
cmp_id(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* The ids, each once, ascending: their count. */
static size_t
distinct(const int64_t *ids, size_t n, int64_t *out)
{
	size_t k = 0;

	memcpy(out, ids, n * sizeof *ids);
	qsort(out, n, sizeof *out, cmp_id);
	for (size_t i = 0; i < n; i++)
		if (k == 0 || out[k - 1] != out[i])
			out[k++] = out[i];
	return k;
}

/* Every id names a snapshot that is not running, unless force: its row
 * in t. 0, or -1 with err (FMT_USAGE: the request's fault). A running
 * snapshot is refused by default because its scan may still be writing
 * it; nothing in the database tells a live scan from one killed with it,
 * so only the administrator, with --force, can say it is gone. */
static int
check_ids(sqlite3 *db, const int64_t *ids, size_t n, int force,
    struct rtable *t, char *err, size_t errlen)
{
	char status[32];

	for (size_t i = 0; i < n; i++) {
		int rc = describe(db, ids[i], t, result_row(t), status,
		    sizeof status, err, errlen);

		if (rc < 0)
			return -1;
		if (rc == 0) {
			snprintf(err, errlen, FMT_USAGE "no snapshot %" PRId64
			    " (iocensus snapshots lists them): nothing was "
			    "removed", ids[i]);
			return -1;
		}
		if (!force && !strcmp(status, "running")) {
			snprintf(err, errlen, FMT_USAGE "snapshot %" PRId64
			    " is running: a scan may still be writing it "
			    "(if that scan is gone, --force removes it); "
			    "nothing was removed", ids[i]);
			return -1;
		}
	}
	return 0;
}

static struct result *
forget(sqlite3 *db, const int64_t *ids, size_t n, int force, char *err,
    size_t errlen)
{
	struct result *r = result_new("forget", "Snapshots removed");
	struct rtable *t = result_table(r, "removed", "Snapshots removed",
	    cols, sizeof cols / sizeof *cols);
	uint64_t *rows = xcalloc(n, sizeof *rows), total = 0;
	size_t ntables = 0;

	if (db_begin(db) < 0) {
		db_sqlerr(db, "cannot begin a transaction", err, errlen);
		goto fail;
	}
	if (check_ids(db, ids, n, force, t, err, errlen) < 0 ||
	    prune_delete(db, ids, n, rows, &ntables, err, errlen) < 0) {
		db_rollback(db);
		goto fail;
	}
	if (db_commit(db) < 0) {
		db_sqlerr(db, "cannot commit", err, errlen);
		db_rollback(db);
		goto fail;
	}
	for (size_t i = 0; i < n; i++) {
		result_set_uint(t, i, C_ROWS, rows[i]);
		total += rows[i];
	}
	result_note(r, "Removed %zu snapshot%s: %" PRIu64 " rows of %zu "
	    "tables, in one transaction.", n, n == 1 ? "" : "s", total,
	    ntables);
	free(rows);
	return r;
fail:
	free(rows);
	result_free(r);
	return NULL;
}

struct result *
prune_forget(sqlite3 *db, const struct opts *o, char *err, size_t errlen)
{
	int64_t *ids = xcalloc(o->nids ? o->nids : 1, sizeof *ids);
	struct result *r;

	assert(db != NULL && o != NULL && err != NULL && errlen > 0);
	if (o->nids == 0) {
		snprintf(err, errlen, FMT_USAGE "expected snapshot ids: "
		    "ID...");
		free(ids);
		return NULL;
	}
	r = forget(db, ids, distinct(o->ids, o->nids, ids), o->force, err,
	    errlen);
	free(ids);
	return r;
}
