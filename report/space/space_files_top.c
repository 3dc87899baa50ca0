/*
 * space_files_top: the largest files and the fullest directories of a
 * snapshot, as fsscan kept them (--top), and the directories holding the
 * most bytes (subtree totals of v_dir, down to the depth fsscan kept). A
 * capacity planner's first question after "how much?" is "where?". Paths
 * are bytes as fsscan wrote them (under the root), escaped only by the
 * renderers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "space_files_int.h"
#include "xalloc.h"

#define TOP_DIRS 20

static const struct rcol_spec file_cols[] = {
	{ "rank", "Rank", NULL, CF_PLAIN, 0 },
	{ "bytes", "Size", "bytes", CF_BYTES, 0 },
	{ "path", "Path", NULL, CF_PLAIN, 0 },
};
static const struct rcol_spec dir_cols[] = {
	{ "rank", "Rank", NULL, CF_PLAIN, 0 },
	{ "entries", "Entries", NULL, CF_PLAIN, 0 },
	{ "path", "Path", NULL, CF_PLAIN, 0 },
};

static int
top_table(struct result *r, sqlite3 *db, const struct snap *s,
    const char *kind, char *err, size_t errlen)
{
	int dir = kind[0] == 'd';
	struct rtable *t = result_table(r, dir ? "largest_dirs" :
	    "largest_files", dir ? "Directories with the most entries" :
	    "Largest files", dir ? dir_cols : file_cols, 3);
	struct top_entry *e;
	size_t n;

	if (query_census_top(db, s->id, kind, &e, &n, err, errlen) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		size_t row = result_row(t);

		result_set_int(t, row, 0, (int64_t)i + 1);
		result_set_wide(t, row, 1, e[i].value);
		result_set_text(t, row, 2, e[i].path);
	}
	query_census_top_free(e, n);
	return 0;
}

static const struct rcol_spec byte_cols[] = {
	{ "rank", "Rank", NULL, CF_PLAIN, 0 },
	{ "bytes", "Bytes", "bytes", CF_BYTES, 2 },
	{ "alloc_bytes", "Allocated", "bytes", CF_BYTES, 2 },
	{ "files", "Files", "files", CF_PLAIN, 0 },
	{ "depth", "Depth", NULL, CF_PLAIN, 0 },
	{ "path", "Path", NULL, CF_PLAIN, 0 },
};

/* Subtree totals include the directories below: a directory and its
 * parent can both be listed. */
static int
bytes_table(struct result *r, sqlite3 *db, const struct snap *s, char *err,
    size_t errlen)
{
	struct rtable *t = result_table(r, "largest_dirs_bytes", "Directories"
	    " holding the most bytes (subtree totals)", byte_cols,
	    sizeof byte_cols / sizeof *byte_cols);
	struct dir_entry *d;
	size_t n;

	if (query_census_dirs_by_bytes(db, s->id, TOP_DIRS, &d, &n, err,
	    errlen) < 0) {
		query_census_dirs_free(d, 0);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		size_t row = result_row(t), len = strlen(s->root) +
		    strlen(d[i].path) + 2;
		char *path = xmalloc(len);

		snprintf(path, len, "%s/%s", s->root, d[i].path);
		result_set_int(t, row, 0, (int64_t)i + 1);
		result_set_wide(t, row, 1, d[i].bytes);
		result_set_wide(t, row, 2, d[i].alloc);
		result_set_int(t, row, 3, d[i].files);
		result_set_int(t, row, 4, d[i].depth);
		result_set_text(t, row, 5, path);
		free(path);
	}
	query_census_dirs_free(d, n);
	return 0;
}

int
space_files_top(struct result *r, sqlite3 *db, const struct snap *s, char *err,
    size_t errlen)
{
	if (top_table(r, db, s, "file", err, errlen) < 0 ||
	    top_table(r, db, s, "dir", err, errlen) < 0 ||
	    bytes_table(r, db, s, err, errlen) < 0)
		return -1;
	return 0;
}
