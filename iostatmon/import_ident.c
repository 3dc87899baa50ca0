/*
 * import_ident: see import_ident.h. The file must be a regular file (a
 * FIFO would hold the import up), read through lib/lines (bounded). Values are
 * kept byte for byte, as sysfs would give them; the log and the database
 * hold any bytes, and every output escapes them.
 */
#include "import_ident.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diskstats.h"
#include "fmt.h"
#include "lines.h"
#include "xalloc.h"

#define NCOL_MAX 5

/* The side file's columns and the log's attribute of each (the database
 * calls the log's wwid wwn). */
static const struct {
	const char *col, *key;
} ident_col[] = {
	{ "wwn", "wwid" }, { "serial", "serial" }, { "model", "model" },
	{ "slot", "slot" },
};
#define NIDENT (sizeof ident_col / sizeof *ident_col)

struct reader {
	const char *path;
	struct import_idents *t;
	size_t cap;
	int header;		/* the header was read */
	int ignored;		/* the header was bad: nothing more is used */
	size_t ncol;		/* the header's fields */
	int key[NCOL_MAX];	/* ident_col index of each field; -1: device */
};

static void
bad(struct reader *r, int lineno, const char *why, const char *what)
{
	/* The path and the field are the user's: escaped as every
	 * diagnostic is. */
	fmt_diag(stderr, "iostatmon import", "%s:%d: %s%s%s", r->path, lineno,
	    why, what ? ": " : "", what ? what : "");
	r->t->bad++;
}

/* Split line at tabs into at most max fields; the count, or max + 1 when
 * there are more. */
static size_t
split(char *line, char **f, size_t max)
{
	size_t n = 0;
	char *p = line;

	for (;;) {
		char *tab = strchr(p, '\t');

		if (n == max)
			return max + 1;
		f[n++] = p;
		if (tab == NULL)
			return n;
		*tab = '\0';
		p = tab + 1;
	}
}

static int
header(struct reader *r, char *line, int lineno)
{
	char *f[NCOL_MAX];
	size_t n = split(line, f, NCOL_MAX);

	r->header = 1;
	if (n > NCOL_MAX || strcmp(f[0], "device") != 0) {
		r->ignored = 1;
		bad(r, lineno, "the header is \"device\" then any of wwn, "
		    "serial, model, slot, separated by tabs; the file is left "
		    "out", NULL);
		return 0;
	}
	r->ncol = n;
	r->key[0] = -1;
	for (size_t c = 1; c < n; c++) {
		r->key[c] = -1;
		for (size_t k = 0; k < NIDENT; k++)
			if (strcmp(f[c], ident_col[k].col) == 0)
				r->key[c] = (int)k;
		for (size_t d = 1; d < c && r->key[c] >= 0; d++)
			if (r->key[d] == r->key[c])
				r->key[c] = -1;
		if (r->key[c] < 0) {
			r->ignored = 1;
			bad(r, lineno, "an unknown or repeated column, the file "
			    "is left out", f[c]);
			return 0;
		}
	}
	return 0;
}

static int
cmp_name(const void *a, const void *b)
{
	return strcmp(((const struct import_ident *)a)->name,
	    ((const struct import_ident *)b)->name);
}

static int
device_line(struct reader *r, char *line, int lineno)
{
	struct import_ident *d;
	char *f[NCOL_MAX];
	size_t n = split(line, f, NCOL_MAX);

	if (n != r->ncol) {
		bad(r, lineno, "the header names a different number of fields; "
		    "line left out", NULL);
		return 0;
	}
	if (f[0][0] == '\0' || strlen(f[0]) >= DS_NAME_MAX) {
		bad(r, lineno, "not a diskstats device name; line left out",
		    NULL);
		return 0;
	}
	for (size_t i = 0; i < r->t->n; i++)
		if (strcmp(r->t->d[i].name, f[0]) == 0) {
			bad(r, lineno, "a device named before; line left out",
			    f[0]);
			return 0;
		}
	r->t->d = xgrow(r->t->d, r->t->n, &r->cap, sizeof *r->t->d, 16);
	d = &r->t->d[r->t->n++];
	d->name = xstrdup(f[0]);
	d->nattr = 0;
	d->attr = xcalloc(NIDENT, sizeof *d->attr);
	/* In the order devident gives them, whatever the header's. */
	for (size_t k = 0; k < NIDENT; k++)
		for (size_t c = 1; c < n; c++)
			if (r->key[c] == (int)k && f[c][0] != '\0') {
				d->attr[d->nattr].key = xstrdup(
				    ident_col[k].key);
				d->attr[d->nattr++].value = xstrdup(f[c]);
			}
	return 0;
}

static int
one_line(void *arg, char *line, int lineno)
{
	struct reader *r = arg;

	if (line[0] == '\0' || line[0] == '#' || r->ignored)
		return 0;
	if (!r->header)
		return header(r, line, lineno);
	return device_line(r, line, lineno);
}

/* The file, opened without blocking (a FIFO would wait for a writer) and
 * refused unless a regular file. The descriptor, or -1 with err. */
static int
open_regular(const char *path, char *err, size_t errlen)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    fcntl(fd, F_SETFL, O_RDONLY) < 0) {
		snprintf(err, errlen, "%s: not a regular file", path);
		close(fd);
		return -1;
	}
	return fd;
}

int
import_ident_read(const char *path, struct import_idents *t)
{
	char err[4096];
	struct lines_src src = { path, NULL, "an identity file", 1, err,
	    sizeof err };
	struct reader r = { .path = path, .t = t };
	int fd;

	memset(t, 0, sizeof *t);
	if ((fd = open_regular(path, err, sizeof err)) < 0 ||
	    lines_read(&src, fd, one_line, &r) < 0) {
		fprintf(stderr, "iostatmon import: --ident %s\n", err);
		if (fd >= 0)
			close(fd);
		import_ident_free(t);
		return -1;
	}
	close(fd);
	if (t->n)
		qsort(t->d, t->n, sizeof *t->d, cmp_name);
	return 0;
}

const struct import_ident *
import_ident_find(const struct import_idents *t, const char *name)
{
	struct import_ident key = { .name = (char *)name };

	return t->n ? bsearch(&key, t->d, t->n, sizeof *t->d, cmp_name) :
	    NULL;
}

void
import_ident_free(struct import_idents *t)
{
	for (size_t i = 0; i < t->n; i++) {
		for (size_t k = 0; k < t->d[i].nattr; k++) {
			free(t->d[i].attr[k].key);
			free(t->d[i].attr[k].value);
		}
		free(t->d[i].attr);
		free(t->d[i].name);
	}
	free(t->d);
	t->d = NULL;
	t->n = 0;
}
