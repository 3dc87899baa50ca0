/*
 * fuzz_repair: libFuzzer harness for iolog_writer_open's repair of a torn
 * tail (scripts/fuzz). Whatever the input file holds, once the writer has
 * opened and closed it, the file must be the input cut somewhere, with at
 * most a 13-byte seal after it (repair in place: nothing else changes); its
 * frames must be the first frames the reader found in the input, in order
 * (in a log this writer wrote, all but at most the one a crash tore; in
 * other input, the cut is at the last flush point after a whole frame);
 * and opening it again must change nothing (the tail is clean, or, when
 * no frame is left, the file is refused untouched). A file with readable
 * frames is never refused.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "iolog/iolog.h"
#include "iolog/iolog_int.h"

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

/* The whole file at path, or NULL. */
static uint8_t *
slurp(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY);
	uint8_t *buf;

	if (fd < 0)
		return NULL;
	buf = iolog_read_slurp_fd(fd, len);
	close(fd);
	return buf;
}

/* Open and close the writer on path: the file afterwards, or NULL when
 * the writer refused it. */
static uint8_t *
open_close(const char *path, size_t *len)
{
	struct iolog_writer *w;
	char err[512];
	uint8_t *out;

	w = iolog_writer_open(path, NULL, err, sizeof err);
	if (w == NULL)
		return NULL;
	if (iolog_writer_close(w) < 0)
		abort();
	out = slurp(path, len);
	if (out == NULL)
		abort();
	return out;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[64];
	struct frames before, after;
	uint8_t *out, *again;
	size_t outlen, againlen, k;
	FILE *f;

	if (path[0] == '\0')
		snprintf(path, sizeof path, "/tmp/fuzz_repair.%d.iolog.gz",
		    (int)getpid());
	f = fopen(path, "wb");
	if (f == NULL || fwrite(data, 1, size, f) != size || fclose(f) != 0)
		abort();
	collect(data, size, &before);
	out = open_close(path, &outlen);
	if (out != NULL) {
		for (k = 0; k < outlen && k < size && out[k] == data[k]; k++)
			;
		if (outlen > size + 13 || (outlen > k && outlen - k > 13))
			abort();	/* more than a cut and a seal */
		collect(out, outlen, &after);
		if (after.n > before.n || after.len > before.len ||
		    (after.len && memcmp(after.buf, before.buf, after.len)))
			abort();	/* repair lost or changed a frame */
		again = open_close(path, &againlen);
		if (again == NULL && after.n == 0)	/* refused, untouched */
			again = slurp(path, &againlen);
		if (again == NULL || againlen != outlen ||
		    memcmp(again, out, outlen) != 0)
			abort();	/* the repaired tail was not clean */
		free(again);
		free(out);
		free(after.buf);
	} else if (before.n > 0) {
		abort();	/* refused a file with readable frames */
	}
	free(before.buf);
	unlink(path);
	return 0;
}
