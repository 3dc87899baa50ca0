/*
 * capacity: see record.h.
 */
#include <sys/statvfs.h>

#include "db.h"
#include "record.h"

int
capacity_read(const char *root, struct fs_capacity *cap)
{
	struct statvfs sv;
	i128 fr;

	if (statvfs(root, &sv) < 0)
		return -1;
	fr = sv.f_frsize ? sv.f_frsize : sv.f_bsize;
	if (__builtin_mul_overflow((i128)sv.f_blocks, fr, &cap->bytes) ||
	    __builtin_mul_overflow((i128)sv.f_bfree, fr, &cap->free_bytes) ||
	    __builtin_mul_overflow((i128)sv.f_bavail, fr, &cap->avail_bytes))
		return -1;
	cap->inodes = sv.f_files;
	cap->free_inodes = sv.f_ffree;
	return 0;
}

int
capacity_sane(const struct fs_capacity *cap)
{
	return cap->bytes <= DB_CAPACITY_MAX &&
	    cap->free_bytes <= cap->bytes &&
	    cap->avail_bytes <= cap->bytes && cap->free_inodes <= cap->inodes;
}
