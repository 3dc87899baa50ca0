/*
 * space_groups_int: groups (projects, users, groups, directories) of two
 * snapshots side by side, as the diff and the usage tables read them.
 */
#ifndef IOCENSUS_SPACE_GROUPS_INT_H
#define IOCENSUS_SPACE_GROUPS_INT_H

#include <stddef.h>

#include "query/query.h"

/* Called once per key, in key order, with the group of each side (NULL
 * where the key is absent on that side). */
typedef void (*space_groups_fn)(const struct gtot *a, const struct gtot *b,
    void *arg);

/* Walk two key-sorted lists (query_census_groups) side by side. */
void space_groups_merge(const struct gtot *ga, size_t na, const struct gtot *gb,
    size_t nb, space_groups_fn fn, void *arg);

#endif
