/*
 * interval: a sampling interval as written on the command line (the
 * daemon's -i, import's --interval): seconds with at most millisecond
 * precision, read as exact decimal digits ("0.1" is 100 ms, with no
 * binary rounding), between a least value and a day.
 */
#ifndef IOSTATMON_INTERVAL_H
#define IOSTATMON_INTERVAL_H

#include <stdint.h>

#define INTERVAL_MAX_MS	86400000ULL	/* a day */

/* arg as nanoseconds into *ns, refused (-1, with a message on stderr
 * starting with prog) unless it lies in [min_ms, INTERVAL_MAX_MS] ms. */
int interval_parse(const char *prog, const char *arg, uint64_t min_ms,
    uint64_t *ns);

#endif
