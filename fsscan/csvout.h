/*
 * csvout: the fsstats CSV is written to FILE.tmp, which is opened before any
 * database row exists and renamed into place only after the snapshot has
 * committed: a run that cannot write its CSV records nothing as complete.
 */
#ifndef FSSCAN_CSVOUT_H
#define FSSCAN_CSVOUT_H

#include <limits.h>
#include <stdio.h>

#include "capacity.h"
#include "census.h"

struct csv_out {
	const char *prog;		/* names the program in messages */
	const char *path;
	char tmp[PATH_MAX];
	FILE *f;
};

/* Each returns 0, or -1 with a message on stderr. */
int csvout_open(struct csv_out *c, const char *prog, const char *path);
/* cap: statvfs at the scan, NULL when unknown (no Filesystem lines). */
int csvout_write(struct csv_out *c, const struct census *cs, int interrupted,
    const struct fs_capacity *cap, int links);
int csvout_commit(struct csv_out *c);
/* Close and remove the temporary file, if any. */
void csvout_discard(struct csv_out *c);

#endif
