/*
 * fsident: see fsident.h.
 */
#include "fsident.h"
#include "mountpath.h"

#include <blkid.h>
#include <libmount.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void
copy(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src ? src : "");
}

static void
probe_tags(struct fsident *id)
{
	blkid_cache cache = NULL;
	struct stat st;
	char *v;

	if (stat(id->source, &st) < 0 || !S_ISBLK(st.st_mode))
		return;
	if (blkid_get_cache(&cache, "/dev/null") < 0)
		return;
	if ((v = blkid_get_tag_value(cache, "UUID", id->source))) {
		copy(id->uuid, sizeof id->uuid, v);
		free(v);
	}
	if ((v = blkid_get_tag_value(cache, "LABEL", id->source))) {
		copy(id->label, sizeof id->label, v);
		free(v);
	}
	blkid_put_cache(cache);
}

int
fsident_get(dev_t dev, const char *path_abs, struct fsident *id)
{
	struct libmnt_table *tb;
	struct libmnt_iter *it;
	struct libmnt_fs *fs, *best = NULL;
	size_t best_len = 0;

	memset(id, 0, sizeof *id);
	tb = mnt_new_table_from_file("/proc/self/mountinfo");
	if (!tb)
		return -1;
	it = mnt_new_iter(MNT_ITER_FORWARD);
	/* The last matching entry wins: later mounts cover earlier ones. */
	while (it && mnt_table_next_fs(tb, it, &fs) == 0) {
		size_t n;
		if (mnt_fs_get_devno(fs) != dev)
			continue;
		n = mountpath_prefix_len(mnt_fs_get_target(fs), path_abs);
		if (n && n >= best_len) {
			best = fs;
			best_len = n;
		}
	}
	if (best) {
		copy(id->target, sizeof id->target, mnt_fs_get_target(best));
		copy(id->fstype, sizeof id->fstype, mnt_fs_get_fstype(best));
		copy(id->source, sizeof id->source, mnt_fs_get_source(best));
		copy(id->options, sizeof id->options, mnt_fs_get_vfs_options(best));
		probe_tags(id);
	}
	mnt_free_iter(it);
	mnt_unref_table(tb);
	return best ? 0 : -1;
}
