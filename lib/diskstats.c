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

/* 10^n for a run of n < 8 digits. */
static const uint32_t pow10_small[8] = {
	1, 10, 100, 1000, 10000, 100000, 1000000, 10000000
};

/* Does the 20-digit decimal s exceed 2^64 - 1? (Shorter ones cannot.) */
static int
over_u64(const char *s)
{
	return memcmp(s, "18446744073709551615", 20) > 0;
}

/* Eight bytes as a little-endian word, whatever the host's order. */
static inline uint64_t
load_le64(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;

	return (uint64_t)u[0] | (uint64_t)u[1] << 8 | (uint64_t)u[2] << 16 |
	    (uint64_t)u[3] << 24 | (uint64_t)u[4] << 32 | (uint64_t)u[5] << 40 |
	    (uint64_t)u[6] << 48 | (uint64_t)u[7] << 56;
}

/* How many of the word's bytes, from the lowest, are ASCII digits: a
 * byte's high nibble must be 3 and its low one at most 9, tested in all
 * eight bytes at once (no carry crosses a byte: 0x0f + 0x06 < 0x100). */
static inline int
digit_run(uint64_t x)
{
	uint64_t t = x ^ UINT64_C(0x3030303030303030);
	uint64_t bad = (t | ((t & UINT64_C(0x0f0f0f0f0f0f0f0f)) +
	    UINT64_C(0x0606060606060606))) & UINT64_C(0xf0f0f0f0f0f0f0f0);

	return bad ? __builtin_ctzll(bad) / 8 : 8;
}

/* The value of n (0..8) digits in the low bytes of x: three multiplies
 * join pairs of digits, then pairs of pairs, then the two halves. The
 * shift is split in two so that n = 0 (a shift by 64) gives 0. */
static inline uint64_t
digits_value(uint64_t x, int n)
{
	x &= UINT64_C(0x0f0f0f0f0f0f0f0f);
	x = x << (4 * (8 - n)) << (4 * (8 - n));
	x = (x * 10 + (x >> 8)) & UINT64_C(0x00ff00ff00ff00ff);
	x = (x * 100 + (x >> 16)) & UINT64_C(0x0000ffff0000ffff);
	return (x * 10000 + (x >> 32)) & UINT64_C(0xffffffff);
}

/* The general case: byte by byte, at most 20 digits. */
static int
scan_u64_bytes(const char *s, size_t len, size_t *pos, uint64_t *out)
{
	size_t i = *pos, start = i;
	uint64_t v = 0;

	for (; i < len && i - start <= 20; i++) {
		unsigned d = (unsigned)(unsigned char)s[i] - '0';
		if (d > 9)
			break;
		v = v * 10 + d;
	}
	if (i == start || i - start > 20 || (i < len && !is_space(s[i])) ||
	    (i - start == 20 && over_u64(s + start)))
		return -1;
	*pos = i;
	*out = v;
	return 0;
}

/*
 * A decimal counter token at *pos: digits only, no sign (strtoull would
 * take "-1"), no overflow. This runs for every counter of every device on
 * every sample (17,000 tokens a sample at 1,000 devices), and a loop per
 * digit mispredicts its exit once per token. So where 16 bytes remain, a
 * token of 1 to 15 digits is read as two words with no branch on its
 * length; longer ones, and a line's last bytes, go byte by byte.
 */
static inline __attribute__((always_inline)) int
scan_u64(const char *s, size_t len, size_t *pos, uint64_t *out)
{
	size_t i = *pos;

	if (i + 16 <= len) {
		uint64_t lo = load_le64(s + i), hi = load_le64(s + i + 8);
		int n1 = digit_run(lo), n2 = n1 == 8 ? digit_run(hi) : 0;

		if (n1 > 0 && n2 < 8) {
			i += (size_t)(n1 + n2);
			if (!is_space(s[i]))
				return -1;
			*out = digits_value(lo, n1) * pow10_small[n2] +
			    digits_value(hi, n2);
			*pos = i;
			return 0;
		}
	}
	return scan_u64_bytes(s, len, pos, out);
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

/* Store the k-th counter (0-based) of a line with ncols columns. */
static int
store_counter(struct ds_line *out, int ncols, int k, uint64_t v)
{
	int f = ncols == 7 ? short_fields[k] : k;

	if (f >= DS_FIELDS)
		return 0;		/* a later field we do not keep */
	if (diskstats_field_bits(f, 64) == 32 && v > UINT32_MAX)
		return -1;		/* the kernel prints these as unsigned int */
	out->v[f] = v;
	out->mask |= UINT32_C(1) << f;
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
	while (skip_space(s, len, &pos)) {
		uint64_t v;
		if (scan_u64(s, len, &pos, &v) < 0 || k > 100000)
			return -1;
		if (k < DS_FIELDS)
			tmp[k] = v;
		k++;
	}
	out->ncols = 3 + k;
	if (out->ncols != 7 && out->ncols < 14)
		return -1;
	for (int i = 0; i < k && i < DS_FIELDS; i++)
		if (store_counter(out, out->ncols, i, tmp[i]) < 0)
			return -1;
	return 0;
}

static struct ds_line *
table_slot(struct ds_table *t)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 64;
		struct ds_line *d = reallocarray(t->dev, cap, sizeof *d);

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
