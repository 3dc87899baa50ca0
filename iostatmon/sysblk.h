/*
 * sysblk: the block-device graph of one sysfs tree, the real /sys or a test
 * fixture given with --sys. Nodes are loaded on first use by kernel name
 * (sysfs spells a '/' of the diskstats name as '!') and kept in one array:
 * refer to them by index, since loading a node may move the array.
 */
#ifndef IOSTATMON_SYSBLK_H
#define IOSTATMON_SYSBLK_H

#include <stddef.h>
#include <stdint.h>

#include "diskstats.h"

struct sysblk_node {
	char kname[DS_NAME_MAX];	/* "cciss!c0d0" */
	char name[DS_NAME_MAX];		/* "cciss/c0d0" */
	char *dir;		/* SYS/class/block/KNAME; NULL: no such node */
	char *real;		/* resolved path below SYS ("/devices/..."), or NULL */
	int partition;		/* has a "partition" attribute */
	int dm, md;		/* has a dm/ or md/ directory */
	int whole;		/* index of the whole disk; -2: not yet known */
	char *local;		/* why it belongs to the local/OS closure, or NULL */
	unsigned visit;		/* traversal generation (see sysblk_visit) */
};

struct sysblk {
	char *sys;		/* the root, as given */
	char *sysreal;		/* its realpath, to make node paths relative */
	int real_dev;		/* the real /sys: libblkid and /dev may be asked */
	struct sysblk_node *n;
	size_t nn, cap;
	unsigned gen;
};

/* Open a sysfs root: SYS/class/block or SYS/block must be readable.
 * real_dev says whether /dev and libblkid describe the same machine. */
int sysblk_open(struct sysblk *g, const char *sys, int real_dev, char *err,
    size_t errlen);
void sysblk_close(struct sysblk *g);

/* Index of the node of kernel name kname (loaded now if new; its dir is
 * NULL when sysfs has no such device), or -1 for a name too long. */
int sysblk_get(struct sysblk *g, const char *kname);
/* Same, from a diskstats name ("cciss/c0d0"). */
int sysblk_get_name(struct sysblk *g, const char *name);
/* The node of a device number, from SYS/dev/block/MAJ:MIN; -1: unknown. */
int sysblk_by_devno(struct sysblk *g, unsigned major, unsigned minor);
/* The dm device whose dm/name is dmname; -1: none. */
int sysblk_by_dm_name(struct sysblk *g, const char *dmname);
/* Whole disk of node i: i itself unless a partition; -1 when unknown. */
int sysblk_whole(struct sysblk *g, int i);

/* Attribute attr (a path below the node, "device/model") with surrounding
 * white space removed. Returns 0, or -1 when absent or empty. */
int sysblk_attr(const struct sysblk *g, int i, const char *attr, char *buf,
    size_t len);
/* A numeric attribute; -1 when absent or not a number. */
int sysblk_attr_u64(const struct sysblk *g, int i, const char *attr,
    uint64_t *v);

/* Entry names of directory sub of node i ("slaves", "holders", "" for the
 * node itself), sorted, so walks are deterministic. *n = 0 when absent. */
char **sysblk_list(const struct sysblk *g, int i, const char *sub, size_t *n);
void sysblk_list_free(char **v, size_t n);
/* The kernel names of the partitions of node i (subdirectories with a
 * "partition" attribute), sorted. */
char **sysblk_partitions(const struct sysblk *g, int i, size_t *n);

/* Start a traversal: afterwards sysblk_visit(g, i) is 1 the first time. */
void sysblk_new_walk(struct sysblk *g);
int sysblk_visit(struct sysblk *g, int i);

#endif
