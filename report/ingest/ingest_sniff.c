/*
 * ingest_sniff: what a file or archive member is, from its first bytes
 * (lib/iolog/iolog_sniff) and its name.
 */
#include <string.h>

#include "ingest_int.h"
#include "iolog/iolog.h"

#define LOG_SUFFIX ".iolog.gz"

/* The daemon names its logs so; a damaged or odd gzip file named so is
 * taken for a log, whose damage is then reported. */
static int
log_name(const char *name)
{
	size_t n = strlen(name), k = strlen(LOG_SUFFIX);

	return n >= k && !strcmp(name + n - k, LOG_SUFFIX);
}

enum iolog_kind
ingest_sniff(const uint8_t *buf, size_t len, int more, const char *name)
{
	enum iolog_kind k = iolog_sniff(buf, len, more);

	if ((k == IOLOG_FOREIGN || k == IOLOG_DAMAGED) && log_name(name))
		return IOLOG_LOG;
	return k;
}
