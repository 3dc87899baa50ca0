#include "globlist.h"

#include <fnmatch.h>

const char *
globlist_match(const char *const *globs, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (fnmatch(globs[i], name, 0) == 0)
			return globs[i];
	return NULL;
}
