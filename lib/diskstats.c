/*
 * diskstats: parse /proc/diskstats lines of every kernel variant.
 *
 * A line is "major minor name counters..." split on whitespace (the kernel
 * right-aligns major and minor, so column positions mean nothing). 7-column
 * lines (2.6 partitions) carry 4 counters; 14 and more carry the classic 11
 * and whatever later kernels appended, of which DS_FIELDS are kept. The
 * input is never assumed to be NUL-terminated.
 */
#include "diskstats.h"

#include <stdlib.h>
#include <string.h>

static const char *const field_names[DS_KNOWN] = {
	"rd_ios", "rd_merges", "rd_sectors", "rd_ms",
	"wr_ios", "wr_merges", "wr_sectors", "wr_ms",
	"in_flight", "io_ms", "weighted_ms",
	"dc_ios", "dc_merges", "dc_sectors", "dc_ms",
	"fl_ios", "fl_ms",
};

/* Where the 4 counters of a 7-column line go. */
static const int short_fields[4] = {
	DS_RD_IOS, DS_RD_SECTORS, DS_WR_IOS, DS_WR_SECTORS
};

const char *
diskstats_field_name(int f)
{
	return f >= 0 && f < DS_KNOWN ? field_names[f] : NULL;
}

/* ' ', '\t', '\n', '\v', '\f', '\r': one compare and one range check. */
static inline int
is_space(char c)
{
	return c == ' ' || (unsigned)(c - '\t') < 5;
}

/* Skip white space from *pos; 1 when a token follows, 0 at the end. */
static int
skip_space(const char *s, size_t len, size_t *pos)
{
	size_t i = *pos;

	while (i < len && is_space(s[i]))
		i++;
	*pos = i;
	return i < len;
}

/* Does the 20-digit decimal s exceed 2^64 - 1? (Shorter ones cannot.) */
static int
over_u64(const char *s)
{
	return memcmp(s, "18446744073709551615", 20) > 0;
}

/* 8 bytes little-endian, whatever the host's order. */
static inline uint64_t
load_le64(const char *s)
{
	uint64_t x;

	memcpy(&x, s, sizeof x);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	x = __builtin_bswap64(x);
#endif
	return x;
}

/*
 * How many of the 8 bytes at s are digits, from the first, and their
 * value: eight bytes at once (SWAR). Each byte minus '0' is a digit when
 * it is below 10; the test masks the byte's high bit first so that no
 * carry crosses into the next byte. The value folds pairs, then quads,
 * then the two halves (the digits, right-aligned, as a base-10 number).
 */
static inline int
digits8(const char *s, uint64_t *value)
{
	const uint64_t lo7 = UINT64_C(0x7f7f7f7f7f7f7f7f);
	uint64_t t = load_le64(s) ^ UINT64_C(0x3030303030303030);
	uint64_t bad = (((t & lo7) + UINT64_C(0x7676767676767676)) | t) &
	    UINT64_C(0x8080808080808080);
	int n = bad ? __builtin_ctzll(bad) / 8 : 8;

	if (n == 0)
		return 0;
	t <<= 8 * (8 - n);	/* the n digits into the high bytes */
	t = (t * 10 + (t >> 8)) & UINT64_C(0x00ff00ff00ff00ff);
	t = (t * 100 + (t >> 16)) & UINT64_C(0x0000ffff0000ffff);
	*value = (t * 10000 + (t >> 32)) & UINT32_MAX;
	return n;
}

static const uint64_t pow10_8[9] = {
	1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000
};

/*
 * A decimal counter token at *pos: digits only, no sign (strtoull would
 * take "-1"), no overflow. One pass over the bytes with no copy, eight at
 * a time while eight are left: this runs for every counter of every
 * device on every sample.
 */
static inline int
scan_u64(const char *s, size_t len, size_t *pos, uint64_t *out)
{
	size_t i = *pos, start = i;
	uint64_t v = 0, chunk = 0;
	int n;

	while (len - i >= 8 && i - start <= 20) {
		n = digits8(s + i, &chunk);
		v = v * pow10_8[n] + chunk;
		i += (size_t)n;
		if (n < 8)
			goto end;
	}
	for (; i < len; i++) {
		unsigned d = (unsigned)(unsigned char)s[i] - '0';
		if (d > 9)
			break;
		v = v * 10 + d;
	}
end:
	if (i == start || i - start > 20 || (i < len && !is_space(s[i])) ||
	    (i - start == 20 && over_u64(s + start)))
		return -1;
	*pos = i;
	*out = v;
	return 0;
}

static int
scan_u32(const char *s, size_t len, size_t *pos, uint32_t *out)
{
	uint64_t v;

	if (!skip_space(s, len, pos) || scan_u64(s, len, pos, &v) < 0 ||
	    v > UINT32_MAX)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

/* The fields printed through unsigned int: 32 bits wide. */
static inline uint32_t
narrow_fields(void)
{
	uint32_t m = 0;

	for (int f = 0; f < DS_FIELDS; f++)
		if (diskstats_field_bits(f, 64) == 32)
			m |= UINT32_C(1) << f;
	return m;
}

/* Put the k counters of tmp where a line of ncols columns has them. */
static int
store_counters(struct ds_line *out, const uint64_t *tmp, int k)
{
	uint32_t narrow = narrow_fields();	/* a constant once inlined */
	int n = k < DS_FIELDS ? k : DS_FIELDS;
	if (out->ncols == 7) {
		for (int i = 0; i < 4; i++)
			out->v[short_fields[i]] = tmp[i];
		for (int i = 0; i < 4; i++)
			out->mask |= UINT32_C(1) << short_fields[i];
	} else {
		memcpy(out->v, tmp, (size_t)n * sizeof *tmp);
		out->mask = n == 32 ? UINT32_MAX : (UINT32_C(1) << n) - 1;
	}
	/* the kernel prints these as unsigned int */
	for (uint32_t m = out->mask & narrow; m != 0; m &= m - 1)
		if (out->v[__builtin_ctz(m)] > UINT32_MAX)
			return -1;
	return 0;
}

int
diskstats_parse_line(const char *s, size_t len, struct ds_line *out)
{
	uint64_t tmp[DS_FIELDS];
	size_t pos = 0, start;
	int k = 0;

	memset(out, 0, sizeof *out);
	if (scan_u32(s, len, &pos, &out->major) < 0 ||
	    scan_u32(s, len, &pos, &out->minor) < 0 || !skip_space(s, len, &pos))
		return -1;
	for (start = pos; pos < len && !is_space(s[pos]); pos++)
		;
	if (pos - start >= DS_NAME_MAX || memchr(s + start, '\0', pos - start))
		return -1;	/* a NUL would cut the name short */
	memcpy(out->name, s + start, pos - start);
	out->name[pos - start] = '\0';
	/* Counters are kept aside until the column count says where the
	 * first ones go (a 7-column line has a different layout). */
	while (pos < len) {
		uint64_t v;

		if (is_space(s[pos])) {
			pos++;
			continue;
		}
		if (scan_u64(s, len, &pos, &v) < 0 || k > 100000)
			return -1;
		if (k < DS_FIELDS)
			tmp[k] = v;
		k++;
	}
	out->ncols = 3 + k;
	if (out->ncols != 7 && out->ncols < 14)
		return -1;
	return store_counters(out, tmp, k);
}

static struct ds_line *
table_slot(struct ds_table *t)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 64;
		struct ds_line *d = realloc(t->dev, cap * sizeof *d);

		if (d == NULL)
			return NULL;
		t->dev = d;
		t->cap = cap;
	}
	return &t->dev[t->n];
}

void
diskstats_parse_all(const char *buf, size_t len, struct ds_table *t)
{
	size_t start = 0;

	t->n = 0;
	t->bad = 0;
	while (start < len) {
		const char *nl = memchr(buf + start, '\n', len - start);
		size_t end = nl ? (size_t)(nl - buf) : len;
		struct ds_line *slot;

		size_t first = start;

		if (skip_space(buf, end, &first)) {	/* not a blank line */
			slot = table_slot(t);
			if (slot == NULL || diskstats_parse_line(buf + start,
			    end - start, slot) < 0)
				t->bad++;
			else
				t->n++;
		}
		start = end + 1;
	}
}

void
diskstats_table_free(struct ds_table *t)
{
	free(t->dev);
	t->dev = NULL;
	t->n = t->cap = t->bad = 0;
}
