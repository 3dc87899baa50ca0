/*
 * opts: what every question is asked with. A question (traffic/traffic.h,
 * space/space.h) takes a struct opts, loads what it needs (through
 * query/query.h), computes, and returns a struct result; none prints.
 * NULL means an error, with the message in err; "no data" is a result
 * with a note saying so and empty tables. An error caused by the request
 * itself (an unknown snapshot id, an ambiguous --fs) starts with FMT_USAGE
 * (lib/fmt.h), which the command line turns into exit status 2; any other
 * error is fatal (status 3).
 *
 * Here are the options (opts.c: their defaults), the exact decimals
 * some are parsed into (opts_xdec.c) and the names of the growth metrics
 * (opts_metric.c).
 */
#ifndef IOCENSUS_OPTS_H
#define IOCENSUS_OPTS_H

#include <stddef.h>
#include <stdint.h>

#include "fmt.h"
#include "query/query.h"
#include "units.h"

/*
 * struct xdec (opts_xdec.c): a decimal the user typed, kept exactly as
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
int opts_xdec_parse(const char *s, struct xdec *out);

/* 10^k for k <= XDEC_MAX_FRAC. */
uint64_t opts_xdec_pow10(unsigned k);

/* The nearest double, for display. */
double opts_xdec_value(struct xdec x);

/* The exact decimal ("5.555", "100") into buf; returns buf. */
char *opts_xdec_fmt(struct xdec x, char *buf, size_t len);

/* A shaded window from --annotate FILE. */
struct annotation {
	int64_t from, to;	/* unix seconds, [from, to) */
	char *label;
};

/* Free what cli_annotate_load returned. */
void opts_annotations_free(struct annotation *a, size_t n);

/* What a growth projection follows (growth --metric): files, bytes
 * (sum of st_size), alloc (allocated bytes), used (fs_bytes -
 * fs_free_bytes; a project's allocated bytes) and inodes (fs_inodes -
 * fs_free_inodes; a project's entries). */
enum opts_metric {
	OPTS_FILES, OPTS_BYTES, OPTS_ALLOC, OPTS_USED, OPTS_INODES
};

/* A growth target as written (growth --target, lib/units.h): a count
 * ("1e9", "2M"), a size ("50TiB", "50TB") or a percentage of capacity
 * ("80%"). given == 0: none. */
struct opts_target {
	int given;
	enum units_kind kind;
	double v;		/* a percentage as a fraction */
};

/* The periods of prune's rules (--keep-daily N, ...): a UTC day, an ISO
 * week (Monday to Sunday, UTC), a calendar month, a calendar quarter. */
enum opts_period { OPTS_DAY, OPTS_WEEK, OPTS_MONTH, OPTS_QUARTER,
	OPTS_NPERIOD };

/* Every option of every analysis; main.c fills what the command takes,
 * the rest keep the defaults of opts_init(). */
struct opts {
	struct io_window win;		/* --from, --to (--quarter), --host;
					   the census analyses take the
					   snapshots started in [from, to);
					   diff, without ids, the pair of
					   each file system at its ends */
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
	struct xdec factor;		/* health --factor K (> 1): slow
					   above K times the peers' median;
					   default 3 */
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
	const char *fs;			/* growth, files, usage, capacity, prune
					   --fs; NULL or "all" with several:
					   every file system */
	const char *project;		/* growth/files --project */
	const char *const *exclude;	/* files --exclude-project,
	    repeatable */
	size_t nexclude;
	struct opts_target target;	/* growth --target */
	enum opts_metric metric;	/* growth --metric */
	const char *age;		/* cold --metric: "atime" (not read,
					   the default) or "mtime" (not
					   modified) */
	int64_t days;			/* cold --days; 0: every threshold
					   the snapshot recorded */
	int dir_depth;			/* diff --by dir: depth; du: levels
					   below PATH (default 1) */
	const char *path;		/* du PATH; NULL: the root */
	int no_paths;			/* report --no-paths: no path below
					   ROOT and no file name, for a page
					   to share */
	uint32_t keep[OPTS_NPERIOD];	/* prune --keep-daily N ...: the
					   periods of each kind that keep
					   their newest complete snapshot;
					   0: none by that rule */
	int keep_given;			/* some --keep-* was given */
	int dry_run;			/* prune --dry-run */
	int force;			/* forget --force: running ones too */
	const int64_t *ids;		/* forget ID...: nids snapshot ids */
	size_t nids;
	size_t top;			/* --top N: metrics, the N projects
					   of each file system with the most
					   bytes, the rest as "other"; the
					   lists of the other commands are
					   capped by result_top; 0: all */
};

void opts_init(struct opts *o);

/* The name of a metric ("files", ...), and the metric of a name
 * (opts_metric.c): 0, or -1 when it is none. */
const char *opts_metric_name(enum opts_metric m);
int opts_metric_parse(const char *s, enum opts_metric *m);

#endif
