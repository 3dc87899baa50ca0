/*
 * cliparse: option values of iocensus, parsed strictly (trailing junk,
 * overflow and empty strings are errors).
 */
#ifndef IOCENSUS_CLIPARSE_H
#define IOCENSUS_CLIPARSE_H

#include <stdint.h>

/* A time in UTC: unix seconds ("1264982400", "@1264982400"), or ISO 8601
 * "2010-02-01", "2010-02-01T09:00", "2010-02-01 09:00:00", optional "Z".
 * 0 or -1. */
int parse_time(const char *s, int64_t *out);
/* A duration: "90" (seconds), "90s", "10m", "1h", "2d", "1w". 0 or -1. */
int parse_duration(const char *s, int64_t *out);
/* A size: "0", "131072", "128K", "128KiB", "1M", "1MiB", "1G" (binary
 * units). 0 or -1. */
int parse_size(const char *s, uint64_t *out);
/* A number: "1e9", "1000000000", "95.7M" (decimal suffixes K M G T for
 * counts). 0 or -1. */
int parse_count(const char *s, double *out);
/* Comma-separated lists of the above. Returns the count, or -1. */
int parse_duration_list(const char *s, int64_t *out, int max);
int parse_size_list(const char *s, uint64_t *out, int max);

#endif
