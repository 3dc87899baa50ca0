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
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "space.h"
#include "space_growth_int.h"
#include "space_metrics_int.h"
#include "query/query.h"
#include "xalloc.h"

#define MAX_LABELS 6

/* The capacity families' labels: the name and, where the snapshot
 * records them, node_exporter's labels of the mount that holds ROOT
 * (its mount point, source and type in mountinfo), so that a rule can
 * join them to node_filesystem_* on mountpoint. */
#define CAP_LABELS { "fs", "mountpoint", "device", "fstype" }

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
	    "bytes", CAP_LABELS },
	[M_AVAIL] = { "iocensus_fs_avail_bytes", "Bytes available to "
	    "unprivileged users (statvfs f_bavail x f_frsize) at the latest "
	    "complete snapshot.", "bytes", CAP_LABELS },
	[M_INODES] = { "iocensus_fs_inodes", "Inodes of the file system "
	    "(statvfs f_files) at the latest complete snapshot.", "inodes",
	    CAP_LABELS },
	[M_FREE_INODES] = { "iocensus_fs_free_inodes", "Free inodes "
	    "(statvfs f_ffree) at the latest complete snapshot.", "inodes",
	    CAP_LABELS },
	[M_FREE] = { "iocensus_fs_free_bytes", "Free bytes, the blocks "
	    "reserved for root included (statvfs f_bfree x f_frsize), at the "
	    "latest complete snapshot: df's Use% is (size - free) / (size - "
	    "free + avail).", "bytes", CAP_LABELS },
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
	    { "fs", "mountpoint", "device", "fstype", "resource",
	    "bound" } },
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

/* A project in the snapshot: its name and its row. */
struct pick {
	const char *name;
	const struct prow *p;
};

/* Bytes descending, then name: the order --top keeps the first of. A
 * project named as the sum of the rest is one of the rest. */
static int
pick_cmp(const void *pa, const void *pb)
{
	const struct pick *a = pa, *b = pb;
	int oa = !strcmp(a->name, SPACE_METRICS_OTHER);
	int ob = !strcmp(b->name, SPACE_METRICS_OTHER);

	if (oa != ob)
		return oa - ob;
	if (a->p->bytes != b->p->bytes)
		return a->p->bytes > b->p->bytes ? -1 : 1;
	return strcmp(a->name, b->name);
}

static int
name_cmp(const void *pa, const void *pb)
{
	return strcmp(*(char *const *)pa, *(char *const *)pb);
}

/* A project with a limit keeps its series under any --top: its limit
 * and its usage feed the alerts on that limit. */
static int
limited(const struct prow *p)
{
	return (p->has & (PROW_LIMIT_BYTES | PROW_LIMIT_INODES)) != 0;
}

/* Which of the nv projects v keep their series under --top top (0:
 * all): the top with the most bytes and every one with a limit, into k
 * (names copied). */
static void
keep_top(struct pick *v, size_t nv, size_t top, struct mkeep *k)
{
	int named_other = 0;

	for (size_t i = 0; top && i < nv; i++)
		named_other |= !strcmp(v[i].name, SPACE_METRICS_OTHER);
	k->all = top == 0 || (nv <= top && !named_other);
	if (k->all)
		return;
	qsort(v, nv, sizeof *v, pick_cmp);
	k->name = xcalloc(nv + 1, sizeof *k->name);
	for (size_t i = 0, largest = 0; i < nv; i++) {
		if (!strcmp(v[i].name, SPACE_METRICS_OTHER))
			continue;
		if (largest < top)
			largest++;
		else if (!limited(v[i].p))
			continue;
		k->name[k->n++] = xstrdup(v[i].name);
	}
	qsort(k->name, k->n, sizeof *k->name, name_cmp);
}

/* The sums of the projects left out, as the additive families' samples
 * of project "other": their entries only when each of them has its. */
struct other {
	size_t n;
	int64_t files, dirs, entries;
	i128 bytes, alloc;
	int entries_all;
};

static void
other_add(struct other *o, const struct prow *p)
{
	o->entries_all &= (p->has & PROW_ENTRIES) != 0;
	o->n++;
	o->files += p->files, o->dirs += p->dirs, o->entries += p->entries;
	o->bytes += p->bytes, o->alloc += p->alloc;
}

static void
one_project(struct result *r, const char *const *l, const struct prow *p)
{
	space_metrics_put(r, M_PFILES, l, p->files);
	space_metrics_put(r, M_PBYTES, l, p->bytes);
	space_metrics_put(r, M_PALLOC, l, p->alloc);
	space_metrics_put(r, M_PDIRS, l, p->dirs);
	if (p->has & PROW_ENTRIES)
		space_metrics_put(r, M_PINODES, l, p->entries);
	if (p->has & PROW_LIMIT_BYTES)
		space_metrics_put(r, M_PLIMIT_BYTES, l, p->limit_bytes);
	if (p->has & PROW_LIMIT_INODES)
		space_metrics_put(r, M_PLIMIT_INODES, l, p->limit_inodes);
}

/* The projects of snapshot id: totals, limits where set; under --top,
 * the sums of the rest as project "other" (no limit: a limit is no
 * sum), and which are kept into *k. */
static int
projects(sqlite3 *db, struct result *r, const char *fs, int64_t id,
    size_t top, struct mkeep *k, char *err, size_t errlen)
{
	struct other o = { .entries_all = 1 };
	struct prow *rows;
	struct pick *v;
	char **names;
	size_t n, nnames, nv = 0;

	if (query_census_project_rows(db, fs, NULL, INT64_MAX, &rows, &n,
	    &names, &nnames, err, errlen) < 0)
		return -1;
	v = xcalloc(nnames + 1, sizeof *v);
	for (size_t a = 0, b; a < n; a = b) {
		const struct prow *p;

		for (b = a; b < n && rows[b].name == rows[a].name; b++)
			;
		if ((p = space_growth_pts_row(rows, a, b, id)))
			v[nv++] = (struct pick){ names[rows[a].name], p };
	}
	keep_top(v, nv, top, k);
	for (size_t i = 0; i < nv; i++) {	/* in the loader's order */
		const char *l[] = { fs, v[i].name };

		if (space_metrics_kept(k, v[i].name))
			one_project(r, l, v[i].p);
		else
			other_add(&o, v[i].p);
	}
	if (o.n) {
		const char *l[] = { fs, SPACE_METRICS_OTHER };
		struct prow p = { .files = o.files, .dirs = o.dirs,
		    .bytes = o.bytes, .alloc = o.alloc, .entries = o.entries,
		    .has = o.entries_all ? PROW_ENTRIES : 0 };

		one_project(r, l, &p);
	}
	free(v);
	free(rows);
	query_census_names_free(names, nnames);
	return 0;
}

/* The cold bytes of the projects k leaves out, per threshold, as
 * project "other": rows come by threshold ascending, so a threshold's
 * sum is whole when the next one starts. */
static void
cold_other(struct result *r, const char *fs, const char *metric,
    int64_t days, i128 bytes)
{
	char d[24];

	snprintf(d, sizeof d, "%lld", (long long)days);
	space_metrics_put(r, M_PCOLD, (const char *const[]){ fs,
	    SPACE_METRICS_OTHER, metric, d }, bytes);
}

/* The cold data of snapshot id (v_cold), by atime and by mtime; the
 * projects k leaves out summed as "other". */
static int
cold(sqlite3 *db, struct result *r, const char *fs, int64_t id,
    const struct mkeep *k, char *err, size_t errlen)
{
	static const char *const by[] = { "atime", "mtime" };

	for (size_t m = 0; m < sizeof by / sizeof *by; m++) {
		struct cold_row *c;
		size_t n, nother = 0;
		i128 other = 0;

		if (query_census_cold(db, id, by[m], BY_PROJECT, &c, &n, err,
		    errlen) < 0)
			return -1;
		for (size_t i = 0; i < n; i++) {
			char days[24];

			if (nother && c[i].days != c[i - 1].days) {
				cold_other(r, fs, by[m], c[i - 1].days, other);
				other = 0, nother = 0;
			}
			snprintf(days, sizeof days, "%lld",
			    (long long)c[i].days);
			if (c[i].key && !space_metrics_kept(k, c[i].key))
				other += c[i].bytes, nother++;
			else if (c[i].key)
				space_metrics_put(r, M_PCOLD, (const char
				    *const[]){ fs, c[i].key, by[m], days },
				    c[i].bytes);
			else
				space_metrics_put(r, M_COLD, (const char
				    *const[]){ fs, by[m], days }, c[i].bytes);
		}
		if (nother)
			cold_other(r, fs, by[m], c[n - 1].days, other);
		query_census_cold_free(c, n);
	}
	return 0;
}

/* The capacity of snapshot s (its statvfs at the scan), labelled as
 * CAP_LABELS: a label the snapshot does not record is left out. */
static void
capacity(struct result *r, const struct snap *s)
{
	const char *l[] = { s->fs, s->mountpoint, s->source, s->fstype };
	const struct nint *v[] = { [M_SIZE - M_SIZE] = &s->cap.bytes,
	    [M_AVAIL - M_SIZE] = &s->cap.avail_bytes,
	    [M_INODES - M_SIZE] = &s->cap.inodes,
	    [M_FREE_INODES - M_SIZE] = &s->cap.free_inodes,
	    [M_FREE - M_SIZE] = &s->cap.free_bytes };

	for (int m = M_SIZE; m <= M_FREE; m++)
		if (v[m - M_SIZE]->has)
			space_metrics_put(r, m, l, v[m - M_SIZE]->v);
}

/* The samples of one file system from its latest complete snapshot s;
 * its capacity when it is the one that carries its device's. */
static int
fs_samples(sqlite3 *db, struct result *r, const struct snap *s, int own,
    size_t top, struct mkeep *k, char *err, size_t errlen)
{
	struct nint dur = { 0, 0 };

	sample(r, M_FILES, s->fs, s->files);
	sample(r, M_BYTES, s->fs, s->bytes);
	sample(r, M_ALLOC, s->fs, s->alloc);
	sample(r, M_TIME, s->fs, (struct nint){ s->started_at, 1 });
	if (s->finished_at.has && s->finished_at.v >= s->started_at)
		dur = (struct nint){ s->finished_at.v - s->started_at, 1 };
	sample(r, M_DURATION, s->fs, dur);
	sample(r, M_ERRORS, s->fs, s->errors);
	if (own)
		capacity(r, s);
	if (projects(db, r, s->fs, s->id, top, k, err, errlen) < 0)
		return -1;
	return cold(db, r, s->fs, s->id, k, err, errlen);
}

/*
 * Capacity is the device's, not a name's: two names on one device (two
 * roots on one mounted file system, a bind mount) have one, and their
 * alerts must fire once. own[i] is 1 for the name that carries it: of
 * the names whose latest complete snapshots have one fs_device (as
 * `iocensus capacity` groups them), the first in byte order, so that
 * the series keeps its labels from one run to the next; a name whose
 * device is unknown carries its own.
 */
static void
owners(const struct snap *s, size_t n, int *own)
{
	for (size_t i = 0; i < n; i++) {
		own[i] = s[i].id != 0;
		for (size_t j = 0; own[i] && s[i].fs_device && j < i; j++)
			if (s[j].id != 0 && s[j].fs_device &&
			    !strcmp(s[j].fs_device, s[i].fs_device))
				own[i] = 0;
	}
}

/* s[i]: the latest complete snapshot of l[i] (id 0: none). 0 or -1. */
static int
load(sqlite3 *db, const struct fs_latest *l, size_t n, struct snap *s,
    char *err, size_t errlen)
{
	for (size_t i = 0; i < n; i++)
		if (l[i].complete && query_census_snapshot(db, l[i].complete,
		    &s[i], err, errlen) < 0)
			return -1;
	return 0;
}

struct result *
space_metrics(sqlite3 *db, const struct opts *o, char *err, size_t errlen)
{
	struct fs_latest *l;
	struct result *r;
	struct mkeep *keep;
	struct snap *s;
	int *own;
	size_t n;
	int rc;

	assert(db != NULL && o != NULL && err != NULL && errlen > 0);
	assert(o != NULL);
	if (query_census_fs_latest(db, &l, &n, err, errlen) < 0)
		return NULL;
	s = xcalloc(n + 1, sizeof *s);
	own = xcalloc(n + 1, sizeof *own);
	keep = xcalloc(n + 1, sizeof *keep);
	r = result_new("metrics", "Census metrics");
	for (int m = 0; m < M_NFAMILY; m++)
		add_family(r, m);
	rc = load(db, l, n, s, err, errlen);
	owners(s, n, own);
	for (size_t i = 0; i < n && rc == 0; i++) {
		sample(r, M_COMPLETE, l[i].fs,
		    (struct nint){ l[i].latest == l[i].complete, 1 });
		if (s[i].id)
			rc = fs_samples(db, r, &s[i], own[i], o->top,
			    &keep[i], err, errlen);
	}
	if (rc == 0 && n > 0)
		rc = space_metrics_cap(db, r, s, own, keep, n, err, errlen);
	if (rc == 0 && n == 0)
		result_note(r, "No snapshots in the database.");
	for (size_t i = 0; i < n; i++) {
		query_census_snap_clear(&s[i]);
		for (size_t j = 0; j < keep[i].n; j++)
			free(keep[i].name[j]);
		free(keep[i].name);
	}
	free(keep);
	free(s);
	free(own);
	query_census_fs_latest_free(l, n);
	if (rc < 0) {
		result_free(r);
		r = NULL;
	}
	return r;
}
