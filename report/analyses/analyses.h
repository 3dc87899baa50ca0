/*
 * analyses: one function per question. Each loads what it needs (through
 * query/query.h), computes, and returns a struct result; none prints.
 * NULL means an error, with the message in err; "no data" is a result
 * with a note saying so and empty tables. An error caused by the request
 * itself (an unknown snapshot id, an ambiguous --fs) starts with FMT_USAGE
 * (lib/fmt.h), which the command line turns into exit status 2; any other
 * error is fatal (status 3).
 */
#ifndef IOCENSUS_ANALYSES_H
#define IOCENSUS_ANALYSES_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#include "fmt.h"
#include "query/query.h"
#include "result/result.h"
#include "units.h"

/*
 * struct xdec (an_xdec.c): a decimal the user typed, kept exactly as
 * n / 10^k.
 *
 * The I/O analyses compare a minute's bytes with a percentage of a peak
 * exactly, in integers; a double cannot hold 2.7 or 5.555, so the
 * options that feed those comparisons (--peak, --host-peak, --threshold)
 * are parsed into this instead. Every struct xdec has k <= XDEC_MAX_FRAC
 * and n < XDEC_LIMIT, so n fits 60 bits and 10^k 20 bits.
 */
#define XDEC_MAX_FRAC	6
#define XDEC_LIMIT	1000000000000000000ull	/* 10^18 < 2^60 */

struct xdec {
	uint64_t n;
	unsigned k;		/* the value is n / 10^k */
};

/* The integer v (0 <= v < XDEC_LIMIT). */
#define XDEC_INT(v)	((struct xdec){ .n = (v), .k = 0 })

/* "digits[.digits]" only: no sign, exponent, suffix or blank; at most
 * XDEC_MAX_FRAC decimals (zeros after them are fine); n < XDEC_LIMIT.
 * Trailing zeros of the decimals are dropped, so k is the least that
 * holds the value. 0, or -1 leaving *out alone. */
int an_xdec_parse(const char *s, struct xdec *out);

/* 10^k for k <= XDEC_MAX_FRAC. */
uint64_t an_xdec_pow10(unsigned k);

/* The nearest double, for display. */
double an_xdec_value(struct xdec x);

/* The exact decimal ("5.555", "100") into buf; returns buf. */
char *an_xdec_fmt(struct xdec x, char *buf, size_t len);

/* A shaded window from --annotate FILE. */
struct annotation {
	int64_t from, to;	/* unix seconds, [from, to) */
	char *label;
};

/* What a growth projection follows (growth --metric): files, bytes
 * (sum of st_size), alloc (allocated bytes), used (fs_bytes -
 * fs_free_bytes; a project's allocated bytes) and inodes (fs_inodes -
 * fs_free_inodes; a project's entries). */
enum an_metric { AN_FILES, AN_BYTES, AN_ALLOC, AN_USED, AN_INODES };

/* A growth target as written (growth --target, lib/units.h): a count
 * ("1e9", "2M"), a size ("50TiB", "50TB") or a percentage of capacity
 * ("80%"). given == 0: none. */
struct an_target {
	int given;
	enum units_kind kind;
	double v;		/* a percentage as a fraction */
};

/* Every option of every analysis; main.c fills what the command takes,
 * the rest keep the defaults of an_opts_init(). */
struct an_opts {
	struct io_window win;		/* --from, --to (--quarter), --host;
					   the census analyses take the
					   snapshots started in [from, to) */
	int64_t every;			/* throughput bucket: 60, 3600,
	    86400 s */
	struct xdec peak;		/* --peak MiB/s; n == 0: observed
					   maximum (0 is not a valid peak) */
	struct xdec host_peak;		/* --host-peak MiB/s (burst load
					   classes, per server); n == 0:
					   observed maximum */
	struct xdec threshold_pct;	/* idle: % of peak (default 5) */
	int strict;			/* idle --strict */
	const int64_t *idle_edges;	/* duration class lower edges, s,
					   ascending; default 60, 600, 3600,
					   7200, 14400, 28800, 86400 */
	size_t nidle_edges;
	const uint64_t *burst_c;	/* activity thresholds, bytes per
					   interval; default 0, 128 KiB,
					       1 MiB */
	size_t nburst_c;
	const struct annotation *ann;	/* --annotate FILE, parsed */
	size_t nann;

	int64_t snap_a, snap_b;		/* diff A B */
	const int64_t *pairs;		/* diff A B A2 B2 ...: the further
					   pairs, npairs * 2 ids in order */
	size_t npairs;
	int64_t snapshot;		/* files --snapshot ID; 0: latest complete */
	const char *by;			/* diff: project|user|group|dir;
					   files: size|atime|mtime|ctime;
					   usage: project|user|group */
	const char *fs;			/* growth, files, usage, capacity
					   --fs; NULL or "all" with several:
					   every file system */
	const char *project;		/* growth/files --project */
	const char *const *exclude;	/* files --exclude-project,
	    repeatable */
	size_t nexclude;
	struct an_target target;	/* growth --target */
	enum an_metric metric;		/* growth --metric */
	int dir_depth;			/* diff --by dir: depth (default 1) */
	int no_paths;			/* report --no-paths: no path below
					   ROOT and no file name, for a page
					   to share */
};

void an_opts_init(struct an_opts *o);

/* Free what cli_annotate_load returned. */
void an_annotate_free(struct annotation *a, size_t n);
/* The windows on s's UTC-aligned buckets of width seconds (nb of them,
 * the first holding s->t0): per bucket, the labels of the windows that
 * overlap it, "; "-separated in file order; NULL where none does. */
char **an_annotate_mark(const struct minute_series *s, int64_t width,
    size_t nb, const struct annotation *a, size_t n);
void an_annotate_marks_free(char **mark, size_t nb);
/* Add table "annotations" to r: per window, in file order, from, to,
 * label, its minutes in s, and how many of them are complete or not. */
void an_annotate_table(struct result *r, const struct minute_series *s,
    const struct annotation *a, size_t n);

/* census (snapshot) questions */
struct result *an_snapshots(sqlite3 *db, const struct an_opts *o,
    char *err, size_t errlen);
/* The census as Prometheus gauges (an_metrics.c): one table per metric
 * family, keyed by the metric name, titled by its HELP text; the columns
 * are the labels (fs, project), the value last. Per file system, from
 * its latest complete snapshot; iocensus_snapshot_complete says whether
 * its latest snapshot is that one. A capacity family (v_snapshot's fs_*
 * columns) has a sample where that snapshot records the value. */
struct result *an_metrics(sqlite3 *db, const struct an_opts *o,
    char *err, size_t errlen);
struct result *an_diff(sqlite3 *db, const struct an_opts *o, char *err,
    size_t errlen);
struct result *an_growth(sqlite3 *db, const struct an_opts *o, char *err,
    size_t errlen);
struct result *an_files(sqlite3 *db, const struct an_opts *o, char *err,
    size_t errlen);
struct result *an_usage(sqlite3 *db, const struct an_opts *o, char *err,
    size_t errlen);
struct result *an_capacity(sqlite3 *db, const struct an_opts *o,
    char *err, size_t errlen);

/* The points of a file system (an_points.c): sort s by start time, then
 * id; the distinct file-system names of s in its order, into names (room
 * for n), returning how many; and the points of file system fs in sorted
 * s: its complete snapshots started in [from, to) (io_window_lo/hi of a
 * window; INT64_MIN and INT64_MAX: no bound), one per
 * day (of two less than a day apart, the later), as indexes into s in
 * keep[] (room for n), returning how many and *nrescan the rescans. */
void an_points_sort(struct snap *s, size_t n);
size_t an_points_fs_names(const struct snap *s, size_t n,
    const char **names);
size_t an_points_keep(const struct snap *s, size_t n, const char *fs,
    int64_t from, int64_t to, size_t *keep, size_t *nrescan);

/* The name of a metric ("files", ...), and the metric of a name
 * (an_metric.c): 0, or -1 when it is none. */
const char *an_metric_name(enum an_metric m);
int an_metric_parse(const char *s, enum an_metric *m);

/* I/O questions */
struct result *an_throughput(sqlite3 *db, const struct an_opts *o,
    char *err, size_t errlen);
struct result *an_cdf(sqlite3 *db, const struct an_opts *o, char *err,
    size_t errlen);
struct result *an_idle(sqlite3 *db, const struct an_opts *o, char *err,
    size_t errlen);
struct result *an_burst(sqlite3 *db, const struct an_opts *o, char *err,
    size_t errlen);
struct result *an_devices(sqlite3 *db, const struct an_opts *o, char *err,
    size_t errlen);

/* The report's opening page: capacity, files, growth, projected dates,
 * busiest projects, burstiness, drawn from the results above (it reads
 * their tables; it computes nothing new). */
struct result *an_summary(struct result *const *parts, size_t nparts);

#endif
