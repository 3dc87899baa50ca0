/*
 * scratch: a test's scratch directory under /tmp, and its files by name,
 * for tests that plant links, FIFOs and files and look at what is left.
 *
 *	scratch_make("test_foo");
 *	scratch_put("a", "text");
 *	ok(!scratch_exists("b"), ...);
 *	scratch_remove();
 */
#ifndef TESTS_SCRATCH_H
#define TESTS_SCRATCH_H

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

static char scratch_dir[128];

/* The directory /tmp/NAME.XXXXXX, made; exits when it cannot be. */
static inline void
scratch_make(const char *name)
{
	snprintf(scratch_dir, sizeof scratch_dir, "/tmp/%s.XXXXXX", name);
	if (mkdtemp(scratch_dir) == NULL) {
		perror(scratch_dir);
		exit(1);
	}
}

/* The path of name in it (four may be in use at once). */
static inline const char *
scratch_at(const char *name)
{
	static char path[4][256];
	static int i;

	i = (i + 1) % 4;
	snprintf(path[i], sizeof path[i], "%s/%s", scratch_dir, name);
	return path[i];
}

/* A regular file name holding text. */
static inline void
scratch_put(const char *name, const char *text)
{
	FILE *f = fopen(scratch_at(name), "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* Is there anything at name (a link is not followed)? */
static inline int
scratch_exists(const char *name)
{
	struct stat st;

	return lstat(scratch_at(name), &st) == 0;
}

static inline void
scratch_remove(void)
{
	char cmd[sizeof scratch_dir + 16];

	snprintf(cmd, sizeof cmd, "rm -rf %s", scratch_dir);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", scratch_dir);
}

#endif
