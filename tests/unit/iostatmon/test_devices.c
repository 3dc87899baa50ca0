/*
 * test_devices: device selection by topology, on fake /proc and /sys trees
 * written by tests/lib/faketopo.py into a temporary directory. Expected
 * decisions and reasons are written out by hand from the machine described
 * there (root on LVM on md RAID1 over sda2+sdb2, /boot on sda1, swap on
 * sdb3, data disks sdc/sdd/sde, NVMe multipath, virtual devices, ...).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "devices.h"
#include "diskstats.h"
#include "tap.h"

static char tmp[] = "/tmp/test_devices.XXXXXX";

struct want {
	const char *name, *reason;
};

/* The main machine with no option: every device, in diskstats order. */
static const struct want main_default[] = {
	{ "sda", "excluded: holds / via dm-0 -> md0 -> sda2" },
	{ "sda1", "excluded: holds /boot" },
	{ "sda2", "excluded: holds / via dm-0 -> md0" },
	{ "sdb", "excluded: holds / via dm-0 -> md0 -> sdb2" },
	{ "sdb1", "excluded: partition of local sdb" },
	{ "sdb2", "excluded: holds / via dm-0 -> md0" },
	{ "sdb3", "excluded: holds swap" },
	{ "sdc", "monitored: data disk" },
	{ "sdc1", "excluded: partition of monitored sdc" },
	{ "sdc2", "excluded: size 0" },
	{ "sdd", "monitored: data disk" },
	{ "sdd1", "excluded: partition of monitored sdd" },
	{ "sde", "monitored: data disk" },
	{ "sdf", "excluded: removable" },
	{ "sdf1", "excluded: partition of excluded sdf" },
	{ "md0", "excluded: holds / via dm-0" },
	{ "md1", "excluded: stacked on monitored sdc, sdd" },
	{ "dm-0", "excluded: holds /" },
	{ "dm-1", "excluded: stacked on local md0" },
	{ "dm-2", "excluded: stacked on monitored sde" },
	{ "nvme0n1", "monitored: data disk" },
	{ "nvme0n1p1", "excluded: partition of monitored nvme0n1" },
	{ "nvme0c0n1", "excluded: hidden path device" },
	{ "nvme0c1n1", "excluded: hidden path device (0:0)" },
	{ "cciss/c0d0", "monitored: data disk" },
	{ "cciss/c0d0p1", "excluded: partition of monitored cciss/c0d0" },
	{ "loop0", "excluded: loop device" },
	{ "ram0", "excluded: ram disk" },
	{ "zram0", "excluded: zram device" },
	{ "nbd0", "excluded: nbd device" },
	{ "sr0", "excluded: optical drive" },
	{ "zd0", "excluded: virtual device" },
	{ "sdg", "excluded: not in sysfs" },
};

static void
sh(const char *fmt, const char *a, const char *b)
{
	char cmd[1024];

	snprintf(cmd, sizeof cmd, fmt, a, b);
	if (system(cmd) != 0) {
		printf("not ok - setup: %s\n", cmd);
		exit(1);
	}
}

static void
load(const char *scenario, struct ds_table *t)
{
	char path[512], *buf;
	FILE *f;
	long n;

	sh("rm -rf %s/%s", tmp, scenario);
	snprintf(path, sizeof path, "%s/%s", tmp, scenario);
	sh("python3 tests/lib/faketopo.py %s %s", scenario, path);
	snprintf(path, sizeof path, "%s/%s/proc/diskstats", tmp, scenario);
	if ((f = fopen(path, "r")) == NULL || fseek(f, 0, SEEK_END) < 0 ||
	    (n = ftell(f)) < 0) {
		printf("not ok - setup: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	rewind(f);
	buf = malloc((size_t)n + 1);
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n)
		exit(1);
	fclose(f);
	diskstats_parse_all(buf, (size_t)n, t);
	free(buf);
}

static struct dev_opts
opts(const char *scenario, char *proc, char *sys, size_t len)
{
	struct dev_opts o = { 0 };

	snprintf(proc, len, "%s/%s/proc", tmp, scenario);
	snprintf(sys, len, "%s/%s/sys", tmp, scenario);
	o.proc = proc;
	o.sys = sys;
	return o;
}

static const struct dev_info *
find(const struct dev_set *s, const char *name)
{
	size_t k;

	for (k = 0; k < s->n; k++)
		if (strcmp(s->d[k].name, name) == 0)
			return &s->d[k];
	return NULL;
}

static void
is_reason(const struct dev_set *s, const char *name, const char *want,
    const char *label)
{
	const struct dev_info *d = find(s, name);

	if (!d) {
		ok_why(0, "missing", "%s: %s listed", label, name);
		return;
	}
	is_str(d->reason, want, "%s: %s", label, name);
	is_i64(d->monitored, strncmp(want, "monitored", 9) == 0,
	    "%s: %s monitored flag", label, name);
}

static const char *
attr(const struct dev_info *d, const char *key)
{
	size_t k;

	for (k = 0; d && k < d->nattr; k++)
		if (strcmp(d->attr[k].key, key) == 0)
			return d->attr[k].value;
	return "(none)";
}

static int
decide(const struct dev_opts *o, const struct ds_table *t, struct dev_set *s,
    char *err, size_t errlen)
{
	err[0] = 0;
	return devices_decide(o, t, s, err, errlen);
}

static void
test_main_default(struct ds_table *t)
{
	char proc[512], sys[512], err[512];
	struct dev_opts o = opts("main", proc, sys, sizeof proc);
	struct dev_set s;
	size_t k, n = sizeof main_default / sizeof main_default[0];

	o.probe_blkid = 1;	/* /dev/sdc is not this tree's: must not matter */
	is_i64(decide(&o, t, &s, err, sizeof err), 0, "main: decided (%s)", err);
	is_u64(s.n, n, "main: one decision per diskstats line");
	for (k = 0; k < n && k < s.n; k++) {
		is_str(s.d[k].name, main_default[k].name, "main: order %zu", k);
		is_reason(&s, main_default[k].name, main_default[k].reason, "main");
	}
	is_str(attr(find(&s, "sda"), "wwid"), "naa.5000c500a1b2c3d4", "sda wwid");
	is_str(attr(find(&s, "sda"), "model"), "ST4000NM0035-1V4", "sda model");
	is_str(attr(find(&s, "sda"), "serial"), "ZC1A2B3C", "sda serial");
	is_str(attr(find(&s, "sda"), "rotational"), "1", "sda rotational");
	is_str(attr(find(&s, "sda"), "size_sectors"), "2000000", "sda size");
	is_str(attr(find(&s, "sdc"), "wwid"), "t10.ATA     SAMSUNG SSD  S3Z9",
	    "sdc wwid from device/wwid");
	is_str(attr(find(&s, "sdc"), "rotational"), "0", "sdc rotational");
	is_str(attr(find(&s, "dm-0"), "dm_name"), "vg0-root", "dm-0 dm_name");
	is_str(attr(find(&s, "dm-0"), "dm_uuid"), "LVM-aaaa-root", "dm-0 dm_uuid");
	is_str(attr(find(&s, "dm-2"), "dm_uuid"),
	    "CRYPT-LUKS2-0123abcd-data-crypt", "dm-2 dm_uuid");
	is_str(attr(find(&s, "md0"), "md_level"), "raid1", "md0 md_level");
	is_str(attr(find(&s, "sdc2"), "size_sectors"), "0", "sdc2 size");
	is_str(attr(find(&s, "sdc"), "fstype"), "(none)", "no probe result");
	is_str(attr(find(&s, "sdg"), "size_sectors"), "(none)",
	    "sdg: nothing known");
	is_u64(find(&s, "sda")->diskseq, 1, "sda diskseq");
	is_u64(find(&s, "dm-0")->diskseq, 20, "dm-0 diskseq");
	is_u64(find(&s, "sdd")->diskseq, 0, "sdd has no diskseq");
	ok(find(&s, "sdb1")->is_partition && !find(&s, "sdb")->is_partition,
	    "sdb1 is a partition, sdb is not");
	is_str(find(&s, "sdb1")->whole, "sdb", "sdb1 whole disk");
	is_str(find(&s, "cciss/c0d0p1")->whole, "cciss/c0d0",
	    "cciss partition whole disk, '!' mapped back to '/'");
	is_u64(find(&s, "cciss/c0d0")->major, 104, "cciss major");

	is_i64(devices_changed(&s, t), 0, "same table: unchanged");
	t->dev[7].minor++;
	is_i64(devices_changed(&s, t), 1, "a minor changed");
	t->dev[7].minor--;
	t->dev[3].name[2] = 'x';
	is_i64(devices_changed(&s, t), 1, "a name changed");
	t->dev[3].name[2] = 'b';
	t->n--;
	is_i64(devices_changed(&s, t), 1, "a device went away");
	t->n++;
	is_i64(devices_changed(&s, t), 0, "restored: unchanged");
	devices_set_free(&s);
	is_u64(s.n, 0, "freed set is empty");
}

static void
test_overrides(const struct ds_table *t)
{
	char proc[512], sys[512], err[512];
	struct dev_opts o = opts("main", proc, sys, sizeof proc);
	const char *inc[] = { "dm-2", "sda", "sdc" };
	const char *exc[] = { "sd[cd]", "loop*" };
	struct dev_set s;

	o.include = inc;
	o.ninclude = 2;
	is_i64(decide(&o, t, &s, err, sizeof err), 0, "include: decided");
	is_reason(&s, "dm-2", "monitored: included by --include", "include");
	is_reason(&s, "sde", "excluded: under included dm-2", "include");
	is_reason(&s, "sda", "monitored: included by --include", "include");
	is_reason(&s, "sda1", "excluded: holds /boot", "include");
	is_reason(&s, "sdc", "monitored: data disk", "include");
	devices_set_free(&s);

	o.ninclude = 3;
	o.exclude = exc;
	o.nexclude = 1;
	is_i64(decide(&o, t, &s, err, sizeof err), 0, "exclude: decided");
	is_reason(&s, "sdc", "excluded: excluded by --exclude", "exclude wins");
	is_reason(&s, "sdd", "excluded: excluded by --exclude", "exclude");
	is_reason(&s, "sdc1", "excluded: partition of excluded sdc", "exclude");
	is_reason(&s, "md1", "excluded: stacked on excluded sdc, sdd",
	    "exclude");
	is_reason(&s, "nvme0n1", "monitored: data disk", "exclude");
	devices_set_free(&s);

	o.include = NULL;
	o.ninclude = 0;
	o.exclude = exc + 1;
	o.all_devices = 1;
	o.proc = "/nonexistent";	/* --all-devices needs no mountinfo */
	is_i64(decide(&o, t, &s, err, sizeof err), 0, "all: decided (%s)", err);
	is_reason(&s, "loop0", "excluded: excluded by --exclude", "all");
	is_reason(&s, "sda", "monitored: all devices", "all");
	is_reason(&s, "sdc1", "monitored: all devices", "all");
	is_reason(&s, "nvme0c1n1", "monitored: all devices", "all");
	devices_set_free(&s);
}

static void
test_btrfs(void)
{
	static const struct want w[] = {
		{ "sda", "excluded: holds / via sda2" },
		{ "sda1", "excluded: partition of local sda" },
		{ "sda2", "excluded: holds /" },
		{ "sdb", "excluded: holds /" },
		{ "sdc", "monitored: data disk" },
		{ "sdd", "excluded: holds swap file /srv/swap file" },
		{ "sde", "excluded: holds /var via sde1" },
		{ "sde1", "excluded: holds /var" },
	};
	char proc[512], sys[512], err[512], path[600];
	struct ds_table t = { 0 };
	struct dev_opts o;
	struct dev_set s;
	size_t k;

	load("btrfs", &t);
	o = opts("btrfs", proc, sys, sizeof proc);
	is_i64(decide(&o, &t, &s, err, sizeof err), 0, "btrfs: decided");
	is_u64(s.n, sizeof w / sizeof w[0], "btrfs: all listed");
	for (k = 0; k < sizeof w / sizeof w[0]; k++)
		is_reason(&s, w[k].name, w[k].reason, "btrfs");
	devices_set_free(&s);

	snprintf(path, sizeof path, "%s/swaps", proc);
	unlink(path);
	is_i64(decide(&o, &t, &s, err, sizeof err), 0, "no swaps: decided");
	is_reason(&s, "sdd", "monitored: data disk", "no swaps");
	devices_set_free(&s);

	snprintf(path, sizeof path, "%s/self/mountinfo", proc);
	unlink(path);
	is_i64(decide(&o, &t, &s, err, sizeof err), -1, "no mountinfo: error");
	snprintf(path, sizeof path,
	    "%s/self/mountinfo: No such file or directory", proc);
	is_str(err, path, "no mountinfo: message");

	o.sys = "/nonexistent/sys";
	is_i64(decide(&o, &t, &s, err, sizeof err), -1, "no sysfs: error");
	is_str(err, "/nonexistent/sys/class/block: No such file or directory",
	    "no sysfs: message");
	diskstats_table_free(&t);
}

int
main(void)
{
	struct ds_table t = { 0 };
	const char *top = getenv("TOP");

	if (top && chdir(top) < 0)
		return 1;
	if (!mkdtemp(tmp))
		return 1;
	load("main", &t);
	test_main_default(&t);
	test_overrides(&t);
	test_btrfs();
	diskstats_table_free(&t);
	sh("rm -rf %s%s", tmp, "");
	return tap_end();
}
