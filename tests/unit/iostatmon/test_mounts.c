/* mounts: mountinfo and swaps parsing, against hand-written fixtures. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mounts.h"
#include "tap.h"

static char dir[] = "/tmp/test_mounts.XXXXXX";

static const char *
fixture(const char *name, const char *text)
{
	static char path[256];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	f = fopen(path, "w");
	fputs(text, f);
	fclose(f);
	return path;
}

static void
test_mountinfo(void)
{
	struct mount_tab t;
	const struct mount_ent *m;
	const char *p = fixture("mountinfo",
	    "22 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw\n"
	    "23 22 8:1 / /boot rw master:2 propagate_from:1 - ext2 /dev/sda1 rw\n"
	    "24 22 0:5 / /var\\040old rw - tmpfs tm\\134p rw\n"
	    "25 22 253:0 / /data rw - xfs /dev/mapper/vg-data rw\n"
	    "garbage line\n"
	    "26 22 9:0 / /boot rw - ext4 /dev/md0 rw\n"
	    "27 22 x:y / /bad rw - ext4 /dev/sdz rw\n");

	ok(mounts_read(p, &t) == 0, "mountinfo read");
	is_u64(t.n, 5, "malformed lines skipped, 5 mounts");
	is_str(t.v[0].target, "/", "root target");
	is_str(t.v[0].fstype, "ext4", "root type");
	is_str(t.v[0].source, "/dev/vda", "root source");
	is_u64(t.v[0].major, 254, "root major");
	is_str(t.v[1].fstype, "ext2", "optional fields skipped up to '-'");
	is_str(t.v[2].target, "/var old", "\\040 in a mount point unescaped");
	is_str(t.v[2].source, "tm\\p", "\\134 in a source unescaped");
	m = mounts_find_target(&t, "/boot");
	ok(m && strcmp(m->source, "/dev/md0") == 0,
	    "the later of two /boot mounts covers the earlier");
	ok(mounts_find_target(&t, "/var") == NULL, "\"/var old\" is not /var");
	m = mounts_containing(&t, "/data/swapfile");
	ok(m && strcmp(m->target, "/data") == 0, "longest prefix holds a path");
	m = mounts_containing(&t, "/database/x");
	ok(m && strcmp(m->target, "/") == 0,
	    "/data is not a prefix of /database: component boundary");
	mounts_tab_free(&t);
	ok(mounts_read("/nonexistent/mountinfo", &t) < 0, "missing file: -1");
}

static void
test_swaps(void)
{
	struct mount_tab t;
	const char *p = fixture("swaps",
	    "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"
	    "/dev/sda2                               partition\t8388604\t\t0\t\t-2\n"
	    "/srv/swap\\040file                       file\t\t1048572\t\t0\t\t-3\n");

	ok(mounts_swaps_read(p, &t) == 0, "swaps read");
	is_u64(t.n, 2, "header skipped, two swap areas");
	is_str(t.v[0].source, "/dev/sda2", "partition source");
	is_str(t.v[0].fstype, "partition", "partition type");
	is_str(t.v[1].source, "/srv/swap file", "swap file name unescaped");
	is_str(t.v[1].fstype, "file", "file type");
	mounts_tab_free(&t);
}

int
main(void)
{
	char cmd[64];

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	test_mountinfo();
	test_swaps();
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", dir);
	return tap_end();
}
