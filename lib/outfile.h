/*
 * outfile: write an output file all at once or not at all, safely on a
 * system shared with other users.
 *
 * The data go to a temporary file in the target's directory, created
 * relative to the directory's descriptor (lib/safedir: no other user's
 * link is followed on the way) with O_EXCL | O_NOFOLLOW under a name
 * no one can guess, and renamed over the target only when every byte was
 * written and flushed: a failed run never leaves a partial file, nor
 * truncates an older one, and nothing is ever written through a link.
 * A target that exists and is not a regular file (a symbolic link, a
 * FIFO, a device, a directory) is refused before anything is written, and
 * so is one that is the census database or a file SQLite keeps beside it
 * (its -journal, -wal or -shm), whether that file exists yet or not.
 */
#ifndef IOCENSUS_OUTFILE_H
#define IOCENSUS_OUTFILE_H

#include <stddef.h>
#include <sys/stat.h>

struct outfile {
	char *path;	/* the destination, as given */
	char *name;	/* its name in dirfd */
	char *tmp;	/* the temporary's name in dirfd */
	int dirfd;
	int fd;
};

struct outfile_opts {
	/* Who may read the file. NULL: anyone the umask lets (mode 0666
	 * less the umask, as fopen gives). Else no more than this file (the
	 * database it was derived from) lets: its permission bits, and its
	 * group where this process may give it (else owner only). */
	const struct stat *like;
	/* NULL, or an SQLite database that must never be written over: it
	 * and its -wal, -shm and -journal files, whatever path or link
	 * names them (compared by device and inode; a side file that does
	 * not exist yet by its name in the database's directory). */
	const char *keep;
};

/* Open for writing; 0, or -1 with err ("PATH: reason"). opts may be NULL. */
int outfile_open(struct outfile *o, const char *path,
    const struct outfile_opts *opts, char *err, size_t errlen);
/* Write all of data; 0, or -1 with err. */
int outfile_write(struct outfile *o, const void *data, size_t len,
    char *err, size_t errlen);
/* Flush, close and rename into place; 0, or -1 with err (nothing left). */
int outfile_commit(struct outfile *o, char *err, size_t errlen);
/* Close and remove the temporary file (after a failure). */
void outfile_abort(struct outfile *o);

#endif
