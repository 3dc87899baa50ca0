/*
 * cli_report: `iocensus report` (cli_int.h). Runs every analysis the
 * database can answer, in a fixed order, and hands the results to the
 * summary, the HTML page and the bundle:
 *
 *   snapshots; per file system (in order of first snapshot): diff of its
 *   last two complete snapshots (by project), growth to the target, file
 *   sizes, atime, mtime and ctime ages of the latest complete snapshot;
 *   then throughput, cdf, idle, burst and devices over the window of o.
 *
 * What has no data still gets its section, with the analysis's own note
 * or, where the analysis cannot run (a diff without two complete
 * snapshots, a database without any), a note saying what it needs; the
 * summary says when there are no snapshots or no I/O samples at all.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_int.h"
#include "human.h"
#include "metric.h"
#include "outfile.h"
#include "render/render.h"
#include "xalloc.h"

#ifndef IOCENSUS_VERSION
#define IOCENSUS_VERSION "unknown"
#endif

struct parts {
	struct result **r;
	size_t n;
};

static void
push(struct parts *p, struct result *r)
{
	p->r = xrealloc(p->r, (p->n + 1) * sizeof *p->r);
	p->r[p->n++] = r;
}

static void
retitle(struct result *r, const char *fmt, const char *a, const char *b)
{
	char buf[512];

	snprintf(buf, sizeof buf, fmt, a, b);
	free(r->title);
	r->title = xstrdup(buf);
}

/* Cells of the snapshots table, by column key. */
static const struct cell *
snap_cell(const struct rtable *t, size_t row, const char *key)
{
	for (size_t c = 0; c < t->ncol; c++)
		if (!strcmp(t->col[c].key, key))
			return result_cell(t, row, (int)c);
	return NULL;
}

static int64_t
snap_int(const struct rtable *t, size_t row, const char *key)
{
	const struct cell *c = snap_cell(t, row, key);

	return c && c->kind == CK_INT ? c->v.i : -1;
}

static const char *
snap_fs(const struct rtable *t, size_t row)
{
	const struct cell *c = snap_cell(t, row, "fs");

	return c && c->kind == CK_TEXT ? c->v.s : NULL;
}

/* Rows of the complete snapshots of fs, by start time then id. */
static size_t
complete_rows(const struct rtable *t, const char *fs, size_t *row)
{
	size_t n = 0;

	for (size_t r = 0; r < t->nrow; r++) {
		const char *f = snap_fs(t, r);
		size_t k = n;

		if (!f || strcmp(f, fs) || snap_int(t, r, "complete") != 1)
			continue;
		n++;
		/* Insertion sort: the list is short and must be stable. */
		while (k > 0 && (snap_int(t, row[k - 1], "started_at") >
		    snap_int(t, r, "started_at") || (snap_int(t, row[k - 1],
		    "started_at") == snap_int(t, r, "started_at") &&
		    snap_int(t, row[k - 1], "id") > snap_int(t, r, "id")))) {
			row[k] = row[k - 1];
			k--;
		}
		row[k] = r;
	}
	return n;
}

/* The next power of ten above n files (at least 10). */
static double
default_target(int64_t files)
{
	double p = 10;

	while (p <= (double)files)
		p *= 10;
	return p;
}

static int
run(struct parts *p, struct result *r)
{
	if (!r)
		return -1;
	push(p, r);
	return 0;
}

/* The file distributions of the report, one per file metric (lib/metric.h:
 * --by of `iocensus files`, and the section titles). */
#define DIST(k)	(&metric_def[metric_file[k]])

/* A section the database cannot fill: its title and why, so the page
 * shows every section even without the data for it. */
static void
placeholder(struct parts *p, const char *cmd, const char *title,
    const char *fs, const char *why)
{
	char buf[512];
	struct result *r;

	if (fs)
		snprintf(buf, sizeof buf, "%s: %s", title, fs);
	else
		snprintf(buf, sizeof buf, "%s", title);
	r = result_new(cmd, buf);
	result_note(r, "%s", why);
	push(p, r);
}

/* The census sections of a file system without two complete snapshots
 * (fs NULL: of a database without snapshots): each says what it needs. */
static void
census_placeholders(struct parts *p, const char *fs, size_t ncomplete)
{
	char why[512], has[300];
	const char *the = fs ? fs : "this database";

	if (fs)
		snprintf(has, sizeof has, "%s has %s", fs, ncomplete ? "1" :
		    "none");
	else
		snprintf(has, sizeof has, "this database has none");
	snprintf(why, sizeof why, "Growth between snapshots needs two "
	    "complete snapshots of one file system; %s.", has);
	placeholder(p, "diff", "Growth between snapshots", fs, why);
	if (ncomplete)
		return;
	snprintf(why, sizeof why, "A growth projection needs complete "
	    "snapshots of one file system; %s.", has);
	placeholder(p, "growth", "Growth projection", fs, why);
	for (int k = 0; k < METRIC_NFILE; k++) {
		snprintf(why, sizeof why, "%s are read from a complete "
		    "snapshot; %s has none.", DIST(k)->title, the);
		placeholder(p, "files", DIST(k)->title, fs, why);
	}
}

/* Every census result of one file system. */
static int
fs_results(struct parts *p, sqlite3 *db, const struct an_opts *o,
    double target, const struct rtable *snaps, const char *fs,
    struct result *notes, char *err, size_t errlen)
{
	size_t *row = xcalloc(snaps->nrow + 1, sizeof *row);
	size_t n = complete_rows(snaps, fs, row);
	struct an_opts c = *o;
	char num[64], id[64];
	int rc = 0;

	c.project = NULL, c.exclude = NULL, c.nexclude = 0, c.fs = fs;
	if (n == 0) {
		result_note(notes, "File system %s has no complete snapshot:"
		    " no growth or file distributions for it.", fs);
		census_placeholders(p, fs, 0);
		goto out;
	}
	if (n >= 2) {
		c.snap_a = snap_int(snaps, row[n - 2], "id");
		c.snap_b = snap_int(snaps, row[n - 1], "id");
		c.by = "project";
		if ((rc = run(p, an_diff(db, &c, err, errlen))) < 0)
			goto out;
		snprintf(num, sizeof num, "#%lld to #%lld", (long long)c.snap_a,
		    (long long)c.snap_b);
		retitle(p->r[p->n - 1], "Growth of %s: snapshots %s", fs, num);
	} else {
		result_note(notes, "File system %s has one complete snapshot:"
		    " no growth between snapshots.", fs);
		census_placeholders(p, fs, 1);
	}
	c.target = target > 0 ? target : default_target(snap_int(snaps,
	    row[n - 1], "files"));
	c.metric_bytes = 0;
	if ((rc = run(p, an_growth(db, &c, err, errlen))) < 0)
		goto out;
	human_real(c.target, 0, num, sizeof num);
	retitle(p->r[p->n - 1], "Growth projection: %s to %s files", fs, num);
	c.snapshot = snap_int(snaps, row[n - 1], "id");
	snprintf(id, sizeof id, "%s (snapshot #%lld)", fs,
	    (long long)c.snapshot);
	for (int k = 0; k < METRIC_NFILE; k++) {
		c.by = DIST(k)->name;
		if ((rc = run(p, an_files(db, &c, err, errlen))) < 0)
			goto out;
		retitle(p->r[p->n - 1], "%s: %s", DIST(k)->title, id);
	}
out:
	free(row);
	return rc;
}

static int
census_results(struct parts *p, sqlite3 *db, const struct an_opts *o,
    double target, struct result *notes, char *err, size_t errlen)
{
	const struct rtable *snaps;
	struct result *s = an_snapshots(db, o, err, errlen);

	if (run(p, s) < 0)
		return -1;
	if (result_table_index(s, "snapshots") < 0 ||
	    s->table[result_table_index(s, "snapshots")].nrow == 0) {
		result_note(notes, "No snapshots: the database holds no fsscan "
		    "snapshot, so the census sections are empty.");
		census_placeholders(p, NULL, 0);
		return 0;
	}
	snaps = &s->table[result_table_index(s, "snapshots")];
	for (size_t r = 0; r < snaps->nrow; r++) {
		const char *fs = snap_fs(snaps, r);
		int seen = 0;

		for (size_t k = 0; fs && k < r; k++)
			seen |= snap_fs(snaps, k) && !strcmp(snap_fs(snaps, k),
			    fs);
		if (fs && !seen && fs_results(p, db, o, target, snaps, fs,
		    notes, err, errlen) < 0)
			return -1;
	}
	return 0;
}

/* Hosts whose samples were quarantined, at most this many by name. */
#define QUAR_HOSTS 10

/* What ingest set apart (wrong clocks): said, since no section shows it. */
static int
quarantine_notes(sqlite3 *db, struct result *notes, char *err,
    size_t errlen)
{
	struct quar_list q;
	char a[32], b[32];

	if (query_quar_hosts(db, &q, err, errlen) < 0)
		return -1;
	for (size_t i = 0; i < q.n && i < QUAR_HOSTS; i++)
		result_note(notes, "Quarantined, not analysed: %" PRIu64
		    " device-samples of host %s, times %s to %s UTC (before "
		    "2003, or later than their ingest plus a day: a wrong "
		    "clock); v_io_quarantine lists them.", q.e[i].samples,
		    q.e[i].host, human_date(q.e[i].first, 1, a, sizeof a),
		    human_date(q.e[i].last, 1, b, sizeof b));
	if (q.n > QUAR_HOSTS)
		result_note(notes, "Quarantined, not analysed: samples of %zu "
		    "more hosts (v_io_quarantine).", q.n - QUAR_HOSTS);
	query_quar_free(&q);
	return 0;
}

static int
io_results(struct parts *p, sqlite3 *db, const struct an_opts *o,
    struct result *notes, char *err, size_t errlen)
{
	struct result *(*const fn[])(sqlite3 *, const struct an_opts *,
	    char *, size_t) = { an_throughput, an_cdf, an_idle, an_burst,
	    an_devices };
	struct an_opts c = *o;
	struct io_window all = { 0, 0, NULL, 0 };
	struct host_list hl;

	/* Hosts with data at any time: none means nothing was ingested. */
	if (query_hosts_load(db, &all, &hl, err, errlen) < 0)
		return -1;
	if (hl.n == 0)
		result_note(notes, "No I/O samples ingested: the database "
		    "holds no iostatmon data (iocensus ingest loads it), so "
		    "the I/O sections are empty.");
	query_hosts_free(&hl);
	if (quarantine_notes(db, notes, err, errlen) < 0)
		return -1;

	if (c.every <= 0)
		c.every = 3600;
	c.strict = 0;
	for (size_t i = 0; i < sizeof fn / sizeof *fn; i++)
		if (run(p, fn[i](db, &c, err, errlen)) < 0)
			return -1;
	return 0;
}

int
cli_report_write(sqlite3 *db, const struct an_opts *o, double target,
    const char *title, const char *html_path, const char *bundle_path,
    char *err, size_t errlen)
{
	struct parts p = { NULL, 0 };
	struct result *notes = result_new("summary", "Summary");
	char *html = NULL;
	size_t len = 0;
	struct outfile page;
	FILE *f;
	int rc = -1;

	push(&p, NULL);		/* the summary's place, filled below */
	if (census_results(&p, db, o, target, notes, err, errlen) < 0 ||
	    io_results(&p, db, o, notes, err, errlen) < 0)
		goto out;
	p.r[0] = an_summary(p.r + 1, p.n - 1);
	for (size_t i = 0; i < notes->nnote; i++)
		result_note(p.r[0], "%s", notes->note[i]);
	f = open_memstream(&html, &len);
	if (render_html(f, p.r, p.n, title ? title : "iocensus report",
	    "Generated by iocensus "
	    IOCENSUS_VERSION " from the census database.") < 0) {
		fclose(f);
		snprintf(err, errlen, "cannot format the report");
		goto out;
	}
	fclose(f);
	/* All or nothing: the page is renamed into place only once the
	 * bundle is (lib/outfile.h). */
	if (outfile_open(&page, html_path, err, errlen) < 0)
		goto out;
	if (outfile_write(&page, html, len, err, errlen) < 0)
		goto out;
	if (bundle_path && render_bundle(bundle_path, html, len, p.r, p.n, err,
	    errlen) < 0) {
		outfile_abort(&page);
		goto out;
	}
	if (outfile_commit(&page, err, errlen) < 0)
		goto out;
	rc = 0;
out:
	for (size_t i = 0; i < p.n; i++)
		result_free(p.r[i]);
	free(p.r);
	free(html);
	result_free(notes);
	return rc;
}
