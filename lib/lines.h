/*
 * lines: a file an administrator wrote, read line by line within bounds:
 * the rule files of fsscan --project (map:, gidmap:, projid), its
 * --limits file and iocensus --annotate. A larger file, a longer line
 * (newline excluded) or a NUL byte is an error, not a reason to fill
 * memory: a wrong name (map:/dev/zero, --limits /dev/zero) fails at once.
 * Every read is checked: a read that fails, or that ends before the size
 * a regular file had when opened, is an error, and the line it cut is
 * never used.
 */
#ifndef IOCENSUS_LINES_H
#define IOCENSUS_LINES_H

#include <stddef.h>

#define LINES_FILE_MAX	(64 << 20)
#define LINES_LINE_MAX	65536

/* One line, NUL-terminated, without its newline; lineno counts from 1.
 * 0 to go on, -1 to stop (the callback wrote its own message). */
typedef int (*lines_fn)(void *arg, char *line, int lineno);

struct lines_src {
	const char *file;	/* named in messages */
	const char *what;	/* prefix of messages ("map:FILE"), or NULL */
	const char *kind;	/* what the size bound is of: "a rule file" */
	int colon;		/* a line is "FILE:N:", else "FILE line N:",
				   as the caller's own messages have it */
	char *err;		/* messages: "WHAT: FILE line N: why" */
	size_t errlen;
};

/* Read the open fd, calling fn on each line. 0, or -1 with a message in
 * src->err (when fn stopped, its own). */
int lines_read(const struct lines_src *src, int fd, lines_fn fn, void *arg);

/* Open src->file and read it as lines_read does. -1 with a message when
 * it cannot be opened. */
int lines_read_path(const struct lines_src *src, lines_fn fn, void *arg);

#endif
