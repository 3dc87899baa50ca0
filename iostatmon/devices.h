/*
 * devices: which block devices iostatmon samples, and why.
 *
 * Local/OS disks are excluded by topology, not by name: the devices behind
 * /, /boot, /boot/efi, /usr, /var and swap (from mountinfo and /proc/swaps)
 * are followed down through slaves/ (dm, md, LVM) to whole disks and back
 * up through holders/, and the whole closure is excluded. Also excluded:
 * loop, ram, zram, nbd, sr, fd, zero-size, removable and hidden devices
 * (NVMe multipath paths), partitions of sampled whole disks and stacks
 * over sampled disks, so that nothing is counted on two levels at once.
 * --include/--exclude globs and --all-devices override.
 * Every decision carries a reason that `iostatmon devices` prints, and
 * every stack (md, dm, multipath) a statement of the level sampled and
 * of what an aggregate then counts: the disks of a mirror carry each
 * write once per copy, those of a parity RAID the parity too.
 */
#ifndef IOSTATMON_DEVICES_H
#define IOSTATMON_DEVICES_H

#include <stddef.h>
#include <stdint.h>

#include "diskstats.h"
#include "iolog/iolog.h"

struct dev_opts {
	const char *proc;		/* root of /proc (default "/proc") */
	const char *sys;		/* root of /sys (default "/sys") */
	const char *const *include;	/* fnmatch globs on names */
	size_t ninclude;
	const char *const *exclude;
	size_t nexclude;
	int all_devices;		/* no local-disk filtering */
	int probe_blkid;		/* enrich with libblkid (needs /dev) */
};

struct dev_info {
	char name[DS_NAME_MAX];		/* diskstats name ("cciss/c0d0") */
	uint32_t major, minor;
	uint64_t diskseq;		/* 0 when the kernel has none */
	int monitored;
	char *reason;			/* "excluded: holds / via sda2"; owned */
	char *level;			/* a stacked device: which level is
					   sampled and what an aggregate then
					   counts (devices_level.c); owned;
					   NULL for any other */
	int is_partition;
	char whole[DS_NAME_MAX];	/* whole disk of a partition */
	size_t nattr;			/* identity: wwid, serial, model, ... */
	struct iolog_attr *attr;
};

struct dev_set {
	struct dev_info *d;		/* in /proc/diskstats order */
	size_t n;
};

/* Decide for every device of the current /proc/diskstats (t, already
 * parsed). Returns 0, or -1 with a message when sysfs/mountinfo cannot be
 * read at all; missing optional facts degrade to "unknown". */
int devices_decide(const struct dev_opts *o, const struct ds_table *t,
    struct dev_set *out, char *err, size_t errlen);
void devices_set_free(struct dev_set *s);

/* Rule 5 as far as it needs no sysfs: why a device of this major:minor
 * and name never holds data ("loop device", "zram device", "hidden path
 * device (0:0)", ...), or NULL. Live sampling and `import` (a capture has
 * no sysfs) leave such devices out alike. */
const char *devices_never_data(uint32_t major, uint32_t minor,
    const char *name);

/* The set of (name, major:minor, diskseq) changed since s was decided? */
int devices_changed(const struct dev_set *s, const struct ds_table *t);

#endif
