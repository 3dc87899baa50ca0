/*
 * throttle: see throttle_int.h; and the monotonic clock (walk.h).
 */
#include <stdatomic.h>
#include <time.h>

#include "i128.h"
#include "throttle_int.h"
#include "walk.h"

#define NS 1000000000ull
#define MAX_CREDIT_NS (NS / 4)	/* idle time banked for a later burst */

uint64_t
throttle_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NS + (uint64_t)ts.tv_nsec;
}

void
throttle_init(struct throttle *t, uint64_t rate)
{
	t->rate = rate;
	/* About 100 reservations per second keep sleeps short and smooth. */
	t->batch = rate >= 100 ? rate / 100 : 1;
	/* batch * NS passes 2^64 from a rate of 2 * 10^12 on. */
	t->batch_ns = rate ? (uint64_t)((u128)t->batch * NS / rate) : 0;
	atomic_init(&t->next_ns, throttle_mono_ns());
}

void
throttle_op(struct throttle *t, struct throttle_local *l)
{
	uint64_t slot, now, floor;

	if (!t->rate)
		return;
	if (l->left) {
		l->left--;
		return;
	}
	now = throttle_mono_ns();
	floor = now > MAX_CREDIT_NS ? now - MAX_CREDIT_NS : 0;
	slot = atomic_load_explicit(&t->next_ns, memory_order_relaxed);
	/* Do not let a long pause turn into an unbounded burst. */
	while (slot < floor && !atomic_compare_exchange_weak(&t->next_ns, &slot,
	    floor))
		;
	slot = atomic_fetch_add(&t->next_ns, t->batch_ns);
	l->left = t->batch - 1;
	if (slot > now) {
		uint64_t d = slot - now;
		struct timespec ts = { (time_t)(d / NS), (long)(d % NS) };
		nanosleep(&ts, NULL);
	}
}
