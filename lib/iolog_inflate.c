/*
 * iolog_inflate: gzip members to frames, on hostile input. Every index is
 * checked against the buffer; frames are bounded by IOLOG_FRAME_MAX before
 * any byte of them is buffered.
 */
#include "iolog_inflate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iolog_codec.h"

#define INF_CHUNK 65536		/* inflate output room per call */

enum { FHCRC = 2, FEXTRA = 4, FNAME = 8, FCOMMENT = 16, FRESERVED = 0xe0 };

void
inf_init(struct iolog_inflate *f, const void *buf, size_t len)
{
	memset(f, 0, sizeof *f);
	f->buf = buf;
	f->len = len;
}

void
inf_free(struct iolog_inflate *f)
{
	if (f->zinit)
		inflateEnd(&f->zs);
	free(f->u);
	f->u = NULL;
	f->zinit = 0;
}

static uint32_t
get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
}

/* Skip a NUL-terminated field from p[*i]; 0 when cut short. */
static int
skip_cstr(const uint8_t *p, size_t n, size_t *i)
{
	const uint8_t *z = memchr(p + *i, 0, n - *i);

	if (z == NULL)
		return 0;
	*i = (size_t)(z - p) + 1;
	return 1;
}

/* RFC 1952 member header at p: its length, 0 when cut short, -1 when p
 * is not a gzip header. */
static long
member_header_len(const uint8_t *p, size_t n)
{
	static const uint8_t magic[3] = { 0x1f, 0x8b, 8 };
	size_t i, k = n < 3 ? n : 3;
	uint8_t flg;

	if (memcmp(p, magic, k) != 0 || (n > 3 && (p[3] & FRESERVED)))
		return -1;
	if (n < 10)
		return 0;
	flg = p[3];
	i = 10;
	if (flg & FEXTRA) {
		size_t xlen;

		if (n - i < 2)
			return 0;
		xlen = (size_t)p[i] | (size_t)p[i + 1] << 8;
		i += 2;
		if (n - i < xlen)
			return 0;
		i += xlen;
	}
	if ((flg & FNAME) && !skip_cstr(p, n, &i))
		return 0;
	if ((flg & FCOMMENT) && !skip_cstr(p, n, &i))
		return 0;
	if (flg & FHCRC) {
		if (n - i < 2)
			return 0;
		if ((crc32(0, p, (uInt)i) & 0xffff) !=
		    ((uint32_t)p[i] | (uint32_t)p[i + 1] << 8))
			return -1;
		i += 2;
	}
	return (long)i;
}

/* The first gzip magic at or after from, or len. */
static size_t
scan_magic(const struct iolog_inflate *f, size_t from)
{
	size_t i;

	for (i = from; i + 2 < f->len; i++)
		if (f->buf[i] == 0x1f && f->buf[i + 1] == 0x8b &&
		    f->buf[i + 2] == 8 && (i + 3 >= f->len ||
		    !(f->buf[i + 3] & FRESERVED)))
			return i;
	return f->len;
}

static enum inf_result
damage(struct iolog_inflate *f, struct inf_frame *out, uint64_t offset,
    const char *why, size_t resume)
{
	if (why != f->why)
		snprintf(f->why, sizeof f->why, "%s", why);
	out->reason = f->why;
	out->offset = offset;
	out->at_end = 0;
	out->body = NULL;
	out->len = 0;
	f->in_member = 0;
	f->pos = resume;
	return INF_DAMAGE;
}

/* Damage inside a member whose end is unknown: the next member may begin
 * anywhere after the last good frame (a torn member is followed directly
 * by the next one, which inflate reads as more deflate data). */
static enum inf_result
damage_in_member(struct iolog_inflate *f, struct inf_frame *out,
    uint64_t offset, const char *why)
{
	return damage(f, out, offset, why, scan_magic(f, f->good_pos));
}

static enum inf_result
start_member(struct iolog_inflate *f, struct inf_frame *out)
{
	long h = member_header_len(f->buf + f->pos, f->len - f->pos);
	int rc;

	if (h < 0)
		return damage(f, out, f->pos, "not a gzip member header",
		    scan_magic(f, f->pos + 1));
	if (h == 0) {
		enum inf_result r = damage(f, out, f->pos,
		    "gzip header cut short", f->len);

		out->at_end = 1;
		return r;
	}
	rc = f->zinit ? inflateReset(&f->zs) : inflateInit2(&f->zs, -15);
	if (rc != Z_OK)
		return damage(f, out, f->pos, "out of memory", f->len);
	f->zinit = 1;
	out->offset = f->pos;
	f->data_start = f->in_pos = f->good_pos = f->pos + (size_t)h;
	f->uoff = f->ulen = 0;
	f->crc = (uint32_t)crc32(0, NULL, 0);
	f->isize = 0;
	f->ended = f->discard = 0;
	f->in_member = 1;
	return INF_MEMBER;
}

/* Cut one frame from the inflated bytes: 1 done, 0 need more, -1 damage
 * (f->why set). */
static int
split_frame(struct iolog_inflate *f, struct inf_frame *out)
{
	const uint8_t *p;
	size_t n = f->ulen - f->uoff, vlen = 0;
	uint64_t len = 0;
	int shift;

	if (n == 0)
		return 0;	/* and f->u may still be NULL */
	p = f->u + f->uoff;
	for (shift = 0;; shift += 7) {
		if (vlen == n)
			return 0;
		if (vlen == 4) {	/* 4 groups cover IOLOG_FRAME_MAX */
			snprintf(f->why, sizeof f->why, "frame too long");
			return -1;
		}
		len |= (uint64_t)(p[vlen] & 0x7f) << shift;
		if (!(p[vlen++] & 0x80))
			break;
	}
	if (len == 0 || len > IOLOG_FRAME_MAX) {
		snprintf(f->why, sizeof f->why, len ? "frame too long (%llu "
		    "bytes)" : "empty frame", (unsigned long long)len);
		return -1;
	}
	if (n - vlen < len + 4)
		return 0;
	if ((uint32_t)crc32(0, p + vlen, (uInt)len) != get_le32(p + vlen + len)) {
		snprintf(f->why, sizeof f->why, "frame CRC mismatch");
		return -1;
	}
	out->body = p + vlen;
	out->len = (size_t)len;
	out->offset = f->in_pos;
	f->good_pos = f->in_pos;
	f->uoff += vlen + (size_t)len + 4;
	return 1;
}

/* Make room for INF_CHUNK more inflated bytes. */
static int
make_room(struct iolog_inflate *f)
{
	size_t cap;
	uint8_t *u;

	if (f->uoff > 0) {
		memmove(f->u, f->u + f->uoff, f->ulen - f->uoff);
		f->ulen -= f->uoff;
		f->uoff = 0;
	}
	if (f->discard)
		f->ulen = 0;
	if (f->ucap - f->ulen >= INF_CHUNK)
		return 0;
	cap = f->ucap ? f->ucap : INF_CHUNK;
	while (cap - f->ulen < INF_CHUNK)
		cap *= 2;
	u = realloc(f->u, cap);
	if (u == NULL)
		return -1;
	f->u = u;
	f->ucap = cap;
	return 0;
}

/* Inflate up to the next block boundary: 0 on progress (or the end of the
 * stream), else damage. Z_BLOCK keeps in_pos close to frame boundaries. */
static int
inflate_more(struct iolog_inflate *f, struct inf_frame *out,
    enum inf_result *res)
{
	size_t in_avail = f->len - f->in_pos, out_room, used, made;
	int rc;

	if (make_room(f) < 0) {
		*res = damage(f, out, f->in_pos, "out of memory", f->len);
		return -1;
	}
	if (in_avail > UINT32_MAX)
		in_avail = UINT32_MAX;
	out_room = INF_CHUNK;
	f->zs.next_in = (Bytef *)(uintptr_t)(f->buf + f->in_pos);
	f->zs.avail_in = (uInt)in_avail;
	f->zs.next_out = f->u + f->ulen;
	f->zs.avail_out = (uInt)out_room;
	rc = inflate(&f->zs, Z_BLOCK);
	used = in_avail - f->zs.avail_in;
	made = out_room - f->zs.avail_out;
	f->crc = (uint32_t)crc32(f->crc, f->u + f->ulen, (uInt)made);
	f->isize += (uint32_t)made;
	f->in_pos += used;
	f->ulen += made;
	if (rc == Z_STREAM_END) {
		f->ended = 1;
		return 0;
	}
	if (rc == Z_OK && (used > 0 || made > 0))
		return 0;
	if (rc == Z_DATA_ERROR) {
		snprintf(f->why, sizeof f->why, "invalid deflate data (%s)",
		    f->zs.msg ? f->zs.msg : "?");
		*res = damage_in_member(f, out, f->in_pos, f->why);
	} else if (rc == Z_MEM_ERROR) {
		*res = damage(f, out, f->in_pos, "out of memory", f->len);
	} else {
		*res = damage_in_member(f, out, f->len, "member cut short "
		    "(no end of deflate stream: torn tail)");
		out->at_end = f->pos >= f->len;	/* nothing follows */
	}
	return -1;
}

/* After the end of the deflate stream: leftovers, then the trailer. */
static int
end_member(struct iolog_inflate *f, struct inf_frame *out,
    enum inf_result *res)
{
	size_t at = f->in_pos;
	int quiet = f->discard;

	f->in_member = 0;
	if (f->len - at < 8) {
		f->pos = f->len;
		if (quiet)
			return 0;
		*res = damage(f, out, at, "gzip trailer cut short", f->len);
		out->at_end = 1;
		return -1;
	}
	f->pos = at + 8;
	if (quiet)
		return 0;
	if (f->uoff < f->ulen) {
		*res = damage(f, out, at, "frame cut short at end of member",
		    at + 8);
		return -1;
	}
	if (get_le32(f->buf + at) != f->crc ||
	    get_le32(f->buf + at + 4) != f->isize) {
		*res = damage(f, out, at, "gzip trailer does not match data",
		    at + 8);
		return -1;
	}
	return 0;
}

enum inf_result
inf_next(struct iolog_inflate *f, struct inf_frame *out)
{
	enum inf_result res;
	int r, quiet;

	for (;;) {
		if (!f->in_member) {
			if (f->pos >= f->len)
				return INF_END;
			return start_member(f, out);
		}
		if (!f->discard) {
			r = split_frame(f, out);
			if (r > 0)
				return INF_FRAME;
			if (r < 0)
				return damage_in_member(f, out, f->in_pos,
				    f->why);
		}
		if (f->ended) {
			if (end_member(f, out, &res) < 0)
				return res;
			continue;
		}
		quiet = f->discard;	/* damage already reported */
		if (inflate_more(f, out, &res) < 0 && !quiet)
			return res;
	}
}

void
inf_skip_member(struct iolog_inflate *f)
{
	if (f->in_member) {
		f->discard = 1;
		f->uoff = f->ulen = 0;
	}
}
