/*
 * opts_metric: the names of the growth metrics (opts.h), for --metric
 * and for the notes and tables that name one.
 */
#include <string.h>

#include "opts.h"

static const char *const metric_names[] = { [OPTS_FILES] = "files",
    [OPTS_BYTES] = "bytes", [OPTS_ALLOC] = "alloc", [OPTS_USED] = "used",
    [OPTS_INODES] = "inodes" };

const char *
opts_metric_name(enum opts_metric m)
{
	return metric_names[m];
}

int
opts_metric_parse(const char *s, enum opts_metric *m)
{
	for (int i = 0; i <= OPTS_INODES; i++)
		if (strcmp(s, metric_names[i]) == 0) {
			*m = (enum opts_metric)i;
			return 0;
		}
	return -1;
}
