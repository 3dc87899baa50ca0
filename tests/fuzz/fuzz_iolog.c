/*
 * fuzz_iolog: libFuzzer harness for the log reader (scripts/fuzz). Any
 * input is a log; every event is read through, so that the sanitizers see
 * any access the reader's results would lead a caller to make.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "iolog/iolog.h"

static volatile uint64_t sink;

static void
touch(const struct iolog_event *ev)
{
	size_t i, j;

	if (ev->header != NULL)
		sink += strlen(ev->header->host) + strlen(ev->header->writer);
	if (ev->type == IOLOG_EV_DAMAGE) {
		if (ev->reason == NULL || ev->reason[0] == '\0')
			abort();	/* damage always says why */
		if (ev->resumed != 0 && ev->resumed < ev->offset)
			abort();	/* reading resumes after the damage */
		sink += strlen(ev->reason) + ev->offset;
		return;
	}
	if (ev->ndev > 65536 || (ev->ndev > 0 && ev->dev == NULL))
		abort();
	for (i = 0; i < ev->ndev; i++) {
		sink += strlen(ev->dev[i].name) + ev->dev[i].id;
		for (j = 0; j < ev->dev[i].nattr; j++)
			sink += strlen(ev->dev[i].attr[j].key) +
			    strlen(ev->dev[i].attr[j].value);
		if (ev->val == NULL)
			continue;
		if (ev->val[i].mask >> DS_FIELDS)
			abort();
		for (j = 0; j < DS_FIELDS; j++)
			sink += ev->val[i].v[j];
	}
	if (ev->clock != NULL)
		sink += ev->clock->monotonic_ns + ev->interval_ns;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct iolog_reader *r = iolog_reader_mem(data, size, "fuzz");
	struct iolog_event ev;
	size_t n = 0;

	if (r == NULL)
		return 0;
	sink += iolog_sniff(data, size, 0) + iolog_sniff(data, size, 1);
	while (iolog_next(r, &ev) > 0) {
		touch(&ev);
		if (++n > 4 * size + 16)
			abort();	/* every event consumes input */
	}
	iolog_reader_close(r);
	return 0;
}
