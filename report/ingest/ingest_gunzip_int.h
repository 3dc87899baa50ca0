/*
 * ingest_gunzip_int: a gzip-compressed archive fed to libarchive already
 * inflated, so that a tarball cut short or damaged inside its gzip stream
 * still yields every member before the damage.
 *
 * Why: libarchive's gzip filter fills 64 KiB of output before it hands any
 * of it on, and fails the whole read when the input ends first; a small
 * truncated tarball then loads nothing, a large one loses up to 64 KiB
 * before the cut. Inflating here hands on every byte inflate produces and
 * turns the damage into a plain end of input, which libarchive already
 * handles member by member. The damage itself (compressed offset, zlib's
 * reason) is kept here for the caller to report.
 */
#ifndef IOCENSUS_INGEST_GUNZIP_INT_H
#define IOCENSUS_INGEST_GUNZIP_INT_H

#include <stddef.h>
#include <stdint.h>

#include <archive.h>

struct gunzip;

/* A feed pulling its input from a stream with libarchive's read
 * callback (called with a NULL archive): a file, or an archive member
 * (ingest_unpack.c). */
struct gunzip *ingest_gunzip_pull(archive_read_callback *pull, void *ctx);

/* A read callback of libarchive's form: whatever inflate produces, at
 * least one byte unless the stream is over (a may be NULL). */
la_ssize_t ingest_gunzip_read(struct archive *a, void *g, const void **buf);

/* Compressed bytes inflate has consumed so far. */
uint64_t ingest_gunzip_consumed(const struct gunzip *g);
/* Why the stream ended early (NULL: it did not), and where. */
const char *ingest_gunzip_damage(const struct gunzip *g, uint64_t *offset);

void ingest_gunzip_free(struct gunzip *g);

#endif
