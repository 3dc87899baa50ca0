/*
 * iolog_encode: structs to frame bodies (docs/iolog-format.md). Nothing
 * here touches a file; the writer frames, deflates and writes the bodies.
 */
#include "iolog_int.h"

#include <errno.h>

/* A fixed-size string: stored up to its NUL. One that fills its array
 * without a NUL could not be read back into it: a sticky error. */
static void
put_field(struct iobuf *b, const char *s, size_t size, int *invalid)
{
	size_t n = strnlen(s, size);

	if (n == size)
		*invalid = 1;
	iobuf_str(b, s, n);
}

int
iolog_encode_finish(struct iobuf *b, int invalid)
{
	if (invalid) {
		errno = EINVAL;
		return -1;
	}
	if (b->oom) {
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

int
iolog_encode_header(struct iobuf *b, const struct iolog_header *h)
{
	int invalid = h->long_bits != 32 && h->long_bits != 64;

	iobuf_byte(b, IOLOG_T_HEADER);
	iobuf_varint(b, IOLOG_VERSION);
	iobuf_str(b, "iolog", 5);
	put_field(b, h->host, sizeof h->host, &invalid);
	put_field(b, h->release, sizeof h->release, &invalid);
	put_field(b, h->machine, sizeof h->machine, &invalid);
	iobuf_varint(b, (uint64_t)h->long_bits);
	iobuf_varint(b, h->interval_ms);
	put_field(b, h->boot_id, sizeof h->boot_id, &invalid);
	iobuf_varint(b, h->created_ns);
	put_field(b, h->writer, sizeof h->writer, &invalid);
	return iolog_encode_finish(b, invalid);
}

static int
put_attr(struct iobuf *b, const struct iolog_attr *a)
{
	size_t kl, vl;

	if (a->key == NULL || a->value == NULL)
		return -1;
	kl = strlen(a->key);
	vl = strlen(a->value);
	if (kl > IOLOG_STR_MAX || vl > IOLOG_STR_MAX)
		return -1;
	iobuf_str(b, a->key, kl);
	iobuf_str(b, a->value, vl);
	return 0;
}

int
iolog_encode_table(struct iobuf *b, const struct iolog_dev *d, size_t n)
{
	size_t i, j;
	int invalid = 0;

	if (n > IOLOG_NDEV_MAX)
		return iolog_encode_finish(b, 1);
	iobuf_byte(b, IOLOG_T_TABLE);
	iobuf_varint(b, n);
	for (i = 0; i < n; i++) {
		if (d[i].fields & ~IOLOG_MASK_ALL ||
		    d[i].nattr > IOLOG_NATTR_MAX ||
		    (d[i].nattr > 0 && d[i].attr == NULL))
			return iolog_encode_finish(b, 1);
		iobuf_varint(b, d[i].id);
		put_field(b, d[i].name, sizeof d[i].name, &invalid);
		iobuf_varint(b, d[i].major);
		iobuf_varint(b, d[i].minor);
		iobuf_varint(b, d[i].diskseq);
		iobuf_varint(b, d[i].fields);
		iobuf_varint(b, d[i].nattr);
		for (j = 0; j < d[i].nattr; j++)
			if (put_attr(b, &d[i].attr[j]) < 0)
				return iolog_encode_finish(b, 1);
	}
	return iolog_encode_finish(b, invalid);
}

/* Room for a mask and DS_FIELDS values. */
static int
iolog_reserve_fields(struct iobuf *b)
{
	return iobuf_reserve(b, (1 + DS_FIELDS) * VARINT_MAX);
}

void
iolog_encode_clock(struct iobuf *b, const struct iolog_clock *c)
{
	iobuf_varint(b, c->seq);
	iobuf_varint(b, c->realtime_ns);
	iobuf_varint(b, c->monotonic_ns);
	iobuf_varint(b, c->boottime_ns);
	iobuf_varint(b, c->read_ns);
	iobuf_varint(b, c->flags);
	iobuf_varint(b, c->missed);
}

/* mask, then the non-zero fields in field order. The caller's mask is not
 * trusted: the stored set is exactly the non-zero values. This runs for
 * every device of every sample, so it writes straight into the buffer. */
void
iolog_encode_fields(struct iobuf *b, const uint64_t *v)
{
	uint32_t mask = 0;
	uint8_t *p;
	int f;

	if (iolog_reserve_fields(b) < 0)
		return;
	for (f = 0; f < DS_FIELDS; f++)
		if (v[f] != 0)
			mask |= UINT32_C(1) << f;
	p = b->p + b->len;
	p += varint_put(p, mask);
	for (f = 0; mask != 0; f++, mask >>= 1)
		if (mask & 1)
			p += varint_put(p, v[f]);
	b->len = (size_t)(p - b->p);
}

int
iolog_encode_values(struct iobuf *b, int type, const struct iolog_clock *c,
    const struct iolog_val *v, size_t n)
{
	size_t i;

	if (n > IOLOG_NDEV_MAX ||
	    (type != IOLOG_T_KEYFRAME && type != IOLOG_T_SAMPLE))
		return iolog_encode_finish(b, 1);
	iobuf_byte(b, (uint8_t)type);
	iolog_encode_clock(b, c);
	for (i = 0; i < n; i++) {
		if (type == IOLOG_T_KEYFRAME) {
			iolog_encode_fields(b, v[i].v);
			continue;
		}
		if (v[i].state > IOLOG_RESET)
			return iolog_encode_finish(b, 1);
		iobuf_varint(b, v[i].state);
		if (v[i].state != IOLOG_ABSENT)
			iolog_encode_fields(b, v[i].v);
	}
	return iolog_encode_finish(b, 0);
}
