/*
 * ingest_idset: a sorted set of distinct ids (hours, hosts, devices) that
 * the per-source transaction remembers.
 */
#include <string.h>

#include "ingest_store_int.h"
#include "xalloc.h"

/* Where id is or would go in the set. */
static size_t
idset_pos(const struct idset *s, int64_t id)
{
	size_t lo = 0, hi = s->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (s->v[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int
ingest_idset_has(const struct idset *s, int64_t id)
{
	size_t i = idset_pos(s, id);

	return i < s->n && s->v[i] == id;
}

void
ingest_idset_add(struct idset *s, int64_t id)
{
	size_t lo = idset_pos(s, id);

	if (lo < s->n && s->v[lo] == id)
		return;
	s->v = xgrow(s->v, s->n, &s->cap, sizeof *s->v, 64);
	memmove(&s->v[lo + 1], &s->v[lo], (s->n - lo) * sizeof *s->v);
	s->v[lo] = id;
	s->n++;
}
