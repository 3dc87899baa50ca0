/*
 * topology: see topology.h.
 *
 * Reasons name the mount and the path from its device down to the node:
 * "holds / via dm-0 -> md0 -> sda2" on sda. Nodes found on the way back up
 * name the local node they hang from: "partition of local sdb", "stacked on
 * local md0". The first reason given to a node is kept; the down walks of
 * every mount and swap run before any up walk, so a node that holds a file
 * system itself says so even if it also shares a disk with another.
 *
 * Device numbers of major 0 (btrfs, overlay, NFS) say nothing: the mount's
 * source is mapped by name (/dev/sda2, /dev/mapper/NAME via dm/name), and
 * only on the real /sys by stat() of the source. A btrfs file system adds
 * every member listed in SYS/fs/btrfs/UUID/devices/. A swap file counts as
 * the device of the mount that contains it (longest mount point prefix,
 * the later entry winning). overlay and network sources hold no local disk.
 */
#include "mounts.h"
#include "topology.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "xalloc.h"

#define MAX_DEPTH 16		/* deeper stacks mean a cycle in a broken tree */

static const char *const os_mounts[] = {
	"/", "/boot", "/boot/efi", "/usr", "/var"
};

struct closure {
	struct sysblk *g;
	const struct ds_table *t;
	int *leaves;		/* leaf disks reached by the down walks */
	size_t nleaves, cap;
};

static void
mark(struct sysblk *g, int i, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void
mark(struct sysblk *g, int i, const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	if (g->n[i].local)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	g->n[i].local = xstrdup(buf);
}

static void
add_leaf(struct closure *c, int i)
{
	size_t k;

	for (k = 0; k < c->nleaves; k++)
		if (c->leaves[k] == i)
			return;
	c->leaves = xgrow(c->leaves, c->nleaves, &c->cap, sizeof *c->leaves, 8);
	c->leaves[c->nleaves++] = i;
}

/* From node i down to the disks it is made of; chain is the path so far. */
static void
down(struct closure *c, int i, const char *label, const char *chain,
    int depth)
{
	struct sysblk *g = c->g;
	char next[256];
	char **sl;
	size_t n, k;

	if (i < 0 || !g->n[i].dir || g->n[i].local || depth > MAX_DEPTH)
		return;
	if (*chain)
		mark(g, i, "holds %s via %s", label, chain);
	else
		mark(g, i, "holds %s", label);
	snprintf(next, sizeof next, "%s%s%s", chain, *chain ? " -> " : "",
	    g->n[i].name);
	sl = sysblk_list(g, i, "slaves", &n);
	for (k = 0; k < n; k++)
		down(c, sysblk_get(g, sl[k]), label, next, depth + 1);
	sysblk_list_free(sl, n);
	if (n == 0 && g->n[i].partition)
		down(c, sysblk_whole(g, i), label, next, depth + 1);
	else if (n == 0)
		add_leaf(c, i);
}

/* From node i up to everything built on it: holders and partitions. */
static void
up(struct closure *c, int i, int depth)
{
	struct sysblk *g = c->g;
	char **v;
	size_t n, k;

	if (!sysblk_visit(g, i) || depth > MAX_DEPTH)
		return;
	v = sysblk_list(g, i, "holders", &n);
	for (k = 0; k < n; k++) {
		int h = sysblk_get(g, v[k]);

		if (h < 0 || !g->n[h].dir)
			continue;
		mark(g, h, "stacked on local %s", g->n[i].name);
		up(c, h, depth + 1);
	}
	sysblk_list_free(v, n);
	if (g->n[i].partition)
		return;
	v = sysblk_partitions(g, i, &n);
	for (k = 0; k < n; k++) {
		int p = sysblk_get(g, v[k]);

		if (p < 0 || !g->n[p].dir)
			continue;
		mark(g, p, "partition of local %s", g->n[i].name);
		up(c, p, depth + 1);
	}
	sysblk_list_free(v, n);
}

/* A /dev path to a node, by name where possible (works on fixtures). */
static int
from_source(struct sysblk *g, const char *src)
{
	struct stat st;
	int i;

	if (!src || strncmp(src, "/dev/", 5) != 0)
		return -1;
	if (strncmp(src, "/dev/mapper/", 12) == 0)
		i = sysblk_by_dm_name(g, src + 12);
	else
		i = sysblk_get_name(g, src + 5);
	if (i >= 0 && g->n[i].dir)
		return i;
	if (g->real_dev && stat(src, &st) == 0 && S_ISBLK(st.st_mode))
		return sysblk_by_devno(g, major(st.st_rdev), minor(st.st_rdev));
	return -1;
}

static int
from_devno(struct closure *c, dev_t dev)
{
	unsigned ma = major(dev), mi = minor(dev);
	size_t k;
	int i;

	if (ma == 0)
		return -1;
	if ((i = sysblk_by_devno(c->g, ma, mi)) >= 0)
		return i;
	for (k = 0; k < c->t->n; k++)
		if (c->t->dev[k].major == ma && c->t->dev[k].minor == mi)
			return sysblk_get_name(c->g, c->t->dev[k].name);
	return -1;
}

/* The members of the btrfs file system that has node i among its devices. */
static void
btrfs_members(struct closure *c, int i, const char *label)
{
	char path[PATH_MAX];
	struct dirent *e;
	DIR *d;

	snprintf(path, sizeof path, "%s/fs/btrfs", c->g->sys);
	if ((d = opendir(path)) == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		char dev[PATH_MAX];
		DIR *m;
		struct dirent *me;

		if (e->d_name[0] == '.')
			continue;
		if (snprintf(dev, sizeof dev, "%s/%s/devices/%s", path,
		    e->d_name, c->g->n[i].kname) >= (int)sizeof dev ||
		    access(dev, F_OK) < 0)
			continue;
		*strrchr(dev, '/') = 0;
		if ((m = opendir(dev)) == NULL)
			continue;
		while ((me = readdir(m)) != NULL)
			if (me->d_name[0] != '.')
				down(c, sysblk_get(c->g, me->d_name), label, "", 0);
		closedir(m);
	}
	closedir(d);
}

/* The node holding the file system of mount m, then its closure downwards. */
static void
walk_fs(struct closure *c, const struct mount_ent *m, const char *label)
{
	int i = from_devno(c, makedev(m->major, m->minor));

	if (i < 0)
		i = from_source(c->g, m->source);
	if (i < 0)
		return;
	down(c, i, label, "", 0);
	if (strcmp(m->fstype, "btrfs") == 0)
		btrfs_members(c, i, label);
}

static int
walk_swaps(struct closure *c, const struct mount_tab *mounts,
    const char *path, char *err, size_t errlen)
{
	struct mount_tab sw;

	if (mounts_swaps_read(path, &sw) < 0) {
		if (errno == ENOENT)
			return 0;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	for (size_t k = 0; k < sw.n; k++) {
		const struct mount_ent *home, *s = &sw.v[k];
		char label[PATH_MAX + 16];
		int i;

		if (strcmp(s->fstype, "file") != 0) {
			if ((i = from_source(c->g, s->source)) >= 0)
				down(c, i, "swap", "", 0);
			continue;
		}
		snprintf(label, sizeof label, "swap file %s", s->source);
		if ((home = mounts_containing(mounts, s->source)) != NULL)
			walk_fs(c, home, label);
	}
	mounts_tab_free(&sw);
	return 0;
}

int
topology_local(struct sysblk *g, const char *proc, const struct ds_table *t,
    char *err, size_t errlen)
{
	struct closure c = { .g = g, .t = t };
	struct mount_tab tb;
	char path[PATH_MAX];
	size_t k;
	int rc;

	snprintf(path, sizeof path, "%s/self/mountinfo", proc);
	if (mounts_read(path, &tb) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	for (k = 0; k < sizeof os_mounts / sizeof os_mounts[0]; k++) {
		const struct mount_ent *m = mounts_find_target(&tb, os_mounts[k]);

		if (m)
			walk_fs(&c, m, os_mounts[k]);
	}
	snprintf(path, sizeof path, "%s/swaps", proc);
	rc = walk_swaps(&c, &tb, path, err, errlen);
	mounts_tab_free(&tb);
	if (rc == 0) {
		size_t nmarked = g->nn;

		sysblk_new_walk(g);
		for (k = 0; k < c.nleaves; k++)
			up(&c, c.leaves[k], 0);
		for (k = 0; k < nmarked; k++)
			if (g->n[k].local)
				up(&c, (int)k, 0);
	}
	free(c.leaves);
	return rc;
}
