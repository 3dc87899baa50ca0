/*
 * space_groups: two snapshots' groups side by side (space_groups_int.h).
 */
#include <string.h>

#include "space_groups_int.h"

void
space_groups_merge(const struct gtot *ga, size_t na, const struct gtot *gb,
    size_t nb, space_groups_fn fn, void *arg)
{
	size_t i = 0, j = 0;

	while (i < na || j < nb) {
		int c = i == na ? 1 : j == nb ? -1 :
		    strcmp(ga[i].key, gb[j].key);

		fn(c <= 0 ? &ga[i] : NULL, c >= 0 ? &gb[j] : NULL, arg);
		i += c <= 0;
		j += c >= 0;
	}
}
