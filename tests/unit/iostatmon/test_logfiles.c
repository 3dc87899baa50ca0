/*
 * test_logfiles: daily file names, the UTC day of a sample, the log
 * directory made one level through safedir, and retention deleting only
 * what it verifies as this host's logs: not a file that only has the
 * name, not a link (nor its target), not a FIFO (without waiting on it),
 * not another host's log, not a file of two names. Dates computed by
 * hand; what is left is seen with lstat.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "iolog/iolog.h"
#include "logfiles.h"
#include "scratch.h"
#include "tap.h"

#define NS 1000000000ULL
#define NOBODY 65534

static void
touch(const char *name)
{
	scratch_put(name, "");
}

/* A real log of host, with boot_id boot: what the daemon writes first. */
static void
real_log(const char *name, const char *host, const char *boot)
{
	struct iolog_header h = { .long_bits = 64, .interval_ms = 60000 };
	char err[512];
	struct iolog_writer *w;

	snprintf(h.host, sizeof h.host, "%s", host);
	snprintf(h.boot_id, sizeof h.boot_id, "%s", boot);
	snprintf(h.writer, sizeof h.writer, "test_logfiles");
	w = iolog_writer_open(scratch_at(name), NULL, err, sizeof err);
	if (w == NULL || iolog_write_header(w, &h) < 0 ||
	    iolog_writer_close(w) < 0)
		printf("# %s: cannot write a log: %s\n", name, err);
}

static off_t
size_of(const char *name)
{
	struct stat st;

	return lstat(scratch_at(name), &st) == 0 ? st.st_size : -1;
}

static void
test_names(void)
{
	char path[512];

	/* 2026-11-21 00:00:00 UTC = 1795219200 = day 20778. */
	is_i64(logfiles_day(1795219200ULL * NS), 20778,
	    "midnight is day 20778");
	is_i64(logfiles_day(1795219200ULL * NS - 1), 20777,
	    "one ns before midnight is the day before");
	is_i64(logfiles_day((1795219200ULL + 86399) * NS + 999999999), 20778,
	    "23:59:59.999999999 is the same day");
	logfiles_path(path, sizeof path, "/var/log/iostatmon", "db1", 20778);
	is_str(path, "/var/log/iostatmon/iostatmon-db1-20261121.iolog.gz",
	    "file name of 2026-11-21");
	logfiles_path(path, sizeof path, "d", "a/b c", 0);
	is_str(path, "d/iostatmon-a_b_c-19700101.iolog.gz",
	    "host sanitised; day 0 is 1970-01-01");
	logfiles_path(path, sizeof path, "d", "h", 11016);
	is_str(path, "d/iostatmon-h-20000229.iolog.gz", "leap day 2000-02-29");
	ok(logfiles_path(path, 20, "/a/long/directory", "h", 1) < 0,
	    "too long for the buffer: -1");
}

/* One level, never through another user's link. */
static void
test_mkdir(void)
{
	char err[512];
	struct stat st;

	is_i64(logfiles_mkdir(scratch_at("made"), err, sizeof err), 1,
	    "mkdir: a missing directory is made");
	ok(stat(scratch_at("made"), &st) == 0 && S_ISDIR(st.st_mode),
	    "mkdir: it is a directory");
	is_i64(logfiles_mkdir(scratch_at("made/"), err, sizeof err), 0,
	    "mkdir: there already (trailing slash): 0");
	is_i64(logfiles_mkdir(scratch_at("gone/log"), err, sizeof err), -1,
	    "mkdir: one level only: a missing parent is not made");
	ok(!scratch_exists("gone"), "mkdir: the missing parent is not made");
	if (geteuid() != 0) {
		tap_skip("planting it needs chown", "root",
		    "mkdir: another user's link (3 checks)");
		return;
	}
	mkdir(scratch_at("victim"), 0755);
	if (symlink(scratch_at("victim"), scratch_at("theirs")) < 0 ||
	    lchown(scratch_at("theirs"), NOBODY, NOBODY) < 0)
		printf("# cannot plant theirs: %s\n", strerror(errno));
	is_i64(logfiles_mkdir(scratch_at("theirs/log"), err, sizeof err), -1,
	    "mkdir: through a link of uid %d: refused", NOBODY);
	ok(strstr(err, "owned by uid 65534") != NULL,
	    "mkdir: the message names the link's owner: %s", err);
	ok(!scratch_exists("victim/log"),
	    "mkdir: nothing made at the link's target");
}

static void
test_prune(void)
{
	struct logfile_pruned p;
	char boot[64];

	real_log("iostatmon-h-20261020.iolog.gz", "h", "b1");	/* day 20746 */
	real_log("iostatmon-h-20261021.iolog.gz", "h", "b1");	/* day 20747 */
	real_log("iostatmon-h-20261121.iolog.gz", "h", "b2");
	real_log("iostatmon-hh-20261020.iolog.gz", "hh", "b1");
	touch("iostatmon-h-2026102.iolog.gz");		/* not the pattern */
	touch("iostatmon-h-20261020.iolog.gz.1");
	touch("iostatmon-h-20261320.iolog.gz");		/* month 13 */
	/* named like expired logs of h, and not */
	scratch_put("iostatmon-h-20261019.iolog.gz", "keep\n");
	mkdir(scratch_at("elsewhere"), 0755);
	real_log("elsewhere/real.iolog.gz", "h", "b1");
	if (symlink(scratch_at("elsewhere/real.iolog.gz"),
	    scratch_at("iostatmon-h-20261018.iolog.gz")) < 0)
		printf("# symlink: %s\n", strerror(errno));
	real_log("iostatmon-h-20261017.iolog.gz", "other", "b1");
	if (mkfifo(scratch_at("iostatmon-h-20261016.iolog.gz"), 0644) < 0)
		printf("# mkfifo: %s\n", strerror(errno));
	touch("iostatmon-h-20261015.iolog.gz");
	real_log("iostatmon-h-20261014.iolog.gz", "h", "b1");
	if (link(scratch_at("iostatmon-h-20261014.iolog.gz"),
	    scratch_at("second-name")) < 0)
		printf("# link: %s\n", strerror(errno));

	is_i64(logfiles_newest(scratch_dir, "h", 20778), 20778,
	    "newest: today");
	is_i64(logfiles_newest(scratch_dir, "h", 20777), 20747,
	    "newest up to yesterday: 2026-10-21");
	is_i64(logfiles_newest(scratch_dir, "nobody", 20778), -1,
	    "newest: none");
	logfiles_prune(scratch_dir, "h", 20778, 0, &p);
	ok(p.deleted == 0 && p.left == 0, "retain 0 keeps all, checks none");
	/* retain 31: days before 20778 - 31 = 20747 go. */
	logfiles_prune(scratch_dir, "h", 20778, 31, &p);
	is_i64(p.deleted, 1, "retain 31: one deleted");
	is_i64(p.left, 6, "retain 31: six left alone, not verified");
	ok(p.first[0] != '\0', "retain 31: the first says why: %s", p.first);
	ok(!scratch_exists("iostatmon-h-20261020.iolog.gz"),
	    "32 days old log of h: deleted");
	ok(scratch_exists("iostatmon-h-20261021.iolog.gz"),
	    "31 days old: kept");
	ok(scratch_exists("iostatmon-h-20261121.iolog.gz"), "today: kept");
	ok(scratch_exists("iostatmon-hh-20261020.iolog.gz"),
	    "other host: kept");
	ok(scratch_exists("iostatmon-h-2026102.iolog.gz"), "short name: kept");
	ok(scratch_exists("iostatmon-h-20261020.iolog.gz.1"),
	    "suffixed name: kept");
	ok(scratch_exists("iostatmon-h-20261320.iolog.gz"), "bad date: kept");
	is_i64(size_of("iostatmon-h-20261019.iolog.gz"), 5,
	    "a file holding \"keep\" named like an old log: kept whole");
	ok(scratch_exists("iostatmon-h-20261018.iolog.gz"),
	    "a link named like an old log: kept");
	ok(scratch_exists("elsewhere/real.iolog.gz") &&
	    size_of("elsewhere/real.iolog.gz") > 0,
	    "the link's target, a real log of h: kept");
	ok(scratch_exists("iostatmon-h-20261017.iolog.gz"),
	    "an old log whose header names another host: kept");
	ok(scratch_exists("iostatmon-h-20261016.iolog.gz"),
	    "a FIFO named like an old log: kept (and not waited on)");
	ok(scratch_exists("iostatmon-h-20261015.iolog.gz"),
	    "an empty file named like an old log: kept");
	ok(scratch_exists("iostatmon-h-20261014.iolog.gz"),
	    "an old log of h with a second name: kept");
	logfiles_prune(scratch_dir, "h", 20778, 31, &p);
	ok(p.deleted == 0 && p.left == 6,
	    "retain again: nothing more deleted, the same six left");

	logfiles_last_boot(scratch_at("iostatmon-h-20261121.iolog.gz"), boot,
	    sizeof boot);
	is_str(boot, "b2", "last boot of a log");
	logfiles_last_boot(scratch_at("iostatmon-h-20261018.iolog.gz"), boot,
	    sizeof boot);
	is_str(boot, "", "last boot: a link is not followed");
	logfiles_last_boot(scratch_at("iostatmon-h-20261016.iolog.gz"), boot,
	    sizeof boot);
	is_str(boot, "", "last boot: a FIFO is not waited on");
}

/* The header names the host exactly, not as file names spell it. */
static void
test_prune_host(void)
{
	struct logfile_pruned p;

	real_log("iostatmon-a_b-20261020.iolog.gz", "a/b", "b1");
	real_log("iostatmon-a_b-20261019.iolog.gz", "a_b", "b1");
	logfiles_prune(scratch_dir, "a/b", 20778, 31, &p);
	ok(p.deleted == 1 && !scratch_exists("iostatmon-a_b-20261020.iolog.gz"),
	    "host a/b: its old log (file name a_b) deleted");
	ok(p.left == 1 && scratch_exists("iostatmon-a_b-20261019.iolog.gz"),
	    "host a/b: the old log of host a_b, of the same file name, kept");
}

int
main(void)
{
	test_names();
	scratch_make("test_logfiles");
	test_mkdir();
	test_prune();
	test_prune_host();
	scratch_remove();
	return tap_end();
}
