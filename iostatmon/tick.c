/*
 * tick: wall-clock aligned sampling times. See tick.h.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "tick.h"

#define NS 1000000000ULL

uint64_t
tick_now(int clock_id)
{
	struct timespec ts;

	clock_gettime(clock_id, &ts);
	return (uint64_t)ts.tv_sec * NS + (uint64_t)ts.tv_nsec;
}

static struct timespec
to_ts(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / NS), (long)(ns % NS) };

	return ts;
}

int
tick_arm(struct tick *t)
{
	uint64_t now = tick_now(CLOCK_REALTIME);
	struct itimerspec its;

	t->next_ns = (now / t->interval_ns + 1) * t->interval_ns;
	its.it_value = to_ts(t->next_ns);
	its.it_interval = to_ts(t->interval_ns);
	return timerfd_settime(t->fd, TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET,
	    &its, NULL);
}

int
tick_open(struct tick *t, uint64_t interval_ns, char *err, size_t len)
{
	t->interval_ns = interval_ns;
	t->fd = timerfd_create(CLOCK_REALTIME, TFD_CLOEXEC | TFD_NONBLOCK);
	if (t->fd < 0 || tick_arm(t) < 0) {
		snprintf(err, len, "timerfd (CLOCK_REALTIME): %s",
		    strerror(errno));
		if (t->fd >= 0)
			close(t->fd);
		t->fd = -1;
		return -1;
	}
	return 0;
}

void
tick_close(struct tick *t)
{
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
}

int
tick_read(struct tick *t, uint64_t *boundary_ns, uint64_t *missed)
{
	uint64_t exp;
	ssize_t n = read(t->fd, &exp, sizeof exp);

	if (n < 0 && errno == ECANCELED)
		return tick_arm(t) < 0 ? -1 : 2;
	if (n < 0 && errno == EAGAIN)
		return 0;
	if (n != (ssize_t)sizeof exp) {
		if (n >= 0)
			errno = EIO;
		return -1;
	}
	*boundary_ns = t->next_ns + (exp - 1) * t->interval_ns;
	*missed = exp - 1;
	t->next_ns = *boundary_ns + t->interval_ns;
	return 1;
}
