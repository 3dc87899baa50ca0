/*
 * logfiles: names, retention and the previous run's boot of the daemon's
 * daily files. See logfiles.h.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "iolog.h"
#include "logfiles.h"

#define DAY_S 86400

int64_t
logfile_day(uint64_t realtime_ns)
{
	return (int64_t)(realtime_ns / 1000000000ULL / DAY_S);
}

/* host as it appears in file names. */
static void
safe_host(char *out, size_t len, const char *host)
{
	size_t i;

	for (i = 0; host[i] && i + 1 < len; i++) {
		char c = host[i];
		int okc = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';

		out[i] = okc ? c : '_';
	}
	out[i] = '\0';
}

int
logfile_path(char *buf, size_t len, const char *dir, const char *host,
    int64_t day)
{
	char h[256];
	struct tm tm;
	time_t t = (time_t)(day * DAY_S);
	int n;

	safe_host(h, sizeof h, host);
	gmtime_r(&t, &tm);
	n = snprintf(buf, len, "%s/iostatmon-%s-%04d%02d%02d.iolog.gz", dir, h,
	    tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

int
logfile_lock_path(char *buf, size_t len, const char *dir, const char *host)
{
	char h[256];
	int n;

	safe_host(h, sizeof h, host);
	n = snprintf(buf, len, "%s/.iostatmon-%s.lock", dir, h);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

static int
digits_value(const char *s, int n)
{
	int v = 0;

	while (n-- > 0)
		v = v * 10 + (*s++ - '0');
	return v;
}

/* Day of a file name "iostatmon-HOST-YYYYMMDD.iolog.gz" of host, or -1. */
static int64_t
name_day(const char *name, const char *host)
{
	char prefix[300], digits[9];
	struct tm tm = { 0 };
	size_t plen;

	snprintf(prefix, sizeof prefix, "iostatmon-%s-", host);
	plen = strlen(prefix);
	if (strncmp(name, prefix, plen) != 0 ||
	    strcmp(name + plen + 8, ".iolog.gz") != 0 ||
	    strlen(name) != plen + 8 + strlen(".iolog.gz"))
		return -1;
	memcpy(digits, name + plen, 8);
	digits[8] = '\0';
	if (strspn(digits, "0123456789") != 8)
		return -1;
	tm.tm_year = digits_value(digits, 4) - 1900;
	tm.tm_mon = digits_value(digits + 4, 2) - 1;
	tm.tm_mday = digits_value(digits + 6, 2);
	if (tm.tm_mon < 0 || tm.tm_mon > 11 || tm.tm_mday < 1 || tm.tm_mday > 31)
		return -1;
	return (int64_t)timegm(&tm) / DAY_S;
}

/* Call fn for each of host's files in dir; returns the sum of fn's results. */
static int
each_file(const char *dir, const char *host,
    int (*fn)(const char *dir, const char *name, int64_t day, void *arg),
    void *arg)
{
	char h[256];
	DIR *d = opendir(dir);
	struct dirent *e;
	int sum = 0;

	if (d == NULL) {
		fprintf(stderr, "iostatmon: %s: cannot list: %s\n", dir,
		    strerror(errno));
		return 0;
	}
	safe_host(h, sizeof h, host);
	while ((e = readdir(d)) != NULL) {
		int64_t day = name_day(e->d_name, h);

		if (day >= 0)
			sum += fn(dir, e->d_name, day, arg);
	}
	closedir(d);
	return sum;
}

static int
prune_one(const char *dir, const char *name, int64_t day, void *arg)
{
	char path[4096];

	if (day >= *(int64_t *)arg)
		return 0;
	snprintf(path, sizeof path, "%s/%s", dir, name);
	if (unlink(path) < 0) {
		fprintf(stderr, "iostatmon: %s: cannot delete expired log: %s\n",
		    path, strerror(errno));
		return 0;
	}
	return 1;
}

int
logfile_prune(const char *dir, const char *host, int64_t today,
    int retain_days)
{
	int64_t oldest_kept = today - retain_days;

	if (retain_days <= 0)
		return 0;
	return each_file(dir, host, prune_one, &oldest_kept);
}

struct newest {
	int64_t today, best;
};

static int
newest_one(const char *dir, const char *name, int64_t day, void *arg)
{
	struct newest *nw = arg;

	(void)dir;
	(void)name;
	if (day <= nw->today && day > nw->best)
		nw->best = day;
	return 0;
}

int64_t
logfile_newest(const char *dir, const char *host, int64_t today)
{
	struct newest nw = { today, -1 };

	each_file(dir, host, newest_one, &nw);
	return nw.best;
}

void
logfile_last_boot(const char *path, char *buf, size_t len)
{
	char err[512];
	struct iolog_reader *r = iolog_reader_open(path, err, sizeof err);
	struct iolog_event ev;

	buf[0] = '\0';
	if (r == NULL)
		return;
	while (iolog_next(r, &ev) > 0)
		if (ev.type == IOLOG_EV_HEADER && ev.header != NULL)
			snprintf(buf, len, "%s", ev.header->boot_id);
	iolog_reader_close(r);
}
