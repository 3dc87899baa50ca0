/*
 * fuzz_repair: libFuzzer harness for iolog_writer_open's repair
 * (scripts/fuzz). Whatever the input file holds, once the writer has
 * opened it, the file must read without damage and hold exactly the frames
 * the reader found in the input, in order, but samples read after damage
 * before the next header, table or keyframe (docs/iolog-format.md, repair):
 * repair loses nothing good.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "iolog.h"
#include "iolog_codec.h"

struct frames {
	uint8_t *buf;
	size_t len, n;
	int damage;
};

/* Every frame body of a log, concatenated with its length. */
static void
collect(const void *data, size_t size, struct frames *f)
{
	struct iolog_reader *r = iolog_reader_mem(data, size, "fuzz");
	struct iolog_event ev;
	const uint8_t *body;
	size_t n;
	int gap = 0;

	memset(f, 0, sizeof *f);
	while (iolog_next(r, &ev) > 0) {
		if (ev.type == IOLOG_EV_DAMAGE) {
			f->damage = gap = 1;
			continue;
		}
		if (gap && ev.type == IOLOG_EV_SAMPLE)
			continue;
		gap = 0;
		iolog_reader_frame(r, &body, &n);
		f->buf = realloc(f->buf, f->len + n + sizeof n);
		memcpy(f->buf + f->len, &n, sizeof n);
		memcpy(f->buf + f->len + sizeof n, body, n);
		f->len += n + sizeof n;
		f->n++;
	}
	iolog_reader_close(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[64];
	struct frames before, after;
	struct iolog_writer *w;
	char err[512];
	uint8_t *out;
	size_t outlen;
	FILE *f;

	if (path[0] == '\0')
		snprintf(path, sizeof path, "/tmp/fuzz_repair.%d.iolog.gz",
		    (int)getpid());
	f = fopen(path, "wb");
	if (f == NULL || fwrite(data, 1, size, f) != size || fclose(f) != 0)
		abort();
	collect(data, size, &before);
	w = iolog_writer_open(path, NULL, err, sizeof err);
	if (w != NULL) {
		if (iolog_writer_close(w) < 0)
			abort();
		out = iolog_slurp(path, &outlen, err, sizeof err);
		if (out == NULL)
			abort();
		collect(out, outlen, &after);
		if (after.damage || after.n != before.n ||
		    after.len != before.len ||
		    (after.len && memcmp(after.buf, before.buf, after.len)))
			abort();	/* repair lost or changed a frame */
		free(out);
		free(after.buf);
	} else if (before.n > 0) {
		abort();	/* refused a file with readable frames */
	}
	free(before.buf);
	unlink(path);
	return 0;
}
