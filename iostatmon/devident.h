/*
 * devident: the stable identity of a device for the log's device table,
 * from sysfs (wwid, serial, model, dm name/uuid, md level, rotational,
 * size) and, where /dev/NAME can be opened, libblkid (fstype, uuid, label).
 */
#ifndef IOSTATMON_DEVIDENT_H
#define IOSTATMON_DEVIDENT_H

#include "devices.h"
#include "sysblk.h"

/* Append the attributes of node i (may be -1: nothing known) to d. Probe
 * /dev/<d->name> with libblkid when probe is set; failures are silent. */
void devident_fill(const struct sysblk *g, int i, int probe,
    struct dev_info *d);

/* Free d's attributes. */
void devident_free(struct dev_info *d);

#endif
