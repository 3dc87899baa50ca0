/*
 * argval: the numbers of command-line options, read strictly: decimal
 * digits only, with no blank, sign, base prefix or trailing text, and
 * never past what the value holds (strtoull would read " -1" as
 * 2^64 - 1 and "0x10" as 16). Shared by fsscan, iostatmon and iocensus.
 */
#ifndef IOCENSUS_ARGVAL_H
#define IOCENSUS_ARGVAL_H

#include <stdint.h>

/* The decimal digits at the start of s into *v: returns the end of them,
 * or NULL when there is no digit or they exceed 2^64 - 1. */
const char *argval_digits(const char *s, uint64_t *v);

/* All of s as decimal digits, at most max. 0, or -1 leaving *v alone. */
int argval_u64(const char *s, uint64_t max, uint64_t *v);

#endif
