/*
 * fdpath: is the file open on a descriptor still the one a path names? A
 * long-running writer asks before and after it writes, so that a file
 * deleted or replaced under it (rm, mv, rm -rf of its directory) is not
 * written to in vain.
 */
#ifndef IOCENSUS_FDPATH_H
#define IOCENSUS_FDPATH_H

enum fdpath {
	FDPATH_SAME,		/* path names the open file */
	FDPATH_MOVED,		/* path names another file or none; the open
				 * file still has a name elsewhere */
	FDPATH_DELETED,		/* the open file has no name left (or there
				 * is no open file: fd < 0) */
	FDPATH_UNKNOWN		/* fstat or stat failed otherwise (errno) */
};

/* Compare fd's file with the file at path. Its last component is not
 * followed: a link put there, even to the open file, is another file
 * (writers open their files with O_NOFOLLOW). */
enum fdpath fdpath_check(int fd, const char *path);

#endif
