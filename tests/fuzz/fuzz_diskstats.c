/*
 * fuzz_diskstats: libFuzzer harness for the /proc/diskstats parser
 * (scripts/fuzz). The input is a whole read, not NUL-terminated; every
 * parsed line must satisfy what callers rely on.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "diskstats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ds_table t = { 0 };
	struct ds_line l;
	size_t i;
	int f;

	diskstats_parse_all((const char *)data, size, &t);
	for (i = 0; i < t.n; i++) {
		const struct ds_line *d = &t.dev[i];

		if (memchr(d->name, '\0', DS_NAME_MAX) == NULL ||
		    d->name[0] == '\0' || (d->ncols != 7 && d->ncols < 14) ||
		    d->mask >> DS_FIELDS)
			abort();
		for (f = 0; f < DS_FIELDS; f++)
			if ((!(d->mask >> f & 1) && d->v[f] != 0) ||
			    (diskstats_field_bits(f, 64) == 32 &&
			    d->v[f] > UINT32_MAX))
				abort();
	}
	diskstats_table_free(&t);
	(void)diskstats_parse_line((const char *)data, size, &l);
	return 0;
}
