/*
 * fuzz_frames: libFuzzer harness for the frame decoders (scripts/fuzz).
 * Random bytes rarely survive inflate and a CRC, so here the input is a
 * list of frame bodies (u16le length, then the body); the harness frames
 * them with correct CRCs into a gzip member and reads that back, which
 * takes the mutations straight to the H/T/K/S decoders and their checks.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "iolog/iolog.h"
#include "iobuf.h"

static void
le32(struct iobuf *b, uint32_t v)
{
	uint8_t p[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16),
	    (uint8_t)(v >> 24) };

	iobuf_add(b, p, 4);
}

/* The frames of data, uncompressed. */
static void
frames(const uint8_t *data, size_t size, struct iobuf *raw)
{
	size_t i = 0;

	while (size - i >= 2) {
		size_t n = (size_t)data[i] | (size_t)data[i + 1] << 8;

		i += 2;
		if (n > size - i)
			n = size - i;
		iobuf_varint(raw, n);
		iobuf_add(raw, data + i, n);
		le32(raw, (uint32_t)crc32(0, data + i, (uInt)n));
		i += n;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint8_t header[10] = { 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3 };
	struct iobuf raw = { 0 }, gz = { 0 };
	struct iolog_reader *r;
	struct iolog_event ev;
	uLong bound;
	z_stream zs;
	size_t i;
	volatile uint64_t sink = 0;

	frames(data, size, &raw);
	memset(&zs, 0, sizeof zs);
	if (raw.oom || deflateInit2(&zs, 1, Z_DEFLATED, -15, 8,
	    Z_DEFAULT_STRATEGY) != Z_OK)
		abort();
	bound = deflateBound(&zs, (uLong)raw.len);
	iobuf_add(&gz, header, sizeof header);
	if (iobuf_reserve(&gz, bound + 16) < 0)
		abort();
	zs.next_in = raw.p;
	zs.avail_in = (uInt)raw.len;
	zs.next_out = gz.p + gz.len;
	zs.avail_out = (uInt)bound;
	if (deflate(&zs, Z_FINISH) != Z_STREAM_END)
		abort();
	gz.len += bound - zs.avail_out;
	deflateEnd(&zs);
	le32(&gz, (uint32_t)crc32(0, raw.p, (uInt)raw.len));
	le32(&gz, (uint32_t)raw.len);

	r = iolog_reader_mem(gz.p, gz.len, "fuzz");
	while (r != NULL && iolog_next(r, &ev) > 0) {
		if (ev.type == IOLOG_EV_DAMAGE)
			continue;
		for (i = 0; i < ev.ndev; i++) {
			sink += strlen(ev.dev[i].name);
			if (ev.val != NULL)
				sink += ev.val[i].v[DS_FIELDS - 1] + ev.val[i].state;
		}
		if (ev.header != NULL)
			sink += strlen(ev.header->host);
	}
	iolog_reader_close(r);
	iobuf_free(&raw);
	iobuf_free(&gz);
	(void)sink;
	return 0;
}
