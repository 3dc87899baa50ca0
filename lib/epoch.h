/*
 * epoch: the times iocensus takes and keeps. A time is a count of unix
 * seconds from 0000-01-01T00:00:00Z to 9999-12-31T23:59:59Z, the years a
 * date is written in (YYYY). Every option that takes a time (fsscan --now
 * and --as-of, iocensus --from, --to, --quarter, --now and the lines of
 * --annotate) takes these and no other, and the analyses refuse a
 * snapshot whose times lie outside (a database another program wrote):
 * the difference of two such times, or one of them in milliseconds, stays
 * far inside 64 bits, so every analysis computes with them exactly.
 * The times of files in a scan are data, not options: they may be
 * anything time_t holds (ages are computed in 128 bits).
 */
#ifndef IOCENSUS_EPOCH_H
#define IOCENSUS_EPOCH_H

#include <stdint.h>

#define EPOCH_MIN	(-62167219200LL)	/* 0000-01-01T00:00:00Z */
#define EPOCH_MAX	253402300799LL		/* 9999-12-31T23:59:59Z */

/* What epoch_parse takes, for messages: "--as-of X: expected ...". */
#define EPOCH_SYNTAX	"a UTC time in the years 0 to 9999: unix seconds " \
	"(-62167219200 to 253402300799) or a date (YYYY-MM-DD, " \
	"YYYY-MM-DDTHH:MM[:SS])"

static inline int
epoch_valid(int64_t t)
{
	return t >= EPOCH_MIN && t <= EPOCH_MAX;
}

/* A time as a user writes it: unix seconds, optionally negative and
 * after an '@' ("1264982400", "@-86400"); or a UTC date "YYYY-MM-DD",
 * then optionally ('T' or ' ') "HH:MM" and ":SS", then optionally 'Z'.
 * Plain arithmetic on the proleptic Gregorian calendar: neither the time
 * zone nor the locale changes a result. 0, or -1 when s is not such a
 * time or lies outside [EPOCH_MIN, EPOCH_MAX]. */
int epoch_parse(const char *s, int64_t *t);

#endif
