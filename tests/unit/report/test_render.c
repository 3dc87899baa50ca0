/*
 * render: a hand-made result in table, CSV and JSON against text written
 * by hand; human cell formats; escaping of hostile names in every format;
 * the HTML page (structure, escaping, valid UTF-8). The figures are in
 * test_svg.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "human.h"
#include "render/render.h"
#include "render/render_int.h"
#include "tap.h"

#define EVIL "<script>alert(1)</script> \"q\" 'a'\nx\xff"

static struct result *
fixture(void)
{
	static const struct rcol_spec cols[] = {
		{ "name", "Name", NULL, CF_PLAIN, 0 },
		{ "files", "Files", "files", CF_PLAIN, 0 },
		{ "mean", "Mean", "MiB/s", CF_PLAIN, 2 },
		{ "share", "Share", "%", CF_PCT, 1 },
		{ "t", "Start", NULL, CF_TIME, 0 },
		{ "day", "Day", NULL, CF_DATE, 0 },
		{ "bytes", "Bytes", "B", CF_BYTES, 0 },
		{ "dur", "Longest", "s", CF_DURATION, 0 },
	};
	struct result *r = result_new("idle", "Idle periods");
	struct rtable *t;
	size_t row;

	result_note(r, "Coverage: %d of %d calendar minutes complete.", 3, 4);
	result_note(r, "Project %s.", "a,b");
	t = result_table(r, "summary", "Summary", cols, 8);
	row = result_row(t);
	result_set_text(t, row, 0, "alpha");
	result_set_int(t, row, 1, 1234567);
	result_set_real(t, row, 2, 1984.5);
	result_set_real(t, row, 3, 0.98123);
	result_set_int(t, row, 4, 1267401600 + 14 * 3600 + 5 * 60);	/* 2010-03-01 14:05 */
	result_set_int(t, row, 5, 1270000000);				/* 2010-03-31 */
	result_set_uint(t, row, 6, 1610612736);				/* 1.5 GiB */
	result_set_int(t, row, 7, 19 * 3600);
	row = result_row(t);
	result_set_text(t, row, 0, "b,\"c\"");
	result_set_int(t, row, 1, -5);
	result_set_real(t, row, 2, 0.1);
	/* t, day stay NULL */
	result_set_int(t, row, 6, 512);
	result_set_real(t, row, 3, 0.30000000000000004);	/* 0.1 + 0.2: 17 digits */
	result_set_int(t, row, 7, 90);
	t = result_table(r, "empty", "Nothing", cols, 2);
	return r;
}

static char *
capture(const struct result *r, enum fmt_kind fmt, const char *only,
    int *rc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	*rc = render_result(f, r, fmt, only);
	fclose(f);
	return buf;
}

static void
check_render(const struct result *r, enum fmt_kind fmt, const char *only,
    const char *want, const char *name)
{
	int rc;
	char *got = capture(r, fmt, only, &rc);

	is_i64(rc, 0, "%s: status", name);
	is_str(got, want, "%s", name);
	free(got);
}

static void
test_formats(void)
{
	struct result *r = fixture();
	int rc;
	char *s;

	check_render(r, FMT_CSV, NULL,
	    "# summary\n"
	    "name,files,mean,share,t,day,bytes,dur\n"
	    "alpha,1234567,1984.5,0.98123,1267452300,1270000000,1610612736,68400\n"
	    "\"b,\"\"c\"\"\",-5,0.1,0.30000000000000004,,,512,90\n"
	    "\n"
	    "# empty\n"
	    "name,files\n", "csv: all tables");
	check_render(r, FMT_CSV, "empty", "name,files\n",
	    "csv: --table without the key line");
	check_render(r, FMT_JSON, "empty",
	    "{\n"
	    "  \"command\": \"idle\",\n"
	    "  \"title\": \"Idle periods\",\n"
	    "  \"notes\": [\n"
	    "    \"Coverage: 3 of 4 calendar minutes complete.\",\n"
	    "    \"Project a,b.\"\n"
	    "  ],\n"
	    "  \"tables\": {\n"
	    "    \"empty\": {\n"
	    "      \"title\": \"Nothing\",\n"
	    "      \"columns\": [\n"
	    "        {\"key\": \"name\", \"title\": \"Name\", \"unit\": null},\n"
	    "        {\"key\": \"files\", \"title\": \"Files\", \"unit\": \"files\"}\n"
	    "      ],\n"
	    "      \"rows\": []\n"
	    "    }\n"
	    "  }\n"
	    "}\n", "json: one table, empty rows");
	s = capture(r, FMT_JSON, "summary", &rc);
	ok(strstr(s, "      \"rows\": [\n"
	    "        {\"name\": \"alpha\", \"files\": 1234567, \"mean\": 1984.5, "
	    "\"share\": 0.98123, \"t\": 1267452300, \"day\": 1270000000, "
	    "\"bytes\": 1610612736, \"dur\": 68400},\n"
	    "        {\"name\": \"b,\\\"c\\\"\", \"files\": -5, "
	    "\"mean\": 0.1, \"share\": 0.30000000000000004, \"t\": null, "
	    "\"day\": null, \"bytes\": 512, \"dur\": 90}\n"
	    "      ]\n") != NULL, "json: rows, null for NULL");
	free(s);
	s = capture(r, FMT_JSON, "summary", &rc);
	ok(strstr(s, "{\"key\": \"share\", \"title\": \"Share\", "
	    "\"unit\": \"fraction\"}") && strstr(s, "{\"key\": \"bytes\", "
	    "\"title\": \"Bytes\", \"unit\": \"B\"}") && strstr(s,
	    "{\"key\": \"dur\", \"title\": \"Longest\", \"unit\": \"s\"}"),
	    "json: a share's unit is fraction, the others the exact values'");
	free(s);
	check_render(r, FMT_TABLE, NULL,
	    "Idle periods\n"
	    "\n"
	    "Summary\n"
	    "Name       Files  Mean (MiB/s)  Share (%)             Start         Day    Bytes     Longest\n"
	    "-----  ---------  ------------  ---------  ----------------  ----------  -------  ----------\n"
	    "alpha  1,234,567      1,984.50       98.1  2010-03-01 14:05  2010-03-31  1.5 GiB  19 h 0 min\n"
	    "b,\"c\"         -5          0.10       30.0               n/a         n/a    512 B  1 min 30 s\n"
	    "\n"
	    "Nothing\n"
	    "Name  Files\n"
	    "----  -----\n"
	    "(no rows)\n"
	    "\n"
	    "Notes\n"
	    "Coverage: 3 of 4 calendar minutes complete.\n"
	    "Project a,b.\n", "table: aligned, n/a, human formats, the notes "
	    "last");
	s = capture(r, FMT_CSV, "nosuch", &rc);
	is_i64(rc, -1, "unknown --table key is an error");
	free(s);
	result_free(r);
}

static void
check_human(const char *got, const char *want, const char *name)
{
	is_str(got, want, "human: %s", name);
}

static void
test_human(void)
{
	char b[64];

	check_human(human_int(0, b, sizeof b), "0", "int 0");
	check_human(human_int(999, b, sizeof b), "999", "int 999");
	check_human(human_int(1000, b, sizeof b), "1,000", "int 1000");
	check_human(human_int(-1234567, b, sizeof b), "-1,234,567", "negative int");
	check_human(human_uint(18446744073709551615u, b, sizeof b),
	    "18,446,744,073,709,551,615", "uint max");
	check_human(human_real(-0.001, 2, b, sizeof b), "0.00", "no negative zero");
	check_human(human_real(12345.678, 1, b, sizeof b), "12,345.7", "real grouped");
	check_human(human_bytes(0, 0, b, sizeof b), "0 B", "0 bytes");
	check_human(human_bytes(1023, 0, b, sizeof b), "1,023 B", "1023 bytes");
	check_human(human_bytes(1024, 0, b, sizeof b), "1.0 KiB", "1 KiB");
	check_human(human_bytes(1048575, 0, b, sizeof b), "1.0 MiB",
	    "rounding to 1024.0 KiB steps up");
	check_human(human_bytes(-3 * 1099511627776.0, 2, b, sizeof b),
	    "-3.00 TiB", "negative TiB, 2 decimals");
	check_human(human_duration(0, b, sizeof b), "0 s", "0 s");
	check_human(human_duration(600, b, sizeof b), "10 min", "10 min");
	check_human(human_duration(86400 + 7200 + 60, b, sizeof b),
	    "1 d 2 h 1 min", "days hours minutes");
	check_human(human_duration(172800, b, sizeof b), "2 d 0 h", "2 days");
	check_human(human_duration(-3600, b, sizeof b), "-1 h 0 min", "negative");
	check_human(human_date(0, 1, b, sizeof b), "1970-01-01 00:00", "epoch");
	check_human(human_date(1315958400, 0, b, sizeof b), "2011-09-14",
	    "the study's crossing date");
	check_human(human_date(-86400, 0, b, sizeof b), "1969-12-31",
	    "before the epoch");
}

/* A header names the unit of what its cells show: none where the cells
 * carry their own (bytes, durations, times), percent for shares. */
static void
test_human_unit(void)
{
	static const struct {
		struct rcol c;
		const char *want;
	} u[] = {
		{ { "k", "Bytes", "B", CF_BYTES, 0, 0, 0 }, NULL },
		{ { "k", "From", "s", CF_DURATION, 0, 0, 0 }, NULL },
		{ { "k", "Read per day", "B/day", CF_BYTES, 0, 0, 0 }, NULL },
		{ { "k", "c", "bytes/min", CF_BYTES, 0, 0, 0 }, "per min" },
		{ { "k", "Share", NULL, CF_PCT, 0, 0, 0 }, "%" },
		{ { "k", "Share", "%", CF_PCT, 0, 0, 0 }, "%" },
		{ { "k", "Mean", "MiB/s", CF_PLAIN, 0, 0, 0 }, "MiB/s" },
		{ { "k", "Start", NULL, CF_TIME, 0, 0, 0 }, NULL },
	};
	char b[64];

	for (size_t i = 0; i < sizeof u / sizeof *u; i++) {
		const char *got = result_text_unit(&u[i].c, b, sizeof b);

		is_str(got ? got : "(none)", u[i].want ? u[i].want : "(none)",
		    "human unit: %s (%s)", u[i].c.title, u[i].c.unit ?
		    u[i].c.unit : "-");
	}
}

static char *
escaped(void (*fn)(FILE *, const char *), const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	fn(f, s);
	fclose(f);
	return buf;
}

static void
test_escaping(void)
{
	struct result *r = result_new("files", EVIL);
	static const struct rcol_spec col = { "name", EVIL, NULL, CF_PLAIN, 0 };
	struct rtable *t = result_table(r, "t", EVIL, &col, 1);
	char *s;
	int rc;

	result_set_text(t, result_row(t), 0, EVIL);
	s = escaped(fmt_html_str, EVIL);
	is_str(s, "&lt;script&gt;alert(1)&lt;/script&gt; &quot;q&quot; "
	    "&#39;a&#39;\\x0ax\\xff", "html: markup, quotes, newline, bad byte");
	free(s);
	s = escaped(fmt_html_str, "caf\xc3\xa9 & \xe2\x82\xac");
	is_str(s, "caf\xc3\xa9 &amp; \xe2\x82\xac", "html: valid UTF-8 kept");
	free(s);
	s = escaped(fmt_html_str, "bidi\xe2\x80\xaetxt.exe \xc2\x85 \xe2\x81\xa6");
	is_str(s, "bidi\\xe2\\x80\\xaetxt.exe \\xc2\\x85 \\xe2\\x81\\xa6",
	    "html: bidi override, C1 control and isolate shown as bytes");
	free(s);
	/* A name holding "\xff" as text must not print like the byte. */
	s = escaped(fmt_html_str, "a\\xff");
	is_str(s, "a\\\\xff", "html: a backslash is doubled");
	free(s);
	s = capture(r, FMT_CSV, "t", &rc);
	is_str(s, "name\n\"<script>alert(1)</script> \"\"q\"\" 'a'\nx\xff\"\n",
	    "csv: quoted field, bytes kept");
	free(s);
	s = capture(r, FMT_TABLE, NULL, &rc);
	ok(strstr(s, "'a'\\x0ax\\xff\n") && !strchr(s, '\xff'),
	    "table: newline and bad byte shown as \\xNN");
	free(s);
	result_set_text(t, result_row(t), 0, "b\\xff");
	s = capture(r, FMT_TABLE, NULL, &rc);
	ok(strstr(s, "b\\\\xff") != NULL, "table: a backslash is doubled");
	free(s);
	s = capture(r, FMT_JSON, NULL, &rc);
	ok(strstr(s, "\"<script>alert(1)</script> \\\"q\\\" 'a'\\u000ax\\udcff\"")
	    != NULL, "json: escaped string");
	free(s);
	result_free(r);
}


static size_t
count_of(const char *s, const char *needle)
{
	size_t n = 0;

	for (; (s = strstr(s, needle)); s++)
		n++;
	return n;
}

/* Every byte sequence of s is valid UTF-8. */
static int
valid_utf8(const char *s)
{
	while (*s) {
		int n = fmt_utf8_len(s);

		if (n == 0)
			return 0;
		s += n;
	}
	return 1;
}

static void
test_html(void)
{
	struct result *parts[2];
	struct rfigure *fig;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int rc;

	parts[0] = fixture();
	result_note(parts[0], "Name: %s", EVIL);
	result_set_text(&parts[0]->table[0], 0, 0, EVIL);
	fig = result_figure(parts[0], "f", FIG_LINE, 0, EVIL, EVIL, EVIL, EVIL);
	fig->xcol = 1, fig->ycol[0] = 2, fig->ny = 1;
	result_span(fig, 0, 1, EVIL);
	parts[1] = result_new("cdf", "Throughput CDF");
	result_note(parts[1], "No I/O data in the window.");
	rc = render_html(f, parts, 2, "Report " EVIL, "iocensus test");
	fclose(f);
	is_i64(rc, 0, "html: status");
	ok(!strncmp(buf, "<!DOCTYPE html>\n", 16) && strstr(buf, "</html>\n"),
	    "html: a whole document");
	ok(!strstr(buf, "<script") && !strstr(buf, "<img"),
	    "html: no markup from data");
	ok(strstr(buf, "<title>Report &lt;script&gt;alert(1)&lt;/script&gt; "
	    "&quot;q&quot; &#39;a&#39;\\x0ax\\xff</title>") != NULL,
	    "html: page title escaped, bad byte visible");
	ok(valid_utf8(buf), "html: valid UTF-8");
	ok(strstr(buf, "<section id=\"r1\"") && strstr(buf, "<section id=\"r2\"")
	    && strstr(buf, "<section id=\"methods\""), "html: every section");
	ok(strstr(buf, "<section id=\"r2\" class=\"result\">\n<h2>Throughput "
	    "CDF</h2>\n<p class=\"note\">No I/O data in the window.</p>\n"
	    "<p class=\"nodata\">No data") != NULL, "html: no-data note");
	ok(strstr(buf, "<svg ") && !strstr(strstr(buf, "<svg ") + 1, "<svg "),
	    "html: one figure, one svg");
	ok(strstr(buf, "<figcaption><b>Figure 1. &lt;script&gt;") != NULL,
	    "html: numbered, escaped caption");
	ok(strstr(buf, "nearest-rank") && strstr(buf, "strict &lt;"),
	    "html: methods state quantile rule and strict below");
	ok(!strstr(buf, "src=") && !strstr(buf, "href=\"http"),
	    "html: nothing fetched");
	free(buf);
	result_free(parts[0]);
	result_free(parts[1]);
}


/* A table of ncol columns "Column N" of nrow rows of wide numbers, the
 * first column a host name. */
static struct rtable *
wide_table(struct result *r, const char *key, size_t ncol, size_t nrow)
{
	struct rcol_spec cols[40];
	char title[40][32];
	struct rtable *t;

	for (size_t c = 0; c < ncol; c++) {
		snprintf(title[c], sizeof title[c], "Column %zu", c);
		cols[c] = (struct rcol_spec){ "k", title[c], c ? "MiB/s" : NULL,
		    CF_PLAIN, 3 };
	}
	t = result_table(r, key, key, cols, ncol);
	for (size_t i = 0; i < nrow; i++) {
		size_t row = result_row(t);

		result_set_text(t, row, 0, "h000");
		for (size_t c = 1; c < ncol; c++)
			result_set_real(t, row, (int)c, 1234567.125);
	}
	return t;
}

static char *
table_page(const struct rtable *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	html_table(f, t);
	fclose(f);
	return buf;
}

/* Columns 7.39 em wide ("1,234,567.125": 10 digits of 0.64 em, 3 marks
 * of 0.33) and their padding (1.1 em) after a 4.22 em name column
 * ("Column", bold), at 14.08 px an em, and 88 px of page around: 2
 * columns need 282 px (any window: s0), 9 need 1119 px (s12), 16 1956 px
 * (s20), 40 4825 px (wider than the widest class: sall). Never split:
 * one table, every column, each cell named by its column. */
static void
test_html_layout(void)
{
	static const struct {
		size_t ncol, nrow;
		const char *cls;
	} c[] = { { 2, 2, "s0" }, { 9, 2, "s12" }, { 16, 2, "s20" },
	    { 40, 1, "sall" } };
	struct result *r = result_new("devices", "Devices");
	char want[96], *s;

	for (size_t i = 0; i < sizeof c / sizeof *c; i++) {
		s = table_page(wide_table(r, "t", c[i].ncol, c[i].nrow));
		snprintf(want, sizeof want, "<table class=\"%s\">\n<caption>t"
		    "</caption>", c[i].cls);
		ok(strstr(s, want) && count_of(s, "<table") == 1 &&
		    count_of(s, "<th>") == c[i].ncol && count_of(s, "<td") ==
		    c[i].ncol * c[i].nrow, "html table of %zu columns: one"
		    " table, class %s", c[i].ncol, c[i].cls);
		ok(count_of(s, "<td data-label=\"Column 0\">h000</td>") ==
		    c[i].nrow && count_of(s, "<td class=\"num\" data-label="
		    "\"Column 1 (MiB/s)\">1,234,567.125</td>") == c[i].nrow,
		    "html table of %zu columns: each cell names its column",
		    c[i].ncol);
		free(s);
	}
	result_free(r);
}

/* Integers past 64 bits: exact digits in CSV and JSON, binary units or
 * grouped digits for people, a double for plots; a value that fits is an
 * ordinary integer cell. */
static void
test_wide(void)
{
	static const struct rcol_spec cols[] = {
		{ "bytes", "Bytes", "bytes", CF_BYTES, 0 },
		{ "n", "N", NULL, CF_PLAIN, 0 },
	};
	/* 3 * (2^63 - 1) = 27670116110564327421 = 24 EiB - 3 B */
	i128 big = 3 * (i128)INT64_MAX;
	struct result *r = result_new("files", "Files");
	struct rtable *t = result_table(r, "t", "T", cols, 2);
	size_t row = result_row(t);
	char buf[128];

	result_set_wide(t, row, 0, big);
	result_set_wide(t, row, 1, -big);
	row = result_row(t);
	result_set_wide(t, row, 0, 7);
	result_set_wide(t, row, 1, INT64_MIN);
	ok(result_cell(t, 0, 0)->kind == CK_WIDE && result_cell(t, 1, 0)->kind ==
	    CK_INT && result_cell(t, 1, 1)->kind == CK_INT,
	    "wide cells only where 64 bits do not hold the value");
	ok(result_num(t, 0, 0) == 27670116110564327421.0, "wide cell as a double");
	is_str(result_text_cell(t, 0, 0, buf, sizeof buf), "24.0 EiB",
	    "wide bytes for people");
	is_str(result_text_cell(t, 0, 1, buf, sizeof buf),
	    "-27,670,116,110,564,327,421", "wide integer, grouped");
	check_render(r, FMT_CSV, "t", "bytes,n\n"
	    "27670116110564327421,-27670116110564327421\n"
	    "7,-9223372036854775808\n", "wide cells in CSV: exact");
	result_set_text(t, 0, 0, "replaced");	/* frees the wide value */
	result_free(r);
}

/* A table of a name, two numbers and a wide column, fitted to widths
 * worked out by hand. */
static void
test_fit(void)
{
	static const struct rcol_spec cols[] = {
		{ "name", "Name", NULL, CF_PLAIN, 0 },
		{ "files", "Files", "files", CF_PLAIN, 0 },
		{ "bytes", "Bytes", "bytes", CF_BYTES, 1 },
		{ "note", "Why no date", NULL, CF_PLAIN, 0 },
	};
	static const char *const pick[] = { "NOTE", "name" };
	struct result *r = result_new("t", "T");
	struct rtable *t = result_table(r, "k", "K", cols, 4);
	size_t row = result_row(t);
	struct render_view v = { .width = 24 };
	int idx[4];
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	result_wide(t, "note");
	result_set_text(t, row, 0, "abcdefghijklmnopqrst");
	result_set_int(t, row, 1, 1234567);
	result_set_int(t, row, 2, 3 << 20);
	result_set_text(t, row, 3, "one point");
	is_i64((int64_t)render_columns(t, &v, FMT_TABLE, idx), 3,
	    "columns: a terminal's table leaves the wide one out");
	v.width = 0;
	is_i64((int64_t)render_columns(t, &v, FMT_TABLE, idx), 3,
	    "columns: so does a pipe's");
	v.wide = 1;
	is_i64((int64_t)render_columns(t, &v, FMT_TABLE, idx), 4,
	    "columns: --wide has every one");
	v.wide = 0;
	v.width = 24;
	is_i64((int64_t)render_columns(t, &v, FMT_CSV, idx), 4,
	    "columns: CSV has every one");
	v.cols = pick;
	v.ncols = 2;
	ok(render_columns(t, &v, FMT_JSON, idx) == 2 && idx[0] == 3 &&
	    idx[1] == 0, "columns: -o's keys in its order, in any case");
	v.add = 1;
	ok(render_columns(t, &v, FMT_TABLE, idx) == 4 && idx[3] == 3,
	    "columns: -o +LIST after the default ones");
	v.cols = NULL;
	v.ncols = v.add = 0;
	f = open_memstream(&buf, &len);
	render_view(f, r, FMT_TABLE, &v);
	fclose(f);
	/* 24 columns: Files 9 and Bytes 7 wide (3.0 MiB) with their two
	 * separators would leave the name 4, less than the 12 a word keeps
	 * when cut: Bytes is left out, and the word cut to the 13 left. */
	is_str(buf, "T\n\nK\n"
	    "Name               Files\n"
	    "-------------  ---------\n"
	    "abcdefghij...  1,234,567\n"
	    "(left out to fit 24\n"
	    "columns: bytes; --wide\n"
	    "or -o shows them)\n", "fit: numbers whole, a long word cut short, "
	    "the last column left out and named");
	free(buf);
	buf = NULL;
	result_set_text(t, row, 0, "ab cdefg hijklm nop");
	v.width = 26;
	f = open_memstream(&buf, &len);
	render_view(f, r, FMT_TABLE, &v);
	fclose(f);
	/* 26 columns, the widest word 6: the name takes the 6 left, and
	 * wraps at its spaces. */
	is_str(buf, "T\n\nK\n"
	    "Name        Files    Bytes\n"
	    "------  ---------  -------\n"
	    "ab      1,234,567  3.0 MiB\n"
	    "cdefg\nhijklm\nnop\n", "fit: a text wrapped at its spaces, no "
	    "word cut");
	free(buf);
	result_free(r);
}

int
main(void)
{
	test_fit();
	test_wide();
	test_formats();
	test_human();
	test_human_unit();
	test_escaping();
	test_html();
	test_html_layout();
	return tap_end();
}
