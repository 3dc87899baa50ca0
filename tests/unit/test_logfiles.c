/*
 * test_logfiles: daily file names, the UTC day of a sample, and retention
 * touching only this host's files. Dates computed by hand.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "logfiles.h"
#include "tap.h"

#define NS 1000000000ULL

static char dir[] = "/tmp/test_logfiles.XXXXXX";

static void
touch(const char *name)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	f = fopen(path, "w");
	if (f)
		fclose(f);
}

static int
exists(const char *name)
{
	char path[256];

	snprintf(path, sizeof path, "%s/%s", dir, name);
	return access(path, F_OK) == 0;
}

int
main(void)
{
	char path[512], cmd[300];

	/* 2026-11-21 00:00:00 UTC = 1795219200 = day 20778. */
	is_i64(logfile_day(1795219200ULL * NS), 20778, "midnight is day 20778");
	is_i64(logfile_day(1795219200ULL * NS - 1), 20777,
	    "one ns before midnight is the day before");
	is_i64(logfile_day((1795219200ULL + 86399) * NS + 999999999), 20778,
	    "23:59:59.999999999 is the same day");
	logfile_path(path, sizeof path, "/var/log/iostatmon", "db1", 20778);
	is_str(path, "/var/log/iostatmon/iostatmon-db1-20261121.iolog.gz",
	    "file name of 2026-11-21");
	logfile_path(path, sizeof path, "d", "a/b c", 0);
	is_str(path, "d/iostatmon-a_b_c-19700101.iolog.gz",
	    "host sanitised; day 0 is 1970-01-01");
	logfile_path(path, sizeof path, "d", "h", 11016);
	is_str(path, "d/iostatmon-h-20000229.iolog.gz", "leap day 2000-02-29");
	ok(logfile_path(path, 20, "/a/long/directory", "h", 1) < 0,
	    "too long for the buffer: -1");

	if (mkdtemp(dir) == NULL)
		return 1;
	touch("iostatmon-h-20261020.iolog.gz");	/* day 20746 */
	touch("iostatmon-h-20261021.iolog.gz");	/* day 20747 */
	touch("iostatmon-h-20261121.iolog.gz");
	touch("iostatmon-hh-20261020.iolog.gz");	/* another host */
	touch("iostatmon-h-2026102.iolog.gz");	/* not the pattern */
	touch("iostatmon-h-20261020.iolog.gz.1");
	touch("iostatmon-h-20261320.iolog.gz");	/* month 13 */
	is_i64(logfile_newest(dir, "h", 20778), 20778, "newest: today");
	is_i64(logfile_newest(dir, "h", 20777), 20747,
	    "newest up to yesterday: 2026-10-21");
	is_i64(logfile_newest(dir, "nobody", 20778), -1, "newest: none");
	is_i64(logfile_prune(dir, "h", 20778, 0), 0, "retain 0 keeps all");
	/* retain 31: days before 20778 - 31 = 20747 go. */
	is_i64(logfile_prune(dir, "h", 20778, 31), 1, "retain 31: one deleted");
	ok(!exists("iostatmon-h-20261020.iolog.gz"), "32 days old: deleted");
	ok(exists("iostatmon-h-20261021.iolog.gz"), "31 days old: kept");
	ok(exists("iostatmon-h-20261121.iolog.gz"), "today: kept");
	ok(exists("iostatmon-hh-20261020.iolog.gz"), "other host: kept");
	ok(exists("iostatmon-h-2026102.iolog.gz"), "short name: kept");
	ok(exists("iostatmon-h-20261020.iolog.gz.1"), "suffixed name: kept");
	ok(exists("iostatmon-h-20261320.iolog.gz"), "bad date: kept");
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", dir);
	return tap_end();
}
