/*
 * daemon_int: the daemon's state, shared by daemon.c (the loop),
 * daemon_setup.c (start-up, files, device decisions, shutdown) and
 * daemon_logcheck.c (a log deleted or replaced under it). Only they
 * include it.
 */
#ifndef IOSTATMON_DAEMON_INT_H
#define IOSTATMON_DAEMON_INT_H

#include <limits.h>

#include "daemon.h"
#include "devices.h"
#include "diskstats.h"
#include "dsread.h"
#include "iolog/iolog.h"
#include "logfiles.h"
#include "notify.h"
#include "sampler.h"
#include "tick.h"

struct daemon {
	const struct daemon_opts *o;
	struct dsread ds;
	struct ds_table t;		/* the last read */
	struct dev_set set;		/* decided on a read like t */
	size_t nmon;			/* monitored in set */
	struct iolog_header h;
	struct iolog_writer *w;
	int64_t day;			/* UTC day of the open file */
	char path[PATH_MAX];
	struct sampler *s;
	struct tick tick;
	int sigfd;
	int lockfd;			/* held while running: one daemon per host and dir */
	char lockpath[PATH_MAX];
	struct notify *nfy;
	struct iolog_clock prev;	/* clocks of the last read */
	int have_prev;
	uint32_t pending;		/* flags for the next sample */
	uint64_t samples;		/* aligned samples taken */
	uint64_t synced_ns;		/* CLOCK_MONOTONIC of the last fdatasync */
	int ready;			/* READY=1 sent */
	int read_trouble, write_trouble, rotate_trouble, decide_trouble;
	int lock_trouble;		/* the lock file cannot be retaken */
	int prune_left;			/* files retention left alone: said */
	int bad_lines;			/* the last read had malformed lines */
	int file_trouble;		/* no log open: deleted or refused,
					 * and one cannot be opened yet */
	int lost;			/* some samples could not be kept */
	int fatal;			/* stop: another daemon took the lock */
	int pidfile_written;
	char problem[PATH_MAX + 128];	/* the current episode, for STATUS= */
};

/* Open diskstats, read boot_id, fill the header. 0, or -1 with a message
 * in err. */
int daemon_setup_start(struct daemon *d, char *err, size_t len);
/* With the first read in d->t taken at c: decide the devices, flag c with
 * GAP/NEW_BOOT from the previous run's file, open the day's file (when it
 * cannot be, samples wait in memory: daemon_setup_attach), make the sampler.
 * 0, or -1 (reported). */
int daemon_setup_first(struct daemon *d, struct iolog_clock *c);
/* Finish the file, remove the pidfile, free everything. 0 or -1. */
int daemon_setup_stop(struct daemon *d);
int daemon_setup_pidfile(struct daemon *d, char *err, size_t len);

/* Decide the devices again on d->t (why goes into the log line). */
void daemon_setup_decide(struct daemon *d, const char *why);
/* Move to the file of day when it is not the open one. */
void daemon_setup_rotate(struct daemon *d, int64_t day);
/* SIGHUP: finish the member, open the file again, start a new member. */
void daemon_setup_reopen(struct daemon *d);
/* Leave the file (its member finished) and continue in the one at
 * d->path, the same or a new one. 0; -1 when none can be opened (a link,
 * a FIFO or anything but a regular file there is refused): said once,
 * and samples wait in memory until daemon_logcheck opens one. */
int daemon_setup_attach(struct daemon *d);
/* The sampler starts a member in d->w, with a header of this moment. */
void daemon_setup_new_member(struct daemon *d);
/* Take DIR/.iostatmon-HOST.lock (again: a new lock file when it was
 * deleted) into d->lockfd. 0, or -1 with a message in err and errno
 * (EWOULDBLOCK: another daemon holds it). */
int daemon_setup_lock(struct daemon *d, char *err, size_t len);
/* Say what iolog_writer_open's repaired (1 or 2) means for path. */
void daemon_setup_repaired(const char *path, int repaired, const char *err);

/* Before a sample: when the log (or the lock file) was deleted or replaced,
 * open a new one at its path. 0, or -1 with d->fatal set when the daemon
 * must stop (another daemon took the lock). daemon_logcheck.c. */
int daemon_logcheck(struct daemon *d);
/* After a sample was written: 1 when it is in a file that still has a
 * name; 0 when the file was deleted meanwhile (the sample is lost, said
 * so; a new file is open for the next). */
int daemon_logcheck_after(struct daemon *d);

#endif
