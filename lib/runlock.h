/*
 * runlock: one run at a time of a scheduled job. The lock is an exclusive
 * flock(2) on a directory the job already names (the database's, the
 * logs'), on a descriptor the program holds until it exits: no lock file
 * is made, so none can be a link another user planted, and the directory
 * is reached through lib/safedir, so that no other user's link is
 * followed and nothing is created or changed on the way but what make
 * asks for. Anyone who may read the directory may hold its lock: keep it
 * private (the database's is made 0750).
 */
#ifndef IOCENSUS_RUNLOCK_H
#define IOCENSUS_RUNLOCK_H

#include <stddef.h>

#include "safedir.h"

/* The exit status of a run that found the lock held: EX_TEMPFAIL of
 * sysexits(3), as flock(1) -E 75 gave it. */
#define RUNLOCK_BUSY		75
/* --lock-wait's bound, in seconds: 30 days. */
#define RUNLOCK_WAIT_MAX	2592000

/* Lock the directory dir, each component walked as safedir_dir does
 * (make: the missing ones made as it says; NULL makes none), waiting up
 * to wait seconds while another process holds the lock (0: not at all).
 * The descriptor that holds the lock, or -1 with err and errno
 * (EWOULDBLOCK: another run held it throughout). */
int runlock_dir(const char *dir, const struct safedir_make *make,
    unsigned wait, char *err, size_t errlen);
/* The same for the directory that holds the file path (the database's
 * directory: the file itself need not exist). */
int runlock_dir_of(const char *path, const struct safedir_make *make,
    unsigned wait, char *err, size_t errlen);

#endif
