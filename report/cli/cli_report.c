/*
 * cli_report: `iocensus report` (cli_int.h). Runs every analysis the
 * database can answer, in a fixed order, and hands the results to the
 * summary, the HTML page and the bundle:
 *
 *   snapshots and capacity; per file system (in order of first
 *   snapshot): the diff of its first and last points in the window (by
 *   project), the file count's growth to the target and the used space's
 *   to 100% of capacity (fitted on the points before the window's end),
 *   file sizes, atime, mtime and ctime ages of its latest point, its
 *   cold data (not read in N days, per project) and where its space is
 *   (a treemap of its projects and their largest directories); usage by
 *   project, user and group; then throughput, cdf, idle, burst, devices
 *   and health. The window (--from/--to, --quarter) drives every section.
 *   Points are complete snapshots, one per day (space/space_points.c).
 *
 * --fs and --project narrow it (struct report_scope): the sections of
 * other file systems are not run, and the census tables keep the rows of
 * the names given. The summary looks --horizon days past the window's
 * end (without --to, past the day of the latest point shown).
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
#include "floordiv.h"
#include "human.h"
#include "metric.h"
#include "outfile.h"
#include "render/render.h"
#include "space/space.h"
#include "summary/summary.h"
#include "traffic/traffic.h"
#include "xalloc.h"

#ifndef IOCENSUS_VERSION
#define IOCENSUS_VERSION "unknown"
#endif

struct parts {
	struct result **r;
	size_t n;
	const struct report_scope *scope;
	int64_t end;		/* the window's end, else the latest point's
				   start: where the red list's horizon
				   starts */
};

static void
push(struct parts *p, struct result *r)
{
	p->r = xreallocarray(p->r, p->n + 1, sizeof *p->r);
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

/* The census sections of a file system without points in the window
 * (fs NULL: of a database without snapshots): each says what it needs.
 * npoints: the file system's points in the window. */
static void
census_placeholders(struct parts *p, const char *fs, size_t npoints,
    int window)
{
	char why[512], has[300];
	const char *the = fs ? fs : "this database";
	const char *in = window ? " in the window" : "";

	if (fs)
		snprintf(has, sizeof has, "%s has %s%s", fs, npoints ? "1" :
		    "none", in);
	else
		snprintf(has, sizeof has, "this database has none");
	snprintf(why, sizeof why, "Growth between snapshots needs two "
	    "complete snapshots of one file system a day or more apart; %s.",
	    has);
	placeholder(p, "diff", "Growth between snapshots", fs, why);
	if (npoints)
		return;
	snprintf(why, sizeof why, "A growth projection needs complete "
	    "snapshots of one file system; %s.", has);
	placeholder(p, "growth", "Growth projection", fs, why);
	placeholder(p, "growth", "Space projection", fs, why);
	for (int k = 0; k < METRIC_NFILE; k++) {
		snprintf(why, sizeof why, "%s are read from a complete "
		    "snapshot; %s has none%s.", DIST(k)->title, the, in);
		placeholder(p, "files", DIST(k)->title, fs, why);
	}
	snprintf(why, sizeof why, "Cold data is read from a complete "
	    "snapshot; %s has none%s.", the, in);
	placeholder(p, "cold", "Cold data", fs, why);
	snprintf(why, sizeof why, "Where the space is is read from a complete"
	    " snapshot; %s has none%s.", the, in);
	placeholder(p, "treemap", "Where the space is", fs, why);
}

/* The figure of a result gets another key (the summary copies the space
 * projections by it) and a title naming the file system. */
static void
rekey_figure(struct result *r, const char *key, const char *fs)
{
	char title[512];

	if (r->nfig == 0)
		return;
	free(r->fig[0].key);
	r->fig[0].key = xstrdup(key);
	snprintf(title, sizeof title, "Used space of %s, its projection and"
	    " its capacity", fs);
	free(r->fig[0].title);
	r->fig[0].title = xstrdup(title);
}

/* Whether name is one of list[0..n) (n == 0: every name is). */
static int
in_list(const char *const *list, size_t n, const char *name)
{
	if (n == 0)
		return 1;
	for (size_t i = 0; i < n && name; i++)
		if (!strcmp(list[i], name))
			return 1;
	return 0;
}

/* Keep the rows of table `table` (every table: NULL) of r whose text
 * column `col` is one of list[0..n). */
static void
narrow(struct result *r, const char *table, const char *col,
    const char *const *list, size_t n)
{
	if (n == 0)
		return;
	for (size_t k = 0; k < r->ntable; k++) {
		struct rtable *t = &r->table[k];
		unsigned char *keep;
		int c = -1;

		for (size_t j = 0; j < t->ncol; j++)
			if (!strcmp(t->col[j].key, col))
				c = (int)j;
		if (c < 0 || (table && strcmp(t->key, table)))
			continue;
		keep = xcalloc(t->nrow + 1, 1);
		for (size_t row = 0; row < t->nrow; row++) {
			const struct cell *x = result_cell(t, row, c);
			keep[row] = x->kind == CK_TEXT && in_list(list, n,
			    x->v.s);
		}
		result_keep_rows(t, keep);
		free(keep);
	}
}

/* Whether "a, b and c" (space_devices_names) names one of list. */
static int
names_in_list(const char *names, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(list[i]);
		for (const char *p = names; len && *p && (p = strstr(p,
		    list[i])); p++)
			if ((p == names || (p - names >= 2 && !strncmp(p - 2, ", ", 2)) ||
			    (p - names >= 5 && !strncmp(p - 5, " and ", 5))) &&
			    (!p[len] || !strncmp(p + len, ", ", 2) ||
			    !strncmp(p + len, " and ", 5)))
				return 1;
	}
	return 0;
}

/* The devices of capacity's table that hold one of the file systems
 * named; their total, a sum over devices left out, goes too. */
static void
narrow_devices(struct result *r, const struct report_scope *sc)
{
	int k = result_table_index(r, "devices");
	struct rtable *t;
	unsigned char *keep;

	if (k < 0 || sc->nfs == 0)
		return;
	t = &r->table[k];
	keep = xcalloc(t->nrow + 1, 1);
	for (size_t row = 0; row < t->nrow; row++) {
		const struct cell *d = result_cell(t, row, 0);
		const struct cell *x = result_cell(t, row, 1);
		keep[row] = x->kind == CK_TEXT && !(d->kind == CK_TEXT &&
		    !strcmp(d->v.s, "total")) && names_in_list(x->v.s,
		    sc->fs, sc->nfs);
	}
	result_keep_rows(t, keep);
	free(keep);
}

/* The census results from `from` on, narrowed to the file systems and
 * projects named (--fs, --project). */
static void
narrow_census(struct parts *p, size_t from)
{
	const struct report_scope *sc = p->scope;

	for (size_t i = from; i < p->n; i++) {
		if (!strcmp(p->r[i]->command, "capacity"))
			narrow_devices(p->r[i], sc);
		narrow(p->r[i], NULL, "fs", sc->fs, sc->nfs);
		narrow(p->r[i], NULL, "project", sc->project, sc->nproject);
	}
}

/* The diff of the window's first and last points. */
static int
fs_diff(struct parts *p, sqlite3 *db, struct opts *c, const char *fs,
    const int64_t *id, size_t k, size_t nrescan, char *err, size_t errlen)
{
	struct opts d = *c;
	char num[64];

	/* the points are picked: a diff of ids, not of the window */
	d.win.has_from = d.win.has_to = 0;
	d.snap_a = id[0];
	d.snap_b = id[k - 1];
	d.by = "project";
	if (run(p, space_diff(db, &d, err, errlen)) < 0)
		return -1;
	narrow(p->r[p->n - 1], "groups", "name", p->scope->project,
	    p->scope->nproject);
	snprintf(num, sizeof num, "#%lld to #%lld", (long long)d.snap_a,
	    (long long)d.snap_b);
	retitle(p->r[p->n - 1], "Growth of %s: snapshots %s", fs, num);
	result_note(p->r[p->n - 1], "The first and the last of %zu points of"
	    " %s in the window (one per day%s).", k, fs, nrescan ?
	    ": a snapshot less than a day before the next is a rescan, and"
	    " the later one counts" : "");
	return 0;
}

/* The file count to the target, and the used space to 100%. */
static int
fs_growth(struct parts *p, sqlite3 *db, struct opts *c,
    const struct opts_target *target, const char *fs, int64_t files,
    char *err, size_t errlen)
{
	char num[64];

	c->metric = OPTS_FILES;
	c->target = target->given ? *target : (struct opts_target){ 1,
	    UNITS_PLAIN, default_target(files) };
	if (run(p, space_growth(db, c, err, errlen)) < 0)
		return -1;
	human_real(c->target.v, 0, num, sizeof num);
	if (c->target.kind == UNITS_PERCENT)
		snprintf(num, sizeof num, "%g%% of the inodes",
		    100 * c->target.v);
	retitle(p->r[p->n - 1], "Growth projection: %s to %s files", fs, num);
	c->metric = OPTS_USED;
	c->target = (struct opts_target){ 0, UNITS_PERCENT, 1 };
	if (run(p, space_growth(db, c, err, errlen)) < 0)
		return -1;
	retitle(p->r[p->n - 1], "Space projection: %s to %s", fs,
	    "100% of its capacity");
	rekey_figure(p->r[p->n - 1], "capacity", fs);
	return 0;
}

/* Every census result of one file system: its points are its complete
 * snapshots in the window, one per day. */
static int
fs_results(struct parts *p, sqlite3 *db, const struct opts *o,
    const struct opts_target *target, const struct snap *s, size_t n,
    const char *fs, struct result *notes, char *err, size_t errlen)
{
	size_t *keep = xcalloc(n + 1, sizeof *keep), k, nrescan;
	int64_t *id = xcalloc(n + 1, sizeof *id);
	int window = io_window_given(&o->win);
	struct opts c = *o;
	char snap[300];
	int rc = 0;

	c.project = NULL, c.exclude = NULL, c.nexclude = 0, c.fs = fs;
	k = space_points_keep(s, n, fs, io_window_lo(&o->win),
	    io_window_hi(&o->win), keep, &nrescan);
	for (size_t i = 0; i < k; i++)
		id[i] = s[keep[i]].id;
	if (k == 0) {
		result_note(notes, "File system %s has no complete snapshot%s:"
		    " no growth or file distributions for it.", fs, window ?
		    " in the window" : "");
		census_placeholders(p, fs, 0, window);
		goto out;
	}
	if (k >= 2) {
		if ((rc = fs_diff(p, db, &c, fs, id, k, nrescan, err,
		    errlen)) < 0)
			goto out;
	} else {
		result_note(notes, "File system %s has one point%s (complete"
		    " snapshots a day or more apart): no growth between"
		    " snapshots.", fs, window ? " in the window" : "");
		census_placeholders(p, fs, 1, window);
	}
	if ((rc = fs_growth(p, db, &c, target, fs,
	    (int64_t)s[keep[k - 1]].files.v, err, errlen)) < 0)
		goto out;
	c.snapshot = id[k - 1];
	snprintf(snap, sizeof snap, "%s (snapshot #%lld)", fs,
	    (long long)c.snapshot);
	for (int m = 0; m < METRIC_NFILE; m++) {
		c.by = DIST(m)->name;
		if ((rc = run(p, space_files(db, &c, err, errlen))) < 0)
			goto out;
		retitle(p->r[p->n - 1], "%s: %s", DIST(m)->title, snap);
	}
	c.days = 0;
	c.age = "atime";
	c.by = NULL;			/* per project */
	if ((rc = run(p, space_cold(db, &c, err, errlen))) < 0)
		goto out;
	retitle(p->r[p->n - 1], "Cold data: %s%s", fs, ", not read in N days");
	c.snap_a = k >= 2 ? id[0] : 0;
	rc = run(p, space_treemap(db, &c, err, errlen));
out:
	free(keep);
	free(id);
	return rc;
}

/* Who holds the space: usage by project, user and group. */
static int
usage_results(struct parts *p, sqlite3 *db, const struct opts *o,
    char *err, size_t errlen)
{
	static const char *const by[] = { "project", "user", "group" };
	struct opts c = *o;

	c.fs = NULL;
	for (size_t i = 0; i < sizeof by / sizeof *by; i++) {
		c.by = by[i];
		if (run(p, space_usage(db, &c, err, errlen)) < 0)
			return -1;
		if (i == 0)
			narrow(p->r[p->n - 1], "usage", "name",
			    p->scope->project, p->scope->nproject);
	}
	return 0;
}

/* Without --to, the red list's horizon starts at the end of the day of
 * the latest point of the file systems shown (UTC). */
static void
latest_point(struct parts *p, const struct opts *o, const struct snap *s,
    size_t n, const char *fs)
{
	size_t *keep = xcalloc(n + 1, sizeof *keep), k, nrescan;

	k = space_points_keep(s, n, fs, io_window_lo(&o->win),
	    io_window_hi(&o->win), keep, &nrescan);
	if (!o->win.has_to && k > 0 && (floor_div64(s[keep[k - 1]].started_at,
	    86400) + 1) * 86400 > p->end)
		p->end = (floor_div64(s[keep[k - 1]].started_at, 86400) + 1) *
		    86400;
	free(keep);
}

static int
census_results(struct parts *p, sqlite3 *db, const struct opts *o,
    const struct opts_target *target, struct result *notes, char *err,
    size_t errlen)
{
	struct snap *s;
	const char **names;
	size_t n, nfs;
	int rc = -1;

	if (run(p, space_snapshots(db, o, err, errlen)) < 0 ||
	    query_census_snapshots(db, &s, &n, err, errlen) < 0)
		return -1;
	if (n == 0) {
		query_census_snaps_free(s, n);
		result_note(notes, "No snapshots: the database holds no fsscan "
		    "snapshot, so the census sections are empty.");
		census_placeholders(p, NULL, 0, 0);
		return 0;
	}
	/* File systems in the order of their first snapshot's id. */
	names = xcalloc(n + 1, sizeof *names);
	nfs = space_points_fs_names(s, n, names);
	space_points_sort(s, n);
	if (run(p, space_capacity(db, o, err, errlen)) < 0)
		goto out;
	for (size_t i = 0; i < nfs; i++) {
		if (!in_list(p->scope->fs, p->scope->nfs, names[i]))
			continue;
		latest_point(p, o, s, n, names[i]);
		if (fs_results(p, db, o, target, s, n, names[i], notes, err,
		    errlen) < 0)
			goto out;
	}
	rc = usage_results(p, db, o, err, errlen);
out:
	free(names);
	query_census_snaps_free(s, n);
	return rc;
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
io_results(struct parts *p, sqlite3 *db, const struct opts *o,
    struct result *notes, char *err, size_t errlen)
{
	struct result *(*const fn[])(sqlite3 *, const struct opts *,
	    char *, size_t) = { traffic_throughput, traffic_cdf, traffic_idle,
	    traffic_burst, traffic_devices, traffic_health };
	struct opts c = *o;
	struct io_window all = { 0 };
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
cli_report_write(sqlite3 *db, const struct opts *o,
    const struct opts_target *target, const struct report_scope *scope,
    const char *title, const char *html_path, const char *bundle_path,
    const struct outfile_opts *out, char *err, size_t errlen)
{
	struct parts p = { NULL, 0, NULL, 0 };
	struct summary_opts sopt;
	struct result *notes = result_new("summary", "Summary");
	char *html = NULL;
	size_t len = 0;
	struct outfile page;
	FILE *f;
	int rc = -1;

	p.scope = scope;
	p.end = o->win.has_to ? o->win.to : INT64_MIN;
	push(&p, NULL);		/* the summary's place, filled below */
	if (target->given && target->kind == UNITS_SIZE) {
		snprintf(err, errlen, FMT_USAGE "--target: the report projects"
		    " file counts: give a number (1e9) or a percentage of the"
		    " inodes (80%%)");
		goto out;
	}
	if (space_names_check(db, scope->fs, scope->nfs, scope->project,
	    scope->nproject, err, errlen) < 0 ||
	    census_results(&p, db, o, target, notes, err, errlen) < 0)
		goto out;
	narrow_census(&p, 1);
	if (io_results(&p, db, o, notes, err, errlen) < 0)
		goto out;
	/* --no-paths makes a page for every user: private names go before
	 * the summary quotes them. */
	if (o->no_paths && (cli_out_hide(db, p.r + 1, p.n - 1, err,
	    errlen) < 0 || cli_out_hide(db, &notes, 1, err, errlen) < 0))
		goto out;
	sopt.end = p.end;
	sopt.horizon = scope->horizon;
	sopt.window = o->win.has_to;
	p.r[0] = summary_page(p.r + 1, p.n - 1, &sopt);
	for (size_t i = 0; i < notes->nnote; i++)
		result_note(p.r[0], "%s", notes->note[i]);
	/* The summary has read every row; the page and the bundle show
	 * the first of each list, and how many more. */
	for (size_t i = 0; i < p.n; i++)
		result_top(p.r[i], o->top);
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
	if (outfile_open(&page, html_path, out, err, errlen) < 0)
		goto out;
	if (outfile_write(&page, html, len, err, errlen) < 0)
		goto out;
	if (bundle_path && render_bundle(bundle_path, html, len, p.r, p.n, out,
	    err, errlen) < 0) {
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
