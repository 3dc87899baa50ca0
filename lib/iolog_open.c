/*
 * iolog_open: open a log for appending, repairing it first when needed.
 *
 * Appending a member after a torn or damaged one would make everything
 * after it unreadable to gzip, so the existing file is read through the
 * reader; if it reports any damage, every frame the reader delivered is
 * re-encoded into a temporary file (one member per header, as before),
 * which is fsynced and renamed over the original, except samples read
 * again after damage before a keyframe or table: their interval starts at
 * a sample the reader could not deliver, and the repaired member would
 * join them to the frames before the damage.
 */
#include "iolog_codec.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

/* Our own gzip header: a file that starts otherwise (or with less of it)
 * and yields no frame is not ours to rewrite. */
static const uint8_t our_header[10] = { 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3 };

/* Does the file need a rewrite? -1 when it is not an iolog we may touch. */
static int
check(const uint8_t *buf, size_t len, const char *path, char *err,
    size_t errlen)
{
	struct iolog_reader *r = iolog_reader_mem(buf, len, path);
	struct iolog_event ev;
	int damaged = 0, frames = 0;

	if (r == NULL) {
		snprintf(err, errlen, "%s: %s", path, strerror(ENOMEM));
		return -1;
	}
	while (iolog_next(r, &ev) > 0) {
		if (ev.type == IOLOG_EV_DAMAGE)
			damaged = 1;
		else
			frames++;
	}
	iolog_reader_close(r);
	if (damaged && frames == 0 && memcmp(buf, our_header,
	    len < sizeof our_header ? len : sizeof our_header) != 0) {
		snprintf(err, errlen, "%s: not an iostatmon log (no readable "
		    "frame); refusing to append to it", path);
		return -1;
	}
	return damaged;
}

/* Re-encode every good frame of buf into fd. */
static int
rewrite(const uint8_t *buf, size_t len, int fd, const char *path)
{
	struct iolog_reader *r = iolog_reader_mem(buf, len, path);
	struct iolog_writer *w = iolog_writer_new(fd, 0);
	struct iolog_event ev;
	const uint8_t *body;
	size_t n;
	int rc = 0, gap = 0;

	if (r == NULL || w == NULL) {
		iolog_reader_close(r);
		free(w);
		close(fd);
		errno = ENOMEM;
		return -1;
	}
	while (rc == 0 && iolog_next(r, &ev) > 0) {
		if (ev.type == IOLOG_EV_DAMAGE)
			gap = 1;
		if (ev.type == IOLOG_EV_DAMAGE ||
		    (gap && ev.type == IOLOG_EV_SAMPLE))
			continue;
		gap = 0;
		iolog_reader_frame(r, &body, &n);
		rc = iolog_write_body(w, body, n);
	}
	iolog_reader_close(r);
	if (iolog_writer_close(w) < 0)
		rc = -1;
	return rc;
}

static void
sync_dir(const char *path)
{
	char *copy = strdup(path);
	int fd;

	if (copy == NULL)
		return;
	fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		(void)fsync(fd);
		close(fd);
	}
	free(copy);
}

/* Rewrite path from buf through a temporary file and rename. */
static int
repair(const char *path, const uint8_t *buf, size_t len, mode_t mode,
    char *err, size_t errlen)
{
	char tmp[4096];
	int fd;

	if (snprintf(tmp, sizeof tmp, "%s.repair-XXXXXX", path) >=
	    (int)sizeof tmp) {
		snprintf(err, errlen, "%s: path too long", path);
		return -1;
	}
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "%s: cannot create %s for the repair: %s",
		    path, tmp, strerror(errno));
		return -1;
	}
	(void)fchmod(fd, mode & 07777);
	if (rewrite(buf, len, fd, path) < 0 || rename(tmp, path) < 0) {
		snprintf(err, errlen, "%s: cannot rewrite without its damaged "
		    "tail: %s", path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	sync_dir(path);
	return 0;
}

static int
open_append(const char *path, char *err, size_t errlen)
{
	int fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0644);

	if (fd < 0)
		snprintf(err, errlen, "%s: cannot open for appending: %s",
		    path, strerror(errno));
	else if (flock(fd, LOCK_EX) < 0 && (errno != EINTR || flock(fd, LOCK_EX) < 0)) {
		snprintf(err, errlen, "%s: cannot lock: %s", path,
		    strerror(errno));
		close(fd);
		fd = -1;
	}
	return fd;
}

/* Check and, when damaged, repair the file open on fd (locked). Returns
 * the descriptor to append to: fd, or a new one after a repair. */
static int
check_and_repair(const char *path, int fd, int *repaired, char *err,
    size_t errlen)
{
	struct stat st;
	uint8_t *buf;
	size_t len;
	int bad;

	if (fstat(fd, &st) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		goto fail;
	}
	if (st.st_size == 0)
		return fd;
	buf = iolog_slurp(path, &len, err, errlen);
	if (buf == NULL)
		goto fail;
	bad = check(buf, len, path, err, errlen);
	if (bad > 0 && repair(path, buf, len, st.st_mode, err, errlen) == 0) {
		*repaired = 1;
		close(fd);	/* the lock goes with the old inode */
		fd = open_append(path, err, errlen);
	} else if (bad != 0) {
		bad = -1;
	}
	free(buf);
	if (bad < 0 || fd < 0)
		goto fail;
	return fd;
fail:
	if (fd >= 0)
		close(fd);
	return -1;
}

struct iolog_writer *
iolog_writer_open(const char *path, int *repaired, char *err, size_t errlen)
{
	struct iolog_writer *w;
	struct stat st;
	int fd, dummy = 0;

	if (repaired == NULL)
		repaired = &dummy;
	*repaired = 0;
	fd = open_append(path, err, errlen);
	if (fd < 0)
		return NULL;
	fd = check_and_repair(path, fd, repaired, err, errlen);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) < 0 ||
	    (w = iolog_writer_new(fd, (uint64_t)st.st_size)) == NULL) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		close(fd);
		return NULL;
	}
	(void)flock(fd, LOCK_UN);
	return w;
}
