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

/*
 * A decimal counter token at *pos: digits only, no sign (strtoull would
 * take "-1"), no overflow. One pass over the bytes with no copy: this runs
 * for every counter of every device on every sample.
 */
static int
scan_u64(const char *s, size_t len, size_t *pos, uint64_t *out)
{
	size_t i = *pos, start = i;
	uint64_t v = 0;

	for (; i < len; i++) {
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
