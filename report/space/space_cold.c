/*
 * space_cold: how much of each project, user or group (--by) has not
 * been read (atime), or not modified (mtime), in N days? The
 * purge-policy question, per file system at its latest point in the
 * window: for each threshold fsscan recorded (fsscan --cold; v_cold,
 * v_cold_owner), or the one asked for, each project's (user's, group's)
 * files and bytes that old, their share of its files and bytes, and the
 * change since the point before; and the same for the whole file
 * system. docs/analyses.md, "Cold data".
 *
 * The counts are fsscan's, exact: a file is cold at N days when now_ref -
 * time >= N * 86400, each hard-linked inode once under its owning link.
 * Nothing is estimated from the age histograms, whose buckets need not
 * end at N days.
 */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "space.h"
#include "space_growth_int.h"
#include "space_names_int.h"
#include "space_snapout_int.h"
#include "human.h"
#include "xalloc.h"

enum { K_FS, K_ID, K_T, K_METRIC, K_DAYS, K_PROJECT, K_FILES, K_BYTES,
    K_SF, K_SB, K_DF, K_DB, K_NCOL };

/* The columns of both tables; the file systems' has no project (user,
 * group: the column K_PROJECT names what --by asks for). */
#define COL_FS { "fs", "File system", NULL, CF_PLAIN, 0 }
#define COL_ID { "snapshot", "Snapshot", NULL, CF_PLAIN, 0 }
#define COL_T { "t", "Taken (UTC)", NULL, CF_DATE, 0 }
#define COL_METRIC { "metric", "By", NULL, CF_PLAIN, 0 }
#define COL_DAYS { "days", "Days", "days", CF_PLAIN, 0 }
#define COL_TAIL { "files", "Files", "files", CF_PLAIN, 0 }, \
	{ "bytes", "Bytes", "bytes", CF_BYTES, 2 }, \
	{ "share_files", "Share of files", "%", CF_PCT, 1 }, \
	{ "share_bytes", "Share of bytes", "%", CF_PCT, 1 }, \
	{ "d_files", "Change in files", "files", CF_PLAIN, 0 }, \
	{ "d_bytes", "Change in bytes", "bytes", CF_BYTES, 2 }

static const struct rcol_spec cols[K_NCOL] = { COL_FS, COL_ID, COL_T,
	COL_METRIC, COL_DAYS, { "project", "Project", NULL, CF_PLAIN, 0 },
	COL_TAIL };
static const struct rcol_spec who_col[] = {
	[BY_PROJECT] = { "project", "Project", NULL, CF_PLAIN, 0 },
	[BY_USER] = { "user", "User", NULL, CF_PLAIN, 0 },
	[BY_GROUP] = { "group", "Group", NULL, CF_PLAIN, 0 } };
static const struct rcol_spec fs_cols[K_NCOL - 1] = { COL_FS, COL_ID, COL_T,
	COL_METRIC, COL_DAYS, COL_TAIL };

/* One file system's latest point and the one before, with their rows. */
struct cold_fs {
	const char *fs;
	enum group_by by;
	const struct snap *cur, *prev;
	struct cold_row *c, *p;		/* the cold rows of cur and prev */
	size_t nc, np;
	int prev_keyed;			/* prev has rows of groups */
	struct gtot *g;			/* cur's groups, by key */
	size_t ng;
};

/* Column k of a row of the projects' table (proj), or of the file
 * systems', which has no project column. */
static int
col(int proj, int k)
{
	return proj || k < K_PROJECT ? k : k - 1;
}

static double
frac(i128 part, i128 whole)
{
	return whole > 0 ? (double)part / (double)whole : NAN;
}

/* Row a against (days, key) in query_census_cold's order: by days, the
 * file system's row (key NULL) first, then by key (byte order, as
 * strcmp). */
static int
row_cmp(const struct cold_row *a, int64_t days, const char *key)
{
	if (a->days != days)
		return a->days < days ? -1 : 1;
	if (!a->key || !key)
		return !!a->key - !!key;
	return strcmp(a->key, key);
}

/* The row of (days, key) in rows sorted as query_census_cold sorts
 * them; NULL when there is none. Bisection: a row is looked up for each
 * row, and a scan would be quadratic in the groups. */
static const struct cold_row *
find_row(const struct cold_row *r, size_t n, int64_t days, const char *key)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = row_cmp(&r[mid], days, key);

		if (c == 0)
			return &r[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* A group's files and bytes at cur (the whole file system's: key NULL),
 * the denominators of the shares; f->g is sorted by key (strcmp). */
static void
totals_of(const struct cold_fs *f, const char *key, i128 *files,
    i128 *bytes)
{
	size_t lo = 0, hi = f->ng;

	*files = *bytes = -1;
	if (!key) {
		if (f->cur->files.has)
			*files = f->cur->files.v;
		if (f->cur->bytes.has)
			*bytes = f->cur->bytes.v;
		return;
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(f->g[mid].key, key);

		if (c == 0) {
			*files = f->g[mid].files;
			*bytes = f->g[mid].bytes;
			return;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
}

/* The change since the point before: a threshold that point did not
 * record has none, nor does a group's row when that point has no row of
 * any group (owners before schema 12); a group it has no row for had
 * nothing cold then (nothing was attributed to it). */
static void
put_change(struct rtable *t, size_t row, const struct cold_fs *f,
    const struct cold_row *c)
{
	const struct cold_row *p;
	int proj = c->key != NULL;

	if (!f->prev || !find_row(f->p, f->np, c->days, NULL) ||
	    (proj && !f->prev_keyed))
		return;
	p = find_row(f->p, f->np, c->days, c->key);
	result_set_wide(t, row, col(proj, K_DF), (i128)c->files -
	    (p ? p->files : 0));
	result_set_wide(t, row, col(proj, K_DB), c->bytes -
	    (p ? p->bytes : 0));
}

/* A row of the projects' table, or (project NULL) of the file systems'. */
static void
put_row(struct rtable *t, const struct cold_fs *f, const char *age,
    const struct cold_row *c)
{
	size_t row = result_row(t);
	int proj = c->key != NULL;
	i128 files, bytes;

	totals_of(f, c->key, &files, &bytes);
	result_set_text(t, row, K_FS, f->fs);
	result_set_int(t, row, K_ID, f->cur->id);
	result_set_int(t, row, K_T, f->cur->started_at);
	result_set_text(t, row, K_METRIC, age);
	result_set_int(t, row, K_DAYS, c->days);
	if (proj)
		result_set_text(t, row, K_PROJECT, c->name);
	result_set_int(t, row, col(proj, K_FILES), c->files);
	result_set_wide(t, row, col(proj, K_BYTES), c->bytes);
	space_snapout_real(t, row, col(proj, K_SF), frac(c->files, files));
	space_snapout_real(t, row, col(proj, K_SB), frac(c->bytes, bytes));
	put_change(t, row, f, c);
}

/* Cold bytes descending, then name and key (byte order). */
static int
by_bytes(const void *pa, const void *pb)
{
	const struct cold_row *a = *(const struct cold_row *const *)pa;
	const struct cold_row *b = *(const struct cold_row *const *)pb;
	int c;

	if (a->bytes != b->bytes)
		return a->bytes > b->bytes ? -1 : 1;
	c = strcmp(a->name, b->name);
	return c ? c : strcmp(a->key, b->key);
}

/* Does a snapshot's rows hold a group's? */
static int
keyed(const struct cold_row *r, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (r[i].key)
			return 1;
	return 0;
}

/* The rows of one threshold: the whole file system's, then the
 * groups', most cold bytes first. */
static void
put_threshold(struct rtable *ft, struct rtable *pt, const struct cold_fs *f,
    const char *age, int64_t days)
{
	const struct cold_row **v = xcalloc(f->nc + 1, sizeof *v);
	size_t n = 0;

	for (size_t i = 0; i < f->nc; i++) {
		if (f->c[i].days != days)
			continue;
		if (!f->c[i].key)
			put_row(ft, f, age, &f->c[i]);
		else
			v[n++] = &f->c[i];
	}
	if (n > 1)
		qsort(v, n, sizeof *v, by_bytes);
	for (size_t i = 0; i < n; i++)
		put_row(pt, f, age, v[i]);
	free(v);
}

/* The thresholds cur recorded, "30, 90, 180 and 365". */
static void
recorded(const struct cold_fs *f, char *buf, size_t len)
{
	size_t k = 0, at = 0, total = 0;

	for (size_t i = 0; i < f->nc; i++)
		total += !f->c[i].key;
	buf[0] = 0;
	for (size_t i = 0; i < f->nc && at < len; i++) {
		if (f->c[i].key)
			continue;
		k++;
		at += (size_t)snprintf(buf + at, len - at, "%s%lld",
		    k == 1 ? "" : k == total ? " and " : ", ",
		    (long long)f->c[i].days);
	}
}

/* The rows of one file system at its latest point in the window. 0, or
 * -1 with err (a usage error for a --days the point did not record). */
static int
fs_rows(struct result *r, struct rtable *ft, struct rtable *pt, sqlite3 *db,
    const struct opts *o, struct cold_fs *f, char *err, size_t errlen)
{
	const char *who = space_names_by_name(f->by);
	char list[256], d0[32], d1[32];

	if (query_census_cold(db, f->cur->id, o->age, f->by, &f->c, &f->nc,
	    err, errlen) < 0)
		return -1;
	if (f->nc == 0) {
		result_note(r, "%s: snapshot #%lld records no cold data (it was"
		    " written before schema 8).", f->fs, (long long)f->cur->id);
		return 0;
	}
	recorded(f, list, sizeof list);
	if (o->days && !find_row(f->c, f->nc, o->days, NULL)) {
		snprintf(err, errlen, FMT_USAGE "--days %lld: snapshot #%lld of"
		    " %s recorded %s days (fsscan --cold)", (long long)o->days,
		    (long long)f->cur->id, f->fs, list);
		return -1;
	}
	if ((f->prev && query_census_cold(db, f->prev->id, o->age, f->by,
	    &f->p, &f->np, err, errlen) < 0) || query_census_groups(db,
	    f->cur->id, f->by, 0, &f->g, &f->ng, err, errlen) < 0)
		return -1;
	f->prev_keyed = keyed(f->p, f->np);
	result_note(r, "%s: snapshot #%lld of %s, thresholds recorded: %s"
	    " days.", f->fs, (long long)f->cur->id, human_date(
	    f->cur->started_at, 0, d0, sizeof d0), list);
	if (!f->prev)
		result_note(r, "%s: its first point: changes are n/a.", f->fs);
	else
		result_note(r, "%s: changes since snapshot #%lld of %s%s.",
		    f->fs, (long long)f->prev->id, human_date(
		    f->prev->started_at, 0, d1, sizeof d1), !f->np ?
		    ", which records no cold data: n/a" : !f->prev_keyed ?
		    ", which records no cold data per owner: n/a per owner" :
		    "");
	if (f->by != BY_PROJECT && !keyed(f->c, f->nc))
		result_note(r, "%s: snapshot #%lld records no cold data per"
		    " %s (it was written before schema 12): only the file"
		    " system's.", f->fs, (long long)f->cur->id, who);
	if (!strcmp(o->age, "atime"))
		space_snapout_atime_mode(r, f->cur);
	for (size_t i = 0; i < f->nc; i++)
		if (!f->c[i].key && (!o->days || f->c[i].days == o->days))
			put_threshold(ft, pt, f, o->age, f->c[i].days);
	return 0;
}

/* One file system: its latest point in the window, and the one before. */
static int
one_fs(struct result *r, struct rtable *ft, struct rtable *pt, sqlite3 *db,
    const struct opts *o, enum group_by by, const struct snap *s, size_t n,
    const char *fs, char *err, size_t errlen)
{
	size_t *keep = xcalloc(n + 1, sizeof *keep), k, nr;
	struct cold_fs f = { .fs = fs, .by = by };
	int rc = 0;

	k = space_points_keep(s, n, fs, INT64_MIN, io_window_hi(&o->win),
	    keep, &nr);
	if (k == 0 || s[keep[k - 1]].started_at < io_window_lo(&o->win)) {
		result_note(r, "%s: no complete snapshot %s.", fs,
		    io_window_given(&o->win) ? "in the window" : "at all");
	} else {
		f.cur = &s[keep[k - 1]];
		f.prev = k >= 2 ? &s[keep[k - 2]] : NULL;
		rc = fs_rows(r, ft, pt, db, o, &f, err, errlen);
	}
	query_census_cold_free(f.c, f.nc);
	query_census_cold_free(f.p, f.np);
	query_census_gtots_free(f.g, f.ng);
	free(keep);
	return rc;
}

struct result *
space_cold(sqlite3 *db, const struct opts *o, char *err, size_t errlen)
{
	static const char *const under[] = { [BY_PROJECT] = "in its owner's"
	    " project", [BY_USER] = "under its owner (the inode's"
	    " uid)", [BY_GROUP] = "under its group (the inode's gid)" };
	int atime = !strcmp(o->age, "atime");
	struct rcol_spec gcols[K_NCOL];
	struct snap *s = NULL;
	const char **names = NULL, *who;
	struct result *r = NULL;
	struct rtable *ft, *pt;
	enum group_by by;
	size_t n = 0;
	long nfs;
	char key[16], title[64];

	assert(db != NULL && o != NULL && err != NULL && errlen > 0);
	if (space_names_by(o->by, &by, err, errlen) < 0)
		return NULL;
	who = space_names_by_name(by);
	if ((nfs = space_names_fs_list(db, o->fs, &s, &n, &names, err,
	    errlen)) < 0)
		goto out;
	r = result_new("cold", atime ? "Cold data: not read in N days" :
	    "Cold data: not modified in N days");
	result_note(r, "Regular files whose %s is at least N days before the"
	    " snapshot's reference time (fsscan --now), each hard-linked"
	    " inode once, %s: exact counts that fsscan kept for each"
	    " threshold (fsscan --cold). Shares are of the %s's (the file"
	    " system's) files and bytes; each file system is described at its"
	    " latest point in the window, and changes are since the point"
	    " before (points are one per day).", o->age, under[by], who);
	ft = result_table(r, "filesystems", "Cold data of each file system",
	    fs_cols, K_NCOL - 1);
	result_wide(ft, "snapshot,t,share_files,d_files");
	memcpy(gcols, cols, sizeof gcols);
	gcols[K_PROJECT] = who_col[by];
	snprintf(key, sizeof key, "%ss", who);
	snprintf(title, sizeof title, "Cold data per %s", who);
	pt = result_table(r, key, title, gcols, K_NCOL);
	result_wide(pt, "snapshot,t,metric,share_files,d_files");
	result_list(pt, 0);
	if (nfs == 0)
		result_note(r, "No snapshots in the database.");
	for (long i = 0; i < nfs; i++) {
		/* result_table may move the tables: take them anew */
		ft = &r->table[0];
		pt = &r->table[1];
		if (one_fs(r, ft, pt, db, o, by, s, n, names[i], err,
		    errlen) < 0) {
			result_free(r);
			r = NULL;
			break;
		}
	}
out:
	free(names);
	query_census_snaps_free(s, n);
	return r;
}
