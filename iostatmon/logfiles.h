/*
 * logfiles: the daemon's own files, one per host per UTC day:
 * DIR/iostatmon-HOST-YYYYMMDD.iolog.gz. A sample belongs to the day of its
 * CLOCK_REALTIME. DIR is opened through lib/safedir, and every file in it
 * is listed, read and deleted relative to its descriptor, never through
 * a link. Retention deletes only files it has verified as this host's
 * logs.
 */
#ifndef IOSTATMON_LOGFILES_H
#define IOSTATMON_LOGFILES_H

#include <stddef.h>
#include <stdint.h>

/* The longest HOST that fits a file name (NAME_MAX 255, one byte per
 * byte of the host): 255 - strlen("iostatmon-" "-YYYYMMDD.iolog.gz"). */
#define LOGFILE_HOST_MAX 227

/* UTC day number (days since 1970-01-01) of a realtime in ns. */
int64_t logfiles_day(uint64_t realtime_ns);

/* The file of host for day: "dir/iostatmon-HOST-YYYYMMDD.iolog.gz". Host
 * characters other than [A-Za-z0-9._-] are written as '_'. 0, or -1 when
 * it does not fit in len. */
int logfiles_path(char *buf, size_t len, const char *dir, const char *host,
    int64_t day);

/* The lock file of host's daemon: "dir/.iostatmon-HOST.lock". 0 or -1. */
int logfiles_lock_path(char *buf, size_t len, const char *dir,
    const char *host);

/* Make dir when it is missing: one level, mode 0755 less the umask; the
 * path to it is opened by lib/safedir. 1 made, 0 it was there (or is not
 * a directory: opening a file in it says so), -1 with a message in err. */
int logfiles_mkdir(const char *dir, char *err, size_t len);

/* What logfiles_prune did. */
struct logfile_pruned {
	int deleted;
	int left;		/* expired by name, not verified as logs */
	char first[1024];	/* the first of those, and why */
};

/* Delete host's files of days before today - retain_days, each only once
 * it is verified, by reading it whole, as an expired log of host: a
 * regular file of one name (not a link, which is not followed), an
 * iostatmon log (iolog_sniff) every header of which names host exactly,
 * and whose last sample (or creation, with none) is of a day before
 * today - retain_days, whatever its name says. Anything else is left
 * alone and counted in p; a damaged log is kept and named on stderr, as
 * are failures. */
void logfiles_prune(const char *dir, const char *host, int64_t today,
    int retain_days, struct logfile_pruned *p);

/* The newest day <= today that has a file for host, or -1. */
int64_t logfiles_newest(const char *dir, const char *host, int64_t today);

/* boot_id of the last member header in file path into buf ("" if none,
 * or when path is not a regular file: it is not followed, nor waited on). */
void logfiles_last_boot(const char *path, char *buf, size_t len);

#endif
