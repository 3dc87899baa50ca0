/*
 * space_capacity: when is each file system full? The quarterly summary's
 * first table: per file system, its size, used and available space and
 * Use% as df counts them, the share of inodes used, its growth over the
 * window, and the dates its space and its inodes reach 100%, with the 95%
 * range; then per project, and the projects that grew the most, ranked
 * over every file system (space_capacity_proj.c).
 *
 * The window ([from, to), the report's --quarter) picks the points: the
 * latest point before its end describes the file system, the first and
 * last points in it give the growth per day, and the projections are
 * fitted on every point before its end (the history before the window
 * included). Points are one per day (space_growth_pts.c). The projection is
 * the linear model of space_growth_fit.c.
 */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "space.h"
#include "space_capacity_int.h"
#include "space_names_int.h"
#include "space_snapout_int.h"
#include "human.h"
#include "xalloc.h"

enum { C_FS, C_ID, C_T, C_SIZE, C_USED, C_AVAIL, C_USEP, C_INODES, C_IUSED,
    C_IUSEP, C_FILES, C_BPD, C_FPD, C_FULL, C_FULL_LO, C_FULL_HI, C_STATE,
    C_WHY, C_IFULL, C_IFULL_LO, C_IFULL_HI, C_ISTATE, C_IWHY, C_SHARED,
    C_CAP };

static const struct rcol_spec fs_cols[] = {
	[C_FS] = { "fs", "File system", NULL, CF_PLAIN, 0 },
	[C_ID] = { "snapshot", "Snapshot", NULL, CF_PLAIN, 0 },
	[C_T] = { "t", "Taken (UTC)", NULL, CF_DATE, 0 },
	[C_SIZE] = { "size", "Size", "bytes", CF_BYTES, 2 },
	[C_USED] = { "used", "Used", "bytes", CF_BYTES, 2 },
	[C_AVAIL] = { "avail", "Avail", "bytes", CF_BYTES, 2 },
	[C_USEP] = { "use_ratio", "Use", "%", CF_PCT, 0 },
	[C_INODES] = { "inodes", "Inodes", "inodes", CF_PLAIN, 0 },
	[C_IUSED] = { "inodes_used", "Inodes used", "inodes", CF_PLAIN, 0 },
	[C_IUSEP] = { "inodes_use_ratio", "IUse", "%", CF_PCT, 0 },
	[C_FILES] = { "files", "Files", "files", CF_PLAIN, 0 },
	[C_BPD] = { "bytes_per_day", "Growth per day", "bytes/day", CF_BYTES,
	    2 },
	[C_FPD] = { "files_per_day", "Files per day", "files/day", CF_PLAIN,
	    1 },
	[C_FULL] = { "full", "Space full", NULL, CF_DATE, 0 },
	[C_FULL_LO] = { "full_lo", "Earliest (95%)", NULL, CF_DATE, 0 },
	[C_FULL_HI] = { "full_hi", "Latest (95%)", NULL, CF_DATE, 0 },
	[C_STATE] = { "full_state", "Space projection", NULL, CF_PLAIN, 0 },
	[C_WHY] = { "full_why", "Why no date or bound", NULL, CF_PLAIN, 0 },
	[C_IFULL] = { "inodes_full", "Inodes full", NULL, CF_DATE, 0 },
	[C_IFULL_LO] = { "inodes_full_lo", "Earliest (95%)", NULL, CF_DATE,
	    0 },
	[C_IFULL_HI] = { "inodes_full_hi", "Latest (95%)", NULL, CF_DATE, 0 },
	[C_ISTATE] = { "inodes_state", "Inode projection", NULL, CF_PLAIN,
	    0 },
	[C_IWHY] = { "inodes_why", "Why no date or bound", NULL, CF_PLAIN, 0 },
	[C_SHARED] = { "device_names", "Names on its device", NULL, CF_PLAIN,
	    0 },
	[C_CAP] = { "capacity", "Capacity (used + avail)", "bytes", CF_BYTES,
	    2 },
};

/* The devices table: each device's capacity once, and their total. */
enum { D_DEV, D_NAMES, D_ID, D_SIZE, D_USED, D_AVAIL, D_USEP, D_INODES,
    D_IUSED, D_IUSEP };

static const struct rcol_spec dev_cols[] = {
	[D_DEV] = { "device", "Device", NULL, CF_PLAIN, 0 },
	[D_NAMES] = { "names", "File systems", NULL, CF_PLAIN, 0 },
	[D_ID] = { "snapshot", "Snapshot", NULL, CF_PLAIN, 0 },
	[D_SIZE] = { "size", "Size", "bytes", CF_BYTES, 2 },
	[D_USED] = { "used", "Used", "bytes", CF_BYTES, 2 },
	[D_AVAIL] = { "avail", "Avail", "bytes", CF_BYTES, 2 },
	[D_USEP] = { "use_ratio", "Use", "%", CF_PCT, 0 },
	[D_INODES] = { "inodes", "Inodes", "inodes", CF_PLAIN, 0 },
	[D_IUSED] = { "inodes_used", "Inodes used", "inodes", CF_PLAIN, 0 },
	[D_IUSEP] = { "inodes_use_ratio", "IUse", "%", CF_PCT, 0 },
};

/* part / whole as df prints it: the percentage rounded up. Capacity
 * values are at most DB_CAPACITY_MAX (2^120), so 100 part is exact. */
static double
df_pct(i128 part, i128 whole)
{
	u128 num = (u128)part * 100;

	if (whole <= 0 || part < 0)
		return NAN;
	return (double)(num / (u128)whole + (num % (u128)whole != 0)) / 100;
}

/* The points of one metric of the file system (target: 100%): of its
 * device, every name on it, for used space and inodes. */
static int
fs_points(sqlite3 *db, const struct cap_fs *c, enum opts_metric m,
    struct points *p, char *err, size_t errlen)
{
	int dev = c->dev && (m == OPTS_USED || m == OPTS_INODES);
	struct opts o;

	opts_init(&o);
	o.metric = m;
	o.win.to = c->win->to;
	o.win.has_to = c->win->has_to;
	p->fs = dev ? c->dev->label : c->fs;
	return space_growth_pts_load(db, &o, dev ? c->ds : c->s, c->n, p, err,
	    errlen);
}

/* The space or inode projection of the file system into its columns. */
static int
fs_projection(struct rtable *t, size_t row, int col, sqlite3 *db,
    const struct cap_fs *c, enum opts_metric metric, double *rate,
    char *err, size_t errlen)
{
	struct points p = { 0 };
	struct opts o;
	struct proj m;
	char why[160] = "";
	double target = 0;
	int known;

	if (fs_points(db, c, metric, &p, err, errlen) < 0)
		return -1;
	opts_init(&o);
	o.metric = metric;
	known = space_growth_pts_target(&o, &p, &target, why, sizeof why);
	space_capacity_model_fit(&p, target, known, why, &m);
	space_capacity_model_dates(t, row, col, &p, &m);
	if (rate)
		*rate = space_capacity_model_rate(&p, io_window_lo(c->win));
	space_growth_pts_free(&p);
	return 0;
}

/* Size, used, avail, Use% at col, col + 1 ..., inodes, inodes used and
 * IUse% after them: 1 when the space is known. */
static int
put_capacity(struct rtable *t, size_t row, int col, int icol,
    const struct capacity *cp)
{
	int known = cp->bytes.has && cp->free_bytes.has && cp->avail_bytes.has;

	if (known) {
		i128 used = cp->bytes.v - cp->free_bytes.v;
		result_set_wide(t, row, col, cp->bytes.v);
		result_set_wide(t, row, col + 1, used);
		result_set_wide(t, row, col + 2, cp->avail_bytes.v);
		space_snapout_real(t, row, col + 3, df_pct(used, used +
		    cp->avail_bytes.v));
	}
	if (cp->inodes.has && cp->free_inodes.has) {
		i128 iused = cp->inodes.v - cp->free_inodes.v;
		result_set_wide(t, row, icol, cp->inodes.v);
		result_set_wide(t, row, icol + 1, iused);
		space_snapout_real(t, row, icol + 2,
		    df_pct(iused, cp->inodes.v));
	}
	return known;
}

static int
fs_row(struct result *r, struct rtable *t, sqlite3 *db, const struct cap_fs *c,
    char *err, size_t errlen)
{
	const struct snap *s = &c->s[c->keep[c->nkeep - 1]];
	/* Names on one device share its capacity: its latest reading. */
	const struct snap *d = c->dev && c->dev->latest ? c->dev->latest : s;
	size_t row = result_row(t);
	struct points files = { 0 };
	char names[512];
	double bpd = NAN;

	result_set_text(t, row, C_FS, c->fs);
	result_set_int(t, row, C_ID, s->id);
	result_set_int(t, row, C_T, s->started_at);
	if (put_capacity(t, row, C_SIZE, C_INODES, &d->cap))
		/* what the space projection reaches: 100% as df counts */
		result_set_wide(t, row, C_CAP, d->cap.bytes.v -
		    d->cap.free_bytes.v + d->cap.avail_bytes.v);
	else
		result_note(r, "%s: snapshot #%lld records no capacity (written"
		    " before schema 6, or dated with --as-of).", c->fs,
		    (long long)d->id);
	if (c->dev)
		result_set_text(t, row, C_SHARED, space_devices_names(c->dev,
		    names, sizeof names));
	space_snapout_nint(t, row, C_FILES, s->files);
	if (fs_projection(t, row, C_FULL, db, c, OPTS_USED, &bpd, err,
	    errlen) < 0 || fs_projection(t, row, C_IFULL, db, c, OPTS_INODES,
	    NULL, err, errlen) < 0 || fs_points(db, c, OPTS_FILES, &files, err,
	    errlen) < 0) {
		space_growth_pts_free(&files);
		return -1;
	}
	space_snapout_real(t, row, C_BPD, bpd);
	space_snapout_real(t, row, C_FPD, space_capacity_model_rate(&files,
	    io_window_lo(c->win)));
	if (c->nkeep - c->w0 < 2)
		result_note(r, "%s: %zu point%s in the window (one per day):"
		    " no growth over it.", c->fs, c->nkeep - c->w0,
		    c->nkeep - c->w0 == 1 ? "" : "s");
	if (c->nrescan)
		result_note(r, "%s: %zu complete snapshot%s less than a day"
		    " before the next one %s left out: a rescan counts once"
		    " (the later).", c->fs, c->nrescan, c->nrescan == 1 ? "" :
		    "s", c->nrescan == 1 ? "is" : "are");
	space_growth_pts_free(&files);
	return 0;
}

/* One file system: its row, its projects; its growers into gl. */
static int
one_fs(struct result *r, struct rtable **t, struct cap_growers *gl,
    sqlite3 *db, struct cap_fs *c, char *err, size_t errlen)
{
	c->keep = xcalloc(c->n + 1, sizeof *c->keep);
	c->nkeep = space_points_keep(c->s, c->n, c->fs, INT64_MIN,
	    io_window_hi(c->win), c->keep, &c->nrescan);
	for (c->w0 = 0; c->w0 < c->nkeep &&
	    c->s[c->keep[c->w0]].started_at < io_window_lo(c->win); c->w0++)
		;
	if (c->w0 == c->nkeep) {
		result_note(r, "%s: no complete snapshot %s.", c->fs,
		    io_window_given(c->win) ? "in the window" : "at all");
		return 0;
	}
	if (fs_row(r, t[0], db, c, err, errlen) < 0)
		return -1;
	return space_capacity_proj(r, t[1], gl, db, c, err, errlen);
}

/* Each device's capacity once (names on one device share it), and the
 * total over the devices: exact sums, each percentage of the sums. */
static void
devices_table(struct result *r, const struct devices *dv)
{
	struct rtable *t = result_table(r, "devices", "Capacity per device"
	    " (the names on one device share its capacity), and the total",
	    dev_cols, sizeof dev_cols / sizeof *dev_cols);
	struct capacity sum = { { 0, 1 }, { 0, 1 }, { 0, 1 }, { 0, 1 },
	    { 0, 1 } };
	struct nint *sv[] = { &sum.bytes, &sum.free_bytes, &sum.avail_bytes,
	    &sum.inodes, &sum.free_inodes };
	char names[512];
	size_t ndev = 0, row;

	result_wide(t, "snapshot,inodes,inodes_used");
	for (size_t i = 0; i < dv->n; i++) {
		const struct dev_group *g = &dv->g[i];
		const struct capacity *cp;
		if (!g->latest)
			continue;
		cp = &g->latest->cap;
		const struct nint *cv[] = { &cp->bytes, &cp->free_bytes,
		    &cp->avail_bytes, &cp->inodes, &cp->free_inodes };
		row = result_row(t);
		ndev++;
		if (g->device)
			result_set_text(t, row, D_DEV, g->device);
		result_set_text(t, row, D_NAMES, space_devices_names(g, names,
		    sizeof names));
		result_set_int(t, row, D_ID, g->latest->id);
		put_capacity(t, row, D_SIZE, D_INODES, cp);
		/* DB_CAPACITY_MAX (2^120) each: far below 2^127 summed */
		for (size_t k = 0; k < sizeof sv / sizeof *sv; k++) {
			sv[k]->has &= cv[k]->has;
			sv[k]->v += cv[k]->v;
		}
	}
	if (ndev < 2)
		return;
	row = result_row(t);
	result_set_text(t, row, D_DEV, "total");
	snprintf(names, sizeof names, "%zu devices", ndev);
	result_set_text(t, row, D_NAMES, names);
	put_capacity(t, row, D_SIZE, D_INODES, &sum);
}

/* Which names share a device, said once per device. */
static void
note_devices(struct result *r, const struct devices *dv)
{
	char names[512];

	for (size_t i = 0; i < dv->n; i++) {
		const struct dev_group *g = &dv->g[i];
		if (g->n < 2)
			continue;
		result_note(r, "%s are on one device (%s): they share its"
		    " capacity, that of snapshot #%lld, the latest of theirs;"
		    " its space and inode projections are fitted on the points"
		    " of all of them (one per day), and the total counts it"
		    " once.", space_devices_names(g, names, sizeof names),
		    g->device, (long long)g->latest->id);
	}
}

static void
note_window(struct result *r, const struct opts *o)
{
	char a[32], b[32];

	if (io_window_given(&o->win))
		result_note(r, "Window: %s to %s (UTC, end excluded): each file"
		    " system's latest point in it is described, its first and"
		    " last points give the growth per day, and the projections"
		    " are fitted on every point before its end.", o->win.has_from ?
		    human_date(o->win.from, 1, a, sizeof a) : "the first"
		    " snapshot", o->win.has_to ? human_date(o->win.to, 1, b,
		    sizeof b) : "the last snapshot");
	result_note(r, "Use%% and IUse%% are as df prints them: used / (used +"
	    " avail) and inodes used / inodes, rounded up. Dates are where the"
	    " linear model (least squares over the points, one per day)"
	    " reaches 100%%; the range is where its 95%% prediction band does."
	    " A project reaches its byte limit (allocated bytes), else its"
	    " inode limit.");
}

struct result *
space_capacity(sqlite3 *db, const struct opts *o, char *err, size_t errlen)
{
	struct snap *s = NULL;
	const char **names;
	struct result *r = NULL;
	struct rtable *t[3];
	struct devices dv = { 0 };
	struct cap_growers gl = { 0 };
	size_t n = 0;
	long nfs;
	int rc;

	assert(db != NULL && o != NULL && err != NULL && errlen > 0);
	if ((nfs = space_names_fs_list(db, o->fs, &s, &n, &names, err,
	    errlen)) < 0)
		goto out;
	r = result_new("capacity", "Capacity");
	note_window(r, o);
	t[0] = result_table(r, "filesystems", "Capacity per file system",
	    fs_cols, sizeof fs_cols / sizeof *fs_cols);
	result_wide(t[0], "snapshot,t,inodes,inodes_used,files,files_per_day,"
	    "full_lo,full_hi,full_state,full_why,inodes_full,inodes_full_lo,"
	    "inodes_full_hi,inodes_state,inodes_why,device_names,capacity");
	t[1] = space_capacity_proj_table(r);
	t[2] = space_capacity_proj_growers(r);
	if (nfs == 0)
		result_note(r, "No snapshots in the database.");
	space_devices_find(s, n, names, (size_t)nfs, io_window_lo(&o->win),
	    io_window_hi(&o->win), &dv);
	note_devices(r, &dv);
	for (long i = 0; i < nfs; i++) {
		struct cap_fs c = { .fs = names[i], .s = s, .n = n,
		    .win = &o->win, .dev = space_devices_shared(&dv,
		    (size_t)i), .ds = dv.s };
		/* result_table may move the tables: take them anew */
		for (int k = 0; k < 3; k++)
			t[k] = &r->table[k];
		rc = one_fs(r, t, &gl, db, &c, err, errlen);
		free(c.keep);
		if (rc < 0) {
			result_free(r);
			r = NULL;
			break;
		}
	}
	if (r) {
		space_capacity_proj_rank(&r->table[2], &gl);
		devices_table(r, &dv);
	}
out:
	for (size_t i = 0; i < gl.n; i++)
		free(gl.g[i].name);
	free(gl.g);
	space_devices_free(&dv);
	free(names);
	query_census_snaps_free(s, n);
	return r;
}
