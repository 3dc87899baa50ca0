/*
 * iolog_open: attach a writer to a log file, repairing a torn tail in place.
 *
 * Appending a member after a torn one would make everything after it
 * unreadable to gzip. The file is read through the member layer
 * (iolog_inflate.c), which says where appending may start: the end of
 * the last whole member, or the last flush point after a whole frame of
 * an unfinished one. Anything after that point is the part of a write a
 * crash tore (or bytes no reader can use); the file is cut there and an
 * unfinished member is sealed with an empty final block and its trailer,
 * or given just its trailer when only that is missing (docs/iolog-format.md,
 * Writing). Nothing is copied: the repair writes
 * 13 bytes, so it works on a full disk, and when even that fails it waits,
 * with the frames written meanwhile, in the writer's backlog (L2). Damage
 * before the tail stays as it is: readers recover around it.
 */
#include "iolog_int.h"
#include "iolog_inflate_int.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "safefile.h"

/* Our own gzip header: a file that starts otherwise (or with less of it)
 * and yields no frame is not ours to cut. */
static const uint8_t our_header[10] = { 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3 };

/* Where the file in buf may be appended to. -1 when it is not an iolog
 * we may touch: no frame reads and it does not start as ours would, or
 * it is gzip whose data cannot be a log (a torn first write still can). */
static int
find_tail(const uint8_t *buf, size_t len, const char *path,
    struct inf_tail *t, char *err, size_t errlen)
{
	struct iolog_inflate f;
	struct inf_frame fr;
	enum inf_result r;
	size_t frames = 0;

	iolog_inflate_init(&f, buf, len);
	while ((r = iolog_inflate_next(&f, &fr)) != INF_END)
		frames += r == INF_FRAME;
	*t = f.tail;
	iolog_inflate_free(&f);
	if (frames == 0 && (memcmp(buf, our_header, len < sizeof our_header ?
	    len : sizeof our_header) != 0 ||
	    iolog_sniff(buf, len, 1) == IOLOG_FOREIGN)) {
		snprintf(err, errlen, "%s: not an iostatmon log (no readable "
		    "frame); refusing to append to it", path);
		errno = EINVAL;
		return -1;
	}
	return 0;
}

/* The file, created when missing, locked: never through a link, nor
 * anything but a regular file (lib/safefile). -1 with errno and a
 * message. */
static int
open_append(const char *path, char *err, size_t errlen)
{
	char why[PATH_MAX + 256];
	size_t n = strlen(path);
	int fd = safefile_open(path, O_RDWR | O_APPEND | O_CREAT, 0644, why,
	    sizeof why);
	int e = errno;

	if (fd < 0) {
		/* safefile's message is "PATH: why" */
		snprintf(err, errlen, "%s: cannot open for appending: %s",
		    path, strncmp(why, path, n) == 0 && why[n] == ':' ?
		    why + n + 2 : why);
	} else if (flock(fd, LOCK_EX) < 0 && (errno != EINTR ||
	    flock(fd, LOCK_EX) < 0)) {
		e = errno;
		snprintf(err, errlen, "%s: cannot lock: %s", path,
		    strerror(e));
		close(fd);
		fd = -1;
	}
	errno = e;
	return fd;
}

/* Where the file open on fd (locked, len bytes) may be appended to. */
static int
check(int fd, uint64_t len, const char *path, struct inf_tail *t,
    char *err, size_t errlen)
{
	uint8_t *buf;
	size_t n;
	int rc;

	*t = (struct inf_tail){ 0, INF_TAIL_BETWEEN, 0, 0 };
	if (len == 0)
		return 0;
	if ((buf = iolog_read_slurp_fd(fd, &n)) == NULL) {
		snprintf(err, errlen, "%s: cannot read: %s", path,
		    strerror(errno));
		return -1;
	}
	rc = find_tail(buf, n, path, t, err, errlen);
	if (rc == 0 && n != len)
		*t = (struct inf_tail){ len, INF_TAIL_BETWEEN, 0, 0 };
	free(buf);
	return rc;
}

int
iolog_writer_attach(struct iolog_writer *w, const char *path, int *repaired,
    char *err, size_t errlen)
{
	struct inf_tail t;
	struct stat st;
	int fd, e, dummy;

	if (repaired == NULL)
		repaired = &dummy;
	*repaired = 0;
	iolog_writer_detach(w, ENOENT);
	fd = open_append(path, err, errlen);
	if (fd < 0) {
		iolog_writer_detach(w, errno);
		return -1;
	}
	if (fstat(fd, &st) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		st.st_size = -1;
	}
	if (st.st_size < 0 || check(fd, (uint64_t)st.st_size, path, &t, err,
	    errlen) < 0) {
		e = errno;
		close(fd);
		iolog_writer_detach(w, e);
		errno = e;
		return -1;
	}
	iolog_writer_set_file(w, fd, (uint64_t)st.st_size, &t);
	(void)flock(fd, LOCK_UN);
	if (t.at != (uint64_t)st.st_size || t.kind != INF_TAIL_BETWEEN)
		*repaired = 1;	/* cut and sealed now, or with the backlog */
	if (iolog_writer_flush(w) < 0 && *repaired) {
		*repaired = 2;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
	}
	return 0;
}

struct iolog_writer *
iolog_writer_open(const char *path, int *repaired, char *err, size_t errlen)
{
	struct iolog_writer *w = iolog_writer_new(-1, 0);

	if (w == NULL) {
		snprintf(err, errlen, "%s: %s", path, strerror(ENOMEM));
		return NULL;
	}
	if (iolog_writer_attach(w, path, repaired, err, errlen) < 0) {
		int e = errno;

		iolog_writer_close(w);
		errno = e;
		return NULL;
	}
	return w;
}

struct iolog_writer *
iolog_writer_create(const char *path, char *err, size_t errlen)
{
	struct iolog_writer *w;
	int fd = safefile_open(path, O_RDWR | O_APPEND | O_CREAT | O_EXCL, 0644,
	    err, errlen);

	if (fd < 0)
		return NULL;
	if ((w = iolog_writer_new(fd, 0)) == NULL) {
		snprintf(err, errlen, "%s: %s", path, strerror(ENOMEM));
		close(fd);
		errno = ENOMEM;
	}
	return w;
}

struct iolog_writer *
iolog_writer_detached(void)
{
	return iolog_writer_new(-1, 0);
}
