/* mkdirs: a directory and its missing parents, as `mkdir -p` makes them. */
#ifndef IOCENSUS_MKDIRS_H
#define IOCENSUS_MKDIRS_H

#include <sys/types.h>

/* Make path and every missing directory above it with mode (less the
 * umask). 0 when path is a directory afterwards, or -1 with errno
 * (ENOTDIR: path or a parent exists and is not a directory). */
int mkdirs(const char *path, mode_t mode);

#endif
