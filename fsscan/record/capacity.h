/*
 * capacity: what statvfs says of the file system a scan walks, exact.
 */
#ifndef FSSCAN_CAPACITY_H
#define FSSCAN_CAPACITY_H

#include "i128.h"

/* statvfs(ROOT) at the scan, in bytes and inodes: f_blocks, f_bfree and
 * f_bavail times f_frsize, f_files, f_ffree; exact (64-bit counts times
 * the fragment size need up to 128 bits). */
struct fs_capacity {
	i128 bytes, free_bytes, avail_bytes, inodes, free_inodes;
};

/* 0, or -1 when statvfs fails (or names a fragment size so large that the
 * products pass 2^127). */
int capacity_read(const char *root, struct fs_capacity *cap);
/* Whether a capacity can be recorded: a server that reports more free
 * than in all (it happens on confused network file systems) gives shares
 * that mean nothing, so the snapshot records its capacity as unknown; so
 * does one beyond what the census holds (DB_CAPACITY_MAX, 2^120 bytes). */
int capacity_sane(const struct fs_capacity *cap);

#endif
