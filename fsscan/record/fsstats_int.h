/*
 * fsstats_int: write a census as the CSV of fsstats 1.4.5, so that tools and
 * archives built around that format read fsscan's output unchanged.
 * docs/fsstats-compat.md lists where the numbers differ from the Perl
 * script (hardlink key, reference time) and what fsscan adds.
 */
#ifndef FSSCAN_FSSTATS_INT_H
#define FSSCAN_FSSTATS_INT_H

#include <stdint.h>
#include <stdio.h>

#include "walk/walk.h"

struct fsstats_info {
	int have_statvfs;		/* print "Filesystem total/used" lines */
	i128 fs_total_bytes;		/* statvfs f_blocks * f_frsize */
	i128 fs_used_bytes;		/* total - f_bavail * f_frsize: negative
					   when a confused server says more is
					   available than there is */
	int complete;			/* 1 if the scan finished */
	uint64_t errors;		/* entries that could not be read */
	int symlink_targets;		/* readlink was done (--symlink-targets) */
};

/* Write the CSV for c; returns 0, or -1 with errno set on a write error. */
int fsstats_write(FILE *f, const struct census *c, const struct fsstats_info *x);

#endif
