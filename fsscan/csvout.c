/*
 * csvout: the fsstats CSV file of a scan. See csvout.h.
 */
#include "csvout.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fsstats.h"

int
csvout_open(struct csv_out *c, const char *prog, const char *path)
{
	c->prog = prog;
	c->path = path;
	if (snprintf(c->tmp, sizeof c->tmp, "%s.tmp", path) >=
	    (int)sizeof c->tmp) {
		fprintf(stderr, "%s: %s: name too long\n", prog, path);
		return -1;
	}
	if (!(c->f = fopen(c->tmp, "w"))) {
		fprintf(stderr, "%s: %s: %s\n", prog, c->tmp, strerror(errno));
		return -1;
	}
	return 0;
}

void
csvout_discard(struct csv_out *c)
{
	if (c->f)
		fclose(c->f);
	if (c->path)
		unlink(c->tmp);
	c->f = NULL;
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
	int rc;

	if (cap) {
		info.have_statvfs = 1;
		info.fs_total_bytes = cap->bytes;
		info.fs_used_bytes = cap->bytes - cap->avail_bytes;
	}
	rc = fsstats_write(c->f, cs, &info);
	if (rc == 0 && fsync(fileno(c->f)) != 0)
		rc = -1;
	if (fclose(c->f) != 0)
		rc = -1;
	c->f = NULL;
	if (rc < 0)
		fprintf(stderr, "%s: %s: %s\n", c->prog, c->tmp,
		    strerror(errno));
	return rc;
}

int
csvout_commit(struct csv_out *c)
{
	if (rename(c->tmp, c->path) == 0)
		return 0;
	fprintf(stderr, "%s: %s: %s\n", c->prog, c->path, strerror(errno));
	return -1;
}
