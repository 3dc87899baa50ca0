/*
 * ingest_item: a source on its way from the walker through a decoder to
 * the writer (struct src, ingest_int.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ingest_int.h"
#include "xalloc.h"

struct src *
ingest_item_new(const char *name, enum src_kind kind, int named)
{
	struct src *s = xcalloc(1, sizeof *s);

	s->name = xstrdup(name);
	s->kind = kind;
	s->named = named;
	s->fd = -1;
	return s;
}

void
ingest_item_error(struct src *s, const char *fmt, ...)
{
	va_list ap;
	char *buf;
	int n;

	/* Whole, however long the path it names: the reason comes last. */
	va_start(ap, fmt);
	n = vasprintf(&buf, fmt, ap);
	va_end(ap);
	free(s->error);
	s->error = n < 0 ? xstrdup(strerror(ENOMEM)) : buf;
	s->kind = SRC_ERROR;
}

void
ingest_item_skip(struct src *s, const char *why)
{
	free(s->error);
	s->error = xstrdup(why);
	s->kind = SRC_SKIP;
}

void
ingest_item_damage(struct src *s, uint64_t offset, const char *reason,
    int truncated)
{
	struct src_damage *d;

	s->dmg = xreallocarray(s->dmg, s->ndmg + 1, sizeof *s->dmg);
	d = &s->dmg[s->ndmg++];
	d->offset = offset;
	d->reason = xstrdup(reason ? reason : "unknown");
	d->truncated = truncated;
	if (!truncated)
		s->damaged = 1;
}

void
ingest_item_free(struct src *s)
{
	if (s == NULL)
		return;
	if (s->fd >= 0)
		close(s->fd);
	for (size_t i = 0; i < s->ndev; i++) {
		free(s->dev[i].s);
		free(s->dev[i].q);
		free(s->dev[i].ch);
		ingest_ident_free(&s->dev[i]);
	}
	free(s->enc);
	for (size_t i = 0; i < s->ndmg; i++)
		free(s->dmg[i].reason);
	free(s->dev);
	free(s->dmg);
	free(s->host);
	free(s->buf);
	free(s->error);
	free(s->name);
	free(s);
}

size_t
ingest_item_bytes(const struct src *s)
{
	size_t n = sizeof *s + s->ndev * sizeof *s->dev + s->enclen +
	    s->nhost * sizeof *s->host;

	for (size_t i = 0; i < s->ndev; i++)
		n += s->dev[i].cap * sizeof *s->dev[i].s + s->dev[i].nq *
		    sizeof *s->dev[i].q + s->dev[i].nch * sizeof *s->dev[i].ch;
	return n;
}

int
ingest_item_emit(struct walker *k, struct src *s)
{
	if (!k->stopped && k->w->stop && *k->w->stop)
		k->stopped = 1;
	if (k->stopped) {
		ingest_item_free(s);
		return -1;
	}
	if (k->w->emit(k->w->ctx, s) < 0)
		k->stopped = 1;
	return k->stopped ? -1 : 0;
}
