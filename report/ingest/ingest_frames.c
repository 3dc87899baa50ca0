/*
 * ingest_frames: the framing of an xz, lzma, lzip or zstd stream,
 * followed without decoding it, so that what each header declares (a
 * dictionary, a window) is known before a decoder allocates it
 * (ingest_unpack_int.h).
 *
 * xz (the .xz file format, 1.0.4): a stream header, blocks, an index, a
 * stream footer, zero padding, and maybe another stream. A block header
 * lists its filters; the last is LZMA2, whose one property byte is the
 * dictionary size. The block's data is a run of LZMA2 chunks, each with
 * a header that gives its packed size, so the block's end (the 0x00
 * chunk), its padding and check, and the next header are found without
 * decoding. The sizes a block header may declare are not trusted: the
 * chunks say where the block ends, as they do for liblzma.
 * lzma (lzma_alone): one header, its dictionary size at bytes 1-4.
 * lzip: members, each with a header; where one member ends is known only
 * by decoding it, so every "LZIP" with a version byte anywhere in the
 * stream is taken for a header (a false one costs, at worst, a refused
 * archive whose data happens to hold such bytes: a chance of 2^-40).
 * zstd (RFC 8878): frames of blocks, each block header giving its size;
 * the frame header gives the window (or, for one segment, the content
 * size), and the decoder needs the smaller of the window and the
 * content size, when that is given. Skippable frames are passed over.
 *
 * Anything that is not framing as these formats define it stops the
 * stream there: the decoder would fail at the same byte.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "human.h"
#include "ingest_unpack_int.h"

enum {
	S_PASS,			/* nothing more to follow */
	S_STOP,			/* stopped: f->why */
	X_SHDR, X_BLOCK, X_BHDR, X_CHUNK, X_CHUNK_HDR, X_IDX, X_FOOTER,
	X_SPAD,
	L_HDR,
	Z_MAGIC, Z_FHDR, Z_BLOCK
};

static const uint8_t xz_magic[6] = { 0xfd, '7', 'z', 'X', 'Z', 0x00 };

void
ingest_frames_init(struct frames *f, enum frames_kind kind)
{
	memset(f, 0, sizeof *f);
	f->kind = kind;
	switch (kind) {
	case FRAMES_XZ:
		f->state = X_SHDR;
		f->want = 12;
		break;
	case FRAMES_LZMA:
		f->state = L_HDR;
		f->want = 13;
		break;
	case FRAMES_ZSTD:
		f->state = Z_MAGIC;
		f->want = 5;
		break;
	default:		/* lzip: every byte is looked at */
		f->state = S_PASS;
		break;
	}
}

static const char *
kind_name(enum frames_kind k)
{
	return k == FRAMES_XZ ? "xz" : k == FRAMES_LZMA ? "lzma" :
	    k == FRAMES_LZIP ? "lzip" : "zstd";
}

static void
stop(struct frames *f, uint64_t at, const char *why)
{
	snprintf(f->why, sizeof f->why, "%s", why);
	f->why_at = at;
	f->state = S_STOP;
}

const char *
ingest_frames_size(uint64_t v, char *buf, size_t len)
{
	return human_bytes_in((double)v, 2, v % (1 << 20) ? 1 : 0, buf, len);
}

/* A header at `at` declares that its decoder needs `need` bytes. */
static int
declare(struct frames *f, uint64_t at, const char *what, uint64_t need)
{
	char a[32], b[32], c[32], why[256];

	if (need > f->declared)
		f->declared = need;
	if (need <= f->allow)
		return 0;
	if (need > UNPACK_DICT_MAX)
		snprintf(why, sizeof why, "%s %s declares a %s %s, more than "
		    "the %s a decoder may have (xz -9's): not decoded",
		    kind_name(f->kind), f->kind == FRAMES_ZSTD ? "frame" :
		    f->kind == FRAMES_XZ ? "block" : "header",
		    ingest_frames_size(need, a, sizeof a), what,
		    ingest_frames_size(UNPACK_DICT_MAX, b, sizeof b));
	else
		snprintf(why, sizeof why, "%s %s declares a %s %s, more than "
		    "the %s left of the %s that the decoders of nested "
		    "archives share: not decoded", kind_name(f->kind),
		    f->kind == FRAMES_ZSTD ? "frame" : f->kind == FRAMES_XZ ?
		    "block" : "header", ingest_frames_size(need, a, sizeof a), what,
		    ingest_frames_size(f->allow, b, sizeof b),
		    ingest_frames_size(UNPACK_BUDGET, c, sizeof c));
	stop(f, at, why);
	return -1;
}

static void
bad(struct frames *f, uint64_t at, const char *what)
{
	char why[160];

	snprintf(why, sizeof why, "not %s data: %s", kind_name(f->kind),
	    what);
	stop(f, at, why);
}

/* Gather a new header of `want` bytes in `state`. */
static void
expect(struct frames *f, int state, size_t want)
{
	f->state = state;
	f->want = want;
	f->have = 0;
}

/* The header gathered goes on: `want` bytes in all. */
static void
extend(struct frames *f, int state, size_t want)
{
	f->state = state;
	f->want = want;
}

/* Pass `n` bytes unread, then gather a header of `want` bytes. */
static void
skip_then(struct frames *f, uint64_t n, int state, size_t want)
{
	f->skip = n;
	expect(f, state, want);
}

/* A variable-length integer of the xz format at p[*i .. end). */
static int
xz_vli(const uint8_t *p, size_t *i, size_t end, uint64_t *v)
{
	*v = 0;
	for (int k = 0; k < 9 && *i < end; k++) {
		uint8_t b = p[(*i)++];

		*v |= (uint64_t)(b & 0x7f) << (7 * k);
		if (!(b & 0x80))
			return b != 0 || k == 0 ? 0 : -1;
	}
	return -1;
}

/* LZMA2's dictionary size property (xz format, 5.3.1). */
static uint64_t
lzma2_dict(uint8_t p)
{
	return p == 40 ? UINT32_MAX : (uint64_t)(2 | (p & 1)) << (p / 2 + 11);
}

/* A block header, whole in f->buf: its filters. */
static int
xz_block_header(struct frames *f)
{
	size_t i = 2, end = f->want - 4;
	uint8_t flags = f->buf[1];
	uint64_t v, id, psize;
	int n = (flags & 3) + 1;

	if (flags & 0x3c)
		return bad(f, f->hdr_at, "reserved block flags"), -1;
	if (((flags & 0x40) && xz_vli(f->buf, &i, end, &v) < 0) ||
	    ((flags & 0x80) && xz_vli(f->buf, &i, end, &v) < 0))
		return bad(f, f->hdr_at, "bad block header"), -1;
	for (int k = 0; k < n; k++) {
		if (xz_vli(f->buf, &i, end, &id) < 0 ||
		    xz_vli(f->buf, &i, end, &psize) < 0 || psize > end - i)
			return bad(f, f->hdr_at, "bad filter flags"), -1;
		if (id == 0x21 && k == n - 1 && psize == 1 &&
		    f->buf[i] <= 40) {
			if (declare(f, f->hdr_at, "dictionary",
			    lzma2_dict(f->buf[i])) < 0)
				return -1;
		} else if (k == n - 1 || !(id == 0x03 ||
		    (id >= 0x04 && id <= 0x0b))) {
			/* Only LZMA2 ends a chain; delta and the branch
			 * filters before it need no memory of their own. */
			char what[64];

			snprintf(what, sizeof what, "filter 0x%" PRIx64
			    " cannot be followed", id);
			return bad(f, f->hdr_at, what), -1;
		}
		i += (size_t)psize;
	}
	return 0;
}

/* One chunk's header in f->buf: pass its data. */
static void
xz_chunk_header(struct frames *f)
{
	uint8_t c = f->buf[0];

	if (c == 1 || c == 2)
		skip_then(f, ((uint64_t)f->buf[1] << 8 | f->buf[2]) + 1,
		    X_CHUNK, 1);
	else
		skip_then(f, ((uint64_t)f->buf[3] << 8 | f->buf[4]) + 1,
		    X_CHUNK, 1);
}

/* A chunk's control byte: the end of the block, or a chunk. */
static void
xz_chunk(struct frames *f)
{
	uint8_t c = f->buf[0];
	uint64_t size;

	if (c == 0) {		/* block padding, then the check */
		size = f->pos - f->run;
		skip_then(f, (4 - size % 4) % 4 + f->check, X_BLOCK, 1);
	} else if (c == 1 || c == 2) {
		extend(f, X_CHUNK_HDR, 3);
	} else if (c >= 0x80) {	/* a new state brings a properties byte */
		extend(f, X_CHUNK_HDR, ((c >> 5) & 3) >= 2 ? 6 : 5);
	} else {
		bad(f, f->pos - 1, "bad LZMA2 chunk");
	}
}

/* Index records, one byte at a time: count, then two numbers each. */
static void
xz_index_byte(struct frames *f, uint8_t b)
{
	f->vli |= (uint64_t)(b & 0x7f) << (7 * f->vlin);
	if (b & 0x80) {
		if (++f->vlin == 9)
			bad(f, f->pos - 1, "bad index");
		return;
	}
	if (f->nrec == UINT64_MAX) {	/* the count */
		if (f->vli > UINT64_MAX / 2 - 1)
			return bad(f, f->pos - 1, "bad index");
		f->nrec = 2 * f->vli;
	} else {
		f->nrec--;
	}
	f->vli = 0;
	f->vlin = 0;
	if (f->nrec == 0) {	/* padding, CRC32, then the footer */
		uint64_t size = f->pos - f->run;

		skip_then(f, (4 - size % 4) % 4 + 4, X_FOOTER, 12);
	}
}

static const size_t xz_check_size[16] = { 0, 4, 4, 4, 8, 8, 8, 16, 16, 16,
	32, 32, 32, 64, 64, 64 };

/* f->buf[0 .. f->want) gathered: what it is. */
static void
xz_gathered(struct frames *f)
{
	switch (f->state) {
	case X_SHDR:
		if (memcmp(f->buf, xz_magic, 6) || f->buf[6] ||
		    f->buf[7] > 0x0f)
			return bad(f, f->hdr_at, "bad stream header");
		f->check = xz_check_size[f->buf[7]];
		expect(f, X_BLOCK, 1);
		break;
	case X_BLOCK:
		if (f->buf[0] == 0) {		/* the index */
			f->run = f->hdr_at;
			f->nrec = UINT64_MAX;
			f->vli = 0;
			f->vlin = 0;
			expect(f, X_IDX, 0);
		} else {
			extend(f, X_BHDR, ((size_t)f->buf[0] + 1) * 4);
		}
		break;
	case X_BHDR:
		if (xz_block_header(f) == 0) {
			f->run = f->pos;	/* the block's data starts */
			expect(f, X_CHUNK, 1);
		}
		break;
	case X_CHUNK:
		xz_chunk(f);
		break;
	case X_CHUNK_HDR:
		xz_chunk_header(f);
		break;
	case X_FOOTER:
		if (f->buf[10] != 'Y' || f->buf[11] != 'Z')
			return bad(f, f->hdr_at, "bad stream footer");
		expect(f, X_SPAD, 1);
		break;
	case X_SPAD:		/* zeros, or the next stream */
		if (f->buf[0] == 0)
			expect(f, X_SPAD, 1);
		else
			extend(f, X_SHDR, 12);
		break;
	}
}

static void
lzma_gathered(struct frames *f)
{
	uint64_t d = (uint64_t)f->buf[1] | (uint64_t)f->buf[2] << 8 |
	    (uint64_t)f->buf[3] << 16 | (uint64_t)f->buf[4] << 24;
	uint64_t r = 4096;

	if (f->buf[0] > (4 * 5 + 4) * 9 + 8)
		return bad(f, 0, "bad properties");
	/* at most what liblzma rounds the size up to: 2^n or 3 * 2^(n-1) */
	while (r < d)
		r = (r & (r - 1)) ? r / 3 * 4 : r + r / 2;
	if (declare(f, 0, "dictionary", r) == 0)
		f->state = S_PASS;
}

static const size_t zstd_did_len[4] = { 0, 1, 2, 4 };

/* The frame content size field's length. */
static size_t
zstd_fcs_len(uint8_t fhd)
{
	return fhd >> 6 == 0 ? (size_t)((fhd >> 5) & 1) : (size_t)1 << (fhd >> 6);
}

/* Magic, descriptor, window, dictionary id, content size. */
static size_t
zstd_header_len(uint8_t fhd)
{
	return 5 + !((fhd >> 5) & 1) + zstd_did_len[fhd & 3] +
	    zstd_fcs_len(fhd);
}

static void
zstd_frame_header(struct frames *f)
{
	uint8_t fhd = f->buf[4];
	int single = (fhd >> 5) & 1;
	size_t fl = zstd_fcs_len(fhd);
	size_t at = 5 + !single + zstd_did_len[fhd & 3];
	uint64_t window = 0, fcs = 0;

	if (!single) {
		uint8_t wd = f->buf[5];
		uint64_t base = (uint64_t)1 << (10 + (wd >> 3));

		window = base + (base >> 3) * (wd & 7);
	}
	for (size_t i = 0; i < fl; i++)
		fcs |= (uint64_t)f->buf[at + i] << (8 * i);
	if (fl == 2)
		fcs += 256;
	if (single)
		window = fcs;
	else if (fl > 0 && fcs < window)
		window = fcs;	/* the decoder's buffer: the smaller */
	f->tail = (fhd >> 2) & 1 ? 4 : 0;
	if (declare(f, f->hdr_at, "window", window) == 0)
		expect(f, Z_BLOCK, 3);
}

static void
zstd_gathered(struct frames *f)
{
	uint32_t magic = (uint32_t)f->buf[0] | (uint32_t)f->buf[1] << 8 |
	    (uint32_t)f->buf[2] << 16 | (uint32_t)f->buf[3] << 24;
	uint32_t bh, size;
	uint8_t fhd = f->buf[4];

	switch (f->state) {
	case Z_MAGIC:
		if ((magic & 0xfffffff0u) == 0x184d2a50u) {	/* skippable */
			if (f->want < 8)
				return extend(f, Z_MAGIC, 8);
			size = (uint32_t)f->buf[4] | (uint32_t)f->buf[5] << 8 |
			    (uint32_t)f->buf[6] << 16 |
			    (uint32_t)f->buf[7] << 24;
			skip_then(f, size, Z_MAGIC, 5);
			return;
		}
		if (magic != 0xfd2fb528u || (fhd & 0x08))
			return bad(f, f->hdr_at, "bad frame header");
		extend(f, Z_FHDR, zstd_header_len(fhd));
		return;
	case Z_FHDR:
		zstd_frame_header(f);
		return;
	case Z_BLOCK:
		bh = (uint32_t)f->buf[0] | (uint32_t)f->buf[1] << 8 |
		    (uint32_t)f->buf[2] << 16;
		if (((bh >> 1) & 3) == 3)
			return bad(f, f->hdr_at, "reserved block type");
		size = ((bh >> 1) & 3) == 1 ? 1 : bh >> 3;
		if (bh & 1)
			skip_then(f, (uint64_t)size + f->tail, Z_MAGIC, 5);
		else
			skip_then(f, size, Z_BLOCK, 3);
		return;
	}
}

/* lzip: every header anywhere in p[0 .. n); how many bytes pass. */
static size_t
lzip_scan(struct frames *f, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint8_t d;
		uint64_t dict;

		memmove(f->buf, f->buf + 1, 5);
		f->buf[5] = p[i];
		f->pos++;
		if (f->have < 6)
			f->have++;
		if (f->have < 6 || memcmp(f->buf, "LZIP", 4) || f->buf[4] > 1)
			continue;
		d = f->buf[5];
		dict = (uint64_t)1 << (d & 0x1f);
		if ((d & 0x1f) > 12)
			dict -= (dict / 16) * (d >> 5);
		if (declare(f, f->pos - 6, "dictionary", dict) < 0)
			return i > 5 ? i - 5 : 0;
	}
	return n;
}

static void
gathered(struct frames *f)
{
	if (f->kind == FRAMES_XZ)
		xz_gathered(f);
	else if (f->kind == FRAMES_LZMA)
		lzma_gathered(f);
	else
		zstd_gathered(f);
}

size_t
ingest_frames_feed(struct frames *f, const uint8_t *p, size_t n)
{
	size_t i = 0;

	if (f->kind == FRAMES_LZIP && f->state == S_PASS)
		return lzip_scan(f, p, n);
	while (i < n && f->state != S_PASS && f->state != S_STOP) {
		if (f->skip > 0) {
			size_t k = n - i < f->skip ? n - i : (size_t)f->skip;

			f->skip -= k;
			f->pos += k;
			i += k;
			continue;
		}
		if (f->state == X_IDX) {
			f->pos++;
			xz_index_byte(f, p[i++]);
			continue;
		}
		if (f->have == 0)
			f->hdr_at = f->pos;
		while (f->have < f->want && i < n) {
			f->buf[f->have++] = p[i++];
			f->pos++;
		}
		if (f->have < f->want)
			break;
		gathered(f);
	}
	if (f->state == S_STOP)		/* the bytes before the header */
		return f->why_at > f->pos - i ? (size_t)(f->why_at -
		    (f->pos - i)) : 0;
	return n;
}
