/*
 * traffic: the I/O questions, over the minutes the roll-up derived from
 * the samples: throughput, the CDF of a minute's throughput, idle runs,
 * burstiness with the hourly load classes, devices, and device health. Each follows the
 * contract of opts/opts.h: it takes a struct opts and returns a
 * struct result, or NULL with err.
 */
#ifndef IOCENSUS_TRAFFIC_H
#define IOCENSUS_TRAFFIC_H

#include <stddef.h>

#include <sqlite3.h>

#include "opts/opts.h"
#include "query/query.h"
#include "result/result.h"

struct result *traffic_throughput(sqlite3 *db, const struct opts *o,
    char *err, size_t errlen);
struct result *traffic_cdf(sqlite3 *db, const struct opts *o, char *err,
    size_t errlen);
struct result *traffic_idle(sqlite3 *db, const struct opts *o, char *err,
    size_t errlen);
struct result *traffic_burst(sqlite3 *db, const struct opts *o, char *err,
    size_t errlen);
struct result *traffic_devices(sqlite3 *db, const struct opts *o, char *err,
    size_t errlen);
/* Device health (traffic_health.c): each device against its peers. */
struct result *traffic_health(sqlite3 *db, const struct opts *o, char *err,
    size_t errlen);
/* The family iocensus_device_slow{host,device} of the same verdicts, as
 * a table for render_prom: 1 slow, 0 healthy, no value when a device
 * cannot be called. */
struct result *traffic_health_metrics(sqlite3 *db, const struct opts *o,
    char *err, size_t errlen);

/* The I/O families of `iocensus metrics` (traffic_metrics.c), a table
 * each for render_prom, labelled by host: every host's
 * iocensus_io_last_sample_timestamp_seconds, and of its latest complete
 * UTC day in the 366 up to the end of the data (none without one)
 * iocensus_io_day_timestamp_seconds, iocensus_io_day_read_bytes and
 * iocensus_io_day_write_bytes. o takes no option yet. */
struct result *traffic_metrics(sqlite3 *db, const struct opts *o,
    char *err, size_t errlen);

#endif
