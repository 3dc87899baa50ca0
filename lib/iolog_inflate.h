/*
 * iolog_inflate: the member layer of the reader. Walks the gzip members of
 * a buffer, parsing each header itself, raw-inflates the data and cuts the
 * uncompressed stream into CRC-checked frames. Damage (a bad header, bad
 * deflate data, a torn member, a bad frame) is reported with its compressed
 * offset; reading then resumes at the next gzip header found after the
 * member's last good frame. Internal to lib/iolog_*.c.
 */
#ifndef IOCENSUS_IOLOG_INFLATE_H
#define IOCENSUS_IOLOG_INFLATE_H

#include <stddef.h>
#include <stdint.h>
#include <zlib.h>

enum inf_result { INF_END, INF_MEMBER, INF_FRAME, INF_DAMAGE };

struct inf_frame {
	const uint8_t *body;	/* FRAME: valid until the next inf_next() */
	size_t len;
	uint64_t offset;	/* compressed offset (see iolog.h) */
	const char *reason;	/* DAMAGE */
	int at_end;		/* DAMAGE: the input just ends in a member */
};

struct iolog_inflate {
	const uint8_t *buf;
	size_t len;
	size_t pos;		/* next member's start, outside a member */
	z_stream zs;
	int zinit;
	int in_member, ended, discard;
	size_t data_start;	/* the member's first deflate byte */
	size_t in_pos;		/* compressed bytes consumed so far */
	size_t good_pos;	/* in_pos when the last good frame was cut */
	uint8_t *u;		/* inflated bytes not yet cut into frames */
	size_t uoff, ulen, ucap;
	uint32_t crc, isize;	/* of the member's inflated bytes */
	char why[160];
};

void inf_init(struct iolog_inflate *f, const void *buf, size_t len);
enum inf_result inf_next(struct iolog_inflate *f, struct inf_frame *out);
/* Drop the rest of the current member quietly (the frame layer above found
 * it unusable and has reported why). */
void inf_skip_member(struct iolog_inflate *f);
void inf_free(struct iolog_inflate *f);

#endif
