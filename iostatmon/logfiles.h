/*
 * logfiles: the daemon's own files, one per host per UTC day:
 * DIR/iostatmon-HOST-YYYYMMDD.iolog.gz. A sample belongs to the day of its
 * CLOCK_REALTIME. Retention deletes only this host's files of that pattern.
 */
#ifndef IOSTATMON_LOGFILES_H
#define IOSTATMON_LOGFILES_H

#include <stddef.h>
#include <stdint.h>

/* The longest HOST that fits a file name (NAME_MAX 255, one byte per
 * byte of the host): 255 - strlen("iostatmon-" "-YYYYMMDD.iolog.gz"). */
#define LOGFILE_HOST_MAX 227

/* UTC day number (days since 1970-01-01) of a realtime in ns. */
int64_t logfile_day(uint64_t realtime_ns);

/* The file of host for day: "dir/iostatmon-HOST-YYYYMMDD.iolog.gz". Host
 * characters other than [A-Za-z0-9._-] are written as '_'. 0, or -1 when
 * it does not fit in len. */
int logfile_path(char *buf, size_t len, const char *dir, const char *host,
    int64_t day);

/* The lock file of host's daemon: "dir/.iostatmon-HOST.lock". 0 or -1. */
int logfile_lock_path(char *buf, size_t len, const char *dir,
    const char *host);

/* Delete host's files of days before today - retain_days. Failures are
 * reported on stderr. Returns the number of files deleted. */
int logfile_prune(const char *dir, const char *host, int64_t today,
    int retain_days);

/* The newest day <= today that has a file for host, or -1. */
int64_t logfile_newest(const char *dir, const char *host, int64_t today);

/* boot_id of the last member header in file path into buf ("" if none). */
void logfile_last_boot(const char *path, char *buf, size_t len);

#endif
