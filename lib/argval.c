/*
 * argval: strict decimal option values (argval.h).
 */
#include "argval.h"

#include <stddef.h>

const char *
argval_digits(const char *s, uint64_t *v)
{
	const char *p = s;
	uint64_t x = 0;

	for (; *p >= '0' && *p <= '9'; p++) {
		unsigned d = (unsigned)(*p - '0');
		if (x > (UINT64_MAX - d) / 10)
			return NULL;
		x = x * 10 + d;
	}
	if (p == s)
		return NULL;
	*v = x;
	return p;
}

int
argval_u64(const char *s, uint64_t max, uint64_t *v)
{
	uint64_t x;
	const char *end = argval_digits(s, &x);

	if (!end || *end != '\0' || x > max)
		return -1;
	*v = x;
	return 0;
}
