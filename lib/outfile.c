/*
 * outfile: all-or-nothing output files (outfile.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outfile.h"
#include "safedir.h"
#include "xalloc.h"

static int
fail(struct outfile *o, int e, const char *why, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: %s", o->path, why ? why : strerror(e));
	outfile_abort(o);
	errno = e;
	return -1;
}

/* Is st the database keep names, or a file SQLite keeps beside it? */
static int
is_kept(const char *keep, const struct stat *st)
{
	static const char *const companion[] = { "", "-wal", "-shm",
	    "-journal" };
	size_t len = strlen(keep) + 16;
	char *p = xmalloc(len);
	struct stat k;
	int hit = 0;

	for (size_t i = 0; !hit && i < sizeof companion / sizeof *companion;
	    i++) {
		snprintf(p, len, "%s%s", keep, companion[i]);
		hit = stat(p, &k) == 0 && k.st_dev == st->st_dev &&
		    k.st_ino == st->st_ino;
	}
	free(p);
	return hit;
}

/* Is name, in the directory open on dirfd, where SQLite keeps a file
 * beside the database db (named as given, or where its links lead, as
 * SQLite resolves them)? That file's suffix, else NULL. Whether the file
 * exists does not matter: SQLite deletes a journal it finds at the next
 * open, or plays it back into the database. */
static const char *
side_file(int dirfd, const char *name, const char *db)
{
	static const char *const side[] = { "-journal", "-wal", "-shm" };
	char *real = realpath(db, NULL);
	const char *as[2] = { db, real }, *hit = NULL;
	struct stat here, there;

	if (fstat(dirfd, &here) < 0) {
		free(real);
		return NULL;
	}
	for (size_t i = 0; !hit && i < 2 && as[i]; i++) {
		const char *slash = strrchr(as[i], '/');
		const char *base = slash ? slash + 1 : as[i];
		size_t blen = strlen(base);
		char *dir = slash ? xstrndup(as[i], slash == as[i] ? 1 :
		    (size_t)(slash - as[i])) : xstrdup(".");

		if (strncmp(name, base, blen) == 0 && stat(dir, &there) == 0 &&
		    there.st_dev == here.st_dev && there.st_ino == here.st_ino)
			for (size_t k = 0; !hit && k < sizeof side /
			    sizeof *side; k++)
				if (strcmp(name + blen, side[k]) == 0)
					hit = side[k];
		free(dir);
	}
	free(real);
	return hit;
}

/* What is at the target now: nothing or a regular file (0), else why
 * it is refused, in why. */
static int
refused(struct outfile *o, const struct outfile_opts *opts, char *why,
    size_t len)
{
	struct stat st, to;
	const char *side;

	if (opts && opts->keep && (side = side_file(o->dirfd, o->name,
	    opts->keep)) != NULL) {
		snprintf(why, len, "is where SQLite keeps the %s file of the "
		    "census database %s, which SQLite deletes or plays back "
		    "into the database at its next open; refusing to write "
		    "it", side, opts->keep);
		return 1;
	}
	if (fstatat(o->dirfd, o->name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return 0;
	if (opts && opts->keep && (is_kept(opts->keep, &st) ||
	    (S_ISLNK(st.st_mode) && fstatat(o->dirfd, o->name, &to, 0) == 0 &&
	    is_kept(opts->keep, &to))))
		snprintf(why, len, "is %sthe census database %s; refusing to "
		    "write over it", S_ISLNK(st.st_mode) ? "a symbolic link to "
		    : "", opts->keep);
	else if (S_ISLNK(st.st_mode))
		snprintf(why, len, "is a symbolic link; refusing to write "
		    "through it (remove it, or name its target)");
	else if (!S_ISREG(st.st_mode))
		snprintf(why, len, "is %s; only a regular file is replaced",
		    safedir_kind(st.st_mode));
	else
		return 0;
	return 1;
}

/* ".NAME.XXXXXXXXXXXXXXXX": hidden, unguessable (64 random bits), and
 * not ending as NAME does (node_exporter reads only *.prom). */
static char *
tmp_name(const char *name)
{
	unsigned char r[8];
	char hex[17], *t;
	size_t len;

	if (getrandom(r, sizeof r, 0) != (ssize_t)sizeof r) {
		/* Without entropy the name is guessable, but O_EXCL and
		 * O_NOFOLLOW still keep a planted file from being used. */
		for (size_t i = 0; i < sizeof r; i++)
			r[i] = (unsigned char)rand();
	}
	for (size_t i = 0; i < sizeof r; i++)
		snprintf(hex + 2 * i, 3, "%02x", r[i]);
	if (strlen(name) + sizeof hex + 2 > NAME_MAX)
		name = "outfile";
	len = strlen(name) + sizeof hex + 3;
	t = xmalloc(len);
	snprintf(t, len, ".%s.%s", name, hex);
	return t;
}

/* Give the new file no more readers than like has. */
static int
restrict_to(int fd, const struct stat *like)
{
	mode_t mode = like->st_mode & 0666;
	struct stat st;

	if (fstat(fd, &st) < 0)
		return -1;
	if (st.st_gid != like->st_gid &&
	    fchown(fd, (uid_t)-1, like->st_gid) < 0)
		mode &= 0600;	/* not a member of its group: owner only */
	return fchmod(fd, mode & st.st_mode & 0777);
}

static int
open_tmp(struct outfile *o, const struct outfile_opts *opts)
{
	for (int n = 0; n < 100; n++) {
		free(o->tmp);
		o->tmp = tmp_name(o->name);
		o->fd = openat(o->dirfd, o->tmp, O_WRONLY | O_CREAT | O_EXCL |
		    O_NOFOLLOW | O_CLOEXEC, opts && opts->like ?
		    opts->like->st_mode & 0666 : 0666);
		if (o->fd >= 0 || errno != EEXIST)
			break;
	}
	if (o->fd < 0) {
		free(o->tmp);
		o->tmp = NULL;
		return -1;
	}
	if (opts && opts->like && restrict_to(o->fd, opts->like) < 0)
		return -1;
	return 0;
}

int
outfile_open(struct outfile *o, const char *path,
    const struct outfile_opts *opts, char *err, size_t errlen)
{
	struct safedir d;
	char why[512];

	*o = (struct outfile){ xstrdup(path), NULL, NULL, -1, -1 };
	if (safedir_open(&d, path, NULL, err, errlen) < 0) {
		int e = errno;

		outfile_abort(o);
		errno = e;
		return -1;
	}
	o->dirfd = d.fd;
	o->name = d.name;
	if (refused(o, opts, why, sizeof why))
		return fail(o, EEXIST, why, err, errlen);
	if (open_tmp(o, opts) < 0)
		return fail(o, errno, NULL, err, errlen);
	return 0;
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
			return fail(o, n < 0 ? errno : EIO, NULL, err, errlen);
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* The new name survives a crash, where this user may read the directory
 * (dirfd is an O_PATH descriptor, which fsync does not take). */
static void
sync_dir(int dirfd)
{
	int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0) {
		(void)fsync(fd);
		close(fd);
	}
}

int
outfile_commit(struct outfile *o, char *err, size_t errlen)
{
	int fd = o->fd;

	o->fd = -1;
	if (fsync(fd) < 0) {
		o->fd = fd;
		return fail(o, errno, NULL, err, errlen);
	}
	if (close(fd) < 0 ||
	    renameat(o->dirfd, o->tmp, o->dirfd, o->name) < 0)
		return fail(o, errno, NULL, err, errlen);
	free(o->tmp);
	o->tmp = NULL;
	sync_dir(o->dirfd);
	outfile_abort(o);
	return 0;
}

void
outfile_abort(struct outfile *o)
{
	int e = errno;

	if (o->fd >= 0)
		close(o->fd);
	if (o->tmp && o->dirfd >= 0)
		unlinkat(o->dirfd, o->tmp, 0);
	if (o->dirfd >= 0)
		close(o->dirfd);
	free(o->tmp);
	free(o->name);
	free(o->path);
	*o = (struct outfile){ NULL, NULL, NULL, -1, -1 };
	errno = e;
}
