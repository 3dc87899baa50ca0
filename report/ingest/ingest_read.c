/*
 * ingest_read: a log's bytes into memory, for the decoder (which wants
 * the whole input at once; logs are a few MB a day), from a file or,
 * block by block, from an archive member (ingest_archive.c).
 *
 * Three things keep one odd input from costing the whole ingest:
 *  - a run of zero bytes longer than ZERO_KEEP (a file system's
 *    zero-filled tail after a crash, a preallocated or sparse file, a
 *    member padded with zeros) is held as a count and written out only if
 *    data follows it, so a 3 GB tail of zeros behind a few KB of log
 *    costs no memory; the bytes kept still end in ZERO_KEEP zeros, so the
 *    reader sees the same damage at the same offset;
 *  - an archive member is held up to a limit (struct hold.max): a small
 *    archive can expand without bound, and what it expands to is read
 *    no further than that (the caller reports it, the part read is
 *    decoded);
 *  - memory that cannot be had fails this source (ENOMEM), not the run.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ingest_int.h"

#define READ_CHUNK	(1u << 20)
#define FIRST_CAP_MAX	((size_t)64 << 20)
#define ZERO_KEEP	((size_t)64 << 10)

/* Room for n more bytes after s->len, within h->max; -1 with errno
 * ENOMEM, or EFBIG past the limit. */
static int
reserve(struct src *s, struct hold *h, size_t n)
{
	size_t want = h->cap;
	uint8_t *p;

	if (n > h->max || s->len > h->max - n) {
		errno = EFBIG;
		return -1;
	}
	if (s->len + n <= h->cap && s->buf != NULL)
		return 0;
	if (want == 0)			/* the first: as asked */
		want = s->len + n;
	while (want < s->len + n) {
		if (want > SIZE_MAX / 2) {
			errno = ENOMEM;
			return -1;
		}
		want *= 2;
	}
	if (want > h->max)
		want = h->max;
	if ((p = realloc(s->buf, want)) == NULL) {
		errno = ENOMEM;
		return -1;
	}
	s->buf = p;
	h->cap = want;
	return 0;
}

static size_t
trailing_zeros(const uint8_t *p, size_t n)
{
	size_t z = 0;

	/* all zeros (the usual block of a long run): memcmp's speed */
	if (n > 0 && p[0] == 0 && memcmp(p, p + 1, n - 1) == 0)
		return n;
	while (z < n && p[n - 1 - z] == 0)
		z++;
	return z;
}

int
ingest_read_start(struct src *s, struct hold *h, uint64_t size_hint,
    size_t max)
{
	size_t first = size_hint > 0 && size_hint < FIRST_CAP_MAX ?
	    (size_t)size_hint + 1 : size_hint > 0 ? FIRST_CAP_MAX : 65536;

	memset(h, 0, sizeof *h);
	h->max = max;
	s->len = 0;
	return reserve(s, h, first < max ? first : max);
}

uint64_t
ingest_read_pos(const struct src *s, const struct hold *h)
{
	return (uint64_t)s->len + h->held;
}

/* Write the held zeros out: data follows them. */
static int
spill(struct src *s, struct hold *h)
{
	if (h->held == 0)
		return 0;
	if (h->held > SIZE_MAX || reserve(s, h, (size_t)h->held) < 0) {
		if (errno != ENOMEM)
			errno = EFBIG;
		return -1;
	}
	memset(s->buf + s->len, 0, (size_t)h->held);
	s->len += (size_t)h->held;
	h->held = 0;
	return 0;
}

int
ingest_read_zeros(struct src *s, struct hold *h, uint64_t n)
{
	if (h->held == 0 && h->run < ZERO_KEEP) {
		size_t k = ZERO_KEEP - h->run;

		if (n < k)
			k = (size_t)n;
		if (reserve(s, h, k) < 0)
			return -1;
		memset(s->buf + s->len, 0, k);
		s->len += k;
		h->run += k;
		n -= k;
	}
	h->held += n;
	return 0;
}

int
ingest_read_add(struct src *s, struct hold *h, const void *p, size_t n)
{
	size_t z = trailing_zeros(p, n), room;

	if (z == n)
		return ingest_read_zeros(s, h, n);
	if (spill(s, h) < 0)
		return -1;
	if (reserve(s, h, n) < 0) {
		if (errno != EFBIG)
			return -1;
		/* As much as the limit allows: the part before it is read. */
		room = h->max - s->len;
		memcpy(s->buf + s->len, p, room);
		s->len += room;
		errno = EFBIG;
		return -1;
	}
	memcpy(s->buf + s->len, p, n);
	s->len += n;
	h->run = z;
	if (h->run > ZERO_KEEP) {	/* hold the excess as a count */
		h->held = h->run - ZERO_KEEP;
		s->len -= (size_t)h->held;
		h->run = ZERO_KEEP;
	}
	return 0;
}

int
ingest_read_file(struct src *s)
{
	struct stat st;
	struct hold h;
	uint8_t *chunk;
	ssize_t got;
	int rc = -1;

	if (fstat(s->fd, &st) < 0 || ingest_read_start(s, &h,
	    st.st_size > 0 ? (uint64_t)st.st_size : 0, SIZE_MAX) < 0)
		return -1;
	if ((chunk = malloc(READ_CHUNK)) == NULL) {
		errno = ENOMEM;
		return -1;
	}
	for (;;) {
		got = read(s->fd, chunk, READ_CHUNK);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			rc = got == 0 ? 0 : -1;
			break;
		}
		if (ingest_read_add(s, &h, chunk, (size_t)got) < 0)
			break;
	}
	free(chunk);
	return rc;
}
