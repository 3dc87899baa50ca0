/*
 * lines: bounded line-by-line reading of an administrator's file
 * (lines.h).
 */
#include "lines.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "xalloc.h"

/* "WHAT: " then the message, into src->err. */
static int
fail(const struct lines_src *src, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int
fail(const struct lines_src *src, const char *fmt, ...)
{
	va_list ap;
	int n = 0;

	if (src->err == NULL || src->errlen == 0)
		return -1;
	if (src->what)
		n = snprintf(src->err, src->errlen, "%s: ", src->what);
	if (n < 0 || (size_t)n >= src->errlen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(src->err + n, src->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

/* The bytes of one read into the line being built, calling fn at each
 * newline. 0, or -1. */
static int
take(const struct lines_src *src, const char *chunk, size_t n, char *line,
    size_t *len, int *lineno, lines_fn fn, void *arg)
{
	for (size_t i = 0; i < n; i++) {
		if (chunk[i] == '\n') {
			line[*len] = '\0';
			*len = 0;
			if (fn(arg, line, (*lineno)++) < 0)
				return -1;
		} else if (chunk[i] == '\0') {
			return fail(src, "%s%s%d: holds a NUL byte",
			    src->file, src->colon ? ":" : " line ", *lineno);
		} else if (*len == LINES_LINE_MAX) {
			return fail(src, "%s%s%d: longer than %d bytes, the"
			    " limit of a line", src->file, src->colon ? ":" :
			    " line ", *lineno, LINES_LINE_MAX);
		} else {
			line[(*len)++] = chunk[i];
		}
	}
	return 0;
}

int
lines_read(const struct lines_src *src, int fd, lines_fn fn, void *arg)
{
	struct stat st;
	char *line = xmalloc(LINES_LINE_MAX + 1), chunk[65536];
	size_t len = 0, total = 0;
	int lineno = 1, rc = 0;
	ssize_t n;

	if (fstat(fd, &st) < 0)
		st.st_mode = 0;
	while (rc == 0 && (n = read(fd, chunk, sizeof chunk)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rc = fail(src, "reading %s: %s (after %zu bytes)",
			    src->file, strerror(errno), total);
			break;
		}
		if ((total += (size_t)n) > LINES_FILE_MAX) {
			rc = fail(src, "%s is larger than %d MiB, the limit of"
			    " %s", src->file, LINES_FILE_MAX >> 20, src->kind);
			break;
		}
		rc = take(src, chunk, (size_t)n, line, &len, &lineno, fn, arg);
	}
	if (rc == 0 && S_ISREG(st.st_mode) && total < (size_t)st.st_size)
		rc = fail(src, "reading %s: it ended after %zu of its %lld"
		    " bytes", src->file, total, (long long)st.st_size);
	if (rc == 0 && len > 0) {	/* a last line without a newline */
		line[len] = '\0';
		rc = fn(arg, line, lineno);
	}
	free(line);
	return rc;
}

int
lines_read_path(const struct lines_src *src, lines_fn fn, void *arg)
{
	int fd = open(src->file, O_RDONLY | O_CLOEXEC), rc;

	if (fd < 0)
		return fail(src, "cannot open %s: %s", src->file,
		    strerror(errno));
	rc = lines_read(src, fd, fn, arg);
	close(fd);
	return rc;
}
