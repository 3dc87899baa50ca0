/*
 * ingest_read: a log file's bytes into memory, for the decoder (which
 * wants the whole input at once; logs are a few MB a day).
 *
 * Two things keep one odd file from costing the whole ingest:
 *  - a run of zero bytes longer than ZERO_KEEP (a file system's
 *    zero-filled tail after a crash, a preallocated or sparse file) is
 *    held as a count and written out only if data follows it, so a 3 GB
 *    tail of zeros behind a few KB of log costs no memory; the bytes kept
 *    still end in ZERO_KEEP zeros, so the reader sees the same damage at
 *    the same offset;
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

/* Room for n more bytes after s->len; -1 (ENOMEM) if none. */
static int
reserve(struct src *s, size_t *cap, size_t n)
{
	size_t want = *cap;
	uint8_t *p;

	if (s->len + n <= *cap)
		return 0;
	while (want < s->len + n) {
		if (want > SIZE_MAX / 2) {
			errno = ENOMEM;
			return -1;
		}
		want *= 2;
	}
	if ((p = realloc(s->buf, want)) == NULL) {
		errno = ENOMEM;
		return -1;
	}
	s->buf = p;
	*cap = want;
	return 0;
}

static size_t
trailing_zeros(const uint8_t *p, size_t n)
{
	size_t z = 0;

	while (z < n && p[n - 1 - z] == 0)
		z++;
	return z;
}

int
ingest_read_file(struct src *s)
{
	struct stat st;
	size_t cap, run = 0;	/* run: zeros at the end of the stored bytes */
	uint64_t held = 0;	/* zeros read after them, not stored */
	ssize_t got;

	if (fstat(s->fd, &st) < 0)
		return -1;
	cap = st.st_size > 0 && (uint64_t)st.st_size < FIRST_CAP_MAX ?
	    (size_t)st.st_size + 1 : st.st_size > 0 ? FIRST_CAP_MAX : 65536;
	if ((s->buf = malloc(cap)) == NULL) {
		errno = ENOMEM;
		return -1;
	}
	s->len = 0;
	for (;;) {
		if (s->len == cap && reserve(s, &cap, READ_CHUNK) < 0)
			return -1;
		got = read(s->fd, s->buf + s->len, cap - s->len < READ_CHUNK ?
		    cap - s->len : READ_CHUNK);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return -1;
		if (got == 0)
			return 0;
		size_t n = (size_t)got, z = trailing_zeros(s->buf + s->len, n);
		if (held > 0 &&
		    z == n) {		/* more of the held run */
			held += n;
			continue;
		}
		if (held > 0) {		/* data after the run: write it out */
			if (held > SIZE_MAX - n || reserve(s, &cap,
			    held + n) < 0) {
				errno = ENOMEM;
				return -1;
			}
			memmove(s->buf + s->len + held, s->buf + s->len, n);
			memset(s->buf + s->len, 0, held);
			s->len += held;
			held = 0;
			run = 0;
		}
		run = z == n ? run + n : z;
		s->len += n;
		if (run > ZERO_KEEP) {		/* hold the excess as a count */
			held = run - ZERO_KEEP;
			s->len -= held;
			run = ZERO_KEEP;
		}
	}
}
