/*
 * fsstats: the CSV of fsstats 1.4.5, rendered from exact integer sums.
 *
 * The census keeps bytes, blocks, seconds and counts as integers. fsstats
 * kept KB and days as Perl doubles and summed them as it went. Both are
 * converted here to the same doubles fsstats would have printed: a sum of
 * x/1024 or x/2 is exact in a double while it stays below 2^53 units, so
 * dividing the integer sum once gives the value Perl accumulated. Ages in
 * days are not exact in binary; see docs/fsstats-compat.md for the size of
 * that difference (far below the 6 printed decimals in practice).
 *
 * Formats follow the script: %d for counts, min and max (truncation toward
 * zero), %f for averages and every percentage column, and percentages as
 * fractions in 0..1.
 */
#include "fsstats_int.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>

#define DAY	86400
#define KB	1024

/* One fsstats table and how it reads a census histogram. */
struct table {
	const char *name;
	const char *unit;
	enum metric_id fh;
	int by_kb;	/* "(KB)" age table: count = w (bytes), val = vw */
	int64_t div;	/* base units per printed unit of the value */
};

static const struct table first_tables[] = {
	{ "file size",			"KB",	 METRIC_SIZE,	  0, KB },
	{ "capacity used",		"KB",	 METRIC_CAPACITY,	  0,
	    2 },
	{ "positive overhead",		"KB",	 METRIC_POS_OVERHEAD, 0, KB },
	{ "negative overhead",		"KB",	 METRIC_NEG_OVERHEAD, 0, KB },
	{ "directory size (entries)",	"ents",	 METRIC_DIR_ENTRIES,  0, 1 },
	{ "directory size",		"KB",	 METRIC_DIR_SIZE,	  0,
	    KB },
	{ "filename length",		"chars", METRIC_NAME_LEN,	  0,
	    1 },
	{ "link count",			"links", METRIC_LINK_COUNT,	  0,
	    1 },
	{ "symlink target length",	"chars", METRIC_SYMLINK_LEN,  0, 1 },
};

/* After the two symlink percentage lines. */
static const struct table age_tables[] = {
	{ "mtime (files)",	"days", METRIC_MTIME, 0, DAY },
	{ "mtime (KB)",		"days", METRIC_MTIME, 1, DAY },
	{ "ctime (files)",	"days", METRIC_CTIME, 0, DAY },
	{ "ctime (KB)",		"days", METRIC_CTIME, 1, DAY },
	{ "atime (files)",	"days", METRIC_ATIME, 0, DAY },
	{ "atime (KB)",		"days", METRIC_ATIME, 1, DAY },
};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* Output with a sticky error, so the writers need no checks of their own. */
struct out {
	FILE *f;
	int err;
};

static void put(struct out *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
put(struct out *o, const char *fmt, ...)
{
	va_list ap;

	if (o->err)
		return;
	errno = 0;
	va_start(ap, fmt);
	if (vfprintf(o->f, fmt, ap) < 0)
		o->err = errno ? errno : EIO;
	va_end(ap);
}

/*
 * fsstats' kb_to_print: the unit is chosen with strict comparisons, so
 * exactly 1024 KB still prints as "1024.00 KB".
 */
static void
put_size(struct out *o, const char *label, double kb)
{
	const double gb = 1024.0 * 1024, tb = 1024.0 * 1024 * 1024;

	if (kb > tb)
		put(o, "%s,%.2f TB\n", label, kb / tb);
	else if (kb > gb)
		put(o, "%s,%.2f GB\n", label, kb / gb);
	else if (kb > 1024)
		put(o, "%s,%.2f MB\n", label, kb / 1024);
	else
		put(o, "%s,%.2f KB\n", label, kb);
}

/*
 * Share of capacity that is not user data. fsstats computes a percentage
 * and divides it by 100 again; the same operations give the same double.
 */
static double
overhead_fraction(double size_kb, double cap_kb)
{
	if (cap_kb == 0)
		return 0;
	return ((cap_kb - size_kb) / cap_kb) * 100 / 100;
}

static void
put_scalars(struct out *o, const struct census *c,
    const struct fsstats_info *x)
{
	double cap_kb = (double)c->all_blocks / 2;
	double size_kb = (double)c->all_size / KB;

	put(o, "skipped special files,%" PRIu64 "\n", c->others);
	put(o, "skipped duplicate hardlinks,%" PRIu64 "\n", c->hardlink_dups);
	put(o, "skipped snapshot dirs,%" PRIu64 "\n", c->snapshot_dirs);
	put_size(o, "total capacity used", cap_kb);
	put_size(o, "total user data", size_kb);
	put(o, "percent overhead,%f\n", overhead_fraction(size_kb, cap_kb));
	if (x->have_statvfs) {
		put_size(o, "Filesystem total", (double)x->fs_total_bytes / KB);
		put_size(o, "Filesystem used", (double)x->fs_used_bytes / KB);
	}
	put(o, "\n");
}

/* Slot i's val: the sum of values, or for a "(KB)" table of value x
 * bytes, both as 192-bit sums. */
static struct hist_vw
val_at(const struct hist *h, const struct table *t, int i)
{
	u128 v = (u128)h->v[i];
	struct hist_vw x = { { (uint64_t)v, (uint64_t)(v >> 64),
	    h->v[i] < 0 ? UINT64_MAX : 0 } };

	return t->by_kb ? h->vw[i] : x;
}

/*
 * One histogram. For a "(files)" table the count column is items and the
 * val column the sum of values; for a "(KB)" age table the count column is
 * the sum of file sizes in KB and the val column the sum of age x KB.
 * Rows are printed for non-zero count sums only, in slot order: under-min
 * row first, overflow row last, as fsstats does. Percentages of val are 0
 * when the val total is 0; fsstats guards its ordinary rows the same way
 * (its under-min and overflow rows would die dividing by zero instead).
 * Counts, minima, maxima and bounds are exact integers, however large.
 */
static void
put_table(struct out *o, const struct hist *h, const struct table *t)
{
	enum hist_scheme scheme = metric_def[t->fh].scheme;
	u128 cdiv = t->by_kb ? KB : 1;
	double vdiv = (double)t->div * (double)cdiv;
	u128 cnt[HIST_NB], ntot = 0, ncum = 0;
	struct hist_vw vtot = { { 0, 0, 0 } }, vcum = { { 0, 0, 0 } };
	i128 min = 0, max = 0;
	char a[I128_STRLEN], b[I128_STRLEN], c[I128_STRLEN];

	for (int i = 0; i < HIST_NB; i++) {
		struct hist_vw v = val_at(h, t, i);
		cnt[i] = t->by_kb ? h->w[i] : h->n[i];
		ntot += cnt[i];
		hist_vw_add(&vtot, &v);
	}
	/* fsstats sets min/max on every add, even of a zero weight. */
	if (hist_total(h) > 0) {
		min = h->min / t->div;
		max = h->max / t->div;
	}
	double count = (double)ntot / (double)cdiv;
	double total = hist_vw_double(&vtot) / vdiv;
	int any_val = (vtot.limb[0] | vtot.limb[1] | vtot.limb[2]) != 0;

	put(o, "histogram,%s\n", t->name);
	put(o, "count,%s,items\n", i128_str((i128)(ntot / cdiv), a));
	put(o, "average,%f,%s\n", ntot > 0 ? total / count : 0.0, t->unit);
	put(o, "min,%s,%s\n", i128_str(min, a), t->unit);
	put(o, "max,%s,%s\n", i128_str(max, a), t->unit);
	put(o, "bucket min,bucket max,count,percent,cumulative pct,"
	    "val count,percent,cumulative pct\n");
	for (int i = 0; i < HIST_NB; i++) {
		struct hist_vw v = val_at(h, t, i);
		i128 lo, hi;
		double x, y, ypct = 0, ycum = 0;

		if (cnt[i] == 0)
			continue;
		ncum += cnt[i];
		hist_vw_add(&vcum, &v);
		x = (double)cnt[i] / (double)cdiv;
		y = hist_vw_double(&v) / vdiv;
		if (any_val) {
			ypct = y / total;
			ycum = (hist_vw_double(&vcum) / vdiv) / total;
		}
		hist_bounds_fsstats(scheme, i, &lo, &hi);
		put(o, "%s,%s,%s,%f,%f,%f,%f,%f\n", i128_str(lo, a),
		    i128_str(hi, b), i128_str((i128)(cnt[i] / cdiv), c),
		    x / count, ((double)ncum / (double)cdiv) / count, y, ypct,
		    ycum);
	}
	put(o, "\n");
}

/* Denominator: the symlink histogram's count, as in fsstats. */
static void
put_symlink_pct(struct out *o, const struct census *c)
{
	uint64_t n = hist_total(&c->h[METRIC_SYMLINK_LEN]);
	double rel_pct = 0, abs_pct = 0;

	if (n > 0) {
		rel_pct = (double)c->symlink_rel / (double)n;
		abs_pct = (double)c->symlink_abs / (double)n;
	}
	put(o, "relative symlink target pct,%f\n", rel_pct);
	put(o, "absolute symlink target pct,%f\n", abs_pct);
}

int
fsstats_write(FILE *f, const struct census *c, const struct fsstats_info *x)
{
	struct out o = { f, 0 };

	put(&o, "#Generated by fsstats v1.4.5 (03/22/2008)\n");
	put(&o, "#Comment: This is a comment line that can be modified "
	    "or repeated before\n");
	put(&o, "#uploading to record voluntarily added information.\n");
	/* What fsstats leaves out: whether the walk finished, and how many
	 * entries could not be read. */
	put(&o, "#Comment: fsscan complete=%d errors=%" PRIu64 "\n",
	    x->complete ? 1 : 0, x->errors);
	/* readlink updates atime, so targets are read only on request; say
	 * so rather than let 0% pass for a measurement. */
	if (!x->symlink_targets && hist_total(&c->h[METRIC_SYMLINK_LEN]) > 0)
		put(&o, "#Comment: fsscan symlink targets not read "
		    "(--symlink-targets): symlink target pct are not measured\n");
	put(&o, "\n");
	put_scalars(&o, c, x);
	for (size_t i = 0; i < NELEM(first_tables); i++)
		put_table(&o, &c->h[first_tables[i].fh], &first_tables[i]);
	put_symlink_pct(&o, c);
	for (size_t i = 0; i < NELEM(age_tables); i++)
		put_table(&o, &c->h[age_tables[i].fh], &age_tables[i]);
	errno = 0;
	if (!o.err && fflush(f) != 0)
		o.err = errno ? errno : EIO;
	if (o.err) {
		errno = o.err;
		return -1;
	}
	return 0;
}
