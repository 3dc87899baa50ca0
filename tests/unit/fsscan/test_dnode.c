/*
 * test_dnode: dnode_pathcmp orders held directories (and files in them)
 * as strcmp orders their built paths, and a top-N list of held entries
 * keeps what one of built paths keeps.
 *
 * The oracle is strcmp on dnode_path's strings; the trees are random, of
 * names drawn from a small alphabet around '/' (".", "-", "0", "a" and
 * the byte 0xff) so that names are often prefixes of each other and
 * differ by a byte just below or above the separator, plus a chain
 * deeper than any jump.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "walk/walk_int.h"
#include "xalloc.h"

#define NODES 400
#define CHAIN 3000

static const char alphabet[] = { '.', '-', '0', 'a', (char)0xff };

static unsigned seed = 12345;

static unsigned
rnd(unsigned n)
{
	seed = seed * 1103515245u + 12345u;
	return (seed >> 8) % n;
}

/* A random name of 1 to 3 bytes. */
static size_t
rnd_name(char *buf)
{
	size_t len = 1 + rnd(3);

	for (size_t i = 0; i < len; i++)
		buf[i] = alphabet[rnd(sizeof alphabet)];
	return len;
}

static int
sign(int c)
{
	return (c > 0) - (c < 0);
}

struct item {
	struct dnode *d;
	char leaf[4];
	size_t leaflen;			/* 0: the directory itself */
};

static const char *
leaf_of(const struct item *it)
{
	return it->leaflen ? it->leaf : NULL;
}

static char *
path_of(const struct item *it)
{
	return dnode_path(it->d, leaf_of(it), it->leaflen);
}

/* Every pair of items: dnode_pathcmp has strcmp's sign. */
static void
check_pairs(const char *label, struct item *v, size_t n)
{
	size_t bad = 0;
	char **p = xcalloc(n, sizeof *p);

	for (size_t i = 0; i < n; i++)
		p[i] = path_of(&v[i]);
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < n; k++) {
			int want = sign(strcmp(p[i], p[k]));
			int got = sign(dnode_pathcmp(v[i].d, leaf_of(&v[i]),
			    v[i].leaflen, v[k].d, leaf_of(&v[k]),
			    v[k].leaflen));
			if (got != want && bad++ == 0)
				printf("# %s: %zu vs %zu: got %d want %d\n",
				    label, i, k, got, want);
		}
	ok(bad == 0, "%s: %zu pairs ordered as strcmp orders their paths",
	    label, n * n);
	for (size_t i = 0; i < n; i++)
		free(p[i]);
	free(p);
}

static int
by_key_path(const void *a, const void *b)
{
	const struct top_ent *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? 1 : -1;
	return strcmp(x->path, y->path);
}

/* Offer every item with a key of few values (many ties) as held entries
 * and as built paths: both lists end the same, and equal the first cap
 * of the whole set sorted by key, then path. */
static void
check_topn(struct item *v, size_t n, int cap)
{
	struct topn held = { .cap = cap }, built = { .cap = cap };
	struct top_ent *all = xcalloc(n, sizeof *all);
	int same;

	for (size_t i = 0; i < n; i++) {
		uint64_t key = (i * 7) % 3;
		topn_offer_at(&held, key, v[i].d, leaf_of(&v[i]), v[i].leaflen);
		topn_offer(&built, key, path_of(&v[i]));
		all[i].key = key;
		all[i].path = path_of(&v[i]);
	}
	topn_resolve(&held);
	topn_sort(&held);
	topn_sort(&built);
	qsort(all, n, sizeof *all, by_key_path);
	same = held.len == cap && built.len == cap;
	for (int i = 0; same && i < cap; i++)
		same = held.e[i].key == all[i].key && built.e[i].key ==
		    all[i].key && !strcmp(held.e[i].path, all[i].path) &&
		    !strcmp(built.e[i].path, all[i].path);
	ok(same, "top %d of %zu held entries: the first by key, then path",
	    cap, n);
	for (int i = 0; i < held.len; i++)
		free(held.e[i].path);
	for (int i = 0; i < built.len; i++)
		free(built.e[i].path);
	for (size_t i = 0; i < n; i++)
		free(all[i].path);
	free(held.e);
	free(built.e);
	free(all);
}

static void
release_all(struct dnode **made, size_t n)
{
	for (size_t i = n; i-- > 0;)
		dnode_drop(made[i]);
}

int
main(void)
{
	struct dnode **made = xcalloc(NODES + CHAIN + 1, sizeof *made);
	struct item *v = xcalloc(2 * NODES + CHAIN, sizeof *v);
	size_t nm = 0, nv = 0;
	char name[4];

	/* ROOT as given, ending in '/', then a random tree: each node's
	 * parent is an earlier node, shallow ones more often. */
	made[nm++] = dnode_new(NULL, "/r/", 3);
	for (int i = 0; i < NODES; i++) {
		struct dnode *p = made[rnd(4) ? rnd(nm) : rnd(nm < 8 ? nm : 8)];
		size_t len = rnd_name(name);
		made[nm++] = dnode_new(p, name, len);
	}
	for (size_t i = 0; i < nm; i++) {
		v[nv++] = (struct item){ .d = made[i] };
		if (rnd(2)) {
			v[nv] = (struct item){ .d = made[i] };
			v[nv].leaflen = rnd_name(v[nv].leaf);
			nv++;
		}
	}
	check_pairs("random tree", v, nv);
	check_topn(v, nv, 25);

	/* A chain under one of them, with a sibling branch at its top: the
	 * deep ends compare through many jumps. */
	nv = 0;
	for (int i = 0; i < CHAIN; i++) {
		size_t len = rnd_name(name);
		made[nm] = dnode_new(made[nm - 1], name, len);
		nm++;
		if (i % 300 == 0 || i > CHAIN - 5)
			v[nv++] = (struct item){ .d = made[nm - 1] };
	}
	v[nv++] = (struct item){ .d = made[nm - CHAIN] };
	v[nv] = (struct item){ .d = made[nm - 1], .leaflen = 1 };
	v[nv++].leaf[0] = 'z';
	v[nv++] = (struct item){ .d = made[1] };
	v[nv++] = (struct item){ .d = made[0] };
	check_pairs("chain of 3000", v, nv);
	check_topn(v, nv, 4);

	release_all(made, nm);
	free(made);
	free(v);
	return tap_end();
}
