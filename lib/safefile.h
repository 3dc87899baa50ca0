/*
 * safefile: a regular file opened in place (read, appended to, or kept
 * open for a lock), safely on a system shared with other users.
 *
 * Where outfile.h replaces a file whole, some files are opened where
 * they are: a log appended to, a lock file that persists. The directory
 * is opened through lib/safedir (no other user's link is followed on
 * the way) and the file relative to it with O_NOFOLLOW and O_NONBLOCK,
 * so that a link planted at the name is never followed, not even a
 * dangling one whose target O_CREAT would make, and a FIFO planted there
 * cannot stop the caller. A name that is not a regular file (a symbolic
 * link, a FIFO, a device, a socket, a directory) is refused before it is
 * opened: opening some devices does something. So is a regular file with
 * more than one name: another user may have linked someone else's file
 * here. A file the call creates gets mode less the umask.
 */
#ifndef IOCENSUS_SAFEFILE_H
#define IOCENSUS_SAFEFILE_H

#include <stddef.h>
#include <sys/types.h>

/* Open name in the directory dirfd (an O_PATH descriptor will do) with
 * flags (O_RDONLY, O_RDWR, O_APPEND, O_CREAT, O_EXCL...; O_NOFOLLOW,
 * O_NONBLOCK and O_CLOEXEC are added). path names the file in messages.
 * The descriptor, or -1 with errno (EPERM: refused, as not a regular
 * file of one name) and err: path, ": ", why. */
int safefile_openat(int dirfd, const char *name, const char *path, int flags,
    mode_t mode, char *err, size_t errlen);

/* The same, the directory opened from path by safedir_open (none made). */
int safefile_open(const char *path, int flags, mode_t mode, char *err,
    size_t errlen);

#endif
