/*
 * iolog_sniff: what the first bytes of a file say it is. A log is gzip
 * whose data starts with a header frame: a length varint, then 'H',
 * a version (1 or 2) and the str "iolog" (docs/iolog-format.md). Damage to those
 * few bytes must not make a log pass for a foreign file, so either the
 * frame's fixed start or the magic anywhere in the first bytes will do,
 * and gzip whose header or data is bad before its data says anything
 * against being a log is called damaged, not foreign.
 */
#include "iolog_inflate_int.h"

#include <assert.h>
#include <string.h>

#include "iolog.h"

#define SNIFF_TELL 16	/* inflated bytes that hold the magic of any log */

/* The magic str of a header frame, length byte first. */
static const uint8_t magic[] = { 5, 'i', 'o', 'l', 'o', 'g' };
/* 'H', version 1, the magic's length: what follows the length varint;
 * the version byte may be any version up to IOLOG_VERSION. */
static const uint8_t h_start[] = { 'H', 1, 5 };

/* Do the inflated bytes p[0 .. n) start like a log? 1 yes (the magic is
 * there, or the header frame's fixed start), -1 no, 0 not yet known (a
 * log could start so). */
static int
log_start(const uint8_t *p, size_t n)
{
	size_t i, k, m;

	for (i = 0; i + sizeof magic <= n; i++)
		if (memcmp(p + i, magic, sizeof magic) == 0)
			return 1;
	for (k = 0; k < n && k < 4 && (p[k] & 0x80); k++)
		;
	if (k == 4)
		return -1;	/* no frame length is that long */
	if (k == n)
		return 0;
	k++;
	m = n - k < sizeof h_start ? n - k : sizeof h_start;
	for (i = 0; i < m; i++)
		if (i == 1 ? p[k + i] < 1 || p[k + i] > IOLOG_VERSION :
		    p[k + i] != h_start[i])
			return -1;
	return m == sizeof h_start ? 1 : 0;
}

enum iolog_kind
iolog_sniff(const void *buf, size_t len, int more)
{
	const uint8_t *p = buf;
	uint8_t out[SNIFF_TELL];
	z_stream zs;
	long h;
	int rc, start;

	if (len < 2)
		return more ? IOLOG_NEED_MORE : IOLOG_NOT_GZIP;
	if (p[0] != 0x1f || p[1] != 0x8b)
		return IOLOG_NOT_GZIP;
	h = iolog_inflate_member_header_len(p, len);
	if (h < 0)
		return IOLOG_DAMAGED;
	if (h == 0)	/* the header is cut short */
		return more ? IOLOG_NEED_MORE : IOLOG_FOREIGN;
	memset(&zs, 0, sizeof zs);
	if (inflateInit2(&zs, -15) != Z_OK)
		return IOLOG_DAMAGED;
	zs.next_in = (Bytef *)(uintptr_t)(p + h);
	zs.avail_in = (uInt)(len - (size_t)h > UINT32_MAX ? UINT32_MAX :
	    len - (size_t)h);
	zs.next_out = out;
	zs.avail_out = sizeof out;
	do
		rc = inflate(&zs, Z_SYNC_FLUSH);
	while (rc == Z_OK && zs.avail_out > 0 && zs.avail_in > 0);
	inflateEnd(&zs);
	start = log_start(out, sizeof out - zs.avail_out);
	if (start > 0)
		return IOLOG_LOG;
	if (rc == Z_DATA_ERROR && start == 0)
		return IOLOG_DAMAGED;
	if (rc != Z_DATA_ERROR && rc != Z_STREAM_END && zs.avail_out > 0 &&
	    start == 0 && more)
		return IOLOG_NEED_MORE;
	/* Enough that is not a log, or a file that ends before its data
	 * says anything: nothing in it to read as a log either way (an
	 * archive reader reports the cut). */
	return IOLOG_FOREIGN;
}

int
iolog_lock_name(const char *name)
{
	size_t n, p = strlen(IOLOG_LOCK_PREFIX), q = strlen(IOLOG_LOCK_SUFFIX);

	assert(name != NULL);
	n = strlen(name);
	return n > p + q && !strncmp(name, IOLOG_LOCK_PREFIX, p) &&
	    !strcmp(name + n - q, IOLOG_LOCK_SUFFIX);
}
