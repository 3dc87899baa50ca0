/*
 * summary: the report's opening page. It computes nothing: it selects
 * cells from the other results' tables, by table and column key, and
 * copies them (exact values, original column formats) into short tables:
 * capacity, files, cold data, growth, busiest projects, I/O headline,
 * burstiness and the slow devices.
 * A column or table an analysis did not produce is simply left out.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "summary.h"
#include "xalloc.h"

#define BUSIEST_PER_DIFF 5
#define COLD_PER_FS 5		/* projects with the most cold bytes */
#define PROJECTS_PER_FS 10	/* the summary's share of each file
				   system's projects; all are in the
				   capacity section */

/* Where selected cells come from: one source table per result. */
struct src {
	const struct result *r;
	const struct rtable *t;
};

/* The tables keyed `table` of every result whose command is `cmd`. */
static size_t
sources(struct result *const *parts, size_t nparts, const char *cmd,
    const char *table, struct src *out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < nparts && n < max; i++) {
		int k;

		if (strcmp(parts[i]->command, cmd) ||
		    (k = result_table_index(parts[i], table)) < 0)
			continue;
		out[n].r = parts[i];
		out[n++].t = &parts[i]->table[k];
	}
	return n;
}

static int
col_of(const struct rtable *t, const char *key)
{
	for (size_t c = 0; c < t->ncol; c++)
		if (!strcmp(t->col[c].key, key))
			return (int)c;
	return -1;
}

static void
copy_cell(struct rtable *d, size_t drow, int dcol, const struct rtable *s,
    size_t srow, int scol)
{
	const struct cell *c;

	if (scol < 0)
		return;
	c = result_cell(s, srow, scol);
	switch (c->kind) {
	case CK_INT: result_set_int(d, drow, dcol, c->v.i); break;
	case CK_UINT: result_set_uint(d, drow, dcol, c->v.u); break;
	case CK_REAL: result_set_real(d, drow, dcol, c->v.r); break;
	case CK_TEXT: result_set_text(d, drow, dcol, c->v.s); break;
	case CK_WIDE: result_set_wide(d, drow, dcol, *c->v.w); break;
	case CK_NULL: break;
	}
}

/* A table whose columns are "section" (the source result's title, when
 * with_section) followed by the source columns `keys` that exist in s,
 * with the source's titles, units and formats. */
static struct rtable *
derived_table(struct result *sum, const char *key, const char *title,
    const struct rtable *s, const char *const *keys, size_t nkeys,
    int with_section)
{
	struct rcol_spec spec[24];
	struct rtable *t;
	size_t n = 0;

	if (with_section)
		spec[n++] = (struct rcol_spec){ "section", "Section", NULL,
		    CF_PLAIN, 0 };
	for (size_t i = 0; i < nkeys && n < 24; i++) {
		int c = col_of(s, keys[i]);

		if (c >= 0)
			spec[n++] = (struct rcol_spec){ s->col[c].key,
			    s->col[c].title, s->col[c].unit, s->col[c].fmt,
			    s->col[c].decimals };
	}
	t = result_table(sum, key, title, spec, n);
	t->grouped = with_section;
	return t;
}

/* Copy row `row` of a source into a new row of d, column by key. */
static void
copy_row(struct rtable *d, int with_section, const struct src *s, size_t row)
{
	size_t out = result_row(d);

	for (size_t c = 0; c < d->ncol; c++)
		if (with_section && c == 0)
			result_set_text(d, out, 0, s->r->title);
		else
			copy_cell(d, out, (int)c, s->t, row, col_of(s->t,
			    d->col[c].key));
}

typedef int (*row_filter)(const struct src *s, size_t row, size_t nth);

/* Selected rows of every source that has the column `need` into one
 * summary table (none if no source has rows). */
static struct rtable *
select_rows(struct result *sum, struct result *const *parts, size_t nparts,
    const char *cmd, const char *table, const char *need, const char *key,
    const char *title, const char *const *keys, size_t nkeys,
    int with_section, row_filter keep)
{
	struct src s[64];
	size_t ns = sources(parts, nparts, cmd, table, s, 64);
	struct rtable *d = NULL;

	for (size_t i = 0; i < ns; i++) {
		size_t nth = 0;

		if (col_of(s[i].t, need) < 0)
			continue;
		if (!d && s[i].t->nrow)
			d = derived_table(sum, key, title, s[i].t, keys, nkeys,
			    with_section);
		for (size_t row = 0; d && row < s[i].t->nrow; row++)
			if (!keep || keep(&s[i], row, nth)) {
				copy_row(d, with_section, &s[i], row);
				nth++;
			}
	}
	return d;
}

/* ---- row filters ---- */

static int64_t
int_at(const struct src *s, size_t row, const char *key)
{
	int c = col_of(s->t, key);
	const struct cell *cl = c < 0 ? NULL : result_cell(s->t, row, c);

	return cl && cl->kind == CK_INT ? cl->v.i : -1;
}

static const char *
text_at(const struct src *s, size_t row, const char *key)
{
	int c = col_of(s->t, key);
	const struct cell *cl = c < 0 ? NULL : result_cell(s->t, row, c);

	return cl && cl->kind == CK_TEXT ? cl->v.s : "";
}

/* The latest complete snapshot of its file system (start, then id). */
static int
latest_complete(const struct src *s, size_t row, size_t nth)
{
	(void)nth;
	if (int_at(s, row, "complete") != 1)
		return 0;
	for (size_t o = 0; o < s->t->nrow; o++)
		if (o != row && int_at(s, o, "complete") == 1 &&
		    !strcmp(text_at(s, o, "fs"), text_at(s, row, "fs")) &&
		    (int_at(s, o, "started_at") > int_at(s, row,
		    "started_at") ||
		    (int_at(s, o, "started_at") == int_at(s, row, "started_at")
		    && int_at(s, o, "id") > int_at(s, row, "id"))))
			return 0;
	return 1;
}

/* The first projects of each file system (the capacity table lists them
 * nearest to their limit first). */
static int
first_per_fs(const struct src *s, size_t row, size_t nth)
{
	size_t k = 0;

	(void)nth;
	for (size_t o = 0; o < row; o++)
		k += !strcmp(text_at(s, o, "fs"), text_at(s, row, "fs"));
	return k < PROJECTS_PER_FS;
}

/* The projects with the most cold bytes at the longest threshold: the
 * cold tables list each threshold in turn, ascending, and within it the
 * projects by cold bytes, most first. */
static int
coldest(const struct src *s, size_t row, size_t nth)
{
	return nth < COLD_PER_FS && int_at(s, row, "days") ==
	    int_at(s, s->t->nrow - 1, "days");
}

/* The first groups of a diff (sorted by new files) that gained files,
 * not the residual: the last row, known by its place, as a group may be
 * named "(unattributed)" too. */
static int
busiest(const struct src *s, size_t row, size_t nth)
{
	return nth < BUSIEST_PER_DIFF && int_at(s, row, "d_files") > 0 &&
	    row + 1 < s->t->nrow;
}

/* A slow device (health's devices table: slow is 1). */
static int
slow_device(const struct src *s, size_t row, size_t nth)
{
	(void)nth;
	return int_at(s, row, "slow") == 1;
}

/* The slow devices of health, if there are any. */
static void
slow_rows(struct result *sum, struct result *const *parts, size_t nparts)
{
	static const char *const cols[] = { "host", "device", "since",
	    "factor", "await_ms", "peers_await_ms", "confidence" };
	struct src s;
	size_t row;

	if (!sources(parts, nparts, "health", "devices", &s, 1))
		return;
	for (row = 0; row < s.t->nrow && !slow_device(&s, row, 0); row++)
		;
	if (row < s.t->nrow)
		select_rows(sum, parts, nparts, "health", "devices", "slow",
		    "slow_devices", "Slow devices (each against its peers)",
		    cols, 7, 0, slow_device);
}

/* One row of cells picked from the first table `table` of `cmd`. */
static void
pick_row(struct result *sum, struct result *const *parts, size_t nparts,
    const char *cmd, const char *table, const char *key, const char *title,
    const char *const *cols, size_t ncols)
{
	struct src s;
	struct rtable *d;

	if (!sources(parts, nparts, cmd, table, &s, 1) || s.t->nrow == 0)
		return;
	d = derived_table(sum, key, title, s.t, cols, ncols, 0);
	copy_row(d, 0, &s, 0);
}

/* The figure `figkey` of the first `cmd` result (all = 1: of each such
 * result, their tables keyed key_1, key_2 ...), with a copy of its table
 * under `key`: the headline plots on the opening page. */
static void
copy_figure(struct result *sum, struct result *const *parts, size_t nparts,
    const char *cmd, const char *figkey, const char *key, int all)
{
	size_t copied = 0;

	for (size_t i = 0; i < nparts; i++) {
		const struct result *r = parts[i];

		if (strcmp(r->command, cmd))
			continue;
		for (size_t k = 0; k < r->nfig; k++) {
			const struct rfigure *f = &r->fig[k];
			struct src s = { r, &r->table[f->table] };
			struct rcol_spec *spec;
			struct rfigure *nf;
			struct rtable *d;

			if (strcmp(f->key, figkey) || f->table >= r->ntable ||
			    s.t->nrow == 0)
				continue;
			spec = xcalloc(s.t->ncol, sizeof *spec);
			for (size_t c = 0; c < s.t->ncol; c++)
				spec[c] = (struct rcol_spec){ s.t->col[c].key,
				    s.t->col[c].title, s.t->col[c].unit,
				    s.t->col[c].fmt, s.t->col[c].decimals };
			if (all) {
				char k[64];
				snprintf(k, sizeof k, "%s_%zu", key, ++copied);
				d = result_table(sum, k, r->title, spec,
				    s.t->ncol);
			} else {
				d = result_table(sum, key, s.t->title, spec,
				    s.t->ncol);
			}
			free(spec);
			for (size_t row = 0; row < s.t->nrow; row++)
				copy_row(d, 0, &s, row);
			nf = result_figure(sum, f->key, f->kind,
			    sum->ntable - 1,
			    f->title, f->caption, f->xlabel, f->ylabel);
			nf->xcol = f->xcol, nf->ny = f->ny;
			memcpy(nf->ycol, f->ycol, sizeof nf->ycol);
			nf->xlog = f->xlog, nf->ylog = f->ylog;
			nf->xtime = f->xtime, nf->stacked = f->stacked;
			nf->markers = f->markers;
			nf->band = f->band;
			for (size_t j = 0; j < f->nspan; j++)
				result_span(nf, f->span[j].x0, f->span[j].x1,
				    f->span[j].label);
			if (!all)
				return;
			break;
		}
	}
}

/* ---- sentences: the same cells, as the tables print them ---- */

/* The cell as the tables print it, always in buf. */
static const char *
cell(const struct rtable *t, size_t row, const char *key, char *buf,
    size_t len)
{
	int c = t ? col_of(t, key) : -1;
	const char *s = c < 0 ? "n/a" : result_text_cell(t, row, c, buf, len);

	if (s != buf)		/* text cells come back as they are: copy */
		snprintf(buf, len, "%s", s);
	return buf;
}

static void
capacity_notes(struct result *sum, const struct rtable *t)
{
	char a[64], b[64], c[64], d[64], e[64];

	for (size_t r = 0; t && r < t->nrow; r++)
		result_note(sum,
		    "%s holds %s files in %s (snapshot #%s of %s).",
		    cell(t, r, "fs", a, sizeof a), cell(t, r, "files", b,
		    sizeof b), cell(t, r, "bytes", c, sizeof c), cell(t, r,
		    "id", d, sizeof d), cell(t, r, "started_at", e, sizeof e));
}

static void
growth_notes(struct result *sum, const struct rtable *t)
{
	char a[256], b[64], c[64], d[64], e[64], w[200], range[300] = "";

	for (size_t r = 0; t && r < t->nrow; r++) {
		cell(t, r, "section", a, sizeof a);
		cell(t, r, "model", b, sizeof b);
		cell(t, r, "why", w, sizeof w);
		if (strcmp(cell(t, r, "state", c, sizeof c), "projected")) {
			result_note(sum, "%s: %s model: %s%s%s%s.", a, b, c,
			    strcmp(w, "n/a") ? " (" : "", strcmp(w, "n/a") ? w :
			    "", strcmp(w, "n/a") ? ")" : "");
			continue;
		}
		cell(t, r, "crossing_lo", d, sizeof d);
		cell(t, r, "crossing_hi", e, sizeof e);
		if (strcmp(d, "n/a") && strcmp(e, "n/a"))
			snprintf(range, sizeof range, " (95%% range %s to %s)",
			    d, e);
		else if (strcmp(d, "n/a"))
			snprintf(range, sizeof range, " (earliest at 95%%: %s;"
			    " %s)", d, w);
		else if (strcmp(w, "n/a"))
			snprintf(range, sizeof range, " (%s)", w);
		else
			range[0] = 0;
		result_note(sum, "%s: the %s model reaches the target on %s%s.",
		    a, b, cell(t, r, "crossing", c, sizeof c), range);
	}
}

/* "12.5%", or "n/a" without a percent sign. */
static const char *
pct(const struct rtable *t, size_t row, const char *key, char *buf,
    size_t len)
{
	char v[48];

	cell(t, row, key, v, sizeof v);
	snprintf(buf, len, "%s%s", v, strcmp(v, "n/a") ? "%" : "");
	return buf;
}

/* "gpfs is 82% used; its space is full on 2027-11-03 (95% range ...)",
 * or why it has no date. */
static void
space_notes(struct result *sum, const struct rtable *t)
{
	char a[256], b[64], c[64], d[64], e[64], f[256];

	for (size_t r = 0; t && r < t->nrow; r++) {
		cell(t, r, "fs", a, sizeof a);
		pct(t, r, "use_pct", b, sizeof b);
		cell(t, r, "full_why", f, sizeof f);
		if (strcmp(cell(t, r, "full_state", c, sizeof c), "projected")) {
			char w[300] = "";
			if (strcmp(f, "n/a"))
				snprintf(w, sizeof w, " (%s)", f);
			result_note(sum, "%s is %s used (Use%%); space: %s%s.",
			    a, b, c, w);
			continue;
		}
		cell(t, r, "full_lo", d, sizeof d);
		cell(t, r, "full_hi", e, sizeof e);
		result_note(sum, "%s is %s used (Use%%); its space is full on"
		    " %s (95%% range: %s to %s).", a, b, cell(t, r, "full", c,
		    sizeof c), d, strcmp(e, "n/a") ? e : "no later bound");
	}
}

static void
busiest_notes(struct result *sum, const struct rtable *t)
{
	char a[256], b[256], c[64], d[64];

	for (size_t r = 0; t && r < t->nrow; r++) {
		if (r && !strcmp(cell(t, r, "section", a, sizeof a),
		    cell(t, r - 1, "section", b, sizeof b)))
			continue;	/* the first (busiest) row per diff */
		result_note(sum, "%s: %s made %s of new files and %s of new"
		    " bytes.", cell(t, r, "section", a, sizeof a), cell(t, r,
		    "name", b, sizeof b), pct(t, r, "share_new_files", c,
		    sizeof c), pct(t, r, "share_new_bytes", d, sizeof d));
	}
}

static void
io_notes(struct result *sum, const struct rtable *t)
{
	char a[64], b[64], c[64], d[64], e[64];

	if (!t)
		return;
	result_note(sum, "I/O: mean %s MiB/s against a peak of %s MiB/s (%s);"
	    " below 33%% of peak %s of the time; coverage %s.",
	    cell(t, 0, "mean_mib_s", a, sizeof a), cell(t, 0, "peak_mib_s",
	    b, sizeof b), cell(t, 0, "peak_source", c, sizeof c), pct(t, 0,
	    "below_33_share", d, sizeof d), pct(t, 0, "coverage", e,
	    sizeof e));
}

/* "Slow device: h001 sdc since 2010-03-02 00:00, 4.02 times its peers'
 * median await", or how many devices were called healthy. */
static void
health_notes(struct result *sum, const struct rtable *slow,
    const struct rtable *t)
{
	char a[256], b[256], c[64], d[64], e[64];

	for (size_t r = 0; slow && r < slow->nrow; r++)
		result_note(sum, "Slow device: %s %s since %s, %s times its "
		    "peers' median await (%s confidence).", cell(slow, r,
		    "host", a, sizeof a), cell(slow, r, "device", b, sizeof b),
		    cell(slow, r, "since", c, sizeof c), cell(slow, r,
		    "factor", d, sizeof d), cell(slow, r, "confidence", e,
		    sizeof e));
	if (!slow && t && t->nrow)
		result_note(sum, "Device health: no slow device; %s of %s "
		    "devices called healthy against their peers, %s not "
		    "called.", cell(t, 0, "healthy", a, sizeof a), cell(t, 0,
		    "devices", b, sizeof b), cell(t, 0, "not_called", c,
		    sizeof c));
}

static const struct rtable *
table_of(const struct result *r, const char *key)
{
	int k = result_table_index(r, key);

	return k < 0 ? NULL : &r->table[k];
}

struct result *
summary_page(struct result *const *parts, size_t nparts)
{
	static const char *const space[] = { "fs", "size", "used", "avail",
	    "use_pct", "inodes_pct", "bytes_per_day", "files_per_day", "full",
	    "full_lo", "full_hi", "full_state", "full_why", "inodes_full",
	    "inodes_full_lo", "inodes_full_hi", "inodes_state", "inodes_why" };
	static const char *const projects[] = { "fs", "project", "used",
	    "share", "limit_bytes", "pct_limit", "limit_inodes",
	    "pct_inode_limit", "bytes_per_day", "full", "full_lo", "full_hi",
	    "state" };
	static const char *const growers[] = { "fs", "project", "d_used",
	    "bytes_per_day", "share_of_growth", "used" };
	static const char *const cap[] = { "fs", "id", "started_at", "files",
	    "dirs", "bytes", "alloc_bytes" };
	static const char *const sizes[] = { "snapshot", "files", "bytes",
	    "popular_lo", "popular_hi", "popular_files", "files_lt_1mib",
	    "bytes_lt_1mib", "largest_file" };
	static const char *const ages[] = { "snapshot", "edge_days",
	    "files_old", "bytes_old", "oldest_days", "future_files" };
	/* Projections of files and of used bytes share one table: no
	 * slope, whose unit is the metric's. */
	static const char *const growth[] = { "model", "n", "crossing",
	    "crossing_lo", "crossing_hi", "state", "doubling_days", "why" };
	static const char *const cold[] = { "fs", "project", "days", "files",
	    "bytes", "share_bytes", "d_bytes" };
	static const char *const groups[] = { "name", "d_files",
	    "share_new_files", "d_bytes", "share_new_bytes" };
	static const char *const io[] = { "n", "calendar_minutes",
	    "coverage", "mean_mib_s", "peak_mib_s", "peak_source", "peak_t",
	    "mean_share_of_peak", "below_33_share" };
	static const char *const traffic[] = { "rd_bytes", "wr_bytes",
	    "read_share", "peak_rd_mib_s", "peak_wr_mib_s" };
	static const char *const idle[] = { "threshold_pct", "idle_share",
	    "longest_minutes", "longest_t", "strict_share" };
	static const char *const burst[] = { "direction", "c_bytes", "i",
	    "rho", "p" };
	static const char *const health[] = { "devices", "slow", "healthy",
	    "not_called", "slow_hosts", "threshold" };
	struct result *sum = result_new("summary", "Summary");

	select_rows(sum, parts, nparts, "capacity", "filesystems", "use_pct",
	    "space", "Capacity per file system", space, 18, 0, NULL);
	select_rows(sum, parts, nparts, "capacity", "projects", "pct_limit",
	    "projects", "Projects nearest to their limits (the first 10 per"
	    " file system)", projects, 13, 0, first_per_fs);
	select_rows(sum, parts, nparts, "capacity", "growers", "d_used",
	    "growers", "Top growers over the window", growers, 6, 0, NULL);
	copy_figure(sum, parts, nparts, "growth", "capacity", "space", 1);
	select_rows(sum, parts, nparts, "snapshots", "snapshots", "complete",
	    "capacity", "Capacity and files (latest complete snapshot per file"
	    " system)", cap, 7, 0, latest_complete);
	select_rows(sum, parts, nparts, "files", "facts", "largest_file",
	    "sizes", "File sizes", sizes, 9, 1, NULL);
	select_rows(sum, parts, nparts, "files", "facts", "edge_days", "ages",
	    "File ages", ages, 6, 1, NULL);
	select_rows(sum, parts, nparts, "cold", "projects", "days", "cold",
	    "Cold data per project (not read in the longest threshold; the"
	    " first 5 per file system)", cold, 7, 0, coldest);
	select_rows(sum, parts, nparts, "growth", "projection", "state",
	    "growth", "Projected dates", growth, 8, 1, NULL);
	select_rows(sum, parts, nparts, "diff", "groups", "name", "busiest",
	    "Busiest projects (most new files; only projects that gained"
	    " files)", groups, 5, 1, busiest);
	copy_figure(sum, parts, nparts, "throughput", "throughput",
	    "throughput", 0);
	pick_row(sum, parts, nparts, "cdf", "summary", "io", "Throughput",
	    io, 9);
	pick_row(sum, parts, nparts, "throughput", "totals", "traffic",
	    "Traffic", traffic, 5);
	pick_row(sum, parts, nparts, "idle", "summary", "idle", "Idle time",
	    idle, 5);
	select_rows(sum, parts, nparts, "burst", "burst", "rho", "burstiness",
	    "Burstiness across servers", burst, 5, 0, NULL);
	slow_rows(sum, parts, nparts);
	pick_row(sum, parts, nparts, "health", "summary", "health",
	    "Device health", health, 6);
	space_notes(sum, table_of(sum, "space"));
	capacity_notes(sum, table_of(sum, "capacity"));
	growth_notes(sum, table_of(sum, "growth"));
	busiest_notes(sum, table_of(sum, "busiest"));
	io_notes(sum, table_of(sum, "io"));
	health_notes(sum, table_of(sum, "slow_devices"), table_of(sum,
	    "health"));
	return sum;
}
