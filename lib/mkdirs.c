/*
 * mkdirs: mkdir -p. See mkdirs.h.
 */
#include "mkdirs.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* One level: made, or already a directory. */
static int
one(const char *path, mode_t mode)
{
	struct stat st;

	if (mkdir(path, mode) == 0)
		return 0;
	if (errno != EEXIST)
		return -1;
	if (stat(path, &st) < 0)
		return -1;
	if (!S_ISDIR(st.st_mode)) {
		errno = ENOTDIR;
		return -1;
	}
	return 0;
}

int
mkdirs(const char *path, mode_t mode)
{
	char *p = strdup(path), *s;
	int rc = 0;

	if (p == NULL)
		return -1;
	for (s = p + 1; rc == 0 && (s = strchr(s, '/')) != NULL; s++) {
		if (s[-1] == '/')
			continue;	/* "a//b" */
		*s = '\0';
		rc = one(p, mode);
		*s = '/';
	}
	if (rc == 0)
		rc = one(p, mode);
	free(p);
	return rc;
}
