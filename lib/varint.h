/*
 * varint: unsigned LEB128 (7 bits per byte, low group first, high bit set
 * on every byte but the last), at most 10 bytes for 64 bits; and a bounded
 * cursor to decode it and the other encodings of docs/iolog-format.md.
 */
#ifndef IOCENSUS_VARINT_H
#define IOCENSUS_VARINT_H

#include <stddef.h>
#include <stdint.h>

#define VARINT_MAX 10

/* Encode v into out (at least VARINT_MAX bytes); returns the length. */
static inline size_t
varint_put(uint8_t *out, uint64_t v)
{
	size_t n = 0;

	while (v >= 0x80) {
		out[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	out[n++] = (uint8_t)v;
	return n;
}

/* A read position in [p, end). The first error sticks in err and every
 * later read returns 0, so decoders check once at the end. */
struct cursor {
	const uint8_t *p, *end;
	const char *err;
};

static inline void
cursor_fail(struct cursor *c, const char *why)
{
	if (c->err == NULL)
		c->err = why;
	c->p = c->end;
}

/* Decode one varint: 0 and err set when it is cut short, longer than 10
 * bytes or above 2^64 - 1. Non-minimal encodings are accepted. */
static inline uint64_t
cursor_varint(struct cursor *c)
{
	uint64_t v = 0;
	int shift;

	for (shift = 0; shift < 70; shift += 7) {
		uint8_t b;

		if (c->p >= c->end) {
			cursor_fail(c, "frame body cut short");
			return 0;
		}
		b = *c->p++;
		if (shift == 63 && b > 1) {
			cursor_fail(c, "varint above 2^64-1");
			return 0;
		}
		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return v;
	}
	cursor_fail(c, "varint longer than 10 bytes");
	return 0;
}

/* A varint that must be at most max. */
static inline uint64_t
cursor_varint_max(struct cursor *c, uint64_t max, const char *why)
{
	uint64_t v = cursor_varint(c);

	if (v > max) {
		cursor_fail(c, why);
		return 0;
	}
	return v;
}

/* n raw bytes, or NULL with err set. */
static inline const uint8_t *
cursor_bytes(struct cursor *c, uint64_t n)
{
	const uint8_t *p = c->p;

	if (n > (uint64_t)(c->end - c->p)) {
		cursor_fail(c, "frame body cut short");
		return NULL;
	}
	c->p += n;
	return p;
}

#endif
