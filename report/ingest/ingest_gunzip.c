/*
 * ingest_gunzip: inflate a gzip stream (one member or several, as gzip
 * writes them) for libarchive; see ingest_gunzip_int.h.
 *
 * Like gzip(1), bytes after a complete member that do not start another
 * member are trailing garbage and end the stream quietly. A stream that
 * ends inside a member, bad deflate data, a bad CRC or length, or a read
 * error end it as damage, at the compressed offset inflate had reached.
 */
#include "ingest_gunzip_int.h"

#include <archive.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "xalloc.h"

#define GZ_IN 65536
#define GZ_OUT 65536

struct gunzip {
	archive_read_callback *pull;
	void *pull_ctx;
	const uint8_t *blk;	/* the rest of the block last pulled */
	size_t blklen;
	z_stream zs;
	int zinit;
	int between;		/* before a member's header */
	int done;
	uint64_t read;		/* compressed bytes taken from the input */
	uint8_t in[GZ_IN];
	uint8_t out[GZ_OUT];
	char why[160];		/* damage; "" if none */
	uint64_t why_off;
};

struct gunzip *
ingest_gunzip_pull(archive_read_callback *pull, void *ctx)
{
	struct gunzip *g = xcalloc(1, sizeof *g);

	g->pull = pull;
	g->pull_ctx = ctx;
	g->between = 1;
	/* 16 + 15: a gzip header and trailer around a full deflate window */
	if (inflateInit2(&g->zs, 16 + MAX_WBITS) == Z_OK)
		g->zinit = 1;
	else
		g->done = 1;
	return g;
}

uint64_t
ingest_gunzip_consumed(const struct gunzip *g)
{
	return g->read - g->zs.avail_in;
}

const char *
ingest_gunzip_damage(const struct gunzip *g, uint64_t *offset)
{
	if (g->why[0] == '\0')
		return NULL;
	*offset = g->why_off;
	return g->why;
}

static void
damage(struct gunzip *g, const char *why)
{
	snprintf(g->why, sizeof g->why, "%s", why);
	g->why_off = ingest_gunzip_consumed(g);
	g->done = 1;
}

/* Append input after what inflate has not consumed yet: 1 some, 0 at
 * the end of the input, -1 the input breaks off (damage recorded). */
static int
fill(struct gunzip *g)
{
	size_t k;

	if (g->zs.avail_in > 0)
		memmove(g->in, g->zs.next_in, g->zs.avail_in);
	g->zs.next_in = g->in;
	if (g->blklen == 0) {
		const void *p;
		la_ssize_t n = g->pull(NULL, g->pull_ctx, &p);

		if (n < 0) {
			damage(g, "cut short where the archive holding it "
			    "breaks off");
			return -1;
		}
		if (n == 0)
			return 0;
		g->blk = p;
		g->blklen = (size_t)n;
	}
	k = GZ_IN - g->zs.avail_in;
	if (k > g->blklen)
		k = g->blklen;
	memcpy(g->in + g->zs.avail_in, g->blk, k);
	g->blk += k;
	g->blklen -= k;
	g->zs.avail_in += (uInt)k;
	g->read += k;
	return 1;
}

/* Between members: start the next one, or end quietly when the input is
 * over or holds no further member (trailing garbage, as gzip(1) says). */
static int
next_member(struct gunzip *g)
{
	while (g->zs.avail_in < 2) {
		int r = fill(g);

		if (r < 0)
			return -1;
		if (r == 0)
			break;
	}
	if (g->zs.avail_in < 2 || g->zs.next_in[0] != 0x1f ||
	    g->zs.next_in[1] != 0x8b) {
		g->done = 1;
		return -1;
	}
	inflateReset(&g->zs);
	g->between = 0;
	return 0;
}

la_ssize_t
ingest_gunzip_read(struct archive *a, void *cd, const void **buf)
{
	struct gunzip *g = cd;
	int r;

	(void)a;
	*buf = g->out;
	g->zs.next_out = g->out;
	g->zs.avail_out = GZ_OUT;
	while (g->zs.avail_out == GZ_OUT && !g->done) {
		if (g->between && next_member(g) < 0)
			break;
		if (g->zs.avail_in == 0) {
			r = fill(g);
			if (r < 0)
				break;
			if (r == 0) {
				damage(g, "truncated gzip input");
				break;
			}
		}
		r = inflate(&g->zs, Z_NO_FLUSH);
		if (r == Z_STREAM_END)
			g->between = 1;
		else if (r != Z_OK && r != Z_BUF_ERROR)
			damage(g, g->zs.msg ? g->zs.msg : "bad gzip data");
	}
	return (la_ssize_t)(GZ_OUT - g->zs.avail_out);
}

void
ingest_gunzip_free(struct gunzip *g)
{
	if (g == NULL)
		return;
	if (g->zinit)
		inflateEnd(&g->zs);
	free(g);
}
