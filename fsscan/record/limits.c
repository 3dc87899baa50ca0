/*
 * limits: the --limits FILE reader and the list of limits (record.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lines.h"
#include "record.h"
#include "units.h"
#include "xalloc.h"

#define NFIELD 3

/* Split one CSV record (no line end) into at most NFIELD + 1 fields,
 * unquoting RFC 4180 quoted fields in place. Returns the number of fields,
 * or -1 for a quote that is not closed or is followed by text. */
static int
split(char *s, char **f)
{
	int n = 0;
	char *w;

	for (;;) {
		if (n == NFIELD + 1)
			return n;
		f[n++] = w = s;
		if (*s == '"') {
			for (s++;; s++) {
				if (*s == '\0')
					return -1;
				if (*s == '"' && s[1] == '"')
					s++;
				else if (*s == '"')
					break;
				*w++ = *s;
			}
			s++;
			if (*s != ',' && *s != '\0')
				return -1;
		} else {
			while (*s && *s != ',')
				*w++ = *s++;
		}
		if (*s == '\0') {
			*w = '\0';
			return n;
		}
		*w = '\0';
		s++;
	}
}

/* An empty field (no limit), or a whole number of the allowed kinds up to
 * 2^63 - 1. 0, or -1 with why. */
static int
value(const char *s, enum units_kind other, int *has, int64_t *v,
    const char **why)
{
	struct units_value u;

	*has = 0;
	if (*s == '\0')
		return 0;
	if (units_parse(s, &u) < 0 || (u.kind != UNITS_PLAIN &&
	    u.kind != other)) {
		*why = other == UNITS_SIZE ? (u.kind == UNITS_COUNT ?
		    "a byte count needs its unit as written: 10TiB (2^40) or"
		    " 10TB (10^12)" : "expected bytes (4096, 10TiB, 10TB)") :
		    "expected an inode count (1000000, 2M)";
		return -1;
	}
	if (!u.exact || u.n > INT64_MAX) {
		*why = "not a whole number below 2^63";
		return -1;
	}
	*has = 1;
	*v = (int64_t)u.n;
	return 0;
}

/* One line: 1 a limit, 0 nothing (blank, comment, header), -1 error. */
static int
parse_line(char *line, int first, struct limit *x, const char **why)
{
	char *f[NFIELD + 1];
	int n;

	line[strcspn(line, "\r")] = '\0';
	if (line[0] == '\0' || line[0] == '#')
		return 0;
	if (first && strcmp(line, "project,bytes,inodes") == 0)
		return 0;
	n = split(line, f);
	if (n != NFIELD) {
		*why = n < 0 ? "a quoted field is not closed" :
		    "expected three fields: project,bytes,inodes";
		return -1;
	}
	if (f[0][0] == '\0') {
		*why = "the project name is empty";
		return -1;
	}
	if (value(f[1], UNITS_SIZE, &x->has_bytes, &x->bytes, why) < 0 ||
	    value(f[2], UNITS_COUNT, &x->has_inodes, &x->inodes, why) < 0)
		return -1;
	x->project = f[0];
	x->source = "file";
	return x->has_bytes || x->has_inodes;	/* "name,,": no limit */
}

struct load {
	struct limits *l;
	const char *file;
	int first;		/* no line but blanks and comments yet */
	char *err;
	size_t errlen;
};

static int
load_line(void *arg, char *line, int lineno)
{
	struct load *ld = arg;
	const char *why = NULL;
	struct limit x;
	int k = parse_line(line, ld->first, &x, &why);

	if (line[0] != '\0' && line[0] != '#')
		ld->first = 0;	/* a header only comes first */
	if (k > 0 && !limits_add(ld->l, &x))
		why = "the project is listed twice", k = -1;
	if (k < 0)
		snprintf(ld->err, ld->errlen, "%s:%d: %s", ld->file, lineno,
		    why);
	return k < 0 ? -1 : 0;
}

int
limits_load(const char *path, struct limits *l, char *err, size_t errlen)
{
	struct lines_src src = { path, NULL, "a limits file", 1, err,
	    errlen };
	struct load ld = { l, path, 1, err, errlen };

	return lines_read_path(&src, load_line, &ld);
}

const struct limit *
limits_find(const struct limits *l, const char *project)
{
	size_t i = strtab_find(&l->names, project, strlen(project));

	return i == STRTAB_NONE ? NULL : &l->v[i];
}

int
limits_add(struct limits *l, const struct limit *x)
{
	int added;
	size_t i = strtab_add(&l->names, x->project, strlen(x->project),
	    &added);

	if (!added)
		return 0;
	l->v = xgrow(l->v, l->n, &l->cap, sizeof *l->v, 16);
	l->v[i] = *x;
	l->v[i].project = l->names.name[i];
	l->n++;
	return 1;
}

void
limits_free(struct limits *l)
{
	strtab_free(&l->names);
	free(l->v);
	memset(l, 0, sizeof *l);
}
