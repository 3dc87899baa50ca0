/*
 * notify: sd_notify(3) by hand. One datagram per message from the main
 * process (systemd checks the sender's credentials, NotifyAccess=main).
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "fmt.h"
#include "notify.h"
#include "xalloc.h"

struct notify {
	int fd;
	struct sockaddr_un addr;
	socklen_t addrlen;
	uint64_t watchdog_usec;
};

/* $WATCHDOG_USEC if meant for us (sd_watchdog_enabled(3): WATCHDOG_PID). */
static uint64_t
watchdog_from_env(void)
{
	const char *us = getenv("WATCHDOG_USEC"), *pid = getenv("WATCHDOG_PID");
	char *end;
	unsigned long long v;

	if (us == NULL || *us == '\0')
		return 0;
	if (pid != NULL && *pid != '\0' &&
	    strtoll(pid, NULL, 10) != (long long)getpid())
		return 0;
	errno = 0;
	v = strtoull(us, &end, 10);
	if (errno || *end != '\0')
		return 0;
	return v;
}

struct notify *
notify_open(void)
{
	const char *path = getenv("NOTIFY_SOCKET");
	struct notify *n;
	size_t len;

	if (path == NULL || *path == '\0')
		return NULL;
	len = strlen(path);
	if ((path[0] != '/' && path[0] != '@') ||
	    len >= sizeof n->addr.sun_path) {
		fmt_diag(stderr, "iostatmon", "NOTIFY_SOCKET=%s: not an "
		    "absolute path or @abstract name that fits sun_path; not "
		    "notifying", path);
		return NULL;
	}
	n = xcalloc(1, sizeof *n);
	n->addr.sun_family = AF_UNIX;
	memcpy(n->addr.sun_path, path, len);
	if (path[0] == '@')
		n->addr.sun_path[0] = '\0';	/* abstract namespace */
	n->addrlen = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + len +
	    (path[0] == '/'));
	n->watchdog_usec = watchdog_from_env();
	n->fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (n->fd < 0) {
		fmt_diag(stderr, "iostatmon", "NOTIFY_SOCKET %s: socket: %s; "
		    "not notifying", path, strerror(errno));
		free(n);
		return NULL;
	}
	return n;
}

void
notify_close(struct notify *n)
{
	if (n == NULL)
		return;
	close(n->fd);
	free(n);
}

int
notify_send(struct notify *n, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	int len;

	if (n == NULL)
		return 0;
	va_start(ap, fmt);
	len = vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (len < 0)
		return -1;
	if ((size_t)len >= sizeof msg)
		len = sizeof msg - 1;
	if (sendto(n->fd, msg, (size_t)len, MSG_NOSIGNAL,
	    (struct sockaddr *)&n->addr, n->addrlen) < 0)
		return -1;
	return 0;
}

uint64_t
notify_watchdog_usec(const struct notify *n)
{
	return n ? n->watchdog_usec : 0;
}
