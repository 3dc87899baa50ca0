/*
 * outfile: all-or-nothing output files (outfile.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outfile.h"
#include "xalloc.h"

static int
fail(struct outfile *o, int e, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: %s", o->path, strerror(e));
	outfile_abort(o);
	return -1;
}

/* PATH.tmp.PID[.N], created exclusively (mode 0666 less the umask, as
 * a plain fopen would give the file). */
static int
open_tmp(struct outfile *o)
{
	size_t len = strlen(o->path) + 48;

	o->tmp = xmalloc(len);
	for (int n = 0; n < 100; n++) {
		snprintf(o->tmp, len, n ? "%s.tmp.%ld.%d" : "%s.tmp.%ld",
		    o->path, (long)getpid(), n);
		o->fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
		    0666);
		if (o->fd >= 0 || errno != EEXIST)
			break;
	}
	return o->fd;
}

int
outfile_open(struct outfile *o, const char *path, char *err, size_t errlen)
{
	struct stat st;

	o->path = xstrdup(path);
	o->tmp = NULL;
	o->fd = -1;
	if (stat(path, &st) < 0 || S_ISREG(st.st_mode))
		open_tmp(o);
	else if (S_ISDIR(st.st_mode))
		return fail(o, EISDIR, err, errlen);
	else
		o->fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	return o->fd < 0 ? fail(o, errno, err, errlen) : 0;
}

int
outfile_write(struct outfile *o, const void *data, size_t len, char *err,
    size_t errlen)
{
	const char *p = data;

	while (len > 0) {
		ssize_t n = write(o->fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return fail(o, n < 0 ? errno : EIO, err, errlen);
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int
outfile_commit(struct outfile *o, char *err, size_t errlen)
{
	int fd = o->fd;

	o->fd = -1;
	if (o->tmp && fsync(fd) < 0) {
		o->fd = fd;
		return fail(o, errno, err, errlen);
	}
	if (close(fd) < 0 || (o->tmp && rename(o->tmp, o->path) < 0))
		return fail(o, errno, err, errlen);
	free(o->tmp);
	o->tmp = NULL;
	outfile_abort(o);
	return 0;
}

void
outfile_abort(struct outfile *o)
{
	int e = errno;

	if (o->fd >= 0)
		close(o->fd);
	o->fd = -1;
	if (o->tmp)
		unlink(o->tmp);
	free(o->tmp);
	free(o->path);
	o->tmp = o->path = NULL;
	errno = e;
}
