/*
 * iobuf: a growable byte buffer. An allocation failure sticks in oom, so a
 * writer appends freely and checks once.
 */
#ifndef IOCENSUS_IOBUF_H
#define IOCENSUS_IOBUF_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "varint.h"

struct iobuf {
	uint8_t *p;
	size_t len, cap;
	int oom;
};

/* Make room for n more bytes; 0 or -1 (and oom set). */
static inline int
iobuf_reserve(struct iobuf *b, size_t n)
{
	size_t cap;
	uint8_t *p;

	if (b->oom)
		return -1;
	if (b->cap - b->len >= n)
		return 0;
	cap = b->cap ? b->cap : 256;
	while (cap - b->len < n) {
		if (cap > SIZE_MAX / 2)
			goto fail;
		cap *= 2;
	}
	p = realloc(b->p, cap);
	if (p == NULL)
		goto fail;
	b->p = p;
	b->cap = cap;
	return 0;
fail:
	b->oom = 1;
	return -1;
}

static inline void
iobuf_add(struct iobuf *b, const void *data, size_t n)
{
	if (n == 0 || iobuf_reserve(b, n) < 0)
		return;
	memcpy(b->p + b->len, data, n);
	b->len += n;
}

static inline void
iobuf_byte(struct iobuf *b, uint8_t c)
{
	iobuf_add(b, &c, 1);
}

static inline void
iobuf_varint(struct iobuf *b, uint64_t v)
{
	uint8_t tmp[VARINT_MAX];

	iobuf_add(b, tmp, varint_put(tmp, v));
}

/* str: varint length, then the bytes. */
static inline void
iobuf_str(struct iobuf *b, const char *s, size_t n)
{
	iobuf_varint(b, n);
	iobuf_add(b, s, n);
}

/* Drop the first n bytes. */
static inline void
iobuf_consume(struct iobuf *b, size_t n)
{
	if (n >= b->len) {
		b->len = 0;
		return;
	}
	memmove(b->p, b->p + n, b->len - n);
	b->len -= n;
}

static inline void
iobuf_free(struct iobuf *b)
{
	free(b->p);
	memset(b, 0, sizeof *b);
}

#endif
