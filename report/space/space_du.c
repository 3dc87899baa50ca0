/*
 * space_du: the census as du shows a tree: the directories below a path,
 * down to a depth, largest first, from the subtree totals fsscan --dirs
 * recorded (table dir), with the change since the file system's previous
 * complete snapshot and the bytes not read since the scan's longest
 * atime threshold. The rows are chosen by depth and parent ids alone
 * (query_census_du_rows) and a path is joined only for a row printed, so
 * the answer costs the subtree's rows, not the census's paths.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "space.h"
#include "space_names_int.h"
#include "space_snapout_int.h"
#include "human.h"
#include "mountpath.h"
#include "xalloc.h"

enum { D_PATH, D_FILES, D_BYTES, D_ALLOC, D_DF, D_DB, D_COLD, D_NCOL };

static const struct rcol_spec cols[] = {
	[D_PATH] = { "path", "Path", NULL, CF_PLAIN, 0 },
	[D_FILES] = { "files", "Files", "files", CF_PLAIN, 0 },
	[D_BYTES] = { "bytes", "Bytes", "bytes", CF_BYTES, 2 },
	[D_ALLOC] = { "alloc_bytes", "Allocated", "bytes", CF_BYTES, 2 },
	[D_DF] = { "d_files", "Change in files", "files", CF_PLAIN, 0 },
	[D_DB] = { "d_bytes", "Change in bytes", "bytes", CF_BYTES, 2 },
	[D_COLD] = { "cold_bytes", "Cold bytes", "bytes", CF_BYTES, 2 },
};

/* PATH as names below ROOT: names[] point into buf. */
struct du_path {
	char *buf;
	const char **names;
	size_t n;
};

/* One subtree: the snapshot's rows, and for each the row of the
 * previous snapshot at the same path (prev_of: an index into prev, or
 * SIZE_MAX: none). */
struct du_tree {
	struct du_row *r, *prev;
	size_t n, nprev;
	size_t *prev_of;
	char **path;			/* joined for the rows printed */
};

static void
du_path_free(struct du_path *p)
{
	free(p->buf);
	free(p->names);
}

/*
 * PATH, absolute under ROOT or relative to it, as its names below ROOT:
 * empty names and "." are dropped; ".." is refused, since the census
 * cannot follow it where the file system would (a symbolic link). 0, or
 * -1 with a usage error.
 */
static int
split_path(const char *path, const char *root, struct du_path *p, char *err,
    size_t errlen)
{
	const char *rel = path ? path : "";
	size_t skip;
	char *save = NULL, *tok;

	memset(p, 0, sizeof *p);
	if (rel[0] == '/') {
		skip = root ? mountpath_prefix_len(root, rel) : 0;
		if (skip == 0) {
			snprintf(err, errlen, FMT_USAGE "%s: not below the"
			    " file system's root %s", path, root ? root : "");
			return -1;
		}
		rel += skip;
	}
	p->buf = xstrdup(rel);
	p->names = xcalloc(strlen(rel) / 2 + 2, sizeof *p->names);
	for (tok = strtok_r(p->buf, "/", &save); tok;
	    tok = strtok_r(NULL, "/", &save)) {
		if (!strcmp(tok, "."))
			continue;
		if (!strcmp(tok, "..")) {
			snprintf(err, errlen, FMT_USAGE "%s: '..' is not"
			    " followed in the census; name the directory"
			    " itself", path);
			du_path_free(p);
			return -1;
		}
		p->names[p->n++] = tok;
	}
	return 0;
}

/* The snapshot asked for (--snapshot, else the latest complete one of
 * the file system) into *cur, and the complete one before it of the
 * same file system into *prev (id 0: none). 1, 0 no snapshot, -1 err. */
static int
pick(sqlite3 *db, const struct opts *o, struct snap *cur, struct snap *prev,
    char *err, size_t errlen)
{
	struct snap *s;
	size_t n, at = SIZE_MAX;
	const char *fs = NULL;
	int rc;

	if (query_census_snapshots(db, &s, &n, err, errlen) < 0)
		return -1;
	space_points_sort(s, n);
	rc = o->snapshot ? space_names_choose_fs(s, n, o->fs, 0, &fs, err,
	    errlen) : space_names_one_fs(s, n, o->fs, &fs, err, errlen);
	for (size_t i = n; rc >= 0 && i-- > 0 && at == SIZE_MAX;)
		if (o->snapshot ? s[i].id == o->snapshot : s[i].complete &&
		    !strcmp(s[i].fs, fs))
			at = i;
	if (rc >= 0 && o->snapshot && at == SIZE_MAX) {
		snprintf(err, errlen, FMT_USAGE "snapshot %lld does not exist",
		    (long long)o->snapshot);
		rc = -1;
	} else if (rc >= 0 && o->snapshot && o->fs && strcmp(o->fs,
	    s[at].fs)) {
		snprintf(err, errlen, FMT_USAGE "snapshot %lld is of file system"
		    " %s, not --fs %s", (long long)o->snapshot, s[at].fs, o->fs);
		rc = -1;
	}
	if (rc > 0 && at != SIZE_MAX) {
		*cur = s[at];
		memset(&s[at], 0, sizeof s[at]);
		for (size_t i = at; i-- > 0;)
			if (s[i].complete && !strcmp(s[i].fs, cur->fs)) {
				*prev = s[i];
				memset(&s[i], 0, sizeof s[i]);
				break;
			}
	}
	query_census_snaps_free(s, n);
	return rc < 0 ? -1 : at != SIZE_MAX;
}

/* How many levels below PATH the snapshot holds, at most o->dir_depth;
 * a PATH at or below the depth --dirs kept is a usage error that says
 * so. 0, or -1 with err. */
static int
levels_of(sqlite3 *db, const struct opts *o, const struct snap *s,
    const struct du_path *p, int *levels, int *kept, char *err,
    size_t errlen)
{
	int rc = query_census_dir_scope(db, s->id, kept, err, errlen);

	if (rc < 0)
		return -1;
	if (rc == 0)
		*kept = -1;	/* before schema 3: the rows themselves say */
	*levels = o->dir_depth;
	if (*kept < 0)
		return 0;
	if (p->n >= (size_t)*kept) {
		snprintf(err, errlen, FMT_USAGE "%s: snapshot %lld recorded"
		    " directory totals down to depth %d below its root %s"
		    " (fsscan --dirs %d), and this directory is at depth %zu:"
		    " nothing below it was recorded", o->path ? o->path : ".",
		    (long long)s->id, *kept, s->root, *kept, p->n);
		return -1;
	}
	if (*levels > *kept - (int)p->n)
		*levels = *kept - (int)p->n;
	return 0;
}

/* The rows of snapshot s below PATH: 1, 0 PATH has no row, -1 err. */
static int
load(sqlite3 *db, const struct snap *s, const struct du_path *p, int levels,
    struct du_row **r, size_t *n, char *err, size_t errlen)
{
	int64_t id;
	int rc = query_census_dir_find(db, s->id, p->names, p->n, &id, err,
	    errlen);

	if (rc <= 0)
		return rc;
	return query_census_du_rows(db, s->id, id, (int)p->n, levels, r, n,
	    err, errlen) < 0 ? -1 : 1;
}

/* Previous rows by (parent's index, name). */
static int
prev_cmp(const void *pa, const void *pb, void *arg)
{
	const struct du_row *r = arg;
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;

	if (r[a].up != r[b].up)
		return r[a].up < r[b].up ? -1 : 1;
	return strcmp(r[a].name, r[b].name);
}

/*
 * Each row's row in the previous snapshot: the tops match, and a row
 * below matches the previous row under its parent's match with its name.
 * Rows come parents first, so a parent is matched before its children;
 * the previous rows are sorted by (parent, name) once and searched.
 */
static void
match(struct du_tree *t)
{
	size_t *ord = xcalloc(t->nprev + 1, sizeof *ord);

	t->prev_of = xcalloc(t->n + 1, sizeof *t->prev_of);
	for (size_t i = 0; i < t->nprev; i++)
		ord[i] = i;
	if (t->nprev > 1)
		qsort_r(ord + 1, t->nprev - 1, sizeof *ord, prev_cmp, t->prev);
	for (size_t i = 0; i < t->n; i++) {
		size_t lo = 1, hi = t->nprev, up;

		t->prev_of[i] = SIZE_MAX;
		if (t->nprev == 0)
			continue;
		if (i == 0) {
			t->prev_of[0] = 0;
			continue;
		}
		if ((up = t->prev_of[t->r[i].up]) == SIZE_MAX)
			continue;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			const struct du_row *m = &t->prev[ord[mid]];
			int c = m->up != up ? (m->up < up ? -1 : 1) :
			    strcmp(m->name, t->r[i].name);

			if (c == 0) {
				t->prev_of[i] = ord[mid];
				break;
			}
			if (c < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
	}
	free(ord);
}

/* Row i's path below ROOT: PATH's names, then the names down from the
 * top ("." for ROOT itself, as v_dir names it). */
static char *
join_path(const struct du_tree *t, const struct du_path *p, size_t i)
{
	size_t len = 2, k = 0, depth = (size_t)t->r[i].level;
	const char **part = xcalloc(p->n + depth + 1, sizeof *part);
	char *s, *at;

	for (size_t j = i; j != 0; j = t->r[j].up)
		part[p->n + depth - 1 - k++] = t->r[j].name;
	for (size_t j = 0; j < p->n; j++)
		part[j] = p->names[j];
	for (size_t j = 0; j < p->n + depth; j++)
		len += strlen(part[j]) + 1;
	at = s = xmalloc(len);
	for (size_t j = 0; j < p->n + depth; j++) {
		size_t l = strlen(part[j]);

		if (j)
			*at++ = '/';
		memcpy(at, part[j], l);
		at += l;
	}
	*at = '\0';
	if (at == s)
		strcpy(s, ".");
	free(part);
	return s;
}

/* Rows by bytes descending (qsort_r's arg: the tree); then by path where
 * both are joined, else by id, only to be stable. */
static int
row_cmp(const void *pa, const void *pb, void *arg)
{
	const struct du_tree *t = arg;
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;

	if (t->r[a].bytes != t->r[b].bytes)
		return t->r[a].bytes > t->r[b].bytes ? -1 : 1;
	if (t->path[a] && t->path[b])
		return strcmp(t->path[a], t->path[b]);
	return t->r[a].id < t->r[b].id ? -1 : t->r[a].id > t->r[b].id;
}

/*
 * The rows below the top in du's order, the first keep of them (0:
 * all) into ord[]; returns how many. Sorted by bytes first, then only
 * the rows that can be printed (the first keep, and those as large as
 * the last of them) get their paths, which order the ties.
 */
static size_t
order(struct du_tree *t, const struct du_path *p, size_t keep, size_t *ord)
{
	size_t m = t->n - 1, e;

	for (size_t i = 0; i < m; i++)
		ord[i] = i + 1;
	qsort_r(ord, m, sizeof *ord, row_cmp, t);
	if (keep == 0 || keep > m)
		keep = m;
	for (e = keep; e < m && keep &&
	    t->r[ord[e]].bytes == t->r[ord[keep - 1]].bytes; e++)
		;
	for (size_t i = 0; i < e; i++)
		t->path[ord[i]] = join_path(t, p, ord[i]);
	qsort_r(ord, e, sizeof *ord, row_cmp, t);
	return keep;
}

static void
put_row(struct rtable *tb, const struct du_tree *t, size_t i)
{
	const struct du_row *d = &t->r[i];
	size_t row = result_row(tb);

	result_set_text(tb, row, D_PATH, t->path[i]);
	result_set_int(tb, row, D_FILES, d->files);
	result_set_wide(tb, row, D_BYTES, d->bytes);
	result_set_wide(tb, row, D_ALLOC, d->alloc);
	if (t->prev_of[i] != SIZE_MAX) {
		const struct du_row *q = &t->prev[t->prev_of[i]];

		result_set_wide(tb, row, D_DF, (i128)d->files - q->files);
		result_set_wide(tb, row, D_DB, d->bytes - q->bytes);
	}
	space_snapout_nint(tb, row, D_COLD, d->cold);
}

/* What the table rests on: the snapshots, the top's totals, the depth
 * and the cold bytes' threshold. */
static int
notes(struct result *r, sqlite3 *db, const struct snap *cur,
    const struct snap *prev, const struct du_tree *t, const char *top,
    int levels, int want, int kept, char *err, size_t errlen)
{
	char d0[32], d1[32], f[32], b[64];
	int64_t days;
	int rc;

	result_note(r, "%s: snapshot #%lld of %s, root %s.", cur->fs,
	    (long long)cur->id, human_date(cur->started_at, 0, d0, sizeof d0),
	    cur->root);
	if (!cur->complete)
		result_note(r, "WARNING: snapshot %lld is not complete (%s):"
		    " its totals are partial.", (long long)cur->id, cur->status);
	if (!prev->id)
		result_note(r, "No complete snapshot of %s before it: changes"
		    " are -.", cur->fs);
	else
		result_note(r, "Changes since snapshot #%lld of %s; - where"
		    " it recorded no such directory.", (long long)prev->id,
		    human_date(prev->started_at, 0, d1, sizeof d1));
	result_note(r, "%s: %s files, %s bytes in its subtree.", top,
	    human_int(t->r[0].files, f, sizeof f), human_wide(t->r[0].bytes, b,
	    sizeof b));
	if (levels < want)
		result_note(r, "The snapshot recorded directories down to"
		    " depth %d below its root (fsscan --dirs %d): the rows"
		    " stop %d level%s below %s.", kept, kept, levels,
		    levels == 1 ? "" : "s", top);
	if ((rc = query_census_cold_longest(db, cur->id, &days, err,
	    errlen)) < 0)
		return -1;
	if (rc == 0 || !t->r[0].cold.has)
		result_note(r, "Cold bytes are -: the snapshot recorded none"
		    " per directory (fsscan --cold, schema 12).");
	else
		result_note(r, "Cold bytes: those of files not read in %lld"
		    " days (atime), the longest threshold of fsscan --cold;"
		    " a hard-linked file once, under its owning link.",
		    (long long)days);
	return 0;
}

static int
fill(struct result *r, struct rtable *tb, sqlite3 *db, const struct opts *o,
    const struct snap *cur, const struct snap *prev, char *err,
    size_t errlen)
{
	struct du_tree t = { 0 };
	struct du_path p;
	size_t *ord = NULL, shown;
	int levels, kept, rc;

	if (split_path(o->path, cur->root, &p, err, errlen) < 0)
		return -1;
	if ((rc = levels_of(db, o, cur, &p, &levels, &kept, err, errlen)) < 0 ||
	    (rc = load(db, cur, &p, levels, &t.r, &t.n, err, errlen)) < 0)
		goto out;
	if (rc == 0) {
		snprintf(err, errlen, FMT_USAGE "%s: no such directory in"
		    " snapshot %lld (root %s)", o->path, (long long)cur->id,
		    cur->root);
		rc = -1;
		goto out;
	}
	if (prev->id && (rc = load(db, prev, &p, levels, &t.prev, &t.nprev,
	    err, errlen)) < 0)
		goto out;
	match(&t);
	t.path = xcalloc(t.n, sizeof *t.path);
	ord = xcalloc(t.n, sizeof *ord);
	shown = order(&t, &p, o->top, ord);
	for (size_t i = 0; i < shown; i++)
		put_row(tb, &t, ord[i]);
	tb->more += t.n - 1 - shown;
	t.path[0] = join_path(&t, &p, 0);
	rc = notes(r, db, cur, prev, &t, t.path[0], levels, o->dir_depth,
	    kept, err, errlen);
out:
	for (size_t i = 0; t.path && i < t.n; i++)
		free(t.path[i]);
	free(t.path);
	free(ord);
	free(t.prev_of);
	query_census_du_free(t.r, t.n);
	query_census_du_free(t.prev, t.nprev);
	du_path_free(&p);
	return rc < 0 ? -1 : 0;
}

struct result *
space_du(sqlite3 *db, const struct opts *o, char *err, size_t errlen)
{
	struct snap cur = { 0 }, prev = { 0 };
	struct result *r;
	struct rtable *tb;
	int rc;

	assert(db != NULL && o != NULL && o->dir_depth >= 1);
	if ((rc = pick(db, o, &cur, &prev, err, errlen)) < 0)
		return NULL;
	r = result_new("du", "Directories by bytes");
	tb = result_table(r, "du", "Subtree totals", cols, D_NCOL);
	result_list(tb, 0);
	for (int c = D_DF; c <= D_COLD; c++)
		tb->col[c].dash = 1;
	if (rc == 0)
		result_note(r, "No complete snapshots %s.", o->fs ? "of this"
		    " file system" : "in the database");
	else if (fill(r, tb, db, o, &cur, &prev, err, errlen) < 0) {
		result_free(r);
		r = NULL;
	}
	query_census_snap_clear(&cur);
	query_census_snap_clear(&prev);
	return r;
}
