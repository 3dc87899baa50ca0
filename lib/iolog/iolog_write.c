/*
 * iolog_write: frames into gzip members on an O_APPEND file.
 *
 * Each frame is deflated and sync-flushed (full-flushed for keyframes); a
 * table or keyframe also starts on an empty dictionary, so that a reader
 * can resume there after damage. Its compressed bytes, with anything still
 * pending, go out in one write(2) under flock(LOCK_EX) (L1). Bytes that
 * could not be written stay in a bounded backlog and go out first next
 * time. When the backlog overflows, the member is given up: the file is cut
 * back to its last frame boundary on disk and sealed (empty final stored
 * block and trailer), so that the next member, which the caller starts with
 * a new header, stays readable. A torn tail found when the file was opened
 * (iolog_open.c) is cut and sealed the same way, before anything else is
 * written (L2): until that succeeds, frames wait in the backlog like any
 * others.
 *
 * A writer may also have no file (detached: its file was deleted, or cannot
 * be opened): frames then wait in the backlog until a file is attached. A
 * member none of whose bytes reached the old file moves to the new one
 * whole; one begun in the old file is finished there.
 */
#include "iolog_int.h"
#include "iolog_inflate_int.h"
#include "fdpath.h"

#include <assert.h>
#include <errno.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#define BACKLOG_DEFAULT (4u << 20)
#define NOWHERE SIZE_MAX
enum { MID_FLUSH = 1, MID_ENDED = 2 };
/* Level 6 (zlib's default) for H and T frames, which are small. P
 * frames, every sample but the hourly keyframe, are bit-packed already:
 * deflate would spend most of a sample's CPU on them for nothing, so they
 * go into stored blocks (level 0). The hourly K frame, all counters of all
 * devices, is deflated at level 1: at 1,000 devices it costs 20% less CPU
 * than level 6 for 0.1% more bytes in the day (docs/PERFORMANCE.md,
 * iostatmon). */
#define DEFLATE_LEVEL 6
#define PACKED_LEVEL 0
#define KEYFRAME_LEVEL 1

/* RFC 1952 header: deflate, no flags, no mtime, OS = Unix. */
static const uint8_t gzip_header[10] = {
	0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3
};
/* The final empty stored block that seals a sync-flushed stream. */
static const uint8_t final_block[5] = { 0x01, 0x00, 0x00, 0xff, 0xff };

struct iolog_writer {
	int fd;			/* -1: detached, frames wait in the backlog */
	int open_errno;		/* detached: why, what writes fail with */
	z_stream zs;
	int zinit;
	int member;		/* a member is open: deflate holds its state */
	int fresh;		/* the dictionary is empty (a full flush) */
	int level;		/* deflate's level now */
	uint32_t *scratch;	/* iolog_packed_encode's, scap entries */
	size_t scap;
	uint32_t crc, isize;	/* of the member's uncompressed bytes */
	struct iobuf body;	/* the frame being encoded */
	struct iobuf out;	/* compressed bytes not yet written: backlog */
	/* Where the open member's gzip header is in out, or NOWHERE once
	 * any byte of the member reached the file. */
	size_t hdr_pos;
	size_t backlog_max;
	uint64_t file_len;	/* file length as far as we wrote it */
	/* The last moment the backlog was empty: the file ended there at a
	 * frame boundary, inside a member (mid) or after one. */
	uint64_t sync_len;
	uint32_t sync_crc, sync_isize;
	int sync_mid;		/* 0, MID_FLUSH, or MID_ENDED: a repair's deflate
				 * stream that ended, its trailer missing */
	int seal_pending;	/* an abandoned member still to cut and seal */
};

struct iolog_writer *
iolog_writer_new(int fd, uint64_t file_len)
{
	struct iolog_writer *w = calloc(1, sizeof *w);

	if (w == NULL)
		return NULL;
	w->fd = fd;
	w->open_errno = EBADF;
	w->backlog_max = BACKLOG_DEFAULT;
	w->file_len = w->sync_len = file_len;
	w->hdr_pos = NOWHERE;
	return w;
}

void
iolog_writer_set_file(struct iolog_writer *w, int fd, uint64_t len,
    const struct inf_tail *tail)
{
	w->fd = fd;
	w->file_len = w->sync_len = len;
	w->sync_mid = 0;
	w->seal_pending = 0;
	if (tail->at != len || tail->kind != INF_TAIL_BETWEEN) {
		w->sync_len = tail->at;
		w->sync_crc = tail->crc;
		w->sync_isize = tail->isize;
		w->sync_mid = tail->kind == INF_TAIL_FLUSH ? MID_FLUSH :
		    tail->kind == INF_TAIL_TRAILER ? MID_ENDED : 0;
		w->seal_pending = 1;
	}
}

#ifndef NDEBUG
/* Does the backlog end at a frame boundary: a flush marker, which ends
 * every frame, or (no member open) a member's trailer (L1)? */
static int
at_boundary(const struct iolog_writer *w)
{
	static const uint8_t marker[4] = { 0x00, 0x00, 0xff, 0xff };

	return w->out.len == 0 || !w->member || (w->out.len >= sizeof marker &&
	    memcmp(w->out.p + w->out.len - sizeof marker, marker,
	    sizeof marker) == 0);
}
#endif

/* flock(LOCK_EX) through signals. */
static int
lock(int fd)
{
	int rc;

	while ((rc = flock(fd, LOCK_EX)) < 0 && errno == EINTR)
		;
	return rc;
}

static void
put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

/* The first n bytes of the backlog have reached the file. */
static void
consumed(struct iolog_writer *w, size_t n)
{
	iobuf_consume(&w->out, n);
	w->file_len += (uint64_t)n;
	if (w->hdr_pos != NOWHERE)
		w->hdr_pos = n > w->hdr_pos ? NOWHERE : w->hdr_pos - n;
}

/* Write the first n bytes of the backlog: one write(2) under the lock
 * when all goes well. 0, or -1 with errno. */
static int
put_out(struct iolog_writer *w, size_t n)
{
	size_t left = n;
	int err = 0;

	/* L2: nothing goes after a torn tail or a member given up until
	 * the file is cut back and sealed */
	assert(!w->seal_pending);
	if (n == 0)
		return 0;
	if (lock(w->fd) < 0)
		return -1;
	while (left > 0) {
		ssize_t k = write(w->fd, w->out.p, left);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			err = k < 0 ? errno : ENOSPC;
			break;
		}
		consumed(w, (size_t)k);
		left -= (size_t)k;
	}
	(void)flock(w->fd, LOCK_UN);
	errno = err;
	return left > 0 ? -1 : 0;
}

static int seal(struct iolog_writer *w);

/* Write the backlog, after the pending seal if any. */
static int
write_out(struct iolog_writer *w)
{
	if (w->fd < 0) {
		errno = w->open_errno;
		return w->out.len > 0 ? -1 : 0;
	}
	if (w->seal_pending && seal(w) < 0)
		return -1;
	assert(at_boundary(w));	/* L1: whole frames only */
	if (put_out(w, w->out.len) < 0)
		return -1;
	w->sync_len = w->file_len;
	w->sync_crc = w->crc;
	w->sync_isize = w->isize;
	w->sync_mid = w->member;
	return 0;
}

/* Deflate n bytes into the backlog with the given flush. */
static int
zput(struct iolog_writer *w, const void *p, size_t n, int flush)
{
	w->zs.next_in = (Bytef *)(uintptr_t)p;
	w->zs.avail_in = (uInt)n;
	do {
		size_t room;

		if (iobuf_reserve(&w->out, 4096 + n / 4) < 0) {
			errno = ENOMEM;
			return -1;
		}
		room = w->out.cap - w->out.len;
		w->zs.next_out = w->out.p + w->out.len;
		w->zs.avail_out = (uInt)(room > UINT32_MAX ? UINT32_MAX : room);
		room = w->zs.avail_out;
		if (deflate(&w->zs, flush) == Z_STREAM_ERROR) {
			errno = EIO;
			return -1;
		}
		w->out.len += room - w->zs.avail_out;
	} while (w->zs.avail_out == 0 || w->zs.avail_in > 0);
	if (p != NULL && n > 0) {
		w->crc = (uint32_t)crc32(w->crc, p, (uInt)n);
		w->isize += (uint32_t)n;
	}
	return 0;
}

static int
begin_member(struct iolog_writer *w)
{
	int rc;

	/* L2: a member begins after the last one ended or was given up */
	assert(!w->member);
	rc = w->zinit ? deflateReset(&w->zs) :
	    deflateInit2(&w->zs, DEFLATE_LEVEL, Z_DEFLATED, -15, 8,
	    Z_DEFAULT_STRATEGY);
	if (rc != Z_OK) {
		errno = ENOMEM;
		return -1;
	}
	if (!w->zinit)
		w->level = DEFLATE_LEVEL;	/* deflateReset keeps the level */
	w->zinit = 1;
	w->hdr_pos = w->out.len;
	iobuf_add(&w->out, gzip_header, sizeof gzip_header);
	w->crc = (uint32_t)crc32(0, NULL, 0);
	w->isize = 0;
	w->member = 1;
	w->fresh = 1;
	return 0;
}

/* Z_FINISH and the trailer into the backlog. */
static int
end_member(struct iolog_writer *w)
{
	uint8_t trailer[8];

	assert(w->member);	/* L2: only an open member ends */
	w->member = 0;
	w->hdr_pos = NOWHERE;
	if (zput(w, NULL, 0, Z_FINISH) < 0)
		return -1;
	put_le32(trailer, w->crc);
	put_le32(trailer + 4, w->isize);
	iobuf_add(&w->out, trailer, sizeof trailer);
	return w->out.oom ? -1 : 0;
}

/* Give up the open member: drop the backlog and remember to cut the file
 * back to its last frame boundary before anything else is written. */
static void
abandon(struct iolog_writer *w)
{
	w->out.len = 0;
	w->out.oom = 0;
	w->member = 0;
	w->hdr_pos = NOWHERE;
	w->seal_pending = w->fd >= 0;
}

/* Cut the file back to sync_len and, when that is inside a member, seal
 * the member there: an abandoned member, or the torn tail of a file just
 * opened. The lock keeps readers from seeing the file between the cut and
 * the seal. */
static int
seal(struct iolog_writer *w)
{
	uint8_t tail[sizeof final_block + 8];
	struct stat st;
	int rc = -1, err;

	/* L2: what is sealed is a torn tail or a member given up */
	assert(w->fd >= 0 && w->seal_pending);
	if (lock(w->fd) < 0)
		return -1;
	if (fstat(w->fd, &st) < 0)
		goto out;
	if ((uint64_t)st.st_size > w->sync_len &&
	    ftruncate(w->fd, (off_t)w->sync_len) < 0)
		goto out;
	w->file_len = w->sync_len;
	if (w->sync_mid) {
		size_t k = w->sync_mid == MID_FLUSH ? sizeof final_block : 0;
		ssize_t n;

		memcpy(tail, final_block, k);
		put_le32(tail + k, w->sync_crc);
		put_le32(tail + k + 4, w->sync_isize);
		n = write(w->fd, tail, k + 8);
		if (n != (ssize_t)(k + 8)) {
			int e = n < 0 ? errno : ENOSPC;

			if (ftruncate(w->fd, (off_t)w->sync_len) < 0)
				e = n < 0 ? e : errno;
			errno = e;
			goto out;
		}
		w->file_len += k + 8;
	}
	w->sync_len = w->file_len;
	w->sync_mid = 0;
	w->seal_pending = 0;
	rc = 0;
out:
	err = errno;
	(void)flock(w->fd, LOCK_UN);
	errno = err;
	return rc;
}

/* After a failed write: keep the backlog unless it is too big. */
static int
failed(struct iolog_writer *w)
{
	int err = errno;

	if (w->out.len > w->backlog_max || w->out.oom)
		abandon(w);
	errno = err;
	return -1;
}

/* Deflate the next frame at level. Called between frames, after a
 * flush, so nothing is pending and the change emits nothing. */
static int
set_level(struct iolog_writer *w, int level)
{
	uint8_t none[64];

	if (w->level == level)
		return 0;
	w->zs.next_out = none;
	w->zs.avail_out = sizeof none;
	if (deflateParams(&w->zs, level, Z_DEFAULT_STRATEGY) != Z_OK ||
	    w->zs.avail_out != sizeof none) {
		errno = EIO;
		return -1;
	}
	w->level = level;
	return 0;
}

/* The deflate level for a frame of type t. */
static int
frame_level(uint8_t t)
{
	if (t == IOLOG_T_PACKED)
		return PACKED_LEVEL;
	return t == IOLOG_T_KEYFRAME ? KEYFRAME_LEVEL : DEFLATE_LEVEL;
}

/* Frame a body (varint LEN | body | CRC32), deflate it and write. An 'H'
 * body starts a new member, finishing the open one. */
int
iolog_write_body(struct iolog_writer *w, const uint8_t *body, size_t len)
{
	uint8_t pre[VARINT_MAX], crc[4];
	int flush, starts_fresh;

	if (len == 0 || len > IOLOG_FRAME_MAX) {
		errno = EINVAL;
		return -1;
	}
	if (body[0] == IOLOG_T_HEADER) {
		if ((w->member && end_member(w) < 0) || begin_member(w) < 0)
			return failed(w);
	} else if (!w->member) {
		errno = EINVAL;		/* a member starts with a header */
		return -1;
	}
	put_le32(crc, (uint32_t)crc32(0, body, (uInt)len));
	flush = body[0] == IOLOG_T_KEYFRAME ? Z_FULL_FLUSH : Z_SYNC_FLUSH;
	starts_fresh = body[0] == IOLOG_T_KEYFRAME || body[0] == IOLOG_T_TABLE;
	if (set_level(w, frame_level(body[0])) < 0 ||
	    (starts_fresh && !w->fresh && zput(w, NULL, 0, Z_FULL_FLUSH) < 0) ||
	    zput(w, pre, varint_put(pre, len), Z_NO_FLUSH) < 0 ||
	    zput(w, body, len, Z_NO_FLUSH) < 0 ||
	    zput(w, crc, sizeof crc, flush) < 0) {
		w->out.oom = 1;		/* the stream is broken: give it up */
		return failed(w);
	}
	w->fresh = flush == Z_FULL_FLUSH;
	assert(at_boundary(w));	/* L1: the frame ends at a flush point */
	if (write_out(w) < 0)
		return failed(w);
	return 0;
}

/* Encode with enc into the body buffer, then write it. */
static int
write_encoded(struct iolog_writer *w, int rc)
{
	if (rc < 0)
		return -1;
	return iolog_write_body(w, w->body.p, w->body.len);
}

int
iolog_write_header(struct iolog_writer *w, const struct iolog_header *h)
{
	w->body.len = 0;
	return write_encoded(w, iolog_encode_header(&w->body, h));
}

int
iolog_write_table(struct iolog_writer *w, const struct iolog_dev *d,
    size_t n)
{
	w->body.len = 0;
	return write_encoded(w, iolog_encode_table(&w->body, d, n));
}

int
iolog_write_keyframe(struct iolog_writer *w, const struct iolog_clock *c,
    const struct iolog_val *v, size_t n)
{
	w->body.len = 0;
	return write_encoded(w, iolog_encode_values(&w->body, IOLOG_T_KEYFRAME,
	    c, v, n));
}

int
iolog_write_sample(struct iolog_writer *w, const struct iolog_clock *c,
    const struct iolog_val *v, size_t n)
{
	w->body.len = 0;
	if (n > w->scap) {
		uint32_t *p;

		if (n > IOLOG_NDEV_MAX) {	/* refused by the encoder */
			errno = EINVAL;
			return -1;
		}
		p = reallocarray(w->scratch, n, sizeof *p);
		if (p == NULL) {
			errno = ENOMEM;
			return -1;
		}
		w->scratch = p;
		w->scap = n;
	}
	return write_encoded(w, iolog_packed_encode(&w->body, c, v, n,
	    w->scratch));
}

int
iolog_writer_needs_header(const struct iolog_writer *w)
{
	return !w->member;
}

size_t
iolog_writer_backlog(const struct iolog_writer *w)
{
	return w->out.len;
}

void
iolog_writer_set_backlog_max(struct iolog_writer *w, size_t bytes)
{
	w->backlog_max = bytes;
}

int
iolog_writer_flush(struct iolog_writer *w)
{
	if ((w->out.len > 0 || w->seal_pending) && write_out(w) < 0)
		return failed(w);
	return 0;
}

int
iolog_writer_sync(struct iolog_writer *w)
{
	return w->fd < 0 ? 0 : fdatasync(w->fd);
}

enum fdpath
iolog_writer_at_path(const struct iolog_writer *w, const char *path)
{
	return fdpath_check(w->fd, path);
}

size_t
iolog_writer_detach(struct iolog_writer *w, int why)
{
	struct stat st;
	size_t keep = 0, old, dropped = 0;
	int gone;

	w->open_errno = why;
	if (w->fd < 0)
		return 0;
	gone = fstat(w->fd, &st) == 0 && st.st_nlink == 0;
	if (w->member && w->hdr_pos != NOWHERE)
		keep = w->out.len - w->hdr_pos;	/* moves to the next file */
	old = w->out.len - keep;
	if (w->member && w->hdr_pos == NOWHERE) {
		/* begun in this file: finished there, if it still exists */
		if (!gone && end_member(w) < 0)
			gone = 1;
		w->member = 0;
	}
	if (gone || (w->seal_pending && seal(w) < 0) ||
	    put_out(w, w->out.len - keep) < 0)
		dropped = old;
	iobuf_consume(&w->out, w->out.len - keep);
	w->out.oom = 0;
	w->hdr_pos = w->member ? 0 : NOWHERE;
	if (!gone)
		(void)fsync(w->fd);
	(void)close(w->fd);
	w->fd = -1;
	w->seal_pending = w->sync_mid = 0;
	w->file_len = w->sync_len = 0;
	return dropped;
}

int
iolog_writer_close(struct iolog_writer *w)
{
	int rc = 0, err = 0;

	if (w == NULL)
		return 0;
	if ((w->member && end_member(w) < 0) || write_out(w) < 0) {
		rc = -1;
		err = errno;
	}
	if (w->fd >= 0 && fsync(w->fd) < 0 && rc == 0) {
		rc = -1;
		err = errno;
	}
	if (w->fd >= 0 && close(w->fd) < 0 && rc == 0) {
		rc = -1;
		err = errno;
	}
	if (w->zinit)
		deflateEnd(&w->zs);
	iobuf_free(&w->body);
	iobuf_free(&w->out);
	free(w->scratch);
	free(w);
	errno = err;
	return rc;
}
