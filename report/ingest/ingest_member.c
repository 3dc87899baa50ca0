/*
 * ingest_member: the regular member an archive is at, as a stream of its
 * bytes (a hole of a sparse member reads as zeros).
 *
 * An archive can expand without bound (a few KB of zstd or xz make
 * gigabytes of zeros), so a member is never taken whole before it is
 * known what it is: its first bytes are read ahead and kept, and then it
 * is either skipped, walked as an archive through this stream (block by
 * block, never in memory), or held for a decoder through struct hold
 * (ingest_read.c), whose zero runs cost nothing and whose size is
 * capped. While a member is probed as an archive everything handed out
 * is kept as well, so that one that turns out not to be an archive still
 * goes to a decoder whole.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ingest_int.h"

#define ZEROS 65536

static const uint8_t zeros[ZEROS];

void
ingest_member_init(struct member *m, struct archive *a)
{
	memset(m, 0, sizeof *m);
	m->a = a;
	m->keep = 1;
}

void
ingest_member_free(struct member *m)
{
	free(m->buf);
	m->buf = NULL;
	m->len = m->cap = m->at = 0;
}

/* The next block from the archive into blk (and the hole before it):
 * 1, 0 at the member's end, -1 when the archive fails inside it. */
static int
pull(struct member *m)
{
	const void *b;
	size_t n;
	la_int64_t off;
	int r;

	while (!m->eof && m->rc >= 0) {
		r = archive_read_data_block(m->a, &b, &n, &off);
		if (r == ARCHIVE_EOF) {
			m->eof = 1;
			break;
		}
		if (r != ARCHIVE_OK && r != ARCHIVE_WARN) {
			m->rc = -1;
			break;
		}
		if (r == ARCHIVE_WARN)	/* a zip member's bad CRC or size: */
			m->rc = 1;	/* damage, and the archive goes on */
		if (n == 0)
			continue;
		if (off < m->pos) {	/* blocks only go forward */
			m->rc = -1;
			break;
		}
		m->blk = b;
		m->blklen = n;
		m->hole = (uint64_t)(off - m->pos);
		return 1;
	}
	return m->rc < 0 ? -1 : 0;
}

/* Up to max bytes of the member: zeros of a hole, else data. 1, 0 at
 * the end, -1 failed. */
static int
take(struct member *m, size_t max, const uint8_t **p, size_t *n)
{
	int r;

	if (m->hole == 0 && m->blklen == 0 && (r = pull(m)) <= 0)
		return r;
	if (m->hole > 0) {
		*p = zeros;
		*n = m->hole < ZEROS ? (size_t)m->hole : ZEROS;
		m->hole -= *n;
	} else {
		*p = m->blk;
		*n = m->blklen;
		m->blk += *n;
		m->blklen = 0;
	}
	if (*n > max) {		/* give the rest back */
		if (*p == zeros)
			m->hole += *n - max;
		else {
			m->blk -= *n - max;
			m->blklen = *n - max;
		}
		*n = max;
	}
	m->pos += (int64_t)*n;
	return 1;
}

/* Keep p[0 .. n) after the kept bytes; beyond MEMBER_KEEP_MAX nothing
 * more is kept and the member cannot be handed out again. */
static int
keep(struct member *m, const uint8_t *p, size_t n)
{
	if (m->lost || m->len + n > MEMBER_KEEP_MAX) {
		m->lost = 1;
		return -1;
	}
	if (m->len + n > m->cap) {
		size_t cap = m->cap ? m->cap : 4096;
		uint8_t *b;

		while (cap < m->len + n)
			cap *= 2;
		if ((b = realloc(m->buf, cap)) == NULL) {
			m->lost = 1;
			return -1;
		}
		m->buf = b;
		m->cap = cap;
	}
	memcpy(m->buf + m->len, p, n);
	m->len += n;
	return 0;
}

int
ingest_member_ahead(struct member *m, size_t want)
{
	const uint8_t *p;
	size_t n;
	int r;

	while (m->len < want && (r = take(m, want - m->len, &p, &n)) > 0)
		if (keep(m, p, n) < 0)
			return -1;
	return m->rc < 0 ? -1 : 0;
}

int
ingest_member_ended(const struct member *m)
{
	return m->eof && m->hole == 0 && m->blklen == 0;
}

la_ssize_t
ingest_member_read(struct archive *a, void *arg, const void **buf)
{
	struct member *m = arg;
	const uint8_t *p;
	size_t n;
	int r;

	if (m->at < m->len) {		/* what was read ahead, first */
		*buf = m->buf + m->at;
		n = m->len - m->at;
		m->at = m->len;
		return (la_ssize_t)n;
	}
	if (!m->keep)		/* the reader is done with the kept bytes */
		ingest_member_free(m);
	if ((r = take(m, ZEROS, &p, &n)) <= 0) {
		if (r < 0 && a != NULL)
			archive_set_error(a, EIO, "the archive holding it "
			    "breaks off");
		return r < 0 ? ARCHIVE_FATAL : 0;
	}
	if (m->keep && keep(m, p, n) == 0) {
		p = m->buf + m->at;
		m->at = m->len;
	}
	*buf = p;
	return (la_ssize_t)n;
}

void
ingest_member_unkept(struct member *m)
{
	m->keep = 0;
}

enum member_end
ingest_member_hold(struct member *m, struct src *s, uint64_t size_hint,
    size_t max)
{
	struct hold h;
	const uint8_t *p;
	size_t n;
	int r;

	if (m->lost)
		return MEMBER_LOST;
	if (ingest_read_start(s, &h, size_hint, max) < 0 ||
	    (m->len > 0 && ingest_read_add(s, &h, m->buf, m->len) < 0))
		goto full;
	m->keep = 0;
	ingest_member_free(m);
	for (;;) {
		if (m->hole > 0) {	/* a hole costs a count, not zeros */
			uint64_t z = m->hole;

			m->hole = 0;
			m->pos += (int64_t)z;
			if (ingest_read_zeros(s, &h, z) < 0)
				goto full;
			continue;
		}
		if ((r = take(m, SIZE_MAX, &p, &n)) <= 0)
			return r < 0 ? MEMBER_BROKEN : MEMBER_WHOLE;
		if (ingest_read_add(s, &h, p, n) < 0)
			goto full;
	}
full:
	m->held_at = ingest_read_pos(s, &h);
	return errno == EFBIG ? MEMBER_OVER : MEMBER_NOMEM;
}
