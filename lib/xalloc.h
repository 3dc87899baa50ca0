/* xalloc: allocation that exits with a message instead of returning NULL.
 * Out of memory in a census is fatal: partial aggregates would be wrong. */
#ifndef IOCENSUS_XALLOC_H
#define IOCENSUS_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* Room for element n of the array p of *cap elements of size bytes: p
 * itself while n < *cap, else p grown by doubling (to first elements at
 * the start) and *cap updated. A size past SIZE_MAX exits as out of
 * memory does. */
void *xgrow(void *p, size_t n, size_t *cap, size_t size, size_t first);

#endif
