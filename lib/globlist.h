/* globlist: does a name match any of a list of fnmatch(3) globs? */
#ifndef IOCENSUS_GLOBLIST_H
#define IOCENSUS_GLOBLIST_H

#include <stddef.h>

/* The first glob that matches name (flags 0), or NULL if none does. */
const char *globlist_match(const char *const *globs, size_t n,
    const char *name);

#endif
