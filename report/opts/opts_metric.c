/*
 * an_metric: the names of the growth metrics (opts.h), for --metric
 * and for the notes and tables that name one.
 */
#include <string.h>

#include "opts.h"

static const char *const metric_names[] = { [AN_FILES] = "files",
    [AN_BYTES] = "bytes", [AN_ALLOC] = "alloc", [AN_USED] = "used",
    [AN_INODES] = "inodes" };

const char *
an_metric_name(enum an_metric m)
{
	return metric_names[m];
}

int
an_metric_parse(const char *s, enum an_metric *m)
{
	for (int i = 0; i <= AN_INODES; i++)
		if (strcmp(s, metric_names[i]) == 0) {
			*m = (enum an_metric)i;
			return 0;
		}
	return -1;
}
