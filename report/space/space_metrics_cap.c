/*
 * space_metrics_cap: the dates of `iocensus capacity` as gauges. The
 * capacity analysis runs as the command runs it without options (every
 * snapshot, every file system), and its tables' date cells become
 * samples as they are: the metrics are the dates capacity prints, and
 * none where it prints none (already full or over the limit, not
 * growing, too few points, no limit, beyond 100 years). Nothing of the
 * model is computed here.
 */
#include <string.h>

#include "space.h"
#include "space_metrics_int.h"

static const char *const bound[] = { "estimate", "earliest", "latest" };
#define NBOUND (sizeof bound / sizeof *bound)

/* The text of the row's cell in column key (NULL where it is none). */
static const char *
text_of(const struct rtable *t, size_t row, const char *key)
{
	const struct cell *c = result_cell_at(t, row, key);

	return c->kind == CK_TEXT ? c->v.s : NULL;
}

/* Has the row a value in column key? */
static int
has(const struct rtable *t, size_t row, const char *key)
{
	return result_cell_at(t, row, key)->kind != CK_NULL;
}

/* The estimate and the 95% range of one projection: capacity's columns
 * col[0..NBOUND), the labels before resource and bound in l. */
static void
dates(struct result *r, int m, const struct rtable *t, size_t row,
    const char *const *col, const char **l, size_t nl)
{
	for (size_t b = 0; b < NBOUND; b++) {
		const struct cell *c = result_cell_at(t, row, col[b]);

		if (c->kind != CK_INT)
			continue;
		l[nl] = bound[b];
		space_metrics_put(r, m, l, c->v.i);
	}
}

/* The name fs among s[0 .. n - 1] when it carries its device's
 * capacity, else NULL. */
static const struct snap *
owner(const struct snap *s, const int *own, size_t n, const char *fs)
{
	for (size_t i = 0; fs && i < n; i++)
		if (own[i] && !strcmp(s[i].fs, fs))
			return &s[i];
	return NULL;
}

static void
filesystems(struct result *r, const struct rtable *t, const struct snap *s,
    const int *own, size_t n)
{
	static const char *const space[] = { "full", "full_lo", "full_hi" };
	static const char *const inodes[] = { "inodes_full",
	    "inodes_full_lo", "inodes_full_hi" };

	for (size_t row = 0; row < t->nrow; row++) {
		const struct snap *o = owner(s, own, n, text_of(t, row, "fs"));
		const char *l[6];

		if (!o)
			continue;
		l[0] = o->fs, l[1] = o->mountpoint, l[2] = o->source;
		l[3] = o->fstype, l[4] = "space";
		dates(r, M_FULL, t, row, space, l, 5);
		l[4] = "inodes";
		dates(r, M_FULL, t, row, inodes, l, 5);
	}
}

/* The projects of file system fs that keep their series, or NULL. */
static const struct mkeep *
keep_of(const struct snap *s, const struct mkeep *keep, size_t n,
    const char *fs)
{
	for (size_t i = 0; fs && i < n; i++)
		if (s[i].id && !strcmp(s[i].fs, fs))
			return &keep[i];
	return NULL;
}

/* A project's projection is towards its byte limit when it has one, else
 * towards its inode limit (space_capacity_proj.c): its row says which. */
static void
projects(struct result *r, const struct rtable *t, const struct snap *s,
    const struct mkeep *keep, size_t n)
{
	static const char *const col[] = { "full", "full_lo", "full_hi" };

	for (size_t row = 0; row < t->nrow; row++) {
		const char *l[4] = { text_of(t, row, "fs"),
		    text_of(t, row, "project"), "space" };
		const struct mkeep *k = keep_of(s, keep, n, l[0]);

		if (!k || !l[1] || !space_metrics_kept(k, l[1]))
			continue;
		if (!has(t, row, "limit_bytes")) {
			if (!has(t, row, "limit_inodes"))
				continue;
			l[2] = "inodes";
		}
		dates(r, M_PLIMIT_T, t, row, col, l, 3);
	}
}

int
space_metrics_cap(sqlite3 *db, struct result *r, const struct snap *s,
    const int *own, const struct mkeep *keep, size_t n, char *err,
    size_t errlen)
{
	struct result *c;
	struct opts o;

	opts_init(&o);
	if (!(c = space_capacity(db, &o, err, errlen)))
		return -1;
	filesystems(r, &c->table[result_table_index(c, "filesystems")], s,
	    own, n);
	projects(r, &c->table[result_table_index(c, "projects")], s, keep,
	    n);
	result_free(c);
	return 0;
}
