/*
 * ingest_archive: the members of an archive as sources. A file is an
 * archive when libarchive recognises its content (tar, cpio, zip, ...
 * under gzip, zstd, xz, ...), whatever its name. Regular members are read
 * into memory one by one and named ARCHIVE:MEMBER; nothing is extracted
 * to disk. A damaged archive is a source of its own (SRC_DAMAGE) after
 * the members that could be read.
 */
#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ingest_int.h"
#include "xalloc.h"

#define ARCHIVE_BLOCK 65536
#define MEMBER_PREALLOC_MAX (INT64_C(256) << 20)

/* libarchive's "not an archive" errno (ARCHIVE_ERRNO_FILE_FORMAT, from a
 * header it does not install). */
#ifdef EFTYPE
#define NOT_AN_ARCHIVE EFTYPE
#else
#define NOT_AN_ARCHIVE EILSEQ
#endif

static struct archive *
archive_reader(void)
{
	struct archive *a = archive_read_new();

	archive_read_support_filter_all(a);
	/* Every real archive format, but not "raw" (any file) or "empty"
	 * (an empty file), nor mtree (plain text can look like it). */
	archive_read_support_format_tar(a);
	archive_read_support_format_cpio(a);
	archive_read_support_format_zip(a);
	archive_read_support_format_7zip(a);
	archive_read_support_format_ar(a);
	archive_read_support_format_iso9660(a);
	archive_read_support_format_xar(a);
	archive_read_support_format_rar(a);
	archive_read_support_format_rar5(a);
	archive_read_support_format_cab(a);
	archive_read_support_format_lha(a);
	archive_read_support_format_warc(a);
	return a;
}

/* Where libarchive stopped (compressed bytes consumed), or the file's end
 * when it cannot say (it failed before reading anything it reports). */
static void
emit_archive_damage(struct walker *k, struct archive *a, int fd,
    const char *name)
{
	struct src *s = src_new(name, SRC_DAMAGE, 0);
	const char *why = archive_error_string(a);
	int64_t off = archive_filter_bytes(a, -1);
	struct stat st;

	if (off < 0)
		off = fstat(fd, &st) == 0 ? (int64_t)st.st_size : 0;
	src_add_damage(s, (uint64_t)off, why ? why : "unreadable archive", 0);
	walk_emit(k, s);
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
	s = src_new(name, kind, 0);
	free(name);
	return s;
}

/* One member into memory; -1 when the archive fails inside it (what was
 * read is still handed on). */
static int
read_member(struct walker *k, struct archive *a, struct archive_entry *e,
    const char *archive_name)
{
	int64_t size = archive_entry_size_is_set(e) ? archive_entry_size(e) : 0;
	/* The header's size, unless absurd (a damaged header must not make
	 * us allocate it: the buffer grows with what is actually read). */
	size_t cap = size > 0 && size < MEMBER_PREALLOC_MAX ? (size_t)size + 1 :
	    65536;
	struct src *s = member_src(archive_name, e, SRC_LOG);
	la_ssize_t got;
	int rc = 0;

	s->buf = xmalloc(cap);
	for (;;) {
		if (s->len == cap) {
			cap *= 2;
			s->buf = xrealloc(s->buf, cap);
		}
		got = archive_read_data(a, s->buf + s->len, cap - s->len);
		if (got == 0)
			break;
		if (got < 0) {
			rc = -1;
			break;
		}
		s->len += (size_t)got;
	}
	walk_emit(k, s);
	return rc;
}

/* The members of an archive whose first header was read into e. */
static void
walk_members(struct walker *k, struct archive *a, struct archive_entry *e,
    int r, int fd, const char *name)
{
	for (; r != ARCHIVE_EOF && !k->stopped;
	    r = archive_read_next_header(a, &e)) {
		if (r < ARCHIVE_WARN) {
			emit_archive_damage(k, a, fd, name);
			return;
		}
		if (archive_entry_filetype(e) == AE_IFLNK) {
			walk_emit(k, member_src(name, e, SRC_LINK));
			continue;
		}
		if (archive_entry_filetype(e) != AE_IFREG ||
		    archive_entry_hardlink(e) != NULL)
			continue;
		if (read_member(k, a, e, name) < 0) {
			emit_archive_damage(k, a, fd, name);
			return;
		}
	}
}

int
walk_archive(struct walker *k, int fd, const char *name)
{
	struct archive *a = archive_reader();
	struct archive_entry *e = NULL;
	int r = archive_read_open_fd(a, fd, ARCHIVE_BLOCK);

	if (r == ARCHIVE_OK)
		r = archive_read_next_header(a, &e);
	if (r < ARCHIVE_WARN && archive_errno(a) == NOT_AN_ARCHIVE) {
		archive_read_free(a);
		return lseek(fd, 0, SEEK_SET) == 0 ? 0 : -1;
	}
	if (r < ARCHIVE_WARN)	/* recognised, but cut short or corrupt */
		emit_archive_damage(k, a, fd, name);
	else
		walk_members(k, a, e, r, fd, name);
	archive_read_free(a);
	return 1;
}
