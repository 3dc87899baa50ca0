/* xalloc: allocation that exits with a message instead of returning NULL.
 * Out of memory in a census is fatal: partial aggregates would be wrong. */
#ifndef IOCENSUS_XALLOC_H
#define IOCENSUS_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
/* p resized to n elements of size bytes, as reallocarray(3): a product
 * past SIZE_MAX exits as out of memory does, naming the count and the
 * size, instead of wrapping to a small block. xreallocarray(NULL, n,
 * size) is the unzeroed xcalloc. */
void *xreallocarray(void *p, size_t n, size_t size);
/* a times b, a size about to be allocated: past SIZE_MAX the process
 * exits as out of memory does. For the count of a two-dimensional block,
 * which xreallocarray's element size then multiplies in turn. */
size_t xmul(size_t a, size_t b);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* Room for element n of the array p of *cap elements of size bytes: p
 * itself while n < *cap, else p grown by doubling (to first elements at
 * the start) and *cap updated. A size past SIZE_MAX exits as out of
 * memory does. */
void *xgrow(void *p, size_t n, size_t *cap, size_t size, size_t first);

#endif
