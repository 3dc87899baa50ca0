/*
 * outfile: write an output file all at once or not at all. The data go to
 * a temporary file next to PATH, which is renamed over PATH only when
 * every byte was written and flushed, so a failed run never leaves a
 * partial report, nor truncates an older one. A PATH that exists and is
 * not a regular file (/dev/stdout, a FIFO) is written in place.
 */
#ifndef IOCENSUS_OUTFILE_H
#define IOCENSUS_OUTFILE_H

#include <stddef.h>

struct outfile {
	char *path;	/* the destination */
	char *tmp;	/* the temporary file, NULL when writing in place */
	int fd;
};

/* Open for writing; 0, or -1 with err ("PATH: reason"). */
int outfile_open(struct outfile *o, const char *path, char *err,
    size_t errlen);
/* Write all of data; 0, or -1 with err. */
int outfile_write(struct outfile *o, const void *data, size_t len,
    char *err, size_t errlen);
/* Flush, close and rename into place; 0, or -1 with err (nothing left). */
int outfile_commit(struct outfile *o, char *err, size_t errlen);
/* Close and remove the temporary file (after a failure). */
void outfile_abort(struct outfile *o);

#endif
