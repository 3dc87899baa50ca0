/*
 * bell: a doorbell, one 32-bit word that threads, or processes sharing the
 * memory it lives in, ring and wait on (a Linux futex). Ringing never
 * blocks, and no ring is lost: a waiter sleeps only while the word still
 * holds the count it last saw.
 */
#ifndef FSSCAN_BELL_H
#define FSSCAN_BELL_H

#include <stdatomic.h>
#include <stdint.h>

void bell_ring(_Atomic uint32_t *b);
/* Sleep for up to us microseconds, unless b has rung since it counted
 * *seen; then *seen is its count. */
void bell_wait(_Atomic uint32_t *b, uint32_t *seen, long us);

#endif
