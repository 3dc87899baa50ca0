/*
 * dsread: reading /proc/diskstats cheaply and exactly once per sample.
 * See dsread.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "dsread.h"
#include "xalloc.h"

int
dsread_open(struct dsread *r, const char *proc, char *err, size_t len)
{
	struct statfs sf;

	memset(r, 0, sizeof *r);
	snprintf(r->path, sizeof r->path, "%s/diskstats", proc);
	r->fd = open(r->path, O_RDONLY | O_CLOEXEC);
	if (r->fd < 0) {
		snprintf(err, len, "%s: cannot open: %s", r->path,
		    strerror(errno));
		return -1;
	}
	r->reopen = fstatfs(r->fd, &sf) < 0 || sf.f_type != PROC_SUPER_MAGIC;
	r->cap = 16384;
	r->buf = xmalloc(r->cap);
	return 0;
}

void
dsread_close(struct dsread *r)
{
	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
	free(r->buf);
	r->buf = NULL;
}

ssize_t
dsread_read(struct dsread *r, char *err, size_t len)
{
	ssize_t n;

	if (r->reopen) {
		int fd = open(r->path, O_RDONLY | O_CLOEXEC);

		if (fd < 0) {
			snprintf(err, len, "%s: cannot open: %s", r->path,
			    strerror(errno));
			return -1;
		}
		close(r->fd);
		r->fd = fd;
	}
	for (;;) {
		n = pread(r->fd, r->buf, r->cap, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			snprintf(err, len, "%s: cannot read: %s", r->path,
			    strerror(errno));
			return -1;
		}
		if ((size_t)n < r->cap)
			return n;
		r->cap *= 2;	/* it filled the buffer: maybe cut short */
		r->buf = xrealloc(r->buf, r->cap);
	}
}

int
dsread_table(struct dsread *r, struct ds_table *t, char *err, size_t len)
{
	ssize_t n = dsread_read(r, err, len);

	if (n < 0)
		return -1;
	diskstats_parse_all(r->buf, (size_t)n, t);
	if (t->n > 0)
		return 0;
	if (t->bad == 0)
		snprintf(err, len, "%s: empty: no device to sample", r->path);
	else
		snprintf(err, len, "%s: not a diskstats file: no line of it "
		    "(%zu) is a diskstats line", r->path, t->bad);
	return -1;
}

void
dsread_boot_id(const char *proc, char *buf, size_t len, char *err,
    size_t errlen)
{
	char path[PATH_MAX];
	FILE *f;

	buf[0] = '\0';
	err[0] = '\0';
	snprintf(path, sizeof path, "%s/sys/kernel/random/boot_id", proc);
	f = fopen(path, "re");
	if (f == NULL) {
		snprintf(err, errlen, "%s: cannot open: %s", path,
		    strerror(errno));
		return;
	}
	if (fgets(buf, (int)len, f) == NULL) {
		snprintf(err, errlen, "%s: empty or unreadable", path);
		buf[0] = '\0';
	}
	buf[strcspn(buf, "\r\n")] = '\0';
	fclose(f);
}
