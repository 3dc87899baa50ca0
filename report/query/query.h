/*
 * query: the loaders between the database and the analyses: rows of the
 * census and I/O tables become plain structs. Loading computes no
 * statistic; a value missing in the database stays missing here.
 *
 *  - query_minutes.c, query_scan.c, query_devstats.c (with query_sel.c
 *    and query_seldev.c): the I/O minutes, host minutes and device totals
 *    of a window;
 *  - query_devhours.c: the device hours of a window, hour by hour;
 *  - query_hosts.c: the hosts of a window, and the --host check;
 *  - query_quar.c: the quarantined samples, per host;
 *  - query_ident.c: the devices' current identities;
 *  - query_census.c: snapshots, groups, histograms, extremes, top lists;
 *  - query_private.c: the private project names and their labels.
 */
#ifndef IOCENSUS_QUERY_H
#define IOCENSUS_QUERY_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#include "hist.h"
#include "strtab.h"

/*
 * I/O minutes (query_minutes.c, query_scan.c, query_devstats.c): the
 * minute-level data that the I/O analyses read, loaded from the derived
 * tables of sql/io.sql. Loading never computes a statistic; it only hands
 * over what ingest stored, minute by minute.
 *
 * Minutes are UTC-aligned, half-open [t, t + 60) and labelled by t. A
 * minute is COMPLETE when every device expected in it has a value for it,
 * MISSING when some expected device has none, NONE when no device was
 * expected at all (before the first or after the last data). Values of
 * a minute that is not COMPLETE are 0 and must never be used as values.
 */

enum minute_state { MIN_NONE = 0, MIN_MISSING = 1, MIN_COMPLETE = 2 };

/* The time window and hosts of a question. from/to: unix seconds, UTC,
 * [from, to), each used only where has_from/has_to says it was given
 * (any time of lib/epoch.h, 1970-01-01 too); one not given means "from
 * the first data" / "to the end of the last", except that a start from
 * the data is at most IO_DEFAULT_DAYS before the end: the window a
 * question gets without --from never passes the limits below, however
 * long the time its data claims to span. A zeroed window is no window.
 * hosts: glob patterns (lib/globlist); none means every host. */
#define IO_DEFAULT_DAYS 366
struct io_window {
	int64_t from, to;
	int has_from, has_to;
	const char *const *hosts;
	size_t nhosts;
};

/* The window's bounds as a half-open range [lo, hi) of times: a bound not
 * given is the widest there is. */
static inline int64_t
io_window_lo(const struct io_window *w)
{
	return w->has_from ? w->from : INT64_MIN;
}

static inline int64_t
io_window_hi(const struct io_window *w)
{
	return w->has_to ? w->to : INT64_MAX;
}

static inline int
io_window_given(const struct io_window *w)
{
	return w->has_from || w->has_to;
}

/* Aggregate over the selected hosts' devices, minute i of the window
 * starting at t0 + 60 i, i < n. Only the minutes [lo, lo + len) that can
 * hold data are stored, at index i - lo: the hull of the minutes in which
 * a device is expected or a row exists. Every other minute of the window
 * is MIN_NONE with zero values (query_minute_state); an analysis counts
 * them, it never walks them one by one. */
struct minute_series {
	int64_t t0;		/* start of minute 0 (a multiple of 60) */
	size_t n;		/* calendar minutes */
	size_t lo, len;		/* the stored minutes [lo, lo + len) */
	uint8_t *state;		/* enum minute_state, len of them */
	uint64_t *rd, *wr;	/* bytes read / written in the minute */
	uint64_t *ios;		/* requests completed (reads, writes,
				   discards, flushes) */
	size_t nhost, ndev;	/* hosts and devices with data in the window */
	int cut;		/* the start was cut to IO_DEFAULT_DAYS ... */
	int64_t data_from;	/* ... from where the data starts */
};

/* The state of minute i of the window (i < n), stored or not. */
static inline enum minute_state
query_minute_state(const struct minute_series *s, size_t i)
{
	return i >= s->lo && i - s->lo < s->len ?
	    (enum minute_state)s->state[i - s->lo] : MIN_NONE;
}

/* A window's stored minutes are held in memory, 25 bytes each: as many as
 * the data spans (a host that logged for a day holds 1,440 of them,
 * whatever the window). The window itself is bounded to 200 years of
 * calendar minutes, beyond any real data: a mistyped year is refused,
 * not analysed for nothing. */
#define IO_MAX_MINUTES 105192000

/* Load the window. With no host filter this reads io_minute; with one it
 * sums the matching hosts' io_host_hour rows (a minute is COMPLETE when
 * every selected host that expected devices in it is complete). An empty
 * database or window gives n == 0 (not an error); a window longer than
 * IO_MAX_MINUTES is a usage error (FMT_USAGE). 0, or -1 with err. */
int query_minutes_load(sqlite3 *db, const struct io_window *w,
    struct minute_series *s, char *err, size_t errlen);
void query_minutes_free(struct minute_series *s);

/* Hosts with data in the window (and matching its patterns), by name. */
struct host_list {
	size_t n;
	char **name;
};
int query_hosts_load(sqlite3 *db, const struct io_window *w,
    struct host_list *hl, char *err, size_t errlen);
void query_hosts_free(struct host_list *hl);

/* Every host that has I/O data, by name (byte order), with the end of
 * its latest ingested sample: the latest io_dev.last_ms of its devices,
 * unix ms (quarantined samples are not ingested, query_quar.c). 0, or
 * -1 with err. */
struct host_last {
	char *host;
	int64_t last_ms;
};
int query_hosts_last(sqlite3 *db, struct host_last **out, size_t *n,
    char *err, size_t errlen);
void query_hosts_last_free(struct host_last *h, size_t n);

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
 * window as query_minutes_load resolves it). Memory: one hour of the hosts
 * at a time. fn returning non-zero stops the scan (returned as is). */
int query_scan_host_minutes(sqlite3 *db, const struct io_window *w,
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
int query_devstats_load(sqlite3 *db, const struct io_window *w,
    struct dev_stat **out, size_t *n, char *err, size_t errlen);
void query_devstats_free(struct dev_stat *d, size_t n);

/*
 * Device hours (query_devhours.c): the devices of a window and their
 * io_dev_hour rows (sums over each device's valid minutes of a UTC hour,
 * docs/census-db.md "Device sums") over the whole hours of the window,
 * one hour at a time, for the analyses that compare devices within each
 * hour. The window is resolved as query_minutes_load resolves it; only
 * hours [t, t + 3600) wholly inside it count. An hour in which a device
 * has no valid minute has no row for it.
 */
struct devh_list {
	size_t n;		/* devices expected in the window, sorted by
				   host name then device name */
	char **host, **device;
	size_t *hostix;		/* host index: hosts in name order */
	int64_t from, to;	/* the whole hours [from, to); from == to:
				   none */
	int cut;		/* the window's start was cut ... */
	int64_t data_from;	/* ... from where the data starts */
	void *ids;		/* private: device ids, sorted */
	void *dev;		/* private: per device, its id and
				   sampling interval */
};
struct devh_row {
	size_t dev;		/* index into the list */
	uint64_t minutes;	/* valid minutes of the device (> 0) */
	uint64_t rd_ios, wr_ios, rd_bytes, wr_bytes, rd_ms, wr_ms, io_ms;
};
/* One hour t: its rows (at most one per device), in list order. */
typedef int (*devh_fn)(int64_t t, const struct devh_row *row, size_t n,
    void *arg);

/* The devices of w's selection (l->n == 0: none). 0, or -1 with err;
 * close l in every case. */
int query_devhours_open(sqlite3 *db, const struct io_window *w,
    struct devh_list *l, char *err, size_t errlen);
/* fn for every hour of l's window that has a row, in time order; it may
 * be called again for a second pass. fn returning non-zero stops the
 * scan (returned as is). 0, or -1 with err. */
int query_devhours_scan(sqlite3 *db, const struct devh_list *l, devh_fn fn,
    void *arg, char *err, size_t errlen);
void query_devhours_close(struct devh_list *l);
/* The minutes of one device hour, as the roll-ups split them
 * (chunk_minute.c): the same minutes whose sums make its io_dev_hour
 * row. A minute that is not valid for the device has valid == 0. */
#define DEVH_MINUTES	60
struct devh_minute {
	int valid;
	uint64_t rd_ios, wr_ios, rd_ms, wr_ms;
};
struct devh_mreader;
/* A reader of device minutes on db; NULL with err. */
struct devh_mreader *query_devhours_mopen(sqlite3 *db, char *err,
    size_t errlen);
/* The minutes of hour [t, t + 3600) (t a multiple of 3600) of device
 * dev of l into out[0..DEVH_MINUTES). 0, or -1 with err. */
int query_devhours_minutes(struct devh_mreader *m, const struct devh_list *l,
    size_t dev, int64_t t, struct devh_minute *out, char *err,
    size_t errlen);
void query_devhours_mclose(struct devh_mreader *m);

/*
 * Device identities (query_ident.c): what v_io_device says a device is
 * now (docs/census-db.md, "io_dev_ident"): its current identity, the one
 * its logs gave it last. A value the logs did not give is NULL, never "".
 */
struct dev_ident {
	char *wwn, *serial, *model, *slot;	/* NULL: absent */
};
struct dev_ident_row {
	char *host, *device;
	struct dev_ident id;
};
/* Every device that has an identity, with its current one, sorted by
 * host then device (byte order). One query. 0, or -1 with err (*out
 * NULL, *n 0). */
int query_ident_all(sqlite3 *db, struct dev_ident_row **out, size_t *n,
    char *err, size_t errlen);
void query_ident_rows_free(struct dev_ident_row *r, size_t n);
/* The current identity of each of n devices, named host[i] and device[i]
 * (any order, repeats allowed, none NULL), into out[i]: *out is an array
 * of n entries made here, each field a copy, or NULL where the device has
 * no such value, no identity, or is not in the database. One query,
 * whatever n (query_ident_all's). 0, or -1 with err and *out NULL. Free
 * it with query_ident_free(*out, n). */
int query_ident_load(sqlite3 *db, const char *const *host,
    const char *const *device, size_t n, struct dev_ident **out, char *err,
    size_t errlen);
void query_ident_free(struct dev_ident *d, size_t n);

/*
 * Quarantine (query_quar.c): the samples ingest set apart because their
 * times cannot be real, per host by name: how many, the first and last
 * end (unix seconds). No analysis reads them.
 */
struct quar_entry {
	char *host;
	uint64_t samples;
	int64_t first, last;
};
struct quar_list {
	size_t n;
	struct quar_entry *e;
};
int query_quar_hosts(sqlite3 *db, struct quar_list *q, char *err,
    size_t errlen);
void query_quar_free(struct quar_list *q);

/*
 * Census (query_census.c): what the snapshot analyses read from the census
 * database, loaded through the stable views (v_snapshot, v_project, v_hist,
 * v_dir) and the owner, hist_extent, project_extent and dir_scope tables,
 * every value bound. Loading computes nothing; a column that is NULL in the
 * database stays "absent" here.
 *
 * Byte totals, bucket bounds and extremes are exact 128-bit integers (the
 * database holds one beyond INT64_MAX as decimal text). A total that is
 * negative or not an exact integer is an error ("census database: ..."),
 * never a number.
 */

/* An integer that may be missing (NULL in the database). */
struct nint {
	i128 v;
	int has;
};

/* A snapshot's capacity, statvfs(ROOT) at the scan: the fs_* columns of
 * v_snapshot (bytes = f_blocks, free = f_bfree, avail = f_bavail, times
 * f_frsize; f_files, f_ffree), exact, each absent where NULL (unknown:
 * written before schema 6, statvfs failed, or fsscan --as-of). */
struct capacity {
	struct nint bytes, free_bytes, avail_bytes, inodes, free_inodes;
};

struct snap {
	int64_t id;
	char *fs, *root, *status;	/* status: running, complete, ... */
	char *mount_opts;		/* NULL when unknown */
	int64_t started_at, now_ref;	/* started_at: the snapshot's time
					   (fsscan --as-of sets it) */
	struct nint finished_at, scanned_at;	/* scanned_at: when the walk
					   really started (schema 6) */
	int complete;
	struct nint files, dirs, bytes, alloc, errors;
	struct capacity cap;
	char *fs_device;		/* which file system holds ROOT
					   (schema 8; NULL when unknown):
					   snapshots with the same one
					   measure one capacity */
	char *mountpoint, *source, *fstype;	/* the mount that holds
					   ROOT, as /proc/self/mountinfo
					   says (mountpoint: schema 10);
					   NULL when unknown */
};

/* All snapshots, ordered by id. 0, or -1 with err. */
int query_census_snapshots(sqlite3 *db, struct snap **out, size_t *n, char *err,
    size_t errlen);
/* One snapshot: 1 found, 0 no such id, -1 error. */
int query_census_snapshot(sqlite3 *db, int64_t id, struct snap *out, char *err,
    size_t errlen);
void query_census_snap_clear(struct snap *s);

/* Per file system, sorted by name (byte order): its latest snapshot of
 * any status and its latest complete one (by start time, then id; 0 when
 * it has none). 0, or -1 with err. */
struct fs_latest {
	char *fs;
	int64_t latest, complete;
};
int query_census_fs_latest(sqlite3 *db, struct fs_latest **out, size_t *n,
    char *err, size_t errlen);
void query_census_fs_latest_free(struct fs_latest *l, size_t n);

void query_census_snaps_free(struct snap *s, size_t n);

/* Totals of one group of a snapshot: a project, a user or group id, or a
 * directory subtree. key identifies it across snapshots (project name,
 * decimal id, path); name is what a reader sees (the user name when
 * known, else the id). */
struct gtot {
	char *key, *name;
	int64_t files;
	i128 bytes, alloc;
	i128 cold;		/* BY_DIR: v_dir's cold_bytes, */
	int hascold;		/* when the scan recorded it */
};

enum group_by { BY_PROJECT, BY_USER, BY_GROUP, BY_DIR };

/* Groups of a snapshot sorted by key (strcmp); dir: entries of v_dir at
 * depth `depth`. 0, or -1 with err. */
int query_census_groups(sqlite3 *db, int64_t id, enum group_by by, int depth,
    struct gtot **out, size_t *n, char *err, size_t errlen);
void query_census_gtots_free(struct gtot *g, size_t n);

/* Files and bytes of one project in a snapshot; a project absent from
 * the snapshot has none (fsscan writes every project that has entries).
 * 0, or -1 with err. */
int query_census_project_totals(sqlite3 *db, int64_t id, const char *project,
    int64_t *files, i128 *bytes, char *err, size_t errlen);

/* One histogram of v_hist, by lib/hist.h slot: has[slot] when the row
 * exists, lo/hi as stored, files and bytes. A bucket's bytes are below
 * CENSUS_BUCKET_MAX (fsscan writes less than 2^118, hist.h), so the sum
 * of a histogram's buckets cannot overflow. */
#define CENSUS_BUCKET_MAX ((i128)1 << 120)
struct chist {
	int has[HIST_NB];
	i128 lo[HIST_NB], hi[HIST_NB];
	int64_t files[HIST_NB];
	i128 bytes[HIST_NB];
};

/* project NULL: the whole file system. Returns the number of rows, or
 * -1 with err. */
int query_census_hist(sqlite3 *db, int64_t id, const char *project,
    const char *metric, struct chist *h, char *err, size_t errlen);
/* Smallest and largest value of a whole-file-system metric (bytes,
 * seconds): 1, 0 when unknown, -1 error. */
int query_census_extent(sqlite3 *db, int64_t id, const char *metric,
    i128 *min, i128 *max, char *err, size_t errlen);
/* The same over the files of some projects: project alone, or (project
 * NULL) every project but the excluded ones. 1 known, 0 when no project
 * in the selection has extremes (none of its files, or a snapshot older
 * than schema 3, which kept them for the whole file system only), -1
 * error. */
int query_census_project_extent(sqlite3 *db, int64_t id, const char *metric,
    const char *project, const char *const *exclude, size_t nexclude,
    i128 *min, i128 *max, char *err, size_t errlen);
/* Whether the snapshot holds per-project extremes: 1, 0, -1 error. */
int query_census_has_project_extent(sqlite3 *db, int64_t id, char *err,
    size_t errlen);

/* How deep v_dir goes (fsscan --dirs): 1 with *depth (-1: every depth),
 * 0 when the snapshot does not say (older than schema 3), -1 error. */
int query_census_dir_scope(sqlite3 *db, int64_t id, int *depth, char *err,
    size_t errlen);

/* The largest files (kind "file", value = bytes) or the directories with
 * the most entries (kind "dir") that fsscan kept (--top), by rank; paths
 * as fsscan wrote them (under the root), bytes as stored. 0, or -1 with err. */
struct top_entry {
	i128 value;
	char *path;
};
int query_census_top(sqlite3 *db, int64_t id, const char *kind,
    struct top_entry **out, size_t *n, char *err, size_t errlen);
void query_census_top_free(struct top_entry *t, size_t n);

/* A project in a snapshot of one file system, with its limit (v_limit).
 * found = 0: the project has no row in that snapshot (nothing attributed
 * to it then: files, dirs, bytes, alloc and entries are 0). entries and
 * the limits are INTEGER columns, held in 64 bits (a history holds a row
 * per project and snapshot), each there when its PROW_* bit of has is
 * set: entries are unknown before schema 6, a limit where none is set. */
enum { PROW_ENTRIES = 1, PROW_LIMIT_BYTES = 2, PROW_LIMIT_INODES = 4 };
struct prow {
	int64_t snapshot_id;
	size_t name;			/* index into the loader's names */
	int64_t files, dirs;
	i128 bytes, alloc;
	int64_t entries, limit_bytes, limit_inodes;
	unsigned char found, has;
};

/* One of a row's optional values (v, its PROW_* bit) as a struct nint. */
static inline struct nint
query_census_prow_opt(const struct prow *r, int64_t v, unsigned bit)
{
	return (struct nint){ v, (r->has & bit) != 0 };
}

/* Rows of file system fs: with project, one per snapshot of fs (by id),
 * found or not; without (NULL), every project row of fs's complete
 * snapshots started before `to` (INT64_MAX: every one, as the times of
 * lib/epoch.h are all before it), by name then snapshot id, and names[]
 * sorted (byte order). 0, or -1. */
int query_census_project_rows(sqlite3 *db, const char *fs,
    const char *project, int64_t to, struct prow **rows, size_t *n,
    char ***names, size_t *nnames, char *err, size_t errlen);

/* The cold data of a snapshot by metric "atime" or "mtime", and by
 * project (v_cold), user or group (v_cold_owner): by threshold
 * ascending, the whole file system's row (key NULL) first, then each
 * group's by key (byte order). key and name are those of struct gtot: a
 * project's name, or an owner's decimal id and its name (the id where it
 * has none). A snapshot written before schema 8 has no row; one written
 * before schema 12 only the file system's by user or group. 0, or -1
 * with err. */
struct cold_row {
	char *key, *name;		/* NULL: the whole file system */
	int64_t days, files;
	i128 bytes;
};
int query_census_cold(sqlite3 *db, int64_t id, const char *metric,
    enum group_by by, struct cold_row **out, size_t *n, char *err,
    size_t errlen);
void query_census_cold_free(struct cold_row *r, size_t n);

/* The directories of a snapshot with the largest subtree totals (v_dir,
 * depth 1 or more), bytes descending then path: at most max of them.
 * value is bytes; files and depth too. 0, or -1 with err. */
struct dir_entry {
	char *path;
	int depth;
	int64_t files;
	i128 bytes, alloc;
};
int query_census_dirs_by_bytes(sqlite3 *db, int64_t id, size_t max,
    struct dir_entry **out, size_t *n, char *err, size_t errlen);
void query_census_dirs_free(struct dir_entry *d, size_t n);

/*
 * A directory's subtree, for du: the dir rows of one snapshot below a
 * row, level by level, chosen by depth and parent ids alone, with their
 * names and never their paths (the caller joins the names of the rows it
 * prints). The first row is the top of the subtree itself.
 */
struct du_row {
	int64_t id;
	size_t up;			/* index of the parent row in the list;
					   the first row's is 0, itself */
	int level;			/* below the first row, which is 0 */
	char *name;			/* as stored: the file system's bytes */
	int64_t files;
	i128 bytes, alloc;
	struct nint cold;		/* NULL: not recorded (schema 12) */
};
/* The id of the dir row of snapshot snap whose path below ROOT is the n
 * names (n 0: ROOT), found by walking the names down from ROOT: 1 found
 * (*id), 0 not in the census, -1 with err. */
int query_census_dir_find(sqlite3 *db, int64_t snap, const char *const *names,
    size_t n, int64_t *id, char *err, size_t errlen);
/* The row id of snapshot snap, whose depth is depth, and its subtree
 * down to levels below it, parents before children: 0 with *out (free
 * with query_census_du_free), or -1 with err. */
int query_census_du_rows(sqlite3 *db, int64_t snap, int64_t id, int depth,
    int levels, struct du_row **out, size_t *n, char *err, size_t errlen);
void query_census_du_free(struct du_row *r, size_t n);
/* The longest atime threshold of snapshot id's cold data, in days
 * (what dir.cold_bytes counts): 1 (*days), 0 none recorded, -1 with
 * err. */
int query_census_cold_longest(sqlite3 *db, int64_t id, int64_t *days,
    char *err, size_t errlen);

/* Whether project is in some snapshot of file system fs (NULL: of any):
 * 1, 0, or -1 with err. */
int query_census_project_known(sqlite3 *db, const char *fs,
    const char *project, char *err, size_t errlen);

/* Distinct project names in the snapshots of file system fs (NULL: of
 * every file system), sorted. 0, or -1 with err. */
int query_census_fs_projects(sqlite3 *db, const char *fs, char ***names,
    size_t *n, char *err, size_t errlen);
/* The file systems --fs want may mean: want itself when snapshots are
 * recorded under that name, and those whose snapshots' ROOT (as given,
 * or absolute) is the path want, trailing slashes aside; sorted. 0, or -1
 * with err. */
int query_census_fs_at(sqlite3 *db, const char *want, char ***names,
    size_t *n, char *err, size_t errlen);
void query_census_names_free(char **names, size_t n);

/*
 * Hosts (query_hosts.c): the --host patterns of a question, checked against
 * the hosts the database knows. A pattern that matches none is a typo, not an
 * empty window: the command line makes it a usage error (exit 2) instead of
 * printing "No I/O data in the window".
 */

/* 0 when every pattern of w matches some host (any time, not only in
 * w's window); else -1 with err = FMT_USAGE "--host P matches no host;
 * hosts: a, b, ..." (at most 10 names, then how many more), or a
 * database error. */
int query_hosts_check(sqlite3 *db, const struct io_window *w, char *err,
    size_t errlen);

/*
 * Private names (query_private.c): a project name that fsscan read from
 * a directory that not every user may list (project.public 0 in some
 * snapshot; a depth rule's name in a snapshot written before schema 9).
 * World-readable outputs (metrics, report --no-paths) show such a name
 * as its label, "private-" and 16 hex digits of SipHash-2-4 under the
 * database's key (census_key): the same name gets the same label in one
 * database, and no one without the key can tell which name it stands for.
 */
#define QUERY_LABEL_PREFIX "private-"
#define QUERY_LABEL_LEN (sizeof QUERY_LABEL_PREFIX + 16)
struct query_private {
	uint8_t key[16];
	struct strtab names;	/* the private names */
};
/* 0, or -1 with err. */
int query_private_load(sqlite3 *db, struct query_private *p, char *err,
    size_t errlen);
void query_private_free(struct query_private *p);
/* The label of name when it is private, into buf; else NULL. */
const char *query_private_label(const struct query_private *p,
    const char *name, char buf[QUERY_LABEL_LEN]);
/* s with every private name in it, standing as a whole (between
 * characters that cannot be part of a name: not a letter, digit, '.',
 * '_', '-' or '/'), replaced by its label: a new string, or NULL when s
 * holds none. */
char *query_private_text(const struct query_private *p, const char *s);

#endif
