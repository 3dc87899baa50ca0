/*
 * pidfile: --pidfile, written and removed without trusting other users.
 *
 * The file is written whole through lib/outfile (a temporary of an
 * unguessable name, O_EXCL | O_NOFOLLOW, renamed over the target), mode
 * 0644 less the umask: a link, a FIFO, a device or a directory at the
 * path, or a link of another user's on the way to it, is refused. At exit
 * it is removed only while it is a regular file holding this process's
 * id: a daemon started later may have written its own.
 */
#ifndef IOSTATMON_PIDFILE_H
#define IOSTATMON_PIDFILE_H

#include <stddef.h>

/* Write the pid to path. 0, or -1 with a message in err. */
int pidfile_write(const char *path, char *err, size_t len);
/* Remove path if it still holds our pid; anything else is said. */
void pidfile_remove(const char *path);

#endif
