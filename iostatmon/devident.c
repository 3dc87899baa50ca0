/*
 * devident: see devident.h. Every value is a string as sysfs or libblkid
 * gives it, trimmed; absent or empty facts are left out, never invented.
 */
#include "devident.h"

#include <blkid.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

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
	d->attr = xrealloc(d->attr, (d->nattr + 1) * sizeof *d->attr);
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
