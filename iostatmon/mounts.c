/*
 * mounts: see mounts.h.
 */
#include "mounts.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mountpath.h"
#include "xalloc.h"

/* proc(5) escapes space, tab, newline and backslash as \ooo octal. */
static char *
unescape(const char *s)
{
	char *out = xmalloc(strlen(s) + 1), *o = out;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*o++ = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 |
			    (s[3] - '0'));
			s += 4;
		} else {
			*o++ = *s++;
		}
	}
	*o = '\0';
	return out;
}

static void
add(struct mount_tab *t, unsigned major, unsigned minor, const char *target,
    const char *fstype, const char *source)
{
	struct mount_ent *e;

	t->v = xreallocarray(t->v, t->n + 1, sizeof *t->v);
	e = &t->v[t->n++];
	e->major = major;
	e->minor = minor;
	e->target = target ? unescape(target) : NULL;
	e->fstype = xstrdup(fstype);
	e->source = unescape(source);
}

/* Split a line on blanks into at most max fields; returns the count. */
static int
split(char *line, char **f, int max)
{
	int n = 0;

	for (char *tok = strtok(line, " \t\n"); tok && n < max;
	    tok = strtok(NULL, " \t\n"))
		f[n++] = tok;
	return n;
}

/*
 * "36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw": the
 * optional fields end at a lone "-", after which come type and source.
 */
static void
mountinfo_line(struct mount_tab *t, char *line)
{
	char *f[64];
	unsigned major, minor;
	int n = split(line, f, 64), dash;

	if (n < 10 || sscanf(f[2], "%u:%u", &major, &minor) != 2)
		return;
	for (dash = 6; dash < n && strcmp(f[dash], "-") != 0; dash++)
		;
	if (dash + 2 >= n)
		return;
	add(t, major, minor, f[4], f[dash + 1], f[dash + 2]);
}

/* "Filename Type Size Used Priority", then one line per swap area. */
static void
swaps_line(struct mount_tab *t, char *line)
{
	char *f[8];
	int n = split(line, f, 8);

	if (n < 2 || strcmp(f[0], "Filename") == 0)
		return;
	add(t, 0, 0, NULL, f[1], f[0]);
}

static int
read_lines(const char *path, struct mount_tab *t,
    void (*fn)(struct mount_tab *, char *))
{
	FILE *fp = fopen(path, "re");
	char *line = NULL;
	size_t cap = 0;
	int e;

	memset(t, 0, sizeof *t);
	if (!fp)
		return -1;
	while (getline(&line, &cap, fp) > 0)
		fn(t, line);
	e = ferror(fp) ? errno : 0;
	free(line);
	fclose(fp);
	if (e) {
		mounts_tab_free(t);
		errno = e;
		return -1;
	}
	return 0;
}

int
mounts_read(const char *path, struct mount_tab *t)
{
	return read_lines(path, t, mountinfo_line);
}

int
mounts_swaps_read(const char *path, struct mount_tab *t)
{
	return read_lines(path, t, swaps_line);
}

void
mounts_tab_free(struct mount_tab *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->v[i].target);
		free(t->v[i].fstype);
		free(t->v[i].source);
	}
	free(t->v);
	memset(t, 0, sizeof *t);
}

const struct mount_ent *
mounts_find_target(const struct mount_tab *t, const char *target)
{
	for (size_t i = t->n; i-- > 0;)
		if (t->v[i].target && strcmp(t->v[i].target, target) == 0)
			return &t->v[i];
	return NULL;
}

const struct mount_ent *
mounts_containing(const struct mount_tab *t, const char *path)
{
	const struct mount_ent *best = NULL;
	size_t best_len = 0;

	for (size_t i = 0; i < t->n; i++) {
		size_t n = t->v[i].target ?
		    mountpath_prefix_len(t->v[i].target, path) : 0;

		if (n > 0 && n >= best_len) {
			best = &t->v[i];
			best_len = n;
		}
	}
	return best;
}
