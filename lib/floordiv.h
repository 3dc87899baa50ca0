/*
 * floordiv: floor division of times, for the UTC-aligned minute, hour or
 * day that holds an instant (C's / truncates toward zero instead).
 */
#ifndef IOCENSUS_FLOORDIV_H
#define IOCENSUS_FLOORDIV_H

#include <stdint.h>

/* floor(x / d) for d > 0, also for x < 0. */
static inline int64_t
floor_div64(int64_t x, int64_t d)
{
	int64_t q = x / d;

	return (x % d != 0 && x < 0) ? q - 1 : q;
}

/* t rounded down to a multiple of width (floor, also for t < 0): the
 * UTC-aligned bucket, minute, hour or day holding t. */
static inline int64_t
floor_align64(int64_t t, int64_t width)
{
	return floor_div64(t, width) * width;
}

#endif
