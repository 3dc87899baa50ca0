/*
 * space_metrics: the census as Prometheus gauges, for node_exporter's
 * textfile collector. Per file system, the totals of its latest complete
 * snapshot, whether its latest snapshot is complete, its capacity where
 * that snapshot records it, its projects with their limits, its cold
 * data, and the dates `iocensus capacity` gives (space_metrics_cap.c).
 *
 * One table per metric family (space_metrics_int.h): its key is the
 * metric name, its title the HELP text, its columns the labels and the
 * value last. A value the database does not have has no row, and a NULL
 * value no sample: missing is never exported as 0.
 */
#include <stdio.h>
#include <stdlib.h>

#include "space.h"
#include "space_growth_int.h"
#include "space_metrics_int.h"
#include "query/query.h"

#define MAX_LABELS 4

static const struct {
	const char *name, *help, *unit;
	const char *label[MAX_LABELS];	/* NULL-terminated when shorter */
} metric[M_NFAMILY] = {
	[M_FILES] = { "iocensus_files", "Regular files in the latest "
	    "complete snapshot of the file system (a hard-linked inode "
	    "once).", "files", { "fs" } },
	[M_BYTES] = { "iocensus_bytes", "Bytes in regular files (sum of "
	    "st_size) in the latest complete snapshot.", "bytes", { "fs" } },
	[M_ALLOC] = { "iocensus_alloc_bytes", "Bytes allocated to regular "
	    "files (sum of st_blocks x 512) in the latest complete "
	    "snapshot.", "bytes", { "fs" } },
	[M_PFILES] = { "iocensus_project_files", "Regular files of the "
	    "project in the latest complete snapshot.", "files",
	    { "fs", "project" } },
	[M_PBYTES] = { "iocensus_project_bytes", "Bytes in regular files of "
	    "the project (sum of st_size) in the latest complete snapshot.",
	    "bytes", { "fs", "project" } },
	[M_TIME] = { "iocensus_snapshot_timestamp_seconds", "Start of the "
	    "scan of the latest complete snapshot, unix seconds.", "seconds",
	    { "fs" } },
	[M_COMPLETE] = { "iocensus_snapshot_complete", "1 if the latest "
	    "snapshot of the file system is complete; 0 if it is running, "
	    "was interrupted or failed (the other metrics are then of an "
	    "older one).", NULL, { "fs" } },
	[M_DURATION] = { "iocensus_scan_duration_seconds", "Wall time of "
	    "the scan of the latest complete snapshot.", "seconds",
	    { "fs" } },
	[M_ERRORS] = { "iocensus_scan_errors", "Entries the scan of the "
	    "latest complete snapshot could not read.", "entries", { "fs" } },
	[M_SIZE] = { "iocensus_fs_size_bytes", "Size of the file system "
	    "(statvfs f_blocks x f_frsize) at the latest complete snapshot.",
	    "bytes", { "fs" } },
	[M_AVAIL] = { "iocensus_fs_avail_bytes", "Bytes available to "
	    "unprivileged users (statvfs f_bavail x f_frsize) at the latest "
	    "complete snapshot.", "bytes", { "fs" } },
	[M_INODES] = { "iocensus_fs_inodes", "Inodes of the file system "
	    "(statvfs f_files) at the latest complete snapshot.", "inodes",
	    { "fs" } },
	[M_FREE_INODES] = { "iocensus_fs_free_inodes", "Free inodes "
	    "(statvfs f_ffree) at the latest complete snapshot.", "inodes",
	    { "fs" } },
	[M_FREE] = { "iocensus_fs_free_bytes", "Free bytes, the blocks "
	    "reserved for root included (statvfs f_bfree x f_frsize), at the "
	    "latest complete snapshot: df's Use% is (size - free) / (size - "
	    "free + avail).", "bytes", { "fs" } },
	[M_PALLOC] = { "iocensus_project_alloc_bytes", "Bytes allocated to "
	    "the project's regular files (sum of st_blocks x 512) in the "
	    "latest complete snapshot: what its byte limit is held against.",
	    "bytes", { "fs", "project" } },
	[M_PDIRS] = { "iocensus_project_dirs", "Directories of the project "
	    "in the latest complete snapshot.", "dirs",
	    { "fs", "project" } },
	[M_PINODES] = { "iocensus_project_inodes", "Inodes of the project "
	    "(its entries: files, directories, symlinks and others) in the "
	    "latest complete snapshot: what its inode limit is held "
	    "against.", "inodes", { "fs", "project" } },
	[M_PLIMIT_BYTES] = { "iocensus_project_limit_bytes", "The project's "
	    "byte limit (fsscan --limits or its quota) at the latest "
	    "complete snapshot; no sample without one.", "bytes",
	    { "fs", "project" } },
	[M_PLIMIT_INODES] = { "iocensus_project_limit_inodes", "The "
	    "project's inode limit at the latest complete snapshot; no "
	    "sample without one.", "inodes", { "fs", "project" } },
	[M_FULL] = { "iocensus_fs_full_timestamp_seconds", "The UTC day "
	    "(unix seconds) the file system's space or inodes reach 100% "
	    "(resource), by the linear model of iocensus capacity: its "
	    "estimate and the earliest and latest of its 95% range (bound); "
	    "no sample where capacity gives no date (not growing, too few "
	    "points, already full, beyond 100 years).", "seconds",
	    { "fs", "resource", "bound" } },
	[M_PLIMIT_T] = { "iocensus_project_limit_timestamp_seconds", "The "
	    "UTC day (unix seconds) the project reaches its limit, as "
	    "iocensus capacity projects it: its allocated bytes towards its "
	    "byte limit (resource space), else its inodes towards its inode "
	    "limit (resource inodes); the estimate and the 95% range "
	    "(bound); no sample where capacity gives no date (already over, "
	    "not growing, no limit).", "seconds",
	    { "fs", "project", "resource", "bound" } },
	[M_COLD] = { "iocensus_cold_bytes", "Bytes in regular files not "
	    "read (metric atime) or not modified (metric mtime) in at least "
	    "days days, in the latest complete snapshot (fsscan --cold).",
	    "bytes", { "fs", "metric", "days" } },
	[M_PCOLD] = { "iocensus_project_cold_bytes", "The project's bytes "
	    "not read (atime) or not modified (mtime) in at least days days, "
	    "in the latest complete snapshot.", "bytes",
	    { "fs", "project", "metric", "days" } },
};

static void
add_family(struct result *r, int m)
{
	struct rcol_spec cols[MAX_LABELS + 1];
	size_t n = 0;

	while (n < MAX_LABELS && metric[m].label[n]) {
		cols[n] = (struct rcol_spec){ metric[m].label[n],
		    metric[m].label[n], NULL, CF_PLAIN, 0 };
		n++;
	}
	cols[n++] = (struct rcol_spec){ "value", "Value", metric[m].unit,
	    CF_PLAIN, 0 };
	result_table(r, metric[m].name, metric[m].help, cols, n);
}

/* A sample of a family labelled by fs alone; v absent: none. */
static void
sample(struct result *r, int m, const char *fs, struct nint v)
{
	if (v.has)
		space_metrics_put(r, m, (const char *const[]){ fs }, v.v);
}

/* The projects of snapshot id: totals, limits where set. */
static int
projects(sqlite3 *db, struct result *r, const char *fs, int64_t id,
    char *err, size_t errlen)
{
	struct prow *rows;
	char **names;
	size_t n, nnames;

	if (query_census_project_rows(db, fs, NULL, INT64_MAX, &rows, &n,
	    &names, &nnames, err, errlen) < 0)
		return -1;
	for (size_t a = 0, b; a < n; a = b) {
		const struct prow *p;
		const char *l[] = { fs, names[rows[a].name] };

		for (b = a; b < n && rows[b].name == rows[a].name; b++)
			;
		if (!(p = space_growth_pts_row(rows, a, b, id)))
			continue;	/* not in that snapshot */
		space_metrics_put(r, M_PFILES, l, p->files);
		space_metrics_put(r, M_PBYTES, l, p->bytes);
		space_metrics_put(r, M_PALLOC, l, p->alloc);
		space_metrics_put(r, M_PDIRS, l, p->dirs);
		if (p->has & PROW_ENTRIES)
			space_metrics_put(r, M_PINODES, l, p->entries);
		if (p->has & PROW_LIMIT_BYTES)
			space_metrics_put(r, M_PLIMIT_BYTES, l, p->limit_bytes);
		if (p->has & PROW_LIMIT_INODES)
			space_metrics_put(r, M_PLIMIT_INODES, l,
			    p->limit_inodes);
	}
	free(rows);
	query_census_names_free(names, nnames);
	return 0;
}

/* The cold data of snapshot id (v_cold), by atime and by mtime. */
static int
cold(sqlite3 *db, struct result *r, const char *fs, int64_t id, char *err,
    size_t errlen)
{
	static const char *const by[] = { "atime", "mtime" };

	for (size_t k = 0; k < sizeof by / sizeof *by; k++) {
		struct cold_row *c;
		size_t n;

		if (query_census_cold(db, id, by[k], &c, &n, err, errlen) < 0)
			return -1;
		for (size_t i = 0; i < n; i++) {
			char days[24];

			snprintf(days, sizeof days, "%lld",
			    (long long)c[i].days);
			if (c[i].project)
				space_metrics_put(r, M_PCOLD, (const char
				    *const[]){ fs, c[i].project, by[k], days },
				    c[i].bytes);
			else
				space_metrics_put(r, M_COLD, (const char
				    *const[]){ fs, by[k], days }, c[i].bytes);
		}
		query_census_cold_free(c, n);
	}
	return 0;
}

/* The samples of one file system from its latest complete snapshot. */
static int
fs_samples(sqlite3 *db, struct result *r, const struct fs_latest *l,
    char *err, size_t errlen)
{
	struct snap s;
	struct nint dur = { 0, 0 };
	int rc;

	if ((rc = query_census_snapshot(db, l->complete, &s, err,
	    errlen)) <= 0)
		return rc < 0 ? -1 : 0;
	sample(r, M_FILES, l->fs, s.files);
	sample(r, M_BYTES, l->fs, s.bytes);
	sample(r, M_ALLOC, l->fs, s.alloc);
	sample(r, M_TIME, l->fs, (struct nint){ s.started_at, 1 });
	if (s.finished_at.has && s.finished_at.v >= s.started_at)
		dur = (struct nint){ s.finished_at.v - s.started_at, 1 };
	sample(r, M_DURATION, l->fs, dur);
	sample(r, M_ERRORS, l->fs, s.errors);
	sample(r, M_SIZE, l->fs, s.cap.bytes);
	sample(r, M_AVAIL, l->fs, s.cap.avail_bytes);
	sample(r, M_INODES, l->fs, s.cap.inodes);
	sample(r, M_FREE_INODES, l->fs, s.cap.free_inodes);
	sample(r, M_FREE, l->fs, s.cap.free_bytes);
	query_census_snap_clear(&s);
	if (projects(db, r, l->fs, l->complete, err, errlen) < 0)
		return -1;
	return cold(db, r, l->fs, l->complete, err, errlen);
}

struct result *
space_metrics(sqlite3 *db, const struct opts *o, char *err, size_t errlen)
{
	struct fs_latest *l;
	struct result *r;
	size_t n;
	int rc = 0;

	(void)o;
	if (query_census_fs_latest(db, &l, &n, err, errlen) < 0)
		return NULL;
	r = result_new("metrics", "Census metrics");
	for (int m = 0; m < M_NFAMILY; m++)
		add_family(r, m);
	for (size_t i = 0; i < n && rc == 0; i++) {
		sample(r, M_COMPLETE, l[i].fs,
		    (struct nint){ l[i].latest == l[i].complete, 1 });
		if (l[i].complete)
			rc = fs_samples(db, r, &l[i], err, errlen);
	}
	if (rc == 0 && n > 0)
		rc = space_metrics_cap(db, r, err, errlen);
	if (rc == 0 && n == 0)
		result_note(r, "No snapshots in the database.");
	query_census_fs_latest_free(l, n);
	if (rc < 0) {
		result_free(r);
		r = NULL;
	}
	return r;
}
