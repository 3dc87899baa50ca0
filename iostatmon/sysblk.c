/*
 * sysblk: see sysblk.h. Only the files of the given sysfs root are read;
 * libblkid (which knows only the real /sys) is asked for a whole disk only
 * when the root is the real one and the sysfs path says nothing.
 */
#include "sysblk.h"

#include <blkid.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "xalloc.h"

static void
swap_char(char *dst, size_t len, const char *src, char from, char to)
{
	size_t i;

	for (i = 0; src[i] && i + 1 < len; i++)
		dst[i] = src[i] == from ? to : src[i];
	dst[i] = 0;
}

static int
is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int
sysblk_open(struct sysblk *g, const char *sys, int real_dev, char *err,
    size_t errlen)
{
	char path[PATH_MAX];
	char *rp;
	int e;

	memset(g, 0, sizeof *g);
	snprintf(path, sizeof path, "%s/class/block", sys);
	if (access(path, R_OK | X_OK) < 0) {
		e = errno;
		snprintf(path, sizeof path, "%s/block", sys);
		if (access(path, R_OK | X_OK) < 0) {
			snprintf(err, errlen, "%s/class/block: %s", sys,
			    strerror(e));
			return -1;
		}
	}
	g->sys = xstrdup(sys);
	rp = realpath(sys, NULL);
	g->sysreal = rp ? rp : xstrdup(sys);
	g->real_dev = real_dev;
	return 0;
}

void
sysblk_close(struct sysblk *g)
{
	size_t i;

	for (i = 0; i < g->nn; i++) {
		free(g->n[i].dir);
		free(g->n[i].real);
		free(g->n[i].local);
	}
	free(g->n);
	free(g->sys);
	free(g->sysreal);
	memset(g, 0, sizeof *g);
}

/* Does node directory dir contain sub (a file or a directory)? */
static int
has(const char *dir, const char *sub)
{
	char path[PATH_MAX];

	if (snprintf(path, sizeof path, "%s/%s", dir, sub) >= (int)sizeof path)
		return 0;
	return access(path, F_OK) == 0;
}

/* Fill the facts of a new node from its sysfs directory, if any. */
static void
load(struct sysblk *g, struct sysblk_node *nd)
{
	char path[PATH_MAX];
	char *rp;
	size_t rl = strlen(g->sysreal);

	snprintf(path, sizeof path, "%s/class/block/%s", g->sys, nd->kname);
	if (!is_dir(path))
		snprintf(path, sizeof path, "%s/block/%s", g->sys, nd->kname);
	if (!is_dir(path))
		return;
	nd->dir = xstrdup(path);
	if ((rp = realpath(path, NULL)) != NULL) {
		if (strncmp(rp, g->sysreal, rl) == 0 && rp[rl] == '/')
			nd->real = xstrdup(rp + rl);
		free(rp);
	}
	nd->partition = has(nd->dir, "partition");
	nd->dm = has(nd->dir, "dm");
	nd->md = has(nd->dir, "md");
}

int
sysblk_get(struct sysblk *g, const char *kname)
{
	struct sysblk_node *nd;
	size_t i;

	if (strlen(kname) >= DS_NAME_MAX || !*kname || strchr(kname, '/'))
		return -1;
	for (i = 0; i < g->nn; i++)
		if (strcmp(g->n[i].kname, kname) == 0)
			return (int)i;
	g->n = xgrow(g->n, g->nn, &g->cap, sizeof *g->n, 64);
	nd = &g->n[g->nn];
	memset(nd, 0, sizeof *nd);
	snprintf(nd->kname, sizeof nd->kname, "%s", kname);
	swap_char(nd->name, sizeof nd->name, kname, '!', '/');
	nd->whole = -2;
	load(g, nd);
	return (int)g->nn++;
}

int
sysblk_get_name(struct sysblk *g, const char *name)
{
	char kname[DS_NAME_MAX];

	if (strlen(name) >= sizeof kname)
		return -1;
	swap_char(kname, sizeof kname, name, '/', '!');
	return sysblk_get(g, kname);
}

/* Last path component of a link or path. */
static const char *
base(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

int
sysblk_by_devno(struct sysblk *g, unsigned major, unsigned minor)
{
	char path[PATH_MAX], target[PATH_MAX];
	ssize_t n;
	int i;

	snprintf(path, sizeof path, "%s/dev/block/%u:%u", g->sys, major, minor);
	n = readlink(path, target, sizeof target - 1);
	if (n <= 0)
		return -1;
	target[n] = 0;
	i = sysblk_get(g, base(target));
	return i >= 0 && g->n[i].dir ? i : -1;
}

int
sysblk_by_dm_name(struct sysblk *g, const char *dmname)
{
	char path[PATH_MAX], buf[256];
	struct dirent *e;
	DIR *d;
	int found = -1;

	snprintf(path, sizeof path, "%s/class/block", g->sys);
	if ((d = opendir(path)) == NULL) {
		snprintf(path, sizeof path, "%s/block", g->sys);
		if ((d = opendir(path)) == NULL)
			return -1;
	}
	while (found < 0 && (e = readdir(d)) != NULL) {
		int i;

		if (strncmp(e->d_name, "dm-", 3) != 0)
			continue;
		i = sysblk_get(g, e->d_name);
		if (i >= 0 && sysblk_attr(g, i, "dm/name", buf, sizeof buf) == 0
		    && strcmp(buf, dmname) == 0)
			found = i;
	}
	closedir(d);
	return found;
}

/* Ask libblkid, which reads the real /sys; only used for the real root. */
static int
whole_from_blkid(struct sysblk *g, int i)
{
	char buf[64], disk[DS_NAME_MAX];
	unsigned ma, mi;
	dev_t whole;

	if (!g->real_dev || sysblk_attr(g, i, "dev", buf, sizeof buf) < 0 ||
	    sscanf(buf, "%u:%u", &ma, &mi) != 2)
		return -1;
	if (blkid_devno_to_wholedisk(makedev(ma, mi), disk, sizeof disk,
	    &whole) < 0)
		return -1;
	return sysblk_get(g, disk);
}

int
sysblk_whole(struct sysblk *g, int i)
{
	char parent[PATH_MAX];
	char *slash;
	int w = -1;

	if (i < 0)
		return -1;
	if (g->n[i].whole != -2)
		return g->n[i].whole;
	if (!g->n[i].partition) {
		g->n[i].whole = i;
		return i;
	}
	/* A partition's directory sits inside its disk's directory. */
	if (g->n[i].real) {
		snprintf(parent, sizeof parent, "%s", g->n[i].real);
		if ((slash = strrchr(parent, '/')) != NULL && slash != parent) {
			*slash = 0;
			w = sysblk_get(g, base(parent));
			if (w >= 0 && (!g->n[w].dir || g->n[w].partition))
				w = -1;
		}
	}
	if (w < 0)
		w = whole_from_blkid(g, i);
	g->n[i].whole = w;
	return w;
}

int
sysblk_attr(const struct sysblk *g, int i, const char *attr, char *buf,
    size_t len)
{
	char path[PATH_MAX];
	ssize_t n;
	size_t a = 0;
	int fd;

	if (i < 0 || !g->n[i].dir || len == 0)
		return -1;
	snprintf(path, sizeof path, "%s/%s", g->n[i].dir, attr);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' ' ||
	    buf[n - 1] == '\t'))
		buf[--n] = 0;
	while (buf[a] == ' ' || buf[a] == '\t')
		a++;
	memmove(buf, buf + a, (size_t)n - a + 1);
	return buf[0] ? 0 : -1;
}

int
sysblk_attr_u64(const struct sysblk *g, int i, const char *attr, uint64_t *v)
{
	char buf[64], *end;

	if (sysblk_attr(g, i, attr, buf, sizeof buf) < 0)
		return -1;
	errno = 0;
	*v = strtoull(buf, &end, 10);
	return errno || *end || buf[0] == '-' ? -1 : 0;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char **
sysblk_list(const struct sysblk *g, int i, const char *sub, size_t *n)
{
	char path[PATH_MAX];
	struct dirent *e;
	char **v = NULL;
	size_t cap = 0;
	DIR *d;

	*n = 0;
	if (i < 0 || !g->n[i].dir)
		return NULL;
	snprintf(path, sizeof path, "%s/%s", g->n[i].dir, sub);
	if ((d = opendir(path)) == NULL)
		return NULL;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		v = xgrow(v, *n, &cap, sizeof *v, 8);
		v[(*n)++] = xstrdup(e->d_name);
	}
	closedir(d);
	if (*n)
		qsort(v, *n, sizeof *v, cmp_str);
	return v;
}

void
sysblk_list_free(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

char **
sysblk_partitions(const struct sysblk *g, int i, size_t *n)
{
	char sub[PATH_MAX];
	char **v = sysblk_list(g, i, "", n);
	size_t k, keep = 0;

	for (k = 0; k < *n; k++) {
		snprintf(sub, sizeof sub, "%s/partition", v[k]);
		if (has(g->n[i].dir, sub))
			v[keep++] = v[k];
		else
			free(v[k]);
	}
	*n = keep;
	return v;
}

void
sysblk_new_walk(struct sysblk *g)
{
	g->gen++;
}

int
sysblk_visit(struct sysblk *g, int i)
{
	if (i < 0 || g->n[i].visit == g->gen)
		return 0;
	g->n[i].visit = g->gen;
	return 1;
}
