/*
 * siphash: SipHash-2-4 (Aumasson and Bernstein, "SipHash: a fast
 * short-input PRF", 2012), the keyed hash behind the opaque labels of
 * private names in world-readable outputs: without the key, a label
 * cannot be matched to a guessed name.
 */
#ifndef IOCENSUS_SIPHASH_H
#define IOCENSUS_SIPHASH_H

#include <stddef.h>
#include <stdint.h>

#define SIPHASH_KEYLEN 16

/* The 64-bit SipHash-2-4 of the len bytes at p under key (its 16 bytes
 * read as two little-endian words, as the paper's). */
uint64_t siphash_24(const uint8_t key[SIPHASH_KEYLEN], const void *p,
    size_t len);

#endif
