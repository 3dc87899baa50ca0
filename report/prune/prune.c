/*
 * prune: `iocensus prune` (prune.h). The snapshots are read and the
 * policy applied (prune_policy.c) inside the transaction that removes
 * what it drops (prune_delete.c), so that a scan finishing meanwhile
 * cannot change what the decisions were made on. Then the database is
 * compacted when a quarter of it or more is free pages.
 */
#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "db.h"
#include "fmt.h"
#include "human.h"
#include "prune.h"
#include "prune_int.h"
#include "query/query.h"
#include "xalloc.h"

enum { C_ID, C_FS, C_START, C_STATUS, C_ACTION, C_WHY };

static const struct rcol_spec cols[] = {
	[C_ID] = { "id", "Id", NULL, CF_PLAIN, 0 },
	[C_FS] = { "fs", "File system", NULL, CF_PLAIN, 0 },
	[C_START] = { "started_at", "Started (UTC)", NULL, CF_TIME, 0 },
	[C_STATUS] = { "status", "Status", NULL, CF_PLAIN, 0 },
	[C_ACTION] = { "action", "Action", NULL, CF_PLAIN, 0 },
	[C_WHY] = { "why", "Why", NULL, CF_PLAIN, 0 },
};

/* Per file system: how many, kept, removed, and kept by each rule (a
 * snapshot two rules keep counts for both). */
enum { S_FS, S_ALL, S_KEPT, S_REMOVED, S_DAILY, S_WEEKLY, S_MONTHLY,
	S_QUARTERLY, S_NCOL };

static const struct rcol_spec sum_cols[] = {
	[S_FS] = { "fs", "File system", NULL, CF_PLAIN, 0 },
	[S_ALL] = { "snapshots", "Snapshots", "snapshots", CF_PLAIN, 0 },
	[S_KEPT] = { "kept", "Snapshots kept", "snapshots", CF_PLAIN, 0 },
	[S_REMOVED] = { "removed", "Snapshots removed", "snapshots",
	    CF_PLAIN, 0 },
	[S_DAILY] = { "daily", "Daily snapshots", "snapshots", CF_PLAIN,
	    0 },
	[S_WEEKLY] = { "weekly", "Weekly snapshots", "snapshots", CF_PLAIN,
	    0 },
	[S_MONTHLY] = { "monthly", "Monthly snapshots", "snapshots",
	    CF_PLAIN, 0 },
	[S_QUARTERLY] = { "quarterly", "Quarterly snapshots",
	    "snapshots", CF_PLAIN, 0 },
};

static const char *const rule_name[OPTS_NPERIOD] = { "daily", "weekly",
	"monthly", "quarterly" };

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static enum prune_state
state_of(const struct snap *s)
{
	if (s->complete)
		return PRUNE_COMPLETE;
	return strcmp(s->status, "running") ? PRUNE_UNFINISHED : PRUNE_RUNNING;
}

/* The snapshots of o->fs (NULL: every one) as the policy's items. */
static size_t
items_of(const struct snap *s, size_t n, const char *fs,
    struct prune_item *it)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (!fs || !strcmp(s[i].fs, fs))
			it[k++] = (struct prune_item){ s[i].id, s[i].fs,
			    s[i].started_at, state_of(&s[i]), 0 };
	return k;
}

/* Why x is kept, or goes, in words. */
static void
reasons(const struct prune_item *x, char *buf, size_t len)
{
	size_t off = 0;
	char period[32];

	buf[0] = '\0';
	if (x->why & PRUNE_NEWEST)
		off += (size_t)snprintf(buf + off, len - off, "newest complete");
	for (int p = 0; p < OPTS_NPERIOD && off < len; p++)
		if (x->why & (PRUNE_RULE << p))
			off += (size_t)snprintf(buf + off, len - off, "%s%s %s",
			    off ? ", " : "", rule_name[p], prune_policy_label(
			    (enum opts_period)p, x->t, period, sizeof period));
	if (x->why & PRUNE_RUN)
		snprintf(buf, len, "running: a scan may still be writing it");
	else if (x->why & PRUNE_LATER)
		snprintf(buf, len, "no complete snapshot is newer");
	else if (!x->why && x->state == PRUNE_COMPLETE)
		snprintf(buf, len, "no rule keeps it");
	else if (!x->why)
		snprintf(buf, len, "a newer complete snapshot supersedes it");
}

/* The snapshot of id among s (n, in id order, as loaded). */
static const struct snap *
snap_of(const struct snap *s, size_t n, int64_t id)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s[mid].id == id)
			return &s[mid];
		if (s[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* By file system, then id: the order of the tables. */
static int
cmp_fs_id(const void *a, const void *b)
{
	const struct prune_item *x = a, *y = b;
	int c = strcmp(x->fs, y->fs);

	return c ? c : (x->id > y->id) - (x->id < y->id);
}

static void
add_rows(struct rtable *t, const struct prune_item *it, size_t n,
    const struct snap *s, size_t ns, int dry_run)
{
	char why[256];

	for (size_t i = 0; i < n; i++) {
		size_t row = result_row(t);

		result_set_int(t, row, C_ID, it[i].id);
		result_set_text(t, row, C_FS, it[i].fs);
		result_set_int(t, row, C_START, it[i].t);
		result_set_text(t, row, C_STATUS, snap_of(s, ns, it[i].id)->
		    status);
		result_set_text(t, row, C_ACTION, it[i].why ? (dry_run ?
		    "keep" : "kept") : (dry_run ? "remove" : "removed"));
		reasons(&it[i], why, sizeof why);
		result_set_text(t, row, C_WHY, why);
	}
}

/* Add item x to its file system's counts c. */
static void
count(uint64_t *c, const struct prune_item *x)
{
	c[S_ALL]++;
	c[x->why ? S_KEPT : S_REMOVED]++;
	for (int p = 0; p < OPTS_NPERIOD; p++)
		c[S_DAILY + p] += (x->why & (PRUNE_RULE << p)) != 0;
}

/* One row per file system; it is in file-system order. */
static void
add_summary(struct rtable *t, const struct prune_item *it, size_t n)
{
	for (size_t i = 0, j; i < n; i = j) {
		uint64_t c[S_NCOL] = { 0 };
		size_t row = result_row(t);

		for (j = i; j < n && !strcmp(it[j].fs, it[i].fs); j++)
			count(c, &it[j]);
		result_set_text(t, row, S_FS, it[i].fs);
		for (int col = S_ALL; col < S_NCOL; col++)
			result_set_uint(t, row, col, c[col]);
	}
}

/* A number PRAGMA gives; -1 when it cannot be read. */
static int64_t
pragma(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	int64_t v = -1;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* The database's size in bytes: its pages. */
static int64_t
db_bytes(sqlite3 *db)
{
	int64_t pages = pragma(db, "PRAGMA page_count");
	int64_t size = pragma(db, "PRAGMA page_size");

	return pages < 0 || size < 0 ? -1 : pages * size;
}

/* VACUUM when a quarter of the file or more is free: the pages a nightly
 * prune frees, the next scan fills again, and a VACUUM rewrites the
 * whole file (the I/O samples too); after a large prune it gives the
 * space back. The checkpoint then truncates the file and its WAL. */
static void
compact(sqlite3 *db, struct result *r)
{
	int64_t free_pages = pragma(db, "PRAGMA freelist_count");
	int64_t pages = pragma(db, "PRAGMA page_count");
	int64_t before = db_bytes(db), after;
	char a[32], b[32];
	double t0 = now_s();

	if (free_pages < 0 || pages <= 0 || before < 0)
		return;
	if (free_pages * 4 < pages) {
		result_note(r, "Not compacted: %s of %s free, less than a "
		    "quarter; later scans fill the free pages.",
		    human_bytes((double)(before / pages * free_pages), 1, a,
		    sizeof a), human_bytes((double)before, 1, b, sizeof b));
		return;
	}
	if (sqlite3_exec(db, "VACUUM", NULL, NULL, NULL) != SQLITE_OK) {
		result_note(r, "Not compacted: VACUUM failed: %s.",
		    sqlite3_errmsg(db));
		return;
	}
	sqlite3_exec(db, "PRAGMA wal_checkpoint(TRUNCATE)", NULL, NULL, NULL);
	after = db_bytes(db);
	result_note(r, "Compacted the database from %s to %s in %.1f s "
	    "(VACUUM).", human_bytes((double)before, 1, a, sizeof a),
	    human_bytes((double)after, 1, b, sizeof b), now_s() - t0);
}

/* Remove the items that go; their count. 0, or -1 with err. */
static int
remove_dropped(sqlite3 *db, const struct prune_item *it, size_t n,
    size_t *removed, uint64_t *rows, char *err, size_t errlen)
{
	int64_t *ids = xcalloc(n ? n : 1, sizeof *ids);
	uint64_t *per = xcalloc(n ? n : 1, sizeof *per);
	size_t k = 0, ntables = 0;
	int rc;

	for (size_t i = 0; i < n; i++)
		if (!it[i].why)
			ids[k++] = it[i].id;
	rc = prune_delete(db, ids, k, per, &ntables, err, errlen);
	*removed = k;
	*rows = 0;
	for (size_t i = 0; rc == 0 && i < k; i++)
		*rows += per[i];
	free(ids);
	free(per);
	return rc;
}

static const char *
rules_text(const struct opts *o, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int p = 0; p < OPTS_NPERIOD && off < len; p++)
		off += (size_t)snprintf(buf + off, len - off, "%s--keep-%s %"
		    PRIu32, p ? " " : "", rule_name[p], o->keep[p]);
	return buf;
}

/* The decisions, and with them the removal unless o->dry_run; the
 * caller holds the transaction. NULL with err. */
static struct result *
decide(sqlite3 *db, const struct opts *o, double t0, char *err,
    size_t errlen)
{
	struct snap *s;
	struct prune_item *it;
	struct result *r = NULL;
	struct rtable *t;
	size_t ns, n, removed = 0;
	uint64_t rows = 0;
	char rules[160];

	if (query_census_snapshots(db, &s, &ns, err, errlen) < 0)
		return NULL;
	it = xcalloc(ns ? ns : 1, sizeof *it);
	n = items_of(s, ns, o->fs, it);
	if (o->fs && n == 0) {
		snprintf(err, errlen, FMT_USAGE "--fs %s: no snapshot of this "
		    "file system (iocensus snapshots lists them)", o->fs);
		goto out;
	}
	prune_policy(it, n, o->keep);
	qsort(it, n, sizeof *it, cmp_fs_id);
	if (!o->dry_run &&
	    remove_dropped(db, it, n, &removed, &rows, err, errlen) < 0)
		goto out;
	r = result_new("prune", "Prune");
	add_rows(result_table(r, "snapshots", "Snapshots kept and removed",
	    cols, sizeof cols / sizeof *cols), it, n, s, ns, o->dry_run);
	t = result_table(r, "summary", "Per file system", sum_cols, S_NCOL);
	/* kept plus removed: left out where 80 columns are short */
	result_wide(t, "snapshots");
	add_summary(t, it, n);
	result_note(r, "Rules: %s; the newest complete snapshot of each file "
	    "system is always kept.", rules_text(o, rules, sizeof rules));
	if (o->dry_run)
		result_note(r, "Dry run: nothing was removed.");
	else
		result_note(r, "Removed %zu of %zu snapshots (%" PRIu64 " rows)"
		    " in %.1f s, in one transaction.", removed, n, rows,
		    now_s() - t0);
out:
	free(it);
	query_census_snaps_free(s, ns);
	return r;
}

/* Every --keep-* rule is 0: a slip (a variable left empty), never a
 * policy, since it would remove every snapshot but the newest. */
static int
all_zero(const struct opts *o)
{
	for (int p = 0; p < OPTS_NPERIOD; p++)
		if (o->keep[p] > 0)
			return 0;
	return 1;
}

struct result *
prune_run(sqlite3 *db, const struct opts *o, char *err, size_t errlen)
{
	double t0 = now_s();
	struct result *r;

	assert(db != NULL && o != NULL && err != NULL && errlen > 0);
	if (!o->keep_given) {
		snprintf(err, errlen, FMT_USAGE "which snapshots to keep? "
		    "Give rules: --keep-daily N, --keep-weekly N, "
		    "--keep-monthly N, --keep-quarterly N (0 keeps none by "
		    "that rule)");
		return NULL;
	}
	if (all_zero(o)) {
		snprintf(err, errlen, FMT_USAGE "every rule is 0: that keeps "
		    "only the newest complete snapshot of each file system; "
		    "give one rule above 0 (--keep-daily 14), or remove "
		    "snapshots by id with iocensus forget");
		return NULL;
	}
	if (o->dry_run)
		return decide(db, o, t0, err, errlen);
	if (db_begin(db) < 0) {
		db_sqlerr(db, "cannot begin a transaction", err, errlen);
		return NULL;
	}
	r = decide(db, o, t0, err, errlen);
	if (!r) {
		db_rollback(db);
		return NULL;
	}
	if (db_commit(db) < 0) {
		db_sqlerr(db, "cannot commit", err, errlen);
		db_rollback(db);
		result_free(r);
		return NULL;
	}
	compact(db, r);
	return r;
}
