#include "xalloc.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void
oom(size_t n)
{
	fprintf(stderr, "%s: out of memory allocating %zu bytes\n",
	    program_invocation_short_name, n);
	exit(3);
}

/* n elements of size bytes asked for: out of memory when their product
 * fits, else the product itself could not be held. */
static void
oom_array(size_t n, size_t size)
{
	size_t bytes;

	if (!__builtin_mul_overflow(n, size, &bytes))
		oom(bytes);
	fprintf(stderr, "%s: out of memory: %zu elements of %zu bytes "
	    "exceed the address space\n", program_invocation_short_name, n,
	    size);
	exit(3);
}

void *
xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		oom(n);
	return p;
}

void *
xcalloc(size_t n, size_t size)
{
	void *p;

	(void)xmul(n, size);	/* as xreallocarray, before a sanitizer */
	if ((p = calloc(n ? n : 1, size ? size : 1)) == NULL)
		oom_array(n, size);
	return p;
}

void *
xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q)
		oom(n);
	return q;
}

size_t
xmul(size_t a, size_t b)
{
	size_t p;

	if (__builtin_mul_overflow(a, b, &p))
		oom_array(a, b);
	return p;
}

/* The product is checked before reallocarray(3) checks it again: a
 * sanitizer's allocator reports an overflowing reallocarray as an error
 * of its own, where this exits with the message of the other x calls. */
void *
xreallocarray(void *p, size_t n, size_t size)
{
	void *q;

	(void)xmul(n, size);
	if ((q = reallocarray(p, n ? n : 1, size ? size : 1)) == NULL)
		oom_array(n, size);
	return q;
}

char *
xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *
xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

void *
xgrow(void *p, size_t n, size_t *cap, size_t size, size_t first)
{
	size_t c = *cap ? *cap : first;

	if (n < *cap)
		return p;
	while (c <= n) {
		if (c > SIZE_MAX / 2)
			oom(SIZE_MAX);
		c *= 2;
	}
	p = xreallocarray(p, c, size);
	*cap = c;
	return p;
}
