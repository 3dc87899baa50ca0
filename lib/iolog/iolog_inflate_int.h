/*
 * iolog_inflate: the member layer of the reader. Walks the gzip members of
 * a buffer, parsing each header itself, raw-inflates the data and cuts the
 * uncompressed stream into CRC-checked frames. Damage (a bad header, bad
 * deflate data, a bad frame, a member cut short) is reported once with the
 * compressed offset where the loss starts; reading then resumes at the
 * first frame that inflates on its own at a flush point of the same member
 * (docs/iolog-format.md, Reading), or at the next gzip member. Internal to
 * lib/iolog/.
 */
#ifndef IOCENSUS_IOLOG_INFLATE_INT_H
#define IOCENSUS_IOLOG_INFLATE_INT_H

#include <stddef.h>
#include <stdint.h>
#include <zlib.h>

enum inf_result { INF_END, INF_MEMBER, INF_FRAME, INF_DAMAGE };

struct inf_frame {
	const uint8_t *body;	/* FRAME: valid until the next read */
	size_t len;
	/* FRAME: where the deflate block holding its last byte ends (see
	 * iolog.h); MEMBER: where the member starts; DAMAGE: where the
	 * loss starts (a trailer mismatch loses nothing: the trailer). */
	uint64_t offset;
	uint64_t start;		/* FRAME: where its compressed bytes start */
	const char *reason;	/* DAMAGE */
	/* DAMAGE: not damage but a note: the input ends inside a member
	 * after a whole frame (a log still being written: no trailer yet),
	 * or inside the trailer of a member whose data is whole. */
	int at_end;
	/* DAMAGE: the damage is the input ending inside a frame (or in a
	 * member header), and nothing else. */
	int cut;
};

enum inf_mode { INF_BETWEEN, INF_IN_MEMBER, INF_SEEK };

/* Where a writer may append (iolog_open.c): the end of the last whole
 * member (BETWEEN); inside an unfinished one, the last flush point after a
 * whole frame (FLUSH: byte-aligned, every inflated byte cut into frames,
 * the stream to be sealed there with a final block and the trailer); or
 * the end of a deflate stream whose trailer is missing or cut (TRAILER).
 * crc and isize are the member's inflated bytes' there (meaningless after
 * a resume past damage, where the trailer is not checked). Only what was
 * read in order counts, not the attempts of a seek. */
enum inf_tail_kind { INF_TAIL_BETWEEN, INF_TAIL_FLUSH, INF_TAIL_TRAILER };

struct inf_tail {
	uint64_t at;
	enum inf_tail_kind kind;
	uint32_t crc, isize;
};

struct iolog_inflate {
	const uint8_t *buf;
	size_t len;
	enum inf_mode mode;
	size_t pos;		/* BETWEEN: where the next member starts */
	z_stream zs;
	int zinit;
	/* the member being read */
	size_t data_start;	/* its first deflate byte */
	size_t in_pos;		/* compressed bytes consumed so far */
	size_t limit;		/* inflate is given input up to here */
	size_t good_pos;	/* in_pos when the last good frame was cut */
	size_t frame_start;	/* where the next frame's bytes start */
	uint64_t nframes;	/* frames cut in this member */
	int ended;		/* the deflate stream ended */
	int resynced;		/* resumed at a flush point: no trailer check */
	uint8_t *u;		/* inflated bytes not yet cut into frames */
	size_t uoff, ulen, ucap;
	uint32_t crc, isize;	/* of the member's inflated bytes */
	/* SEEK: looking for where to resume, at or after scan */
	size_t scan;
	int seek_flush;		/* flush points may continue the member */
	size_t budget;		/* input left for attempts that fail */
	size_t flush_from, flush_at;	/* the first marker at or after */
	size_t magic_from, magic_at;	/* the first member header at or after */
	struct inf_frame stash;	/* a resumed member's first frame */
	int stashed;
	int why_cut;		/* why is the input ending inside a frame */
	char why[160];
	struct inf_tail tail;
};

void iolog_inflate_init(struct iolog_inflate *f, const void *buf,
    size_t len);
enum inf_result iolog_inflate_next(struct iolog_inflate *f,
    struct inf_frame *out);
/* Give up the rest of the current member quietly (the frame layer above
 * found it unusable and reports why): reading resumes at the next member. */
void iolog_inflate_skip_member(struct iolog_inflate *f);
void iolog_inflate_free(struct iolog_inflate *f);

/* RFC 1952 member header at p: its length, 0 when cut short, -1 when p
 * is not a gzip header. */
long iolog_inflate_member_header_len(const uint8_t *p, size_t n);

#endif
