/*
 * tick: the sampling schedule. A periodic CLOCK_REALTIME timerfd armed at
 * the next wall-clock multiple of the interval, with TFD_TIMER_CANCEL_ON_SET
 * so that a stepped clock is noticed and the schedule re-armed (timerfd_create(2)). The expiration count says how many boundaries passed unsampled.
 */
#ifndef IOSTATMON_TICK_H
#define IOSTATMON_TICK_H

#include <stddef.h>
#include <stdint.h>

struct tick {
	int fd;
	uint64_t interval_ns;
	uint64_t next_ns;	/* the boundary the timer fires for next */
};

/* Create the timer and arm it. 0, or -1 with a message in err. */
int tick_open(struct tick *t, uint64_t interval_ns, char *err, size_t len);
void tick_close(struct tick *t);

/* Arm at the first multiple of the interval after now. 0 or -1 (errno). */
int tick_arm(struct tick *t);

/* Consume an expiration (the fd is readable). Returns 1 when a sample is
 * due at *boundary_ns with *missed boundaries skipped before it; 2 when
 * the clock was stepped (the timer is re-armed, nothing is due); 0 when
 * nothing happened; -1 with errno on error. */
int tick_read(struct tick *t, uint64_t *boundary_ns, uint64_t *missed);

/* Nanoseconds of clock id now. */
uint64_t tick_now(int clock_id);

#endif
