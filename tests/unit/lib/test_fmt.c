/* fmt: CSV, JSON and terminal escaping, against hand-written expectations. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "tap.h"

static char *
render(void (*fn)(FILE *, const char *), const char *in)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	fn(f, in);
	fclose(f);
	return buf;
}

static void
check(void (*fn)(FILE *, const char *), const char *in, const char *want,
    const char *name)
{
	char *got = render(fn, in);

	is_str(got, want, name);
	free(got);
}

static void
check_kinds(void)
{
	enum fmt_kind k = FMT_CSV;

	ok(fmt_parse_kind("table", &k) == 0 && k == FMT_TABLE, "kind: table");
	ok(fmt_parse_kind("csv", &k) == 0 && k == FMT_CSV, "kind: csv");
	ok(fmt_parse_kind("json", &k) == 0 && k == FMT_JSON, "kind: json");
	ok(fmt_parse_kind("JSON", &k) < 0 && k == FMT_JSON,
	    "kind: case matters, and a refusal leaves the value");
	ok(fmt_parse_kind("", &k) < 0 && fmt_parse_kind("csvx", &k) < 0,
	    "kind: empty and trailing junk refused");
}

/* Diagnostics: one line whatever the name holds. */
static void
check_diag(void)
{
	char *buf = NULL, *t;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	fmt_diag(f, "prog", "%s: damaged at %d", "a\nfake: b\\\xff\x1b[2J\xc3"
	    "\xa9", 7);
	fclose(f);
	is_str(buf, "prog: a\\x0afake: b\\\\\\xff\\x1b[2J\xc3\xa9: damaged at "
	    "7\n", "diag: newline, escape, invalid UTF-8 as \\xNN, a backslash "
	    "doubled, valid UTF-8 kept, one line");
	free(buf);
	t = fmt_term_str("tab\there\x7f");
	is_str(t, "tab\\x09here\\x7f", "term: tab and DEL as \\xNN");
	free(t);
}

/* The width of terminal text and its wrapping, by hand: "é" one column,
 * "日本" two each, a combining accent none. */
static void
check_term(void)
{
	char *buf = NULL, *t;
	size_t len = 0;
	FILE *f;

	is_i64((int64_t)fmt_term_width("caf\xc3\xa9"), 4, "term width: é "
	    "is one column");
	is_i64((int64_t)fmt_term_width("\xe6\x97\xa5\xe6\x9c\xac"), 4,
	    "term width: two wide characters");
	is_i64((int64_t)fmt_term_width("e\xcc\x81"), 1,
	    "term width: a combining accent adds none");
	t = fmt_term_str("a\xc2\x85" "b");
	is_str(t, "a\\xc2\\x85b", "term: a C1 control (NEL) as \\xNN");
	free(t);
	f = open_memstream(&buf, &len);
	fmt_term_wrap(f, "the quick brown fox jumps over", 10);
	fmt_term_wrap(f, "  abcdefghijklmnop qr", 6);
	fmt_term_wrap(f, "\xe6\x97\xa5\xe6\x9c\xac\xe6\x97\xa5", 5);
	fmt_term_wrap(f, "whole line", 0);
	fclose(f);
	is_str(buf, "the quick\nbrown fox\njumps over\nabcdef\nghijkl\n"
	    "mnop\nqr\n\xe6\x97\xa5\xe6\x9c\xac\n\xe6\x97\xa5\nwhole line\n",
	    "term wrap: words kept whole, a long word cut, wide characters "
	    "counted two, width 0 one line");
	free(buf);
}

/* The controls and invisible format characters a name may hold, each
 * shown byte by byte on a terminal and escaped as its code point in
 * JSON; the expectations are the UTF-8 bytes written by hand. */
static void
check_hidden(void)
{
	static const struct {
		const char *in, *term, *json, *name;
	} c[] = {
		{ "\x1b]52;c;SGVsbG8=\x07", "\\x1b]52;c;SGVsbG8=\\x07",
		    "\"\\u001b]52;c;SGVsbG8=\\u0007\"", "OSC 52" },
		{ "a\xc2\x9b" "2J", "a\\xc2\\x9b2J", "\"a\\u009b2J\"",
		    "C1 CSI" },
		{ "a\x7f", "a\\x7f", "\"a\\u007f\"", "DEL" },
		{ "bidi\xe2\x80\xaetxt.exe", "bidi\\xe2\\x80\\xaetxt.exe",
		    "\"bidi\\u202etxt.exe\"", "U+202E right-to-left override" },
		{ "x\xe2\x81\xa6y\xe2\x81\xa9",
		    "x\\xe2\\x81\\xa6y\\xe2\\x81\\xa9", "\"x\\u2066y\\u2069\"",
		    "U+2066, U+2069 isolates" },
		{ "\xe2\x80\x8e\xe2\x80\x8f", "\\xe2\\x80\\x8e\\xe2\\x80\\x8f",
		    "\"\\u200e\\u200f\"", "U+200E, U+200F marks" },
		{ "\xd8\x9c", "\\xd8\\x9c", "\"\\u061c\"",
		    "U+061C Arabic letter mark" },
		{ "a\xe2\x80\x8b" "b", "a\\xe2\\x80\\x8bb", "\"a\\u200bb\"",
		    "U+200B zero width space" },
		{ "\xef\xbb\xbf", "\\xef\\xbb\\xbf", "\"\\ufeff\"",
		    "U+FEFF" },
		{ "\xf3\xa0\x80\x81", "\\xf3\\xa0\\x80\\x81",
		    "\"\\udb40\\udc01\"", "U+E0001 tag, a surrogate pair" },
		{ "\xe2\x80\x8d", "\xe2\x80\x8d", "\"\xe2\x80\x8d\"",
		    "U+200D joiner kept" },
		{ "d\xc3\xa9j\xc3\xa0", "d\xc3\xa9j\xc3\xa0",
		    "\"d\xc3\xa9j\xc3\xa0\"", "letters kept" },
	};
	char lbl[128];

	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
		char *t = fmt_term_str(c[i].in);

		snprintf(lbl, sizeof lbl, "term: %s", c[i].name);
		is_str(t, c[i].term, lbl);
		free(t);
		snprintf(lbl, sizeof lbl, "json: %s", c[i].name);
		check(fmt_json_str, c[i].in, c[i].json, lbl);
	}
}

/* A cell for a terminal is escaped first, then quoted; for a file it is
 * the exact bytes. */
static void
check_cells(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	fmt_csv_cell(f, "=a,\x1b[2J", 0);
	putc('|', f);
	fmt_csv_cell(f, "=a,\x1b[2J", 1);
	putc('|', f);
	fmt_json_cell(f, "b\\\xc2\x85", 0);
	putc('|', f);
	fmt_json_cell(f, "b\\\xc2\x85", 1);
	fclose(f);
	is_str(buf, "\"=a,\x1b[2J\"|\"=a,\\x1b[2J\"|\"b\\\\\\u0085\"|"
	    "\"b\\\\\\\\\\\\xc2\\\\x85\"", "cells: exact bytes for a file, "
	    "escaped then quoted for a terminal");
	free(buf);
	f = open_memstream(&buf, &len);
	ok(!fmt_is_term(f), "a memory stream is no terminal");
	fclose(f);
	free(buf);
}

int
main(void)
{
	check_diag();
	check_term();
	check_hidden();
	check_cells();
	check(fmt_csv_str, "sda", "sda", "csv: plain field as is");
	check(fmt_csv_str, "", "", "csv: empty field");
	check(fmt_csv_str, "a,b", "\"a,b\"", "csv: comma quoted");
	check(fmt_csv_str, "say \"hi\"", "\"say \"\"hi\"\"\"",
	    "csv: quotes doubled");
	check(fmt_csv_str, "two\nlines", "\"two\nlines\"", "csv: newline quoted");
	check(fmt_csv_str, "cr\rx", "\"cr\rx\"", "csv: carriage return quoted");

	check(fmt_json_str, "sda", "\"sda\"", "json: plain");
	check(fmt_json_str, "a\"b\\c", "\"a\\\"b\\\\c\"", "json: quote, backslash");
	check(fmt_json_str, "t\tn\n", "\"t\\u0009n\\u000a\"", "json: controls");
	check(fmt_json_str, "caf\xc3\xa9", "\"caf\xc3\xa9\"",
	    "json: valid 2-byte UTF-8 kept");
	check(fmt_json_str, "\xe2\x82\xac\xf0\x9f\x92\xbe", "\"\xe2\x82\xac\xf0\x9f\x92\xbe\"",
	    "json: valid 3- and 4-byte UTF-8 kept");
	/* Invalid bytes as Python's surrogateescape writes them: U+DC80 +
	 * (byte - 0x80), never the Latin-1 letters a valid name may hold. */
	check(fmt_json_str, "\xff\xfe", "\"\\udcff\\udcfe\"",
	    "json: invalid bytes escaped");
	check(fmt_json_str, "\xc3\xbf\xff", "\"\xc3\xbf\\udcff\"",
	    "json: y-diaeresis and the byte 0xff differ");
	check(fmt_json_str, "\xc3", "\"\\udcc3\"", "json: truncated sequence escaped");
	check(fmt_json_str, "\xc0\xaf", "\"\\udcc0\\udcaf\"",
	    "json: overlong form escaped");
	check(fmt_json_str, "\xed\xa0\x80", "\"\\udced\\udca0\\udc80\"",
	    "json: surrogate escaped");
	check(fmt_json_str, "<script>", "\"<script>\"", "json: markup is data");
	check_kinds();
	return tap_end();
}
