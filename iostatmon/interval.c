/*
 * interval: exact sampling intervals (interval.h).
 */
#include "interval.h"

#include <stdio.h>

#include "fmt.h"

static int
refuse(const char *prog, const char *arg, uint64_t min_ms)
{
	fmt_diag(stderr, prog, "--interval %s: want seconds from %g to %llu,"
	    " in whole ms", arg, (double)min_ms / 1000,
	    (unsigned long long)(INTERVAL_MAX_MS / 1000));
	return -1;
}

int
interval_parse(const char *prog, const char *arg, uint64_t min_ms,
    uint64_t *ns)
{
	const char *p = arg;
	uint64_t ms = 0;
	int frac = -1;		/* digits after the point, -1 before it */
	int digits = 0;

	for (; *p; p++) {
		if (*p == '.' && frac < 0) {
			frac = 0;
			continue;
		}
		if (*p < '0' || *p > '9' || ms > INTERVAL_MAX_MS)
			return refuse(prog, arg, min_ms);
		digits++;
		if (frac >= 0 && ++frac > 3) {
			if (*p != '0')
				return refuse(prog, arg, min_ms);
			continue;
		}
		ms = ms * 10 + (uint64_t)(*p - '0');
	}
	for (int k = frac < 0 ? 0 : frac; k < 3 && ms <= INTERVAL_MAX_MS; k++)
		ms *= 10;
	if (digits == 0 || ms < min_ms || ms > INTERVAL_MAX_MS)
		return refuse(prog, arg, min_ms);
	*ns = ms * 1000000;
	return 0;
}
