/*
 * traffic_throughput: aggregate read and write traffic over time, the read
 * share per bucket and per day (docs/analyses.md; Fig. 6 of the
 * Intrepid study).
 *
 * Every number comes from the COMPLETE minutes only: bucket sums and
 * means, daily totals (a day with missing minutes is flagged partial,
 * never scaled up), the totals and the one-minute peaks. A bucket or day
 * without a complete minute has NULL values, drawn as a gap; every bucket
 * of the window is a row, also when no minute of the window is complete.
 *
 * With --annotate, the windows are data too: table "annotations" says how
 * many minutes of each fall in the window and how many of those are
 * complete, and the series column "annotation" names the windows that
 * overlap each bucket. A minute or bucket overlaps a window when some
 * second of it (inside the window of the question) is in the window.
 */
#include <stdio.h>
#include <stdlib.h>

#include "traffic_int.h"
#include "traffic.h"
#include "floordiv.h"
#include "xalloc.h"
#include "i128.h"

/* The complete minutes of one time bucket. */
struct bucket {
	int64_t t;		/* bucket start */
	int64_t minutes;	/* calendar minutes of the bucket in the window */
	int64_t complete;
	uint64_t rd, wr;	/* bytes over the complete minutes */
	uint64_t max_rd, max_wr;	/* busiest complete minute */
};

/* The minutes of s in UTC-aligned buckets of width seconds (a multiple
 * of 60), in time order: every bucket the window touches (at most
 * THROUGHPUT_MAX_BUCKETS, checked by the caller; days are fewer than
 * 200 years of them), its calendar minutes
 * in closed form, the stored minutes added one by one (the others are
 * NONE). s->n > 0. */
static struct bucket *
bucketize(const struct minute_series *s, int64_t width, size_t *nb)
{
	int64_t end = s->t0 + (int64_t)s->n * IO_MINUTE_S;
	int64_t first = floor_align64(s->t0, width);
	size_t n = (size_t)((floor_align64(end - 1, width) - first) / width) +
	    1;
	struct bucket *b = xcalloc(n, sizeof *b);

	for (size_t k = 0; k < n; k++) {
		int64_t bt = first + (int64_t)k * width;
		int64_t a = bt > s->t0 ? bt : s->t0;
		int64_t z = bt + width < end ? bt + width : end;

		b[k].t = bt;
		b[k].minutes = (z - a) / IO_MINUTE_S;
	}
	for (size_t j = 0; j < s->len; j++) {
		int64_t t = s->t0 + (int64_t)(s->lo + j) * IO_MINUTE_S;
		struct bucket *k = &b[(t - first) / width];

		if (s->state[j] != MIN_COMPLETE)	/* A1 */
			continue;
		k->complete++;
		k->rd += s->rd[j];
		k->wr += s->wr[j];
		if (s->rd[j] > k->max_rd)
			k->max_rd = s->rd[j];
		if (s->wr[j] > k->max_wr)
			k->max_wr = s->wr[j];
	}
	*nb = n;
	return b;
}

static void
put_share(struct rtable *t, size_t row, int col, uint64_t rd, uint64_t wr)
{
	if (rd + wr > 0)
		result_set_real(t, row, col, (double)rd / (double)(rd + wr));
}

static const struct rcol_spec series_cols[] = {
	{ "t", "Start", NULL, CF_TIME, 0 },
	{ "minutes", "Minutes", "min", CF_PLAIN, 0 },
	{ "complete", "Complete", "min", CF_PLAIN, 0 },
	{ "rd_bytes", "Read", "B", CF_BYTES, 1 },
	{ "wr_bytes", "Written", "B", CF_BYTES, 1 },
	{ "rd_mib_s", "Read mean", "MiB/s", CF_PLAIN, 2 },
	{ "wr_mib_s", "Write mean", "MiB/s", CF_PLAIN, 2 },
	{ "rd_max_mib_s", "Read max", "MiB/s", CF_PLAIN, 2 },
	{ "wr_max_mib_s", "Write max", "MiB/s", CF_PLAIN, 2 },
	{ "read_share", "Read share", "%", CF_PCT, 1 },
	{ "partial", "Partial", NULL, CF_BOOL, 0 },
	{ "annotation", "Annotation", NULL, CF_PLAIN, 0 },	/* --annotate */
};
#define SERIES_NCOL (sizeof series_cols / sizeof series_cols[0])

/* mark: per bucket, the labels of the annotated windows over it (NULL
 * without --annotate, or a NULL entry: none). */
static void
fill_series(struct rtable *t, const struct bucket *b, size_t nb,
    int64_t width, char *const *mark)
{
	for (size_t i = 0; i < nb; i++) {
		size_t r = result_row(t);
		result_set_int(t, r, 0, b[i].t);
		result_set_int(t, r, 1, b[i].minutes);
		result_set_int(t, r, 2, b[i].complete);
		result_set_int(t, r, 10, b[i].complete < width / IO_MINUTE_S);
		if (mark && mark[i])
			result_set_text(t, r, 11, mark[i]);
		if (b[i].complete == 0)
			continue;
		result_set_uint(t, r, 3, b[i].rd);
		result_set_uint(t, r, 4, b[i].wr);
		result_set_real(t, r, 5, traffic_mean_mib_s((double)b[i].rd,
		    (double)b[i].complete));
		result_set_real(t, r, 6, traffic_mean_mib_s((double)b[i].wr,
		    (double)b[i].complete));
		result_set_real(t, r, 7, traffic_mib_s(b[i].max_rd));
		result_set_real(t, r, 8, traffic_mib_s(b[i].max_wr));
		put_share(t, r, 9, b[i].rd, b[i].wr);
	}
}

static const struct rcol_spec day_cols[] = {
	{ "t", "Day", NULL, CF_DATE, 0 },
	{ "minutes", "Minutes", "min", CF_PLAIN, 0 },
	{ "complete", "Complete", "min", CF_PLAIN, 0 },
	{ "rd_bytes", "Read", "B", CF_BYTES, 1 },
	{ "wr_bytes", "Written", "B", CF_BYTES, 1 },
	{ "read_share", "Read share", "%", CF_PCT, 1 },
	{ "partial", "Partial", NULL, CF_BOOL, 0 },
};

static void
fill_days(struct rtable *t, const struct bucket *b, size_t nb)
{
	for (size_t i = 0; i < nb; i++) {
		size_t r = result_row(t);
		result_set_int(t, r, 0, b[i].t);
		result_set_int(t, r, 1, b[i].minutes);
		result_set_int(t, r, 2, b[i].complete);
		result_set_int(t, r, 6, b[i].complete < IO_DAY_S / IO_MINUTE_S);
		if (b[i].complete == 0)
			continue;
		result_set_uint(t, r, 3, b[i].rd);
		result_set_uint(t, r, 4, b[i].wr);
		put_share(t, r, 5, b[i].rd, b[i].wr);
	}
}

static const struct rcol_spec total_cols[] = {
	{ "rd_bytes", "Read", "B", CF_BYTES, 2 },
	{ "wr_bytes", "Written", "B", CF_BYTES, 2 },
	{ "read_share", "Read share", "%", CF_PCT, 1 },
	{ "complete", "Complete minutes", "min", CF_PLAIN, 0 },
	{ "calendar_minutes", "Calendar minutes", "min", CF_PLAIN, 0 },
	{ "coverage", "Coverage", "%", CF_PCT, 2 },
	{ "days", "Days", NULL, CF_PLAIN, 0 },
	{ "days_empty", "Days without a complete minute", NULL, CF_PLAIN,
	    0 },
	{ "rd_bytes_per_day", "Read per day", "B/day", CF_BYTES, 2 },
	{ "wr_bytes_per_day", "Written per day", "B/day", CF_BYTES, 2 },
	{ "rd_mib_s", "Read mean", "MiB/s", CF_PLAIN, 2 },
	{ "wr_mib_s", "Write mean", "MiB/s", CF_PLAIN, 2 },
	{ "peak_rd_mib_s", "Peak read", "MiB/s", CF_PLAIN, 2 },
	{ "peak_rd_t", "Peak read minute", NULL, CF_TIME, 0 },
	{ "peak_wr_mib_s", "Peak write", "MiB/s", CF_PLAIN, 2 },
	{ "peak_wr_t", "Peak write minute", NULL, CF_TIME, 0 },
};

/* Busiest complete minute of one direction (the first on ties), as a
 * stored minute (len: none). */
static size_t
busiest(const struct minute_series *s, const uint64_t *v)
{
	size_t best = s->len;

	for (size_t j = 0; j < s->len; j++)
		if (s->state[j] == MIN_COMPLETE &&
		    (best == s->len || v[j] > v[best]))
			best = j;
	return best;
}

static void
fill_totals(struct rtable *t, const struct minute_series *s,
    const struct io_coverage *c, const struct bucket *day, size_t nday)
{
	uint64_t rd = 0, wr = 0;
	size_t r = result_row(t), pr = busiest(s, s->rd), pw = busiest(s,
	    s->wr);
	int64_t n = (int64_t)c->complete;

	for (size_t i = 0; i < nday; i++) {
		rd += day[i].rd;
		wr += day[i].wr;
	}
	result_set_int(t, r, 3, n);
	result_set_int(t, r, 4, (int64_t)c->calendar);
	result_set_real(t, r, 5, traffic_coverage_share(c));
	result_set_int(t, r, 6, (int64_t)c->days);
	result_set_int(t, r, 7, (int64_t)c->days_empty);
	if (n == 0)
		return;		/* nothing was measured: no sums, not 0 */
	result_set_uint(t, r, 0, rd);
	result_set_uint(t, r, 1, wr);
	put_share(t, r, 2, rd, wr);
	result_set_real(t, r, 8, (double)((u128)rd * 1440) / (double)n);
	result_set_real(t, r, 9, (double)((u128)wr * 1440) / (double)n);
	result_set_real(t, r, 10, traffic_mean_mib_s((double)rd, (double)n));
	result_set_real(t, r, 11, traffic_mean_mib_s((double)wr, (double)n));
	result_set_real(t, r, 12, traffic_mib_s(s->rd[pr]));
	result_set_int(t, r, 13, s->t0 + (int64_t)(s->lo + pr) * IO_MINUTE_S);
	result_set_real(t, r, 14, traffic_mib_s(s->wr[pw]));
	result_set_int(t, r, 15, s->t0 + (int64_t)(s->lo + pw) * IO_MINUTE_S);
}

/* The throughput plot, with the --annotate windows that meet it. */
static void
add_figures(struct result *r, const struct opts *o,
    const struct io_coverage *c, const char *every)
{
	char cap[256];
	struct rfigure *f;

	snprintf(cap, sizeof cap, "Mean read and write MiB/s per %s over the "
	    "complete minutes of each bucket; gaps are buckets without a "
	    "complete minute; shaded: annotated windows.", every);
	f = result_figure(r, "throughput", FIG_LINE, 0,
	    "Aggregate throughput", cap, "Time (UTC)", "Throughput (MiB/s)");
	f->xcol = 0;
	f->ycol[0] = 5;
	f->ycol[1] = 6;
	f->ny = 2;
	f->xtime = 1;
	for (size_t i = 0; i < o->nann; i++) {
		int64_t a = o->ann[i].from, b = o->ann[i].to;
		if (b > c->from && a < c->to)
			result_span(f, (double)(a > c->from ? a : c->from),
			    (double)(b < c->to ? b : c->to), o->ann[i].label);
	}
	/* Bars: a day's share is one value for the whole day, and a day
	 * without a complete minute has no bar. */
	f = result_figure(r, "read_share", FIG_BARS, 1, "Read share per day",
	    "Bytes read / bytes moved per UTC day, over its complete minutes;"
	    " no bar: no complete minute that day.", "Day (UTC)",
	    "Read share (%)");
	f->xcol = 0;
	f->ycol[0] = 5;
	f->ny = 1;
}

static const char *
every_name(int64_t every, char *buf, size_t len)
{
	if (every == 60)
		return "minute";
	if (every == 3600)
		return "hour";
	if (every == IO_DAY_S)
		return "day";
	snprintf(buf, len, "%lld s", (long long)every);
	return buf;
}

/* A result row costs a few hundred bytes: decades of minutes would take
 * gigabytes to say nothing a coarser bucket does not. */
#define THROUGHPUT_MAX_BUCKETS 1000000

/* The buckets of width that [from, to) touches, within the limit? 0, or
 * -1 with a usage error. */
static int
check_buckets(int64_t from, int64_t to, int64_t width, const char *every,
    char *err, size_t errlen)
{
	uint64_t n;

	if (to <= from)
		return 0;
	n = (uint64_t)((floor_align64(to - 1, width) - floor_align64(from,
	    width)) /
	    width) + 1;
	if (n <= THROUGHPUT_MAX_BUCKETS)
		return 0;
	snprintf(err, errlen, FMT_USAGE "%llu buckets of one %s in the window "
	    "(at most %d): use a wider --every or a narrower --from/--to",
	    (unsigned long long)n, every, THROUGHPUT_MAX_BUCKETS);
	return -1;
}

/* Every table, note and figure of a window of calendar minutes. */
static void
fill_result(struct result *r, const struct minute_series *s,
    const struct io_coverage *c, const struct opts *o, const char *every)
{
	size_t nb, nday;
	struct bucket *b = bucketize(s, o->every, &nb);
	struct bucket *day = bucketize(s, IO_DAY_S, &nday);
	char **mark = o->nann ? traffic_annotate_mark(s, o->every, nb, o->ann,
	    o->nann) : NULL;

	fill_series(&r->table[0], b, nb, o->every, mark);
	fill_days(&r->table[1], day, nday);
	fill_totals(&r->table[2], s, c, day, nday);
	if (c->complete)
		result_note(r, "Every sum, mean, peak and read share uses the "
		    "%zu complete minute%s only. Buckets are one %s, "
		    "UTC-aligned; a bucket or day with fewer complete minutes "
		    "than its length is partial and never scaled up. Per-day "
		    "averages are the totals over the complete minutes times "
		    "1,440 / %zu.", c->complete, c->complete == 1 ? "" : "s",
		    every, c->complete);
	add_figures(r, o, c, every);
	traffic_annotate_marks_free(mark, nb);
	free(b);
	free(day);
}

struct result *
traffic_throughput(sqlite3 *db, const struct opts *o, char *err,
    size_t errlen)
{
	struct minute_series s;
	struct io_coverage c;
	struct result *r;
	char buf[32];
	const char *every;

	if (o->every <= 0 || o->every % IO_MINUTE_S != 0) {
		snprintf(err, errlen, "--every must be a whole number of "
		    "minutes");
		return NULL;
	}
	every = every_name(o->every, buf, sizeof buf);
	/* An explicit window is checked before its minutes are loaded. */
	if (o->win.has_from && o->win.has_to && check_buckets(floor_align64(o->win.from,
	    IO_MINUTE_S), floor_align64(o->win.to, IO_MINUTE_S), o->every,
	    every,
	    err, errlen) < 0)
		return NULL;
	if (query_minutes_load(db, &o->win, &s, err, errlen) != 0)
		return NULL;
	if (check_buckets(s.t0, s.t0 + (int64_t)s.n * IO_MINUTE_S, o->every,
	    every, err, errlen) < 0) {
		query_minutes_free(&s);
		return NULL;
	}
	traffic_coverage_count(&s, &c);
	r = result_new("throughput", "Aggregate throughput");
	result_wide(result_table(r, "series", "Throughput per bucket",
	    series_cols, o->nann ? SERIES_NCOL : SERIES_NCOL - 1), "minutes,"
	    "complete,rd_max_mib_s,wr_max_mib_s");
	result_table(r, "days", "Traffic per UTC day", day_cols,
	    sizeof day_cols / sizeof day_cols[0]);
	result_wide(result_table(r, "totals", "Totals over the complete "
	    "minutes", total_cols, sizeof total_cols / sizeof total_cols[0]),
	    "complete,calendar_minutes,days,days_empty,rd_bytes_per_day,"
	    "wr_bytes_per_day,peak_rd_t,peak_wr_t");
	if (o->nann)
		traffic_annotate_table(r, &s, o->ann, o->nann);
	traffic_coverage_notes(r, db, &c);
	/* Every bucket of the window is a row, with or without data. */
	if (c.calendar > 0)
		fill_result(r, &s, &c, o, every);
	if (o->nann)
		result_note(r, "Annotated windows: table \"annotations\" gives "
		    "the minutes of each in the window, complete or missing; "
		    "column \"annotation\" of the series names the windows that "
		    "overlap a bucket.");
	query_minutes_free(&s);
	return r;
}
