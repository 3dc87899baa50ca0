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
 * it is not a log (ingest_log.c). This runs in its own thread, ahead of
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
#include "iolog.h"
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
				ingest_item_emit(k, ingest_item_new(name,
				    SRC_SKIP, 0));
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

static char *
join(const char *dir, const char *name)
{
	size_t n = strlen(dir);
	char *p = xmalloc(n + strlen(name) + 2);

	sprintf(p, "%s%s%s", dir, n && dir[n - 1] == '/' ? "" : "/", name);
	return p;
}

/* Names of an open directory, sorted bytewise; NULL with errno. */
static char **
dir_names(DIR *d, size_t *n)
{
	char **v = NULL;
	size_t cap = 0;
	struct dirent *de;

	*n = 0;
	for (;;) {
		errno = 0;
		if ((de = readdir(d)) == NULL)
			break;
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		v = xgrow(v, *n, &cap, sizeof *v, 64);
		v[(*n)++] = xstrdup(de->d_name);
	}
	if (errno != 0) {
		int e = errno;

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

static void walk_dir(struct walker *k, int dfd, const char *path, int named);

static void
walk_entry(struct walker *k, int dfd, const char *name, const char *full)
{
	struct stat st;
	int fd;

	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		emit_errno(k, full, 0, "");
		return;
	}
	if (S_ISLNK(st.st_mode)) {
		ingest_item_emit(k, ingest_item_new(full, SRC_LINK, 0));
	} else if (S_ISDIR(st.st_mode)) {
		fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		    O_CLOEXEC);
		if (fd < 0)
			emit_errno(k, full, 0, "");
		else
			walk_dir(k, fd, full, 0);
	} else if (S_ISREG(st.st_mode)) {
		fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			emit_errno(k, full, 0, "");
		else
			walk_file(k, fd, full, 0);
	} else {
		ingest_item_emit(k, ingest_item_new(full, SRC_SKIP, 0));
	}
}

/* A directory, open as dfd (taken over). */
static void
walk_dir(struct walker *k, int dfd, const char *path, int named)
{
	DIR *d = fdopendir(dfd);
	char **names;
	size_t n;

	if (d == NULL) {
		emit_errno(k, path, named, "");
		close(dfd);
		return;
	}
	names = dir_names(d, &n);
	if (names == NULL) {
		emit_errno(k, path, named, "");
		closedir(d);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		if (!k->stopped) {
			char *full = join(path, names[i]);

			walk_entry(k, dirfd(d), names[i], full);
			free(full);
		}
		free(names[i]);
	}
	free(names);
	closedir(d);
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
