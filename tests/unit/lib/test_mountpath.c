/* test_mountpath: lib/mountpath.c, a mount point as a path prefix on a
 * component boundary, against lengths counted here. */
#include <stddef.h>

#include "mountpath.h"
#include "tap.h"

int
main(void)
{
	static const struct {
		const char *mnt, *path;
		size_t len;
	} c[] = {
		{ "/", "/", 1 },
		{ "/", "/data/x", 1 },
		{ "/data", "/data", 5 },
		{ "/data", "/data/x", 5 },
		{ "/data", "/data/", 5 },
		{ "/data", "/database", 0 },	/* not on a boundary */
		{ "/data", "/dat", 0 },		/* longer than the path */
		{ "/data", "/other/data", 0 },
		{ "/data", "", 0 },
		{ "/data/x", "/data", 0 },
		{ "/a b", "/a b/c", 4 },	/* a blank is a byte */
		{ "/data", "/Data/x", 0 },	/* case counts */
		{ "", "/data", 0 },		/* no mount point holds it */
	};

	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++)
		is_u64(mountpath_prefix_len(c[i].mnt, c[i].path), c[i].len,
		    "\"%s\" holds \"%s\": %zu", c[i].mnt, c[i].path, c[i].len);
	return tap_end();
}
