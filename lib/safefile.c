/*
 * safefile: a regular file opened in place without following links
 * (safefile.h).
 */
#include "safefile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "safedir.h"

/* Is st a file we may open? 0, or -1 with errno EPERM and err. */
static int
refused(const char *path, const struct stat *st, char *err, size_t errlen)
{
	if (S_ISLNK(st->st_mode))
		snprintf(err, errlen, "%s: is a symbolic link, which is never "
		    "followed here; refused", path);
	else if (!S_ISREG(st->st_mode))
		snprintf(err, errlen, "%s: is %s, not a regular file; refused",
		    path, safedir_kind(st->st_mode));
	else if (st->st_nlink > 1)
		snprintf(err, errlen, "%s: has %ju names (hard links), one of "
		    "which may be another user's link to someone else's file; "
		    "refused", path, (uintmax_t)st->st_nlink);
	else
		return 0;
	errno = EPERM;
	return -1;
}

int
safefile_openat(int dirfd, const char *name, const char *path, int flags,
    mode_t mode, char *err, size_t errlen)
{
	struct stat st;
	int fd, e, fl;

	/* Before opening: opening a device may act on it. */
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    refused(path, &st, err, errlen) < 0)
		return -1;
	fd = openat(dirfd, name, flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC,
	    mode);
	if (fd < 0) {
		e = errno;
		if (e == ELOOP) {	/* a link, planted since the check */
			st.st_mode = S_IFLNK;
			return refused(path, &st, err, errlen);
		}
		snprintf(err, errlen, "%s: %s", path, strerror(e));
		errno = e;
		return -1;
	}
	/* What was opened: the name may have changed since the check. */
	if (fstat(fd, &st) < 0 || refused(path, &st, err, errlen) < 0 ||
	    (fl = fcntl(fd, F_GETFL)) < 0 ||
	    fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0) {
		e = errno;
		if (e != EPERM)
			snprintf(err, errlen, "%s: %s", path, strerror(e));
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

int
safefile_open(const char *path, int flags, mode_t mode, char *err,
    size_t errlen)
{
	struct safedir d;
	int fd, e;

	if (safedir_open(&d, path, NULL, err, errlen) < 0)
		return -1;
	fd = safefile_openat(d.fd, d.name, path, flags, mode, err, errlen);
	e = errno;
	safedir_close(&d);
	errno = e;
	return fd;
}
