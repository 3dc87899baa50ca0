/*
 * throttle_int: a shared cap on stat calls per second (--max-rate), for
 * metadata servers that other users depend on. Threads reserve time slots
 * in batches from one atomic clock, so an unthrottled scan pays nothing and
 * a throttled one pays one atomic add per batch.
 */
#ifndef FSSCAN_THROTTLE_INT_H
#define FSSCAN_THROTTLE_INT_H

#include <stdint.h>

struct throttle {
	uint64_t rate;			/* operations per second, 0 = off */
	uint64_t batch;			/* slots reserved at once */
	uint64_t batch_ns;		/* duration of one batch */
	_Atomic uint64_t next_ns;	/* start of the next free slot */
};

struct throttle_local {
	uint64_t left;			/* slots still reserved by this thread */
};

void throttle_init(struct throttle *t, uint64_t rate);
/* Account one operation; sleeps when the caller is ahead of the rate. */
void throttle_op(struct throttle *t, struct throttle_local *l);

#endif
