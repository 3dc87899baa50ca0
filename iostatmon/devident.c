/*
 * devident: see devident.h. Every value is a string as sysfs or libblkid
 * gives it, trimmed; absent or empty facts are left out, never invented.
 */
#include "devident.h"

#include <blkid.h>
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "safedir.h"
#include "xalloc.h"

#define ENCLOSURE_LINK	"enclosure_device:"
#define BY_PATH		"/dev/disk/by-path"

/* Sysfs attributes, the first one present wins. */
static const struct {
	const char *key;
	const char *attr[2];
} sysfs_ident[] = {
	{ "wwid",		{ "wwid", "device/wwid" } },
	{ "serial",		{ "device/serial", "serial" } },
	{ "model",		{ "device/model", NULL } },
	{ "dm_name",		{ "dm/name", NULL } },
	{ "dm_uuid",		{ "dm/uuid", NULL } },
	{ "md_level",		{ "md/level", NULL } },
	{ "rotational",		{ "queue/rotational", NULL } },
	{ "size_sectors",	{ "size", NULL } },
};

static void
add(struct dev_info *d, const char *key, const char *value)
{
	d->attr = xreallocarray(d->attr, d->nattr + 1, sizeof *d->attr);
	d->attr[d->nattr].key = xstrdup(key);
	d->attr[d->nattr].value = xstrdup(value);
	d->nattr++;
}

/* Needs read access to /dev: containers and unprivileged users get none,
 * and that is not an error. */
static void
probe(struct dev_info *d)
{
	static const struct { const char *tag, *key; } tags[] = {
		{ "TYPE", "fstype" }, { "UUID", "uuid" }, { "LABEL", "label" },
	};
	char path[PATH_MAX];
	blkid_probe pr;
	size_t k;

	snprintf(path, sizeof path, "/dev/%s", d->name);
	if ((pr = blkid_new_probe_from_filename(path)) == NULL)
		return;
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE |
	    BLKID_SUBLKS_UUID | BLKID_SUBLKS_LABEL);
	blkid_probe_enable_partitions(pr, 0);
	if (blkid_do_safeprobe(pr) == 0) {
		for (k = 0; k < sizeof tags / sizeof tags[0]; k++) {
			const char *v;

			if (blkid_probe_lookup_value(pr, tags[k].tag, &v,
			    NULL) == 0 && v && *v)
				add(d, tags[k].key, v);
		}
	}
	blkid_free_probe(pr);
}

/* The enclosure's name for the bay the disk sits in: the kernel links
 * the disk's SCSI device to its enclosure component as
 * device/enclosure_device:COMPONENT ("Slot 07", "ArrayDevice03", as the
 * enclosure names it). The first such link, in name order. */
static int
enclosure_slot(const struct sysblk *g, int i, char *buf, size_t len)
{
	size_t n, k, pre = strlen(ENCLOSURE_LINK);
	char **v = sysblk_list(g, i, "device", &n);
	int rc = -1;

	for (k = 0; k < n && rc < 0; k++) {
		if (strncmp(v[k], ENCLOSURE_LINK, pre) == 0 &&
		    v[k][pre] != '\0') {
			snprintf(buf, len, "%s", v[k] + pre);
			rc = 0;
		}
	}
	sysblk_list_free(v, n);
	return rc;
}

/* Does the target of a by-path link name the device, by its diskstats
 * name below /dev ("../../sdc", "../../cciss/c0d0", "/dev/sdc")? */
static int
names_dev(const char *target, const char *name)
{
	while (strncmp(target, "../", 3) == 0)
		target += 3;
	if (strncmp(target, "/dev/", 5) == 0)
		target += 5;
	return strcmp(target, name) == 0;
}

/* The by-path name of a disk that is in no enclosure: the first link of
 * /dev/disk/by-path, in name order, whose target is the device itself
 * (not one of its partitions). The directory is reached through
 * lib/safedir and its links are read, never followed; none of it when
 * the directory is missing (no udev, a container). */
static int
by_path_slot(const char *name, char *buf, size_t len)
{
	char err[PATH_MAX + 64], target[PATH_MAX], *best = NULL;
	struct dirent *e;
	DIR *dp;
	int pfd, fd;
	ssize_t n;

	if ((pfd = safedir_dir(BY_PATH, NULL, err, sizeof err)) < 0)
		return -1;
	fd = openat(pfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	close(pfd);
	if (fd < 0 || (dp = fdopendir(fd)) == NULL) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	while ((e = readdir(dp)) != NULL) {
		if (e->d_name[0] == '.' || (best && strcmp(e->d_name,
		    best) >= 0))
			continue;
		n = readlinkat(dirfd(dp), e->d_name, target,
		    sizeof target - 1);
		if (n <= 0)
			continue;
		target[n] = '\0';
		if (names_dev(target, name)) {
			free(best);
			best = xstrdup(e->d_name);
		}
	}
	closedir(dp);
	if (best == NULL)
		return -1;
	snprintf(buf, len, "%s", best);
	free(best);
	return 0;
}

/* Where the disk sits: its enclosure slot, else (on the real machine,
 * whose /dev the sysfs tree describes) its by-path name. */
static void
slot(const struct sysblk *g, int i, struct dev_info *d)
{
	char buf[512];

	if (enclosure_slot(g, i, buf, sizeof buf) == 0 ||
	    (g->real_dev && !g->n[i].partition &&
	    by_path_slot(g->n[i].name, buf, sizeof buf) == 0))
		add(d, "slot", buf);
}

void
devident_fill(const struct sysblk *g, int i, int probe_dev,
    struct dev_info *d)
{
	char buf[512];
	size_t k, a;

	for (k = 0; i >= 0 && k < sizeof sysfs_ident / sizeof sysfs_ident[0];
	    k++) {
		for (a = 0; a < 2 && sysfs_ident[k].attr[a]; a++) {
			if (sysblk_attr(g, i, sysfs_ident[k].attr[a], buf,
			    sizeof buf) == 0) {
				add(d, sysfs_ident[k].key, buf);
				break;
			}
		}
	}
	if (i >= 0)
		slot(g, i, d);
	if (probe_dev)
		probe(d);
}

void
devident_free(struct dev_info *d)
{
	size_t k;

	for (k = 0; k < d->nattr; k++) {
		free(d->attr[k].key);
		free(d->attr[k].value);
	}
	free(d->attr);
	d->attr = NULL;
	d->nattr = 0;
}
