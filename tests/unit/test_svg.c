/*
 * svg: small figures drawn by svg_figure, against coordinates computed by
 * hand: lines broken at NULL, dots for lone points, "no data" bands,
 * stacked areas, spans, step CDFs on a log axis with binary labels, heat
 * maps with merged runs, bars, date ticks; escaping and determinism.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"
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
		size_t row = rt_row(t);

		rt_int(t, row, 0, i);
		if (yv[i] >= 0)
			rt_int(t, row, 1, yv[i]);
	}
	fig = result_figure(r, "f", FIG_LINE, 0, "Line " EVIL, "cap",
	    "X " EVIL, "Y (MiB/s)");
	fig->xcol = 0, fig->ycol[0] = 1, fig->ny = 1;
	s = svg_of(r, 0);
	d = data_group(s);
	/* x: 0..6 over px 84..942 (143 px per unit); y: 0..20 over
	 * px 266..34 (11.6 px per unit). */
	is_str(d, "<g class=\"data\">\n"
	    "<polyline fill=\"none\" stroke-width=\"1.5\" stroke-linejoin=\"round\" "
	    "points=\"84.0,266.0 227.0,150.0\" stroke=\"#0072b2\"/>\n"
	    "<polyline fill=\"none\" stroke-width=\"1.5\" stroke-linejoin=\"round\" "
	    "points=\"513.0,150.0 656.0,34.0\" stroke=\"#0072b2\"/>\n"
	    "<circle cx=\"942.0\" cy=\"208.0\" r=\"2.5\" fill=\"#0072b2\"/>\n",
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
		size_t row = rt_row(t);

		rt_int(t, row, 0, i);
		rt_int(t, row, 1, rd[i]);
		if (wr[i] >= 0)
			rt_int(t, row, 2, wr[i]);
	}
	fig = result_figure(r, "f", FIG_LINE, 0, "Stacked", NULL, "t", "y");
	fig->xcol = 0, fig->ycol[0] = 1, fig->ycol[1] = 2, fig->ny = 2;
	fig->stacked = 1;
	rfig_span(fig, 1, 2, "maint <b>");
	s = svg_of(r, 0);
	d = data_group(s);
	/* x 0..3 over 84..942 (286 px per unit); sums up to 3 over 266..34
	 * (77.33 px per unit). Row 2 has no write value: the run of rows
	 * 0-1 is stacked, row 3 alone makes no area. */
	is_str(d, "<g class=\"data\">\n"
	    "<polygon fill=\"#0072b2\" fill-opacity=\"0.7\" points=\"84.0,188.7 "
	    "370.0,188.7 370.0,266.0 84.0,266.0\"/>\n"
	    "<polygon fill=\"#d55e00\" fill-opacity=\"0.7\" points=\"84.0,111.3 "
	    "370.0,111.3 370.0,188.7 84.0,188.7\"/>\n",
	    "svg stacked: bands over the drawable run only");
	ok(strstr(s, "<rect x=\"370.0\" y=\"34.0\" width=\"286.0\" height=\"232.0\" "
	    "fill=\"#fbe6a2\"><title>maint &lt;b&gt;</title></rect>") &&
	    strstr(s, ">maint &lt;b&gt;</text>"), "svg span: shaded, labelled, escaped");
	free(d);
	free(s);
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
		size_t row = rt_row(t);

		rt_uint(t, row, 0, i ? 1024ull << (10 * i) : 0);
		rt_real(t, row, 1, 0.25 * (i + 1));
	}
	fig = result_figure(r, "cdf", FIG_STEP, 0, "CDF", NULL, "Size",
	    "Share");
	fig->xcol = 0, fig->ycol[0] = 1, fig->ny = 1, fig->xlog = 1;
	s = svg_of(r, 0);
	d = data_group(s);
	/* x = 0 cannot sit on a log axis: 1 MiB .. 1 GiB over 84..942;
	 * y 0.5, 0.75 on 0..0.8 (grown to ticks of 0.2) over 266..34. */
	is_str(d, "<g class=\"data\">\n"
	    "<polyline fill=\"none\" stroke-width=\"1.5\" stroke-linejoin=\"round\" "
	    "points=\"84.0,121.0 942.0,121.0 942.0,48.5\" stroke=\"#0072b2\"/>\n",
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
		size_t row = rt_row(t);

		rt_text(t, row, 0, rows[i].h);
		rt_int(t, row, 1, 1267401600 + rows[i].t);
		rt_text(t, row, 2, rows[i].c);
	}
	fig = result_figure(r, "heat", FIG_HEAT, 0, "Load classes", NULL,
	    "Hour (UTC)", "Server");
	fig->xcol = 0, fig->ycol[0] = 1, fig->ycol[1] = 2, fig->ny = 2;
	fig->xtime = 1;
	s = svg_of(r, 0);
	d = data_group(s);
	is_i64((int64_t)count(d, "<rect "), 5, "svg heat: equal adjacent "
	    "cells merged (a: idle idle | high | idle; b: low | low)");
	/* Lane 0 is b (first row); 4 hours over 84..942: 214.5 px each. */
	ok(strstr(d, "<rect x=\"84.0\" y=\"50.0\" width=\"429.0\" height=\"15.0\" "
	    "fill=\"#f1eef6\"><title>a: idle, 2010-03-01 00:00 to "
	    "2010-03-01 02:00</title></rect>") != NULL,
	    "svg heat: the merged run spans two hours");
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
		size_t row = rt_row(t);

		rt_int(t, row, 0, 1267401600 + 86400 * i);
		rt_int(t, row, 1, (int64_t)(i + 1) << 40);
		if (i != 1)
			rt_int(t, row, 2, 1ll << 39);
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

int
main(void)
{
	test_svg_line();
	test_svg_stacked_span();
	test_svg_step_log();
	test_svg_heat();
	test_svg_bars_time();
	return tap_end();
}
