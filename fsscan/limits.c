/*
 * limits: the --limits FILE reader and the list of limits (limits.h).
 */
#include "limits.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

	line[strcspn(line, "\r\n")] = '\0';
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

int
limits_load(const char *path, struct limits *l, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	const char *why = NULL;
	int lineno = 0, rc = 0, first = 1;

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	while (rc == 0 && getline(&line, &cap, f) >= 0) {
		struct limit x;
		int k;

		lineno++;
		k = parse_line(line, first, &x, &why);
		if (line[0] != '\0' && line[0] != '#')
			first = 0;	/* a header only comes first */
		if (k < 0)
			rc = -1;
		else if (k > 0 && !limits_add(l, &x)) {
			why = "the project is listed twice";
			rc = -1;
		}
	}
	if (rc == 0 && ferror(f)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		rc = -2;
	}
	if (rc == -1)
		snprintf(err, errlen, "%s:%d: %s", path, lineno, why);
	free(line);
	fclose(f);
	return rc < 0 ? -1 : 0;
}

const struct limit *
limits_find(const struct limits *l, const char *project)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->v[i].project, project) == 0)
			return &l->v[i];
	return NULL;
}

int
limits_add(struct limits *l, const struct limit *x)
{
	if (limits_find(l, x->project))
		return 0;
	l->v = xgrow(l->v, l->n, &l->cap, sizeof *l->v, 16);
	l->v[l->n] = *x;
	l->v[l->n++].project = xstrdup(x->project);
	return 1;
}

void
limits_free(struct limits *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].project);
	free(l->v);
	memset(l, 0, sizeof *l);
}
