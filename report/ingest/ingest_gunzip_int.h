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

/* Does the input start with the gzip magic? */
int ingest_gunzip_is_gzip_fd(int fd);
int ingest_gunzip_is_gzip_mem(const void *buf, size_t len);

/* A feed reading fd from its current position, or pulling its input
 * from a stream with libarchive's read callback (called with a NULL
 * archive): an archive inside an archive. */
struct gunzip *ingest_gunzip_fd(int fd);
struct gunzip *ingest_gunzip_pull(archive_read_callback *pull, void *ctx);

/* archive_read_open() with the feed as its input; the feed outlives a. */
int ingest_gunzip_open(struct archive *a, struct gunzip *g);

/* Inflate the rest of the stream, discarding it: after the archive's
 * end, so that a stream cut in its trailer is still found damaged. */
void ingest_gunzip_finish(struct gunzip *g);

/* Compressed bytes inflate has consumed so far. */
uint64_t ingest_gunzip_consumed(const struct gunzip *g);
/* Why the stream ended early (NULL: it did not), and where. */
const char *ingest_gunzip_damage(const struct gunzip *g, uint64_t *offset);

void ingest_gunzip_free(struct gunzip *g);

#endif
