/*
 * test_iolog_write: the writer's backlog when writes fail (RLIMIT_FSIZE
 * makes the kernel refuse them): frames wait and go out once the file
 * can grow, an overflowing backlog gives its member up and seals the
 * file; and what the writer refuses: frames out of order or out of
 * range, and a file that is not a log.
 */
#include <signal.h>

#include "iolog_fixture.h"

static const struct iolog_header hdr = { .host = "h", .long_bits = 64,
    .interval_ms = 1000 };

static void
test_backlog(void)
{
	struct fixture fx;
	struct decoded d;
	char err[256], cmd[128];
	struct iolog_writer *w;
	struct stat st;
	uint8_t *buf;
	size_t len, before;
	int i, rc, fails = 0;

	signal(SIGXFSZ, SIG_IGN);
	fx_init(&fx, 6);
	w = iolog_writer_open(fx.path, NULL, err, sizeof err);
	ok(iolog_writer_needs_header(w), "a new writer needs a header");
	fx_member(&fx, w, 2, 2);
	ok(!iolog_writer_needs_header(w) && fx.write_errors == 0,
	    "not after one");
	stat(fx.path, &st);
	fx_fsize((rlim_t)st.st_size + 3);	/* a short write, then EFBIG */
	for (i = 0; i < 3; i++) {
		errno = 0;
		if (fx_values(&fx, w, 2, 10 + i) == -1 && errno == EFBIG)
			fails++;
	}
	is_i64(fails, 3, "each write that fails returns -1 with EFBIG");
	before = iolog_writer_backlog(w);
	ok(before > 0, "the frames wait in the backlog (%zu bytes)", before);
	fx_fsize(RLIM_INFINITY);
	rc = fx_values(&fx, w, 2, 20);
	is_i64(rc, 0, "the next frame succeeds once the file can grow");
	is_u64(iolog_writer_backlog(w), 0, "and takes the backlog with it");

	/* Overflow: the member is given up and the file sealed. */
	iolog_writer_set_backlog_max(w, 64);
	stat(fx.path, &st);
	fx_fsize((rlim_t)st.st_size + 5);
	for (i = 0; i < 4 && !iolog_writer_needs_header(w); i++)
		fx_values(&fx, w, 2, 30 + i);
	ok(iolog_writer_needs_header(w), "an overflowing backlog gives the "
	    "member up");
	is_u64(iolog_writer_backlog(w), 0, "and drops its bytes");
	fx_drop(&fx, (size_t)i);	/* those frames are lost */
	fx_fsize(RLIM_INFINITY);
	rc = fx_values(&fx, w, 2, 40);
	ok(rc == -1 && errno == EINVAL, "a sample without a header is refused");
	fx_drop(&fx, 1);
	fx_member(&fx, w, 1, 1);
	ok(iolog_writer_close(w) == 0 && fx.write_errors == 0, "close");
	buf = read_file(fx.path, &len);
	decode_buf(buf, len, &d);
	is_u64(d.ndamage, 0, "the sealed member and the new one read cleanly");
	is_u64(d.n, fx.n, "every frame that reached the disk decodes");
	for (i = 0; (size_t)i < d.n && (size_t)i < fx.n; i++)
		if (strcmp(d.got[i], fx.exp[i]) != 0)
			break;
	is_i64(i, (int64_t)fx.n, "and as written");
	snprintf(cmd, sizeof cmd, "gzip -t %s", fx.path);
	ok(system(cmd) == 0, "gzip -t passes after a seal");
	decoded_free(&d);
	free(buf);
	fx_free(&fx);
}

/* API misuse and files that are not ours. */
static void
test_refusals(void)
{
	struct fixture fx;
	struct iolog_val val = { .state = 3 };
	struct iolog_clock c = { 0 };
	struct iolog_dev dev = { .id = 1, .name = "sda", .fields = 1u << 30 };
	struct iolog_header h = hdr;
	char err[256];
	struct iolog_writer *w;
	FILE *f;

	fx_init(&fx, 7);
	w = iolog_writer_open(fx.path, NULL, err, sizeof err);
	errno = 0;
	ok(iolog_write_sample(w, &c, &val, 1) == -1 && errno == EINVAL,
	    "a sample before the header: EINVAL");
	h.long_bits = 16;
	ok(iolog_write_header(w, &h) == -1 && errno == EINVAL,
	    "long_bits 16: EINVAL");
	iolog_write_header(w, &hdr);
	ok(iolog_write_table(w, &dev, 1) == -1 && errno == EINVAL,
	    "a field mask past DS_FIELDS: EINVAL");
	ok(iolog_write_sample(w, &c, &val, 1) == -1 && errno == EINVAL,
	    "state 3: EINVAL");
	dev.fields = 1;
	memset(dev.name, 'x', sizeof dev.name);
	ok(iolog_write_table(w, &dev, 1) == -1 && errno == EINVAL,
	    "a name without its NUL: EINVAL");
	iolog_writer_close(w);
	f = fopen(fx.path, "w");
	fputs("precious text\n", f);
	fclose(f);
	w = iolog_writer_open(fx.path, NULL, err, sizeof err);
	ok_why(w == NULL && strstr(err, fx.path) && strstr(err, "not an "
	    "iostatmon log"), err, "a file that is not a log is not touched");
	iolog_writer_close(w);
	w = iolog_writer_open("/nonexistent/dir/x.iolog.gz", NULL, err,
	    sizeof err);
	ok_why(w == NULL && strstr(err, "/nonexistent/dir/x.iolog.gz") &&
	    strstr(err, "No such file"), err, "open errors name the file and "
	    "the errno text");
	fx_free(&fx);
}

int
main(void)
{
	test_backlog();
	test_refusals();
	return tap_end();
}
