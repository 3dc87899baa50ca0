/*
 * iolog_decode: frame bodies to structs. Every length and count comes from
 * hostile bytes: each is checked against what is left of the body before
 * anything is allocated, so allocations never exceed a small multiple of
 * the frame length.
 */
#include "iolog_int.h"

/* A str into a fixed-size field, NUL-terminated. */
static void
get_field(struct cursor *c, char *dst, size_t size, const char *why)
{
	uint64_t n = cursor_varint(c);
	const uint8_t *s;

	dst[0] = '\0';
	if (c->err)
		return;
	if (n >= size) {
		cursor_fail(c, why);
		return;
	}
	s = cursor_bytes(c, n);
	if (s == NULL)
		return;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

/* A str into a new NUL-terminated allocation (NULL on error). */
static char *
get_alloc(struct cursor *c)
{
	uint64_t n = cursor_varint_max(c, IOLOG_STR_MAX, "attribute too long");
	const uint8_t *s = c->err ? NULL : cursor_bytes(c, n);
	char *d;

	if (s == NULL)
		return NULL;
	d = malloc(n + 1);
	if (d == NULL) {
		cursor_fail(c, "out of memory");
		return NULL;
	}
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

static const char *
done(struct cursor *c)
{
	if (c->err == NULL && c->p != c->end)
		c->err = "trailing bytes in frame";
	return c->err;
}

const char *
iolog_decode_header(const uint8_t *p, size_t n, struct iolog_header *h)
{
	struct cursor c = { p, p + n, NULL };
	char magic[8];

	memset(h, 0, sizeof *h);
	h->version = (int)cursor_varint_max(&c, IOLOG_VERSION,
	    "unsupported format version");
	if (c.err == NULL && h->version < 1)
		return "unsupported format version";
	get_field(&c, magic, sizeof magic, "bad magic");
	if (c.err == NULL && strcmp(magic, "iolog") != 0)
		return "bad magic";
	get_field(&c, h->host, sizeof h->host, "host name too long");
	get_field(&c, h->release, sizeof h->release, "kernel release too long");
	get_field(&c, h->machine, sizeof h->machine, "machine too long");
	h->long_bits = (int)cursor_varint_max(&c, 64, "bad long_bits");
	if (c.err == NULL && h->long_bits != 32 && h->long_bits != 64)
		return "bad long_bits";
	h->interval_ms = (uint32_t)cursor_varint_max(&c, UINT32_MAX,
	    "interval too large");
	get_field(&c, h->boot_id, sizeof h->boot_id, "boot_id too long");
	h->created_ns = cursor_varint(&c);
	get_field(&c, h->writer, sizeof h->writer, "writer too long");
	return done(&c);
}

static void
get_dev(struct cursor *c, struct iolog_dev *d)
{
	size_t j;

	d->id = cursor_varint(c);
	get_field(c, d->name, sizeof d->name, "device name too long");
	d->major = (uint32_t)cursor_varint_max(c, UINT32_MAX, "bad major");
	d->minor = (uint32_t)cursor_varint_max(c, UINT32_MAX, "bad minor");
	d->diskseq = cursor_varint(c);
	d->fields = (uint32_t)cursor_varint_max(c, IOLOG_MASK_ALL,
	    "field mask out of range");
	/* Each attribute takes at least 2 bytes of the body. */
	d->nattr = (size_t)cursor_varint_max(c, IOLOG_NATTR_MAX,
	    "too many attributes");
	if (c->err || d->nattr == 0)
		return;
	if (d->nattr > (size_t)(c->end - c->p) / 2) {
		d->nattr = 0;
		cursor_fail(c, "frame body cut short");
		return;
	}
	d->attr = calloc(d->nattr, sizeof *d->attr);
	if (d->attr == NULL) {
		d->nattr = 0;
		cursor_fail(c, "out of memory");
		return;
	}
	for (j = 0; j < d->nattr && c->err == NULL; j++) {
		d->attr[j].key = get_alloc(c);
		d->attr[j].value = get_alloc(c);
	}
}

void
iolog_decode_devs_free(struct iolog_dev *d, size_t n)
{
	size_t i, j;

	if (d == NULL)
		return;
	for (i = 0; i < n; i++) {
		for (j = 0; j < d[i].nattr; j++) {
			free(d[i].attr[j].key);
			free(d[i].attr[j].value);
		}
		free(d[i].attr);
	}
	free(d);
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* dev_id is unique within a table: it keys the counter epochs. */
static const char *
check_ids(const struct iolog_dev *d, size_t n)
{
	uint64_t *ids;
	const char *why = NULL;
	size_t i;

	if (n < 2)
		return NULL;
	ids = reallocarray(NULL, n, sizeof *ids);
	if (ids == NULL)
		return "out of memory";
	for (i = 0; i < n; i++)
		ids[i] = d[i].id;
	qsort(ids, n, sizeof *ids, cmp_u64);
	for (i = 1; i < n; i++)
		if (ids[i] == ids[i - 1])
			why = "duplicate device id in table";
	free(ids);
	return why;
}

const char *
iolog_decode_table(const uint8_t *p, size_t n, struct iolog_dev **dev,
    size_t *ndev)
{
	struct cursor c = { p, p + n, NULL };
	struct iolog_dev *d = NULL;
	const char *why;
	size_t i, count;

	*dev = NULL;
	*ndev = 0;
	count = (size_t)cursor_varint_max(&c, IOLOG_NDEV_MAX,
	    "too many devices");
	/* Each device takes at least 7 bytes of the body. */
	if (c.err == NULL && count > (size_t)(c.end - c.p) / 7)
		cursor_fail(&c, "device count exceeds frame");
	if (c.err == NULL && count > 0) {
		d = calloc(count, sizeof *d);
		if (d == NULL)
			return "out of memory";
	}
	for (i = 0; i < count && c.err == NULL; i++)
		get_dev(&c, &d[i]);
	why = done(&c);
	if (why == NULL)
		why = check_ids(d, count);
	if (why != NULL) {
		iolog_decode_devs_free(d, count);
		return why;
	}
	*dev = d;
	*ndev = count;
	return NULL;
}

void
iolog_decode_clock(struct cursor *c, struct iolog_clock *k)
{
	k->seq = cursor_varint(c);
	k->realtime_ns = cursor_varint(c);
	k->monotonic_ns = cursor_varint(c);
	k->boottime_ns = cursor_varint(c);
	k->read_ns = cursor_varint(c);
	k->flags = (uint32_t)cursor_varint_max(c, UINT32_MAX, "bad flags");
	k->missed = cursor_varint(c);
}

void
iolog_decode_fields(struct cursor *c, struct iolog_val *v)
{
	int f;

	v->mask = (uint32_t)cursor_varint_max(c, IOLOG_MASK_ALL,
	    "field mask out of range");
	for (f = 0; f < DS_FIELDS && c->err == NULL; f++)
		if (v->mask & (UINT32_C(1) << f))
			v->v[f] = cursor_varint(c);
}

const char *
iolog_decode_values(const uint8_t *p, size_t n, int type,
    struct iolog_clock *k, struct iolog_val *v, size_t ndev)
{
	struct cursor c = { p, p + n, NULL };
	size_t i;

	memset(k, 0, sizeof *k);
	iolog_decode_clock(&c, k);
	for (i = 0; i < ndev && c.err == NULL; i++) {
		memset(&v[i], 0, sizeof v[i]);
		if (c.p == c.end)
			return "device count mismatch (too few entries)";
		if (type == IOLOG_T_SAMPLE) {
			v[i].state = (uint8_t)cursor_varint_max(&c,
			    IOLOG_RESET, "unknown device state");
			if (v[i].state == IOLOG_ABSENT)
				continue;
		}
		iolog_decode_fields(&c, &v[i]);
	}
	if (c.err == NULL && c.p != c.end)
		return "device count mismatch (too many entries)";
	return c.err;
}
