/*
 * safedir: the directory that is to hold a file, opened one component at
 * a time, so that a link planted by another user cannot send a writer
 * that runs as root somewhere else.
 *
 * Every component is opened relative to the one before it with
 * O_NOFOLLOW. A component that is a symbolic link is followed only when
 * root or the running user owns the link: a link of anyone else's, which
 * that user may have planted in a directory they can write (a sticky
 * /tmp, their home), is refused; the kernel's protected_symlinks applies
 * the same rule in sticky directories. The last component, the file
 * itself, is never followed: it is only named, for the caller to open
 * relative to the directory with O_NOFOLLOW.
 */
#ifndef IOCENSUS_SAFEDIR_H
#define IOCENSUS_SAFEDIR_H

#include <stddef.h>
#include <sys/types.h>

struct safedir {
	int fd;		/* the directory (O_PATH | O_DIRECTORY): for the
			   *at calls and fstat */
	char *name;	/* the file's name in it: one component */
};

/* How missing directories are made: mode 0 makes none (ENOENT); else
 * each is made with mode (less the umask) and, when gid is not
 * (gid_t)-1, given that group. */
struct safedir_make {
	mode_t mode;
	gid_t gid;
};

/* Open the directory of path. 0, or -1 with errno and err ("PATH: why");
 * a path that ends in '/', '.' or '..' names no file (EISDIR). */
int safedir_open(struct safedir *d, const char *path,
    const struct safedir_make *make, char *err, size_t errlen);
void safedir_close(struct safedir *d);

/* The directory dir itself, every component of it walked as above: its
 * descriptor (O_PATH | O_DIRECTORY), or -1 with errno and err ("DIR:
 * why"). */
int safedir_dir(const char *dir, const struct safedir_make *make,
    char *err, size_t errlen);

/* "a symbolic link", "a FIFO", "a directory", ... for messages about a
 * file that is not a regular one (st_mode's type bits). */
const char *safedir_kind(mode_t mode);

#endif
