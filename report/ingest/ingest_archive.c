/*
 * ingest_archive: the members of an archive as sources. A file is an
 * archive when libarchive recognises its content (tar, cpio, zip, ...
 * under gzip, zstd, xz, ...), whatever its name. Regular members are read
 * one by one (ingest_member.c) and named ARCHIVE:MEMBER; nothing is
 * extracted to disk. A member that is an archive itself is walked the
 * same way as it is read, block by block; one that is a log is held in
 * memory for a decoder, at most MEMBER_MAX bytes apart from runs of
 * zeros (a small archive can expand to any size: what is past the limit
 * is not read, and the member is reported damaged there). A damaged
 * archive is a source of its own (SRC_DAMAGE) after the members that
 * could be read.
 */
#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ingest_int.h"
#include "ingest_unpack_int.h"
#include "iolog/iolog.h"
#include "xalloc.h"

#define NEST_MAX 4		/* levels of archives around an archive */
#define SNIFF_LEN 512		/* bytes that tell whether to read a member */
#define SNIFF_MAX MEMBER_KEEP_MAX	/* read ahead at most */
#define MEMBER_MAX ((size_t)64 << 20)	/* bytes of a member held for a decoder */

/* libarchive's "not an archive" errno (ARCHIVE_ERRNO_FILE_FORMAT, from a
 * header it does not install). */
#ifdef EFTYPE
#define NOT_AN_ARCHIVE EFTYPE
#else
#define NOT_AN_ARCHIVE EILSEQ
#endif

/* tar and zip, read as streams, and no filter: the compression around
 * them is undone by ingest_unpack. The other formats libarchive reads
 * hold what their headers declare (7z's and RAR's dictionaries and PPMd
 * models, xar's xz members, cpio's 4 GiB names, ar's 1 GiB name table,
 * an ISO 9660 image's every directory entry) and are not read. */
static struct archive *
archive_reader(void)
{
	struct archive *a = archive_read_new();

	archive_read_support_format_tar(a);
	archive_read_support_format_zip(a);
	return a;
}

/* An archive being read: its input, and its damage source, made on
 * first use and emitted after the members that could be read. */
struct arch_in {
	const char *name;
	int fd;			/* -1: a member of an archive, m */
	struct member *m;
	struct unpack *up;	/* the compression around it, undone */
	struct src *dmg;
	int gz_told;		/* up's damage is in dmg */
};

/* Open a on fd, or on the member m when fd < 0, through the layers of
 * compression around it (ingest_unpack.c). */
static int
arch_open(struct walker *k, struct archive *a, struct arch_in *in)
{
	in->up = ingest_unpack_open(in->fd, ingest_member_read, in->m,
	    &k->budget);
	return ingest_unpack_archive(a, in->up);
}

static const char *
arch_gz_damage(const struct arch_in *in, uint64_t *off)
{
	return ingest_unpack_damage(in->up, off);
}

static void
arch_add_damage(struct arch_in *in, uint64_t off, const char *why)
{
	if (in->dmg == NULL)
		in->dmg = ingest_item_new(in->name, SRC_DAMAGE, 0);
	ingest_item_damage(in->dmg, off, why, 0);
}

/* Record why libarchive stopped, and where (compressed bytes consumed,
 * or the file's end when it cannot say). When the gzip stream under it
 * was damaged, that is the cause, reported once with its own offset. */
static void
add_archive_damage(struct arch_in *in, struct archive *a,
    const char *member)
{
	const char *why = archive_error_string(a);
	char *buf = NULL;
	int64_t off = ingest_unpack_consumed(in->up);
	uint64_t gz_off;
	const char *gz_why = arch_gz_damage(in, &gz_off);
	struct stat st;

	if (gz_why) {
		if (!in->gz_told)
			arch_add_damage(in, gz_off, gz_why);
		in->gz_told = 1;
		return;
	}
	if (off < 0)
		off = archive_filter_bytes(a, -1);
	if (off < 0)
		off = in->fd >= 0 && fstat(in->fd, &st) == 0 ?
		    (int64_t)st.st_size : 0;
	if (!why)
		why = "unreadable archive";
	if (member && asprintf(&buf, "member %s: %s", member, why) >= 0)
		why = buf;
	arch_add_damage(in, (uint64_t)off, why);
	free(buf);
}

/* A member's source: "ARCHIVE:MEMBER". */
static struct src *
member_src(const char *archive_name, struct archive_entry *e,
    enum src_kind kind)
{
	const char *member = archive_entry_pathname(e);
	size_t nlen;
	char *name;
	struct src *s;

	if (member == NULL)
		member = "";
	nlen = strlen(archive_name) + strlen(member) + 2;
	name = xmalloc(nlen);
	snprintf(name, nlen, "%s:%s", archive_name, member);
	s = ingest_item_new(name, kind, 0);
	free(name);
	return s;
}

/* Could a member starting with p[0 .. len) be a log or an archive of
 * them? Logs are gzip; archives are compressed, zip, 7z, cpio or ustar.
 * Anything else (a core dump, a data file) is skipped unread rather than
 * held in memory whole. */
static int
worth_reading(const uint8_t *p, size_t len)
{
	static const struct {
		size_t at, n;
		const char *magic;
	} m[] = {
		{ 0, 2, "\x1f\x8b" }, { 0, 4, "\x28\xb5\x2f\xfd" },
		{ 0, 6, "\xfd" "7zXZ\0" }, { 0, 3, "BZh" },
		{ 0, 4, "\x04\x22\x4d\x18" }, { 0, 4, "PK\x03\x04" },
		{ 0, 6, "7z\xbc\xaf\x27\x1c" }, { 0, 4, "0707" },
		{ 257, 5, "ustar" },
	};

	for (size_t i = 0; i < sizeof m / sizeof m[0]; i++)
		if (len >= m[i].at + m[i].n &&
		    memcmp(p + m[i].at, m[i].magic, m[i].n) == 0)
			return 1;
	return 0;
}

/* Pass over the rest of a member that is not read. A zip member carries
 * its own CRC, which libarchive checks only when the data is read: so a
 * zip member is read through (and a bad CRC is damage, 1), anything else
 * skipped (-1 if that fails). */
static int
skip_member(struct archive *a)
{
	const void *blk;
	size_t n;
	la_int64_t off;
	int r;

	if ((archive_format(a) & ARCHIVE_FORMAT_BASE_MASK) !=
	    ARCHIVE_FORMAT_ZIP)
		return archive_read_data_skip(a) == ARCHIVE_OK ? 0 : -1;
	while ((r = archive_read_data_block(a, &blk, &n, &off)) == ARCHIVE_OK)
		;
	return r == ARCHIVE_EOF ? 0 : r == ARCHIVE_WARN ? 1 : -1;
}

/* What the member's first bytes say it is: read ahead while they cannot
 * tell (at most SNIFF_MAX). -1 when the archive fails first. */
static int
member_kind(struct member *m, const char *name, enum iolog_kind *kind)
{
	size_t want = SNIFF_LEN;

	for (;;) {
		if (ingest_member_ahead(m, want) < 0)
			return -1;
		*kind = ingest_sniff(m->buf, m->len,
		    !ingest_member_ended(m) && want < SNIFF_MAX, name);
		if (*kind != IOLOG_NEED_MORE)
			return 0;
		want = want < SNIFF_MAX / 4 ? want * 4 : SNIFF_MAX;
	}
}

/* A member for a decoder: held in memory (MEMBER_MAX at most). 0, 1
 * damaged but the archive goes on, -1 the archive fails inside it. */
static int
hold_member(struct member *m, struct archive_entry *e, struct src *s)
{
	int64_t size = archive_entry_size_is_set(e) ? archive_entry_size(e) : 0;
	char why[256];

	switch (ingest_member_hold(m, s, size > 0 ? (uint64_t)size : 0,
	    MEMBER_MAX)) {
	case MEMBER_WHOLE:
		return m->rc;
	case MEMBER_BROKEN:
		s->cut = 1;
		return -1;
	case MEMBER_OVER:
		/* What was read is decoded; that it stops inside a frame
		 * is this, not damage of its own. */
		snprintf(why, sizeof why, "more than %zu MiB once expanded "
		    "(runs of zeros aside), the most an archive member may "
		    "hold: read no further", MEMBER_MAX >> 20);
		ingest_item_damage(s, m->held_at, why, 0);
		s->cut = 1;
		break;
	case MEMBER_NOMEM:
		free(s->buf);
		s->buf = NULL;
		s->len = 0;
		ingest_item_error(s, "%s: %s", s->name, strerror(ENOMEM));
		break;
	case MEMBER_LOST:
		ingest_item_error(s, "%s: neither an archive nor a log "
		    "within its first %zu MiB: not read", s->name,
		    MEMBER_KEEP_MAX >> 20);
		break;
	}
	return skip_member(m->a);
}

static void walk_members(struct walker *, struct archive *,
    struct archive_entry *, int, struct arch_in *, int);

/* A member that may be an archive itself (a tarball of per-server
 * tarballs) is walked as it is read, its members named
 * OUTER:INNER:MEMBER, down to NEST_MAX levels. 1 when it was an archive
 * (the caller passes over the rest of it), 0 when it is not: everything
 * read of it was kept, for a decoder. */
static int
walk_nested(struct walker *k, struct member *m, const char *name, int depth)
{
	struct arch_in in = { .name = name, .fd = -1, .m = m };
	struct archive *a = archive_reader();
	struct archive_entry *e = NULL;
	struct src *s;
	int r = arch_open(k, a, &in);

	if (r == ARCHIVE_OK)
		r = archive_read_next_header(a, &e);
	if (ingest_unpack_refused(in.up)) {	/* compressed, and not
						 * decoded: said */
		ingest_member_unkept(m);
		add_archive_damage(&in, a, NULL);
		ingest_item_emit(k, in.dmg);
		archive_read_free(a);
		ingest_unpack_free(in.up);
		return 1;
	}
	if (r < ARCHIVE_WARN || r == ARCHIVE_EOF) {	/* not an archive (or
						 * an empty one): the decoder says */
		archive_read_free(a);
		ingest_unpack_free(in.up);
		return 0;
	}
	ingest_member_unkept(m);
	if (depth >= NEST_MAX) {	/* said, not taken for "not a log" */
		s = ingest_item_new(name, SRC_ERROR, 0);
		ingest_item_error(s,
		    "%s: an archive inside %d levels of archives: not "
		    "read (at most %d)", name, depth + 1, NEST_MAX);
		ingest_item_emit(k, s);
	} else {
		walk_members(k, a, e, r, &in, depth + 1);
	}
	archive_read_free(a);
	ingest_unpack_free(in.up);
	return 1;
}

/* The method of the zip member at hand when its decoder's memory is set
 * by the member (LZMA and xz dictionaries, PPMd models, zstd windows),
 * else NULL: zip members are stored, deflated or bzip2ed. */
static const char *
zip_unread(struct archive *a)
{
	const char *f = archive_format_name(a);

	if ((archive_format(a) & ARCHIVE_FORMAT_BASE_MASK) !=
	    ARCHIVE_FORMAT_ZIP || f == NULL || strstr(f, "(uncompressed)") ||
	    strstr(f, "(deflation)") || strstr(f, "(bzip)"))
		return NULL;
	return f;
}

/* One regular member: skipped, walked as an archive, or held for a
 * decoder. 0, 1 damaged (the archive goes on), -1 the archive fails
 * inside it. */
static int
walk_member(struct walker *k, struct archive *a, struct archive_entry *e,
    const char *archive_name, int depth)
{
	struct src *s = member_src(archive_name, e, SRC_LOG);
	struct member m;
	enum iolog_kind kind = IOLOG_NOT_GZIP;
	const char *zip = zip_unread(a);
	int rc;

	if (zip != NULL) {
		ingest_item_error(s, "%s: a member of %s: its decoder's memory "
		    "is set by the archive: not read", s->name, zip);
		ingest_item_emit(k, s);
		return archive_read_data_skip(a) == ARCHIVE_OK ? 0 : -1;
	}
	ingest_member_init(&m, a);
	if (member_kind(&m, s->name, &kind) < 0) {
		/* the archive fails inside it: what was read goes on */
		rc = hold_member(&m, e, s);
		ingest_item_emit(k, s);
	} else if (kind != IOLOG_LOG && !worth_reading(m.buf, m.len)) {
		/* a core dump, a data file: skipped unread */
		ingest_item_skip(s, "neither an iostatmon log, an archive nor "
		    "compressed data");
		ingest_item_emit(k, s);
		rc = skip_member(a);
	} else if (kind != IOLOG_LOG && walk_nested(k, &m, s->name,
	    depth)) {
		ingest_item_free(s);
		rc = m.rc < 0 ? -1 : skip_member(a);
		if (rc == 0)
			rc = m.rc;
	} else {
		rc = hold_member(&m, e, s);
		ingest_item_emit(k, s);
	}
	ingest_member_free(&m);
	return rc;
}

/* The members of an archive whose first header was read into e. A
 * damaged header (ARCHIVE_RETRY) is recorded once per run of them while
 * libarchive looks for the next good header, so the members after it
 * still load; the damage is emitted after the members. */
static void
walk_members(struct walker *k, struct archive *a, struct archive_entry *e,
    int r, struct arch_in *in, int depth)
{
	const char *name = in->name, *gz_why;
	uint64_t gz_off;
	int bad;
	int64_t pos = -1;	/* uncompressed offset of the last RETRY */

	for (; r != ARCHIVE_EOF && !k->stopped;
	    r = archive_read_next_header(a, &e)) {
		if (r == ARCHIVE_RETRY) {
			if (pos < 0)
				add_archive_damage(in, a, NULL);
			else if (archive_filter_bytes(a, 0) <= pos)
				break;		/* no progress: give up */
			pos = archive_filter_bytes(a, 0);
			continue;
		}
		pos = -1;
		if (r < ARCHIVE_WARN) {
			add_archive_damage(in, a, NULL);
			break;
		}
		if (archive_entry_filetype(e) == AE_IFLNK) {
			ingest_item_emit(k, member_src(name, e, SRC_LINK));
			continue;
		}
		if (archive_entry_filetype(e) != AE_IFREG ||
		    archive_entry_hardlink(e) != NULL)
			continue;
		bad = walk_member(k, a, e, name, depth);
		if (bad) {
			add_archive_damage(in, a, bad > 0 ?
			    archive_entry_pathname(e) : NULL);
			if (bad < 0)
				break;
		}
	}
	/* A compressed stream cut at a member boundary ends the tar quietly,
	 * and one cut after the tar's end is not read by libarchive at all. */
	if (r == ARCHIVE_EOF)
		ingest_unpack_finish(in->up);
	gz_why = arch_gz_damage(in, &gz_off);
	if (gz_why && !in->gz_told && !k->stopped) {
		arch_add_damage(in, gz_off, gz_why);
		in->gz_told = 1;
	}
	if (in->dmg)
		ingest_item_emit(k, in->dmg);
	in->dmg = NULL;
}

int
ingest_archive_walk(struct walker *k, int fd, const char *name, int maybe_log)
{
	struct arch_in in = { .name = name, .fd = fd };
	struct archive *a = archive_reader();
	struct archive_entry *e = NULL;
	uint64_t gz_off;
	int r = arch_open(k, a, &in);

	if (r == ARCHIVE_OK)
		r = archive_read_next_header(a, &e);
	/* Not an archive, unless what is not recognised is a compressed
	 * stream that broke off before its first header (a damaged archive,
	 * when it cannot be a damaged log) or was not decoded at all. */
	if (r < ARCHIVE_WARN && archive_errno(a) == NOT_AN_ARCHIVE &&
	    !ingest_unpack_refused(in.up) &&
	    (maybe_log || arch_gz_damage(&in, &gz_off) == NULL)) {
		archive_read_free(a);
		ingest_unpack_free(in.up);
		return lseek(fd, 0, SEEK_SET) == 0 ? 0 : -1;
	}
	walk_members(k, a, e, r, &in, 0);	/* a first header that is cut
						 * short or corrupt is damage */
	archive_read_free(a);
	ingest_unpack_free(in.up);
	return 1;
}
