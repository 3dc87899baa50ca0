/*
 * ingest_unpack_int: the compression around an archive, undone layer by
 * layer, in memory that the archive cannot choose.
 *
 * Why: libarchive's xz, lzma and lzip readers let liblzma allocate the
 * dictionary the stream declares, up to 1 GiB (lzip: 512 MiB), under a
 * limit its API does not let a caller lower; zstd allocates the window
 * the frame declares (up to 128 MiB); and libarchive stacks up to 25
 * filters on one input, each with its own decoder, by itself. So
 * libarchive is never left to find the compression: each layer is
 * recognised here by its magic and read by a reader of its own with that
 * one filter (archive_read_append_filter, no bidding), or by
 * ingest_gunzip for gzip, and the compressed bytes reach the decoder
 * through ingest_frames, which reads the framing (xz block headers and
 * LZMA2 chunk headers, lzma and lzip headers, zstd frame headers)
 * before the decoder sees it, and stops the stream where a header
 * declares more memory than the layer may have. Every layer of every
 * archive being walked, nested ones included, draws on one budget
 * (struct unpack_budget), so nesting adds to the memory and cannot
 * multiply it.
 */
#ifndef IOCENSUS_INGEST_UNPACK_INT_H
#define IOCENSUS_INGEST_UNPACK_INT_H

#include <stddef.h>
#include <stdint.h>

#include <archive.h>

/* The most one decoder may declare: 64 MiB, xz -9's dictionary (and
 * lzip -9's 32 MiB, zstd -19's 8 MiB window, below it). */
#define UNPACK_DICT_MAX ((uint64_t)64 << 20)
/* What all the layers open at once may hold: one xz -9 archive with
 * archives of xz -6 (8 MiB) inside it, two levels deep. */
#define UNPACK_BUDGET ((uint64_t)96 << 20)

/* ingest_frames.c: the framing of one compressed stream, followed byte
 * by byte without decoding it. */
enum frames_kind { FRAMES_NONE, FRAMES_XZ, FRAMES_LZMA, FRAMES_LZIP,
	FRAMES_ZSTD };
struct frames {
	enum frames_kind kind;
	int state, after;
	uint8_t buf[1024];	/* a header being gathered */
	size_t have, want;
	uint64_t skip;		/* bytes to pass unread, then `after` */
	uint64_t pos;		/* bytes of the stream followed */
	uint64_t hdr_at;	/* where the header being gathered starts */
	uint64_t nrec;		/* xz index records (two numbers each) left */
	uint64_t vli;		/* xz: a number being read */
	int vlin;
	uint64_t run;		/* xz: block data / index bytes, for padding */
	size_t check;		/* xz: the check's size */
	int last;		/* zstd: the frame's last block */
	size_t tail;		/* zstd: checksum bytes */
	uint64_t allow;		/* the most a header may declare (set by
				 * the caller before each feed) */
	uint64_t declared;	/* the most any header declared */
	char why[256];		/* why the stream stops; "" while it goes on */
	uint64_t why_at;
};
void ingest_frames_init(struct frames *f, enum frames_kind kind);
/* Follow p[0 .. n): how many of them the decoder may have (n, or fewer
 * when a header declares more than f->allow or cannot be followed:
 * f->why says why, f->why_at where it starts). */
size_t ingest_frames_feed(struct frames *f, const uint8_t *p, size_t n);
/* A decoder's memory as the messages say it: "64 MiB", "46.5 MiB". */
const char *ingest_frames_size(uint64_t v, char *buf, size_t len);

/* ingest_unpack.c: memory of the layers open at once. */
struct unpack_budget {
	uint64_t used;
};

struct unpack;
/* The layers over an input: fd (from its current position) when fd >= 0,
 * else a stream pulled with libarchive's read callback (called with a
 * NULL archive). Its first bytes are read to tell the compressions. */
struct unpack *ingest_unpack_open(int fd, archive_read_callback *pull,
    void *ctx, struct unpack_budget *b);
/* archive_read_open() of the archive reader a on the innermost layer. */
int ingest_unpack_archive(struct archive *a, struct unpack *u);
/* Read the layers to their end, discarding (after the archive's end: a
 * stream cut in its trailer is damage too). */
void ingest_unpack_finish(struct unpack *u);
/* Compressed bytes of the input consumed so far; -1 when the input is
 * not compressed (the archive reader knows). */
int64_t ingest_unpack_consumed(const struct unpack *u);
/* Why a layer stopped early (NULL: none did), and where, in its input;
 * a layer's own reason comes before what the layers above it say. */
const char *ingest_unpack_damage(const struct unpack *u, uint64_t *offset);
/* Was a layer stopped for memory it may not have (not damage found)? */
int ingest_unpack_refused(const struct unpack *u);
void ingest_unpack_free(struct unpack *u);

#endif
