/*
 * pidfile: the daemon's pidfile (pidfile.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fmt.h"
#include "outfile.h"
#include "pidfile.h"
#include "safedir.h"
#include "safefile.h"

/* What the file holds: "PID\n". */
static int
pid_text(char *buf, size_t len)
{
	return snprintf(buf, len, "%ld\n", (long)getpid());
}

int
pidfile_write(const char *path, char *err, size_t len)
{
	/* outfile makes the file no more readable than this one: 0644 and
	 * our group, whatever the umask lets more */
	struct stat like = { .st_mode = S_IFREG | 0644, .st_gid = getegid() };
	struct outfile_opts opts = { &like, NULL };
	char text[32], why[PATH_MAX + 256];
	struct outfile o;
	int n = pid_text(text, sizeof text);

	if (outfile_open(&o, path, &opts, why, sizeof why) < 0 ||
	    outfile_write(&o, text, (size_t)n, why, sizeof why) < 0 ||
	    outfile_commit(&o, why, sizeof why) < 0) {
		snprintf(err, len, "--pidfile %s", why);
		return -1;
	}
	return 0;
}

void
pidfile_remove(const char *path)
{
	char want[32], got[32], err[PATH_MAX + 256];
	int n = pid_text(want, sizeof want), fd;
	struct safedir d;
	ssize_t r = -1;

	if (safedir_open(&d, path, NULL, err, sizeof err) < 0) {
		fmt_diag(stderr, "iostatmon", "cannot remove pidfile: %s", err);
		return;
	}
	fd = safefile_openat(d.fd, d.name, path, O_RDONLY, 0, err, sizeof err);
	if (fd >= 0) {
		r = read(fd, got, sizeof got);
		close(fd);
	}
	if (fd < 0)
		fmt_diag(stderr, "iostatmon", "pidfile not removed: %s", err);
	else if (r != n || memcmp(got, want, (size_t)n) != 0)
		fmt_diag(stderr, "iostatmon", "%s: no longer holds this "
		    "process's id; left as it is", path);
	else if (unlinkat(d.fd, d.name, 0) < 0)
		fmt_diag(stderr, "iostatmon", "%s: cannot remove pidfile: %s",
		    path, strerror(errno));
	safedir_close(&d);
}
