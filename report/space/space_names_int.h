/*
 * space_names_int: the file systems and projects a question may name, and
 * what it may be asked per (--by). A name
 * the database does not know is a usage error that lists the known ones,
 * never an empty answer (a typo would otherwise read as "no data").
 */
#ifndef IOCENSUS_SPACE_NAMES_INT_H
#define IOCENSUS_SPACE_NAMES_INT_H

#include <stddef.h>

#include <sqlite3.h>

#include "query/query.h"

/* The file system of --fs want among the snapshots s: 1 chosen (*fs), 2
 * all of them (several and no --fs, or --fs all where no file system has
 * that name; only when all is allowed), 0 the database has no snapshots,
 * -1 a usage error in err listing the file systems. */
int space_names_choose_fs(const struct snap *s, size_t n, const char *want,
    int all, const char **fs, char *err, size_t errlen);

/* As space_names_choose_fs without all, for a question about one file
 * system: several and no --fs is a usage error listing them. 1 chosen
 * (*fs), 0 no snapshots, -1 with err. */
int space_names_one_fs(const struct snap *s, size_t n, const char *want,
    const char **fs, char *err, size_t errlen);

/* The snapshots (*s, sorted by start time) and the file systems a
 * question covers (*names, pointing into *s: --fs want, else every one in
 * the order of its first id). Returns how many file systems, or -1 with
 * err (a usage error for a --fs that names none). Free *names, and *s
 * with query_census_snaps_free. */
long space_names_fs_list(sqlite3 *db, const char *want, struct snap **s,
    size_t *n, const char ***names, char *err, size_t errlen);

/* project (NULL: none to check) must be in some snapshot of file system
 * fs (NULL: of any). 0, or -1 with a usage error listing the projects
 * and the one likely meant; exclude: it was given to --exclude-project,
 * where a name that matches nothing would leave every project in. */
int space_names_check_project(sqlite3 *db, const char *project, const char *fs,
    int exclude, char *err, size_t errlen);

/* --by of a question asked per project, user or group (want NULL: per
 * project): 0 with *by, or -1 with a usage error. */
int space_names_by(const char *want, enum group_by *by, char *err,
    size_t errlen);
/* "project", "user" or "group". */
const char *space_names_by_name(enum group_by by);

#endif
