/*
 * traffic_int: what every I/O analysis shares: units, what it says about
 * its data before it says anything else, and the one exact way to compare
 * a minute with a share of the peak.
 *
 *  - traffic_coverage_* (traffic_coverage.c, traffic_coverage_window.c):
 *    complete vs calendar minutes of a minute_series, the UTC days without
 *    a complete minute, and the coverage note of the brief ("Coverage: N
 *    of M calendar minutes complete (P%); D of E days have no complete
 *    minute." plus the window).
 *  - traffic_peak_* (traffic_peak.c): the peak P, either the observed
 *    maximum of X over the complete minutes (kept as integer bytes per
 *    minute, so comparisons are exact) or the configured --peak in MiB/s,
 *    kept as the decimal the user typed (opts/opts.h).
 *  - traffic_peak_cmp: the sign of (bytes - pct% of P), exact, with pct the
 *    decimal a / 10^i as typed: against an observed peak Pb it compares
 *    bytes * 100 * 10^i with a * Pb; against a configured peak b / 10^j
 *    MiB/s it compares 100 * 10^(i+j) * bytes with a * b * 60 * 2^20,
 *    both in 128-bit integers (a Python oracle gets the same with
 *    fractions.Fraction of the decimal strings). "Below" is < 0.
 *
 * Units: X(m) in MiB/s = bytes of the minute / 60 / 2^20.
 */
#ifndef IOCENSUS_TRAFFIC_INT_H
#define IOCENSUS_TRAFFIC_INT_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#include "traffic.h"
#include "query/query.h"
#include "result/result.h"

#define IO_MINUTE_S	60
#define IO_DAY_S	86400
#define IO_MIB		1048576.0

/* Bytes moved in one minute as MiB/s. */
static inline double
traffic_mib_s(uint64_t bytes_per_minute)
{
	return (double)bytes_per_minute / IO_MINUTE_S / IO_MIB;
}

/* Mean MiB/s of `bytes` moved over `minutes` whole minutes. */
static inline double
traffic_mean_mib_s(double bytes, double minutes)
{
	return bytes / minutes / IO_MINUTE_S / IO_MIB;
}

struct io_coverage {
	int64_t from, to;	/* the window: [t0, t0 + 60 n) */
	size_t calendar;	/* calendar minutes (n of the series) */
	size_t complete;	/* COMPLETE minutes */
	size_t missing;		/* MISSING minutes (NONE = calendar - both) */
	size_t days;		/* UTC days the window touches */
	size_t days_empty;	/* of those, days without a complete minute */
	size_t nhost, ndev;	/* from the series */
	int cut;		/* no --from, and the window's start was
				   cut to IO_DEFAULT_DAYS: the data from
				   data_from to from is left out */
	int64_t data_from;
	int partial;		/* set by the caller: values of its own
				   (a device's valid minutes) without a
				   complete minute */
};

void traffic_coverage_count(const struct minute_series *s,
    struct io_coverage *c);

/* Complete share, 0..1 (0 when calendar == 0). */
double traffic_coverage_share(const struct io_coverage *c);

/* Notes every I/O result carries: with data, the coverage sentence, the
 * window ("Window: 2010-01-23 00:00 to 2010-03-26 00:00 UTC; 3 hosts,
 * 12 devices.", each noun agreeing with its count); with no complete
 * minute, "No I/O data in the window." (the caller then leaves its
 * statistics empty; throughput still lists the window's buckets), or when
 * c->partial, that no minute is complete. Also the stale-roll-up note when
 * db (may be NULL) has dirty hours. Returns c->complete. */
size_t traffic_coverage_notes(struct result *r, sqlite3 *db,
    const struct io_coverage *c);

struct io_peak {
	int configured;		/* 1: --peak given; 0: observed */
	uint64_t bytes;		/* observed: max minute bytes (0 if none) */
	int64_t t;		/* observed: that minute's start; -1 if none
				   or configured */
	struct xdec cfg;	/* configured: P in MiB/s, exact */
	double mib_s;		/* P in MiB/s (both kinds), for display */
};

/* configured.n > 0: that many MiB/s; else the observed maximum of rd + wr
 * over the COMPLETE minutes of s (the first such minute on ties). */
void traffic_peak_resolve(const struct minute_series *s, struct xdec configured,
    struct io_peak *p);
/* The same for a maximum found elsewhere (per host or device). */
void traffic_peak_observed(struct io_peak *p, uint64_t bytes, int64_t t);
/* mib_s.n > 0 (the command line allows at most 2^40 MiB/s). */
void traffic_peak_configured(struct io_peak *p, struct xdec mib_s);

/* "observed" or "configured". */
const char *traffic_peak_source(const struct io_peak *p);

/* Sign of (bytes - pct% of P): -1, 0 or 1, exact as described above,
 * for every struct xdec (the 128-bit bounds are in traffic_peak.c). */
int traffic_peak_cmp(const struct io_peak *p, uint64_t bytes, struct xdec pct);
/* bytes < pct% of P. */
int traffic_peak_below_pct(const struct io_peak *p, uint64_t bytes,
    struct xdec pct);
/* pct% of P in MiB/s, for display. */
double traffic_peak_pct_mib_s(const struct io_peak *p, struct xdec pct);
/* bytes / P as one correctly rounded division of the exact values (NaN
 * when P is 0), for display. */
double traffic_peak_ratio(const struct io_peak *p, uint64_t bytes);

/* Add the coverage notes of w to r; *complete = its complete minutes
 * (0: "No I/O data in the window.", the caller leaves its tables empty;
 * unless `partial`: the caller has values of its own, and the note says
 * that no minute is complete). 0, or -1 with err. */
int traffic_coverage_window_notes(sqlite3 *db, const struct io_window *w,
    int partial,
    struct result *r, size_t *complete, char *err, size_t errlen);

/* The windows on s's UTC-aligned buckets of width seconds (nb of them,
 * the first holding s->t0): per bucket, the labels of the windows that
 * overlap it, "; "-separated in file order; NULL where none does. */
char **traffic_annotate_mark(const struct minute_series *s, int64_t width,
    size_t nb, const struct annotation *a, size_t n);
void traffic_annotate_marks_free(char **mark, size_t nb);
/* Add table "annotations" to r: per window, in file order, from, to,
 * label, its minutes in s, and how many of them are complete or not. */
void traffic_annotate_table(struct result *r, const struct minute_series *s,
    const struct annotation *a, size_t n);

#endif
