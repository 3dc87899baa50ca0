/*
 * metric: the histograms of a snapshot, by name and scheme (metric.h).
 */
#include <stdio.h>
#include <string.h>

#include "metric.h"

const struct metric_def metric_def[METRIC_COUNT] = {
	[METRIC_SIZE] = { "size", HS_SIZE, "File sizes" },
	[METRIC_CAPACITY] = { "capacity", HS_BLOCKS, "File capacity" },
	[METRIC_POS_OVERHEAD] = { "pos_overhead", HS_SIZE,
	    "Positive overhead" },
	[METRIC_NEG_OVERHEAD] = { "neg_overhead", HS_SIZE,
	    "Negative overhead" },
	[METRIC_DIR_ENTRIES] = { "dir_entries", HS_COUNT,
	    "Directory entries" },
	[METRIC_DIR_SIZE] = { "dir_size", HS_SIZE, "Directory sizes" },
	[METRIC_NAME_LEN] = { "name_len", HS_LINEAR8, "Name lengths" },
	[METRIC_LINK_COUNT] = { "link_count", HS_COUNT, "Link counts" },
	[METRIC_SYMLINK_LEN] = { "symlink_len", HS_LINEAR8,
	    "Symbolic link lengths" },
	[METRIC_MTIME] = { "mtime", HS_AGE, "File ages by mtime" },
	[METRIC_CTIME] = { "ctime", HS_AGE, "File ages by ctime" },
	[METRIC_ATIME] = { "atime", HS_AGE, "File ages by atime" },
};

const enum metric_id metric_file[METRIC_NFILE] = {
	METRIC_SIZE, METRIC_ATIME, METRIC_MTIME, METRIC_CTIME
};

int
metric_find(const char *name)
{
	for (int i = 0; i < METRIC_COUNT; i++)
		if (strcmp(metric_def[i].name, name) == 0)
			return i;
	return -1;
}

int
metric_is_file(enum metric_id id)
{
	for (int k = 0; k < METRIC_NFILE; k++)
		if (metric_file[k] == id)
			return 1;
	return 0;
}

char *
metric_sql_list(char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = 0;
	for (int k = 0; k < METRIC_NFILE && n < len; k++)
		n += (size_t)snprintf(buf + n, len - n, "%s'%s'", k ? ", " : "",
		    metric_def[metric_file[k]].name);
	return buf;
}
