/*
 * devices_walk: the block-device graph under a stacked device, down its
 * slaves/ to the disks it is made of (devices_int.h).
 */
#include "devices_int.h"

struct dev_info *
devices_walk_dev(struct decide *c, int i)
{
	size_t k;

	for (k = 0; i >= 0 && k < c->s->n; k++)
		if (c->node[k] == i)
			return &c->s->d[k];
	return NULL;
}

static void
leaves(struct decide *c, int i, int depth, int *v, size_t *n)
{
	char **sl;
	size_t ns, k;

	if (i < 0 || !sysblk_visit(&c->g, i) || depth > 16)
		return;
	sl = sysblk_list(&c->g, i, "slaves", &ns);
	for (k = 0; k < ns; k++)
		leaves(c, sysblk_get(&c->g, sl[k]), depth + 1, v, n);
	sysblk_list_free(sl, ns);
	if (ns == 0 && c->g.n[i].partition)
		leaves(c, sysblk_whole(&c->g, i), depth + 1, v, n);
	else if (ns == 0 && c->g.n[i].dir && *n < DEVICES_MAX_LEAVES)
		v[(*n)++] = i;
}

size_t
devices_walk_leaves(struct decide *c, int i, int *v)
{
	size_t n = 0;

	sysblk_new_walk(&c->g);
	leaves(c, i, 0, v, &n);
	return n;
}
