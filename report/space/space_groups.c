/*
 * space_groups: two snapshots' groups side by side (space_groups_int.h).
 */
#include <assert.h>
#include <string.h>

#include "space_groups_int.h"

#ifndef NDEBUG
/* Are the n groups of g in ascending key order (query_census_groups)? */
static int
keys_sorted(const struct gtot *g, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (strcmp(g[i - 1].key, g[i].key) > 0)
			return 0;
	return 1;
}
#endif

void
space_groups_merge(const struct gtot *ga, size_t na, const struct gtot *gb,
    size_t nb, space_groups_fn fn, void *arg)
{
	size_t i = 0, j = 0;

	assert(fn != NULL);
	assert((ga != NULL || na == 0) && (gb != NULL || nb == 0));
	/* the merge's contract; checked in time linear in the walk */
	assert(keys_sorted(ga, na) && keys_sorted(gb, nb));
	while (i < na || j < nb) {
		int c = i == na ? 1 : j == nb ? -1 :
		    strcmp(ga[i].key, gb[j].key);

		fn(c <= 0 ? &ga[i] : NULL, c >= 0 ? &gb[j] : NULL, arg);
		i += c <= 0;
		j += c >= 0;
	}
}
