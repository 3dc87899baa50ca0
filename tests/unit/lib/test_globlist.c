/* test_globlist: lib/globlist.c, the first of a list of fnmatch(3) globs
 * that matches a name, against matches worked out here from the rules of
 * fnmatch with flags 0 ('*' crosses '/', a leading '.' is plain). */
#include <stddef.h>

#include "globlist.h"
#include "tap.h"

int
main(void)
{
	static const char *const g[] = { "sd[a-c]", "nvme*n1", "dm-?", "*.tmp",
	    "\\*lit" };
	static const struct {
		const char *name;
		int which;		/* index in g, -1: none */
	} c[] = {
		{ "sda", 0 }, { "sdc", 0 }, { "sdd", -1 }, { "sda1", -1 },
		{ "nvme0n1", 1 }, { "nvmen1", 1 }, { "nvme0n1p1", -1 },
		{ "dm-0", 2 }, { "dm-10", -1 }, { "dm-", -1 },
		{ "a/b.tmp", 3 },	/* '*' crosses '/' without FNM_PATHNAME */
		{ ".tmp", 3 },		/* a leading dot without FNM_PERIOD */
		{ "*lit", 4 }, { "xlit", -1 }, { "", -1 },
	};

	is_u64((size_t)globlist_match(g, 0, "sda"), 0,
	    "an empty list matches nothing");
	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
		const char *m = globlist_match(g, sizeof g / sizeof g[0],
		    c[i].name);

		ok(m == (c[i].which < 0 ? NULL : g[c[i].which]),
		    "\"%s\": %s", c[i].name,
		    c[i].which < 0 ? "no glob" : g[c[i].which]);
	}
	{
		static const char *const two[] = { "sd*", "sda" };

		ok(globlist_match(two, 2, "sda") == two[0],
		    "the first that matches, of two");
	}
	return tap_end();
}
