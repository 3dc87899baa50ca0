/*
 * daemon: the sampling loop. One poll over a signalfd and a wall-clock
 * aligned timerfd; each expiration reads /proc/diskstats once, re-decides
 * the devices when their set changed, rotates at UTC midnight and hands
 * the read to the sampler. A start-up read gives the keyframe the first
 * interval is measured from, so READY=1 comes at once and every interval
 * ends on a boundary.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "daemon.h"
#include "daemon_int.h"
#include "fmt.h"
#include "xalloc.h"

#define NS	     1000000000ULL
#define LATE_NS	     (5 * NS)
#define SUSPEND_NS   NS
#define SYNC_NS	     (60 * NS)	/* fdatasync at most this much apart */

static int
setup_signals(struct daemon *d, char *err, size_t len)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	signal(SIGPIPE, SIG_IGN);
	signal(SIGXFSZ, SIG_IGN);	/* a file size limit is EFBIG: backlog */
	if (sigprocmask(SIG_BLOCK, &set, NULL) < 0 ||
	    (d->sigfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK)) < 0) {
		snprintf(err, len, "signalfd: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/* Read the clocks and the counters into d->t and c. 0 or -1 (reported). */
static int
read_counters(struct daemon *d, struct iolog_clock *c)
{
	char err[PATH_MAX + 128];
	int rc;

	memset(c, 0, sizeof *c);
	c->realtime_ns = tick_now(CLOCK_REALTIME);
	c->boottime_ns = tick_now(CLOCK_BOOTTIME);
	c->monotonic_ns = tick_now(CLOCK_MONOTONIC);
	rc = dsread_table(&d->ds, &d->t, err, sizeof err);
	c->read_ns = tick_now(CLOCK_MONOTONIC) - c->monotonic_ns;
	if (rc < 0) {
		if (!d->read_trouble)
			fmt_diag(stderr, "iostatmon", "%s%s", err,
			    d->s ? "; the "
			    "samples are missing until it is readable again" :
			    "");
		d->read_trouble = 1;
		return -1;
	}
	if (d->read_trouble)
		fmt_diag(stderr, "iostatmon", "%s: readable again", d->ds.path);
	d->read_trouble = 0;
	if (d->t.bad && !d->bad_lines)
		fmt_diag(stderr, "iostatmon", "%s: %zu lines are not diskstats "
		    "lines, skipped", d->ds.path, d->t.bad);
	d->bad_lines = d->t.bad > 0;
	return 0;
}

/* Flags of the reading c taken for boundary (0: the start-up read). */
static uint32_t
sample_flags(struct daemon *d, const struct iolog_clock *c, uint64_t boundary)
{
	uint32_t f = d->pending;

	d->pending = 0;
	if (c->missed)
		f |= IOLOG_GAP;
	if (boundary && c->realtime_ns > boundary + LATE_NS)
		f |= IOLOG_LATE;
	if (d->have_prev) {
		uint64_t dboot = c->boottime_ns - d->prev.boottime_ns;
		uint64_t dmono = c->monotonic_ns - d->prev.monotonic_ns;

		if (dboot > dmono + SUSPEND_NS)
			f |= IOLOG_SUSPEND;
	}
	return f;
}

/* The write of a sample failed or succeeded: one report per episode. */
static void
write_result(struct daemon *d, int rc, int saved_errno)
{
	size_t backlog = iolog_writer_backlog(d->w);

	if (rc < 0) {
		if (iolog_writer_needs_header(d->w))
			d->lost = 1;
		if (saved_errno == E2BIG && !d->write_trouble)
			/* the sampler wrote nothing: no backlog waits */
			snprintf(d->problem, sizeof d->problem, "%.2048s: %zu "
			    "devices to sample, more than the %d a log holds "
			    "in one sample (docs/iolog-format.md): nothing is "
			    "written until --include or --exclude selects "
			    "fewer", d->path, d->nmon, IOLOG_NDEV_MAX);
		if (saved_errno == E2BIG && !d->write_trouble)
			fprintf(stderr, "iostatmon: %s\n", d->problem);
		else if (!d->write_trouble && !d->file_trouble) {
			snprintf(d->problem, sizeof d->problem, "%s: cannot "
			    "write: %s", d->path, strerror(saved_errno));
			fmt_diag(stderr, "iostatmon", "%s; sampling goes on, "
			    "up to %zu bytes wait in memory", d->problem,
			    d->o->backlog_max);
		}
		d->write_trouble = 1;
	} else if (d->write_trouble && backlog == 0) {
		fmt_diag(stderr, "iostatmon", "%s: writing again, backlog "
		    "flushed%s", d->path, d->lost ? " (some samples were "
		    "lost when it overflowed)" : "");
		d->write_trouble = 0;
		d->problem[0] = '\0';
	}
}

static void
send_status(struct daemon *d, const struct iolog_clock *c)
{
	time_t t = (time_t)(c->realtime_ns / NS);
	struct tm tm;
	char hms[16];

	gmtime_r(&t, &tm);
	strftime(hms, sizeof hms, "%H:%M:%S", &tm);
	notify_send(d->nfy, "%sSTATUS=sampling %zu of %zu devices, last sample "
	    "%s UTC%s%s", d->ready ? "" : "READY=1\n", d->nmon, d->set.n, hms,
	    d->problem[0] ? "; " : "", d->problem);
	d->ready = 1;
}

/* One reading: for boundary (0 at start-up) after missed skipped ones. */
static int
take_sample(struct daemon *d, uint64_t boundary, uint64_t missed)
{
	struct iolog_clock c;
	int rc, e, kept;

	if (read_counters(d, &c) < 0) {
		d->pending |= IOLOG_GAP;
		return -1;
	}
	c.missed = missed;
	c.flags = sample_flags(d, &c, boundary);
	if (d->s == NULL && daemon_setup_first(d, &c) < 0)
		return -1;
	/* before a rotation, so that what waits for a deleted log reaches
	 * its new file before the day's file is finished */
	if (daemon_logcheck(d) < 0)
		return -1;
	if (devices_changed(&d->set, &d->t))
		daemon_setup_decide(d, "the set of devices changed");
	daemon_setup_rotate(d, logfiles_day(c.realtime_ns));
	errno = 0;
	rc = sampler_feed(d->s, &d->t, &d->set, &c);
	e = errno;
	kept = rc == 0 && daemon_logcheck_after(d);
	write_result(d, rc, e);
	if (rc == 0 && c.monotonic_ns - d->synced_ns >= SYNC_NS) {
		/* what a power loss can take: at most a minute */
		if (iolog_writer_sync(d->w) < 0)
			fmt_diag(stderr, "iostatmon", "%s: fdatasync: %s",
			    d->path, strerror(errno));
		d->synced_ns = c.monotonic_ns;
	}
	d->prev = c;
	d->have_prev = 1;
	if (d->o->verbose)
		fmt_diag(stderr, "iostatmon", "sample %" PRIu64 " %s %s",
		    c.realtime_ns, kept ? "written to" : rc == 0 ? "lost in" :
		    "held for", d->path);
	send_status(d, &c);
	return 0;
}

/* SIGHUP: finish the member, reopen the file, re-read boot_id, re-decide. */
static void
reload(struct daemon *d)
{
	char err[PATH_MAX + 256], boot[64];

	notify_send(d->nfy, "RELOADING=1\nMONOTONIC_USEC=%" PRIu64,
	    tick_now(CLOCK_MONOTONIC) / 1000);
	fmt_diag(stderr, "iostatmon", "SIGHUP: reopening %s", d->path);
	daemon_setup_reopen(d);
	dsread_boot_id(d->o->dev.proc, boot, sizeof boot, err, sizeof err);
	if (strcmp(boot, d->h.boot_id) != 0) {
		snprintf(d->h.boot_id, sizeof d->h.boot_id, "%s", boot);
		sampler_set_header(d->s, &d->h);
	}
	daemon_setup_decide(d, "SIGHUP");
	notify_send(d->nfy, "READY=1");
}

/* Drain the signalfd: 1 when the daemon must stop. */
static int
handle_signals(struct daemon *d)
{
	struct signalfd_siginfo si;
	int stop = 0;

	while (read(d->sigfd, &si, sizeof si) == (ssize_t)sizeof si) {
		if (si.ssi_signo == SIGHUP)
			reload(d);
		else
			stop = 1;
	}
	return stop;
}

static int
loop(struct daemon *d)
{
	uint64_t wd = notify_watchdog_usec(d->nfy);
	int timeout = wd ? (int)(wd / 2000 > 0 ? wd / 2000 : 1) : -1;

	for (;;) {
		struct pollfd p[2] = {
			{ d->tick.fd, POLLIN, 0 }, { d->sigfd, POLLIN, 0 }
		};
		uint64_t boundary, missed;
		int r;

		if (poll(p, 2, timeout) < 0 && errno != EINTR) {
			fmt_diag(stderr, "iostatmon", "poll: %s",
			    strerror(errno));
			return EXIT_FATAL;
		}
		if ((p[1].revents & POLLIN) && handle_signals(d))
			return 0;
		if (p[0].revents & POLLIN) {
			r = tick_read(&d->tick, &boundary, &missed);
			if (r < 0) {
				fmt_diag(stderr, "iostatmon", "timerfd: %s",
				    strerror(errno));
				return EXIT_FATAL;
			}
			if (r == 2)
				d->pending |= IOLOG_CLOCK_STEP;
			if (r == 1 && take_sample(d, boundary, missed) == 0 &&
			    d->o->count && ++d->samples >= d->o->count)
				return 0;
			if (d->fatal)
				return EXIT_FATAL;
		}
		if (wd)
			notify_send(d->nfy, "WATCHDOG=1");
	}
}

int
daemon_run(const struct daemon_opts *o)
{
	struct daemon *d = xcalloc(1, sizeof *d);
	char err[PATH_MAX + 256] = "";
	int rc = EXIT_FATAL, lost;

	d->o = o;
	d->sigfd = d->tick.fd = d->ds.fd = d->lockfd = -1;
	d->nfy = notify_open();
	if (setup_signals(d, err, sizeof err) < 0 ||
	    daemon_setup_start(d, err, sizeof err) < 0 ||
	    take_sample(d, 0, 0) < 0 ||
	    daemon_setup_pidfile(d, err, sizeof err) < 0 ||
	    tick_open(&d->tick, o->interval_ns, err, sizeof err) < 0) {
		if (err[0])
			fmt_diag(stderr, "iostatmon", "%s", err);
	} else {
		rc = loop(d);
	}
	notify_send(d->nfy, "STOPPING=1");
	lost = d->lost;
	if ((daemon_setup_stop(d) < 0 || lost) && rc == 0)
		rc = EXIT_LOST;
	return rc;
}
