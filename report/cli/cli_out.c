/*
 * cli_out: the files iocensus writes (--out, --bundle). Each is replaced
 * all at once, never written through a link nor over the database
 * (lib/outfile), and a file that carries what the database holds (names
 * of projects, users, directories and files) is no more readable than
 * the database itself: the census of a private directory stays as
 * private as the database that holds it. A file made for every user to
 * read (metrics, report --no-paths) shows a private project name as its
 * label instead (cli_out_hide).
 */
#include <errno.h>
#include <string.h>

#include "cli_int.h"
#include "db.h"
#include "query/query.h"
#include "result/result.h"
#include "xalloc.h"

/* A cell of one of these columns names what the administrator named
 * (--fs, a host, a device), never a project read from a directory. */
static int
admin_named(const char *col)
{
	static const char *const cols[] = { "fs", "host", "device" };

	for (size_t i = 0; i < sizeof cols / sizeof *cols; i++)
		if (strcmp(col, cols[i]) == 0)
			return 1;
	return 0;
}

static char *
hide(void *ctx, const char *s, const char *col)
{
	const struct query_private *p = ctx;
	char buf[QUERY_LABEL_LEN];

	if (!col)
		return query_private_text(p, s);
	if (admin_named(col))
		return NULL;
	return query_private_label(p, s, buf) ? xstrdup(buf) : NULL;
}

int
cli_out_hide(sqlite3 *db, struct result **r, size_t n, char *err,
    size_t errlen)
{
	struct query_private p;

	if (query_private_load(db, &p, err, errlen) < 0)
		return -1;
	if (p.names.n > 0)
		for (size_t i = 0; i < n; i++)
			result_relabel(r[i], hide, &p);
	query_private_free(&p);
	return 0;
}

void
cli_out_opts(sqlite3 *db, const char *db_path, int names,
    struct outfile_opts *o, struct stat *st)
{
	o->keep = db_path;
	o->like = NULL;
	if (names && db_stat(db, st) == 0)
		o->like = st;
	else if (names) {
		/* The database's mode unknown: owner only. */
		memset(st, 0, sizeof *st);
		st->st_mode = S_IFREG | 0600;
		st->st_gid = (gid_t)-1;
		o->like = st;
	}
}

int
cli_out_write(const struct outfile_opts *o, const char *path,
    const void *data, size_t len, char *err, size_t errlen)
{
	struct outfile f;

	if (outfile_open(&f, path, o, err, errlen) < 0 ||
	    outfile_write(&f, data, len, err, errlen) < 0)
		return -1;
	return outfile_commit(&f, err, errlen);
}
