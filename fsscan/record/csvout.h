/*
 * csvout: the fsstats CSV of a scan. Its temporary file is made when the
 * scan starts, before any database row exists, and renamed into place
 * only after the snapshot has committed: a run that cannot write its CSV
 * records nothing as complete. It is written as every output file is
 * (lib/outfile): never through a link nor over the database, and no more
 * readable than the database.
 */
#ifndef FSSCAN_CSVOUT_H
#define FSSCAN_CSVOUT_H

#include <sqlite3.h>
#include <stdio.h>

#include "capacity.h"
#include "walk/walk.h"
#include "outfile.h"

struct csv_out {
	const char *prog;		/* names the program in messages */
	struct outfile f;
	int open;
};

/* Each returns 0, or -1 with a message on stderr. db is the database
 * the scan writes, at db_path. */
int csvout_open(struct csv_out *c, const char *prog, const char *path,
    sqlite3 *db, const char *db_path);
/* cap: statvfs at the scan, NULL when unknown (no Filesystem lines). */
int csvout_write(struct csv_out *c, const struct census *cs, int interrupted,
    const struct fs_capacity *cap, int links);
int csvout_commit(struct csv_out *c);
/* Close and remove the temporary file, if any. */
void csvout_discard(struct csv_out *c);

#endif
