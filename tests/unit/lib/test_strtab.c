/* test_strtab: lib/strtab.c, the set of distinct strings known by index:
 * indexes in the order of first addition, lengths that are not C
 * strings (an empty name, a NUL inside, a prefix of another), growth past
 * many rehashes, and strtab_take's array, against indexes counted here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strtab.h"
#include "tap.h"

#define MANY 20000

static void
small(void)
{
	struct strtab t = { 0 };
	int added = -1;
	size_t n;
	char **v;

	is_u64(strtab_find(&t, "a", 1), STRTAB_NONE, "empty table: none");
	is_u64(strtab_add(&t, "alpha", 5, &added), 0, "alpha: index 0");
	is_i64(added, 1, "alpha: added");
	is_u64(strtab_add(&t, "alpha", 5, &added), 0, "alpha again: 0");
	is_i64(added, 0, "alpha again: not added");
	is_u64(strtab_add(&t, "alphabet", 5, NULL), 0,
	    "the first 5 bytes of alphabet: alpha");
	is_u64(strtab_add(&t, "alp", 3, &added), 1, "a prefix: its own, 1");
	is_u64(strtab_add(&t, "", 0, &added), 2, "the empty name: 2");
	is_i64(added, 1, "the empty name: added");
	is_u64(strtab_find(&t, "", 0), 2, "the empty name found");
	is_u64(strtab_add(&t, "a\0b", 3, &added), 3, "a NUL inside: 3");
	is_u64(strtab_find(&t, "a\0c", 3), STRTAB_NONE,
	    "a NUL inside: the bytes after it count");
	is_u64(strtab_find(&t, "a", 1), STRTAB_NONE,
	    "a NUL inside: not the C string before it");
	is_u64(strtab_find(&t, "ALPHA", 5), STRTAB_NONE, "case counts");
	v = strtab_take(&t, &n);
	is_u64(n, 4, "take: 4 names");
	is_str(v[0], "alpha", "take: 0 alpha");
	is_str(v[1], "alp", "take: 1 alp");
	is_str(v[2], "", "take: 2 the empty name");
	ok(memcmp(v[3], "a\0b", 4) == 0, "take: 3 a NUL b, NUL-ended");
	is_u64(strtab_find(&t, "alpha", 5), STRTAB_NONE,
	    "take: the table left empty");
	is_u64(strtab_add(&t, "z", 1, NULL), 0, "after take: from 0 again");
	strtab_free(&t);
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static void
many(void)
{
	struct strtab t = { 0 };
	char name[32];
	size_t bad = 0, n;
	char **v;

	for (size_t i = 0; i < MANY; i++) {
		int len = snprintf(name, sizeof name, "p%zu", i);
		if (strtab_add(&t, name, (size_t)len, NULL) != i)
			bad++;
	}
	is_u64(bad, 0, "%d names: index i for the i-th", MANY);
	for (size_t i = 0; i < MANY; i++) {
		int len = snprintf(name, sizeof name, "p%zu", i);
		if (strtab_find(&t, name, (size_t)len) != i ||
		    strtab_add(&t, name, (size_t)len, NULL) != i)
			bad++;
	}
	is_u64(bad, 0, "%d names: each found at its index, not added twice",
	    MANY);
	is_u64(strtab_find(&t, "p20000", 6), STRTAB_NONE,
	    "a name never added: none");
	ok(t.nslot >= 2 * t.n, "at most half full: %zu slots for %zu",
	    t.nslot, t.n);
	v = strtab_take(&t, &n);
	is_u64(n, MANY, "take: every name");
	for (size_t i = 0; i < n; i++) {
		snprintf(name, sizeof name, "p%zu", i);
		if (strcmp(v[i], name) != 0)
			bad++;
		free(v[i]);
	}
	free(v);
	is_u64(bad, 0, "take: in index order");
	strtab_free(&t);
}

int
main(void)
{
	small();
	many();
	return tap_end();
}
