/*
 * fdpath: the open file against the path. See fdpath.h.
 */
#include "fdpath.h"

#include <errno.h>
#include <sys/stat.h>

enum fdpath
fdpath_check(int fd, const char *path)
{
	struct stat a, b;

	if (fd < 0)
		return FDPATH_DELETED;
	if (fstat(fd, &a) < 0)
		return FDPATH_UNKNOWN;
	if (a.st_nlink == 0)
		return FDPATH_DELETED;
	if (lstat(path, &b) < 0)
		return errno == ENOENT || errno == ENOTDIR ? FDPATH_MOVED :
		    FDPATH_UNKNOWN;
	return a.st_dev == b.st_dev && a.st_ino == b.st_ino ? FDPATH_SAME :
	    FDPATH_MOVED;
}
