/*
 * test_diskstats: /proc/diskstats lines of every kernel variant, hand-made
 * with their expected fields, and the modular deltas.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "diskstats.h"
#include "tap.h"

static int
parse(const char *s, struct ds_line *l)
{
	return diskstats_parse_line(s, strlen(s), l);
}

static void
test_columns(void)
{
	struct ds_line l;
	int f;

	/* 2.6 partition line: rd_ios rd_sectors wr_ios wr_sectors. */
	ok(parse("   8    1 sda1 11 22 33 44\n", &l) == 0, "7-column line");
	is_i64(l.ncols, 7, "7 columns counted");
	is_u64(l.mask, 0x55, "7 columns give fields 0,2,4,6");
	is_u64(l.v[DS_RD_IOS], 11, "7 col rd_ios");
	is_u64(l.v[DS_RD_SECTORS], 22, "7 col rd_sectors");
	is_u64(l.v[DS_WR_IOS], 33, "7 col wr_ios");
	is_u64(l.v[DS_WR_SECTORS], 44, "7 col wr_sectors");
	is_u64(l.v[DS_RD_MERGES], 0, "7 col rd_merges absent");

	ok(parse(" 104       0 cciss/c0d0 1 2 3 4 5 6 7 8 9 10 11", &l) == 0,
	    "14-column line, cciss name");
	is_str(l.name, "cciss/c0d0", "name with a slash");
	is_u64(l.major, 104, "major");
	is_u64(l.minor, 0, "minor");
	is_i64(l.ncols, 14, "14 columns");
	is_u64(l.mask, 0x7ff, "11 fields");
	for (f = 0; f < 11; f++)
		is_u64(l.v[f], (uint64_t)f + 1, "14 col field %d", f);

	ok(parse("259 0 nvme0n1 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15", &l) == 0,
	    "18-column line");
	is_u64(l.mask, 0x7fff, "15 fields");
	is_u64(l.v[DS_DC_MS], 15, "dc_ms");
	ok(parse("8 16 sdb 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17", &l) == 0,
	    "20-column line");
	is_u64(l.mask, 0x1ffff, "17 fields");
	is_u64(l.v[DS_FL_IOS], 16, "fl_ios");
	is_u64(l.v[DS_FL_MS], 17, "fl_ms");
	ok(parse("8 16 sdb 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 "
	    "20 21 22 23 24 25 26 27", &l) == 0, "30-column line");
	is_i64(l.ncols, 30, "30 columns recorded");
	is_u64(l.mask, (UINT32_C(1) << DS_FIELDS) - 1, "DS_FIELDS kept");
	is_u64(l.v[DS_FIELDS - 1], DS_FIELDS, "last kept field");
	ok(parse("8 16 sdb 1 2 3 4 5 6 7 8 9 10 11 12", &l) == 0,
	    "15-column line (a future kernel adding one field)");
	is_u64(l.v[11], 12, "its extra field");
}

static void
test_values(void)
{
	struct ds_line l;

	ok(parse("8 0 sda 18446744073709551615 0 0 4294967295 0 0 0 0 "
	    "4294967295 0 0", &l) == 0, "2^64-1 and 2^32-1");
	is_u64(l.v[DS_RD_IOS], UINT64_MAX, "rd_ios 2^64-1");
	is_u64(l.v[DS_RD_MS], UINT32_MAX, "rd_ms 2^32-1");
	ok(parse("8 0 sda 18446744073709551616 0 0 0 0 0 0 0 0 0 0", &l) < 0,
	    "2^64 rejected");
	ok(parse("8 0 sda 0 0 0 4294967296 0 0 0 0 0 0 0", &l) < 0,
	    "ms field above 32 bits rejected");
	ok(parse("8 0 sda 0 0 0 0 0 0 0 0 4294967296 0 0", &l) < 0,
	    "in_flight above 32 bits rejected");
	ok(parse("8 0 sda -1 0 0 0 0 0 0 0 0 0 0", &l) < 0, "negative rejected");
	ok(parse("8 0 sda +1 0 0 0 0 0 0 0 0 0 0", &l) < 0, "sign rejected");
	ok(parse("8 0 sda 1x 0 0 0 0 0 0 0 0 0 0", &l) < 0, "garbage rejected");
	ok(parse("4294967296 0 sda 1 0 0 0 0 0 0 0 0 0 0", &l) < 0,
	    "major above 32 bits rejected");
	ok(parse("8 0 sda 1 2 3 4 5 6 7 8 9 10", &l) < 0, "13 columns rejected");
	ok(parse("8 0 sda 1 2 3", &l) < 0, "6 columns rejected");
	ok(parse("", &l) < 0, "empty rejected");
	ok(parse("8 0 01234567890123456789012345678901 1 2 3 4", &l) < 0,
	    "32-byte name rejected (longer than the kernel's DISK_NAME_LEN)");
	ok(parse("8 0 0123456789012345678901234567890 1 2 3 4", &l) == 0,
	    "31-byte name accepted");
	ok(diskstats_parse_line("8 0 s\0a 1 2 3 4", 15, &l) < 0,
	    "a NUL in the name rejected");
	ok(parse("\t8\t0\tsda\t1 2  3\t4\r\n", &l) == 0, "tabs and CRLF");
	is_u64(l.v[DS_WR_SECTORS], 4, "last field before CRLF");
}

/* The parser must stop at len even without a NUL. */
static void
test_bounds(void)
{
	const char line[] = "8 0 sda 1 2 3 45";
	char *heap = malloc(sizeof line - 2);
	struct ds_line l;

	memcpy(heap, line, sizeof line - 2);	/* "...3 4", no NUL */
	ok(diskstats_parse_line(heap, sizeof line - 2, &l) == 0,
	    "unterminated line");
	is_u64(l.v[DS_WR_SECTORS], 4, "last digit at the buffer end");
	free(heap);
}

/*
 * Every token length from 1 to 21 digits, in the word-at-a-time path (the
 * token starts 16 or more bytes before the line's end) and in the byte
 * path (it is the last token), followed by a space, a letter or nothing,
 * checked against strtoull. The first digit varies with the length so that
 * a misplaced digit cannot pass.
 */
static void
test_token_lengths(void)
{
	char tok[32], line[128];
	struct ds_line l;
	int bad = 0;

	for (int n = 1; n <= 21; n++) {
		for (int k = 0; k < n; k++)
			tok[k] = (char)('0' + (n + 3 * k) % 10);
		tok[n] = '\0';
		errno = 0;
		unsigned long long want = strtoull(tok, NULL, 10);
		int fits = errno == 0;

		for (int last = 0; last < 2; last++) {
			for (int tail = 0; tail < 3; tail++) {
				const char *after = tail == 0 ? " " : tail == 1 ? "x" : "";
				int rc;

				if (last)
					snprintf(line, sizeof line, "8 0 sda 1 2 3 %s%s", tok, after);
				else
					snprintf(line, sizeof line,
					    "8 0 sda %s%s 2 3 4 5 6 7 8 9 10 11 12", tok, after);
				rc = parse(line, &l);
				if (!fits || tail == 1) {
					bad += rc == 0;
					continue;
				}
				bad += rc != 0 ||
				    l.v[last ? DS_WR_SECTORS : DS_RD_IOS] != want;
			}
		}
	}
	is_i64(bad, 0, "tokens of 1 to 21 digits, both paths, against strtoull");
	ok(parse("8 0 sda 18446744073709551615 2 3 4 5 6 7 8 9 10 11", &l) == 0 &&
	    l.v[DS_RD_IOS] == UINT64_MAX, "2^64 - 1 in the word path");
	ok(parse("8 0 sda 18446744073709551616 2 3 4 5 6 7 8 9 10 11", &l) < 0,
	    "2^64 in the word path rejected");
	ok(parse("8 0 sda 1/2 2 3 4 5 6 7 8 9 10 11 12 13 14 15", &l) < 0,
	    "a byte just above '/' and below ':' ends no token");
	ok(parse("8 0 sda 12:4 2 3 4 5 6 7 8 9 10 11 12 13 14 15", &l) < 0,
	    "a colon inside a token rejected");
}

static void
test_all(void)
{
	static const char text[] =
	    "   8       0 sda 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17\n"
	    "\n"
	    "   8       1 sda1 1 2 3 4\n"
	    "garbage line\n"
	    " 253       0 dm-0 1 2 3 4 5 6 7 8 9 10 11";
	struct ds_table t = { 0 };
	char *heap = malloc(sizeof text - 1);

	memcpy(heap, text, sizeof text - 1);
	diskstats_parse_all(heap, sizeof text - 1, &t);
	is_u64(t.n, 3, "three devices");
	is_u64(t.bad, 1, "one bad line");
	if (t.n == 3) {
		is_str(t.dev[2].name, "dm-0", "last line without newline");
		is_u64(t.dev[2].v[DS_WEIGHTED_MS], 11, "its last field");
		is_i64(t.dev[1].ncols, 7, "mixed column counts");
	}
	diskstats_parse_all(heap, 0, &t);
	is_u64(t.n, 0, "empty buffer replaces the contents");
	diskstats_table_free(&t);
	free(heap);
}

static void
test_deltas(void)
{
	is_i64(diskstats_field_bits(DS_RD_MS, 64), 32, "rd_ms is 32 bits");
	is_i64(diskstats_field_bits(DS_IN_FLIGHT, 64), 32,
	    "in_flight is 32 bits");
	is_i64(diskstats_field_bits(DS_FL_MS, 64), 32, "fl_ms is 32 bits");
	is_i64(diskstats_field_bits(DS_RD_IOS, 64), 64, "rd_ios long 64");
	is_i64(diskstats_field_bits(DS_RD_IOS, 32), 32, "rd_ios long 32");
	is_i64(diskstats_field_bits(20, 64), 64, "later fields long");
	ok(diskstats_is_gauge(DS_IN_FLIGHT) && !diskstats_is_gauge(DS_IO_MS),
	    "gauge");
	is_str(diskstats_field_name(DS_WEIGHTED_MS), "weighted_ms",
	    "field name");
	ok(diskstats_field_name(DS_KNOWN) == NULL, "no name past DS_KNOWN");
	is_u64(diskstats_delta(4294967290u, 5, 32), 11, "32-bit wrap");
	is_u64(diskstats_delta(UINT64_MAX - 1, 3, 64), 5, "64-bit wrap");
	is_u64(diskstats_delta(7, 7, 32), 0, "no change");
	is_u64(diskstats_delta(10, 3, 32), 4294967289u, "backwards is modular");
}

int
main(void)
{
	test_columns();
	test_values();
	test_bounds();
	test_token_lengths();
	test_all();
	test_deltas();
	return tap_end();
}
