/*
 * import_ident: the identity side file of `iostatmon import --ident FILE`:
 * what the capture's sysfs would have said of its disks, given by hand. A
 * table of tab-separated fields; its first line, the header, names the
 * columns: `device` first, then any of `wwn`, `serial`, `model`, `slot`,
 * each once, in any order. Every other line is one device: its diskstats
 * name and its values, an empty field a value it does not have. Lines
 * that are empty or start with '#' are left out. A malformed line (the
 * wrong number of fields, a device named twice or a name diskstats cannot
 * hold) is reported with the file and line and skipped; a malformed
 * header leaves the whole file out. The capture is imported either way.
 */
#ifndef IOSTATMON_IMPORT_IDENT_H
#define IOSTATMON_IMPORT_IDENT_H

#include <stddef.h>

#include "iolog/iolog.h"

struct import_ident {
	char *name;			/* diskstats name */
	size_t nattr;			/* the log's attributes: wwid, ... */
	struct iolog_attr *attr;
};

struct import_idents {
	struct import_ident *d;		/* sorted by name */
	size_t n;
	size_t bad;			/* malformed lines reported */
};

/* Read path into t. 0 (bad counts what was left out, each reported on
 * stderr as "iostatmon import: FILE:LINE: why"), or -1 when the file
 * cannot be read, or stops being readable (reported; t is then empty:
 * the import goes on without it). */
int import_ident_read(const char *path, struct import_idents *t);
/* The identity of the device named name, or NULL. */
const struct import_ident *import_ident_find(const struct import_idents *t,
    const char *name);
void import_ident_free(struct import_idents *t);

#endif
