/*
 * devices: the decision for every device of a diskstats read. The rules,
 * in order; the first that applies gives the decision and its reason:
 *
 *  1. --exclude GLOB matches the name: excluded ("excluded by --exclude").
 *  2. --include GLOB matches: monitored ("included by --include").
 *  3. --all-devices: monitored ("all devices"); no further rule runs.
 *  4. In the local/OS closure (topology.c): excluded, "holds / via sda2",
 *     "partition of local sdb", "stacked on local md0".
 *  5. Never data: 0:0 or hidden=1 (NVMe multipath paths: the nvmeXnY head
 *     counts), loop (major 7), ram (1), nbd (43), sr (11), fd (2), zram*,
 *     a name sysfs does not know, a node under /devices/virtual/block/
 *     that is not dm or md (NVMe heads live under /devices/virtual/
 *     nvme-subsystem/ and are disks), size 0, removable 1.
 *  6. A partition: excluded, "partition of monitored sdb" or "partition of
 *     excluded sde": I/O is counted on whole disks only.
 *  7. A stacked device (one with slaves/: dm, md, bcache): excluded,
 *     "stacked on monitored sdc, sdd" (the leaf disks, partitions mapped to
 *     their disks), so that no byte is counted both on a stack and on its
 *     disks. When --include picks a stacked device, the level flips: its
 *     leaf disks that no --include names are excluded ("under included
 *     dm-2"). What the disks then carry (a mirror's copies, a RAID's
 *     parity) is said per stack by devices_level.c.
 *  8. Otherwise: monitored ("data disk").
 *
 * The reason string is "monitored: WHY" or "excluded: WHY".
 */
#include "devices.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devident.h"
#include "devices_int.h"
#include "sysblk.h"
#include "topology.h"
#include "globlist.h"
#include "xalloc.h"

static void
decide(struct dev_info *d, int monitored, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void
decide(struct dev_info *d, int monitored, const char *fmt, ...)
{
	const char *what = monitored ? "monitored: " : "excluded: ";
	size_t n = strlen(what);
	char buf[512];
	va_list ap;

	/* Kept at its real length: a daemon holds one per device. */
	memcpy(buf, what, n);
	va_start(ap, fmt);
	vsnprintf(buf + n, sizeof buf - n, fmt, ap);
	va_end(ap);
	free(d->reason);
	d->reason = xstrdup(buf);
	d->monitored = monitored;
}

const char *
devices_never_data(uint32_t major, uint32_t minor, const char *name)
{
	if (major == 0 && minor == 0)
		return "hidden path device (0:0)";
	switch (major) {
	case 1: return "ram disk";
	case 2: return "floppy drive";
	case 7: return "loop device";
	case 11: return "optical drive";
	case 43: return "nbd device";
	}
	return strncmp(name, "zram", 4) == 0 ? "zram device" : NULL;
}

static int
has_slaves(struct decide *c, size_t k)
{
	size_t n;
	char **sl = sysblk_list(&c->g, c->node[k], "slaves", &n);

	sysblk_list_free(sl, n);
	return n > 0;
}

/* Rules 4, 5, and the start of 6 to 8, for one device. */
static enum pending
first_rules(struct decide *c, size_t k)
{
	struct dev_info *d = &c->s->d[k];
	const struct sysblk_node *nd = c->node[k] >= 0 ?
	    &c->g.n[c->node[k]] : NULL;
	const char *cls;
	uint64_t v;

	if (nd && nd->local) {
		decide(d, 0, "%s", nd->local);
		return DONE;
	}
	c->never[k] = 1;
	if ((cls = devices_never_data(d->major, d->minor, d->name)) != NULL) {
		decide(d, 0, "%s", cls);
		return DONE;
	}
	if (!nd || !nd->dir) {
		decide(d, 0, "not in sysfs");
		return DONE;
	}
	if (sysblk_attr_u64(&c->g, c->node[k], "hidden", &v) == 0 && v) {
		decide(d, 0, "hidden path device");
		return DONE;
	}
	if (nd->real && strncmp(nd->real, "/devices/virtual/block/", 23) == 0
	    && !nd->dm && !nd->md) {
		decide(d, 0, "virtual device");
		return DONE;
	}
	if (sysblk_attr_u64(&c->g, c->node[k], "size", &v) == 0 && v == 0) {
		decide(d, 0, "size 0");
		return DONE;
	}
	if (sysblk_attr_u64(&c->g, c->node[k], "removable", &v) == 0 && v) {
		decide(d, 0, "removable");
		return DONE;
	}
	c->never[k] = 0;
	if (nd->partition)
		return PARTITION;
	if (has_slaves(c, k))
		return STACKED;
	decide(d, 1, "data disk");
	return DONE;
}

/* "sdc, sdd": the names of the leaves whose monitored flag is want. */
static int
leaf_names(struct decide *c, const int *v, size_t n, int want, char *buf,
    size_t len)
{
	size_t k, used = 0;
	int count = 0;

	buf[0] = 0;
	for (k = 0; k < n; k++) {
		struct dev_info *d = devices_walk_dev(c, v[k]);

		if ((d && d->monitored) != want)
			continue;
		snprintf(buf + used, len - used, "%s%s", count ? ", " : "",
		    c->g.n[v[k]].name);
		used += strlen(buf + used);
		count++;
	}
	return count;
}

/* Rule 7 for device k. */
static void
stacked_rule(struct decide *c, size_t k)
{
	int v[DEVICES_MAX_LEAVES];
	size_t n;
	char names[200];

	n = devices_walk_leaves(c, c->node[k], v);
	if (leaf_names(c, v, n, 1, names, sizeof names))
		decide(&c->s->d[k], 0, "stacked on monitored %s", names);
	else if (leaf_names(c, v, n, 0, names, sizeof names))
		decide(&c->s->d[k], 0, "stacked on excluded %s", names);
	else
		decide(&c->s->d[k], 0, "stacked device without disks");
}

/* Rule 7, second half: an included stacked device k takes the place of
 * the disks under it. */
static void
flip_level(struct decide *c, size_t k)
{
	int v[DEVICES_MAX_LEAVES];
	size_t n, j;

	n = devices_walk_leaves(c, c->node[k], v);
	for (j = 0; j < n; j++) {
		struct dev_info *d = devices_walk_dev(c, v[j]);

		if (d && d->monitored && c->forced[d - c->s->d] != 1)
			decide(d, 0, "under included %s", c->s->d[k].name);
	}
}

/* Rule 6 for device k. */
static void
partition_rule(struct decide *c, size_t k)
{
	int w = sysblk_whole(&c->g, c->node[k]);
	struct dev_info *d = devices_walk_dev(c, w);

	if (w < 0)
		decide(&c->s->d[k], 0, "partition of an unknown disk");
	else
		decide(&c->s->d[k], 0, "partition of %s %s",
		    d && d->monitored ? "monitored" : "excluded", c->g.n[w].name);
}

/* Name, numbers, diskseq, partition facts and rules 1 to 3 for device k. */
static void
identify(struct decide *c, const struct ds_line *l, size_t k)
{
	const struct dev_opts *o = c->o;
	struct dev_info *d = &c->s->d[k];
	int i, w;

	snprintf(d->name, sizeof d->name, "%s", l->name);
	d->major = l->major;
	d->minor = l->minor;
	i = c->node[k] = sysblk_get_name(&c->g, l->name);
	if (i >= 0 && c->g.n[i].dir) {
		if (sysblk_attr_u64(&c->g, i, "diskseq", &d->diskseq) < 0)
			d->diskseq = 0;
		d->is_partition = c->g.n[i].partition;
		if (d->is_partition && (w = sysblk_whole(&c->g, i)) >= 0)
			snprintf(d->whole, sizeof d->whole, "%s", c->g.n[w].name);
	}
	if (globlist_match(o->exclude, o->nexclude, d->name)) {
		c->forced[k] = -1;
		decide(d, 0, "excluded by --exclude");
	} else if (globlist_match(o->include, o->ninclude, d->name)) {
		c->forced[k] = 1;
		decide(d, 1, "included by --include");
	} else if (o->all_devices) {
		decide(d, 1, "all devices");
	}
}

static void
decide_all(struct decide *c, const struct ds_table *t)
{
	size_t k, n = t->n;

	for (k = 0; k < n; k++)
		identify(c, &t->dev[k], k);
	for (k = 0; k < n; k++) {
		struct dev_info *d = &c->s->d[k], keep = *d;

		/* The copy owns the reason; the device gets its own. */
		d->reason = keep.reason ? xstrdup(keep.reason) : NULL;
		c->pend[k] = first_rules(c, k);
		if (c->forced[k] || c->o->all_devices) {
			/* Rules 1-3 decided; rule 5 still says what to probe. */
			free(d->reason);
			*d = keep;
			c->pend[k] = DONE;
		} else {
			free(keep.reason);
		}
	}
	for (k = 0; k < n; k++)
		if (c->pend[k] == STACKED)
			stacked_rule(c, k);
	for (k = 0; !c->o->all_devices && k < n; k++)
		if (c->forced[k] == 1 && has_slaves(c, k))
			flip_level(c, k);
	for (k = 0; k < n; k++)
		if (c->pend[k] == PARTITION)
			partition_rule(c, k);
}

int
devices_decide(const struct dev_opts *o, const struct ds_table *t,
    struct dev_set *out, char *err, size_t errlen)
{
	const char *proc = o->proc ? o->proc : "/proc";
	const char *sys = o->sys ? o->sys : "/sys";
	struct decide c = { .o = o, .s = out };
	size_t k, n = t->n;

	memset(out, 0, sizeof *out);
	if (sysblk_open(&c.g, sys, strcmp(proc, "/proc") == 0 &&
	    strcmp(sys, "/sys") == 0, err, errlen) < 0)
		return -1;
	if (!o->all_devices && topology_local(&c.g, proc, t, err, errlen) < 0) {
		sysblk_close(&c.g);
		return -1;
	}
	out->d = xcalloc(n ? n : 1, sizeof *out->d);
	out->n = n;
	c.node = xcalloc(n ? n : 1, sizeof *c.node);
	c.forced = xcalloc(n ? n : 1, sizeof *c.forced);
	c.never = xcalloc(n ? n : 1, sizeof *c.never);
	c.pend = xcalloc(n ? n : 1, sizeof *c.pend);
	decide_all(&c, t);
	devices_level_all(&c);
	for (k = 0; k < n; k++)
		devident_fill(&c.g, c.node[k] >= 0 && c.g.n[c.node[k]].dir ?
		    c.node[k] : -1, o->probe_blkid && !c.never[k], &out->d[k]);
	free(c.node);
	free(c.forced);
	free(c.never);
	free(c.pend);
	sysblk_close(&c.g);
	return 0;
}

void
devices_set_free(struct dev_set *s)
{
	size_t k;

	for (k = 0; k < s->n; k++) {
		devident_free(&s->d[k]);
		free(s->d[k].reason);
		free(s->d[k].level);
	}
	free(s->d);
	s->d = NULL;
	s->n = 0;
}

/*
 * Only what a diskstats read shows is compared: names and device numbers,
 * position by position (the sampler relies on the order). diskseq is not
 * in /proc/diskstats, and reading it from sysfs for every device at every
 * sample would cost more than the sample; a device re-created under the
 * same name and number is caught by SIGHUP, or by its counters resetting.
 */
int
devices_changed(const struct dev_set *s, const struct ds_table *t)
{
	size_t k;

	if (s->n != t->n)
		return 1;
	for (k = 0; k < t->n; k++)
		if (s->d[k].major != t->dev[k].major ||
		    s->d[k].minor != t->dev[k].minor ||
		    strcmp(s->d[k].name, t->dev[k].name) != 0)
			return 1;
	return 0;
}
