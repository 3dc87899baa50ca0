/*
 * csvout: the fsstats CSV file of a scan. See record.h.
 */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "db.h"
#include "fmt.h"
#include "fsstats_int.h"
#include "record.h"

int
csvout_open(struct csv_out *c, const char *prog, const char *path,
    sqlite3 *db, const char *db_path)
{
	struct stat st;
	struct outfile_opts o = { NULL, db_path };
	char err[1024];

	c->prog = prog;
	if (db_stat(db, &st) == 0)
		o.like = &st;
	if (outfile_open(&c->f, path, &o, err, sizeof err) < 0) {
		fmt_diag(stderr, prog, "--fsstats-csv %s", err);
		return -1;
	}
	c->open = 1;
	return 0;
}

void
csvout_discard(struct csv_out *c)
{
	if (c->open)
		outfile_abort(&c->f);
	c->open = 0;
}

/* fsstats prints "Filesystem used" as total - f_bavail * f_frsize (with
 * Filesys::Statvfs): the blocks reserved for root count as used. Exact,
 * and a server that says more is available than there is shows as
 * negative use rather than as a wrapped one. */
int
csvout_write(struct csv_out *c, const struct census *cs, int interrupted,
    const struct fs_capacity *cap, int links)
{
	struct fsstats_info info = { .complete = !interrupted,
	    .errors = cs->nerrors, .symlink_targets = links };
	char *text = NULL, err[1024];
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int rc;

	if (cap) {
		info.have_statvfs = 1;
		info.fs_total_bytes = cap->bytes;
		info.fs_used_bytes = cap->bytes - cap->avail_bytes;
	}
	if (!f) {
		fmt_diag(stderr, c->prog, "%s: %s", c->f.path,
		    strerror(errno));
		return -1;
	}
	rc = fsstats_write(f, cs, &info);
	if (fclose(f) != 0)
		rc = -1;
	if (rc == 0 && outfile_write(&c->f, text, len, err, sizeof err) < 0) {
		c->open = 0;	/* outfile_write removed it */
		fmt_diag(stderr, c->prog, "%s", err);
		rc = -1;
	} else if (rc < 0) {
		fmt_diag(stderr, c->prog, "%s: %s", c->f.path,
		    strerror(errno));
	}
	free(text);
	return rc;
}

int
csvout_commit(struct csv_out *c)
{
	char err[1024];

	/* R3: renamed over its target only once written whole, and only
	 * after the snapshot's commit (scan_record) */
	assert(c->open);
	c->open = 0;
	if (outfile_commit(&c->f, err, sizeof err) == 0)
		return 0;
	fmt_diag(stderr, c->prog, "%s", err);
	return -1;
}
