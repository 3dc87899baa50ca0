/*
 * ingest_unpack: the compression around an archive, layer by layer
 * (ingest_unpack_int.h).
 *
 * The input (a file, or an archive member) is the bottom layer. While a
 * layer's first bytes carry a compression's magic, a layer that undoes it
 * goes on top: gzip is inflated by ingest_gunzip, the others by a
 * libarchive reader of their one filter and the "raw" format, fed
 * through ingest_frames. The archive reader then reads the top layer.
 * Each layer is charged to the walk's budget what its decoder may hold:
 * a fixed amount for its buffers and state, plus, for xz, lzma, lzip and
 * zstd, the largest dictionary or window its headers have declared; a
 * header that would pass the budget stops the layer before the decoder
 * sees it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ingest_gunzip_int.h"
#include "ingest_unpack_int.h"
#include "xalloc.h"

#define HEAD 16			/* bytes that tell a compression */
#define LAYERS_MAX 4		/* compressions around one archive */
#define INPUT_BLOCK 65536

enum layer { LAYER_INPUT, LAYER_GZIP, LAYER_FILTER };

struct unpack {
	struct unpack *down;	/* the layer read; NULL: the input */
	enum layer kind;
	struct unpack_budget *budget;
	uint64_t charge;	/* what the budget holds for it */
	uint64_t fixed;		/* its decoder's buffers and state */
	/* LAYER_INPUT: fd, or a stream pulled */
	int fd;
	archive_read_callback *pull;
	void *pull_ctx;
	uint8_t *blk;
	uint64_t taken;		/* bytes read from the input */
	/* bytes of this layer read ahead to tell what is above it */
	uint8_t head[HEAD];
	size_t nhead, athead;
	const uint8_t *rest;
	size_t nrest;
	struct gunzip *gz;	/* LAYER_GZIP */
	struct archive *a;	/* LAYER_FILTER */
	struct frames fr;
	const char *name;	/* the filter's */
	char why[256];		/* why it stopped early; "" if it did not */
	uint64_t why_at;
	int refused;		/* why: memory it may not have */
};

static const struct comp {
	const char *name;
	size_t at, n;
	const char *magic;
	int code;		/* ARCHIVE_FILTER_*; -1: gzip, ours */
	enum frames_kind frames;
	uint64_t fixed;
} comps[] = {
	{ "gzip", 0, 2, "\x1f\x8b", -1, FRAMES_NONE, 1 << 20 },
	{ "xz", 0, 6, "\xfd" "7zXZ\0", ARCHIVE_FILTER_XZ, FRAMES_XZ, 1 << 20 },
	{ "lzip", 0, 4, "LZIP", ARCHIVE_FILTER_LZIP, FRAMES_LZIP, 1 << 20 },
	{ "zstd", 0, 4, "\x28\xb5\x2f\xfd", ARCHIVE_FILTER_ZSTD, FRAMES_ZSTD,
	    1 << 20 },
	/* bzip2 -9: 900 kB blocks, 4 bytes an entry */
	{ "bzip2", 0, 3, "BZh", ARCHIVE_FILTER_BZIP2, FRAMES_NONE, 4 << 20 },
	/* lz4: blocks of 4 MiB at most (legacy: 8 MiB), 64 KiB before */
	{ "lz4", 0, 4, "\x04\x22\x4d\x18", ARCHIVE_FILTER_LZ4, FRAMES_NONE,
	    9 << 20 },
	{ "lz4", 0, 4, "\x02\x21\x4c\x18", ARCHIVE_FILTER_LZ4, FRAMES_NONE,
	    9 << 20 },
};

/* lzma (lzma_alone) has no magic: properties, a dictionary of 2^n or
 * 3 * 2^(n-1) bytes, an unknown or plausible size (as libarchive and
 * file(1) tell it). */
static int
is_lzma(const uint8_t *p, size_t n)
{
	uint32_t d;
	uint64_t size = 0;

	if (n < 13 || p[0] > (4 * 5 + 4) * 9 + 8)
		return 0;
	d = (uint32_t)p[1] | (uint32_t)p[2] << 8 | (uint32_t)p[3] << 16 |
	    (uint32_t)p[4] << 24;
	for (int i = 0; i < 8; i++)
		size |= (uint64_t)p[5 + i] << (8 * i);
	if (d < 4096 || (size != UINT64_MAX && size >> 40))
		return 0;
	return (d & (d - 1)) == 0 || ((d / 3) & (d / 3 - 1)) == 0;
}

static const struct comp lzma_comp = { "lzma", 0, 0, "", ARCHIVE_FILTER_LZMA,
	FRAMES_LZMA, 1 << 20 };

static const struct comp *
compression(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < sizeof comps / sizeof comps[0]; i++)
		if (n >= comps[i].at + comps[i].n && memcmp(p + comps[i].at,
		    comps[i].magic, comps[i].n) == 0)
			return &comps[i];
	return is_lzma(p, n) ? &lzma_comp : NULL;
}

static void
layer_stop(struct unpack *u, uint64_t at, const char *why)
{
	if (u->why[0] == '\0') {
		snprintf(u->why, sizeof u->why, "%s", why);
		u->why_at = at;
	}
}

/* What the budget can still give this layer, its own charge aside. */
static uint64_t
left(const struct unpack *u)
{
	uint64_t others = u->budget->used - u->charge;

	return others < UNPACK_BUDGET ? UNPACK_BUDGET - others : 0;
}

static void
charge(struct unpack *u, uint64_t v)
{
	u->budget->used += v - u->charge;
	u->charge = v;
}

static la_ssize_t layer_read(struct unpack *u, const void **buf);

/* The input's next block. */
static la_ssize_t
input_read(struct unpack *u, const void **buf)
{
	la_ssize_t n;
	char why[160];

	if (u->pull) {
		n = u->pull(NULL, u->pull_ctx, buf);
		if (n < 0)
			layer_stop(u, u->taken, "cut short where the archive "
			    "holding it breaks off");
	} else {
		if (u->blk == NULL)
			u->blk = xmalloc(INPUT_BLOCK);
		do
			n = read(u->fd, u->blk, INPUT_BLOCK);
		while (n < 0 && errno == EINTR);
		if (n < 0) {
			snprintf(why, sizeof why, "read error: %s",
			    strerror(errno));
			layer_stop(u, u->taken, why);
		}
		*buf = u->blk;
	}
	if (n > 0)
		u->taken += (uint64_t)n;
	return n;
}

/* libarchive's read callback of a filter layer: the layer below, as far
 * as its framing allows. */
static la_ssize_t
filter_in(struct archive *a, void *arg, const void **buf)
{
	struct unpack *u = arg;
	la_ssize_t n;
	size_t k;

	if (u->fr.why[0] == '\0') {
		n = layer_read(u->down, buf);
		if (n <= 0) {
			if (n < 0)
				archive_set_error(a, EIO, "the input breaks off");
			return n < 0 ? ARCHIVE_FATAL : 0;
		}
		u->fr.allow = left(u) - u->fixed;
		if (u->fr.allow > UNPACK_DICT_MAX)
			u->fr.allow = UNPACK_DICT_MAX;
		k = u->fr.kind == FRAMES_NONE ? (size_t)n :
		    ingest_frames_feed(&u->fr, *buf, (size_t)n);
		if (u->fr.why[0] == '\0')
			charge(u, u->fixed + u->fr.declared);
		else {
			layer_stop(u, u->fr.why_at, u->fr.why);
			u->refused = 1;
		}
		if (k > 0)
			return (la_ssize_t)k;
	}
	archive_set_error(a, EIO, "%s", u->fr.why);
	return ARCHIVE_FATAL;
}

/* A filter layer's output: the raw format's data. */
static la_ssize_t
filter_read(struct unpack *u, const void **buf)
{
	size_t n = 0;
	la_int64_t off;
	int r = ARCHIVE_OK;

	while (r == ARCHIVE_OK && n == 0)
		r = archive_read_data_block(u->a, buf, &n, &off);
	if (r == ARCHIVE_EOF)
		return 0;
	if (r != ARCHIVE_OK && r != ARCHIVE_WARN) {
		layer_stop(u, (uint64_t)archive_filter_bytes(u->a, -1),
		    archive_error_string(u->a) ? archive_error_string(u->a) :
		    "unreadable");
		return -1;
	}
	return (la_ssize_t)n;
}

/* The layer's output, the bytes read ahead first. */
static la_ssize_t
layer_read(struct unpack *u, const void **buf)
{
	size_t n;

	if (u->athead < u->nhead) {
		*buf = u->head + u->athead;
		n = u->nhead - u->athead;
		u->athead = u->nhead;
		return (la_ssize_t)n;
	}
	if (u->nrest > 0) {
		*buf = u->rest;
		n = u->nrest;
		u->nrest = 0;
		return (la_ssize_t)n;
	}
	if (u->why[0] != '\0')
		return -1;
	switch (u->kind) {
	case LAYER_INPUT:
		return input_read(u, buf);
	case LAYER_GZIP:
		return ingest_gunzip_read(NULL, u->gz, buf);
	case LAYER_FILTER:
		return filter_read(u, buf);
	}
	return -1;
}

/* The layer's first bytes, read ahead. */
static size_t
peek(struct unpack *u)
{
	while (u->nhead < HEAD) {
		const void *b;
		la_ssize_t n = layer_read(u, &b);
		size_t k;

		if (n <= 0)
			break;
		k = (size_t)n < HEAD - u->nhead ? (size_t)n : HEAD - u->nhead;
		memcpy(u->head + u->nhead, b, k);
		u->nhead += k;
		if (k < (size_t)n) {
			u->rest = (const uint8_t *)b + k;
			u->nrest = (size_t)n - k;
		}
	}
	return u->nhead;
}

static la_ssize_t
pull_down(struct archive *a, void *arg, const void **buf)
{
	(void)a;
	return layer_read(arg, buf);
}

/* A layer undoing c over `down`. */
static struct unpack *
layer_new(struct unpack *down, const struct comp *c)
{
	struct unpack *u = xcalloc(1, sizeof *u);
	struct archive_entry *e;
	char a[32], b[32], t[32], why[256];

	u->down = down;
	u->budget = down->budget;
	u->fd = -1;
	u->name = c->name;
	u->fixed = c->fixed;
	ingest_frames_init(&u->fr, c->frames);
	if (c->fixed > left(u)) {	/* said as the filters say it */
		snprintf(why, sizeof why, "%s needs %s, more than the %s left "
		    "of the %s that the decoders of nested archives share: "
		    "not decoded", c->name, ingest_frames_size(c->fixed, a,
		    sizeof a), ingest_frames_size(left(u), b, sizeof b),
		    ingest_frames_size(UNPACK_BUDGET, t, sizeof t));
		layer_stop(u, 0, why);
		u->refused = 1;
		u->kind = LAYER_INPUT;
		return u;
	}
	charge(u, c->fixed);
	if (c->code < 0) {
		u->kind = LAYER_GZIP;
		u->gz = ingest_gunzip_pull(pull_down, down);
		return u;
	}
	u->kind = LAYER_FILTER;
	u->a = archive_read_new();
	/* This one filter, without bidding: libarchive stacks no other. */
	if (archive_read_append_filter(u->a, c->code) != ARCHIVE_OK ||
	    archive_read_support_format_raw(u->a) != ARCHIVE_OK ||
	    archive_read_open(u->a, u, NULL, filter_in, NULL) != ARCHIVE_OK) {
		layer_stop(u, 0, archive_error_string(u->a) ?
		    archive_error_string(u->a) : "cannot start the decoder");
		return u;
	}
	if (archive_read_next_header(u->a, &e) != ARCHIVE_OK)
		layer_stop(u, (uint64_t)archive_filter_bytes(u->a, -1),
		    archive_error_string(u->a) ? archive_error_string(u->a) :
		    "unreadable");
	return u;
}

struct unpack *
ingest_unpack_open(int fd, archive_read_callback *pull, void *ctx,
    struct unpack_budget *b)
{
	struct unpack *u = xcalloc(1, sizeof *u);
	const struct comp *c;

	u->kind = LAYER_INPUT;
	u->fd = fd;
	u->pull = fd < 0 ? pull : NULL;
	u->pull_ctx = ctx;
	u->budget = b;
	for (int i = 0; i < LAYERS_MAX && u->why[0] == '\0'; i++) {
		if ((c = compression(u->head, peek(u))) == NULL)
			break;
		u = layer_new(u, c);
	}
	return u;
}

static la_ssize_t
top_read(struct archive *a, void *arg, const void **buf)
{
	la_ssize_t n = layer_read(arg, buf);

	if (n < 0) {
		archive_set_error(a, EIO, "the compressed input breaks off");
		return ARCHIVE_FATAL;
	}
	return n;
}

int
ingest_unpack_archive(struct archive *a, struct unpack *u)
{
	return archive_read_open(a, u, NULL, top_read, NULL);
}

void
ingest_unpack_finish(struct unpack *u)
{
	const void *buf;

	if (u->kind != LAYER_INPUT)
		while (layer_read(u, &buf) > 0)
			;
}

int64_t
ingest_unpack_consumed(const struct unpack *u)
{
	while (u->down != NULL && u->down->down != NULL)
		u = u->down;
	if (u->kind == LAYER_GZIP)
		return (int64_t)ingest_gunzip_consumed(u->gz);
	if (u->kind == LAYER_FILTER)
		return archive_filter_bytes(u->a, -1);
	return u->down ? (int64_t)u->down->taken : -1;
}

/* The lowest layer that stopped early. */
const char *
ingest_unpack_damage(const struct unpack *u, uint64_t *offset)
{
	const char *why = NULL, *gz;
	uint64_t at;

	for (; u != NULL; u = u->down) {
		if (u->why[0] != '\0') {
			why = u->why;
			*offset = u->why_at;
		} else if (u->gz && (gz = ingest_gunzip_damage(u->gz, &at))) {
			why = gz;
			*offset = at;
		}
	}
	return why;
}

int
ingest_unpack_refused(const struct unpack *u)
{
	for (; u != NULL; u = u->down)
		if (u->refused)
			return 1;
	return 0;
}

void
ingest_unpack_free(struct unpack *u)
{
	while (u != NULL) {
		struct unpack *down = u->down;

		if (u->a)
			archive_read_free(u->a);
		ingest_gunzip_free(u->gz);
		u->budget->used -= u->charge;
		free(u->blk);
		free(u);
		u = down;
	}
}
