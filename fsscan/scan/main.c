/*
 * fsscan: parallel file-system census. See docs/fsscan.1.
 *
 * Exit status: 0 complete; 1 complete, but some entries could not be read;
 * 2 usage error; 3 aborted or fatal (the snapshot is recorded as
 * incomplete, or not at all); 75 skipped, another run holding the lock
 * (--lock).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db.h"
#include "fmt.h"
#include "scan.h"

static volatile sig_atomic_t stop_flag;

static void
on_signal(int sig)
{
	(void)sig;
	stop_flag = 1;
}

static int
scan(struct args *a, char *cmdline)
{
	struct scan s;
	struct walk_result r;
	struct sigaction sa = { .sa_handler = on_signal };
	struct csv_out csv = { 0 };
	struct rank_stat rs = { .rank = 0 };
	struct snap_parts parts = { .ranks = &rs, .nranks = 1 };
	char err[1024] = "";
	sqlite3 *db;
	int64_t id;
	int rc, lock;

	/* A root that is not there fails before the lock makes the
	 * database's directory. Before any work: a run that waited starts
	 * its clock after. */
	if (scan_check_root("fsscan", a->root, &s.st) < 0)
		return EXIT_USAGE;
	if ((rc = args_lock(a, "fsscan", &lock)) != 0)
		return rc;
	if ((rc = scan_setup(&s, a, "fsscan", cmdline, 1, &stop_flag)) != 0)
		goto unlock;
	if (!(db = db_open(db_default_path(a->db), (gid_t)a->db_group, err,
	    sizeof err))) {
		fmt_diag(stderr, "fsscan", "%s", err);
		scan_free(&s);
		rc = EXIT_FATAL;
		goto unlock;
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	db_set_stop_flag(&stop_flag);

	if (a->csv && csvout_open(&csv, "fsscan", a->csv, db,
	    db_default_path(a->db)) < 0) {
		rc = EXIT_FATAL;
		goto out;
	}
	if (snapshot_begin(db, &s.m, &id, err, sizeof err) < 0) {
		fmt_diag(stderr, "fsscan", "%s: %s%s", db_default_path(a->db),
		    err,
		    stop_flag ? " (interrupted while waiting for the lock)" : "");
		rc = EXIT_FATAL;
		goto out;
	}
	if (walk_run(&s.o, &r, err, sizeof err) < 0) {
		fmt_diag(stderr, "fsscan", "%s", err);
		snapshot_fail(db, id);
		rc = EXIT_FATAL;
		goto out;
	}
	rs.threads = r.threads;
	rs.entries = r.entries;
	rs.dirs = r.c.dirs;
	rs.seconds = r.seconds;
	memcpy(rs.host, s.host, sizeof rs.host - 1);	/* NUL-terminated */
	rc = scan_record(&s, a, db, id, &csv, &r, &parts);
	if (a->verbose || a->progress)
		scan_summary(&s, id, &r, r.entries, rc);
	walk_result_free(&r);
out:
	csvout_discard(&csv);
	db_close(db);
	scan_free(&s);
unlock:
	if (lock >= 0)
		close(lock);
	return rc;
}

int
main(int argc, char **argv)
{
	struct args a = { 0 };
	char *cmdline;
	int rc;

	rc = args_parse(argc, argv, "fsscan", &a);
	if (rc != 0)
		return rc > 0 ? 0 : EXIT_USAGE;
	cmdline = args_command_line(argc, argv);
	rc = scan(&a, cmdline);
	free(cmdline);
	return rc;
}
