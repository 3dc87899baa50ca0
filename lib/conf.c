/*
 * conf: the configuration file, read safely, and the precedence of its
 * values (conf.h).
 */
#include "conf.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lines.h"
#include "safedir.h"
#include "safefile.h"
#include "suggest.h"
#include "xalloc.h"

#define UP_MAX 4096	/* directories above the file: far past PATH_MAX's */

const char *const conf_top_keys[CONF_NTOP] = { "db", "logs", "metrics",
    "metrics-top" };
const char *const conf_prune_keys[CONF_NPRUNE] = { "keep-daily",
    "keep-weekly", "keep-monthly", "keep-quarterly" };
const char *const conf_fs_keys[CONF_NFS] = { "root", "project", "limits",
    "cold", "dirs", "max-rate" };

static const char *const sections[] = { "prune", "fs" };

static struct conf loaded;

/* The state of a read: the section a line is in. */
struct parse {
	struct conf *c;
	const char *file;
	struct conf_fs *fs;	/* [fs NAME] */
	int prune;		/* [prune] */
	char *err;
	size_t errlen;
};

static int
fail(struct parse *p, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* "FILE:LINE: why" into the error. */
static int
fail(struct parse *p, int line, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(p->err, p->errlen, "%s:%d: ", p->file, line);

	if (n < 0 || (size_t)n >= p->errlen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(p->err + n, p->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

static char *
trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t' || *s == '\r')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		*--e = '\0';
	return s;
}

/* A '#' that begins the line or follows a blank begins a comment: a
 * value may hold one elsewhere (a path "a#b"). */
static void
cut_comment(char *s)
{
	for (char *q = s; *q; q++)
		if (*q == '#' && (q == s || q[-1] == ' ' || q[-1] == '\t')) {
			*q = '\0';
			return;
		}
}

size_t
conf_root_len(const char *path)
{
	size_t n;

	assert(path != NULL);
	n = strlen(path);
	while (n > 1 && path[n - 1] == '/')
		n--;
	return n;
}

static int
same_root(const char *a, const char *b)
{
	size_t n = conf_root_len(a);

	return n == conf_root_len(b) && strncmp(a, b, n) == 0;
}

/* [prune] or [fs NAME]. */
static int
section(struct parse *p, char *s, int line)
{
	char *name, *end = s + strlen(s) - 1;
	const char *meant;
	size_t len;

	if (*end != ']')
		return fail(p, line, "a section ends with ']': [prune] or"
		    " [fs NAME]");
	*end = '\0';
	s = trim(s + 1);
	len = strcspn(s, " \t");
	name = trim(s + len);
	s[len] = '\0';
	p->fs = NULL;
	p->prune = 0;
	if (strcmp(s, "prune") == 0 && *name == '\0') {
		p->prune = 1;
		return 0;
	}
	if (strcmp(s, "prune") == 0)
		return fail(p, line, "[prune] takes no name");
	if (strcmp(s, "fs") != 0) {
		meant = suggest_word(s, sections, 2);
		return fail(p, line, "unknown section [%s]%s%s%s", s,
		    meant ? "; did you mean [" : "", meant ? meant : "",
		    meant ? (strcmp(meant, "fs") ? "]?" : " NAME]?") : "");
	}
	if (*name == '\0' || name[strcspn(name, " \t")] != '\0')
		return fail(p, line, "[fs NAME] takes one name, without"
		    " blanks");
	for (size_t i = 0; i < p->c->nfs; i++)
		if (strcmp(p->c->fs[i].name, name) == 0)
			return fail(p, line, "[fs %s] is already on line %d",
			    name, p->c->fs[i].line);
	p->c->fs = xreallocarray(p->c->fs, p->c->nfs + 1, sizeof *p->c->fs);
	p->fs = &p->c->fs[p->c->nfs++];
	memset(p->fs, 0, sizeof *p->fs);
	p->fs->name = xstrdup(name);
	p->fs->line = line;
	return 0;
}

static int
find(const char *key, const char *const *keys, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(key, keys[i]) == 0)
			return (int)i;
	return -1;
}

/* A key this section does not take: the one meant, or the section that
 * takes it. */
static int
unknown_key(struct parse *p, const char *key, const char *const *keys,
    size_t n, int line)
{
	const char *where = p->fs ? "[fs NAME]" : p->prune ? "[prune]" :
	    "the top of the file";
	const char *meant = suggest_word(key, keys, n);

	if (meant)
		return fail(p, line, "unknown key '%s' in %s; did you mean"
		    " '%s'?", key, where, meant);
	if (find(key, conf_top_keys, CONF_NTOP) >= 0)
		return fail(p, line, "'%s' goes before any section", key);
	if (find(key, conf_prune_keys, CONF_NPRUNE) >= 0)
		return fail(p, line, "'%s' goes in [prune]", key);
	if (find(key, conf_fs_keys, CONF_NFS) >= 0)
		return fail(p, line, "'%s' goes in a [fs NAME] section", key);
	return fail(p, line, "unknown key '%s' in %s", key, where);
}

static int
set(struct parse *p, struct conf_val *v, const char *key, const char *val,
    int line)
{
	if (v->line)
		return fail(p, line, "%s is already set on line %d", key,
		    v->line);
	v->v = xstrdup(val);
	v->line = line;
	return 0;
}

/* A key of [fs NAME]: project repeats, root is absolute and no other
 * file system's. */
static int
fs_key(struct parse *p, int k, const char *val, int line)
{
	struct conf_fs *f = p->fs;

	if (k == CONF_FS_PROJECT) {
		f->project = xreallocarray(f->project, f->nproject + 1, sizeof *f->project);
		f->project[f->nproject].v = xstrdup(val);
		f->project[f->nproject++].line = line;
		if (f->nproject == 1)
			f->key[k] = f->project[0];
		return 0;
	}
	if (k == CONF_FS_ROOT && *val != '/')
		return fail(p, line, "root %s: expected an absolute path", val);
	for (size_t i = 0; k == CONF_FS_ROOT && i + 1 < p->c->nfs; i++)
		if (p->c->fs[i].key[k].v && same_root(p->c->fs[i].key[k].v,
		    val))
			return fail(p, line, "root %s is already the root of"
			    " [fs %s] on line %d", val, p->c->fs[i].name,
			    p->c->fs[i].key[k].line);
	return set(p, &f->key[k], conf_fs_keys[k], val, line);
}

static int
key_value(struct parse *p, char *s, int line)
{
	char *eq = strchr(s, '='), *key, *val;
	const char *const *keys = p->fs ? conf_fs_keys : p->prune ?
	    conf_prune_keys : conf_top_keys;
	size_t n = p->fs ? CONF_NFS : p->prune ? CONF_NPRUNE : CONF_NTOP;
	int k;

	if (!eq)
		return fail(p, line, "expected KEY = VALUE, [prune] or"
		    " [fs NAME]");
	*eq = '\0';
	key = trim(s);
	val = trim(eq + 1);
	if (*key == '\0')
		return fail(p, line, "a value without a key");
	if ((k = find(key, keys, n)) < 0)
		return unknown_key(p, key, keys, n, line);
	if (*val == '\0')
		return fail(p, line, "%s has no value", key);
	if (p->fs)
		return fs_key(p, k, val, line);
	return set(p, p->prune ? &p->c->prune[k] : &p->c->top[k], key, val,
	    line);
}

static int
one_line(void *arg, char *line, int lineno)
{
	struct parse *p = arg;
	char *s;

	cut_comment(line);
	s = trim(line);
	if (*s == '\0')
		return 0;
	if (*s == '[')
		return section(p, s, lineno);
	return key_value(p, s, lineno);
}

/* No user but root and this one may own st, nor write it (a sticky
 * directory aside: only an entry's owner may replace it). 0, or -1 with
 * err naming what and why. */
static int
trusted(const struct stat *st, const char *what, const char *file,
    char *err, size_t errlen)
{
	uid_t me = geteuid();
	int dir = S_ISDIR(st->st_mode);

	if (st->st_uid != 0 && st->st_uid != me) {
		snprintf(err, errlen, "%s: refused: %s is owned by uid %u,"
		    " neither root nor this user", file, what,
		    (unsigned)st->st_uid);
		return -1;
	}
	if ((st->st_mode & (S_IWGRP | S_IWOTH)) &&
	    !(dir && (st->st_mode & S_ISVTX))) {
		snprintf(err, errlen, "%s: refused: %s is writable by %s"
		    " (mode %04o): another user could change the"
		    " configuration", file, what, st->st_mode & S_IWOTH ?
		    "every user" : "its group", (unsigned)(st->st_mode &
		    07777));
		return -1;
	}
	return 0;
}

/* The directory dirfd and each one above it, up to /, as trusted. */
static int
trusted_dirs(int dirfd, const char *file, char *err, size_t errlen)
{
	struct stat st, up;
	char proc[64], path[4096];
	int fd = dup(dirfd), rc = 0;
	ssize_t n;

	if (fd < 0 || fstat(fd, &st) < 0) {
		snprintf(err, errlen, "%s: %s", file, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	for (int i = 0; rc == 0 && i < UP_MAX; i++) {
		int next;

		snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
		if ((n = readlink(proc, path, sizeof path - 1)) < 0)
			n = snprintf(path, sizeof path, "a directory above it");
		path[n] = '\0';
		if ((rc = trusted(&st, path, file, err, errlen)) < 0)
			break;
		next = openat(fd, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (next < 0 || fstat(next, &up) < 0) {
			snprintf(err, errlen, "%s: %s: %s", file, path,
			    strerror(errno));
			rc = -1;
		}
		close(fd);
		fd = next;
		if (rc == 0 && up.st_dev == st.st_dev && up.st_ino ==
		    st.st_ino)
			break;	/* "/" is its own parent */
		st = up;
	}
	if (fd >= 0)
		close(fd);
	return rc;
}

/* Every [fs NAME] has its root. */
static int
complete(struct parse *p)
{
	for (size_t i = 0; i < p->c->nfs; i++)
		if (!p->c->fs[i].key[CONF_FS_ROOT].v)
			return fail(p, p->c->fs[i].line, "[fs %s] has no root",
			    p->c->fs[i].name);
	return 0;
}

/* Open path safely and check who may change it and its directories. The
 * descriptor, -2 when it is missing, or -1 with err. */
static int
open_trusted(const char *path, char *err, size_t errlen)
{
	struct safedir d;
	struct stat st;
	int fd;

	if (safedir_open(&d, path, NULL, err, errlen) < 0)
		return errno == ENOENT ? -2 : -1;
	fd = safefile_openat(d.fd, d.name, path, O_RDONLY, 0, err, errlen);
	if (fd < 0) {
		safedir_close(&d);
		return errno == ENOENT ? -2 : -1;
	}
	if (fstat(fd, &st) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		close(fd);
		fd = -1;
	} else if (trusted(&st, "the file", path, err, errlen) < 0 ||
	    trusted_dirs(d.fd, path, err, errlen) < 0) {
		close(fd);
		fd = -1;
	}
	safedir_close(&d);
	return fd;
}

int
conf_read(struct conf *c, const char *path, int missing_ok, char *err,
    size_t errlen)
{
	struct parse p = { .c = c, .file = path, .err = err,
	    .errlen = errlen };
	struct lines_src src = { .file = path, .kind = "a configuration file",
	    .colon = 1, .err = err, .errlen = errlen };
	int fd, rc;

	assert(c != NULL && path != NULL && err != NULL);
	memset(c, 0, sizeof *c);
	if ((fd = open_trusted(path, err, errlen)) == -2) {
		if (missing_ok)
			return 0;
		snprintf(err, errlen, "%s: %s", path, strerror(ENOENT));
		return -1;
	}
	if (fd < 0)
		return -1;
	c->path = xstrdup(path);
	rc = lines_read(&src, fd, one_line, &p);
	close(fd);
	if (rc == 0)
		rc = complete(&p);
	if (rc < 0)
		conf_free(c);
	return rc;
}

static void
val_free(struct conf_val *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].v);
}

void
conf_free(struct conf *c)
{
	if (!c)
		return;
	free(c->path);
	val_free(c->top, CONF_NTOP);
	val_free(c->prune, CONF_NPRUNE);
	for (size_t i = 0; i < c->nfs; i++) {
		struct conf_fs *f = &c->fs[i];

		free(f->name);
		f->key[CONF_FS_PROJECT].v = NULL;	/* project[0]'s */
		val_free(f->key, CONF_NFS);
		val_free(f->project, f->nproject);
		free(f->project);
	}
	free(c->fs);
	memset(c, 0, sizeof *c);
}

int
conf_init(const char *prog)
{
	const char *env = getenv(CONF_ENV);
	char err[4608];

	assert(prog != NULL);
	conf_free(&loaded);
	if (conf_read(&loaded, env && *env ? env : CONF_PATH, !(env && *env),
	    err, sizeof err) == 0)
		return 0;
	fprintf(stderr, "%s: %s\n", prog, err);
	return -1;
}

const struct conf *
conf_get(void)
{
	return &loaded;
}

void
conf_end(void)
{
	conf_free(&loaded);
}

const char *
conf_pick(const char *opt, const char *env, const struct conf_val *file,
    const char *dflt, enum conf_src *src)
{
	const char *e = env ? getenv(env) : NULL;
	enum conf_src s = CONF_SRC_DEFAULT;
	const char *v = dflt;

	if (opt && *opt) {
		s = CONF_SRC_OPTION;
		v = opt;
	} else if (e && *e) {
		s = CONF_SRC_ENV;
		v = e;
	} else if (file && file->v && *file->v) {
		s = CONF_SRC_FILE;
		v = file->v;
	}
	if (src)
		*src = s;
	return v;
}

const char *
conf_src_text(enum conf_src src, int line, char *buf, size_t len)
{
	static const char *const name[] = { "option", "environment", "file",
	    "default" };

	assert(src <= CONF_SRC_DEFAULT && buf != NULL);
	if (src == CONF_SRC_FILE)
		snprintf(buf, len, "file:%d", line);
	else
		snprintf(buf, len, "%s", name[src]);
	return buf;
}

const struct conf_fs *
conf_fs_named(const struct conf *c, const char *name)
{
	assert(c != NULL);
	for (size_t i = 0; name && i < c->nfs; i++)
		if (strcmp(c->fs[i].name, name) == 0)
			return &c->fs[i];
	return NULL;
}

const struct conf_fs *
conf_fs_rooted(const struct conf *c, const char *path)
{
	assert(c != NULL);
	for (size_t i = 0; path && i < c->nfs; i++)
		if (same_root(c->fs[i].key[CONF_FS_ROOT].v, path))
			return &c->fs[i];
	return NULL;
}
