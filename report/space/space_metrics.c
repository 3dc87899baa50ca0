/*
 * space_metrics: the census as Prometheus gauges, for node_exporter's
 * textfile collector. Per file system, the totals of its latest complete
 * snapshot, whether its latest snapshot is complete, and its capacity
 * where that snapshot records it.
 *
 * One table per metric family: its key is the metric name, its title the
 * HELP text, its columns the labels (fs, project) and the value last. A
 * value the database does not have stays NULL, and the renderer leaves
 * the sample out: missing is never exported as 0.
 */
#include <stdio.h>
#include <string.h>

#include "space.h"
#include "query/query.h"

enum { M_FILES, M_BYTES, M_ALLOC, M_PFILES, M_PBYTES, M_TIME, M_COMPLETE,
    M_DURATION, M_ERRORS, M_SIZE, M_AVAIL, M_INODES, M_FREE_INODES,
    NMETRIC };

static const struct {
	const char *name, *help, *unit;
	int project;		/* labelled by project too */
} metric[NMETRIC] = {
	[M_FILES] = { "iocensus_files", "Regular files in the latest "
	    "complete snapshot of the file system (a hard-linked inode "
	    "once).", "files", 0 },
	[M_BYTES] = { "iocensus_bytes", "Bytes in regular files (sum of "
	    "st_size) in the latest complete snapshot.", "bytes", 0 },
	[M_ALLOC] = { "iocensus_alloc_bytes", "Bytes allocated to regular "
	    "files (sum of st_blocks x 512) in the latest complete "
	    "snapshot.", "bytes", 0 },
	[M_PFILES] = { "iocensus_project_files", "Regular files of the "
	    "project in the latest complete snapshot.", "files", 1 },
	[M_PBYTES] = { "iocensus_project_bytes", "Bytes in regular files of "
	    "the project (sum of st_size) in the latest complete snapshot.",
	    "bytes", 1 },
	[M_TIME] = { "iocensus_snapshot_timestamp_seconds", "Start of the "
	    "scan of the latest complete snapshot, unix seconds.", "seconds",
	    0 },
	[M_COMPLETE] = { "iocensus_snapshot_complete", "1 if the latest "
	    "snapshot of the file system is complete; 0 if it is running, "
	    "was interrupted or failed (the other metrics are then of an "
	    "older one).", NULL, 0 },
	[M_DURATION] = { "iocensus_scan_duration_seconds", "Wall time of "
	    "the scan of the latest complete snapshot.", "seconds", 0 },
	[M_ERRORS] = { "iocensus_scan_errors", "Entries the scan of the "
	    "latest complete snapshot could not read.", "entries", 0 },
	[M_SIZE] = { "iocensus_fs_size_bytes", "Size of the file system "
	    "(statvfs f_blocks x f_frsize) at the latest complete snapshot.",
	    "bytes", 0 },
	[M_AVAIL] = { "iocensus_fs_avail_bytes", "Bytes available to "
	    "unprivileged users (statvfs f_bavail x f_frsize) at the latest "
	    "complete snapshot.", "bytes", 0 },
	[M_INODES] = { "iocensus_fs_inodes", "Inodes of the file system "
	    "(statvfs f_files) at the latest complete snapshot.", "inodes",
	    0 },
	[M_FREE_INODES] = { "iocensus_fs_free_inodes", "Free inodes "
	    "(statvfs f_ffree) at the latest complete snapshot.", "inodes",
	    0 },
};

static void
add_family(struct result *r, int m)
{
	struct rcol_spec cols[] = {
		{ "fs", "File system", NULL, CF_PLAIN, 0 },
		{ "project", "Project", NULL, CF_PLAIN, 0 },
		{ "value", "Value", metric[m].unit, CF_PLAIN, 0 },
	};

	if (!metric[m].project)
		cols[1] = cols[2];
	result_table(r, metric[m].name, metric[m].help, cols,
	    metric[m].project ? 3 : 2);
}

/* A sample of a family without a project label; v absent: none. */
static void
sample(struct result *r, int m, const char *fs, struct nint v)
{
	struct rtable *t = &r->table[m];
	size_t row;

	if (!v.has)
		return;
	row = result_row(t);
	result_set_text(t, row, 0, fs);
	result_set_wide(t, row, 1, v.v);
}

static int
projects(sqlite3 *db, struct result *r, const char *fs, int64_t id,
    char *err, size_t errlen)
{
	struct gtot *g;
	size_t n;

	if (query_census_groups(db, id, BY_PROJECT, 0, &g, &n, err,
	    errlen) < 0)
		return -1;
	for (size_t i = 0; i < n; i++)
		for (int m = M_PFILES; m <= M_PBYTES; m++) {
			struct rtable *t = &r->table[m];
			size_t row = result_row(t);

			result_set_text(t, row, 0, fs);
			result_set_text(t, row, 1, g[i].key);
			result_set_wide(t, row, 2, m == M_PFILES ?
			    (i128)g[i].files : g[i].bytes);
		}
	query_census_gtots_free(g, n);
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
	query_census_snap_clear(&s);
	return projects(db, r, l->fs, l->complete, err, errlen);
}

struct result *
space_metrics(sqlite3 *db, const struct opts *o, char *err, size_t errlen)
{
	struct fs_latest *l;
	struct result *r;
	size_t n;

	(void)o;
	if (query_census_fs_latest(db, &l, &n, err, errlen) < 0)
		return NULL;
	r = result_new("metrics", "Census metrics");
	for (int m = 0; m < NMETRIC; m++)
		add_family(r, m);
	for (size_t i = 0; i < n; i++) {
		sample(r, M_COMPLETE, l[i].fs,
		    (struct nint){ l[i].latest == l[i].complete, 1 });
		if (l[i].complete && fs_samples(db, r, &l[i], err,
		    errlen) < 0) {
			result_free(r);
			r = NULL;
			break;
		}
	}
	if (r && n == 0)
		result_note(r, "No snapshots in the database.");
	query_census_fs_latest_free(l, n);
	return r;
}
