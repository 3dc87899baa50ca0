/*
 * test_iolog_open: the writer and its file, which iolog_open.c attaches
 * it to. A torn tail repaired in place when the file cannot grow
 * (RLIMIT_FSIZE makes the kernel refuse every byte past a size: a full
 * disk for this process), and a writer whose file is deleted, moved or
 * replaced while it writes: detached, attached to a new file, nothing
 * reported written lost. A link, a FIFO or a file of two names at the
 * path is refused, never written through.
 */
#include <signal.h>

#include "iolog_fixture.h"

static void
write_file(const char *path, const uint8_t *buf, size_t len)
{
	FILE *f = fopen(path, "wb");

	if (f == NULL || fwrite(buf, 1, len, f) != len || fclose(f) != 0)
		abort();
}

static int
gzip_ok(const char *path)
{
	char cmd[256];

	snprintf(cmd, sizeof cmd, "gzip -t %s 2>/dev/null", path);
	return system(cmd) == 0;
}

/* The file decodes without damage into exactly fx's expected frames. */
static int
decodes_as(const char *path, const struct fixture *fx, const char *what)
{
	struct decoded d;
	uint8_t *buf;
	size_t len, i;
	int good;

	buf = read_file(path, &len);
	decode_buf(buf, len, &d);
	good = d.ndamage == 0 && d.n == fx->n;
	for (i = 0; good && i < d.n; i++)
		good = strcmp(d.got[i], fx->exp[i]) == 0;
	if (!good)
		printf("# %s: %zu frames, want %zu; damage %zu (%s)\n", what,
		    d.n, fx->n, d.ndamage, d.reason);
	decoded_free(&d);
	free(buf);
	return good;
}

/* A log torn inside a frame, on a "full disk": the repair cannot write
 * its seal, so it waits with the frames in the backlog; once the file
 * can grow, seal and frames go out, in place. */
static void
test_repair_full(void)
{
	struct fixture fx;
	char err[512];
	struct iolog_writer *w;
	struct stat st0, st1;
	uint8_t *torn, *out;
	size_t len, outlen, whole, backlog;
	int repaired = -1, rc;

	signal(SIGXFSZ, SIG_IGN);
	fx_init(&fx, 21);
	w = iolog_writer_open(fx.path, NULL, err, sizeof err);
	fx_member(&fx, w, 3, 6);
	torn = read_file(fx.path, &len);	/* killed: no trailer */
	iolog_writer_close(w);
	fx_drop(&fx, 1);			/* the last frame, torn: */
	len -= 3;				/* a write cut short */
	whole = fx.end[fx.n - 1];
	write_file(fx.path, torn, len);
	stat(fx.path, &st0);

	/* Nothing is printed while the limit holds: it holds for stdout too. */
	fx_fsize(0);				/* not one byte more */
	w = iolog_writer_open(fx.path, &repaired, err, sizeof err);
	if (w != NULL)
		fx_member(&fx, w, 2, 3);
	backlog = w != NULL ? iolog_writer_backlog(w) : 0;
	fx_fsize(RLIM_INFINITY);
	ok_why(w != NULL, err, "a torn log on a full disk opens");
	if (w == NULL)
		return;
	ok_why(repaired == 2 && strstr(err, fx.path) &&
	    strstr(err, strerror(EFBIG)), err, "the repair is found, and "
	    "waits: its seal cannot be written");
	ok(fx.write_errors > 0 && backlog > 0, "the next member waits in the "
	    "backlog (%zu bytes)", backlog);
	rc = iolog_writer_flush(w);
	ok(rc == 0 && iolog_writer_backlog(w) == 0, "once the file can "
	    "grow, the seal and the backlog are written");
	ok(iolog_writer_close(w) == 0, "close");
	stat(fx.path, &st1);
	out = read_file(fx.path, &outlen);
	ok(st0.st_ino == st1.st_ino && outlen > whole &&
	    memcmp(out, torn, whole) == 0, "in place: the "
	    "same inode, every whole frame's bytes where they were");
	ok(decodes_as(fx.path, &fx, "repair on a full disk"), "every whole "
	    "frame of the torn log and the new member decode, no damage");
	ok(gzip_ok(fx.path), "gzip -t passes");
	free(out);
	free(torn);
	fx_free(&fx);
}

/* The file is deleted before any of the member reached it (the disk was
 * full): the member moves to the new file whole. */
static void
test_deleted_in_memory(void)
{
	struct fixture fx;
	char err[512];
	struct iolog_writer *w;
	size_t dropped;
	int rc;

	fx_init(&fx, 22);
	w = iolog_writer_open(fx.path, NULL, err, sizeof err);
	ok(iolog_writer_at_path(w, fx.path) == FDPATH_SAME, "at_path: the "
	    "open file");
	fx_fsize(0);
	fx_member(&fx, w, 2, 2);
	fx_fsize(RLIM_INFINITY);
	unlink(fx.path);
	ok(iolog_writer_at_path(w, fx.path) == FDPATH_DELETED, "at_path: "
	    "deleted");
	dropped = iolog_writer_detach(w, ENOENT);
	is_u64(dropped, 0, "detach drops nothing: no byte of the member was "
	    "in the deleted file");
	ok(iolog_writer_at_path(w, fx.path) == FDPATH_DELETED, "at_path: "
	    "detached: no file");
	write_file(fx.path, (const uint8_t *)"", 0);	/* recreated */
	errno = 0;
	rc = fx_values(&fx, w, 2, 3);
	ok(rc == -1 && errno == ENOENT, "a detached writer keeps frames in "
	    "the backlog; the write fails with the reason it was detached");
	rc = iolog_writer_attach(w, fx.path, NULL, err, sizeof err);
	ok_why(rc == 0 && iolog_writer_backlog(w) == 0, err, "attached to "
	    "the file now at the path: the backlog is written");
	ok(!iolog_writer_needs_header(w), "the member goes on");
	fx_values(&fx, w, 2, 4);
	ok(iolog_writer_close(w) == 0, "close");
	ok(decodes_as(fx.path, &fx, "member moved"), "the new file holds the "
	    "whole member, every frame");
	ok(gzip_ok(fx.path), "gzip -t passes");
	fx_free(&fx);
}

/* Deleted after the member began in it: what is on disk went with the
 * file, what waited in the backlog is reported dropped, and the next
 * frames need a new member in the new file. */
static void
test_deleted_on_disk(void)
{
	struct fixture fx, gone;
	char err[512];
	struct iolog_writer *w;
	size_t dropped;
	int rc;

	fx_init(&gone, 23);
	w = iolog_writer_open(gone.path, NULL, err, sizeof err);
	fx_member(&gone, w, 2, 2);
	fx_fsize(1);
	fx_values(&gone, w, 2, 3);
	fx_fsize(RLIM_INFINITY);
	unlink(gone.path);
	dropped = iolog_writer_detach(w, ENOENT);
	ok(dropped > 0 && iolog_writer_needs_header(w), "detach from a "
	    "deleted file: the backlog written for it is dropped (%zu "
	    "bytes), a new member is needed", dropped);
	fx = gone;
	fx.n = 0;
	memcpy(fx.path, gone.path, sizeof fx.path);
	rc = iolog_writer_attach(w, fx.path, NULL, err, sizeof err);
	ok_why(rc == 0, err, "attach: a new file at the same path");
	fx_member(&fx, w, 1, 2);
	ok(iolog_writer_close(w) == 0, "close");
	ok(decodes_as(fx.path, &fx, "after deletion"), "the new file holds "
	    "the new member only");
	fx_free(&fx);
	for (size_t i = 0; i < gone.n; i++)
		free(gone.exp[i]);
}

/* Moved away (logrotate without copytruncate) or replaced by another
 * file: the member is finished in the moved file, which stays a whole
 * log, and the writer goes on in the file now at the path. */
static void
test_moved(void)
{
	struct fixture fx, next;
	char err[512], moved[sizeof fx.path + 2];
	struct iolog_writer *w;
	int rc;

	fx_init(&fx, 24);
	snprintf(moved, sizeof moved, "%s.1", fx.path);
	w = iolog_writer_open(fx.path, NULL, err, sizeof err);
	fx_member(&fx, w, 2, 3);
	rename(fx.path, moved);
	ok(iolog_writer_at_path(w, fx.path) == FDPATH_MOVED, "at_path: "
	    "moved away");
	if (symlink(moved, fx.path) < 0)
		printf("# symlink: %s\n", strerror(errno));
	ok(iolog_writer_at_path(w, fx.path) == FDPATH_MOVED, "at_path: a "
	    "link at the path, even to the open file, is another file");
	unlink(fx.path);
	write_file(fx.path, (const uint8_t *)"", 0);
	ok(iolog_writer_at_path(w, fx.path) == FDPATH_MOVED, "at_path: "
	    "another file at the path");
	unlink(fx.path);
	is_u64(iolog_writer_detach(w, ENOENT), 0, "detach drops nothing");
	ok(gzip_ok(moved), "the moved file is finished: gzip -t passes");
	ok(decodes_as(moved, &fx, "moved"), "and holds the whole member");
	unlink(moved);
	fx_init(&next, 25);
	rc = iolog_writer_attach(w, next.path, NULL, err, sizeof err);
	ok_why(rc == 0, err, "attach to the new file");
	fx_member(&next, w, 1, 1);
	ok(iolog_writer_close(w) == 0, "close");
	ok(decodes_as(next.path, &next, "after the move"), "the new file "
	    "holds the next member");
	fx_free(&next);
	fx_free(&fx);
}

/* A link, a FIFO or a file of two names at the path: refused, nothing
 * written through it, frames wait in the backlog; they reach the file
 * that is there once it is a regular one. */
static void
test_refused(void)
{
	struct fixture fx;
	char err[512], victim[sizeof fx.path + 8], fifo[sizeof fx.path + 8];
	struct iolog_writer *w;
	struct stat st;
	int rc;

	fx_init(&fx, 26);
	snprintf(victim, sizeof victim, "%s.v", fx.path);
	snprintf(fifo, sizeof fifo, "%s.f", fx.path);
	write_file(victim, (const uint8_t *)"victim", 6);
	unlink(fx.path);
	if (symlink(victim, fx.path) < 0 || mkfifo(fifo, 0644) < 0)
		printf("# cannot plant: %s\n", strerror(errno));
	w = iolog_writer_open(fx.path, NULL, err, sizeof err);
	ok(w == NULL && errno == EPERM && strstr(err, "symbolic link"),
	    "open: a link at the path is refused: %s", err);
	w = iolog_writer_open(fifo, NULL, err, sizeof err);
	ok(w == NULL && errno == EPERM && strstr(err, "FIFO"),
	    "open: a FIFO is refused, not waited on: %s", err);
	w = iolog_writer_detached();
	fx_member(&fx, w, 1, 2);
	rc = iolog_writer_attach(w, fx.path, NULL, err, sizeof err);
	ok(rc < 0 && errno == EPERM, "attach: a link is refused: %s", err);
	ok(stat(victim, &st) == 0 && st.st_size == 6,
	    "the link's target is not written");
	unlink(fx.path);
	if (link(victim, fx.path) < 0)
		printf("# link: %s\n", strerror(errno));
	rc = iolog_writer_attach(w, fx.path, NULL, err, sizeof err);
	ok(rc < 0 && errno == EPERM, "attach: a file of two names is "
	    "refused: %s", err);
	unlink(fx.path);
	rc = iolog_writer_attach(w, fx.path, NULL, err, sizeof err);
	ok_why(rc == 0, err, "attach: once the path is free, a new file");
	ok(iolog_writer_close(w) == 0, "close");
	ok(decodes_as(fx.path, &fx, "after refusals"), "the frames that "
	    "waited are all in it");
	ok(stat(victim, &st) == 0 && st.st_size == 6, "the victim: 6 bytes");
	w = iolog_writer_create(fx.path, err, sizeof err);
	ok(w == NULL && errno == EEXIST, "create: an existing file: EEXIST");
	w = iolog_writer_create(fifo, err, sizeof err);
	ok(w == NULL && errno == EPERM, "create: a FIFO: EPERM");
	unlink(victim);
	unlink(fifo);
	unlink(fx.path);
	fx_free(&fx);
}

int
main(void)
{
	signal(SIGXFSZ, SIG_IGN);
	test_repair_full();
	test_deleted_in_memory();
	test_deleted_on_disk();
	test_moved();
	test_refused();
	return tap_end();
}
