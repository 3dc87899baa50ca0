/*
 * logfiles: names, retention and the previous run's boot of the daemon's
 * daily files. See logfiles.h.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "iolog/iolog.h"
#include "fmt.h"
#include "logfiles.h"
#include "safedir.h"
#include "safefile.h"

#define DAY_S 86400
/* What retention reads of a file to tell whether it is a log of this
 * host: the gzip header and the header frame, a few hundred bytes. */
#define VERIFY_BYTES 4096

int64_t
logfiles_day(uint64_t realtime_ns)
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
logfiles_path(char *buf, size_t len, const char *dir, const char *host,
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
logfiles_lock_path(char *buf, size_t len, const char *dir, const char *host)
{
	char h[256];
	int n;

	safe_host(h, sizeof h, host);
	n = snprintf(buf, len, "%s/" IOLOG_LOCK_PREFIX "%s" IOLOG_LOCK_SUFFIX,
	    dir, h);
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

int
logfiles_mkdir(const char *dir, char *err, size_t len)
{
	char *p = strdup(dir);
	size_t n = strlen(dir);
	struct safedir d;
	int rc;

	if (p == NULL || !*p) {
		errno = p ? ENOENT : ENOMEM;
		snprintf(err, len, "\"%s\": %s", dir, strerror(errno));
		free(p);
		return -1;
	}
	while (n > 1 && p[n - 1] == '/')
		p[--n] = '\0';
	/* dir as the "file" of its parent; ".", ".." and "/" exist */
	if (safedir_open(&d, p, NULL, err, len) < 0) {
		free(p);
		return errno == EISDIR ? 0 : -1;
	}
	rc = mkdirat(d.fd, d.name, 0755) == 0 ? 1 : errno == EEXIST ? 0 : -1;
	if (rc < 0)
		snprintf(err, len, "%s: cannot create log directory: %s", dir,
		    strerror(errno));
	safedir_close(&d);
	free(p);
	return rc;
}

/* Call fn for each of host's files in dir, with dir's descriptor. */
static void
each_file(const char *dir, const char *host,
    void (*fn)(int dirfd, const char *name, int64_t day, void *arg),
    void *arg)
{
	char h[256], err[PATH_MAX + 128];
	int dirfd = safedir_dir(dir, NULL, err, sizeof err), fd;
	struct dirent *e;
	DIR *d = NULL;

	if (dirfd >= 0 && (fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY |
	    O_CLOEXEC)) >= 0 && (d = fdopendir(fd)) == NULL)
		close(fd);
	if (d == NULL) {
		if (dirfd >= 0)
			snprintf(err, sizeof err, "%s: %s", dir,
			    strerror(errno));
		fmt_diag(stderr, "iostatmon", "cannot list: %s", err);
		if (dirfd >= 0)
			close(dirfd);
		return;
	}
	safe_host(h, sizeof h, host);
	while ((e = readdir(d)) != NULL) {
		int64_t day = name_day(e->d_name, h);

		if (day >= 0)
			fn(dirfd, e->d_name, day, arg);
	}
	closedir(d);
	close(dirfd);
}

struct prune {
	int64_t oldest_kept;
	const char *dir, *host;
	struct logfile_pruned *p;
};

/* What retention reads of a file to decide. */
enum verdict { V_DELETE, V_LEAVE, V_DAMAGED };

/* Does the file open on fd start as an iostatmon log? NULL, or why not. */
static const char *
not_a_log(int fd)
{
	uint8_t buf[VERIFY_BYTES];
	size_t n = 0;
	ssize_t got;

	while (n < sizeof buf && (got = pread(fd, buf + n, sizeof buf - n,
	    (off_t)n)) != 0) {
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return strerror(errno);
		n += (size_t)got;
	}
	return iolog_sniff(buf, n, n == sizeof buf) == IOLOG_LOG ? NULL :
	    "not an iostatmon log";
}

/* The log open on fd, read whole by the reader: is every header of host,
 * and is its newest time (its last sample's, or when it was made if it
 * holds none) before the day oldest_kept? The name's date is not trusted:
 * a log renamed to an old day keeps its samples of today. why: the
 * reason for anything but V_DELETE. A log with damage is kept whole
 * (V_DAMAGED): what it says of its host and its time is not all read. A
 * tail cut inside its last write (a daemon killed while writing) or
 * without its gzip trailer is no damage: everything before it is read. */
static enum verdict
judge(int fd, const char *name, const char *host, int64_t oldest_kept,
    char *why, size_t len)
{
	struct iolog_reader *r;
	struct iolog_event ev;
	const char *nolog;
	uint64_t newest = 0;
	enum verdict v = V_DELETE;
	int nheader = 0;

	if ((nolog = not_a_log(fd)) != NULL) {
		snprintf(why, len, "%s", nolog);
		return V_LEAVE;
	}
	if ((r = iolog_reader_fd(fd, name, why, len)) == NULL)
		return V_DAMAGED;
	while (v == V_DELETE && iolog_next(r, &ev) > 0) {
		if (ev.type == IOLOG_EV_HEADER && ev.header) {
			nheader++;
			if (strcmp(ev.header->host, host) != 0) {
				snprintf(why, len, "the log of another host");
				v = V_LEAVE;
			} else if (ev.header->created_ns > newest)
				newest = ev.header->created_ns;
		} else if ((ev.type == IOLOG_EV_KEYFRAME ||
		    ev.type == IOLOG_EV_SAMPLE) && ev.clock &&
		    ev.clock->realtime_ns > newest)
			newest = ev.clock->realtime_ns;
		else if (ev.type == IOLOG_EV_DAMAGE && !ev.truncated &&
		    !ev.cut) {
			snprintf(why, len, "damaged at offset %" PRIu64 ": %s",
			    ev.offset, ev.reason ? ev.reason : "?");
			v = V_DAMAGED;
		}
	}
	iolog_reader_close(r);
	if (v == V_DELETE && nheader == 0) {
		snprintf(why, len, "no header frame could be read");
		v = V_DAMAGED;
	} else if (v == V_DELETE && logfiles_day(newest) >= oldest_kept) {
		time_t t = (time_t)(newest / 1000000000ULL);
		struct tm tm;
		char day[32];

		gmtime_r(&t, &tm);
		strftime(day, sizeof day, "%Y-%m-%d", &tm);
		snprintf(why, len, "its last sample is of %s, within the "
		    "retention", day);
		v = V_LEAVE;
	}
	return v;
}

/* name, expired by its name: deleted if its contents say it is a log of
 * host, expired too. */
static void
prune_one(int dirfd, const char *name, int64_t day, void *arg)
{
	struct prune *pr = arg;
	char why[PATH_MAX + 256], reason[PATH_MAX];
	enum verdict v = V_LEAVE;
	struct stat st, now;
	int fd;

	if (day >= pr->oldest_kept)
		return;
	reason[0] = '\0';
	fd = safefile_openat(dirfd, name, name, O_RDONLY, 0, why, sizeof why);
	if (fd >= 0 && (v = judge(fd, name, pr->host, pr->oldest_kept,
	    reason, sizeof reason)) == V_DELETE && (fstat(fd, &st) < 0 ||
	    fstatat(dirfd, name, &now, AT_SYMLINK_NOFOLLOW) < 0 ||
	    st.st_dev != now.st_dev || st.st_ino != now.st_ino)) {
		snprintf(reason, sizeof reason, "replaced while it was read");
		v = V_LEAVE;
	}
	if (fd >= 0)
		close(fd);
	if (v == V_DAMAGED) {
		/* said at each retention: someone should look at it */
		fprintf(stderr, "iostatmon: %s/%s: expired by its name, but "
		    "kept: %s (iostatmon dump reads what it can)\n", pr->dir,
		    name, reason);
		return;
	}
	if (v == V_LEAVE) {
		if (fd >= 0)
			snprintf(why, sizeof why, "%s: %s", name, reason);
		if (pr->p->left++ == 0)
			snprintf(pr->p->first, sizeof pr->p->first, "%.1000s",
			    why);
		return;
	}
	if (unlinkat(dirfd, name, 0) < 0) {
		fmt_diag(stderr, "iostatmon", "%s/%s: cannot delete expired "
		    "log: %s", pr->dir, name, strerror(errno));
		return;
	}
	pr->p->deleted++;
}

void
logfiles_prune(const char *dir, const char *host, int64_t today,
    int retain_days, struct logfile_pruned *p)
{
	struct prune pr = { today - retain_days, dir, host, p };

	p->deleted = p->left = 0;
	p->first[0] = '\0';
	if (retain_days > 0)
		each_file(dir, host, prune_one, &pr);
}

struct newest {
	int64_t today, best;
};

static void
newest_one(int dirfd, const char *name, int64_t day, void *arg)
{
	struct newest *nw = arg;

	(void)dirfd;
	(void)name;
	if (day <= nw->today && day > nw->best)
		nw->best = day;
}

int64_t
logfiles_newest(const char *dir, const char *host, int64_t today)
{
	struct newest nw = { today, -1 };

	each_file(dir, host, newest_one, &nw);
	return nw.best;
}

void
logfiles_last_boot(const char *path, char *buf, size_t len)
{
	char err[PATH_MAX + 256];
	struct iolog_reader *r = NULL;
	struct iolog_event ev;
	int fd = safefile_open(path, O_RDONLY, 0, err, sizeof err);

	buf[0] = '\0';
	if (fd >= 0) {
		r = iolog_reader_fd(fd, path, err, sizeof err);
		close(fd);
	}
	if (r == NULL)
		return;
	while (iolog_next(r, &ev) > 0)
		if (ev.type == IOLOG_EV_HEADER && ev.header != NULL)
			snprintf(buf, len, "%s", ev.header->boot_id);
	iolog_reader_close(r);
}
