#include "mountpath.h"

#include <string.h>

size_t
mountpath_prefix_len(const char *mnt, const char *path)
{
	size_t n = strlen(mnt);

	if (strcmp(mnt, "/") == 0)
		return 1;
	if (strncmp(mnt, path, n) != 0 || (path[n] != '\0' && path[n] != '/'))
		return 0;
	return n;
}
