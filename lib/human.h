/*
 * human: numbers, sizes, durations and dates as people read them: the
 * table format, the HTML report, plot axes, notes and progress lines.
 * Machine formats (CSV, JSON) never go through here. No locale: digits are
 * grouped with ',' and the decimal point is '.', always; dates are UTC.
 */
#ifndef IOCENSUS_HUMAN_H
#define IOCENSUS_HUMAN_H

#include <stddef.h>
#include <stdint.h>

#include "i128.h"

/* 1234567 -> "1,234,567". */
const char *human_int(int64_t v, char *buf, size_t len);
const char *human_uint(uint64_t v, char *buf, size_t len);
/* The same for a 128-bit integer; buf of 56 bytes holds any. */
const char *human_wide(i128 v, char *buf, size_t len);
/* A real with `decimals` places and grouped digits: "1,984.50". */
const char *human_real(double v, int decimals, char *buf, size_t len);
/* Binary units: "512 B", "1.5 GiB" (decimals places above 1 KiB). */
const char *human_bytes(double v, int decimals, char *buf, size_t len);
/* The same in a fixed unit: exp 0 = B, 1 = KiB, 2 = MiB ... */
const char *human_bytes_in(double v, int exp, int decimals, char *buf,
    size_t len);
/* Seconds: "45 s", "10 min", "19 h 0 min", "2 d 3 h". */
const char *human_duration(int64_t s, char *buf, size_t len);
/* Unix seconds, UTC: "2010-03-31" or, with_time, "2010-03-31 14:05". */
const char *human_date(int64_t t, int with_time, char *buf, size_t len);

#endif
