/*
 * sampler: successive absolute reads in, H/T/K/S frames out. See sampler.h.
 *
 * The table lists the monitored devices of the last read. Each read gives
 * one S frame against that table: a delta (or a reset, see delta.c) for a
 * device found with the same identity, "absent" otherwise (S1). When the
 * set of devices changed, a T with the new table and a K with the read's
 * absolutes follow the S, so the intervals of unchanged devices are never
 * lost; a device that is new or came back gets a new dev_id, a new epoch
 * (S3).
 *
 * A member starts with H, T and a K of the previous read (when there is
 * one), so rotation and reopening lose no interval either: the interval
 * that ends at 00:00:00 is the first S of the new day's file (S2).
 */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "delta.h"
#include "sampler.h"
#include "xalloc.h"

#define HOUR_NS (UINT64_C(3600) * 1000000000)

struct slot {			/* per device of the table */
	uint64_t prev[DS_FIELDS];	/* absolutes at the last read */
	size_t pos;			/* its index in that read: lookup hint */
	size_t nident;			/* leading attrs that came from dev_info */
};

struct sampler {
	struct iolog_writer *w;
	struct iolog_header h;
	int need_member;	/* next feed starts a member: H, T, K first */
	int have_prev;		/* tab, slot and prev_clock hold the last read */
	int new_boot;		/* the next first keyframe carries NEW_BOOT */
	int compare_attrs;	/* dev_set re-decided: identities may differ */
	struct iolog_clock prev_clock;
	uint64_t seq, next_id, k_hour;
	struct iolog_dev *tab;	/* the table, in frame order */
	struct slot *slot;
	size_t n;
	struct iolog_val *val;	/* frame scratch */
	size_t valcap;
	ssize_t *old_of_line;	/* rebuild scratch: table index per line */
	size_t oldcap;
	int err;		/* errno of the first failed write of a feed */
};

struct sampler *
sampler_new(struct iolog_writer *w, const struct iolog_header *h)
{
	struct sampler *s = xcalloc(1, sizeof *s);

	s->w = w;
	s->h = *h;
	if (s->h.long_bits != 32)
		s->h.long_bits = 64;
	s->need_member = 1;
	return s;
}

static void
free_table(struct iolog_dev *tab, size_t n)
{
	for (size_t j = 0; j < n; j++) {
		for (size_t k = 0; k < tab[j].nattr; k++) {
			free(tab[j].attr[k].key);
			free(tab[j].attr[k].value);
		}
		free(tab[j].attr);
	}
	free(tab);
}

void
sampler_free(struct sampler *s)
{
	if (s == NULL)
		return;
	free_table(s->tab, s->n);
	free(s->slot);
	free(s->val);
	free(s->old_of_line);
	free(s);
}

void
sampler_set_writer(struct sampler *s, struct iolog_writer *w)
{
	s->w = w;
	s->need_member = 1;
}

void
sampler_set_header(struct sampler *s, const struct iolog_header *h)
{
	int reboot = strcmp(s->h.boot_id, h->boot_id) != 0;

	s->h = *h;
	if (s->h.long_bits != 32)
		s->h.long_bits = 64;
	s->need_member = 1;
	if (reboot && s->have_prev) {
		s->have_prev = 0;	/* no interval across a reboot (S1) */
		s->new_boot = 1;
	}
}

void
sampler_devices_changed(struct sampler *s)
{
	s->compare_attrs = 1;
}

/* ---- matching reads to the table ---- */

static int
same_node(const struct dev_info *d, const struct ds_line *l)
{
	return d->major == l->major && d->minor == l->minor &&
	    strcmp(d->name, l->name) == 0;
}

/* The decision for line i of t, or NULL when set does not know it. */
static const struct dev_info *
info_of(const struct dev_set *set, const struct ds_table *t, size_t i)
{
	if (set == NULL)
		return NULL;
	if (i < set->n && same_node(&set->d[i], &t->dev[i]))
		return &set->d[i];
	for (size_t k = 0; k < set->n; k++)
		if (same_node(&set->d[k], &t->dev[i]))
			return &set->d[k];
	return NULL;
}

static int
monitored(const struct dev_set *set, const struct dev_info *info)
{
	return set == NULL || (info != NULL && info->monitored);
}

/* The line of table device j in t, or -1. */
static ssize_t
find_line(const struct sampler *s, size_t j, const struct ds_table *t)
{
	size_t pos = s->slot[j].pos;

	if (pos < t->n && strcmp(t->dev[pos].name, s->tab[j].name) == 0)
		return (ssize_t)pos;
	for (size_t i = 0; i < t->n; i++)
		if (strcmp(t->dev[i].name, s->tab[j].name) == 0)
			return (ssize_t)i;
	return -1;
}

static int
same_attrs(const struct iolog_dev *d, size_t nident,
    const struct dev_info *info)
{
	if (info == NULL)
		return nident == 0;
	if (nident != info->nattr)
		return 0;
	for (size_t k = 0; k < nident; k++)
		if (strcmp(d->attr[k].key, info->attr[k].key) != 0 ||
		    strcmp(d->attr[k].value, info->attr[k].value) != 0)
			return 0;
	return 1;
}

/* Is line l (decided as info) still table device j, the same epoch? */
static int
same_identity(const struct sampler *s, size_t j, const struct ds_line *l,
    const struct dev_info *info)
{
	const struct iolog_dev *d = &s->tab[j];

	if (d->major != l->major || d->minor != l->minor ||
	    d->fields != l->mask || d->diskseq != (info ? info->diskseq : 0))
		return 0;
	return !s->compare_attrs || same_attrs(d, s->slot[j].nident, info);
}

/* ---- building the table ---- */

static char *
attr_lookup(const struct dev_info *info, const char *key)
{
	for (size_t k = 0; k < info->nattr; k++)
		if (strcmp(info->attr[k].key, key) == 0)
			return info->attr[k].value;
	return NULL;
}

/* Table entry for line l: identity, and the decision's attributes followed
 * by its reason, so each file says why each device is there. */
static void
make_dev(struct iolog_dev *d, struct slot *sl, uint64_t id,
    const struct ds_line *l, const struct dev_info *info)
{
	memset(d, 0, sizeof *d);
	d->id = id;
	memcpy(d->name, l->name, sizeof d->name);
	d->major = l->major;
	d->minor = l->minor;
	d->fields = l->mask;
	sl->nident = 0;
	if (info == NULL)
		return;
	d->diskseq = info->diskseq;
	d->attr = xcalloc(info->nattr + 1, sizeof *d->attr);
	for (size_t k = 0; k < info->nattr; k++) {
		d->attr[k].key = xstrdup(info->attr[k].key);
		d->attr[k].value = xstrdup(info->attr[k].value);
	}
	d->nattr = sl->nident = info->nattr;
	if (info->reason && info->reason[0] && attr_lookup(info, "reason") == NULL) {
		d->attr[d->nattr].key = xstrdup("reason");
		d->attr[d->nattr].value = xstrdup(info->reason);
		d->nattr++;
	}
}

/* Replace the table with the monitored devices of t, in t's order, with
 * t's values as the previous read. A device that kept its identity (see
 * old_of_line, filled by the caller or all -1) keeps its dev_id. */
static void
rebuild_table(struct sampler *s, const struct ds_table *t,
    const struct dev_set *set, const ssize_t *old_of_line)
{
	struct iolog_dev *tab = xcalloc(t->n ? t->n : 1, sizeof *tab);
	struct slot *slot = xcalloc(t->n ? t->n : 1, sizeof *slot);
	size_t n = 0;

	for (size_t i = 0; i < t->n; i++) {
		const struct dev_info *info = info_of(set, t, i);
		ssize_t old = old_of_line ? old_of_line[i] : -1;

		/* S3: an id is kept from the table, or new: next_id only
		 * grows */
		assert(old < 0 || ((size_t)old < s->n &&
		    s->tab[old].id < s->next_id));
		if (!monitored(set, info))
			continue;
		make_dev(&tab[n], &slot[n], old >= 0 ? s->tab[old].id :
		    s->next_id++, &t->dev[i], info);
		memcpy(slot[n].prev, t->dev[i].v, sizeof slot[n].prev);
		slot[n].pos = i;
		n++;
	}
	free_table(s->tab, s->n);
	free(s->slot);
	s->tab = tab;
	s->slot = slot;
	s->n = n;
	if (s->valcap < n) {
		s->val = xreallocarray(s->val, n, sizeof *s->val);
		s->valcap = n;
	}
}

/* ---- frames ---- */

/* Note a write's result; 0 when the writer abandoned its member, so the
 * rest of this feed must wait for the next one to start a new member. */
static int
wrote(struct sampler *s, int rc)
{
	if (rc < 0 && s->err == 0)
		s->err = errno ? errno : EIO;
	if (iolog_writer_needs_header(s->w)) {
		s->need_member = 1;
		return 0;
	}
	return 1;
}

/* A K of the table's previous values, stamped with clock c. */
static int
write_keyframe(struct sampler *s, const struct iolog_clock *c)
{
	/* S2: in a member this sampler started, after its T */
	assert(!s->need_member && !iolog_writer_needs_header(s->w));
	for (size_t j = 0; j < s->n; j++) {
		delta_absolute(s->slot[j].prev, s->tab[j].fields, &s->val[j]);
		s->val[j].state = IOLOG_OK;
	}
	s->k_hour = c->realtime_ns / HOUR_NS;
	return wrote(s, iolog_write_keyframe(s->w, c, s->val, s->n));
}

/* H, T, and a K of the previous read (flags: those of that K). */
static int
start_member(struct sampler *s, uint32_t flags)
{
	s->h.long_bits = s->h.long_bits == 32 ? 32 : 64;
	s->need_member = 0;
	s->seq = 0;
	s->prev_clock.seq = s->seq++;
	s->prev_clock.flags = flags;
	if (!wrote(s, iolog_write_header(s->w, &s->h)) ||
	    !wrote(s, iolog_write_table(s->w, s->tab, s->n)))
		return 0;
	return write_keyframe(s, &s->prev_clock);
}

static int
finish(struct sampler *s)
{
	s->compare_attrs = 0;
	if (s->err) {
		errno = s->err;
		return -1;
	}
	return 0;
}

/* The first read of an epoch for every device: H, T, K of this read. */
static int
feed_first(struct sampler *s, const struct ds_table *t,
    const struct dev_set *set, const struct iolog_clock *c)
{
	rebuild_table(s, t, set, NULL);
	s->prev_clock = *c;
	s->have_prev = 1;
	start_member(s, c->flags | (s->new_boot ? IOLOG_NEW_BOOT : 0));
	s->new_boot = 0;
	return finish(s);
}

/* S entries of the table against t: 1 when the table must change. */
static int
sample_entries(struct sampler *s, const struct ds_table *t,
    const struct dev_set *set, uint64_t dt_ns)
{
	size_t matched = 0, nmon = 0;
	int changed = 0;

	for (size_t i = 0; i < t->n; i++)
		s->old_of_line[i] = -1;
	for (size_t j = 0; j < s->n; j++) {
		ssize_t i = find_line(s, j, t);
		const struct dev_info *info = i >= 0 ? info_of(set, t, i) : NULL;
		struct iolog_val *v = &s->val[j];

		if (i < 0 || !same_identity(s, j, &t->dev[i], info)) {
			v->state = IOLOG_ABSENT;
			v->mask = 0;
			changed = 1;
			continue;
		}
		/* S1: a delta against the previous read of this boot only,
		 * of the device as it was there */
		assert(s->have_prev && s->tab[j].major == t->dev[i].major &&
		    s->tab[j].minor == t->dev[i].minor);
		s->slot[j].pos = i;
		delta_compute(s->slot[j].prev, t->dev[i].v, s->tab[j].fields,
		    s->h.long_bits, dt_ns, v);
		memcpy(s->slot[j].prev, t->dev[i].v, sizeof s->slot[j].prev);
		if (monitored(set, info)) {
			s->old_of_line[i] = (ssize_t)j;
			matched++;
		} else {
			changed = 1;
		}
	}
	for (size_t i = 0; i < t->n && !changed; i++)
		nmon += monitored(set, info_of(set, t, i));
	return changed || nmon != matched;
}

size_t
sampler_monitored(const struct ds_table *t, const struct dev_set *set)
{
	size_t n = 0;

	for (size_t i = 0; i < t->n; i++)
		n += monitored(set, info_of(set, t, i)) != 0;
	return n;
}

int
sampler_feed(struct sampler *s, const struct ds_table *t,
    const struct dev_set *set, const struct iolog_clock *c)
{
	struct iolog_clock cur = *c;
	uint64_t dt_ns;
	int ok, changed;

	/* A table holds at most IOLOG_NDEV_MAX devices: refused before
	 * any frame, not a header with no table after it. */
	if (sampler_monitored(t, set) > IOLOG_NDEV_MAX) {
		errno = E2BIG;
		return -1;
	}
	s->err = 0;
	if (s->oldcap < t->n) {
		s->old_of_line = xreallocarray(s->old_of_line, t->n, sizeof *s->old_of_line);
		s->oldcap = t->n;
	}
	if (iolog_writer_needs_header(s->w))
		s->need_member = 1;
	if (!s->have_prev) {
		cur.seq = 0;
		return feed_first(s, t, set, &cur);
	}
	ok = s->need_member ? start_member(s, 0) : 1;
	cur.seq = s->seq++;
	dt_ns = cur.monotonic_ns > s->prev_clock.monotonic_ns ?
	    cur.monotonic_ns - s->prev_clock.monotonic_ns : 0;
	changed = sample_entries(s, t, set, dt_ns);
	/* S2: an S goes into a member this sampler started with H, T and a
	 * K of the read its intervals start at */
	assert(!ok || (!s->need_member && !iolog_writer_needs_header(s->w)));
	if (ok)
		ok = wrote(s, iolog_write_sample(s->w, &cur, s->val, s->n));
	if (changed)
		rebuild_table(s, t, set, s->old_of_line);
	if (ok && changed) {
		if (wrote(s, iolog_write_table(s->w, s->tab, s->n)))
			write_keyframe(s, &cur);
	} else if (ok && cur.realtime_ns / HOUR_NS != s->k_hour) {
		write_keyframe(s, &cur);
	}
	s->prev_clock = cur;
	return finish(s);
}
