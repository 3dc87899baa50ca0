/*
 * i128: exact integers wider than 64 bits, as the census needs them.
 *
 * Byte totals are sums of 64-bit sizes and can pass 2^64 (sparse files of
 * 2^63 - 1 bytes cost no disk space); ages are differences of two 64-bit
 * times and need 65 bits. Both are held in 128 bits. Their decimal text
 * is how the census database stores a value beyond SQLite's signed 64-bit
 * INTEGER (lib/db.h), and how CSV and JSON print it.
 */
#ifndef IOCENSUS_I128_H
#define IOCENSUS_I128_H

#include <stdint.h>

typedef __int128 i128;
typedef unsigned __int128 u128;

#define I128_MAX ((i128)(~(u128)0 >> 1))
#define I128_MIN (-I128_MAX - 1)

/* Decimal text of v; buf must hold I128_STRLEN bytes. */
#define I128_STRLEN 41
char *i128_str(i128 v, char buf[I128_STRLEN]);
/* Parse what i128_str writes (an optional '-', digits, nothing else) into
 * *out; 0, or -1 when the text is not such a number or is out of range. */
int i128_parse(const char *s, i128 *out);
/* Whether v fits SQLite's INTEGER (int64_t). */
static inline int i128_fits64(i128 v) { return v >= INT64_MIN && v <= INT64_MAX; }

#endif
