/*
 * dsread: PROC/diskstats, kept open and read with one pread at offset 0
 * per sample into a buffer that grows when a read fills it. procfs makes
 * a fresh snapshot at each read from offset 0. A regular file (a test
 * fixture or a copy under --proc) is reopened at each read instead, so an
 * atomic rename of a new version is seen.
 */
#ifndef IOSTATMON_DSREAD_H
#define IOSTATMON_DSREAD_H

#include <limits.h>
#include <stddef.h>
#include <sys/types.h>

#include "diskstats.h"

struct dsread {
	int fd;
	int reopen;		/* not procfs: reopen per read */
	char path[PATH_MAX];
	char *buf;
	size_t cap;
};

/* 0, or -1 with a message (file, reason, errno text) in err. */
int dsread_open(struct dsread *r, const char *proc, char *err, size_t len);
void dsread_close(struct dsread *r);

/* Read the whole file into r->buf. Returns its length, or -1 with a
 * message in err. */
ssize_t dsread_read(struct dsread *r, char *err, size_t len);

/* Read and parse the whole file into t (malformed lines counted in t->bad
 * and skipped). 0, or -1 with a message in err: it cannot be read, or no
 * line of it is a diskstats line (an empty file, or another file), which
 * leaves nothing to sample. */
int dsread_table(struct dsread *r, struct ds_table *t, char *err, size_t len);

/* PROC/sys/kernel/random/boot_id without its newline, "" when unreadable
 * (with the reason in err). */
void dsread_boot_id(const char *proc, char *buf, size_t len, char *err,
    size_t errlen);

#endif
