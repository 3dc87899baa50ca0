/*
 * strtab: a set of distinct strings, each known by its index (the order
 * in which they were first added), found by hashing in expected constant
 * time. Where names are looked up by name many times (fsscan --limits
 * with millions of projects, the project names of a census query), a
 * linear search would make the whole quadratic.
 */
#ifndef IOCENSUS_STRTAB_H
#define IOCENSUS_STRTAB_H

#include <stddef.h>

#define STRTAB_NONE ((size_t)-1)

struct strtab {
	char **name;		/* name[i]: the i-th string added (a copy) */
	size_t n, cap;
	size_t *slot;		/* index + 1, 0 empty: at most half full */
	size_t nslot;
};

/* The index of the len bytes at s, or STRTAB_NONE. */
size_t strtab_find(const struct strtab *t, const char *s, size_t len);
/* The index of the len bytes at s, copied in when new (*added set to 1
 * then, else 0; added may be NULL). */
size_t strtab_add(struct strtab *t, const char *s, size_t len, int *added);
/* The strings, in index order, for the caller to free (each and the
 * array); t is left empty. */
char **strtab_take(struct strtab *t, size_t *n);
void strtab_free(struct strtab *t);

#endif
