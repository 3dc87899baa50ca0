/* mountpath: is a mount point a path prefix of a path? */
#ifndef IOCENSUS_MOUNTPATH_H
#define IOCENSUS_MOUNTPATH_H

#include <stddef.h>

/* The length of mount point mnt when it is a prefix of path on a component
 * boundary ("/data" holds "/data/x" but not "/database"), 1 for "/", 0 when
 * it does not hold path. The longest such mount holds the path. */
size_t mountpath_prefix_len(const char *mnt, const char *path);

#endif
