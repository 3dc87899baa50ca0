/*
 * test_iolog_read: the reader on damaged logs. Frames that are well-formed
 * gzip and CRC but wrong in meaning, headers that are not ours, garbage
 * that once crashed a reader, and the seek for a place to resume after
 * damage, which must stay linear.
 */
#include <time.h>

#include "iolog/iolog_int.h"
#include "iolog_fixture.h"

static const struct iolog_header hdr = { .host = "h", .long_bits = 64,
    .interval_ms = 1000 };

/* A body from bytes written as a C string literal (type byte first). */
#define BODY(s) (const uint8_t *)(s), sizeof(s) - 1

struct bad_case {
	const char *name;
	const uint8_t *body;
	size_t len;
	const char *reason;
};

/* Write H, a one-device table, K, one good S (table_first 1; 2: H and T
 * only; 0: H only), then a bad body, then one more S; a second member
 * follows. The reader must deliver the first four
 * frames, report why the fifth is wrong, skip the rest of its member, and
 * read the next member whole. */
static void
check_bad(const struct bad_case *bc, int table_first)
{
	struct fixture fx;
	struct iolog_dev dev = { .id = 7, .name = "sda", .fields = 0x7ff };
	struct iolog_val val = { .v = { 5 } };
	struct iolog_clock c = { .monotonic_ns = 1000 };
	char err[256];
	struct iolog_writer *w;
	struct decoded d;
	uint8_t *buf;
	size_t len, want = table_first == 1 ? 4 : table_first == 2 ? 2 : 1;

	fx_init(&fx, 9);
	w = iolog_writer_open(fx.path, NULL, err, sizeof err);
	iolog_write_header(w, &hdr);
	if (table_first)
		iolog_write_table(w, &dev, 1);
	if (table_first == 1) {
		iolog_write_keyframe(w, &c, &val, 1);
		c.monotonic_ns = 2000;
		iolog_write_sample(w, &c, &val, 1);
	}
	ok(iolog_write_body(w, bc->body, bc->len) == 0, "%s: written",
	    bc->name);
	iolog_write_sample(w, &c, &val, 1);
	iolog_write_header(w, &hdr);
	iolog_write_table(w, &dev, 1);
	iolog_writer_close(w);
	buf = read_file(fx.path, &len);
	decode_buf(buf, len, &d);
	is_u64(d.n, want + 2, "%s: frames before it and the next member",
	    bc->name);
	is_u64(d.ndamage, 1, "%s: one damage event", bc->name);
	ok_why(strstr(d.reason, bc->reason) != NULL, d.reason,
	    "%s: reason says \"%s\"", bc->name, bc->reason);
	decoded_free(&d);
	free(buf);
	fx_free(&fx);
}

static void
test_bad_frames(void)
{
	static const struct bad_case after_table[] = {
		{ "unknown type", BODY("Z123"), "unknown frame type 0x5a" },
		{ "too few entries", BODY("S\1\0\x80\x7d\0\0\0\0"),
		    "too few entries" },
		{ "too many entries", BODY("S\1\0\x80\x7d\0\0\0\0\0\0\0"),
		    "too many entries" },
		{ "bad state", BODY("S\1\0\x80\x7d\0\0\0\0\3"),
		    "unknown device state" },
		{ "mask out of range", BODY("S\1\0\x80\x7d\0\0\0\0\0\x80\x80\x80\x08"),
		    "field mask out of range" },
		{ "clock backwards", BODY("S\1\0\1\0\0\0\0\1"),
		    "monotonic clock went backwards" },
		{ "cut short", BODY("S\1\0\x80\x7d\0\0\0\0\0\1"),
		    "cut short" },
		{ "bad varint", BODY("S\xff\xff\xff\xff\xff\xff\xff\xff\xff"
		    "\xff\1"), "varint" },
		{ "duplicate ids", BODY("T\2\1\0\0\0\0\0\0\1\0\0\0\0\0\0"),
		    "duplicate device id" },
		{ "table count", BODY("T\5\1\0\0\0\0\0\0"),
		    "device count exceeds frame" },
		{ "too many devices", BODY("T\x81\x80\x04"), "too many devices" },
		{ "name too long", BODY("T\1\1\x40xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
		    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\0\0\0\0\0"),
		    "device name too long" },
		{ "trailing bytes", BODY("T\0\0"), "trailing bytes" },
	};
	static const struct bad_case first[] = {
		{ "sample before table", BODY("S\1\0\0\0\0\0\0"),
		    "sample before device table" },
		{ "keyframe before table", BODY("K\1\0\0\0\0\0\0"),
		    "keyframe before device table" },
	};
	static const struct bad_case no_key = { "sample before keyframe",
	    BODY("S\1\0\0\0\0\0\0\0"), "sample before keyframe" };
	size_t i;

	for (i = 0; i < sizeof after_table / sizeof after_table[0]; i++)
		check_bad(&after_table[i], 1);
	for (i = 0; i < sizeof first / sizeof first[0]; i++)
		check_bad(&first[i], 0);
	check_bad(&no_key, 2);
}

/* A header of a version above 2, or not ours, ends the member at once. */
static void
test_bad_headers(void)
{
	static const struct bad_case h[] = {
		{ "version 3", BODY("H\3\5iolog"), "unsupported format version" },
		{ "bad magic", BODY("H\1\5iolgo"), "bad magic" },
		{ "long_bits 48", BODY("H\1\5iolog\0\0\0\x30"), "bad long_bits" },
	};
	struct fixture fx;
	struct decoded d;
	char err[256];
	struct iolog_writer *w;
	uint8_t *buf;
	size_t len, i;

	for (i = 0; i < sizeof h / sizeof h[0]; i++) {
		fx_init(&fx, 5);
		w = iolog_writer_open(fx.path, NULL, err, sizeof err);
		iolog_write_body(w, h[i].body, h[i].len);
		iolog_write_header(w, &hdr);
		iolog_writer_close(w);
		buf = read_file(fx.path, &len);
		decode_buf(buf, len, &d);
		is_u64(d.n, 1, "%s: only the next member's header", h[i].name);
		ok_why(d.ndamage == 1 && strstr(d.reason, h[i].reason),
		    d.reason, "%s: reported", h[i].name);
		decoded_free(&d);
		free(buf);
		fx_free(&fx);
	}
}

/* Inputs that once crashed a reader (fuzzing finds), and other shapes of
 * garbage: each must end, report damage, and deliver nothing. */
static void
test_garbage(void)
{
	static const struct { const char *name; const char *b; size_t n; }
	    in[] = {
		{ "gzip header and no data", "\0\x1f\x8b\x08\0` \0\1\6\6", 11 },
		{ "magic only", "\x1f\x8b\x08", 3 },
		{ "reserved flag", "\x1f\x8b\x08\x20\0\0\0\0\0\3\3\0", 12 },
		{ "FEXTRA past the end", "\x1f\x8b\x08\x04\0\0\0\0\0\3\xff\xff", 12 },
		{ "FNAME unterminated", "\x1f\x8b\x08\x08\0\0\0\0\0\3abc", 13 },
		{ "bad FHCRC", "\x1f\x8b\x08\x02\0\0\0\0\0\3\0\0\3\0", 14 },
		{ "empty stream, no trailer", "\x1f\x8b\x08\0\0\0\0\0\0\3\3\0", 12 },
		{ "text", "8 0 sda 1 2 3 4\n", 16 },
	};
	struct decoded d;
	size_t i;

	for (i = 0; i < sizeof in / sizeof in[0]; i++) {
		char *copy = malloc(in[i].n);	/* exact size for ASan */

		memcpy(copy, in[i].b, in[i].n);
		decode_buf(copy, in[i].n, &d);
		ok(d.n == 0 && d.ndamage >= 1, "%s: damage, no frames",
		    in[i].name);
		decoded_free(&d);
		free(copy);
	}
}

/* After damage the reader tries every flush marker until a frame comes
 * out whole. 8 MiB of markers between a damaged member and a good one
 * (each decodes as a stored block holding a long frame that never checks
 * out) must not make that quadratic: the time stays linear, the good
 * member is read, and the damage is reported once. */
static void
test_seek_bounds(void)
{
	static const uint8_t marker[4] = { 0, 0, 0xff, 0xff };
	struct fixture a, b;
	struct decoded d;
	uint8_t *ba, *bb, *buf;
	size_t la, lb, len, n = 8u << 20, i, k = 4, want;
	clock_t t0;
	double secs;
	int good;

	fx_init(&a, 21);
	fx_session(&a, 1, 2, 20);
	fx_init(&b, 22);
	b.nmember = 1;			/* other host name, other ids */
	fx_session(&b, 1, 2, 3);
	ba = read_file(a.path, &la);
	bb = read_file(b.path, &lb);
	/* member a ends with its damaged frame k: the samples after it,
	 * stored blocks, would be read again at once */
	la = a.end[k];
	len = la + n + lb;
	buf = malloc(len);
	memcpy(buf, ba, la);
	buf[a.end[k - 1] + (a.end[k] - a.end[k - 1]) / 2] ^= 0xff;
	for (i = 0; i < n; i += sizeof marker)
		memcpy(buf + la + i, marker, sizeof marker);
	memcpy(buf + la + n, bb, lb);
	t0 = clock();
	decode_buf(buf, len, &d);
	secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
	want = k + b.n;
	good = d.n == want && d.ndamage == 1 && d.resumed == la + n;
	for (i = 0; good && i < d.n; i++)
		good = strcmp(d.got[i], i < k ? a.exp[i] : b.exp[i - k]) == 0;
	ok(good, "damage, 8 MiB of flush markers, a good member: the frames "
	    "before the damage and the member after (%zu frames, want %zu; "
	    "%zu damage: %s)", d.n, want, d.ndamage, d.reason);
	ok(secs < 5, "and in linear time (%.1f s CPU)", secs);
	decoded_free(&d);
	free(buf);
	free(ba);
	free(bb);
	fx_free(&a);
	fx_free(&b);
}

int
main(void)
{
	test_garbage();
	test_seek_bounds();
	test_bad_frames();
	test_bad_headers();
	return tap_end();
}
