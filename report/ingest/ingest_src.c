/*
 * ingest_src: the paths of `iocensus ingest` -> sources, in a fixed order.
 *
 * A named path is a file, a directory or an archive. Directories are
 * walked in byte order of names, never through a symlink (a link below a
 * named directory is reported as not followed). A file that starts like
 * a log (iolog_sniff, or a damaged gzip file named *.iolog.gz) goes to a
 * decoder; otherwise it may be an archive (ingest_archive.c); otherwise it
 * is skipped below a directory, unless it is gzip damaged before it can
 * tell what it holds, and handed to a decoder when named, which says why
 * it is not a log (ingest_log.c); iostatmon's lock in a directory is
 * passed over without a word. This runs in its own thread, ahead of
 * the decoders.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ingest_int.h"
#include "iolog/iolog.h"
#include "xalloc.h"

#define SNIFF_BYTES 65536
#define SNIFF_MAX (16u << 20)

static void
emit_errno(struct walker *k, const char *name, int named, const char *what)
{
	struct src *s = ingest_item_new(name, SRC_ERROR, named);

	ingest_item_error(s, "%s: %s%s", name, what, strerror(errno));
	ingest_item_emit(k, s);
}

static void
emit_skip(struct walker *k, const char *name, const char *why)
{
	struct src *s = ingest_item_new(name, SRC_SKIP, 0);

	ingest_item_skip(s, why);
	ingest_item_emit(k, s);
}

/* What fd holds, from its first bytes (more of them while they cannot
 * tell, up to SNIFF_MAX). */
static enum iolog_kind
sniff_fd(int fd, const char *name)
{
	size_t want = SNIFF_BYTES, len = 0;
	uint8_t *buf = NULL;
	enum iolog_kind kind;
	ssize_t got;

	for (;;) {
		buf = xrealloc(buf, want);
		while (len < want && (got = pread(fd, buf + len, want - len,
		    (off_t)len)) > 0)
			len += (size_t)got;
		kind = ingest_sniff(buf, len, len == want && want < SNIFF_MAX,
		    name);
		if (kind != IOLOG_NEED_MORE)
			break;
		want *= 4;
	}
	free(buf);
	return kind;
}

/* A regular file, open as fd (taken over). A log goes to a decoder; an
 * archive is read here; gzip damaged before it can tell what it holds
 * goes to a decoder too, which reads what it can and reports the damage;
 * anything else is skipped inside a directory, and handed to a decoder
 * when named (which says why it is not a log). */
static void
walk_file(struct walker *k, int fd, const char *name, int named)
{
	enum iolog_kind kind = sniff_fd(fd, name);
	struct src *s;
	int r;

	if (kind != IOLOG_LOG) {
		r = ingest_archive_walk(k, fd, name, kind == IOLOG_DAMAGED);
		if (r < 0)
			emit_errno(k, name, named, "cannot rewind: ");
		if (r != 0 || !(named || kind == IOLOG_DAMAGED)) {
			if (r == 0)
				emit_skip(k, name, kind == IOLOG_FOREIGN ?
				    "gzip data, not an iostatmon log" :
				    "neither an iostatmon log nor an archive");
			close(fd);
			return;
		}
	}
	s = ingest_item_new(name, SRC_LOG, named);
	s->fd = fd;
	ingest_item_emit(k, s);
}

static int
cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Names of the directory open as fd, sorted bytewise; NULL with errno.
 * fd stays open (the names are read through a duplicate). */
static char **
dir_names(int fd, size_t *n)
{
	char **v = NULL;
	size_t cap = 0;
	struct dirent *de;
	int dup = fcntl(fd, F_DUPFD_CLOEXEC, 0), e;
	DIR *d = dup < 0 ? NULL : fdopendir(dup);

	*n = 0;
	if (d == NULL) {
		e = errno;
		if (dup >= 0)
			close(dup);
		errno = e;
		return NULL;
	}
	for (;;) {
		errno = 0;
		if ((de = readdir(d)) == NULL)
			break;
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		v = xgrow(v, *n, &cap, sizeof *v, 64);
		v[(*n)++] = xstrdup(de->d_name);
	}
	e = errno;
	closedir(d);
	if (e != 0) {
		while (*n > 0)
			free(v[--*n]);
		free(v);
		errno = e;
		return NULL;
	}
	if (v == NULL)
		return xcalloc(1, sizeof *v);
	qsort(v, *n, sizeof *v, cmp_name);
	return v;
}

/*
 * A directory tree is walked without recursion, so that its depth costs
 * heap, not stack: a stack of the directories being read, each with its
 * sorted names. Paths are never opened whole (they may pass PATH_MAX):
 * each directory is opened relative to its parent. At most DIR_FDS of
 * them hold a descriptor (the named one and the deepest); one left
 * without is opened again through ".." of its child when the walk comes
 * back to it, and must be the directory it was (device and inode), or
 * what is left of it is not read.
 */
#define DIR_FDS 16

struct dir_frame {
	char **names;
	size_t n, next;
	int fd;			/* -1: closed, to reopen */
	dev_t dev;
	ino_t ino;
	size_t plen;		/* its path's length in dir_walk.path */
};

struct dir_walk {
	struct dir_frame *f;
	size_t n, cap;
	size_t lo;		/* the shallowest frame above the named one
				 * that still has its descriptor */
	char *path;		/* the path of the entry at hand */
	size_t plen, pcap;
};

/* The path of entry `name` of the frame on top, in w->path. */
static const char *
entry_path(struct dir_walk *w, const char *name)
{
	const struct dir_frame *f = &w->f[w->n - 1];
	size_t k = strlen(name), sep = f->plen && w->path[f->plen - 1] != '/';

	w->plen = f->plen;
	if (w->plen + sep + k + 1 > w->pcap) {
		w->pcap = (w->plen + sep + k + 1) * 2;
		w->path = xrealloc(w->path, w->pcap);
	}
	if (sep)
		w->path[w->plen++] = '/';
	memcpy(w->path + w->plen, name, k + 1);
	w->plen += k;
	return w->path;
}

/* Push the directory open as fd (taken over), whose path is w->path. */
static void
dir_push(struct walker *k, struct dir_walk *w, int fd, int named)
{
	struct dir_frame *f;
	struct stat st;
	char **names;
	size_t n;

	if (fstat(fd, &st) < 0 || (names = dir_names(fd, &n)) == NULL) {
		emit_errno(k, w->path, named, "");
		close(fd);
		return;
	}
	w->f = xgrow(w->f, w->n, &w->cap, sizeof *w->f, 64);
	f = &w->f[w->n++];
	f->names = names;
	f->n = n;
	f->next = 0;
	f->fd = fd;
	f->dev = st.st_dev;
	f->ino = st.st_ino;
	f->plen = w->plen;
	if (w->n - w->lo > DIR_FDS - 1 && w->lo < w->n - 1) {
		close(w->f[w->lo].fd);
		w->f[w->lo++].fd = -1;
	}
}

/* Reopen parent p through ".." of its child c; -1 if it moved. */
static int
dir_reopen(struct dir_frame *p, const struct dir_frame *c)
{
	struct stat st;
	int fd = c->fd < 0 ? -1 : openat(c->fd, "..", O_RDONLY | O_DIRECTORY |
	    O_CLOEXEC);

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || st.st_dev != p->dev || st.st_ino != p->ino) {
		close(fd);
		return -1;
	}
	p->fd = fd;
	return 0;
}

static void
dir_pop(struct walker *k, struct dir_walk *w)
{
	struct dir_frame *c = &w->f[w->n - 1], *p = c - 1;

	if (w->n > 1 && p->fd < 0) {
		if (dir_reopen(p, c) < 0) {
			if (c->fd >= 0 && p->next < p->n && !k->stopped) {
				struct src *s;

				w->path[p->plen] = '\0';
				s = ingest_item_new(w->path, SRC_ERROR, 0);
				ingest_item_error(s, "%s: moved or replaced "
				    "while it was read: the rest of it is not "
				    "read", w->path);
				ingest_item_emit(k, s);
			}
			p->next = p->n;
		}
		w->lo = w->n - 2;
	}
	if (c->fd >= 0)
		close(c->fd);
	while (c->next < c->n)
		free(c->names[c->next++]);
	free(c->names);
	w->n--;
	if (w->lo > w->n)
		w->lo = w->n;
}

/* One entry of the directory on top. */
static void
dir_entry(struct walker *k, struct dir_walk *w, const char *name)
{
	int dfd = w->f[w->n - 1].fd, fd;
	const char *full = entry_path(w, name);
	struct stat st;

	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		emit_errno(k, full, 0, "");
	} else if (S_ISLNK(st.st_mode)) {
		ingest_item_emit(k, ingest_item_new(full, SRC_LINK, 0));
	} else if (S_ISDIR(st.st_mode)) {
		fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		    O_CLOEXEC);
		if (fd < 0)
			emit_errno(k, full, 0, "");
		else
			dir_push(k, w, fd, 0);
	} else if (S_ISREG(st.st_mode) && iolog_lock_name(name)) {
		/* iostatmon's lock: in every log directory, never a log, so
		 * not worth a line in each round's output. */
	} else if (S_ISREG(st.st_mode)) {
		fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			emit_errno(k, full, 0, "");
		else
			walk_file(k, fd, full, 0);
	} else {
		emit_skip(k, full, "not a regular file");
	}
}

/* A directory tree, the named directory open as dfd (taken over). */
static void
walk_dir(struct walker *k, int dfd, const char *path, int named)
{
	struct dir_walk w = { 0 };

	w.plen = strlen(path);
	w.pcap = w.plen + 1;
	w.path = xstrdup(path);
	dir_push(k, &w, dfd, named);
	while (w.n > 0) {
		struct dir_frame *f = &w.f[w.n - 1];
		char *name;

		if (f->next == f->n || k->stopped || f->fd < 0) {
			dir_pop(k, &w);
			continue;
		}
		name = f->names[f->next++];
		dir_entry(k, &w, name);		/* may move w.f */
		free(name);
	}
	free(w.f);
	free(w.path);
}

static void
walk_named(struct walker *k, const char *path)
{
	struct stat st;
	int fd;

	if (stat(path, &st) < 0) {
		emit_errno(k, path, 1, "");
		return;
	}
	if (!S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode)) {
		struct src *s = ingest_item_new(path, SRC_ERROR, 1);

		ingest_item_error(s, "%s: not a regular file or directory",
		    path);
		ingest_item_emit(k, s);
		return;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC |
	    (S_ISDIR(st.st_mode) ? O_DIRECTORY : 0));
	if (fd < 0)
		emit_errno(k, path, 1, "");
	else if (S_ISDIR(st.st_mode))
		walk_dir(k, fd, path, 1);
	else
		walk_file(k, fd, path, 1);
}

void
ingest_src_walk(char *const *paths, size_t npaths, struct src_walk *w)
{
	struct walker k = { .w = w };

	for (size_t i = 0; i < npaths && !k.stopped; i++)
		walk_named(&k, paths[i]);
}
