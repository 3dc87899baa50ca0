/*
 * notify: the systemd Type=notify protocol without libsystemd (sd_notify(3):
 * the protocol is stable and documented there). Messages are newline-separated KEY=VALUE datagrams sent to the
 * AF_UNIX socket named by $NOTIFY_SOCKET (a path, or "@name" for the
 * abstract namespace). Without $NOTIFY_SOCKET every call does nothing.
 */
#ifndef IOSTATMON_NOTIFY_H
#define IOSTATMON_NOTIFY_H

#include <stdint.h>

struct notify;

/* Read the environment. Returns NULL (notifications off) when
 * NOTIFY_SOCKET is unset or unusable; a bad value is reported on stderr. */
struct notify *notify_open(void);
void notify_close(struct notify *n);

/* Send one message (printf format). 0, or -1 with errno. */
int notify_send(struct notify *n, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* $WATCHDOG_USEC when it applies to this process ($WATCHDOG_PID unset or
 * ours), else 0. Works without NOTIFY_SOCKET too (returns 0 then). */
uint64_t notify_watchdog_usec(const struct notify *n);

#endif
