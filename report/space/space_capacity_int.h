/*
 * space_capacity_int: what the capacity summary's parts share
 * (space_capacity.c: the file systems; space_capacity_proj.c: the
 * projects and the growers of every file system).
 */
#ifndef IOCENSUS_SPACE_CAPACITY_INT_H
#define IOCENSUS_SPACE_CAPACITY_INT_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#include "space_devices_int.h"
#include "space_growth_int.h"
#include "result/result.h"

/* One file system: its points up to the window's end (all of its history
 * before it, one per day), and where the window's points start. */
struct cap_fs {
	const char *fs;
	const struct snap *s;	/* every snapshot, sorted by start */
	size_t n;
	size_t *keep, nkeep;	/* points: indexes into s */
	size_t w0;		/* keep[w0..]: the points in the window */
	size_t nrescan;
	const struct io_window *win;	/* --from, --to (--quarter) */
	const struct dev_group *dev;	/* the device it shares with other
					   names (space_devices_int.h), or
					   NULL */
	const struct snap *ds;		/* the snapshots with the device's
	    names under its label (dev) */
};

/* The linear model of p towards target (known = 0: no target, why says
 * why not), already exceeded where the latest point reached it. */
void space_capacity_model_fit(const struct points *p, double target, int known,
    const char *why, struct proj *m);

/* A model's crossing into a row: the point estimate's day, the 95%
 * range's, the state and why (columns col, col + 1 ... col + 4). */
void space_capacity_model_dates(struct rtable *t, size_t row, int col,
    const struct points *p, const struct proj *m);

/* Value per day between the window's first and last point of p (both at
 * or after `from`, INT64_MIN for all); NaN with fewer than two. */
double space_capacity_model_rate(const struct points *p, int64_t from);

/* A project that grew over the window, of any file system: its growth
 * and usage of allocated bytes, and its share of its file system's
 * growth (NaN when that growth is 0 or less). */
struct cap_grower {
	const char *fs;		/* the caller's, as cap_fs's */
	char *name;
	i128 d_used, used;
	double bpd, share;
};
struct cap_growers {
	struct cap_grower *g;
	size_t n, cap;
};

/* The project table of one file system, and its projects that grew
 * added to gl. 0, or -1. */
int space_capacity_proj(struct result *r, struct rtable *pt,
    struct cap_growers *gl, sqlite3 *db, const struct cap_fs *c, char *err,
    size_t errlen);
/* Declare the two tables. */
struct rtable *space_capacity_proj_table(struct result *r);
struct rtable *space_capacity_proj_growers(struct result *r);
/* The growers of every file system into t, ranked (space_capacity_proj.c),
 * and gl freed. */
void space_capacity_proj_rank(struct rtable *t, struct cap_growers *gl);

#endif
