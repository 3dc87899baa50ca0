/*
 * space_files: file-size and age distributions of one snapshot, by count and
 * by bytes (docs/analyses.md, "File distributions";
 * Figures 8 and 9 of the Intrepid study).
 *
 * The histogram is the whole file system's, one project's, or the whole
 * minus some projects (bucket by bucket, exact integers). Cumulative
 * shares are exact at bucket edges, which is where the study's thresholds
 * (1 MiB, 2 MiB, 128 MiB, 32 days) lie. Percentiles fall inside buckets
 * and are interpolated linearly there, and say so.
 */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "space.h"
#include "query/query.h"
#include "space_files_int.h"
#include "space_growth_int.h"
#include "space_names_int.h"
#include "human.h"
#include "space_snapout_int.h"
#include "xalloc.h"

/* The position of --by in metric_file[] (lib/metric.h): 0 is size, the
 * others are ages; or -1. */
static int
parse_metric(const char *s)
{
	for (int i = 0; i < METRIC_NFILE; i++)
		if (!s ? i == 0 : strcmp(s, space_files_metric(i)) == 0)
			return i;
	return -1;
}

/* "size, atime, mtime or ctime". */
static const char *
metric_choices(char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = 0;
	for (int i = 0; i < METRIC_NFILE && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i == 0 ? "" :
		    i == METRIC_NFILE - 1 ? " or " : ", ",
		    space_files_metric(i));
	return buf;
}

/* Whole file system, one project, or the whole minus excluded ones. */
static int
load_hist(sqlite3 *db, const struct opts *o, int64_t id,
    const char *metric, struct chist *h, struct result *r, char *err,
    size_t errlen)
{
	struct chist x;
	int rows = query_census_hist(db, id, o->project, metric, h, err,
	    errlen);

	if (rows < 0)
		return -1;
	if (rows == 0 && o->project)
		result_note(r, "Project %s has no files in snapshot %lld.",
		    o->project, (long long)id);
	for (size_t e = 0; e < o->nexclude; e++) {
		rows = query_census_hist(db, id, o->exclude[e], metric, &x, err,
		    errlen);
		if (rows < 0)
			return -1;
		if (rows == 0)
			result_note(r, "Project %s has no files in snapshot"
			    " %lld: nothing excluded for it.", o->exclude[e],
			    (long long)id);
		for (int s = 0; s < HIST_NB; s++) {
			if (!x.has[s])
				continue;
			if (!h->has[s] || h->files[s] < x.files[s] ||
			    h->bytes[s] < x.bytes[s]) {
				snprintf(err, errlen, "snapshot %lld: project"
				    " %s's %s histogram exceeds the file"
				    " system's", (long long)id, o->exclude[e],
				    metric);
				return -1;
			}
			h->files[s] -= x.files[s];
			h->bytes[s] -= x.bytes[s];
		}
	}
	return 0;
}

static void
to_dist(const struct chist *h, int age, struct dist *d)
{
	memset(d, 0, sizeof *d);
	d->age = age;
	for (int s = 0; s < HIST_NB; s++) {
		size_t k = d->n;
		if (!h->has[s] || h->files[s] == 0)
			continue;
		d->slot[k] = s;
		d->lo[k] = age ? h->lo[s] / DIST_DAY : h->lo[s];
		d->hi[k] = age ? h->hi[s] / DIST_DAY : h->hi[s];
		d->files[k] = h->files[s];
		d->bytes[k] = h->bytes[s];
		d->nfiles += h->files[s];
		d->nbytes += h->bytes[s];
		d->n++;
	}
}

/*
 * The selection's smallest and largest value. fsscan keeps them per
 * project since schema 3: exact for one project, and for all but some
 * (the extremes over the other projects). An older snapshot kept them for
 * the whole file system only: they still bound the selection's
 * percentiles, but its largest file is unknown.
 */
static int
load_extent(sqlite3 *db, const struct opts *o, int64_t id, int metric,
    struct dist *d, struct result *r, char *err, size_t errlen)
{
	const char *m = space_files_metric(metric);
	int rc;

	if (o->project || o->nexclude) {
		rc = query_census_project_extent(db, id, m, o->project,
		    o->exclude,
		    o->nexclude, &d->ext_min, &d->ext_max, err, errlen);
		if (rc != 0) {
			d->has_ext = d->ext_exact = rc == 1;
			return rc < 0 ? -1 : 0;
		}
		result_note(r, "Snapshot #%lld keeps the extremes of the whole"
		    " file system only (it was written by an older fsscan):"
		    " the selection's %s is n/a, and its percentiles are"
		    " bounded by the whole file system's extremes.",
		    (long long)id, metric ? "oldest age" : "largest file");
	}
	rc = query_census_extent(db, id, m, &d->ext_min, &d->ext_max, err,
	    errlen);
	d->has_ext = rc == 1;
	d->ext_exact = rc == 1 && !o->project && !o->nexclude;
	return rc < 0 ? -1 : 0;
}

enum { D_LO, D_HI, D_FILES, D_BYTES, D_SF, D_SB, D_CF, D_CB };

static void
dist_table(struct result *r, const struct dist *d, const char *metric)
{
	const char *u = d->age ? "days" : "bytes";
	char title[96], caption[160], xlabel[48];
	enum col_fmt f = d->age ? CF_PLAIN : CF_BYTES;
	const struct rcol_spec cols[] = {
		[D_LO] = { "lo", "From", u, f, 0 },
		[D_HI] = { "hi", "Below", u, f, 0 },
		[D_FILES] = { "files", "Files", "files", CF_PLAIN, 0 },
		[D_BYTES] = { "bytes", "Bytes", "bytes", CF_BYTES, 0 },
		[D_SF] = { "share_files", "Files", "%", CF_PCT, 2 },
		[D_SB] = { "share_bytes", "Bytes", "%", CF_PCT, 2 },
		[D_CF] = { "cum_files", "Cumulative files", "%", CF_PCT, 2 },
		[D_CB] = { "cum_bytes", "Cumulative bytes", "%", CF_PCT, 2 },
	};
	struct rtable *t;
	i128 cf = 0, cb = 0;
	struct rfigure *fig;

	if (d->age)
		snprintf(title, sizeof title, "Age distribution by %s (log2"
		    " buckets; future timestamps first)", metric);
	t = result_table(r, "distribution", d->age ? title :
	    "File-size distribution (log2 buckets)", cols, 8);
	for (size_t k = 0; k < d->n; k++) {
		size_t row = result_row(t);
		cf += d->files[k];
		cb += d->bytes[k];
		if (d->slot[k] != HIST_UNDER)
			result_set_wide(t, row, D_LO, d->lo[k]);
		result_set_wide(t, row, D_HI, d->hi[k]);
		result_set_int(t, row, D_FILES, d->files[k]);
		result_set_wide(t, row, D_BYTES, d->bytes[k]);
		space_snapout_real(t, row, D_SF,
		    space_files_facts_frac(d->files[k], d->nfiles));
		space_snapout_real(t, row, D_SB,
		    space_files_facts_frac(d->bytes[k], d->nbytes));
		space_snapout_real(t, row, D_CF,
		    space_files_facts_frac(cf, d->nfiles));
		space_snapout_real(t, row, D_CB,
		    space_files_facts_frac(cb, d->nbytes));
	}
	if (d->age) {
		snprintf(title, sizeof title, "%s age CDF by count and by"
		    " bytes", metric);
		snprintf(caption, sizeof caption, "Share of files and of bytes"
		    " whose %s age is at or below each bucket edge (log2"
		    " buckets of days).", metric);
		snprintf(xlabel, sizeof xlabel, "%s age (days)", metric);
	}
	fig = result_figure(r, d->age ? "age_cdf" : "size_cdf", FIG_STEP,
	    r->ntable - 1, d->age ? title : "File-size CDF by count and by"
	    " bytes", d->age ? caption : "Share of files and of bytes at or"
	    " below each bucket edge (log2 buckets).", d->age ? xlabel :
	    "file size (bytes)", "cumulative share");
	fig->xcol = D_HI;
	fig->ycol[0] = D_CF;
	fig->ycol[1] = D_CB;
	fig->ny = 2;
	fig->xlog = 1;
}

enum pct_at { PCT_NONE, PCT_BUCKET, PCT_FUTURE };

/* x * k as a 256-bit number (high and low halves), for k < 2^64. */
static void
mul_small(u128 x, uint64_t k, u128 *hi, u128 *lo)
{
	u128 p0 = (u128)(uint64_t)x * k, p1 = (u128)(uint64_t)(x >> 64) * k;

	*lo = p0 + (p1 << 64);
	*hi = (p1 >> 64) + (*lo < p0);
}

/* Whether a * ka < t * kt, exactly, for non-negative a and t. */
static int
scaled_less(i128 a, uint64_t ka, i128 t, uint64_t kt)
{
	u128 ah, al, th, tl;

	mul_small((u128)a, ka, &ah, &al);
	mul_small((u128)t, kt, &th, &tl);
	return ah < th || (ah == th && al < tl);
}

/* The value below which pct% of the files (or bytes) lie, interpolated
 * within the bucket holding it, and never beyond the smallest or largest
 * value scanned when those are known. *at says where it lies: nowhere
 * (no files; NAN), in a bucket, or in the future row (NAN: no age).
 * Which bucket holds it is decided exactly, whatever the totals. */
static double
percentile(const struct dist *d, int pct, int by_bytes, size_t *bucket,
    enum pct_at *at)
{
	i128 total = by_bytes ? d->nbytes : d->nfiles, cum = 0;
	double x, past;

	*at = PCT_NONE;
	for (size_t k = 0; k < d->n; k++) {
		i128 v = by_bytes ? d->bytes[k] : d->files[k];
		if (v == 0 || scaled_less(cum + v, 100, total, (uint64_t)pct)) {
			cum += v;
			continue;
		}
		*bucket = k;
		*at = d->slot[k] == HIST_UNDER ? PCT_FUTURE : PCT_BUCKET;
		if (*at == PCT_FUTURE)
			return NAN;
		/* pct * total - 100 * cum, as 100 * (pct * q - cum) + pct * r
		 * with total = 100 q + r: no term overflows. */
		past = 100.0 * (double)(pct * (total / 100) - cum) +
		    (double)(pct * (total % 100));
		x = (double)d->lo[k] + past / (100.0 * (double)v) *
		    (double)(d->hi[k] - d->lo[k]);
		if (d->has_ext) {
			double unit = d->age ? DIST_DAY : 1;
			x = fmin(fmax(x, (double)d->ext_min / unit),
			    (double)d->ext_max / unit);
		}
		return x;
	}
	return NAN;
}

enum { Q_P, Q_COUNT, Q_CLO, Q_CHI, Q_BYTES, Q_BLO, Q_BHI, Q_METHOD };

/* How a percentile row's values were found, by count and by bytes (no
 * bytes: every selected file is empty). */
static const char *
pct_method(enum pct_at c, enum pct_at b, char *buf, size_t len)
{
	static const char *const how[] = {
		[PCT_NONE] = "no bytes (n/a)",
		[PCT_BUCKET] = "interpolated within bucket [lo, hi)",
		[PCT_FUTURE] = "in the future-timestamps row (n/a)",
	};

	if (c == PCT_NONE)
		return "no files";
	if (c == b)
		return c == PCT_BUCKET ? how[c] : "in the future-timestamps"
		    " row: no age (n/a)";
	snprintf(buf, len, "by count %s; by bytes %s", how[c], how[b]);
	return buf;
}

static void
pct_table(struct result *r, const struct dist *d)
{
	const char *u = d->age ? "days" : "bytes";
	enum col_fmt f = d->age ? CF_PLAIN : CF_BYTES;
	const struct rcol_spec cols[] = {
		[Q_P] = { "p", "Percentile", NULL, CF_PCT, 0 },
		[Q_COUNT] = { "by_count", "By count", u, f, 1 },
		[Q_CLO] = { "count_lo", "Bucket from", u, f, 0 },
		[Q_CHI] = { "count_hi", "Bucket below", u, f, 0 },
		[Q_BYTES] = { "by_bytes", "By bytes", u, f, 1 },
		[Q_BLO] = { "bytes_lo", "Bucket from", u, f, 0 },
		[Q_BHI] = { "bytes_hi", "Bucket below", u, f, 0 },
		[Q_METHOD] = { "method", "Method", NULL, CF_PLAIN, 0 },
	};
	static const int pcts[] = { 50, 90, 95, 99 };
	struct rtable *t = result_table(r, "percentiles", "Percentiles"
	    " (interpolated within buckets)", cols, 8);

	for (size_t i = 0; i < sizeof pcts / sizeof *pcts; i++) {
		size_t row = result_row(t), k;
		enum pct_at at[2];
		char how[128];
		result_set_real(t, row, Q_P, pcts[i] / 100.0);
		for (int b = 0; b < 2; b++) {
			double v = percentile(d, pcts[i], b, &k, &at[b]);
			if (at[b] != PCT_BUCKET)
				continue;
			result_set_real(t, row, b ? Q_BYTES : Q_COUNT, v);
			result_set_wide(t, row, b ? Q_BLO : Q_CLO, d->lo[k]);
			result_set_wide(t, row, b ? Q_BHI : Q_CHI, d->hi[k]);
		}
		result_set_text(t, row, Q_METHOD, pct_method(at[0], at[1], how,
		    sizeof how));
	}
}

static void
note_selection(struct result *r, const struct opts *o,
    const struct snap *s, int metric)
{
	char d[32], x[1024];
	size_t len = 0;

	x[0] = 0;
	for (size_t i = 0; i < o->nexclude && len < sizeof x; i++)
		len += (size_t)snprintf(x + len, sizeof x - len, "%s%s",
		    i ? ", " : "", o->exclude[i]);
	result_note(r, "Snapshot #%lld of %s, started %s UTC; %s; %s%s.",
	    (long long)s->id, s->fs, human_date(s->started_at, 1, d, sizeof d),
	    space_files_metric(metric), o->project ? "project " : o->nexclude ?
	    "all projects except " : "all files", o->project ? o->project : x);
	if (metric) {
		result_note(r, "Ages are relative to the snapshot's reference"
		    " time, %s UTC; timestamps in the future have their own"
		    " row.", human_date(s->now_ref, 1, d, sizeof d));
		if (metric == 1)
			space_snapout_atime_mode(r, s);
	}
	result_note(r, "Percentiles are interpolated linearly within the log2"
	    " bucket that holds the p-th file (or byte), and never beyond the"
	    " smallest or largest value scanned; cumulative shares are exact"
	    " at bucket edges.");
}

/* The latest complete snapshot of fs (NULL: of any) started in the
 * window: its id, or 0. */
static int64_t
latest(const struct snap *s, size_t n, const char *fs,
    const struct io_window *w)
{
	for (size_t i = n; i-- > 0;)
		if (s[i].complete && (!fs || !strcmp(s[i].fs, fs)) &&
		    s[i].started_at >= io_window_lo(w) &&
		    s[i].started_at < io_window_hi(w))
			return s[i].id;
	return 0;
}

/* --snapshot, else the latest complete snapshot of --fs in the window;
 * then --project must be a project of its file system (one left out with
 * --exclude-project that has no files is only noted). 1, 0 none, -1
 * error. */
static int
pick_snapshot(sqlite3 *db, const struct opts *o, struct snap *out,
    char *err, size_t errlen)
{
	struct snap *s;
	size_t n;
	const char *fs = NULL;
	int64_t id = o->snapshot;
	int rc;

	if (query_census_snapshots(db, &s, &n, err, errlen) < 0)
		return -1;
	rc = space_names_choose_fs(s, n, o->fs, 0, &fs, err, errlen);
	space_points_sort(s, n);
	if (rc >= 0 && id == 0)
		id = latest(s, n, o->fs ? fs : NULL, &o->win);
	if (rc >= 0 && id)
		rc = query_census_snapshot(db, id, out, err, errlen);
	query_census_snaps_free(s, n);
	if (rc < 0 || id == 0)
		return rc < 0 ? -1 : 0;
	if (rc == 0) {
		snprintf(err, errlen, FMT_USAGE "snapshot %lld does not exist",
		    (long long)id);
		return -1;
	}
	if (o->fs && strcmp(o->fs, out->fs)) {
		snprintf(err, errlen, FMT_USAGE "snapshot %lld is of file system"
		    " %s, not --fs %s", (long long)id, out->fs, o->fs);
		rc = -1;
	}
	if (rc > 0 && space_names_check_project(db, o->project, out->fs, 0,
	    err, errlen) < 0)
		rc = -1;
	for (size_t i = 0; rc > 0 && i < o->nexclude; i++)
		if (space_names_check_project(db, o->exclude[i], out->fs, 1,
		    err, errlen) < 0)
			rc = -1;
	if (rc < 0)
		query_census_snap_clear(out);
	return rc;
}

struct result *
space_files(sqlite3 *db, const struct opts *o, char *err, size_t errlen)
{
	int metric = parse_metric(o->by), rc;
	struct snap s = { 0 };
	struct result *r;
	struct chist h;
	struct dist d;
	double unres = NAN;

	assert(db != NULL && o != NULL && err != NULL && errlen > 0);
	if (metric < 0) {
		char choices[64];

		snprintf(err, errlen, FMT_USAGE "--by %s: expected %s", o->by,
		    metric_choices(choices, sizeof choices));
		return NULL;
	}
	if (o->project && o->nexclude) {
		snprintf(err, errlen,
		    FMT_USAGE "--project and --exclude-project"
		    " cannot be combined");
		return NULL;
	}
	if ((rc = pick_snapshot(db, o, &s, err, errlen)) < 0)
		return NULL;
	r = result_new("files", metric ? "File ages" : "File sizes");
	memset(&h, 0, sizeof h);
	if (rc == 0) {
		result_note(r, "No complete snapshots %s.", o->fs ? "of this file"
		    " system" : io_window_given(&o->win) ? "in the window" :
		    "in the database");
	} else {
		note_selection(r, o, &s, metric);
		if (!s.complete)
			result_note(r, "WARNING: snapshot %lld is not complete"
			    " (%s): the distribution is partial.",
			    (long long)s.id, s.status);
		if (load_hist(db, o, s.id, space_files_metric(metric), &h, r,
		    err, errlen) < 0 || space_snapout_unresolved(r, db, &s, NULL,
		    &unres,
		    err, errlen) < 0) {
			result_free(r);
			query_census_snap_clear(&s);
			return NULL;
		}
	}
	to_dist(&h, metric > 0, &d);
	if (rc > 0 && d.n && load_extent(db, o, s.id, metric, &d, r, err,
	    errlen) < 0) {
		result_free(r);
		query_census_snap_clear(&s);
		return NULL;
	}
	dist_table(r, &d, space_files_metric(metric));
	pct_table(r, &d);
	if (rc > 0)
		space_files_facts(r, &d, &s, metric, unres);
	else
		space_files_facts_table(r, &d);
	if (rc > 0 && metric == 0 && o->no_paths) {
		result_note(r, "The largest files and directories are left "
		    "out: this page was made without paths (--no-paths).");
	} else if (rc > 0 && metric == 0 && !o->project && !o->nexclude &&
	    space_files_top(r, db, &s, err, errlen) < 0) {
		result_free(r);
		r = NULL;
	} else if (rc > 0 && metric == 0 && (o->project || o->nexclude)) {
		result_note(r, "The largest files and directories are listed"
		    " for the whole file system only (without --project or"
		    " --exclude-project): a snapshot keeps their paths, not"
		    " their projects.");
	}
	query_census_snap_clear(&s);
	return r;
}
