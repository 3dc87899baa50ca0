/*
 * limits: each project's limit, recorded with the snapshot (v_limit).
 *
 * fsscan --limits FILE reads a CSV "project,bytes,inodes", the form a site
 * exports from lfs quota, mmrepquota or xfs_quota: one line per project,
 * either limit may be empty (no limit of that kind). Fields may be quoted
 * as RFC 4180 does (a name holding a comma); an optional header line
 * "project,bytes,inodes", blank lines and lines starting with '#' are
 * skipped. bytes is a whole number of bytes, with a size unit as written
 * ("10TiB" is 10 * 2^40, "10TB" 10 * 10^12); inodes a whole number, with
 * K, M, G, T as powers of 1000 ("2M"). A project listed twice, a line
 * without three fields, or a value that is not such a number is an error
 * naming the file and line; so are a file past 64 MiB, a line past 64 KiB
 * and a NUL byte (lib/lines.h).
 *
 * Project quotas (quota.c) add the limits of the projects a projid rule
 * named; a project the file lists keeps the file's limit.
 */
#ifndef FSSCAN_LIMITS_H
#define FSSCAN_LIMITS_H

#include <stddef.h>
#include <stdint.h>

#include "strtab.h"

struct limit {
	char *project;
	int has_bytes, has_inodes;
	int64_t bytes, inodes;
	const char *source;		/* "file" or "quota" */
};

struct limits {
	struct limit *v;	/* v[i].project is names.name[i] */
	size_t n, cap;
	struct strtab names;	/* project -> index into v */
};

/* Read FILE into l (empty or not), within the bounds of lib/lines.h
 * (--limits /dev/zero fails at once), in time linear in its lines. 0, or
 * -1 with "FILE:LINE: why". */
int limits_load(const char *path, struct limits *l, char *err,
    size_t errlen);
/* The limit of project, or NULL. */
const struct limit *limits_find(const struct limits *l, const char *project);
/* Add a limit (copied) unless project already has one: 1 added, 0 not. */
int limits_add(struct limits *l, const struct limit *x);
void limits_free(struct limits *l);

#endif
