/*
 * safedir: open a file's directory without trusting other users' links
 * (safedir.h).
 */
#include "safedir.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "xalloc.h"

/* O_PATH: a directory this user may search but not read is passed as
 * path resolution would pass it. */
#define DIRFLAGS	(O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
#define MAX_LINKS	40	/* as the kernel's ELOOP */
#define MAX_TARGET	65536	/* a link's target, read whole or refused */

/* The walk: the directory reached so far and the components still to go,
 * "a/b/c" (a link's target is put in front of them). */
struct walk {
	int fd;
	char *todo;
	size_t pos;		/* where in todo the next component starts */
	size_t links;
	const char *path;	/* as given, for messages */
	char *err;
	size_t errlen;
};

const char *
safedir_kind(mode_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFLNK:	return "a symbolic link";
	case S_IFIFO:	return "a FIFO";
	case S_IFCHR:	return "a character device";
	case S_IFBLK:	return "a block device";
	case S_IFSOCK:	return "a socket";
	case S_IFDIR:	return "a directory";
	case S_IFREG:	return "a regular file";
	default:	return "not a regular file";
	}
}

static int
fail(struct walk *w, int e, const char *comp, const char *why)
{
	snprintf(w->err, w->errlen, "%s: %s%s%s", w->path,
	    comp ? comp : "", comp ? ": " : "", why ? why : strerror(e));
	errno = e;
	return -1;
}

static void
move_to(struct walk *w, int fd)
{
	close(w->fd);
	w->fd = fd;
}

/* The link comp in the current directory: followed when root or this
 * user owns it, by putting its target in front of what is left. */
static int
follow(struct walk *w, const char *comp, const struct stat *st)
{
	char *target, *todo;
	ssize_t n;

	if (st->st_uid != 0 && st->st_uid != geteuid()) {
		char why[128];

		snprintf(why, sizeof why, "a symbolic link owned by uid %lu, "
		    "who could point it anywhere; not followed",
		    (unsigned long)st->st_uid);
		return fail(w, EPERM, comp, why);
	}
	if (++w->links > MAX_LINKS)
		return fail(w, ELOOP, comp, NULL);
	target = xmalloc(MAX_TARGET);
	n = readlinkat(w->fd, comp, target, MAX_TARGET);
	if (n < 0 || n >= MAX_TARGET) {
		free(target);
		return fail(w, n < 0 ? errno : ENAMETOOLONG, comp, NULL);
	}
	target[n] = '\0';
	if (target[0] == '/') {
		int fd = open("/", DIRFLAGS);

		if (fd < 0) {
			free(target);
			return fail(w, errno, "/", NULL);
		}
		move_to(w, fd);
	}
	todo = xmalloc((size_t)n + 1 + strlen(w->todo + w->pos) + 1);
	sprintf(todo, "%s/%s", target, w->todo + w->pos);
	free(target);
	free(w->todo);
	w->todo = todo;
	w->pos = 0;
	return 0;
}

/* A missing directory: made when the caller asked for it. */
static int
make(struct walk *w, const char *comp, const struct safedir_make *mk)
{
	int fd;

	if (!mk || !mk->mode)
		return fail(w, ENOENT, comp, NULL);
	if (mkdirat(w->fd, comp, mk->mode) < 0 && errno != EEXIST)
		return fail(w, errno, comp, NULL);
	if ((fd = openat(w->fd, comp, DIRFLAGS)) < 0)
		return fail(w, errno, comp, NULL);
	if (mk->gid != (gid_t)-1 && fchownat(fd, "", (uid_t)-1, mk->gid,
	    AT_EMPTY_PATH) < 0) {
		int e = errno;

		close(fd);
		return fail(w, e, comp, "cannot give it the group asked for");
	}
	move_to(w, fd);
	return 0;
}

/* One component: into the directory it names. */
static int
step(struct walk *w, const char *comp, const struct safedir_make *mk)
{
	struct stat st;
	int fd;

	if (strcmp(comp, ".") == 0)
		return 0;
	if ((fd = openat(w->fd, comp, DIRFLAGS)) >= 0) {
		move_to(w, fd);
		return 0;
	}
	if (errno == ENOENT)
		return make(w, comp, mk);
	if (errno != ELOOP && errno != ENOTDIR)
		return fail(w, errno, comp, NULL);
	if (fstatat(w->fd, comp, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return fail(w, errno, comp, NULL);
	if (!S_ISLNK(st.st_mode))
		return fail(w, ENOTDIR, comp, NULL);
	return follow(w, comp, &st);
}

/* The next component of w->todo, taken off it; NULL when none is left. */
static char *
next(struct walk *w)
{
	const char *p = w->todo + w->pos;
	size_t len;

	p += strspn(p, "/");
	if (!*p)
		return NULL;
	len = strcspn(p, "/");
	w->pos = (size_t)(p - w->todo) + len;
	return xstrndup(p, len);
}

/* Walk the directories of w->todo. 0 with w->fd the last of them, or -1
 * with errno (w->fd closed). */
static int
walk(struct walk *w, const struct safedir_make *make_dirs)
{
	char *comp;
	int rc = 0, e;

	if ((w->fd = open(w->path[0] == '/' ? "/" : ".", DIRFLAGS)) < 0) {
		free(w->todo);
		return fail(w, errno, NULL, NULL);
	}
	while (rc == 0 && (comp = next(w)) != NULL) {
		rc = step(w, comp, make_dirs);
		free(comp);
	}
	free(w->todo);
	if (rc < 0) {
		e = errno;
		close(w->fd);
		errno = e;
	}
	return rc;
}

int
safedir_open(struct safedir *d, const char *path,
    const struct safedir_make *make_dirs, char *err, size_t errlen)
{
	struct walk w = { -1, NULL, 0, 0, path, err, errlen };
	const char *slash = strrchr(path, '/');
	const char *name = slash ? slash + 1 : path;

	d->fd = -1;
	d->name = NULL;
	if (!*name || !strcmp(name, ".") || !strcmp(name, ".."))
		return fail(&w, EISDIR, NULL, "names a directory, not a file");
	w.todo = xstrndup(path, (size_t)(name - path));
	if (walk(&w, make_dirs) < 0)
		return -1;
	d->fd = w.fd;
	d->name = xstrdup(name);
	return 0;
}

int
safedir_dir(const char *dir, const struct safedir_make *make_dirs,
    char *err, size_t errlen)
{
	struct walk w = { -1, xstrdup(dir), 0, 0, dir, err, errlen };

	return walk(&w, make_dirs) < 0 ? -1 : w.fd;
}

void
safedir_close(struct safedir *d)
{
	if (d->fd >= 0)
		close(d->fd);
	free(d->name);
	d->fd = -1;
	d->name = NULL;
}
