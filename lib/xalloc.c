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
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		oom(n * size);
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
	size_t c = *cap ? *cap : first, bytes;

	if (n < *cap)
		return p;
	while (c <= n) {
		if (c > SIZE_MAX / 2)
			oom(SIZE_MAX);
		c *= 2;
	}
	if (__builtin_mul_overflow(c, size, &bytes))
		oom(SIZE_MAX);
	p = xrealloc(p, bytes);
	*cap = c;
	return p;
}
