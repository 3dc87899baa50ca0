/*
 * space_devices_int: which file-system names share a device
 * (space_devices.c). fsscan records the file system that holds ROOT
 * (v_snapshot.fs_device): two names scanned on one device (/lustre/proj
 * and /lustre/scratch as --fs proj and --fs scratch) measure one
 * capacity, which a total must count once, and whose used space is the
 * device's, not the sum of its names'.
 */
#ifndef IOCENSUS_SPACE_DEVICES_INT_H
#define IOCENSUS_SPACE_DEVICES_INT_H

#include <stddef.h>
#include <stdint.h>

#include "query/query.h"

/* One device and the names on it (one name: a device of its own, or a
 * name whose device is not known). */
struct dev_group {
	const char *device;		/* fs_device; NULL unknown */
	const char **names;		/* in the order of the names given */
	size_t n;
	char *label;			/* the names joined: "home + proj" */
	const struct snap *latest;	/* the latest of its names' points */
};

struct devices {
	struct dev_group *g;
	size_t n;
	size_t *of;			/* of[i]: the group of name i */
	struct snap *s;			/* the snapshots, each shared name's
					   under its group's label (read
					   with space_points_keep) */
	size_t ns;
};

/* Group names[0 .. nnames-1] by the fs_device of each one's latest
 * complete snapshot started in [from, to) among sorted s (a name
 * without one is a group of its own). d->s is a copy of s whose fields
 * point into s, so s must outlive d. */
void space_devices_find(const struct snap *s, size_t n, const char **names,
    size_t nnames, int64_t from, int64_t to, struct devices *d);
/* The group of name i when it shares its device, else NULL. */
const struct dev_group *space_devices_shared(const struct devices *d,
    size_t i);
/* "proj and scratch" into buf: the names of g. */
const char *space_devices_names(const struct dev_group *g, char *buf,
    size_t len);
void space_devices_free(struct devices *d);

#endif
