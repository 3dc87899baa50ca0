/* idname: user and group names of numeric ids. */
#ifndef IOCENSUS_IDNAME_H
#define IOCENSUS_IDNAME_H

#include <stdint.h>

enum id_kind { ID_USER, ID_GROUP };

/* A newly allocated name for id, or NULL when the id has no name here. */
char *idname_of(enum id_kind kind, uint32_t id);
/* The group s names: a group name, or a number (a gid of no name too).
 * 0, or -1 when there is no such group. */
int idname_gid(const char *s, uint32_t *gid);

#endif
