/*
 * delta: one device's interval from two absolute reads, or the verdict that
 * the interval cannot be known (a reset). Pure arithmetic, no state, so the
 * sampler's policy can be tested field by field. A reset ends the device's
 * epoch (S1): its absolutes are the base of the next delta.
 *
 * Deltas are taken modulo each field's width (32 bits for the ms fields,
 * the kernel's long for ios, merges and sectors). A reset is declared when
 * the counters cannot have moved that way in dt:
 *   - a long-wide field went backwards on a 64-bit kernel (2^64 never wraps);
 *   - io_ms advanced by more than dt plus slack (a device is at most 100%
 *     busy; the slack absorbs the %util overshoot of 5.0+ accounting);
 *   - a latency sum (rd/wr/dc/fl ms, weighted ms) advanced by more than dt
 *     times DELTA_QD_MAX requests in flight;
 *   - ios, merges or sectors advanced faster than any device can;
 *   - on a 32-bit kernel, an ios counter and its ms field both went
 *     backwards (a real wrap of one does not wrap the other at once).
 */
#ifndef IOSTATMON_DELTA_H
#define IOSTATMON_DELTA_H

#include <stdint.h>

#include "diskstats.h"
#include "iolog/iolog.h"

#define DELTA_QD_MAX       65536		/* requests in flight, per ms */
#define DELTA_IOS_PER_MS   (UINT64_C(1) << 16)	/* 65 M ops/s */
#define DELTA_SECT_PER_MS  (UINT64_C(1) << 18)	/* 128 GiB/s */
#define DELTA_SLACK_MS     250			/* plus a quarter of dt */

/* Fill out for one device: fields is the mask the kernel provides, dt_ns
 * the CLOCK_MONOTONIC time between the reads. Returns out->state: IOLOG_OK
 * (out->v holds deltas and the in_flight value) or IOLOG_RESET (out->v holds
 * cur). out->mask has a bit for every non-zero value stored. */
int delta_compute(const uint64_t *prev, const uint64_t *cur, uint32_t fields,
    int long_bits, uint64_t dt_ns, struct iolog_val *out);

/* out = cur as absolutes (keyframes and resets). */
void delta_absolute(const uint64_t *cur, uint32_t fields,
    struct iolog_val *out);

#endif
