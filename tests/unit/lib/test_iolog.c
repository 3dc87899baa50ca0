/*
 * test_iolog: the log codec of lib/iolog/ end to end. Round trips of every
 * frame type and value range, truncation at every byte, bit flips at every
 * byte, repair of a torn tail in place followed by an append (checked with
 * gzip -t too), and the varints of lib/varint.h.
 *
 * With arguments it is the codec as a text filter for
 * tests/t_iostatmon_codec.py (iolog_text.h):
 *	test_iolog encode LOG < TEXT
 *	test_iolog decode LOG > TEXT
 */
#include <zlib.h>

#include "iolog_fixture.h"
#include "iolog_text.h"
#include "varint.h"

/* got must be exactly exp[0..n). */
static int
same_frames(const struct decoded *d, char **exp, size_t n, const char *what)
{
	size_t i;

	if (d->n != n) {
		if (what)
			printf("# %s: %zu frames, want %zu\n", what, d->n, n);
		return 0;
	}
	for (i = 0; i < n; i++)
		if (strcmp(d->got[i], exp[i]) != 0) {
			if (what)
				printf("# %s: frame %zu\n#  got  %s\n#  want "
				    "%s\n", what, i, d->got[i], exp[i]);
			return 0;
		}
	return 1;
}

static void
test_roundtrip(void)
{
	struct fixture fx;
	struct decoded d;
	uint8_t *buf;
	size_t len;
	char cmd[128];

	fx_init(&fx, 1);
	fx_session(&fx, 2, 3, 12);	/* two members from one writer */
	fx_session(&fx, 1, 5, 4);	/* a third, appended by a new writer */
	buf = read_file(fx.path, &len);
	decode_buf(buf, len, &d);
	ok(same_frames(&d, fx.exp, fx.n, "round trip"),
	    "every frame of three members decodes as written (%zu frames)",
	    fx.n);
	is_u64(d.ndamage, 0, "no damage in a clean log");
	snprintf(cmd, sizeof cmd, "gzip -t %s", fx.path);
	ok(system(cmd) == 0, "gzip -t accepts the log");
	decoded_free(&d);
	free(buf);
	fx_free(&fx);
}

/* How many frames a cut at c must keep: all frames written by then, and
 * maybe the next one when the cut falls inside its flush marker only
 * (its data block can be complete before the empty stored block ends). */
static void
expect_at(const struct fixture *fx, uint64_t c, size_t *lo, size_t *hi)
{
	size_t k = 0;

	while (k < fx->n && fx->end[k] <= c)
		k++;
	*lo = k;
	*hi = k < fx->n && c + 8 >= fx->end[k] ? k + 1 : k;
}

static int
clean_cut(const struct fixture *fx, uint64_t c)
{
	size_t i;

	if (c == 0)
		return 1;
	for (i = 0; i < fx->nmember; i++)
		if (fx->member_end[i] == c)
			return 1;
	return 0;
}

/* zlib, the oracle of where a cut leaves the inflated stream: how many
 * bytes raw inflate gets out of buf[from .. to). */
static size_t
inflated_len(const uint8_t *buf, size_t from, size_t to)
{
	z_stream zs;
	uint8_t out[4096];
	size_t total = 0;
	int rc;

	memset(&zs, 0, sizeof zs);
	if (to <= from || inflateInit2(&zs, -15) != Z_OK)
		return 0;
	zs.next_in = (Bytef *)(uintptr_t)(buf + from);
	zs.avail_in = (uInt)(to - from);
	do {
		zs.next_out = out;
		zs.avail_out = sizeof out;
		rc = inflate(&zs, Z_SYNC_FLUSH);
		total += sizeof out - zs.avail_out;
	} while (rc == Z_OK && zs.avail_out == 0);
	inflateEnd(&zs);
	return total;
}

/* Does the inflated stream of a member (writer's 10-byte gzip header at
 * m) cut at c end where a frame ends (varint LEN, body, CRC32)? */
static int
ends_at_frame(const uint8_t *buf, size_t m, size_t m_end, size_t c)
{
	size_t all = inflated_len(buf, m + 10, m_end - 8), got, at = 0;
	uint8_t *u = malloc(all + 1);
	z_stream zs;
	int found = 0;

	memset(&zs, 0, sizeof zs);
	inflateInit2(&zs, -15);
	zs.next_in = (Bytef *)(uintptr_t)(buf + m + 10);
	zs.avail_in = (uInt)(m_end - 8 - m - 10);
	zs.next_out = u;
	zs.avail_out = (uInt)all + 1;
	inflate(&zs, Z_FINISH);
	inflateEnd(&zs);
	got = inflated_len(buf, m + 10, c);
	while (at < all && !found) {
		uint64_t len = 0;
		int shift = 0;

		while (u[at] & 0x80)
			len |= (uint64_t)(u[at++] & 0x7f) << shift, shift += 7;
		len |= (uint64_t)u[at++] << shift;
		at += len + 4;
		found = at == got;
	}
	free(u);
	return found;
}

static void
test_truncation(void)
{
	struct fixture fx;
	struct decoded d;
	uint8_t *buf, *cut;
	size_t len, c, lo, hi, bad = 0, extra = 0, notes = 0, cuts = 0;

	fx_init(&fx, 2);
	fx_session(&fx, 1, 2, 6);
	fx_session(&fx, 1, 3, 5);
	buf = read_file(fx.path, &len);
	for (c = 0; c <= len; c++) {
		size_t m = c < fx.member_end[0] ? 0 : fx.member_end[0];
		size_t m_end = c < fx.member_end[0] ? fx.member_end[0] : len;
		/* A note when the inflated stream ends after a whole frame (or
		 * the data is whole and the trailer is cut); anything else is
		 * the input ending inside a frame. */
		int note = c >= m + 10 && (c >= m_end - 8 ||
		    ends_at_frame(buf, m, m_end, c));

		cut = malloc(c ? c : 1);	/* ASan sees any overread */
		memcpy(cut, buf, c);
		decode_buf(cut, c, &d);
		expect_at(&fx, c, &lo, &hi);
		if (d.n > lo)
			extra++;
		if (!clean_cut(&fx, c)) {
			notes += note;
			cuts += !note;
		}
		if ((!same_frames(&d, fx.exp, lo, NULL) &&
		    !same_frames(&d, fx.exp, hi, NULL)) ||
		    (d.ndamage == 0) != clean_cut(&fx, c) ||
		    (d.ndamage > 0 && (d.ndamage != 1 || d.truncated != note ||
		    d.cut == note || d.resumed != 0)) ||
		    (d.ndamage > 0 && d.first_damage > c)) {
			if (bad++ < 5)
				printf("# cut at %zu: %zu frames, want %zu..%zu, "
				    "damage %zu (%s), note %d want %d\n", c, d.n,
				    lo, hi, d.ndamage, d.reason, d.truncated,
				    note);
		}
		decoded_free(&d);
		free(cut);
	}
	is_u64(bad, 0, "a cut at any of %zu offsets keeps exactly the frames "
	    "written before it, and reports one note where the inflated "
	    "stream ends after a whole frame, else one cut", len + 1);
	ok(extra > 0 && extra < 8 * fx.n, "some frames are complete before "
	    "their flush marker (%zu cuts)", extra);
	ok(notes > 2 * fx.n && cuts > len / 2, "cuts of both kinds were "
	    "checked (%zu notes, %zu inside a frame)", notes, cuts);
	free(buf);
	fx_free(&fx);
}

/* Frames decoded after a flip must be written frames, in order, and every
 * frame that ended before the flipped byte must be there. */
static int
flip_ok(const struct fixture *fx, const struct decoded *d, size_t at)
{
	size_t i, j = 0, before = 0;

	while (before < fx->n && fx->end[before] <= at)
		before++;
	for (i = 0; i < d->n; i++) {
		while (j < fx->n && strcmp(d->got[i], fx->exp[j]) != 0)
			j++;
		if (j++ >= fx->n)
			return 0;	/* not a written frame, or reordered */
		if (i < before && j != i + 1)
			return 0;	/* an earlier frame went missing */
	}
	if (d->n < before)
		return 0;
	/* Anything lost must be reported. */
	return d->n == fx->n || d->ndamage > 0;
}

static void
test_bitflips(void)
{
	struct fixture fx;
	struct decoded d;
	uint8_t *buf;
	size_t len, i, bad = 0, damaged = 0;

	fx_init(&fx, 3);
	fx_session(&fx, 2, 2, 5);
	fx_session(&fx, 1, 1, 3);
	buf = read_file(fx.path, &len);
	for (i = 0; i < len; i++) {
		buf[i] ^= (uint8_t)(1u << (i % 8));
		decode_buf(buf, len, &d);
		buf[i] ^= (uint8_t)(1u << (i % 8));
		if (d.ndamage > 0)
			damaged++;
		if (!flip_ok(&fx, &d, i) && bad++ < 5)
			printf("# flip at %zu: %zu frames, damage %zu at %"
			    PRIu64 " (%s)\n", i, d.n, d.ndamage,
			    d.first_damage, d.reason);
		decoded_free(&d);
	}
	is_u64(bad, 0, "a bit flip at any of %zu bytes loses only later frames "
	    "and reports it", len);
	ok(damaged > len * 9 / 10, "most flips are reported as damage "
	    "(%zu of %zu)", damaged, len);
	free(buf);
	fx_free(&fx);
}

/* Where the reader says frame i's compressed bytes start: after the flush
 * marker of the frame before, and after the full flush the writer puts
 * before a table or keyframe that does not follow a keyframe (an empty
 * stored block: 5 bytes). */
static uint64_t
frame_start(const struct fixture *fx, size_t i)
{
	char t = fx->exp[i][0], before = fx->exp[i - 1][0];

	return fx->end[i - 1] + ((t == 'K' || t == 'T') && before != 'K' ?
	    5 : 0);
}

static uint64_t
frame_seq(const struct fixture *fx, size_t i)
{
	return strtoull(fx->exp[i] + 2, NULL, 10);
}

/* Damage inside frame k of a member with keyframes every few samples:
 * the frames before it, then reading resumes at the next table or
 * keyframe (the writer starts each on an empty dictionary), or at the
 * next sample when it follows the damaged frame (a P in stored blocks
 * refers to no byte before it; after a damaged keyframe, its full flush),
 * where that first sample only gives the clock the next interval starts
 * from; one damage event says
 * where the loss starts, where reading resumed and how many sample
 * records were lost. m1: the first frame of the second member, at byte
 * m2 of the file. */
static int
resync_ok(const struct fixture *fx, uint8_t *buf, size_t len, size_t k,
    size_t m1, uint64_t m2)
{
	struct decoded d;
	size_t j, from = m1, resume = m1, last = 0, i;
	uint64_t at = frame_start(fx, k), x;
	char want[160];
	int have_table = 0, good;

	for (i = 1; i < k; i++) {
		have_table |= fx->exp[i][0] == 'T';
		if (fx->exp[i][0] == 'K' || fx->exp[i][0] == 'S')
			last = i;
	}
	for (j = k + 1; j < m1 && from == m1; j++) {
		if (fx->exp[j][0] == 'T' ||
		    (fx->exp[j][0] == 'K' && have_table))
			resume = from = j;
		else if (have_table && j == k + 1 && (fx->exp[k][0] == 'K' ||
		    fx->exp[j][0] == 'S'))
			resume = j, from = j + 1;	/* a stored P, or after
							 * the full flush */
	}
	if (from == m1)		/* nothing delivered again in this member */
		resume = m1;
	x = at + (fx->end[k] - at) / 2;
	buf[x] ^= 0xff;
	decode_buf(buf, len, &d);
	buf[x] ^= 0xff;
	good = d.ndamage == 1 && d.first_damage == at && d.n == k +
	    (fx->n - from);
	for (i = 0; good && i < d.n; i++)
		good = strcmp(d.got[i], fx->exp[i < k ? i : from + i - k]) == 0;
	if (resume < m1 && fx->exp[resume][0] != 'T')
		snprintf(want, sizeof want, "; resumed at compressed offset %"
		    PRIu64 "; %" PRIu64 " sample records lost",
		    frame_start(fx, resume), frame_seq(fx, resume) -
		    (last ? frame_seq(fx, last) : 0));
	else
		snprintf(want, sizeof want, "; resumed at compressed offset %"
		    PRIu64, resume < m1 ? frame_start(fx, resume) : m2);
	good = good && strlen(d.reason) > strlen(want) &&
	    strcmp(d.reason + strlen(d.reason) - strlen(want), want) == 0 &&
	    d.resumed == (resume < m1 ? frame_start(fx, resume) : m2);
	if (!good)
		printf("# damage in frame %zu (%c, byte %" PRIu64 "): %zu frames,"
		    " want %zu; damage %zu at %" PRIu64 " (want %" PRIu64 "): "
		    "%s; want ...%s\n", k, fx->exp[k][0], x, d.n, k + fx->n -
		    from, d.ndamage, d.first_damage, at, d.reason, want);
	decoded_free(&d);
	return good;
}

static void
test_resync(void)
{
	static const uint8_t gz[10] = { 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3 };
	struct fixture fx;
	char err[512];
	struct iolog_writer *w;
	uint8_t *buf, *m2;
	size_t len, k, m1, bad = 0, kinds = 0;
	int s;

	fx_init(&fx, 11);
	w = iolog_writer_open(fx.path, NULL, err, sizeof err);
	fx_member(&fx, w, 3, 0);			/* H T K */
	for (s = 1; s <= 10; s++) {
		fx_frame(&fx, w, 3, s, 0);
		if (s == 3 || s == 7)		/* hourly: K after an S */
			fx_frame(&fx, w, 3, s, 1);
	}
	m1 = fx.n;
	fx_member(&fx, w, 2, 3);
	ok(iolog_writer_close(w) == 0 && fx.write_errors == 0, "a member "
	    "with keyframes between samples, and another");
	buf = read_file(fx.path, &len);
	m2 = memmem(buf + fx.end[m1 - 1], len - fx.end[m1 - 1], gz, sizeof gz);
	for (k = 1; k < m1; k++) {
		kinds |= 1u << (fx.exp[k][0] - 'A');
		if (!resync_ok(&fx, buf, len, k, m1, m2 ? (uint64_t)(m2 -
		    buf) : 0))
			bad++;
	}
	is_u64(bad, 0, "damage in any of %zu frames (tables, keyframes, "
	    "samples): read again from the next frame that can start a "
	    "run, and reported once", m1 - 1);
	ok(kinds == (1u << ('K' - 'A') | 1u << ('S' - 'A') |
	    1u << ('T' - 'A')), "every frame type was damaged");
	free(buf);
	fx_free(&fx);
}

/* The seal of a member cut after a whole frame: an empty final stored
 * block, then the trailer (docs/iolog-format.md). */
static const uint8_t seal_block[5] = { 0x01, 0x00, 0x00, 0xff, 0xff };
static const uint8_t gzip_magic[3] = { 0x1f, 0x8b, 0x08 };

/* The repair of a log torn at c was made in place: the same inode, its
 * bytes kept up to a point p at or after the end of the last frame written
 * whole (whole), then only a seal or the next member's header. A member
 * torn in its trailer gets the trailer it had: p is then past c, in the
 * untorn log of blen bytes. */
static int
in_place(const uint8_t *buf, size_t blen, uint64_t c, uint64_t whole,
    const uint8_t *out, size_t len, ino_t before, ino_t after)
{
	size_t p = 0;

	while (p < blen && p < len && out[p] == buf[p])
		p++;
	if (before != after || p < whole || len < p + 3) {
		printf("# cut at %" PRIu64 ": inode %s, kept %zu bytes of at "
		    "least %" PRIu64 "\n", c, before == after ? "same" :
		    "changed", p, whole);
		return 0;
	}
	/* a seal's or a header's first byte may equal the cut byte */
	while (p > whole && memcmp(out + p, seal_block, 3) != 0 &&
	    memcmp(out + p, gzip_magic, 3) != 0)
		p--;
	return memcmp(out + p, seal_block, 3) == 0 ||
	    memcmp(out + p, gzip_magic, 3) == 0;
}

/* Tear the last member at c, reopen (repair), append a member. */
static int
repair_at(const struct fixture *fx, const uint8_t *buf, size_t blen,
    uint64_t c, int run_gzip, int *repaired)
{
	char err[512], cmd[128];
	struct fixture after = *fx;
	struct iolog_writer *w;
	struct decoded d;
	struct stat st0, st1;
	uint8_t *out;
	size_t len, lo, hi, i;
	FILE *f = fopen(fx->path, "wb");
	int good;

	fwrite(buf, 1, c, f);
	fclose(f);
	stat(fx->path, &st0);
	w = iolog_writer_open(fx->path, repaired, err, sizeof err);
	if (w == NULL) {
		printf("# cut at %" PRIu64 ": %s\n", c, err);
		return 0;
	}
	/* The expected frames: those kept by the cut, then the new member. */
	expect_at(fx, c, &lo, &hi);
	after.n = 0;
	after.exp[0] = NULL;
	fx_member(&after, w, 2, 2);
	iolog_writer_close(w);
	stat(fx->path, &st1);
	out = read_file(fx->path, &len);
	decode_buf(out, len, &d);
	good = d.ndamage == 0 && (d.n == lo + after.n || d.n == hi + after.n);
	for (i = 0; good && i < d.n; i++)
		good = strcmp(d.got[i], i < d.n - after.n ? fx->exp[i] :
		    after.exp[i - (d.n - after.n)]) == 0;
	if (!good)
		printf("# repair of a cut at %" PRIu64 ": %zu frames, want "
		    "%zu..%zu + %zu, damage %zu (%s)\n", c, d.n, lo, hi,
		    after.n, d.ndamage, d.reason);
	good = good && in_place(buf, blen, c, lo ? fx->end[lo - 1] : 0, out,
	    len, st0.st_ino, st1.st_ino);
	if (run_gzip) {
		snprintf(cmd, sizeof cmd, "gzip -t %s 2>/dev/null", fx->path);
		good = good && system(cmd) == 0;
	}
	for (i = 0; i < after.n; i++)
		free(after.exp[i]);
	decoded_free(&d);
	free(out);
	return good;
}

static void
test_repair(void)
{
	struct fixture fx;
	uint8_t *buf;
	size_t len;
	uint64_t c;
	int repaired, bad = 0, wrong_flag = 0, gz = 0;

	fx_init(&fx, 4);
	fx_session(&fx, 1, 2, 3);
	fx_session(&fx, 1, 2, 4);
	buf = read_file(fx.path, &len);
	for (c = 1; c <= len; c++) {
		int run_gzip = c % 5 == 0 || c == len || c == fx.member_end[0];

		if (!repair_at(&fx, buf, len, c, run_gzip, &repaired) &&
		    bad++ < 5)
			printf("# cut at %" PRIu64 " fails\n", c);
		if (repaired != !clean_cut(&fx, c))
			wrong_flag++;
		gz += run_gzip;
	}
	is_i64(bad, 0, "a log torn at any of %zu offsets is repaired in place "
	    "(same inode, cut after its last whole frame, sealed): every "
	    "frame before the tear and everything appended decodes, and "
	    "gzip -t passes (%d checked)", len, gz);
	is_i64(wrong_flag, 0, "repaired is set exactly when a tail was torn");
	free(buf);
	fx_free(&fx);
}

/* Damage in the middle of the first member, behind a whole second member:
 * not a torn tail. The writer leaves every byte as it is (the reader
 * recovers around the damage) and appends. */
static void
test_repair_middle(void)
{
	struct fixture fx, after;
	char err[512];
	struct iolog_writer *w;
	struct decoded d;
	uint8_t *buf, *out;
	size_t len, outlen, i, keep = 4, m1 = 0;
	int repaired = -1, good;
	FILE *f;

	fx_init(&fx, 8);
	fx_session(&fx, 1, 2, 5);
	fx_session(&fx, 1, 3, 3);
	while (m1 < fx.n && fx.end[m1] <= fx.member_end[0])
		m1++;
	buf = read_file(fx.path, &len);
	buf[fx.end[keep - 1] + 2] ^= 0x08;	/* inside frame 4's block */
	f = fopen(fx.path, "wb");
	fwrite(buf, 1, len, f);
	fclose(f);
	w = iolog_writer_open(fx.path, &repaired, err, sizeof err);
	ok_why(w != NULL && repaired == 0, err, "damage mid-file: nothing to "
	    "repair at the tail");
	memset(&after, 0, sizeof after);
	after.rng = 99;
	memcpy(after.path, fx.path, sizeof after.path);
	if (w != NULL) {
		fx_member(&after, w, 1, 1);
		iolog_writer_close(w);
	}
	out = read_file(fx.path, &outlen);
	ok(outlen > len && memcmp(out, buf, len) == 0, "every byte before "
	    "the append is kept, the damaged ones too");
	decode_buf(out, outlen, &d);
	good = d.ndamage == 1 && d.n >= keep + (fx.n - m1) + after.n;
	for (i = 0; good && i < keep; i++)
		good = strcmp(d.got[i], fx.exp[i]) == 0;
	for (i = 0; good && i < fx.n - m1 + after.n; i++)
		good = strcmp(d.got[d.n - (fx.n - m1) - after.n + i],
		    i < fx.n - m1 ? fx.exp[m1 + i] : after.exp[i - (fx.n -
		    m1)]) == 0;
	ok(good, "the frames before the damage, the next member and the new "
	    "one decode, the damage is reported once (%zu frames, damage "
	    "%zu: %s)", d.n, d.ndamage, d.reason);
	decoded_free(&d);
	for (i = 0; i < after.n; i++)
		free(after.exp[i]);
	free(out);
	free(buf);
	fx_free(&fx);
}

static void
test_varint(void)
{
	static const uint64_t v[] = { 0, 1, 127, 128, 16383, 16384,
	    UINT32_MAX, (uint64_t)1 << 63, UINT64_MAX };
	static const size_t want[] = { 1, 1, 1, 2, 2, 3, 5, 10, 10 };
	static const uint8_t eleven[11] = { 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
	    0x80, 0x80, 0x80, 0x80, 0x00 };
	static const uint8_t big[10] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	    0xff, 0xff, 0xff, 0x02 };
	uint8_t b[VARINT_MAX];
	struct cursor c;
	size_t i, n;

	for (i = 0; i < sizeof v / sizeof v[0]; i++) {
		n = varint_put(b, v[i]);
		is_u64(n, want[i], "varint length of %" PRIu64, v[i]);
		c = (struct cursor){ b, b + n, NULL };
		is_u64(cursor_varint(&c), v[i], "varint round trip %" PRIu64,
		    v[i]);
		ok(c.err == NULL && c.p == c.end, "varint consumed exactly");
		c = (struct cursor){ b, b + n - 1, NULL };
		cursor_varint(&c);
		ok(c.err != NULL, "varint %" PRIu64 " cut short is an error",
		    v[i]);
	}
	ok(b[0] == 0xff && b[9] == 0x01, "2^64-1 is nine 0xff and 0x01");
	c = (struct cursor){ eleven, eleven + 11, NULL };
	cursor_varint(&c);
	ok(c.err != NULL, "an 11-byte varint is an error");
	c = (struct cursor){ big, big + 10, NULL };
	cursor_varint(&c);
	ok(c.err != NULL, "a varint above 2^64-1 is an error");
}

int
main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "encode") == 0)
		return text_encode(argv[2], stdin);
	if (argc == 3 && strcmp(argv[1], "decode") == 0)
		return text_decode(argv[2], stdout);
	if (argc != 1) {
		fprintf(stderr, "usage: test_iolog [encode|decode LOG]\n");
		return 2;
	}
	test_varint();
	test_roundtrip();
	test_truncation();
	test_resync();
	test_bitflips();
	test_repair();
	test_repair_middle();
	text_check();
	return tap_end();
}
