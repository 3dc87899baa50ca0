/*
 * svg_axis: axis ranges, tick positions and tick labels (svg_int.h). Linear
 * axes tick at 1, 2, 2.5, 5 x 10^k (binary units for bytes, clock steps
 * for durations); log axes at powers of ten, of 1024 for bytes, or at
 * 1 min/1 h/1 d/1 w/30 d/1 y for ages; time axes at UTC clock and
 * calendar boundaries.
 */
#include <math.h>
#include <string.h>
#include <time.h>

#include "human.h"
#include "svg_int.h"

static void
add_tick(struct axis *a, double v, const char *label)
{
	if (a->nticks == AXIS_MAXTICKS)
		return;
	a->tick[a->nticks] = v;
	snprintf(a->label[a->nticks], sizeof a->label[0], "%s", label);
	a->nticks++;
}

/* Decimals that show v exactly enough to tell ticks `step` apart. */
static int
decimals_for(double step)
{
	int d = 0;

	while (d < 6 && fabs(step * pow(10, d) - round(step * pow(10, d))) >
	    1e-6 * step * pow(10, d))
		d++;
	return d;
}

/* 1, 2, 2.5 or 5 times a power of ten, at least x. */
static double
nice_step(double x)
{
	static const double m[] = { 1, 2, 2.5, 5, 10 };
	double p = pow(10, floor(log10(x)));

	for (size_t i = 0; i < sizeof m / sizeof *m; i++)
		if (m[i] * p >= x * (1 - 1e-9))
			return m[i] * p;
	return 10 * p;
}

static double
duration_step(double x)
{
	static const double s[] = { 1, 2, 5, 10, 15, 30, 60, 120, 300, 600,
	    900, 1800, 3600, 7200, 10800, 21600, 43200, 86400, 172800,
	    604800, 1209600, 2592000, 7776000, 31536000 };

	for (size_t i = 0; i < sizeof s / sizeof *s; i++)
		if (s[i] >= x)
			return s[i];
	return nice_step(x / 31536000) * 31536000;
}

static void
lin_label(const struct rcol *col, double v, double step, int exp, char *buf,
    size_t len)
{
	switch (col ? col->fmt : CF_PLAIN) {
	case CF_BYTES:
		human_bytes_in(v, exp, decimals_for(step / ldexp(1, 10 * exp)),
		    buf, len);
		break;
	case CF_PCT:
		human_real(v * 100, decimals_for(step * 100), buf, len);
		break;
	case CF_DURATION:
		human_duration((int64_t)llround(v), buf, len);
		break;
	case CF_DATE:
	case CF_TIME:
		human_date((int64_t)floor(v), col->fmt == CF_TIME, buf, len);
		break;
	default:
		human_real(v, decimals_for(step), buf, len);
	}
}

static void
lin_ticks(struct axis *a, int grow, const struct rcol *col)
{
	enum col_fmt fmt = col ? col->fmt : CF_PLAIN;
	double span = a->hi - a->lo, step;
	int exp = 0;
	char buf[40];

	if (fmt == CF_BYTES) {
		double mag = fmax(fabs(a->lo), fabs(a->hi));

		while (exp < 6 && mag >= ldexp(1, 10 * (exp + 1)))
			exp++;
		step = nice_step(span / 5 / ldexp(1, 10 * exp)) *
		    ldexp(1, 10 * exp);
		a->exp = exp;
	} else if (fmt == CF_DURATION)
		step = duration_step(span / 5);
	else
		step = nice_step(span / 5);
	if (grow) {
		a->lo = floor(a->lo / step + 1e-9) * step;
		a->hi = ceil(a->hi / step - 1e-9) * step;
	}
	/* Counted, not stepped in k: near 2^53, k + 1 can equal k. */
	double k0 = ceil(a->lo / step - 1e-9), k1 = floor(a->hi / step + 1e-9);

	for (int i = 0; i < AXIS_MAXTICKS && k0 + i <= k1; i++) {
		lin_label(col, (k0 + i) * step, step, exp, buf, sizeof buf);
		add_tick(a, (k0 + i) * step, buf);
	}
}

static void
log_ticks(struct axis *a, const struct rcol *col)
{
	enum col_fmt fmt = col ? col->fmt : CF_PLAIN;
	char buf[40];

	if (fmt == CF_BYTES) {
		static const int stride[] = { 1, 2, 5, 10, 20, 30 };
		int e0 = (int)ceil(log2(a->lo) - 1e-9);
		int e1 = (int)floor(log2(a->hi) + 1e-9), m = 30;

		for (size_t i = 0; i < 6; i++)
			if ((e1 - e0) / stride[i] < 10) {
				m = stride[i];
				break;
			}
		for (int e = e0; e <= e1; e++)
			if (e >= 0 && e % m == 0)
				add_tick(a, ldexp(1, e), human_bytes_in(
				    ldexp(1, e), e / 10, 0, buf, sizeof buf));
		if (a->nticks >= 2)
			return;
		a->nticks = 0;
	}
	if (fmt == CF_DURATION) {
		static const double v[] = { 1, 10, 60, 600, 3600, 86400,
		    604800, 2592000, 31536000, 315360000 };
		static const char *const l[] = { "1 s", "10 s", "1 min",
		    "10 min", "1 h", "1 d", "1 w", "30 d", "1 y", "10 y" };

		for (size_t i = 0; i < 10; i++)
			if (v[i] >= a->lo * (1 - 1e-9) &&
			    v[i] <= a->hi * (1 + 1e-9))
				add_tick(a, v[i], l[i]);
		if (a->nticks >= 2)
			return;
		a->nticks = 0;
	}
	int k0 = (int)floor(log10(a->lo)), k1 = (int)ceil(log10(a->hi));
	int few = k1 - k0 < 3;

	for (int k = k0; k <= k1; k++)
		for (int m = 1; m <= 5; m += few ? (m == 1 ? 1 : 3) : 9) {
			double v = m * pow(10, k);

			if (v < a->lo * (1 - 1e-9) || v > a->hi * (1 + 1e-9))
				continue;
			lin_label(col, v, v, 0, buf, sizeof buf);
			add_tick(a, v, buf);
		}
}

/* UTC calendar months: the first of each month in range, every `step`. */
static void
month_ticks(struct axis *a, int step, const char *fmt)
{
	time_t t = (time_t)a->lo;
	struct tm tm;
	char buf[40];

	gmtime_r(&t, &tm);
	tm.tm_mday = 1, tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
	tm.tm_mon -= tm.tm_mon % step;
	for (int i = 0; i < 400; i++) {
		time_t v = timegm(&tm);

		if (v > a->hi)
			break;
		if (v >= a->lo) {
			struct tm cur;

			gmtime_r(&v, &cur);
			strftime(buf, sizeof buf, fmt, &cur);
			add_tick(a, (double)v, buf);
		}
		tm.tm_mon += step;
	}
}

static void
time_ticks(struct axis *a)
{
	static const double s[] = { 60, 300, 600, 900, 1800, 3600, 7200,
	    10800, 21600, 43200, 86400, 172800, 604800, 1209600 };
	double maxticks = fmax(2, floor(fabs(a->p1 - a->p0) / 100));
	double span = a->hi - a->lo;
	char buf[40];

	for (size_t i = 0; i < sizeof s / sizeof *s; i++) {
		if (span / s[i] > maxticks)
			continue;
		/* Weeks start on Mondays: 1970-01-05 is one. */
		double off = s[i] >= 604800 ? 345600 : 0;

		for (double v = ceil((a->lo - off) / s[i]) * s[i] + off;
		    v <= a->hi; v += s[i]) {
			time_t t = (time_t)v;
			struct tm tm;

			/* Midnights show the date, other ticks the time. */
			gmtime_r(&t, &tm);
			strftime(buf, sizeof buf, tm.tm_hour || tm.tm_min ?
			    "%H:%M" : "%Y-%m-%d", &tm);
			add_tick(a, v, buf);
		}
		return;
	}
	if (span / (30 * 86400.0) <= maxticks)
		month_ticks(a, 1, "%Y-%m");
	else if (span / (91 * 86400.0) <= maxticks)
		month_ticks(a, 3, "%Y-%m");
	else
		month_ticks(a, 12 * (int)ceil(span / (365 * 86400.0) /
		    maxticks), "%Y");
}

void
svg_axis_init(struct axis *a, enum axis_kind kind, double lo, double hi,
    double p0, double p1, int grow, const struct rcol *col)
{
	memset(a, 0, sizeof *a);
	a->kind = kind;
	a->p0 = p0, a->p1 = p1;
	/* One value: centre it in a range that reads as deliberate (a day
	 * around one time, so a midnight tick shows the date). A y axis
	 * (grow) of zeros starts at its zero. */
	if (kind == AX_LOG && !(hi > lo))
		lo /= 2, hi = lo * 4;
	else if (!(hi > lo) && grow && lo == 0)
		hi = 1;
	else if (!(hi > lo)) {
		double d = kind == AX_TIME ? 43200 : lo == 0 ? 1 :
		    fabs(lo) / 10;

		hi = lo + d, lo -= d;
	}
	a->lo = lo, a->hi = hi;
	if (kind == AX_LIN)
		lin_ticks(a, grow, col);
	else if (kind == AX_LOG)
		log_ticks(a, col);
	else
		time_ticks(a);
}

double
svg_axis_px(const struct axis *a, double v)
{
	double u;

	if (!isfinite(v) || (a->kind == AX_LOG && v <= 0))
		return NAN;
	if (a->kind == AX_LOG)
		u = (log10(v) - log10(a->lo)) / (log10(a->hi) - log10(a->lo));
	else
		u = (v - a->lo) / (a->hi - a->lo);
	return a->p0 + u * (a->p1 - a->p0);
}

static void
grid_line(FILE *f, double x0, double y0, double x1, double y1)
{
	fputs("<line x1=\"", f);
	svg_draw_num(f, x0);
	fputs("\" y1=\"", f);
	svg_draw_num(f, y0);
	fputs("\" x2=\"", f);
	svg_draw_num(f, x1);
	fputs("\" y2=\"", f);
	svg_draw_num(f, y1);
	fputs("\"/>\n", f);
}

void
svg_axis_draw(FILE *f, const struct axis *x, const struct axis *y,
    const char *xlabel, const char *ylabel)
{
	double left = x ? x->p0 : SVG_LEFT, right = x ? x->p1 :
	    SVG_W - SVG_RIGHT, top = SVG_TOP;
	double bottom = y ? y->p0 : SVG_H - SVG_BOTTOM;

	fputs("<g class=\"axes\" stroke=\"#dddddd\" stroke-width=\"1\">\n", f);
	for (size_t i = 0; y && i < y->nticks; i++)
		grid_line(f, left, svg_axis_px(y, y->tick[i]), right,
		    svg_axis_px(y, y->tick[i]));
	for (size_t i = 0; x && i < x->nticks; i++)
		grid_line(f, svg_axis_px(x, x->tick[i]), top, svg_axis_px(x,
		    x->tick[i]), bottom);
	fputs("</g>\n<g class=\"ticks\" fill=\"#333333\">\n", f);
	for (size_t i = 0; y && i < y->nticks; i++)
		svg_draw_text(f, left - 5, svg_axis_px(y, y->tick[i]) + 4,
		    "end", NULL,
		    y->label[i]);
	for (size_t i = 0; x && i < x->nticks; i++) {
		double px = svg_axis_px(x, x->tick[i]);
		/* A label centred on an edge tick would stick out. */
		double half = 3.3 * (double)strlen(x->label[i]);

		svg_draw_text(f, px, bottom + 15, px + half > SVG_W ? "end" :
		    px - half < 0 ? "start" : "middle", NULL, x->label[i]);
	}
	if (xlabel)
		svg_draw_text(f, (left + right) / 2, bottom + 36, "middle",
		    "font-weight=\"bold\"", xlabel);
	if (ylabel) {
		char rot[80];

		snprintf(rot, sizeof rot, "font-weight=\"bold\" "
		    "transform=\"rotate(-90 16 %.1f)\"", (top + bottom) / 2);
		svg_draw_text(f, 16, (top + bottom) / 2, "middle", rot, ylabel);
	}
	fputs("</g>\n<rect class=\"frame\" x=\"", f);
	svg_draw_num(f, left);
	fputs("\" y=\"", f);
	svg_draw_num(f, top);
	fputs("\" width=\"", f);
	svg_draw_num(f, right - left);
	fputs("\" height=\"", f);
	svg_draw_num(f, bottom - top);
	fputs("\" fill=\"none\" stroke=\"#888888\"/>\n", f);
}

const char *
svg_axis_title(const char *label, const struct axis *a,
    const struct rcol *col, char *buf, size_t len)
{
	static const char *const bytes[] = { "bytes", "KiB", "MiB", "GiB",
	    "TiB", "PiB", "EiB" };
	const char *unit = NULL;

	if (!label)
		return NULL;
	switch (col && !strchr(label, '(') ? col->fmt : CF_BOOL) {
	case CF_PCT:
		unit = "%";
		break;
	case CF_BYTES:
		unit = a && a->kind == AX_LIN ? bytes[a->exp] : "bytes";
		break;
	case CF_DATE:
	case CF_TIME:
		unit = "UTC";
		break;
	case CF_PLAIN:
		unit = col->unit && !strstr(label, col->unit) ? col->unit :
		    NULL;
		break;
	default:
		break;
	}
	if (unit)
		snprintf(buf, len, "%s (%s)", label, unit);
	else
		snprintf(buf, len, "%s", label);
	return buf;
}
