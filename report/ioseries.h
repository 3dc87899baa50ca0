/*
 * ioseries: the minute-level data that the I/O analyses read, loaded from
 * the derived tables of sql/io.sql. Loading never computes a statistic;
 * it only hands over what ingest stored, minute by minute.
 *
 * Minutes are UTC-aligned, half-open [t, t + 60) and labelled by t. A
 * minute is COMPLETE when every device expected in it has a value for it,
 * MISSING when some expected device has none, NONE when no device was
 * expected at all (before the first or after the last data). Values of
 * a minute that is not COMPLETE are 0 and must never be used as values.
 */
#ifndef IOCENSUS_IOSERIES_H
#define IOCENSUS_IOSERIES_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

enum minute_state { MIN_NONE = 0, MIN_MISSING = 1, MIN_COMPLETE = 2 };

/* The time window and hosts of a question. from/to: unix seconds, UTC,
 * [from, to); 0 means "from the first data" / "to the end of the last".
 * hosts: glob patterns (lib/globlist); none means every host. */
struct io_window {
	int64_t from, to;
	const char *const *hosts;
	size_t nhosts;
};

/* Aggregate over the selected hosts' devices, one entry per calendar
 * minute of the window. */
struct minute_series {
	int64_t t0;		/* start of minute 0 (a multiple of 60) */
	size_t n;		/* calendar minutes */
	uint8_t *state;		/* enum minute_state */
	uint64_t *rd, *wr;	/* bytes read / written in the minute */
	uint64_t *ios;		/* requests completed (reads, writes,
				   discards, flushes) */
	size_t nhost, ndev;	/* hosts and devices with data in the window */
};

/* A window's minutes are held in memory, 25 bytes each (zeroed pages: only
 * minutes with data become resident). 200 years, at most 2.5 GiB, is the
 * most one question loads: beyond any real data, short of exhausting
 * memory on a mistyped year. */
#define IO_MAX_MINUTES 105192000

/* Load the window. With no host filter this reads io_minute; with one it
 * sums the matching hosts' io_host_hour rows (a minute is COMPLETE when
 * every selected host that expected devices in it is complete). An empty
 * database or window gives n == 0 (not an error); a window longer than
 * IO_MAX_MINUTES is a usage error (AN_USAGE). 0, or -1 with err. */
int io_load_minutes(sqlite3 *db, const struct io_window *w,
    struct minute_series *s, char *err, size_t errlen);
void minute_series_free(struct minute_series *s);

/* Hosts with data in the window (and matching its patterns), by name. */
struct host_list {
	size_t n;
	char **name;
};
int io_load_hosts(sqlite3 *db, const struct io_window *w,
    struct host_list *hl, char *err, size_t errlen);
void host_list_free(struct host_list *hl);

/* One calendar minute across the hosts of a host_list (index = position
 * in the list). */
struct host_minute {
	int64_t t;
	size_t nhost;
	const uint8_t *state;		/* enum minute_state, per host */
	const uint64_t *rd, *wr, *ios;	/* per host; 0 unless COMPLETE */
};
typedef int (*host_minute_fn)(const struct host_minute *m, void *arg);

/* Call fn for every calendar minute of the window, in time order (the
 * window as io_load_minutes resolves it). Memory: one hour of the hosts
 * at a time. fn returning non-zero stops the scan (returned as is). */
int io_scan_host_minutes(sqlite3 *db, const struct io_window *w,
    const struct host_list *hl, host_minute_fn fn, void *arg, char *err,
    size_t errlen);

/* Per-device totals over the window, from io_dev_hour (whole hours) and
 * io_chunk (the partial hours at the window's edges), sorted by host then
 * device, for the selected devices expected somewhere in the window. Sums
 * are over the device's valid minutes in [from, to) (the values of its
 * samples split over minutes as the minute series are): a gap, a sample
 * across a reset or a gap, and time outside the window add nothing. */
struct dev_stat {
	char *host, *device;
	uint64_t minutes;		/* valid minutes: 60 s covered each */
	uint64_t samples;		/* bridged samples ending in them */
	uint64_t rd_bytes, wr_bytes, ios, rd_ios, wr_ios, oth_ios, rd_ms,
	    wr_ms, io_ms;		/* ios: requests of every kind */
	uint64_t peak_bytes, peak_ios;	/* busiest valid minute */
	int64_t peak_t;			/* its start; -1 if no valid minute */
};
int io_load_dev_stats(sqlite3 *db, const struct io_window *w,
    struct dev_stat **out, size_t *n, char *err, size_t errlen);
void dev_stats_free(struct dev_stat *d, size_t n);

#endif
