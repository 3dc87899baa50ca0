/* idname: user and group names for numeric ids (NULL when unknown). */
#ifndef IOCENSUS_IDNAME_H
#define IOCENSUS_IDNAME_H

#include <stddef.h>
#include <sys/types.h>

/* Write the name into buf and return buf, or NULL if the id has no name. */
const char *uid_name(uid_t uid, char *buf, size_t len);
const char *gid_name(gid_t gid, char *buf, size_t len);

#endif
