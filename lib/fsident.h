/*
 * fsident: which file system a path lives on: mount point, type, source,
 * per-mount options (relatime/noatime matter for atime ages), and the
 * file system's UUID and label through libblkid where the device is
 * readable. Every field is optional: in a container or as an unprivileged
 * user much of it is unknown, and that is reported as empty, not guessed.
 */
#ifndef IOCENSUS_FSIDENT_H
#define IOCENSUS_FSIDENT_H

#include <sys/types.h>

struct fsident {
	char target[4096];	/* mount point */
	char fstype[64];
	char source[4096];	/* device or remote source */
	char options[1024];	/* per-mount (VFS) options */
	char uuid[128];
	char label[256];
};

/* Fill id for the mount holding path_abs on device dev. Returns 0 when the
 * mount was found in /proc/self/mountinfo, -1 otherwise (fields empty). */
int fsident_get(dev_t dev, const char *path_abs, struct fsident *id);

#endif
