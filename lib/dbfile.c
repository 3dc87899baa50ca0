/*
 * dbfile: the census database's file, found safely (dbfile.h).
 */
#include "dbfile.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "safedir.h"
#include "xalloc.h"

#define DB_FILE_MODE 0640

/* May other users plant files in the directory? SQLite makes the -wal
 * and -shm files there by name, without O_EXCL: a file planted by
 * someone else would receive the database's pages. */
static int
dir_safe(int dirfd, const char *path, char *err, size_t errlen)
{
	struct stat st;

	if (fstat(dirfd, &st) < 0) {
		snprintf(err, errlen, "%s: its directory: %s", path,
		    strerror(errno));
		return -1;
	}
	if (st.st_mode & S_IWOTH) {
		snprintf(err, errlen, "%s: its directory is writable by every "
		    "user (mode %04o), who could plant the files SQLite keeps "
		    "beside the database; keep it in a directory only its owner "
		    "and group may write", path, (unsigned)(st.st_mode & 07777));
		return -1;
	}
	/* Root's database must not be steered by any other user; other
	 * users may share a group's directory, which its owner can read. */
	if (geteuid() == 0 && st.st_uid != 0) {
		snprintf(err, errlen, "%s: its directory belongs to uid %lu, "
		    "who could plant the files SQLite keeps beside the "
		    "database; as root, keep it in a directory of root's",
		    path, (unsigned long)st.st_uid);
		return -1;
	}
	return 0;
}

/* Anything but a regular file is refused, a link first of all. */
static int
not_regular(const struct stat *st, const char *path, char *err,
    size_t errlen)
{
	if (S_ISLNK(st->st_mode))
		snprintf(err, errlen, "%s: is a symbolic link; the census "
		    "database is never opened through one (name its target)",
		    path);
	else if (!S_ISREG(st->st_mode))
		snprintf(err, errlen, "%s: is %s, not a database", path,
		    safedir_kind(st->st_mode));
	else
		return 0;
	return 1;
}

/* The file, created when missing and create allows: O_EXCL, so that two
 * writers racing to create it both end up with the one file. */
static int
open_file(struct dbfile *f, int dirfd, const char *name,
    const struct dbfile_create *create)
{
	for (int tries = 0; tries < 10; tries++) {
		f->fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
		    O_CLOEXEC);
		if (f->fd >= 0 || errno != ENOENT || !create)
			return f->fd;
		f->fd = openat(dirfd, name, O_RDWR | O_CREAT | O_EXCL |
		    O_NOFOLLOW | O_CLOEXEC, DB_FILE_MODE);
		if (f->fd >= 0) {
			f->created = 1;
			if (create->group != (gid_t)-1 &&
			    fchown(f->fd, (uid_t)-1, create->group) < 0) {
				int e = errno;

				unlinkat(dirfd, name, 0);
				close(f->fd);
				f->fd = -1;
				errno = e;
			}
			return f->fd;
		}
		if (errno != EEXIST)
			return -1;
	}
	return -1;
}

/* The name SQLite opens: the directory's real path (the kernel's name
 * for the open directory, which holds no link) and the file's name.
 * Without /proc, the path as given: SQLITE_OPEN_NOFOLLOW then refuses
 * it if any of its components is a link. */
static char *
sql_name(int dirfd, const char *name, const char *path)
{
	char proc[64], dir[4096], *s;
	ssize_t n;

	snprintf(proc, sizeof proc, "/proc/self/fd/%d", dirfd);
	n = readlink(proc, dir, sizeof dir);
	if (n <= 0 || (size_t)n >= sizeof dir || dir[0] != '/')
		return xstrdup(path);
	dir[n] = '\0';
	s = xmalloc((size_t)n + strlen(name) + 2);
	sprintf(s, "%s/%s", strcmp(dir, "/") ? dir : "", name);
	return s;
}

int
dbfile_open(struct dbfile *f, const char *path,
    const struct dbfile_create *create, char *err, size_t errlen)
{
	struct safedir_make mk = { DBFILE_DIR_MODE,
	    create ? create->group : (gid_t)-1 };
	struct safedir d;

	*f = (struct dbfile){ NULL, -1, 0, { 0 }, 0, 0 };
	if (safedir_open(&d, path, create ? &mk : NULL, err, errlen) < 0)
		return -1;
	/* What is there is judged first: the most precise reason. */
	if ((fstatat(d.fd, d.name, &f->st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    not_regular(&f->st, path, err, errlen)) ||
	    (create && dir_safe(d.fd, path, err, errlen) < 0))
		goto fail;
	if (open_file(f, d.fd, d.name, create) < 0 && errno != ENOENT) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		goto fail;
	}
	if (f->fd >= 0 && fstat(f->fd, &f->st) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		goto fail;
	}
	if (f->fd >= 0 && not_regular(&f->st, path, err, errlen))
		goto fail;
	f->exists = f->fd >= 0;
	f->sqlpath = sql_name(d.fd, d.name, path);
	safedir_close(&d);
	return 0;
fail:
	safedir_close(&d);
	dbfile_close(f);
	return -1;
}

int
dbfile_check(struct dbfile *f, sqlite3 *db, const char *path,
    char *err, size_t errlen)
{
	struct stat st;
	int moved = 1;

	/* D3: our descriptor was closed before SQLite opened the file:
	 * closing one later would drop SQLite's POSIX locks */
	assert(f->fd < 0);
	if (!f->exists) {
		f->checked = 1;	/* nothing was there to compare with */
		return 0;
	}
	if (sqlite3_file_control(db, "main", SQLITE_FCNTL_HAS_MOVED,
	    &moved) != SQLITE_OK || moved || stat(f->sqlpath, &st) < 0 ||
	    st.st_dev != f->st.st_dev || st.st_ino != f->st.st_ino) {
		snprintf(err, errlen, "%s: was replaced while it was being "
		    "opened; not used", path);
		return -1;
	}
	f->checked = 1;
	return 0;
}

void
dbfile_release(struct dbfile *f)
{
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
}

void
dbfile_close(struct dbfile *f)
{
	dbfile_release(f);
	free(f->sqlpath);
	f->sqlpath = NULL;
}
