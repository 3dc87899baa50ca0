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

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define DS_NUM_MAX 20		/* digits of 2^64 - 1 */

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
ds_field_name(int f)
{
	return f >= 0 && f < DS_KNOWN ? field_names[f] : NULL;
}

int
ds_is_gauge(int f)
{
	return f == DS_IN_FLIGHT;
}

int
ds_field_bits(int f, int long_bits)
{
	switch (f) {
	case DS_RD_MS: case DS_WR_MS: case DS_IN_FLIGHT: case DS_IO_MS:
	case DS_WEIGHTED_MS: case DS_DC_MS: case DS_FL_MS:
		return 32;		/* printed through unsigned int */
	default:
		return long_bits == 32 ? 32 : 64;
	}
}

static int
is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
	    c == '\f';
}

/* The next whitespace-separated token of s[*pos..len): 1 with tok/toklen
 * set, 0 when none is left. */
static int
next_token(const char *s, size_t len, size_t *pos, const char **tok,
    size_t *toklen)
{
	size_t i = *pos, start;

	while (i < len && is_space(s[i]))
		i++;
	if (i >= len)
		return 0;
	start = i;
	while (i < len && !is_space(s[i]))
		i++;
	*tok = s + start;
	*toklen = i - start;
	*pos = i;
	return 1;
}

/* A decimal counter: digits only (strtoull alone would take "-1" or "+1"
 * and read past an unterminated token), no overflow. */
static int
parse_u64(const char *tok, size_t n, uint64_t *out)
{
	char num[DS_NUM_MAX + 1];
	char *end;
	size_t i;

	if (n == 0 || n > DS_NUM_MAX)
		return -1;
	for (i = 0; i < n; i++)
		if (tok[i] < '0' || tok[i] > '9')
			return -1;
	memcpy(num, tok, n);
	num[n] = '\0';
	errno = 0;
	*out = strtoull(num, &end, 10);
	if (errno == ERANGE || *end != '\0')
		return -1;
	return 0;
}

static int
parse_u32(const char *tok, size_t n, uint32_t *out)
{
	uint64_t v;

	if (parse_u64(tok, n, &v) < 0 || v > UINT32_MAX)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

/* Store the counter of column col (0-based, the first counter is column 3)
 * of a line with ncols columns. */
static int
store_counter(struct ds_line *out, int ncols, int col, uint64_t v)
{
	int f = ncols == 7 ? short_fields[col - 3] : col - 3;

	if (f >= DS_FIELDS)
		return 0;		/* a later field we do not keep */
	if (ds_field_bits(f, 64) == 32 && v > UINT32_MAX)
		return -1;		/* the kernel prints these as unsigned int */
	out->v[f] = v;
	out->mask |= UINT32_C(1) << f;
	return 0;
}

static int
count_columns(const char *s, size_t len)
{
	const char *tok;
	size_t pos = 0, n;
	int ncols = 0;

	while (next_token(s, len, &pos, &tok, &n))
		if (ncols++ > 100000)
			break;
	return ncols;
}

int
ds_parse_line(const char *s, size_t len, struct ds_line *out)
{
	const char *tok;
	size_t pos = 0, n;
	int col, ncols;

	memset(out, 0, sizeof *out);
	ncols = count_columns(s, len);
	if (ncols != 7 && ncols < 14)
		return -1;
	out->ncols = ncols;
	if (!next_token(s, len, &pos, &tok, &n) ||
	    parse_u32(tok, n, &out->major) < 0)
		return -1;
	if (!next_token(s, len, &pos, &tok, &n) ||
	    parse_u32(tok, n, &out->minor) < 0)
		return -1;
	if (!next_token(s, len, &pos, &tok, &n) || n >= DS_NAME_MAX ||
	    memchr(tok, '\0', n) != NULL)
		return -1;	/* a NUL would cut the name short */
	memcpy(out->name, tok, n);
	out->name[n] = '\0';
	for (col = 3; col < ncols; col++) {
		uint64_t v;

		if (!next_token(s, len, &pos, &tok, &n) ||
		    parse_u64(tok, n, &v) < 0 ||
		    store_counter(out, ncols, col, v) < 0)
			return -1;
	}
	return 0;
}

static int
blank(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!is_space(s[i]))
			return 0;
	return 1;
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
ds_parse_all(const char *buf, size_t len, struct ds_table *t)
{
	size_t start = 0;

	t->n = 0;
	t->bad = 0;
	while (start < len) {
		const char *nl = memchr(buf + start, '\n', len - start);
		size_t end = nl ? (size_t)(nl - buf) : len;
		struct ds_line *slot;

		if (!blank(buf + start, end - start)) {
			slot = table_slot(t);
			if (slot == NULL || ds_parse_line(buf + start,
			    end - start, slot) < 0)
				t->bad++;
			else
				t->n++;
		}
		start = end + 1;
	}
}

void
ds_table_free(struct ds_table *t)
{
	free(t->dev);
	t->dev = NULL;
	t->n = t->cap = t->bad = 0;
}
