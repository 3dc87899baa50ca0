/*
 * daemon: the sampling loop of `iostatmon [OPTIONS]`. Runs in the
 * foreground; signals arrive through a signalfd, samples through a
 * wall-clock aligned timerfd (tick.h). See docs/iostatmon.8.
 */
#ifndef IOSTATMON_DAEMON_H
#define IOSTATMON_DAEMON_H

#include <stddef.h>
#include <stdint.h>

#include "devices.h"

#define EXIT_LOST  1	/* stopped, but some samples could not be written */
#define EXIT_USAGE 2
#define EXIT_FATAL 3

struct daemon_opts {
	uint64_t interval_ns;	/* >= 100 ms, a whole number of ms */
	uint64_t count;		/* stop after this many samples; 0: never */
	const char *log_dir;
	const char *host;
	const char *pidfile;	/* NULL: none */
	int retain_days;	/* 0: keep everything */
	size_t backlog_max;	/* bytes held in memory while writes fail */
	int verbose;		/* a line on stderr per sample written */
	struct dev_opts dev;
};

/* Run until the count is reached or SIGTERM/SIGINT. Returns the exit
 * status: 0, EXIT_LOST or EXIT_FATAL. */
int daemon_run(const struct daemon_opts *o);

#endif
