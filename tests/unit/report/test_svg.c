/*
 * svg: small figures drawn by svg_figure, against coordinates computed by
 * hand: lines broken at NULL, dots for lone points, "no data" bands,
 * stacked areas, spans over gaps with their labels inside the plot, step
 * CDFs on a log axis with binary labels, percent axes, legends of drawn
 * series only, markers, one-point figures, heat maps with merged runs and
 * long lane names, bars, date ticks; escaping and determinism.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/render.h"
#include "render/render_int.h"
#include "tap.h"

#define EVIL "<script>alert(1)</script> \"q\" 'a'\nx\xff"

static size_t
count(const char *s, const char *needle)
{
	size_t n = 0;

	for (; (s = strstr(s, needle)); s++)
		n++;
	return n;
}

static char *
svg_of(const struct result *r, size_t fig)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	svg_figure(f, r, &r->fig[fig]);
	fclose(f);
	return buf;
}

/* The data group of an svg (between <g class="data"> and its </g>). */
static char *
data_group(const char *svg)
{
	const char *a = strstr(svg, "<g class=\"data\">");
	const char *b = a ? strstr(a, "</g>") : NULL;

	return a && b ? strndup(a, (size_t)(b - a)) : strdup("");
}

static void
test_svg_line(void)
{
	static const struct rcol_spec cols[] = {
		{ "x", "X", NULL, CF_PLAIN, 0 },
		{ "y", "Y", "MiB/s", CF_PLAIN, 1 },
	};
	struct result *r = result_new("t", "T");
	struct rtable *t = result_table(r, "s", "S", cols, 2);
	static const int yv[] = { 0, 10, -1, 10, 20, -1, 5 };
	struct rfigure *fig;
	char *s, *d, *again;

	for (int i = 0; i < 7; i++) {
		size_t row = result_row(t);

		result_set_int(t, row, 0, i);
		if (yv[i] >= 0)
			result_set_int(t, row, 1, yv[i]);
	}
	fig = result_figure(r, "f", FIG_LINE, 0, "Line " EVIL, "cap",
	    "X " EVIL, "Y (MiB/s)");
	fig->xcol = 0, fig->ycol[0] = 1, fig->ny = 1;
	s = svg_of(r, 0);
	d = data_group(s);
	/* x: 0..6 over px 84..942 (143 px per unit); y: 0..20 over
	 * px 266..42 (8 px of headroom under the frame at 34: 11.2 px per
	 * unit). */
	is_str(d, "<g class=\"data\">\n"
	    "<polyline fill=\"none\" stroke-width=\"1.5\" stroke-linejoin=\"round\" "
	    "points=\"84.0,266.0 227.0,154.0\" stroke=\"#0072b2\"/>\n"
	    "<polyline fill=\"none\" stroke-width=\"1.5\" stroke-linejoin=\"round\" "
	    "points=\"513.0,154.0 656.0,42.0\" stroke=\"#0072b2\"/>\n"
	    "<circle cx=\"942.0\" cy=\"210.0\" r=\"2.5\" fill=\"#0072b2\"/>\n",
	    "svg line: broken at NULL, lone point as a dot");
	ok(strstr(s, "<rect x=\"370.0\" y=\"34.0\" width=\"143.0\" "
	    "height=\"232.0\" fill=\"#e4e4e4\"><title>no data</title></rect>")
	    != NULL, "svg line: a NULL row is shaded as no data");
	ok(count(s, "fill=\"#e4e4e4\"") == 3, "svg line: two gaps and the "
	    "legend swatch");
	ok(strstr(s, ">20.0</text>") || strstr(s, ">20</text>"),
	    "svg line: y axis reaches 20");
	ok(!strstr(s, "<script") && strstr(s, "Line &lt;script&gt;") &&
	    strstr(s, "X &lt;script&gt;"), "svg: title and label escaped");
	again = svg_of(r, 0);
	is_str(again, s, "svg: same figure, same bytes");
	free(again);
	free(d);
	free(s);
	result_free(r);
}

static void
test_svg_stacked_span(void)
{
	static const struct rcol_spec cols[] = {
		{ "t", "T", NULL, CF_PLAIN, 0 },
		{ "rd", "Read", NULL, CF_PLAIN, 0 },
		{ "wr", "Write", NULL, CF_PLAIN, 0 },
	};
	static const int rd[] = { 1, 1, 1, 1 }, wr[] = { 1, 1, -1, 2 };
	struct result *r = result_new("throughput", "T");
	struct rtable *t = result_table(r, "series", "S", cols, 3);
	struct rfigure *fig;
	char *s, *d;

	for (int i = 0; i < 4; i++) {
		size_t row = result_row(t);

		result_set_int(t, row, 0, i);
		result_set_int(t, row, 1, rd[i]);
		if (wr[i] >= 0)
			result_set_int(t, row, 2, wr[i]);
	}
	fig = result_figure(r, "f", FIG_LINE, 0, "Stacked", NULL, "t", "y");
	fig->xcol = 0, fig->ycol[0] = 1, fig->ycol[1] = 2, fig->ny = 2;
	fig->stacked = 1;
	result_span(fig, 1, 2, "maint <b>");
	s = svg_of(r, 0);
	d = data_group(s);
	/* x 0..3 over 84..942 (286 px per unit); sums up to 3 over 266..42
	 * (74.67 px per unit). Row 2 has no write value: the run of rows
	 * 0-1 is stacked, row 3 alone makes no area. */
	is_str(d, "<g class=\"data\">\n"
	    "<polygon fill=\"#0072b2\" fill-opacity=\"0.7\" points=\"84.0,191.3 "
	    "370.0,191.3 370.0,266.0 84.0,266.0\"/>\n"
	    "<polygon fill=\"#d55e00\" fill-opacity=\"0.7\" points=\"84.0,116.7 "
	    "370.0,116.7 370.0,191.3 84.0,191.3\"/>\n",
	    "svg stacked: bands over the drawable run only");
	ok(strstr(s, "<rect x=\"370.0\" y=\"34.0\" width=\"286.0\" height=\"232.0\" "
	    "fill=\"#f7cd45\"><title>maint &lt;b&gt;</title></rect>") &&
	    strstr(s, ">maint &lt;b&gt;</text>"), "svg span: shaded, labelled, escaped");
	free(d);
	free(s);
	result_free(r);
}

/* A time axis spans the data: buckets at 0, 60 ... 240 s, the first and
 * the last missing (the window goes past the data), and the middle one
 * too. The axis runs from 60 s to 180 s over 84..942, so the gap in the
 * middle is [513, 942); nothing is drawn for the missing ends, and
 * svg_data_rows says rows 1 to 3; without any value, no rows. */
static void
test_svg_time_window(void)
{
	static const struct rcol_spec cols[] = {
		{ "t", "T", NULL, CF_TIME, 0 },
		{ "y", "Y", "MiB/s", CF_PLAIN, 1 },
	};
	struct result *r = result_new("t", "T");
	struct rtable *t = result_table(r, "s", "S", cols, 2);
	struct rfigure *fig;
	struct rtable *none;
	size_t a, b;
	char *s, *gap;

	for (int i = 0; i < 5; i++) {
		size_t row = result_row(t);

		result_set_int(t, row, 0, 1267401600 + 60 * i);
		if (i == 1 || i == 3)
			result_set_real(t, row, 1, 5);
	}
	fig = result_figure(r, "tp", FIG_LINE, 0, "TP", NULL, "Time", "Y");
	fig->xcol = 0, fig->ycol[0] = 1, fig->ny = 1, fig->xtime = 1;
	s = svg_of(r, 0);
	gap = strstr(s, "<title>no data</title>");
	ok(strstr(s, "<rect x=\"513.0\" y=\"34.0\" width=\"429.0\"") &&
	    gap && !strstr(gap + 1, "<title>no data</title>") && strstr(s,
	    "<text x=\"84.0\" y=\"281.0\" text-anchor=\"middle\">00:01"
	    "</text>") && strstr(s, "<text x=\"942.0\" y=\"281.0\" "
	    "text-anchor=\"middle\">00:03</text>") && !strstr(s, ">00:00<")
	    && !strstr(s, ">00:04<"), "svg time axis: the span with data, the"
	    " gap inside it shaded");
	ok(svg_data_rows(&r->table[0], &r->fig[0], &a, &b) == 1 && a == 1 &&
	    b == 4,
	    "svg_data_rows: from the first row with a value to the last");
	free(s);
	none = result_table(r, "none", "None", cols, 2);
	for (int i = 0; i < 3; i++)
		result_set_int(none, result_row(none), 0, 1267401600 + 60 * i);
	ok(svg_data_rows(none, &r->fig[0], &a, &b) == 0,
	    "svg_data_rows: none without a value");
	result_free(r);
}

static void
test_svg_step_log(void)
{
	static const struct rcol_spec cols[] = {
		{ "size", "Size", NULL, CF_BYTES, 0 },
		{ "f", "Files", NULL, CF_PCT, 1 },
	};
	struct result *r = result_new("t", "T");
	struct rtable *t = result_table(r, "s", "S", cols, 2);
	struct rfigure *fig;
	char *s, *d;

	for (int i = 0; i < 3; i++) {
		size_t row = result_row(t);

		result_set_uint(t, row, 0, i ? 1024ull << (10 * i) : 0);
		result_set_real(t, row, 1, 0.25 * (i + 1));
	}
	fig = result_figure(r, "cdf", FIG_STEP, 0, "CDF", NULL, "Size",
	    "Share");
	fig->xcol = 0, fig->ycol[0] = 1, fig->ny = 1, fig->xlog = 1;
	s = svg_of(r, 0);
	d = data_group(s);
	/* x = 0 cannot sit on a log axis: 1 MiB .. 1.5 GiB (room after the
	 * last rise) over 84..942, so 1 GiB is at 84 + 858 * 10 / 10.585 =
	 * 894.6, and the last value holds to the frame; y 0.5, 0.75 on
	 * 0..0.8 (grown to ticks of 0.2) over 266..42. */
	is_str(d, "<g class=\"data\">\n"
	    "<polyline fill=\"none\" stroke-width=\"1.5\" stroke-linejoin=\"round\" "
	    "points=\"84.0,126.0 894.6,126.0 894.6,56.0 942.0,56.0\" stroke=\"#0072b2\"/>\n",
	    "svg step: right-continuous steps, x <= 0 not drawn on log x");
	ok(strstr(s, ">1 MiB</text>") && strstr(s, ">16 MiB</text>") &&
	    strstr(s, ">1 GiB</text>"), "svg log bytes axis: binary labels");
	ok(strstr(s, ">80</text>") != NULL, "svg pct axis: percent labels");
	free(d);
	free(s);
	result_free(r);
}

static void
test_svg_heat(void)
{
	static const struct rcol_spec cols[] = {
		{ "host", "Host", NULL, CF_PLAIN, 0 },
		{ "hour", "Hour", NULL, CF_TIME, 0 },
		{ "class", "Class", NULL, CF_PLAIN, 0 },
	};
	static const struct { const char *h; int t; const char *c; } rows[] = {
		{ "b<img src=x onerror=alert(1)>", 0, "low" },
		{ "a", 0, "idle" }, { "a", 3600, "idle" }, { "a", 7200, "high" },
		{ "b<img src=x onerror=alert(1)>", 7200, "low" },
		{ "a", 10800, "idle" },
	};
	struct result *r = result_new("burst", "Load");
	struct rtable *t = result_table(r, "load_classes", "L", cols, 3);
	struct rfigure *fig;
	char *s, *d;

	for (size_t i = 0; i < 6; i++) {
		size_t row = result_row(t);

		result_set_text(t, row, 0, rows[i].h);
		result_set_int(t, row, 1, 1267401600 + rows[i].t);
		result_set_text(t, row, 2, rows[i].c);
	}
	fig = result_figure(r, "heat", FIG_HEAT, 0, "Load classes", NULL,
	    "Server", "Hour (UTC)");
	fig->xcol = 0, fig->ycol[0] = 1, fig->ycol[1] = 2, fig->ny = 2;
	fig->xtime = 1;
	s = svg_of(r, 0);
	d = data_group(s);
	is_i64((int64_t)count(d, "<rect "), 5, "svg heat: equal adjacent "
	    "cells merged (a: idle idle | high | idle; b: low | low)");
	/* Lane 0 is b (first row). The label column fits b's 29 code
	 * points (8.06 px each at 13 px) and 16 px: the grid starts at
	 * 249.74; 4 hours over 249.74..942: 173.065 px each. Lanes are
	 * 20 px: lane 1 starts at 34 + 20. */
	ok(strstr(d, "<rect x=\"249.7\" y=\"54.0\" width=\"346.1\" "
	    "height=\"19.0\" fill=\"#f1eef6\"><title>a: idle, 2010-03-01 "
	    "00:00 to 2010-03-01 02:00</title></rect>") != NULL,
	    "svg heat: the merged run spans two hours");
	ok(strstr(s, "<g class=\"ticks\" fill=\"#333333\" font-size=\"13\">\n"
	    "<text x=\"244.7\" y=\"48.0\" text-anchor=\"end\">"
	    "b&lt;img src=x onerror=alert(1)&gt;</text>") != NULL,
	    "svg heat: a label that fits is shown whole, at 13 px");
	ok(strstr(s, "<text x=\"244.7\" y=\"28.0\" text-anchor=\"end\" "
	    "font-weight=\"bold\">Server</text>") && !strstr(s, "rotate("),
	    "svg heat: the lanes' title heads the label column, unrotated");
	ok(!strstr(s, "<img") && strstr(s, "b&lt;img src=x onerror=alert(1)&gt;"),
	    "svg heat: lane label escaped");
	ok(strstr(s, ">idle</text>") && strstr(s, ">high</text>") &&
	    strstr(s, ">low</text>") && !strstr(s, ">mid</text>"),
	    "svg heat: legend lists the classes used");
	free(d);
	free(s);
	result_free(r);
}

static void
test_svg_bars_time(void)
{
	static const struct rcol_spec cols[] = {
		{ "day", "Day", NULL, CF_DATE, 0 },
		{ "rd", "Read", NULL, CF_BYTES, 0 },
		{ "wr", "Write", NULL, CF_BYTES, 0 },
	};
	struct result *r = result_new("throughput", "T");
	struct rtable *t = result_table(r, "days", "D", cols, 3);
	struct rfigure *fig;
	char *s, *d;

	for (int i = 0; i < 3; i++) {
		size_t row = result_row(t);

		result_set_int(t, row, 0, 1267401600 + 86400 * i);
		result_set_int(t, row, 1, (int64_t)(i + 1) << 40);
		if (i != 1)
			result_set_int(t, row, 2, 1ll << 39);
	}
	fig = result_figure(r, "bars", FIG_BARS, 0, "Per day", NULL, "Day",
	    "Bytes");
	fig->xcol = 0, fig->ycol[0] = 1, fig->ycol[1] = 2, fig->ny = 2;
	s = svg_of(r, 0);
	d = data_group(s);
	is_i64((int64_t)count(d, "<rect "), 5, "svg bars: a NULL draws no bar");
	ok(strstr(s, ">2010-03-02</text>") && strstr(s, ">3 TiB</text>"),
	    "svg bars: date labels and binary units on y");
	free(d);
	free(s);
	fig = result_figure(r, "line", FIG_LINE, 0, "Over time", NULL, "Day",
	    "Bytes");
	fig->xcol = 0, fig->ycol[0] = 1, fig->ny = 1, fig->xtime = 1;
	s = svg_of(r, 1);
	ok(strstr(s, ">2010-03-01</text>") && strstr(s, ">12:00</text>") &&
	    strstr(s, ">2010-03-03</text>"), "svg time axis: date ticks");
	free(s);
	result_free(r);
}


/* The text of every <text> element of svg whose attributes contain
 * attr, in order, separated by '\n'. */
static char *
texts_with(const char *svg, const char *attr)
{
	char *out = calloc(1, strlen(svg) + 1), *o = out;
	const char *p = svg;

	while ((p = strstr(p, "<text "))) {
		const char *gt = strchr(p, '>'), *end = strstr(p, "</text>");
		const char *a = strstr(p, attr);

		if (a && a < gt) {
			const char *t = strstr(gt, "</title>");

			gt = t && t < end ? t + 7 : gt;
			memcpy(o, gt + 1, (size_t)(end - gt - 1));
			o += end - gt - 1;
			*o++ = '\n';
		}
		p = end;
	}
	return out;
}

static void
test_svg_spans_over_gaps(void)
{
	static const struct rcol_spec cols[] = {
		{ "t", "T", NULL, CF_PLAIN, 0 },
		{ "y", "Read", NULL, CF_PLAIN, 0 },
	};
	static const int yv[] = { 1, 2, -1, -1, 2, 1, 3 };
	struct result *r = result_new("throughput", "T");
	struct rtable *t = result_table(r, "series", "S", cols, 2);
	struct rfigure *fig;
	const char *gap, *span, *data, *lab;
	char *s, *l;

	for (int i = 0; i < 7; i++) {
		size_t row = result_row(t);

		result_set_int(t, row, 0, i);
		if (yv[i] >= 0)
			result_set_int(t, row, 1, yv[i]);
	}
	fig = result_figure(r, "f", FIG_LINE, 0, "Spans", NULL, "t", "y");
	fig->xcol = 0, fig->ycol[0] = 1, fig->ny = 1;
	result_span(fig, 2, 3, "outage over missing data");
	result_span(fig, 5.5, 6, "Scheduled maintenance: Lustre OSS firmware");
	result_span(fig, 5, 6, "second window ending at the edge");
	s = svg_of(r, 0);
	gap = strstr(s, "<title>no data</title>");
	span = strstr(s, "<g class=\"span\"");
	data = strstr(s, "<g class=\"data\">");
	lab = strstr(s, "<g class=\"span-labels\">");
	ok(gap && span && data && lab && gap < span && span < data &&
	    data < lab, "svg spans: gaps, then windows, data, then labels");
	/* x 0..6 over 84..942: 143 px per unit; the gap is rows 2-3 up to
	 * row 4: 370..656; the first window 370..513 over it, half
	 * transparent. */
	ok(strstr(s, "<rect x=\"370.0\" y=\"34.0\" width=\"286.0\" "
	    "height=\"232.0\" fill=\"#e4e4e4\"><title>no data</title>") &&
	    strstr(s, "<g class=\"span\" fill-opacity=\"0.5\">\n<rect "
	    "x=\"370.0\" y=\"34.0\" width=\"143.0\" height=\"232.0\" "
	    "fill=\"#f7cd45\"><title>outage over missing data</title></rect>"),
	    "svg spans: a window over missing data shows over the gap");
	/* Labels: the first starts at its window (372); the two others
	 * would cross the right edge (939): they end with their window
	 * (940 would cross it: 939), on rows 1 and 2 as they overlap. */
	ok(strstr(s, "<text x=\"372.0\" y=\"46.0\" text-anchor=\"start\"") &&
	    strstr(s, "<text x=\"939.0\" y=\"46.0\" text-anchor=\"end\" "
	    "font-size=\"10\" fill=\"#7a5c00\" stroke=\"#ffffff\" "
	    "stroke-width=\"3\" paint-order=\"stroke\">Scheduled") &&
	    strstr(s, "<text x=\"939.0\" y=\"58.0\" text-anchor=\"end\""),
	    "svg spans: labels inside the plot, stacked when they overlap");
	l = texts_with(s, "fill=\"#7a5c00\"");
	is_str(l, "outage over missing data\nScheduled maintenance: Lustre "
	    "OSS firmware\nsecond window ending at the edge\n",
	    "svg spans: every label whole");
	free(l);
	free(s);
	result_free(r);
}

static void
test_svg_legend_markers(void)
{
	static const struct rcol_spec cols[] = {
		{ "t", "Started", NULL, CF_TIME, 0 },
		{ "v", "Value", "files", CF_PLAIN, 0 },
		{ "lin", "Linear fit", "files", CF_PLAIN, 0 },
		{ "share", "Share", NULL, CF_PCT, 0 },
	};
	struct result *r = result_new("growth", "G");
	struct rtable *t = result_table(r, "points", "P", cols, 4);
	struct rfigure *fig;
	size_t row = result_row(t);
	char *s, *d;

	result_set_int(t, row, 0, 1267401600 + 8 * 3600 + 48 * 60);
	result_set_int(t, row, 1, 55);
	fig = result_figure(r, "growth", FIG_LINE, 0, "One snapshot", NULL,
	    "date (UTC)", "files");
	fig->xcol = 0, fig->ycol[0] = 1, fig->ycol[1] = 2, fig->ny = 2;
	fig->xtime = 1;
	s = svg_of(r, 0);
	d = data_group(s);
	ok(strstr(s, ">Value</text>") && !strstr(s, ">Linear fit</text>"),
	    "svg legend: a series without a point is not listed");
	/* One time: a day around it, 2010-02-28 20:48 .. 2010-03-01 20:48
	 * over 84..942, the point in the middle (513); ticks every 3 h,
	 * midnight showing the date. */
	ok(strstr(d, "<circle cx=\"513.0\" cy=\"") && strstr(d, "r=\"3.5\""),
	    "svg one x value: centred, drawn with a marker");
	ok(strstr(s, ">2010-03-01</text>") && strstr(s, ">21:00</text>") &&
	    strstr(s, ">18:00</text>"), "svg one x value: a day of ticks");
	free(d);
	free(s);
	row = result_row(t);
	result_set_int(t, row, 0, 1267401600 + 86400);
	result_set_int(t, row, 1, 65);
	result_set_int(t, row, 2, 64);
	fig = &r->fig[0];
	fig->markers = 1u << 0;
	s = svg_of(r, 0);
	d = data_group(s);
	/* The fit's one point is a dot (r 2.5), not a marker (r 3.5). */
	is_i64((int64_t)count(d, "r=\"3.5\""), 2, "svg markers: one per point "
	    "of the marked series only");
	ok(strstr(s, ">Linear fit</text>") != NULL,
	    "svg legend: a series with a point is listed");
	free(d);
	free(s);
	fig = result_figure(r, "share", FIG_LINE, 0, "Share", NULL, "t",
	    "cumulative share");
	fig->xcol = 0, fig->ycol[0] = 3, fig->ny = 1;
	result_set_real(t, 0, 3, 0.5);
	result_set_real(t, 1, 3, 1.0);
	s = svg_of(r, 1);
	ok(strstr(s, ">cumulative share (%)</text>") &&
	    strstr(s, ">100</text>"),
	    "svg pct axis: percent in the title and the ticks");
	free(s);
	result_free(r);
}

/* The lane labels a heat map of one hour shows for these hosts. */
static char *
heat_labels(const char *const *host, size_t n, char **svg)
{
	static const struct rcol_spec cols[] = {
		{ "host", "Host", NULL, CF_PLAIN, 0 },
		{ "hour", "Hour", NULL, CF_TIME, 0 },
		{ "class", "Class", NULL, CF_PLAIN, 0 },
	};
	struct result *r = result_new("burst", "Load");
	struct rtable *t = result_table(r, "load_classes", "L", cols, 3);
	struct rfigure *fig;
	char *l;

	for (size_t i = 0; i < n; i++) {
		size_t row = result_row(t);

		result_set_text(t, row, 0, host[i]);
		result_set_int(t, row, 1, 1267401600);
		result_set_text(t, row, 2, "low");
	}
	fig = result_figure(r, "heat", FIG_HEAT, 0, "Load classes", NULL,
	    "server", "UTC hour");
	fig->xcol = 0, fig->ycol[0] = 1, fig->ycol[1] = 2, fig->ny = 2;
	*svg = svg_of(r, 0);
	l = texts_with(*svg, "text-anchor=\"end\">");
	result_free(r);
	return l;
}

static void
test_svg_heat_long_names(void)
{
	static const char *const host[] = {
		"/clusters/alpha/racks/r07/enclosures/e2/controller-a",
		"/clusters/alpha/racks/r07/enclosures/e2/controller-b",
		"oss-storage-node-01.example.org",
		"oss-storage-node-02.example.org",
		"oss-storage-node-03.example.org",
	};
	char *s, *l;

	/* Up to 40 code points whole. Longer ones share a 51-byte prefix:
	 * the first 9, an ellipsis and the last 30, where they differ. */
	l = heat_labels(host, 2, &s);
	is_str(l, "/clusters\xe2\x80\xa6r07/enclosures/e2/controller-a\n"
	    "/clusters\xe2\x80\xa6r07/enclosures/e2/controller-b\n",
	    "svg heat: long names cut where they agree");
	ok(strstr(s, "<title>/clusters/alpha/racks/r07/enclosures/e2/"
	    "controller-a</title>/clusters\xe2\x80\xa6") != NULL,
	    "svg heat: a shortened label keeps the whole name as its title");
	free(l);
	free(s);
	/* No common prefix: 19 code points, an ellipsis and the last 20. */
	l = heat_labels(host, 5, &s);
	is_str(l, "/clusters/alpha/rac\xe2\x80\xa6ures/e2/controller-a\n"
	    "/clusters/alpha/rac\xe2\x80\xa6ures/e2/controller-b\n"
	    "oss-storage-node-01.example.org\n"
	    "oss-storage-node-02.example.org\n"
	    "oss-storage-node-03.example.org\n",
	    "svg heat: similar names stay distinct");
	/* The label column fits 40 code points: 322.4 px and 16. */
	ok(strstr(s, "<rect class=\"frame\" x=\"338.4\"") != NULL,
	    "svg heat: the label column fits the longest label");
	free(l);
	free(s);
}

int
main(void)
{
	test_svg_line();
	test_svg_stacked_span();
	test_svg_time_window();
	test_svg_step_log();
	test_svg_heat();
	test_svg_bars_time();
	test_svg_spans_over_gaps();
	test_svg_legend_markers();
	test_svg_heat_long_names();
	return tap_end();
}
