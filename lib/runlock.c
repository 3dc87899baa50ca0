/*
 * runlock: one run at a time, locked on a directory's descriptor
 * (runlock.h).
 */
#include "runlock.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

/* How often a waiting run tries again: flock(2) has no timeout of its
 * own, and a blocking call interrupted by an alarm would need a signal
 * handler of the library's in the program. */
#define POLL_NS	200000000L

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* flock(2), tried until it is had or wait seconds have passed. */
static int
take(int fd, unsigned wait)
{
	const struct timespec pause = { 0, POLL_NS };
	double end = now_s() + wait;

	for (;;) {
		if (flock(fd, LOCK_EX | LOCK_NB) == 0)
			return 0;
		if (errno == EINTR)
			continue;
		if (errno != EWOULDBLOCK || now_s() >= end)
			return -1;
		nanosleep(&pause, NULL);
	}
}

/* The directory of dirfd (O_PATH, which flock refuses) opened for
 * reading through its own descriptor, so that no name is resolved again,
 * then locked. dirfd is closed. */
static int
lock_at(int dirfd, const char *name, unsigned wait, char *err,
    size_t errlen)
{
	int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC), e;

	e = errno;
	close(dirfd);
	if (fd < 0) {
		snprintf(err, errlen, "%s: cannot open it to lock it: %s", name,
		    strerror(e));
		errno = e;
		return -1;
	}
	if (take(fd, wait) == 0)
		return fd;
	e = errno;
	close(fd);
	if (e != EWOULDBLOCK)
		snprintf(err, errlen, "%s: cannot lock it: %s", name,
		    strerror(e));
	else if (wait)
		snprintf(err, errlen, "%s: another run held its lock for %u "
		    "s; this one is skipped", name, wait);
	else
		snprintf(err, errlen, "%s: another run holds its lock; this "
		    "one is skipped", name);
	errno = e;
	return -1;
}

int
runlock_dir(const char *dir, const struct safedir_make *make,
    unsigned wait, char *err, size_t errlen)
{
	int fd;

	assert(dir && *dir && wait <= RUNLOCK_WAIT_MAX);
	if ((fd = safedir_dir(dir, make, err, errlen)) < 0)
		return -1;
	return lock_at(fd, dir, wait, err, errlen);
}

int
runlock_dir_of(const char *path, const struct safedir_make *make,
    unsigned wait, char *err, size_t errlen)
{
	struct safedir d;
	const char *slash;
	char dir[4096];
	int fd;

	assert(path && *path && wait <= RUNLOCK_WAIT_MAX);
	if (safedir_open(&d, path, make, err, errlen) < 0)
		return -1;
	fd = d.fd;
	d.fd = -1;		/* kept: lock_at closes it */
	safedir_close(&d);
	/* The directory as the path names it, for messages. */
	slash = strrchr(path, '/');
	if (!slash)
		snprintf(dir, sizeof dir, ".");
	else
		snprintf(dir, sizeof dir, "%.*s", slash == path ? 1 :
		    (int)(slash - path), path);
	return lock_at(fd, dir, wait, err, errlen);
}
