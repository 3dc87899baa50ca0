/*
 * iolog_packed: the P frame of format version 2 (docs/iolog-format.md),
 * a sample whose deltas are bit-packed by field: each field's non-zero
 * values for all devices that moved, in the bits the largest of them
 * needs. It is as small as deflate of an S frame on the benchmark's days
 * and takes a few microseconds per thousand devices to write, so the
 * writer stores it without deflate.
 */
#include "iolog_int.h"

#define W_BITS 6		/* a width 1..64 is stored as width - 1 */

/* ---- bits, lowest first in each byte ---- */

struct bitw {
	uint8_t *p;		/* reserved room, written in place */
	uint64_t acc;		/* bits not yet stored */
	int n;			/* how many */
};

/* n <= 32 bits of v (above them, v is 0). */
static inline void
bitw_put(struct bitw *b, uint64_t v, int n)
{
	b->acc |= v << b->n;
	b->n += n;
	if (b->n >= 32) {
		b->p[0] = (uint8_t)b->acc;
		b->p[1] = (uint8_t)(b->acc >> 8);
		b->p[2] = (uint8_t)(b->acc >> 16);
		b->p[3] = (uint8_t)(b->acc >> 24);
		b->p += 4;
		b->acc >>= 32;
		b->n -= 32;
	}
}

/* A value of width bits (1..64, v below 2^width). */
static inline void
bitw_value(struct bitw *b, uint64_t v, int width)
{
	if (width > 32) {
		bitw_put(b, v & UINT32_MAX, 32);
		bitw_put(b, v >> 32, width - 32);
	} else {
		bitw_put(b, v, width);
	}
}

/* The last bits, zero-padded to a byte. */
static void
bitw_end(struct bitw *b)
{
	for (; b->n > 0; b->n -= 8, b->acc >>= 8)
		*b->p++ = (uint8_t)b->acc;
	b->n = 0;
}

struct bitr {
	const uint8_t *p, *end;
	uint64_t acc;
	int n;
	int err;
};

static uint64_t
bitr_get(struct bitr *b, int n)
{
	uint64_t v;

	if (n > 32) {
		v = bitr_get(b, 32);
		return v | bitr_get(b, n - 32) << 32;
	}
	while (b->n < n) {
		if (b->p == b->end) {
			b->err = 1;
			return 0;
		}
		b->acc |= (uint64_t)*b->p++ << b->n;
		b->n += 8;
	}
	v = b->acc & ((UINT64_C(1) << n) - 1);
	b->acc >>= n;
	b->n -= n;
	return v;
}

static int
bit_width(uint64_t v)
{
	return v == 0 ? 0 : 64 - __builtin_clzll(v);
}

/* ---- encoding ---- */

/* Entries whose state is not IOLOG_OK: varints, as in an S frame. */
static size_t
put_special(struct iobuf *b, const struct iolog_val *v, size_t n)
{
	size_t i, k = 0, last = 0;

	for (i = 0; i < n; i++)
		k += v[i].state != IOLOG_OK;
	iobuf_varint(b, k);
	for (i = 0; i < n; i++) {
		if (v[i].state == IOLOG_OK)
			continue;
		iobuf_varint(b, i - last);
		iobuf_varint(b, v[i].state);
		last = i + 1;
		if (v[i].state == IOLOG_RESET)
			iolog_encode_fields(b, v[i].v);
	}
	return k;
}

/* Bits for the moved flags, masks and values of n devices: an upper
 * bound, with 8 bytes of slack for bitw_put's 32-bit stores. */
static size_t
packed_bound(size_t n)
{
	return n / 8 + n * (1 + DS_FIELDS + DS_FIELDS * 64) / 8 +
	    DS_FIELDS + 16;
}

/* The mask of v's non-zero fields. */
static uint32_t
mask_of(const uint64_t *v)
{
	uint32_t m = 0;

	for (int f = 0; f < DS_FIELDS; f++)
		m |= (uint32_t)(v[f] != 0) << f;
	return m;
}

int
iolog_packed_encode(struct iobuf *b, const struct iolog_clock *c,
    const struct iolog_val *v, size_t n, uint32_t *scratch)
{
	uint64_t any[DS_FIELDS] = { 0 };
	uint32_t prev = 0, m, *moved = scratch;
	struct bitw w = { 0 };
	size_t i, j, nmoved = 0;
	int f;

	if (n > IOLOG_NDEV_MAX)
		return iolog_encode_finish(b, 1);
	for (i = 0; i < n; i++)
		if (v[i].state > IOLOG_RESET)
			return iolog_encode_finish(b, 1);
	iobuf_byte(b, IOLOG_T_PACKED);
	iolog_encode_clock(b, c);
	put_special(b, v, n);
	if (iobuf_reserve(b, packed_bound(n)) < 0)
		return iolog_encode_finish(b, 0);
	w.p = b->p + b->len;
	/* moved[]: the entries that moved, by index */
	for (i = 0; i < n; i++) {
		if (v[i].state != IOLOG_OK)
			continue;
		m = mask_of(v[i].v);
		bitw_put(&w, m != 0, 1);
		if (m != 0)
			moved[nmoved++] = (uint32_t)i;
	}
	for (j = 0; j < nmoved; j++) {
		m = mask_of(v[moved[j]].v);
		if (m == prev) {
			bitw_put(&w, 1, 1);
			continue;
		}
		bitw_put(&w, 0, 1);
		bitw_put(&w, m, DS_FIELDS);
		prev = m;
	}
	for (j = 0; j < nmoved; j++)
		for (f = 0; f < DS_FIELDS; f++)
			any[f] |= v[moved[j]].v[f];
	for (f = 0; f < DS_FIELDS; f++) {
		int width = bit_width(any[f]);

		if (width == 0)
			continue;
		bitw_put(&w, (uint64_t)width - 1, W_BITS);
		for (j = 0; j < nmoved; j++) {
			uint64_t x = v[moved[j]].v[f];

			if (x != 0)
				bitw_value(&w, x, width);
		}
	}
	bitw_end(&w);
	b->len = (size_t)(w.p - b->p);
	return iolog_encode_finish(b, 0);
}

/* ---- decoding ---- */

static const char *
get_special(struct cursor *c, struct iolog_val *v, size_t ndev)
{
	static const char many[] = "device count mismatch (too many entries)";
	uint64_t k = cursor_varint_max(c, ndev, many);
	size_t i = 0;

	for (; k > 0 && c->err == NULL; k--) {
		uint64_t skip = cursor_varint(c);

		if (c->err == NULL && skip >= ndev - i)
			cursor_fail(c, many);
		if (c->err != NULL)
			break;
		i += (size_t)skip;
		v[i].state = (uint8_t)cursor_varint_max(c, IOLOG_RESET,
		    "unknown device state");
		if (c->err == NULL && v[i].state == IOLOG_OK)
			return "state 0 in the special entries of a packed sample";
		if (v[i].state == IOLOG_RESET)
			iolog_decode_fields(c, &v[i]);
		i++;
	}
	return c->err;
}

const char *
iolog_packed_decode(const uint8_t *p, size_t n, struct iolog_clock *k,
    struct iolog_val *v, size_t ndev)
{
	struct cursor c = { p, p + n, NULL };
	struct bitr b = { 0 };
	uint32_t prev = 0;
	const char *why;
	size_t i;
	int f;

	memset(k, 0, sizeof *k);
	iolog_decode_clock(&c, k);
	for (i = 0; i < ndev; i++)
		memset(&v[i], 0, sizeof v[i]);
	if (c.err != NULL || (why = get_special(&c, v, ndev)) != NULL)
		return c.err ? c.err : why;
	b.p = c.p;
	b.end = c.end;
	/* mask holds 1 for a device that moved until its mask is read */
	for (i = 0; i < ndev && !b.err; i++)
		if (v[i].state == IOLOG_OK)
			v[i].mask = (uint32_t)bitr_get(&b, 1);
	for (i = 0; i < ndev && !b.err; i++) {
		if (v[i].state != IOLOG_OK || v[i].mask == 0)
			continue;
		if (bitr_get(&b, 1) == 0) {
			prev = (uint32_t)bitr_get(&b, DS_FIELDS);
			if (prev == 0 && !b.err)
				return "empty field mask in packed sample";
		} else if (prev == 0 && !b.err) {
			return "packed sample repeats a mask before the first";
		}
		v[i].mask = prev;
	}
	for (f = 0; f < DS_FIELDS && !b.err; f++) {
		uint32_t bit = UINT32_C(1) << f;
		int width = -1;

		for (i = 0; i < ndev && !b.err; i++) {
			if (v[i].state != IOLOG_OK || !(v[i].mask & bit))
				continue;
			if (width < 0)
				width = (int)bitr_get(&b, W_BITS) + 1;
			v[i].v[f] = bitr_get(&b, width);
		}
	}
	if (b.err)
		return "frame body cut short";
	/* b.acc holds the unread bits of the last byte read: the padding */
	if (b.p != b.end)
		return "trailing bytes in frame";
	return b.acc != 0 ? "packed sample padding is not zero" : NULL;
}
