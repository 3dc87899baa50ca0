/*
 * test_safefile: a regular file opened in place, never through a link:
 * a dangling link's target is not created, a linked file is not written,
 * a FIFO is refused without waiting for a writer, a directory and a file
 * of two names are refused, O_EXCL keeps an existing file, a new file
 * has mode 0644 less the umask. And safedir_dir: a directory reached
 * through root's link, not through another user's. Checked with lstat
 * and the victims' bytes.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "safedir.h"
#include "safefile.h"
#include "scratch.h"
#include "tap.h"

#define NOBODY 65534

/* The file's bytes, or "(none)". */
static const char *
text_of(const char *name)
{
	static char buf[64];
	FILE *f = fopen(scratch_at(name), "r");
	size_t n;

	if (f == NULL)
		return "(none)";
	n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* Open name for appending (created when missing): fd or -1, errno in
 * *e and the message in err. */
static int
append(const char *name, int *e, char *err, size_t len)
{
	int fd = safefile_open(scratch_at(name), O_WRONLY | O_APPEND | O_CREAT,
	    0644, err, len);

	*e = errno;
	return fd;
}

static void
test_refused(void)
{
	char err[512];
	int fd, e;

	scratch_put("victim", "victim\n");
	if (symlink(scratch_at("victim"), scratch_at("link")) < 0 ||
	    symlink(scratch_at("target"), scratch_at("dangling")) < 0 ||
	    symlink("/dev/null", scratch_at("devnull")) < 0 ||
	    mkfifo(scratch_at("fifo"), 0644) < 0 ||
	    mkdir(scratch_at("dir"), 0755) < 0 ||
	    link(scratch_at("victim"), scratch_at("hardlink")) < 0)
		printf("# cannot plant: %s\n", strerror(errno));

	fd = append("link", &e, err, sizeof err);
	ok(fd < 0 && e == EPERM, "a link to a file: refused (EPERM)");
	ok(strstr(err, "is a symbolic link") != NULL,
	    "a link: the message says so: %s", err);
	is_str(text_of("victim"), "victim\n", "a link: its target unchanged");
	fd = append("dangling", &e, err, sizeof err);
	ok(fd < 0 && e == EPERM, "a dangling link: refused");
	ok(!scratch_exists("target"),
	    "a dangling link: its target not created");
	fd = append("devnull", &e, err, sizeof err);
	ok(fd < 0 && e == EPERM, "a link to /dev/null: refused");
	fd = append("fifo", &e, err, sizeof err);
	ok(fd < 0 && e == EPERM && strstr(err, "is a FIFO"),
	    "a FIFO: refused, not waited on: %s", err);
	fd = safefile_open(scratch_at("fifo"), O_RDONLY, 0, err, sizeof err);
	ok(fd < 0, "a FIFO: refused for reading too");
	fd = append("dir", &e, err, sizeof err);
	ok(fd < 0 && e == EPERM && strstr(err, "is a directory"),
	    "a directory: refused: %s", err);
	fd = append("hardlink", &e, err, sizeof err);
	ok(fd < 0 && e == EPERM && strstr(err, "2 names"),
	    "a file of two names: refused: %s", err);
	is_str(text_of("victim"), "victim\n", "the victim is unchanged");
	fd = safefile_open(scratch_at("missing/x"), O_RDONLY, 0, err,
	    sizeof err);
	ok(fd < 0 && strstr(err, "missing: No such file"),
	    "a missing directory: named in the message: %s", err);
}

static void
test_regular(void)
{
	char err[512];
	struct stat st;
	mode_t mask = umask(027);
	int fd, e;

	fd = append("new", &e, err, sizeof err);
	ok(fd >= 0 && write(fd, "a", 1) == 1, "a missing file: created");
	ok(fd >= 0 && fstat(fd, &st) == 0 && (st.st_mode & 07777) == 0640,
	    "created with 0644 less the umask (027): 0640");
	ok(fd >= 0 && !(fcntl(fd, F_GETFL) & O_NONBLOCK) &&
	    (fcntl(fd, F_GETFL) & O_APPEND),
	    "the descriptor: O_APPEND kept, O_NONBLOCK cleared");
	if (fd >= 0)
		close(fd);
	umask(mask);
	fd = append("new", &e, err, sizeof err);
	ok(fd >= 0 && write(fd, "b", 1) == 1, "a regular file: opened");
	if (fd >= 0)
		close(fd);
	is_str(text_of("new"), "ab", "appended to");
	fd = safefile_open(scratch_at("new"), O_WRONLY | O_CREAT | O_EXCL, 0644,
	    err, sizeof err);
	ok(fd < 0 && errno == EEXIST, "O_EXCL: an existing file: EEXIST");
	is_str(text_of("new"), "ab", "O_EXCL: the file unchanged");
}

/* Links on the way to the directory: root's followed, nobody's not. */
static void
test_dir(void)
{
	char err[512];
	struct stat st, want;
	int fd;

	if (geteuid() != 0) {
		tap_skip("planting them needs chown", "root",
		    "safedir_dir: links by owner (3 checks)");
		return;
	}
	mkdir(scratch_at("real"), 0755);
	if (symlink(scratch_at("real"), scratch_at("roots")) < 0 ||
	    symlink(scratch_at("real"), scratch_at("theirs")) < 0 ||
	    lchown(scratch_at("theirs"), NOBODY, NOBODY) < 0)
		printf("# cannot plant: %s\n", strerror(errno));
	fd = safedir_dir(scratch_at("roots"), NULL, err, sizeof err);
	ok(fd >= 0 && fstat(fd, &st) == 0 &&
	    stat(scratch_at("real"), &want) == 0 && st.st_ino == want.st_ino,
	    "safedir_dir: root's link followed");
	if (fd >= 0)
		close(fd);
	fd = safedir_dir(scratch_at("theirs"), NULL, err, sizeof err);
	ok(fd < 0 && errno == EPERM && strstr(err, "owned by uid 65534"),
	    "safedir_dir: a link of uid 65534 refused: %s", err);
	fd = safedir_dir(scratch_at("theirs/sub"), NULL, err, sizeof err);
	ok(fd < 0, "safedir_dir: nor passed through");
}

int
main(void)
{
	scratch_make("test_safefile");
	test_refused();
	test_regular();
	test_dir();
	scratch_remove();
	return tap_end();
}
