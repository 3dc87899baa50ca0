/*
 * iolog_inflate: gzip members to frames, on hostile input. Every index is
 * checked against the buffer; frames are bounded by IOLOG_FRAME_MAX before
 * any byte of them is buffered.
 *
 * After damage inside a member the reader seeks forward for a place to
 * resume: a sync-flush marker (00 00 FF FF: every frame ends with one) of
 * the same member, or the next gzip member header, whichever comes first.
 * From a marker it raw-inflates with an empty window: a block that refers
 * to the lost bytes before it fails with "invalid distance too far back"
 * rather than yield wrong bytes, and frames are CRC-checked besides. A
 * candidate counts once it yields one whole good frame. Markers also occur
 * by chance inside frames (a keyframe's raw bytes often hold 00 00 FF FF,
 * and deflate may store a block as is), so an attempt is not stopped at
 * the next marker but at the next member header, and attempts that fail
 * share a budget of input, a small multiple of the input's size: on any
 * input the seek stays linear (past the budget, only member headers are
 * tried). An attempt at a real flush point fails within its first frame.
 * The seek moves forward only (L3).
 */
#include "iolog_inflate_int.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iolog_int.h"

#define INF_CHUNK 65536		/* inflate output room per call */
#define SEEK_BUDGET_MIN (1u << 20)	/* plus twice the input: see above */

enum { FHCRC = 2, FEXTRA = 4, FNAME = 8, FCOMMENT = 16, FRESERVED = 0xe0 };

/* What one step of reading a member came to. */
enum step {
	S_MORE,		/* progress: step again */
	S_FRAME,	/* a whole good frame is in *out */
	S_END,		/* the member ended, its trailer matches */
	S_FAIL,		/* damage; why in f->why */
	S_BAD_TRAILER,	/* the data is whole, the trailer does not match */
	S_CUT_TRAILER,	/* the data is whole, the input ends in the trailer */
	S_CUT_CLEAN	/* the input ends after a whole frame */
};

static const uint8_t flush_marker[4] = { 0, 0, 0xff, 0xff };

void
iolog_inflate_init(struct iolog_inflate *f, const void *buf, size_t len)
{
	memset(f, 0, sizeof *f);
	f->buf = buf;
	f->len = len;
	f->mode = INF_BETWEEN;
	f->flush_from = f->magic_from = SIZE_MAX;	/* nothing cached */
	f->budget = len < SIZE_MAX / 4 ? 2 * len + SEEK_BUDGET_MIN : SIZE_MAX;
}

void
iolog_inflate_free(struct iolog_inflate *f)
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

long
iolog_inflate_member_header_len(const uint8_t *p, size_t n)
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

/* The first whole gzip member header at or after from, or len. The last
 * answer is kept: the seek only moves forward, so the scans stay linear. */
static size_t
find_member(struct iolog_inflate *f, size_t from)
{
	size_t i;

	if (f->magic_from <= from && from <= f->magic_at)
		return f->magic_at;
	f->magic_from = from;
	for (i = from; i + 2 < f->len; i++) {
		const uint8_t *p = memchr(f->buf + i, 0x1f, f->len - 2 - i);

		if (p == NULL)
			break;
		i = (size_t)(p - f->buf);
		if (p[1] == 0x8b && p[2] == 8 &&
		    iolog_inflate_member_header_len(p, f->len - i) > 0)
			return f->magic_at = i;
	}
	return f->magic_at = f->len;
}

/* The first sync-flush marker at or after from, or len (kept likewise). */
static size_t
find_flush(struct iolog_inflate *f, size_t from)
{
	const uint8_t *p = NULL;

	if (f->flush_from <= from && from <= f->flush_at)
		return f->flush_at;
	f->flush_from = from;
	if (from < f->len)
		p = memmem(f->buf + from, f->len - from, flush_marker,
		    sizeof flush_marker);
	return f->flush_at = p ? (size_t)(p - f->buf) : f->len;
}

static enum inf_result
damage(struct iolog_inflate *f, struct inf_frame *out, uint64_t offset,
    const char *why, int at_end)
{
	if (why != f->why)
		snprintf(f->why, sizeof f->why, "%s", why);
	memset(out, 0, sizeof *out);
	out->reason = f->why;
	out->offset = offset;
	out->at_end = at_end;
	return INF_DAMAGE;
}

/* Look for where to resume, from `from` on; flush points count only while
 * the member read so far gives them a context. */
static void
seek(struct iolog_inflate *f, size_t from, int flush_ok)
{
	f->mode = INF_SEEK;
	f->scan = from;
	f->seek_flush = flush_ok;
}

/* Raw inflate with an empty window from `at`. */
static int
restart(struct iolog_inflate *f, size_t at)
{
	int rc = f->zinit ? inflateReset(&f->zs) : inflateInit2(&f->zs, -15);

	if (rc != Z_OK)
		return -1;
	f->zinit = 1;
	f->in_pos = f->good_pos = f->frame_start = at;
	f->limit = f->len;
	f->uoff = f->ulen = 0;
	f->ended = 0;
	return 0;
}

/* A member whose header of hlen bytes starts at `at`. */
static int
open_member(struct iolog_inflate *f, size_t at, long hlen)
{
	if (restart(f, at + (size_t)hlen) < 0)
		return -1;
	f->data_start = at + (size_t)hlen;
	f->crc = (uint32_t)crc32(0, NULL, 0);
	f->isize = 0;
	f->nframes = 0;
	f->resynced = 0;
	return 0;
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
	memset(out, 0, sizeof *out);
	out->body = p + vlen;
	out->len = (size_t)len;
	out->offset = f->in_pos;
	out->start = f->frame_start;
	f->good_pos = f->in_pos;
	f->uoff += vlen + (size_t)len + 4;
	f->nframes++;
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

static enum step
fail(struct iolog_inflate *f, const char *why)
{
	snprintf(f->why, sizeof f->why, "%s", why);
	f->why_cut = 0;
	return S_FAIL;
}

/* The input ends inside the member's deflate stream. After a whole frame
 * that is how a log being written looks (no trailer yet); inside a frame,
 * or before the first, part of a write is missing. */
static enum step
input_ended(struct iolog_inflate *f)
{
	if (f->ulen == f->uoff && f->nframes > 0 &&
	    find_member(f, f->good_pos) == f->len)
		return S_CUT_CLEAN;
	fail(f, "truncated inside a frame");
	f->why_cut = 1;
	return S_FAIL;
}

/* Inflate up to the next block boundary. Z_BLOCK keeps in_pos close to
 * frame boundaries, and tells where a frame's bytes start: at a boundary
 * with nothing of a frame inflated yet (just after a flush marker). */
static enum step
inflate_more(struct iolog_inflate *f)
{
	size_t in_avail = f->limit - f->in_pos, used, made;
	int rc;

	if (make_room(f) < 0)
		return fail(f, "out of memory");
	if (in_avail > UINT32_MAX)
		in_avail = UINT32_MAX;
	f->zs.next_in = (Bytef *)(uintptr_t)(f->buf + f->in_pos);
	f->zs.avail_in = (uInt)in_avail;
	f->zs.next_out = f->u + f->ulen;
	f->zs.avail_out = INF_CHUNK;
	rc = inflate(&f->zs, Z_BLOCK);
	used = in_avail - f->zs.avail_in;
	made = INF_CHUNK - f->zs.avail_out;
	f->crc = (uint32_t)crc32(f->crc, f->u + f->ulen, (uInt)made);
	f->isize += (uint32_t)made;
	f->in_pos += used;
	f->ulen += made;
	if ((f->zs.data_type & 128) && f->ulen == f->uoff) {
		f->frame_start = f->in_pos;
		/* not after the final block: that is the end, below */
		if (f->mode == INF_IN_MEMBER && f->nframes > 0 &&
		    (f->zs.data_type & (64 | 7)) == 0)
			f->tail = (struct inf_tail){ f->in_pos, INF_TAIL_FLUSH,
			    f->crc, f->isize };
	}
	if (rc == Z_STREAM_END) {
		f->ended = 1;
		return S_MORE;
	}
	if (rc == Z_DATA_ERROR) {
		snprintf(f->why, sizeof f->why, "invalid deflate data (%s)",
		    f->zs.msg ? f->zs.msg : "?");
		f->why_cut = 0;
		return S_FAIL;
	}
	if (rc == Z_MEM_ERROR)
		return fail(f, "out of memory");
	if (used > 0 || made > 0)
		return S_MORE;
	if (f->in_pos < f->len)		/* an attempt's bound */
		return fail(f, "no whole frame before the next member");
	return input_ended(f);
}

/* After the end of the deflate stream: leftovers, then the trailer (which
 * cannot match once the member was resumed after damage). */
static enum step
end_member(struct iolog_inflate *f)
{
	size_t at = f->in_pos;

	if (f->ulen > f->uoff)
		return fail(f, "frame cut short at end of member");
	if (f->mode == INF_IN_MEMBER)
		f->tail = (struct inf_tail){ at, INF_TAIL_TRAILER, f->crc,
		    f->isize };
	if (f->len - at < 8) {
		f->pos = f->len;
		return S_CUT_TRAILER;
	}
	f->pos = at + 8;
	if (!f->resynced && (get_le32(f->buf + at) != f->crc ||
	    get_le32(f->buf + at + 4) != f->isize))
		return S_BAD_TRAILER;
	return S_END;
}

static enum step
member_step(struct iolog_inflate *f, struct inf_frame *out)
{
	int r = split_frame(f, out);

	if (r > 0)
		return S_FRAME;
	if (r < 0) {
		f->why_cut = 0;
		return S_FAIL;
	}
	if (f->ended)
		return end_member(f);
	return inflate_more(f);
}

/* Start the member that begins exactly at f->pos. */
static enum inf_result
next_member(struct iolog_inflate *f, struct inf_frame *out)
{
	size_t at = f->pos;
	long h;

	if (at >= f->len)
		return INF_END;
	h = iolog_inflate_member_header_len(f->buf + at, f->len - at);
	if (h <= 0) {
		seek(f, at + 1, 0);
		damage(f, out, at, h < 0 ? "not a gzip member header" :
		    "gzip header cut short", 0);
		out->cut = h == 0;
		return INF_DAMAGE;
	}
	if (open_member(f, at, h) < 0) {
		f->pos = f->len;
		return damage(f, out, at, "out of memory", 0);
	}
	f->mode = INF_IN_MEMBER;
	memset(out, 0, sizeof *out);
	out->offset = at;
	return INF_MEMBER;
}

/* Damage inside the member: reported where the frame that could not be
 * read starts; the seek begins just after it. */
static enum inf_result
member_damage(struct iolog_inflate *f, struct inf_frame *out)
{
	size_t at = f->frame_start > f->good_pos ? f->frame_start :
	    f->good_pos;

	seek(f, at >= f->data_start + 3 ? at - 3 : f->data_start,
	    f->nframes > 0);
	damage(f, out, at, f->why, 0);
	out->cut = f->why_cut;
	return INF_DAMAGE;
}

static enum inf_result
read_member(struct iolog_inflate *f, struct inf_frame *out)
{
	for (;;) {
		switch (member_step(f, out)) {
		case S_MORE:
			continue;
		case S_FRAME:
			return INF_FRAME;
		case S_END:
			f->mode = INF_BETWEEN;
			f->tail = (struct inf_tail){ f->pos, INF_TAIL_BETWEEN,
			    0, 0 };
			return next_member(f, out);
		case S_BAD_TRAILER:
			f->mode = INF_BETWEEN;
			f->tail = (struct inf_tail){ f->pos, INF_TAIL_BETWEEN,
			    0, 0 };
			return damage(f, out, f->pos - 8, "gzip trailer does not "
			    "match data", 0);
		case S_CUT_TRAILER:
			f->mode = INF_BETWEEN;
			return damage(f, out, f->in_pos, "ends inside its gzip "
			    "trailer (its writer was stopped)", 1);
		case S_CUT_CLEAN:
			f->mode = INF_BETWEEN;
			f->pos = f->len;
			return damage(f, out, f->len, "ends after a whole frame, "
			    "without its gzip trailer (still being written, or "
			    "its writer was stopped)", 1);
		case S_FAIL:
			return member_damage(f, out);
		}
	}
}

/* Try to resume at candidate c (a flush marker, or a member header when
 * member), inflating input up to limit only: S_FRAME when a whole good
 * frame comes out. */
static enum step
attempt(struct iolog_inflate *f, struct inf_frame *out, size_t c,
    int member, size_t limit)
{
	enum step s;
	long h;

	if (member) {
		/* Past a member boundary the old member's flush points are
		 * no context for anything: they may be this member's. */
		f->seek_flush = 0;
		h = iolog_inflate_member_header_len(f->buf + c, f->len - c);
		if (open_member(f, c, h) < 0)
			return S_FAIL;
	} else {
		if (restart(f, c + sizeof flush_marker) < 0)
			return S_FAIL;
		f->resynced = 1;
	}
	f->limit = limit > f->in_pos ? limit : f->in_pos;
	while ((s = member_step(f, out)) == S_MORE)
		;
	f->limit = f->len;
	return s;
}

static enum inf_result
seek_next(struct iolog_inflate *f, struct inf_frame *out)
{
	for (;;) {
		size_t c = find_member(f, f->scan), p, next, from, used;
		int member = 1;

		if (f->seek_flush && f->budget > 0 &&
		    (p = find_flush(f, f->scan)) < c) {
			c = p;
			member = 0;
		}
		if (c >= f->len) {
			f->mode = INF_BETWEEN;
			f->pos = f->len;
			return INF_END;
		}
		/* A frame never runs into the next member. */
		next = find_member(f, c + 1);
		from = c + sizeof flush_marker;
		if (!member && next > from && next - from > f->budget)
			next = from + f->budget;
		assert(c >= f->scan);	/* L3: forward only */
		f->scan = c + 1;
		if (attempt(f, out, c, member, next) != S_FRAME) {
			used = member || f->in_pos < from ? 0 : f->in_pos - from;
			f->budget -= used < f->budget ? used : f->budget;
			continue;
		}
		f->mode = INF_IN_MEMBER;
		if (!member)
			return INF_FRAME;
		f->stash = *out;
		f->stashed = 1;
		memset(out, 0, sizeof *out);
		out->offset = c;
		return INF_MEMBER;
	}
}

enum inf_result
iolog_inflate_next(struct iolog_inflate *f, struct inf_frame *out)
{
	if (f->stashed) {
		f->stashed = 0;
		*out = f->stash;
		return INF_FRAME;
	}
	switch (f->mode) {
	case INF_IN_MEMBER:
		return read_member(f, out);
	case INF_SEEK:
		return seek_next(f, out);
	case INF_BETWEEN:
		break;
	}
	return next_member(f, out);
}

void
iolog_inflate_skip_member(struct iolog_inflate *f)
{
	if (f->mode == INF_IN_MEMBER)
		seek(f, f->good_pos, 0);
	f->stashed = 0;
}
