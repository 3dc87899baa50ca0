/*
 * sampler: turns successive absolute /proc/diskstats reads into log frames.
 *
 * The only place that computes deltas and decides epochs, used by the live
 * daemon and by `iostatmon import` alike, so the same counters give the
 * same log whichever way they arrive. Deltas are taken modulo each field's
 * width; a counter that cannot have moved that way (a 64-bit field going
 * backwards, a 32-bit delta failing plausibility, a changed major:minor or
 * diskseq, a device that was absent) is a reset: the interval is unknown
 * (state IOLOG_RESET), never clamped to 0 and never negative.
 */
#ifndef IOSTATMON_SAMPLER_H
#define IOSTATMON_SAMPLER_H

#include "devices.h"
#include "iolog/iolog.h"

struct sampler;

/* w: where frames go. h: the header written at the start of each member. */
struct sampler *sampler_new(struct iolog_writer *w, const struct iolog_header *h);
void sampler_free(struct sampler *s);

/* Feed one read: t holds the absolute counters of every device, set says
 * which are monitored (in t's order, or NULL for all of t), c the clocks of
 * the read (seq is assigned by the sampler). Writes H/T/K frames when
 * needed (start, table change, hourly keyframe, new boot) and an S frame.
 * Returns 0, or -1 when the write failed (errno set; see iolog.h backlog),
 * or with errno E2BIG and nothing written when set monitors more than
 * IOLOG_NDEV_MAX devices (sampler_monitored), which no log can hold. */
int sampler_feed(struct sampler *s, const struct ds_table *t,
    const struct dev_set *set, const struct iolog_clock *c);

/* How many devices of t set monitors (set NULL: all of t): the devices
 * of the table a feed of t writes, at most IOLOG_NDEV_MAX. */
size_t sampler_monitored(const struct ds_table *t, const struct dev_set *set);

/* Start a new member on the next feed (rotation to a new writer). */
void sampler_set_writer(struct sampler *s, struct iolog_writer *w);

/* The header for members from now on: the next feed starts a new member
 * with it (an H frame starts a member, in the same writer or in one given
 * to sampler_set_writer()). A different boot_id ends every epoch: that
 * member starts with H, T and a K of the next read, flagged
 * IOLOG_NEW_BOOT, and no interval spans the reboot. */
void sampler_set_header(struct sampler *s, const struct iolog_header *h);

/* The dev_set was decided again: at the next feed, a device whose identity
 * attributes (dm name, wwid, ...) changed starts a new epoch even when its
 * name, major:minor and diskseq did not (a dm minor reused under another
 * name on a kernel without diskseq). */
void sampler_devices_changed(struct sampler *s);

#endif
