/*
 * minutes_fixture: a minute series made by hand (report/query/query.h's
 * struct minute_series), for the tests of the I/O questions that read
 * one. Every minute starts in one state with no bytes; a test sets the
 * minutes it means, and frees the series with query_minutes_free.
 */
#ifndef TESTS_MINUTES_FIXTURE_H
#define TESTS_MINUTES_FIXTURE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "query/query.h"

/* A series of n minutes from t0, all stored, every minute in state st, of 2 hosts
 * and 5 devices. */
static inline void
series_new(struct minute_series *s, int64_t t0, size_t n, uint8_t st)
{
	memset(s, 0, sizeof *s);
	s->t0 = t0;
	s->n = n;
	s->len = n;
	s->state = malloc(n);
	memset(s->state, st, n);
	s->rd = calloc(n, sizeof *s->rd);
	s->wr = calloc(n, sizeof *s->wr);
	s->ios = calloc(n, sizeof *s->ios);
	s->nhost = 2;
	s->ndev = 5;
}

#endif
