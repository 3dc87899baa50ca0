/*
 * space_devices: file-system names grouped by the device that holds them
 * (space_devices_int.h). A name belongs to the device of its latest
 * point: a file system moved to another device belongs to the new one.
 * The points of a shared device are the points of all its names, one
 * per day (space_points.c's rescan rule: two scans of one device less
 * than a day apart measure its capacity once), under the group's label.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "space.h"
#include "space_devices_int.h"
#include "xalloc.h"

/* The latest complete snapshot of fs started in [from, to), or NULL. */
static const struct snap *
latest_of(const struct snap *s, size_t n, const char *fs, int64_t from,
    int64_t to)
{
	size_t *keep = xcalloc(n + 1, sizeof *keep), k, nr;
	const struct snap *l;

	k = space_points_keep(s, n, fs, from, to, keep, &nr);
	l = k ? &s[keep[k - 1]] : NULL;
	free(keep);
	return l;
}

/* The group of device dev, made when new. */
static struct dev_group *
group_of(struct devices *d, const char *dev, size_t nnames)
{
	for (size_t i = 0; dev && i < d->n; i++)
		if (d->g[i].device && !strcmp(d->g[i].device, dev))
			return &d->g[i];
	d->g[d->n].device = dev;
	d->g[d->n].names = xcalloc(nnames, sizeof *d->g[d->n].names);
	return &d->g[d->n++];
}

/* Each shared group's label, and its names' snapshots renamed to it. */
static void
relabel(struct devices *d, const struct snap *s, size_t n)
{
	d->s = xcalloc(n + 1, sizeof *d->s);
	d->ns = n;
	memcpy(d->s, s, n * sizeof *s);
	for (size_t k = 0; k < d->n; k++) {
		struct dev_group *g = &d->g[k];
		size_t len = 1;

		for (size_t i = 0; i < g->n; i++)
			len += strlen(g->names[i]) + 3;
		g->label = xcalloc(1, len);
		for (size_t i = 0; i < g->n; i++) {
			if (i)
				strcat(g->label, " + ");
			strcat(g->label, g->names[i]);
		}
		for (size_t j = 0; g->n > 1 && j < n; j++)
			for (size_t i = 0; i < g->n; i++)
				if (!strcmp(s[j].fs, g->names[i]))
					d->s[j].fs = g->label;
	}
}

void
space_devices_find(const struct snap *s, size_t n, const char **names,
    size_t nnames, int64_t from, int64_t to, struct devices *d)
{
	memset(d, 0, sizeof *d);
	d->g = xcalloc(nnames + 1, sizeof *d->g);
	d->of = xcalloc(nnames + 1, sizeof *d->of);
	for (size_t i = 0; i < nnames; i++) {
		const struct snap *l = latest_of(s, n, names[i], from, to);
		struct dev_group *g = group_of(d, l ? l->fs_device : NULL,
		    nnames);

		g->names[g->n++] = names[i];
		if (l && (!g->latest || l->started_at > g->latest->started_at ||
		    (l->started_at == g->latest->started_at &&
		    l->id > g->latest->id)))
			g->latest = l;
		d->of[i] = (size_t)(g - d->g);
	}
	relabel(d, s, n);
}

const struct dev_group *
space_devices_shared(const struct devices *d, size_t i)
{
	const struct dev_group *g = &d->g[d->of[i]];

	return g->n > 1 ? g : NULL;
}

const char *
space_devices_names(const struct dev_group *g, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = 0;
	for (size_t i = 0; i < g->n && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s", i == 0 ? "" :
		    i + 1 == g->n ? " and " : ", ", g->names[i]);
	return buf;
}

void
space_devices_free(struct devices *d)
{
	for (size_t i = 0; i < d->n; i++) {
		free(d->g[i].names);
		free(d->g[i].label);
	}
	free(d->g);
	free(d->of);
	free(d->s);
	memset(d, 0, sizeof *d);
}
