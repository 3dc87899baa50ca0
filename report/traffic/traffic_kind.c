/*
 * traffic_kind: what a device is, as far as its kernel name tells, and
 * so at which level of a storage stack iostatmon sampled it.
 *
 * The database keeps a device's host and kernel name only (the log's
 * device table also holds model, serial, wwid and the reason it was
 * sampled, which ingest does not store: docs/census-db.md). The name's
 * prefix is enough to tell a whole disk or LUN from an md array or a
 * device-mapper device: iostatmon samples the disks under md and dm
 * unless told otherwise (--include), so a host's devices of kind md or
 * dm mean it was told to sample that level instead (docs/iostatmon.8).
 */
#include <string.h>

#include "traffic_health_int.h"

static const struct traffic_kind kinds[] = {
	{ "nvme", "nvme", 1, "NVMe namespace" },
	{ "md", "md", 0, "md array" },
	{ "dm-", "dm", 0, "device-mapper device" },
	{ "sd", "sd", 1, "SCSI or SATA disk or LUN" },
	{ "vd", "vd", 1, "virtio disk" },
	{ "xvd", "xvd", 1, "Xen disk" },
	{ "hd", "hd", 1, "IDE disk" },
	{ "mmcblk", "mmcblk", 1, "MMC device" },
	{ "cciss/", "cciss", 1, "Smart Array logical drive" },
	{ "rbd", "rbd", 1, "Ceph block device" },
	{ "bcache", "bcache", 0, "bcache device" },
	{ "zd", "zd", 0, "ZFS volume" },
};
static const struct traffic_kind other = { "", "other", 1,
    "device of another kind" };

const struct traffic_kind *
traffic_kind_of(const char *name)
{
	for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
		if (strncmp(name, kinds[i].prefix, strlen(kinds[i].prefix))
		    == 0)
			return &kinds[i];
	return &other;
}

/* What an aggregate over devices of kind k counts. */
const char *
traffic_kind_level(const struct traffic_kind *k)
{
	if (!strcmp(k->kind, "md"))
		return "the md arrays themselves (iostatmon --include): what "
		    "was written to and read from each array, once; the "
		    "disks under them are not sampled, so no mirror copy "
		    "or parity is counted";
	if (!strcmp(k->kind, "dm"))
		return "device-mapper devices themselves (iostatmon "
		    "--include): what was sent to each, once; the devices "
		    "under them are not sampled";
	if (k->leaf)
		return "whole disks or LUNs, below any md or dm: a write to "
		    "md RAID1 or RAID10 counts once per copy, to RAID4/5/6 "
		    "with its parity (and a partial stripe's reads); under "
		    "multipath each request counts once, on the path it took";
	return "stacked devices sampled by choice (iostatmon --include)";
}
