/*
 * daemon_logcheck: the open log is still the file at its path.
 *
 * After `rm` of today's log, or `rm -rf` of the log directory, writes
 * still succeed, into an inode nothing names: every sample would be
 * reported written and none kept. So before each sample the daemon
 * compares the open file with its path (link count, then dev and inode),
 * and after it, so that no sample it reports written went into a file
 * without a name. A log deleted, moved away or replaced is left (a moved
 * one is finished where it is) and a new one opened at the path, the
 * directory recreated (one level, as at start-up) and the lock file with
 * it. The path is never followed: a link put there, a FIFO, a device,
 * anything but a regular file, is refused (lib/safefile), as at start-up.
 * While no log can be opened the writer is detached: samples wait in
 * memory, within --backlog, and the open is tried again before each
 * sample. Each episode is reported once, and while it lasts in sd_notify's
 * STATUS.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "daemon_int.h"
#include "fmt.h"

/* The lock file was deleted with the directory: take a new one, so that
 * a second daemon cannot start on the recreated directory. -1 when one
 * already did. */
static int
check_lock(struct daemon *d)
{
	char err[PATH_MAX + 128];
	enum fdpath f = fdpath_check(d->lockfd, d->lockpath);

	if (f == FDPATH_SAME || f == FDPATH_UNKNOWN)
		return 0;
	if (daemon_setup_lock(d, err, sizeof err) == 0) {
		fmt_diag(stderr, "iostatmon", "%s: lock file recreated",
		    d->lockpath);
		d->lock_trouble = 0;
		return 0;
	}
	if (errno == EWOULDBLOCK) {
		fmt_diag(stderr, "iostatmon", "%s; stopping", err);
		return -1;
	}
	/* the directory is still missing, or the name is refused */
	if (!d->lock_trouble)
		fmt_diag(stderr, "iostatmon", "%s; the lock file is taken "
		    "again before each sample", err);
	d->lock_trouble = 1;
	return 0;
}

/* Leave the current file, open a new one at d->path. */
static void
reopen(struct daemon *d)
{
	if (daemon_setup_attach(d) < 0)
		return;
	fmt_diag(stderr, "iostatmon", "%s: writing to a new log", d->path);
	if (iolog_writer_needs_header(d->w))
		daemon_setup_new_member(d);
}

/* The log left its path (f): a new one there, after the directory and
 * the lock file when they went with it. -1: stop. */
static int
replace(struct daemon *d, enum fdpath f, const char *when)
{
	char err[PATH_MAX + 128];

	if (!d->file_trouble)
		fmt_diag(stderr, "iostatmon", "%s %s %s", d->path,
		    f == FDPATH_DELETED ? "was deleted" :
		    "was moved away or replaced", when);
	if (logfiles_mkdir(d->o->log_dir, err, sizeof err) == 1)
		fmt_diag(stderr, "iostatmon", "%s: log directory recreated",
		    d->o->log_dir);
	if (check_lock(d) < 0) {
		d->fatal = 1;
		return -1;
	}
	reopen(d);
	return 0;
}

int
daemon_logcheck(struct daemon *d)
{
	enum fdpath f = iolog_writer_at_path(d->w, d->path);

	if (f == FDPATH_SAME || f == FDPATH_UNKNOWN) {
		if (check_lock(d) < 0)
			d->fatal = 1;
		return d->fatal ? -1 : 0;
	}
	return replace(d, f, "while open");
}

int
daemon_logcheck_after(struct daemon *d)
{
	enum fdpath f = iolog_writer_at_path(d->w, d->path);

	if (f == FDPATH_SAME || f == FDPATH_UNKNOWN || d->file_trouble)
		return 1;
	if (f == FDPATH_DELETED)
		d->lost = 1;
	replace(d, f, f == FDPATH_DELETED ? "while a sample was written to "
	    "it; what went into it since the last check is lost" :
	    "while a sample was written to it");
	return f != FDPATH_DELETED;
}
