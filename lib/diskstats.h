/*
 * diskstats: /proc/diskstats lines of every kernel variant, parsed into one
 * struct of uint64_t counters, and the modular arithmetic of their deltas.
 * Field order and widths are those of docs/iolog-format.md.
 */
#ifndef IOCENSUS_DISKSTATS_H
#define IOCENSUS_DISKSTATS_H

#include <stddef.h>
#include <stdint.h>

enum ds_field {
	DS_RD_IOS, DS_RD_MERGES, DS_RD_SECTORS, DS_RD_MS,
	DS_WR_IOS, DS_WR_MERGES, DS_WR_SECTORS, DS_WR_MS,
	DS_IN_FLIGHT, DS_IO_MS, DS_WEIGHTED_MS,
	DS_DC_IOS, DS_DC_MERGES, DS_DC_SECTORS, DS_DC_MS,
	DS_FL_IOS, DS_FL_MS,
	DS_KNOWN		/* fields named today (20-column lines) */
};

#define DS_FIELDS   24		/* fields kept per device, later ones included */
#define DS_NAME_MAX 32		/* the kernel's DISK_NAME_LEN: names < 32 bytes */

struct ds_line {
	uint32_t major, minor;
	char name[DS_NAME_MAX];	/* as printed, e.g. "cciss/c0d0" */
	int ncols;		/* columns on the line, name included */
	uint32_t mask;		/* bit i: field i present on the line */
	uint64_t v[DS_FIELDS];	/* absent fields are 0 */
};

/* Parse one line (without or with its newline). Returns 0, or -1 when the
 * line is not a diskstats line (too few columns, a non-number, a name too
 * long); out is then unspecified. Never reads past s[len - 1]. */
int diskstats_parse_line(const char *s, size_t len, struct ds_line *out);

/* A whole /proc/diskstats read. */
struct ds_table {
	struct ds_line *dev;
	size_t n, cap;
	size_t bad;		/* lines that did not parse */
};

/* Parse buf (len bytes, need not be NUL-terminated) into t, replacing its
 * contents. Malformed lines are counted in t->bad and skipped. */
void diskstats_parse_all(const char *buf, size_t len, struct ds_table *t);
void diskstats_table_free(struct ds_table *t);

/* Width in bits of field f: 32 for the ms fields and in_flight, long_bits
 * (32 or 64) for the others. Inline: the sampler asks for every field of
 * every device of every sample. */
static inline int
diskstats_field_bits(int f, int long_bits)
{
	switch (f) {
	case DS_RD_MS: case DS_WR_MS: case DS_IN_FLIGHT: case DS_IO_MS:
	case DS_WEIGHTED_MS: case DS_DC_MS: case DS_FL_MS:
		return 32;		/* printed through unsigned int */
	default:
		return long_bits == 32 ? 32 : 64;
	}
}

static inline int
diskstats_is_gauge(int f)		/* in_flight */
{
	return f == DS_IN_FLIGHT;
}
/* "rd_ios", ...; NULL past DS_KNOWN */
const char *diskstats_field_name(int f);

/* (cur - prev) modulo 2^bits. */
static inline uint64_t
diskstats_delta(uint64_t prev, uint64_t cur, int bits)
{
	uint64_t d = cur - prev;

	return bits >= 64 ? d : d & ((UINT64_C(1) << bits) - 1);
}

#endif
