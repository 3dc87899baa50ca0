/*
 * mounts: /proc/self/mountinfo and /proc/swaps, as the topology needs them.
 *
 * The daemon reads these once per device decision. It parses them itself
 * rather than through libmount because libmount pulls libselinux and
 * libpcre2 into every storage server's resident memory (~450 kB, a tenth
 * of the daemon's budget) for two simple, documented formats
 * (proc(5): mountinfo fields, octal escapes \040 \011 \012 \134).
 * fsscan, which runs briefly, keeps using libmount (lib/fsident.c).
 */
#ifndef IOSTATMON_MOUNTS_H
#define IOSTATMON_MOUNTS_H

#include <stddef.h>

struct mount_ent {
	unsigned major, minor;	/* mountinfo field 3; 0:0 for swaps */
	char *target;		/* mount point, unescaped; NULL for swaps */
	char *fstype;		/* file-system type; swaps: "partition", "file" */
	char *source;		/* mount source or swap file name, unescaped */
};

struct mount_tab {
	struct mount_ent *v;	/* in file order: later mounts cover earlier */
	size_t n;
};

/* 0, or -1 with errno set when the file cannot be read; lines that do
 * not parse are skipped. */
int mounts_read(const char *path, struct mount_tab *t);
int mounts_swaps_read(const char *path, struct mount_tab *t);
void mounts_tab_free(struct mount_tab *t);

/* The last entry whose mount point is exactly target, or NULL. */
const struct mount_ent *mounts_find_target(const struct mount_tab *t,
    const char *target);
/* The mount holding path: the longest mount point that is a prefix of it
 * on a component boundary, the later one on ties. NULL if none. */
const struct mount_ent *mounts_containing(const struct mount_tab *t,
    const char *path);

#endif
