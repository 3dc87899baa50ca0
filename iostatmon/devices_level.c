/*
 * devices_level: for each stacked device (md, dm, multipath: a device
 * with slaves/), which level is sampled, and what an aggregate of the
 * sampled devices then counts:
 *
 *	md0 (raid1 over sdb, sdc): disks sampled (sdb, sdc); an aggregate
 *	counts each write once per mirror copy (2 copies), each read once
 *
 * iostatmon samples the disks under a stack so that no byte is counted
 * twice by counting both a stack and its disks; but the disks carry what
 * the stack writes to them, and a mirror writes each block to every
 * copy, a parity RAID its parity too. When --include picks the stack,
 * it is sampled instead of its disks, and an aggregate counts what was
 * sent to it. The kind of stack comes from sysfs: md/level (and
 * md/layout for raid10's copies), dm/uuid's prefix (mpath-, LVM-,
 * CRYPT-, part) and dm/name.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devices_int.h"
#include "xalloc.h"

/* The sysfs attribute of node i, or "" when absent. */
static const char *
attr(struct decide *c, int i, const char *name, char *buf, size_t len)
{
	if (sysblk_attr(&c->g, i, name, buf, len) < 0)
		buf[0] = 0;
	return buf;
}

static int
starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* What node i is: "raid1", "multipath", "LVM vg0-root", ... */
static void
what_of(struct decide *c, int i, char *buf, size_t len)
{
	char a[256], name[256];

	attr(c, i, "dm/name", name, sizeof name);
	if (c->g.n[i].md)
		snprintf(buf, len, "%s", *attr(c, i, "md/level", a, sizeof a) ?
		    a : "md");
	else if (!c->g.n[i].dm)
		snprintf(buf, len, "stacked device");
	else if (starts(attr(c, i, "dm/uuid", a, sizeof a), "mpath-"))
		snprintf(buf, len, "multipath %s", name);
	else if (starts(a, "LVM-"))
		snprintf(buf, len, "LVM %s", name);
	else if (starts(a, "CRYPT-"))
		snprintf(buf, len, "dm-crypt %s", name);
	else
		snprintf(buf, len, "device-mapper %s", name);
	len = strlen(buf);
	while (len && buf[len - 1] == ' ')	/* no dm/name */
		buf[--len] = 0;
}

/* The copies of an md raid10 from md/layout (near x far), 0: unknown. */
static unsigned
raid10_copies(struct decide *c, int i)
{
	uint64_t layout;

	if (sysblk_attr_u64(&c->g, i, "md/layout", &layout) < 0)
		return 0;
	return (unsigned)((layout & 0xff) * ((layout >> 8) & 0xff));
}

/* What an aggregate over the disks of md node i counts; ns slaves. */
static void
md_counts(struct decide *c, int i, size_t ns, char *buf, size_t len)
{
	char lv[64];
	unsigned copies;

	attr(c, i, "md/level", lv, sizeof lv);
	if (!strcmp(lv, "raid1"))
		snprintf(buf, len, "each write once per mirror copy (%zu "
		    "copies), each read once", ns);
	else if (!strcmp(lv, "raid10") && (copies = raid10_copies(c, i)))
		snprintf(buf, len, "each write once per copy (%u copies), "
		    "each read once", copies);
	else if (!strcmp(lv, "raid10"))
		snprintf(buf, len, "each write once per copy, each read once");
	else if (!strcmp(lv, "raid4") || !strcmp(lv, "raid5") ||
	    !strcmp(lv, "raid6"))
		snprintf(buf, len, "each write with its parity (%d chunk%s a "
		    "stripe) and the reads of a partial stripe's update; each "
		    "read once", strcmp(lv, "raid6") ? 1 : 2,
		    strcmp(lv, "raid6") ? "" : "s");
	else if (!strcmp(lv, "raid0") || !strcmp(lv, "linear"))
		snprintf(buf, len, "each byte once");
	else
		snprintf(buf, len, "what md level %s writes to its disks",
		    *lv ? lv : "(unknown)");
}

/* What an aggregate over the devices under node i counts. */
static void
counts_of(struct decide *c, int i, size_t ns, char *buf, size_t len)
{
	char a[256];

	if (c->g.n[i].md) {
		md_counts(c, i, ns, buf, len);
		return;
	}
	attr(c, i, "dm/uuid", a, sizeof a);
	if (!c->g.n[i].dm)
		snprintf(buf, len, "what the devices under it carry");
	else if (starts(a, "mpath-"))
		snprintf(buf, len, "each request once, on the path it took "
		    "(a device is a path, not the LUN)");
	else if (starts(a, "LVM-"))
		snprintf(buf, len, "each byte once for a linear or striped "
		    "volume, once per copy for a mirrored or RAID one");
	else if (starts(a, "CRYPT-") || starts(a, "part"))
		snprintf(buf, len, "each byte once");
	else
		snprintf(buf, len, "what the devices under it carry");
}

/* How many slaves node i has. */
static size_t
nslaves(struct decide *c, int i)
{
	size_t n;
	char **sl = sysblk_list(&c->g, i, "slaves", &n);

	sysblk_list_free(sl, n);
	return n;
}

/* What is under a stack: the first sampled device on each way down
 * (a disk, or a stack that --include picked), and the disks reached
 * without one. */
struct under {
	char yes[200], no[200];
	size_t nyes, nno;
	int stacks;		/* a sampled device is itself a stack */
};

static void
add_name(char *buf, size_t len, size_t *count, const char *name)
{
	size_t used = strlen(buf);

	if (used + 1 < len)
		snprintf(buf + used, len - used, "%s%s", *count ? ", " : "",
		    name);
	(*count)++;
}

/* Node i on the way down (partitions stand for their disks). */
static void
down(struct decide *c, int i, int depth, struct under *u)
{
	struct dev_info *d;
	size_t n;
	char **sl;

	if (i < 0 || !c->g.n[i].dir || depth > 16 || !sysblk_visit(&c->g, i))
		return;
	if ((d = devices_walk_dev(c, i)) && d->monitored) {
		add_name(u->yes, sizeof u->yes, &u->nyes, c->g.n[i].name);
		u->stacks |= nslaves(c, i) > 0;
		return;
	}
	if (c->g.n[i].partition) {
		down(c, sysblk_whole(&c->g, i), depth + 1, u);
		return;
	}
	sl = sysblk_list(&c->g, i, "slaves", &n);
	for (size_t k = 0; k < n; k++)
		down(c, sysblk_get(&c->g, sl[k]), depth + 1, u);
	sysblk_list_free(sl, n);
	if (n == 0)
		add_name(u->no, sizeof u->no, &u->nno, c->g.n[i].name);
}

/* The stacks among the direct slaves of node i: "md1", or "". */
static void
stacks_below(struct decide *c, int i, char *buf, size_t len)
{
	size_t n, count = 0;
	char **sl = sysblk_list(&c->g, i, "slaves", &n);

	buf[0] = 0;
	for (size_t k = 0; k < n; k++) {
		int j = sysblk_get(&c->g, sl[k]);

		if (j >= 0 && c->g.n[j].dir && nslaves(c, j) > 0)
			add_name(buf, len, &count, c->g.n[j].name);
	}
	sysblk_list_free(sl, n);
}

/* Which level of stack k is sampled, and what that counts. */
static void
sampled(struct decide *c, size_t k, char *buf, size_t len)
{
	int i = c->node[k];
	const char *unit = "disks";
	char counts[256], a[256], below[200];
	struct under u = { .nyes = 0 };
	size_t ns;
	char **sl;

	if (c->g.n[i].dm && starts(attr(c, i, "dm/uuid", a, sizeof a),
	    "mpath-"))
		unit = "paths";
	counts_of(c, i, nslaves(c, i), counts, sizeof counts);
	stacks_below(c, i, below, sizeof below);
	if (*below) {
		size_t used = strlen(counts);

		snprintf(counts + used, sizeof counts - used, ", and what %s "
		    "below it writes, as said of it", below);
	}
	if (c->s->d[k].monitored) {
		snprintf(buf, len, "sampled itself, not the devices under "
		    "it; an aggregate counts what was sent to it, once");
		return;
	}
	sysblk_new_walk(&c->g);
	sysblk_visit(&c->g, i);
	sl = sysblk_list(&c->g, i, "slaves", &ns);
	for (size_t j = 0; j < ns; j++)
		down(c, sysblk_get(&c->g, sl[j]), 1, &u);
	sysblk_list_free(sl, ns);
	if (u.stacks)
		unit = "devices below it";
	if (u.nyes && !u.nno)
		snprintf(buf, len, "%s sampled (%s); an aggregate counts %s",
		    unit, u.yes, counts);
	else if (u.nyes)
		snprintf(buf, len, "%s sampled in part (%s; not %s); an "
		    "aggregate counts %s", unit, u.yes, u.no, counts);
	else if (c->g.n[i].local)
		snprintf(buf, len, "not sampled, nor are its %s: local (%s)",
		    unit, c->g.n[i].local);
	else
		snprintf(buf, len, "not sampled, nor are its %s", unit);
}

/* "sda2, sdb2": the direct slaves of node i. */
static void
over(struct decide *c, int i, char *buf, size_t len)
{
	size_t n, used = 0;
	char **sl = sysblk_list(&c->g, i, "slaves", &n);

	buf[0] = 0;
	for (size_t k = 0; k < n && used + 1 < len; k++) {
		snprintf(buf + used, len - used, "%s%s", k ? ", " : "", sl[k]);
		used += strlen(buf + used);
	}
	for (char *p = buf; *p; p++)	/* kernel names: '!' is '/' */
		if (*p == '!')
			*p = '/';
	sysblk_list_free(sl, n);
}

void
devices_level_all(struct decide *c)
{
	for (size_t k = 0; k < c->s->n; k++) {
		struct dev_info *d = &c->s->d[k];
		int i = c->node[k];
		char what[300], under[200], how[1024], line[1600];

		if (i < 0 || !c->g.n[i].dir || nslaves(c, i) == 0)
			continue;
		what_of(c, i, what, sizeof what);
		over(c, i, under, sizeof under);
		sampled(c, k, how, sizeof how);
		snprintf(line, sizeof line, "%s (%s over %s): %s", d->name,
		    what, under, how);
		free(d->level);
		d->level = xstrdup(line);
	}
}
