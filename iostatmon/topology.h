/*
 * topology: the local/OS closure. The devices behind /, /boot, /boot/efi,
 * /usr, /var (PROC/self/mountinfo) and swap (PROC/swaps) are followed down
 * slaves/ to their whole disks, then up holders/ and into partitions; every
 * node reached gets a reason in sysblk_node.local.
 */
#ifndef IOSTATMON_TOPOLOGY_H
#define IOSTATMON_TOPOLOGY_H

#include <stddef.h>

#include "diskstats.h"
#include "sysblk.h"

/* Mark the closure in g. t (the diskstats read) resolves device numbers
 * that SYS/dev/block does not know. Returns 0, or -1 with a message when
 * mountinfo cannot be read; a missing PROC/swaps means no swap. */
int topology_local(struct sysblk *g, const char *proc,
    const struct ds_table *t, char *err, size_t errlen);

#endif
