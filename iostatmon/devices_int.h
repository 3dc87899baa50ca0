/*
 * devices_int: what the files of the device decision share: devices.c
 * (the rules), devices_walk.c (the graph under a stacked device) and
 * devices_level.c (what is sampled of each stack, and what an aggregate
 * then counts).
 */
#ifndef IOSTATMON_DEVICES_INT_H
#define IOSTATMON_DEVICES_INT_H

#include <stddef.h>

#include "devices.h"
#include "sysblk.h"

enum pending { DONE, PARTITION, STACKED };

struct decide {
	const struct dev_opts *o;
	struct sysblk g;
	struct dev_set *s;
	int *node;		/* sysblk index of each device, or -1 */
	int *forced;		/* +1 --include, -1 --exclude, 0 neither */
	int *never;		/* never data (rule 5): not worth a probe */
	enum pending *pend;
};

/* The most leaves of a stack that the rules look at. */
#define DEVICES_MAX_LEAVES 64

/* The device of sysblk node i in the set, or NULL. */
struct dev_info *devices_walk_dev(struct decide *c, int i);
/* The leaf disks under node i (a partition stands for its disk), each
 * once, into v (room for DEVICES_MAX_LEAVES); returns how many. */
size_t devices_walk_leaves(struct decide *c, int i, int *v);

/* The level statement (dev_info.level) of every stacked device. */
void devices_level_all(struct decide *c);

#endif
