/*
 * csvout: the fsstats CSV file of a scan. See csvout.h.
 */
#include "csvout.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/statvfs.h>
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

int
csvout_write(struct csv_out *c, const struct census *cs, int interrupted,
    const char *root, int links)
{
	struct fsstats_info info = { .complete = !interrupted,
	    .errors = cs->nerrors, .symlink_targets = links };
	struct statvfs sv;
	int rc;

	if (statvfs(root, &sv) == 0) {
		info.have_statvfs = 1;
		/* 64-bit counts times the fragment size: exact in 128 bits,
		 * and a free count above the total (a confused server) shows
		 * as negative use rather than as a wrapped one. */
		info.fs_total_bytes = (i128)sv.f_blocks * sv.f_frsize;
		info.fs_used_bytes = ((i128)sv.f_blocks - sv.f_bfree) *
		    sv.f_frsize;
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
