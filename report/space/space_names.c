/*
 * space_names: the --fs, --project and --by checks of every census
 * question (space_names_int.h).
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "space.h"
#include "space_growth_int.h"
#include "space_names_int.h"
#include "suggest.h"
#include "xalloc.h"

#define LIST_MAX 10	/* names listed in a message, then how many */

/* " a, b, c (12 in all)" appended to err. */
static void
list_names(const char *const *names, size_t n, char *err, size_t errlen)
{
	size_t len = strlen(err);

	if (n == 0 && len < errlen)
		snprintf(err + len, errlen - len, " none");
	for (size_t i = 0; i < n && i < LIST_MAX && len < errlen; i++)
		len += (size_t)snprintf(err + len, errlen - len, "%s%s",
		    i ? ", " : " ", names[i]);
	if (n > LIST_MAX && len < errlen)
		snprintf(err + len, errlen - len, " (%zu in all)", n);
}

/* Each name as "NAME (ROOT)", ROOT that of its latest snapshot: --fs
 * takes either (made here, for the caller to free). */
static void
with_roots(const struct snap *s, size_t n, const char **names, size_t k)
{
	for (size_t i = 0; i < k; i++) {
		const char *root = "";
		char *one;
		size_t len;

		for (size_t j = 0; j < n; j++)
			if (strcmp(s[j].fs, names[i]) == 0 && s[j].root)
				root = s[j].root;
		len = strlen(names[i]) + strlen(root) + 4;
		one = xmalloc(len);
		snprintf(one, len, "%s (%s)", names[i], root);
		names[i] = one;
	}
}

/* After the message already in err, the file systems of s and their
 * roots. Returns -1, the error. */
static int
fs_list_error(const struct snap *s, size_t n, char *err, size_t errlen)
{
	const char **names = xcalloc(n + 1, sizeof *names);
	size_t k = space_points_fs_names(s, n, names);

	with_roots(s, n, names, k);
	list_names(names, k, err, errlen);
	for (size_t i = 0; i < k; i++)
		free((char *)names[i]);
	free(names);
	return -1;
}

int
space_names_choose_fs(const struct snap *s, size_t n, const char *want,
    int all, const char **fs, char *err, size_t errlen)
{
	int one = 1;

	for (size_t i = 0; i < n; i++) {
		if (want && strcmp(s[i].fs, want) == 0) {
			*fs = s[i].fs;
			return 1;
		}
		one &= strcmp(s[i].fs, s[0].fs) == 0;
	}
	if (n == 0 && (!want || strcmp(want, "all") == 0))
		return 0;
	if (!want && (one || !all)) {
		*fs = one ? s[0].fs : NULL;
		return one ? 1 : 2;
	}
	if (all && (!want || strcmp(want, "all") == 0))
		return 2;
	snprintf(err, errlen, FMT_USAGE "no snapshots of file system %s;"
	    " file systems:", want);
	return fs_list_error(s, n, err, errlen);
}

int
space_names_one_fs(const struct snap *s, size_t n, const char *want,
    const char **fs, char *err, size_t errlen)
{
	int rc = space_names_choose_fs(s, n, want, 0, fs, err, errlen);

	if (rc != 2)
		return rc;
	snprintf(err, errlen, FMT_USAGE "snapshots of several file systems:"
	    " name one with --fs:");
	return fs_list_error(s, n, err, errlen);
}

long
space_names_fs_list(sqlite3 *db, const char *want, struct snap **s, size_t *n,
    const char ***names, char *err, size_t errlen)
{
	const char *fs = NULL;
	long k;
	int rc;

	*names = NULL;
	if (query_census_snapshots(db, s, n, err, errlen) < 0)
		return -1;
	*names = xcalloc(*n + 1, sizeof **names);
	if ((rc = space_names_choose_fs(*s, *n, want, 0, &fs, err, errlen)) < 0)
		return -1;
	k = rc == 1 ? 1 : (long)space_points_fs_names(*s, *n, *names);
	if (rc == 1)
		(*names)[0] = fs;
	/* names: in id order; points: in time */
	space_points_sort(*s, *n);
	return k;
}

int
space_names_check_project(sqlite3 *db, const char *project, const char *fs,
    int exclude, char *err, size_t errlen)
{
	char **names;
	size_t n;
	int found;

	if (!project)
		return 0;
	if ((found = query_census_project_known(db, fs, project, err,
	    errlen)) != 0)
		return found < 0 ? -1 : 0;
	if (query_census_fs_projects(db, fs, &names, &n, err, errlen) < 0)
		return -1;
	for (size_t i = 0; i < n && !found; i++)
		found = strcmp(names[i], project) == 0;
	if (!found) {
		const char *meant = suggest_word(project,
		    (const char *const *)names, n);

		snprintf(err, errlen, FMT_USAGE "%sproject %s is in no snapshot"
		    " of %s%s%s%s; projects:", exclude ? "--exclude-project: " :
		    "", project, fs ? fs : "any file system", meant ?
		    "; did you mean '" : "", meant ? meant : "", meant ? "'?" :
		    "");
		list_names((const char *const *)names, n, err, errlen);
	}
	query_census_names_free(names, n);
	return found ? 0 : -1;
}

int
space_names_check(sqlite3 *db, const char *const *fs, size_t nfs,
    const char *const *project, size_t nproject, char *err, size_t errlen)
{
	struct snap *s;
	const char *one;
	size_t n;
	int rc = 0;

	assert(db != NULL && err != NULL && errlen > 0);
	assert((fs != NULL || nfs == 0) && (project != NULL || nproject == 0));
	if (nfs == 0 && nproject == 0)
		return 0;
	if (query_census_snapshots(db, &s, &n, err, errlen) < 0)
		return -1;
	for (size_t i = 0; i < nfs && rc == 0; i++)
		rc = space_names_choose_fs(s, n, fs[i], 0, &one, err, errlen) ==
		    1 ? 0 : -1;
	query_census_snaps_free(s, n);
	/* Of the one file system named, else of any. */
	for (size_t i = 0; i < nproject && rc == 0; i++)
		rc = space_names_check_project(db, project[i], nfs == 1 ?
		    fs[0] : NULL, 0, err, errlen);
	return rc;
}

static const char *const by_names[] = { [BY_PROJECT] = "project",
    [BY_USER] = "user", [BY_GROUP] = "group" };

const char *
space_names_by_name(enum group_by by)
{
	assert(by >= BY_PROJECT && by <= BY_GROUP);
	return by_names[by];
}

int
space_names_by(const char *want, enum group_by *by, char *err,
    size_t errlen)
{
	*by = BY_PROJECT;
	if (!want)
		return 0;
	for (int i = BY_PROJECT; i <= BY_GROUP; i++)
		if (!strcmp(want, by_names[i])) {
			*by = (enum group_by)i;
			return 0;
		}
	snprintf(err, errlen, FMT_USAGE "--by %s: expected project, user or"
	    " group", want);
	return -1;
}
