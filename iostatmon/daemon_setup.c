/*
 * daemon_setup: what the loop needs around it: start-up, the header, the
 * day's file (open, rotate, reopen, prune), device decisions, the pidfile
 * and an orderly stop. See daemon_int.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "daemon_int.h"
#include "fmt.h"
#include "pidfile.h"
#include "safefile.h"

#ifndef IOCENSUS_VERSION
#define IOCENSUS_VERSION "0.1.0"
#endif

/* The kernel's long, which may be wider than ours (32-bit userland on a
 * 64-bit kernel). */
static int
kernel_long_bits(const struct utsname *u)
{
	if (sizeof(long) == 8)
		return 64;
	return strstr(u->machine, "64") || strcmp(u->machine, "s390x") == 0 ?
	    64 : 32;
}

/* Two daemons appending to the same files would interleave their gzip
 * members: hold DIR/.iostatmon-HOST.lock for as long as we run. It
 * persists, so it is opened without O_EXCL, but never through a link
 * (a dangling one would have root make its target) and only when it is
 * a regular file (lib/safefile). */
int
daemon_setup_lock(struct daemon *d, char *err, size_t len)
{
	int fd, e;

	if (d->lockpath[0] == '\0' && logfiles_lock_path(d->lockpath,
	    sizeof d->lockpath, d->o->log_dir, d->o->host) < 0) {
		snprintf(err, len, "%s: log directory name too long",
		    d->o->log_dir);
		errno = ENAMETOOLONG;
		return -1;
	}
	fd = safefile_open(d->lockpath, O_RDWR | O_CREAT, 0644, err, len);
	if (fd < 0)
		return -1;
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		e = errno;
		snprintf(err, len, "%s: %s", d->lockpath, e == EWOULDBLOCK ?
		    "another iostatmon is writing this host's logs here" :
		    strerror(e));
		close(fd);
		errno = e;
		return -1;
	}
	if (d->lockfd >= 0)
		close(d->lockfd);
	d->lockfd = fd;
	return 0;
}

int
daemon_setup_start(struct daemon *d, char *err, size_t len)
{
	const struct daemon_opts *o = d->o;
	struct utsname u;
	char why[PATH_MAX + 128];

	if (logfiles_mkdir(o->log_dir, err, len) < 0 ||
	    daemon_setup_lock(d, err, len) < 0 ||
	    dsread_open(&d->ds, o->dev.proc, err, len) < 0)
		return -1;
	dsread_boot_id(o->dev.proc, d->h.boot_id, sizeof d->h.boot_id, why,
	    sizeof why);
	if (why[0])
		fmt_diag(stderr, "iostatmon", "%s; reboots will show only as "
		    "counter resets", why);
	uname(&u);
	snprintf(d->h.host, sizeof d->h.host, "%s", o->host);
	snprintf(d->h.release, sizeof d->h.release, "%.127s", u.release);
	snprintf(d->h.machine, sizeof d->h.machine, "%.63s", u.machine);
	snprintf(d->h.writer, sizeof d->h.writer, "iostatmon %s",
	    IOCENSUS_VERSION);
	d->h.long_bits = kernel_long_bits(&u);
	d->h.interval_ms = (uint32_t)(o->interval_ns / 1000000);
	d->h.created_ns = tick_now(CLOCK_REALTIME);
	return 0;
}

void
daemon_setup_repaired(const char *path, int repaired, const char *err)
{
	if (repaired == 1)
		fmt_diag(stderr, "iostatmon", "%s: torn tail of an interrupted "
		    "run cut after its last whole record and sealed, in place",
		    path);
	else if (repaired == 2)
		fmt_diag(stderr, "iostatmon", "%s: torn tail of an interrupted "
		    "run found; it is cut and sealed, in place, as soon as the "
		    "file can be written (%s); samples wait in memory until "
		    "then", path, err);
}

/* The file of day into path. 0, or -1 (said). */
static int
day_path(struct daemon *d, int64_t day, char *path, size_t pathlen)
{
	if (logfiles_path(path, pathlen, d->o->log_dir, d->o->host, day) < 0) {
		fmt_diag(stderr, "iostatmon", "%s: log directory name too long",
		    d->o->log_dir);
		return -1;
	}
	return 0;
}

/* Open the file of day as a new writer; NULL with a message in err. */
static struct iolog_writer *
open_day(struct daemon *d, const char *path, char *err, size_t errlen)
{
	struct iolog_writer *w;
	int repaired = 0;

	w = iolog_writer_open(path, &repaired, err, errlen);
	if (w == NULL)
		return NULL;
	daemon_setup_repaired(path, repaired, err);
	iolog_writer_set_backlog_max(w, d->o->backlog_max);
	return w;
}

/* Retention; files it leaves alone are said when their number changes,
 * not at every rotation. */
static void
prune(struct daemon *d)
{
	struct logfile_pruned p;

	logfiles_prune(d->o->log_dir, d->o->host, d->day, d->o->retain_days,
	    &p);
	if (p.deleted > 0)
		fmt_diag(stderr, "iostatmon", "deleted %d log file%s older "
		    "than %d days", p.deleted, p.deleted == 1 ? "" : "s",
		    d->o->retain_days);
	if (p.left > 0 && p.left != d->prune_left)
		fmt_diag(stderr, "iostatmon", "%s: %d expired file%s named "
		    "like this host's logs left alone, not verified as expired "
		    "logs of it (%s%s)", d->o->log_dir, p.left, p.left == 1 ? "" : "s",
		    p.first, p.left > 1 ? "; and others" : "");
	d->prune_left = p.left;
}

/* Sampling no device makes logs without samples: say so, once for each
 * decision (at the start, after SIGHUP, when the devices change). */
static void
warn_none(const struct daemon *d, const char *why)
{
	if (d->nmon > 0)
		return;
	fmt_diag(stderr, "iostatmon", "%s%swarning: no device is sampled (%zu "
	    "excluded): the logs will hold no samples; `iostatmon devices` "
	    "says why each is excluded, --include GLOB or --all-devices "
	    "samples them", why ? why : "", why ? ": " : "", d->set.n);
}

/* Was line (name, major:minor) decided the same way in old? */
static int
same_decision(const struct dev_set *old, const struct dev_info *di)
{
	for (size_t k = 0; k < old->n; k++)
		if (strcmp(old->d[k].name, di->name) == 0 &&
		    old->d[k].major == di->major &&
		    old->d[k].minor == di->minor)
			return old->d[k].monitored == di->monitored &&
			    strcmp(old->d[k].reason ? old->d[k].reason : "",
			    di->reason ? di->reason : "") == 0;
	return 0;
}

void
daemon_setup_decide(struct daemon *d, const char *why)
{
	struct dev_set ns = { 0 };
	char err[PATH_MAX + 256];

	if (devices_decide(&d->o->dev, &d->t, &ns, err, sizeof err) < 0) {
		if (!d->decide_trouble)
			fmt_diag(stderr, "iostatmon", "%s; keeping the "
			    "previous device decisions", err);
		d->decide_trouble = 1;
		devices_set_free(&ns);
		return;
	}
	d->decide_trouble = 0;
	d->nmon = 0;
	for (size_t i = 0; i < ns.n; i++) {
		d->nmon += ns.d[i].monitored != 0;
		if (!same_decision(&d->set, &ns.d[i]))
			fmt_diag(stderr, "iostatmon", "%s: %s: %s", why,
			    ns.d[i].name, ns.d[i].reason);
	}
	fmt_diag(stderr, "iostatmon", "%s: sampling %zu of %zu devices", why,
	    d->nmon, ns.n);
	devices_set_free(&d->set);
	d->set = ns;
	warn_none(d, why);
	if (d->s)
		sampler_devices_changed(d->s);
}

int
daemon_setup_first(struct daemon *d, struct iolog_clock *c)
{
	char err[PATH_MAX + 256], prev[PATH_MAX], boot[64];
	int64_t day = logfiles_day(c->realtime_ns), last;

	if (devices_decide(&d->o->dev, &d->t, &d->set, err, sizeof err) < 0) {
		fmt_diag(stderr, "iostatmon", "%s", err);
		return -1;
	}
	for (size_t i = 0; i < d->set.n; i++) {
		d->nmon += d->set.d[i].monitored != 0;
		fmt_diag(stderr, "iostatmon", "%s: %s", d->set.d[i].name,
		    d->set.d[i].reason);
	}
	warn_none(d, NULL);
	last = logfiles_newest(d->o->log_dir, d->o->host, day);
	if (last >= 0 && logfiles_path(prev, sizeof prev, d->o->log_dir,
	    d->o->host, last) == 0) {
		c->flags |= IOLOG_GAP;		/* the daemon was stopped */
		logfiles_last_boot(prev, boot, sizeof boot);
		if (boot[0] && strcmp(boot, d->h.boot_id) != 0)
			c->flags |= IOLOG_NEW_BOOT;
	}
	if (day_path(d, day, d->path, sizeof d->path) < 0)
		return -1;
	if ((d->w = iolog_writer_detached()) == NULL) {
		fmt_diag(stderr, "iostatmon", "%s", strerror(ENOMEM));
		return -1;
	}
	iolog_writer_set_backlog_max(d->w, d->o->backlog_max);
	d->day = day;
	daemon_setup_attach(d);
	prune(d);
	d->s = sampler_new(d->w, &d->h);
	return 0;
}

void
daemon_setup_new_member(struct daemon *d)
{
	d->h.created_ns = tick_now(CLOCK_REALTIME);
	sampler_set_header(d->s, &d->h);
	sampler_set_writer(d->s, d->w);
}

void
daemon_setup_rotate(struct daemon *d, int64_t day)
{
	char path[PATH_MAX], err[PATH_MAX + 256];
	struct iolog_writer *w;

	if (day == d->day || day_path(d, day, path, sizeof path) < 0)
		return;
	w = open_day(d, path, err, sizeof err);
	if (w == NULL) {
		if (!d->rotate_trouble)
			fmt_diag(stderr, "iostatmon", "%s; cannot rotate, "
			    "samples go on into %s", err, d->path);
		d->rotate_trouble = 1;
		return;
	}
	if (iolog_writer_close(d->w) < 0) {
		fmt_diag(stderr, "iostatmon", "%s: cannot finish: %s", d->path,
		    strerror(errno));
		d->lost = 1;
	}
	d->rotate_trouble = 0;
	if (d->file_trouble) {	/* the new file ends the wait for one */
		d->file_trouble = 0;
		d->problem[0] = '\0';
	}
	d->w = w;
	d->day = day;
	memcpy(d->path, path, sizeof path);
	daemon_setup_new_member(d);
	prune(d);
}

int
daemon_setup_attach(struct daemon *d)
{
	char err[PATH_MAX + 256];
	size_t dropped = iolog_writer_detach(d->w, ENOENT);
	int repaired = 0;

	if (dropped > 0) {
		fmt_diag(stderr, "iostatmon", "%s: %zu bytes of samples held "
		    "in memory for it are lost", d->path, dropped);
		d->lost = 1;
	}
	if (iolog_writer_attach(d->w, d->path, &repaired, err,
	    sizeof err) < 0) {
		if (!d->file_trouble)
			fmt_diag(stderr, "iostatmon", "%s; sampling goes on, "
			    "up to %zu bytes wait in memory", err,
			    d->o->backlog_max);
		snprintf(d->problem, sizeof d->problem, "%.4000s", err);
		d->file_trouble = 1;
		return -1;
	}
	daemon_setup_repaired(d->path, repaired, err);
	d->file_trouble = 0;
	d->problem[0] = '\0';
	return 0;
}

void
daemon_setup_reopen(struct daemon *d)
{
	if (daemon_setup_attach(d) < 0)
		return;
	daemon_setup_new_member(d);
	d->write_trouble = 0;
	d->problem[0] = '\0';
}

int
daemon_setup_pidfile(struct daemon *d, char *err, size_t len)
{
	if (d->o->pidfile == NULL)
		return 0;
	if (pidfile_write(d->o->pidfile, err, len) < 0)
		return -1;
	d->pidfile_written = 1;
	return 0;
}

int
daemon_setup_stop(struct daemon *d)
{
	int rc = 0;

	if (d->w && iolog_writer_close(d->w) < 0) {
		fmt_diag(stderr, "iostatmon", "%s: cannot finish: %s", d->path,
		    strerror(errno));
		rc = -1;
	}
	if (d->pidfile_written)
		pidfile_remove(d->o->pidfile);
	sampler_free(d->s);
	devices_set_free(&d->set);
	diskstats_table_free(&d->t);
	dsread_close(&d->ds);
	tick_close(&d->tick);
	if (d->sigfd >= 0)
		close(d->sigfd);
	if (d->lockfd >= 0)
		close(d->lockfd);
	notify_close(d->nfy);
	free(d);
	return rc;
}
