/*
 * space_usage: who holds a file system: files and bytes per project, user or
 * group at its latest point, each one's share, and the change since the
 * point before (points are one per day: a rescan counts once, see
 * space_growth_pts.c). The ncdu, gdu and rbh-report question, per file
 * system; within the window of the report, the latest point before its
 * end.
 */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "space.h"
#include "space_growth_int.h"
#include "space_groups_int.h"
#include "space_names_int.h"
#include "space_snapout_int.h"
#include "human.h"
#include "xalloc.h"

enum { U_FS, U_NAME, U_FILES, U_BYTES, U_ALLOC, U_SF, U_SB, U_DF, U_DB,
    U_DA };

static const struct rcol_spec cols[] = {
	[U_FS] = { "fs", "File system", NULL, CF_PLAIN, 0 },
	[U_NAME] = { "name", "Name", NULL, CF_PLAIN, 0 },
	[U_FILES] = { "files", "Files", "files", CF_PLAIN, 0 },
	[U_BYTES] = { "bytes", "Bytes", "bytes", CF_BYTES, 2 },
	[U_ALLOC] = { "alloc_bytes", "Allocated", "bytes", CF_BYTES, 2 },
	[U_SF] = { "share_files", "Share of files", "%", CF_PCT, 1 },
	[U_SB] = { "share_bytes", "Share of bytes", "%", CF_PCT, 1 },
	[U_DF] = { "d_files", "Change in files", "files", CF_PLAIN, 0 },
	[U_DB] = { "d_bytes", "Change in bytes", "bytes", CF_BYTES, 2 },
	[U_DA] = { "d_alloc", "Change in allocated", "bytes", CF_BYTES, 2 },
};

/* One name's values now (cur) and at the point before (prev: absent when
 * there is none, the change is then n/a). */
struct urow {
	const char *name;
	i128 v[3], d[3];	/* files, bytes, alloc; their changes */
	int has_prev;
};

struct rows {
	struct urow *r;
	size_t n;
	int has_prev;
};

static void
add_row(const struct gtot *prev, const struct gtot *cur, void *arg)
{
	struct rows *rs = arg;
	struct urow *u;
	i128 c[3] = { 0, 0, 0 }, p[3] = { 0, 0, 0 };

	/* the merge calls with the group of one side at least */
	assert(prev != NULL || cur != NULL);
	u = &rs->r[rs->n++];
	if (cur)
		c[0] = cur->files, c[1] = cur->bytes, c[2] = cur->alloc;
	if (prev)
		p[0] = prev->files, p[1] = prev->bytes, p[2] = prev->alloc;
	u->name = cur ? cur->name : prev->name;
	for (int k = 0; k < 3; k++)
		u->v[k] = c[k], u->d[k] = c[k] - p[k];
	u->has_prev = rs->has_prev;
}

/* Bytes descending, then name. */
static int
urow_cmp(const void *pa, const void *pb)
{
	const struct urow *a = pa, *b = pb;

	if (a->v[1] != b->v[1])
		return a->v[1] > b->v[1] ? -1 : 1;
	return strcmp(a->name, b->name);
}

static double
frac(i128 part, struct nint whole)
{
	return whole.has && whole.v > 0 ? (double)part / (double)whole.v :
	    NAN;
}

/* The rows of one file system: its latest point, and the one before. */
static int
fs_rows(struct result *r, struct rtable *t, sqlite3 *db, enum group_by by,
    const struct snap *s, size_t n, const char *fs, const struct io_window *w,
    char *err, size_t errlen)
{
	size_t *keep = xcalloc(n + 1, sizeof *keep), nr, k, na = 0, nb = 0;
	struct gtot *ga = NULL, *gb = NULL;
	struct rows rs = { NULL, 0, 0 };
	const struct snap *cur, *prev;
	char d0[32], d1[32];
	int rc = -1;

	k = space_points_keep(s, n, fs, INT64_MIN, io_window_hi(w), keep, &nr);
	if (k == 0) {
		result_note(r, "%s: no complete snapshot%s.", fs, w->has_to ?
		    " before the window's end" : "");
		rc = 0;
		goto out;
	}
	cur = &s[keep[k - 1]];
	prev = k >= 2 ? &s[keep[k - 2]] : NULL;
	if (query_census_groups(db, cur->id, by, 0, &gb, &nb, err,
	    errlen) < 0 || (prev && query_census_groups(db, prev->id, by, 0,
	    &ga, &na, err, errlen) < 0))
		goto out;
	if (prev)
		result_note(r, "%s: snapshot #%lld of %s; changes since #%lld"
		    " of %s (%.1f days before).", fs, (long long)cur->id,
		    human_date(cur->started_at, 0, d0, sizeof d0),
		    (long long)prev->id, human_date(prev->started_at, 0, d1,
		    sizeof d1), (double)(cur->started_at - prev->started_at) /
		    GROWTH_DAY);
	else
		result_note(r, "%s: snapshot #%lld of %s, its first point:"
		    " changes are n/a.", fs, (long long)cur->id,
		    human_date(cur->started_at, 0, d0, sizeof d0));
	if (nr)
		result_note(r, "%s: %zu complete snapshot%s less than a day"
		    " before the next one %s: the later one counts.", fs, nr,
		    nr == 1 ? "" : "s", nr == 1 ? "is a rescan" :
		    "are rescans");
	rs.r = xcalloc(na + nb + 1, sizeof *rs.r);
	rs.has_prev = prev != NULL;
	space_groups_merge(ga, na, gb, nb, add_row, &rs);
	qsort(rs.r, rs.n, sizeof *rs.r, urow_cmp);
	for (size_t i = 0; i < rs.n; i++) {
		const struct urow *u = &rs.r[i];
		size_t row = result_row(t);

		result_set_text(t, row, U_FS, fs);
		result_set_text(t, row, U_NAME, u->name);
		result_set_wide(t, row, U_FILES, u->v[0]);
		result_set_wide(t, row, U_BYTES, u->v[1]);
		result_set_wide(t, row, U_ALLOC, u->v[2]);
		space_snapout_real(t, row, U_SF, frac(u->v[0], cur->files));
		space_snapout_real(t, row, U_SB, frac(u->v[1], cur->bytes));
		for (int m = 0; u->has_prev && m < 3; m++)
			result_set_wide(t, row, U_DF + m, u->d[m]);
	}
	rc = 0;
out:
	free(rs.r);
	query_census_gtots_free(ga, na);
	query_census_gtots_free(gb, nb);
	free(keep);
	return rc;
}

struct result *
space_usage(sqlite3 *db, const struct opts *o, char *err, size_t errlen)
{
	enum group_by by;
	struct snap *s = NULL;
	const char **names;
	struct result *r = NULL;
	struct rtable *t;
	size_t n = 0;
	long nfs;
	char title[64];

	assert(db != NULL && o != NULL && err != NULL && errlen > 0);
	if (space_names_by(o->by, &by, err, errlen) < 0)
		return NULL;
	if ((nfs = space_names_fs_list(db, o->fs, &s, &n, &names, err,
	    errlen)) < 0)
		goto out;
	snprintf(title, sizeof title, "Usage by %s", space_names_by_name(by));
	r = result_new("usage", title);
	result_note(r, "Files, bytes (sum of st_size) and allocated bytes of"
	    " each %s at each file system's latest point; shares are of the"
	    " file system's files and bytes. Points are one per day: a"
	    " complete snapshot less than a day before the next is a rescan.",
	    space_names_by_name(by));
	snprintf(title, sizeof title, "Files and bytes per %s",
	    space_names_by_name(by));
	t = result_table(r, "usage", title, cols, sizeof cols / sizeof *cols);
	result_wide(t, "alloc_bytes,d_alloc");
	result_list(t, 0);
	if (nfs == 0)
		result_note(r, "No snapshots in the database.");
	for (long i = 0; i < nfs; i++)
		if (fs_rows(r, t, db, by, s, n, names[i], &o->win, err,
		    errlen) < 0) {
			result_free(r);
			r = NULL;
			break;
		}
out:
	free(names);
	query_census_snaps_free(s, n);
	return r;
}
