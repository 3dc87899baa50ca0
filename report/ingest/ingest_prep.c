/*
 * ingest_prep: the writer's work that needs no database, done in the
 * decoder threads. Each device's (sorted, unique) samples are cut into
 * UTC hours and each hour is encoded as the io_chunk row it becomes when
 * the device has no stored chunk for that hour. The writer then inserts
 * those rows as they are, and falls back to merging (and encoding again)
 * only for hours that already have a chunk (ingest_chunks.c).
 */
#include <stdlib.h>

#include "floordiv.h"
#include "ingest_int.h"
#include "xalloc.h"

/* Encoded bytes per sample at most: 9 digits in each r127 column. */
#define ENC_MAX_PER_SAMPLE (9 * (2 + IOF_N))

int64_t
ingest_prep_hour(int64_t t_ms)
{
	return floor_div64(t_ms, 3600000) * 3600;
}

static size_t
count_hours(const struct src_dev *d)
{
	size_t n = 0;

	for (size_t i = 0; i < d->n; i++)
		if (i == 0 || ingest_prep_hour(d->s[i].t_ms) !=
		    ingest_prep_hour(d->s[i - 1].t_ms))
			n++;
	return n;
}

static void
prepare_dev(struct src_dev *d, char *buf, size_t *used)
{
	d->ch = xcalloc(count_hours(d), sizeof *d->ch);
	for (size_t i = 0, j; i < d->n; i = j) {
		struct src_chunk *c = &d->ch[d->nch++];

		c->t0 = ingest_prep_hour(d->s[i].t_ms);
		for (j = i + 1; j < d->n &&
		    ingest_prep_hour(d->s[j].t_ms) == c->t0;
		    j++)
			;
		c->first = i;
		c->n = j - i;
		c->encoded = c->n <= IOCHUNK_MAX && chunk_encode(c->t0,
		    &d->s[i], c->n, &c->enc, buf, used) == 0;
	}
}

void
ingest_prep_src(struct src *s)
{
	size_t total = 0, used = 0;

	if (s->kind != SRC_LOG)
		return;
	for (size_t i = 0; i < s->ndev; i++)
		total += s->dev[i].n;
	if (total == 0)
		return;
	s->enc = xreallocarray(NULL, total, ENC_MAX_PER_SAMPLE);
	for (size_t i = 0; i < s->ndev; i++)
		if (s->dev[i].n > 0)
			prepare_dev(&s->dev[i], s->enc, &used);
	s->enc = xrealloc(s->enc, used ? used : 1);
	s->enclen = used;
}
