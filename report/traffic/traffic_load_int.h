/*
 * traffic_load_int: Beacon's hourly load classes (docs/analyses.md)
 * per server. The burst analysis owns the one scan over the host minutes
 * and feeds every minute here; traffic_load_finish then classes the hours
 * and adds the tables "load_classes" and "load_counts" and a heat-map
 * figure.
 */
#ifndef IOCENSUS_TRAFFIC_LOAD_INT_H
#define IOCENSUS_TRAFFIC_LOAD_INT_H

#include <stddef.h>

#include <sqlite3.h>

#include "traffic.h"
#include "query/query.h"
#include "result/result.h"

struct load_acc;

/* host_peak_mib_s.n > 0: the configured per-server peak (--host-peak);
 * else the observed maximum over all hosts and complete minutes. */
struct load_acc *traffic_load_new(size_t nhost, struct xdec host_peak_mib_s);
/* One calendar minute, in time order. */
void traffic_load_minute(struct load_acc *a, const struct host_minute *m);
/* Class every host hour and add the tables, figure and notes to r. With
 * an observed reference it rescans the hours that can hold a minute above
 * 75% of it (the share of time above 75% of peak needs the final peak).
 * 0, or -1 with err. */
int traffic_load_finish(struct load_acc *a, sqlite3 *db,
    const struct io_window *w, const struct host_list *hl, struct result *r,
    char *err, size_t errlen);
void traffic_load_free(struct load_acc *a);

#endif
