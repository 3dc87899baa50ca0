/*
 * fsscan-mpi: the census walk of one tree by many MPI ranks, each with its
 * walker threads, into the same snapshot as fsscan's. See
 * docs/fsscan-mpi.1, and mpi.h for the pieces.
 *
 *	mpirun -np N fsscan-mpi [OPTIONS] ROOT	(or srun)
 *
 * Exit status as fsscan's, the same on every rank: with --lock, rank 0
 * alone takes the lock, and every rank ends with 75 when it cannot.
 */
#include <assert.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db.h"
#include "fmt.h"
#include "mpi.h"
#include "scan/scan.h"

#define PROG "fsscan-mpi"


static volatile sig_atomic_t stop_flag;

static void
on_signal(int sig)
{
	(void)sig;
	stop_flag = 1;
}

/* Rank 0's database, CSV and snapshot row: no other rank's (M4). */
struct out {
	sqlite3 *db;
	struct csv_out csv;
	int64_t id;
};

/* The worst status of all ranks; every rank gets it, without spinning
 * while rank 0 opens or closes the database. */
static int
agree(const struct mpi_job *j, int rc)
{
	MPI_Request req;
	int all;

	MPI_Iallreduce(&rc, &all, 1, MPI_INT, MPI_MAX, j->comm, &req);
	mpi_comm_join(j, &req);
	return all;
}

/* Usage errors are the same on every rank but one: a future --as-of is
 * judged by each node's clock. Rank 0's verdict holds for all, and only
 * rank 0 says it. */
static int
parse(const struct mpi_job *j, int argc, char **argv, struct args *a)
{
	int keep[2] = { -1, -1 }, null, rc;

	if (j->rank != 0 && (null = open("/dev/null", O_WRONLY)) >= 0) {
		fflush(stdout);
		keep[0] = dup(STDOUT_FILENO);
		keep[1] = dup(STDERR_FILENO);
		dup2(null, STDOUT_FILENO);
		dup2(null, STDERR_FILENO);
		close(null);
	}
	rc = args_parse(argc, argv, PROG, a);
	for (int i = 0; i < 2; i++) {
		if (keep[i] >= 0) {
			fflush(i ? stderr : stdout);
			dup2(keep[i], i ? STDERR_FILENO : STDOUT_FILENO);
			close(keep[i]);
		}
	}
	MPI_Bcast(&rc, 1, MPI_INT, 0, j->comm);
	return rc;
}

static int
open_out(struct out *o, const struct args *a, struct scan *s)
{
	char err[1024] = "";

	if (!(o->db = db_open(db_default_path(a->db), (gid_t)a->db_group,
	    err, sizeof err))) {
		fmt_diag(stderr, PROG, "%s", err);
		return EXIT_FATAL;
	}
	db_set_stop_flag(&stop_flag);
	/* Rank 0 walks too, within the same memory as the others: SQLite's
	 * page cache (2 MiB by default) stays at 512 KiB. The rows it writes
	 * go in id order, so the cache holds the pages being filled. */
	if (db_exec(o->db, "PRAGMA cache_size = -512", err, sizeof err) < 0) {
		fmt_diag(stderr, PROG, "%s: %s", db_default_path(a->db), err);
		return EXIT_FATAL;
	}
	if (a->csv && csvout_open(&o->csv, PROG, a->csv, o->db,
	    db_default_path(a->db)) < 0)
		return EXIT_FATAL;
	if (snapshot_begin(o->db, &s->m, &o->id, err, sizeof err) < 0) {
		fmt_diag(stderr, PROG, "%s: %s%s", db_default_path(a->db), err,
		    stop_flag ? " (interrupted while waiting for the lock)" : "");
		return EXIT_FATAL;
	}
	return 0;
}

static void
close_out(struct out *o)
{
	csvout_discard(&o->csv);
	if (o->db)
		db_close(o->db);
}

/* Walk with every rank: ROOT is every rank's first item, each stat'ing
 * its share of ROOT's entries; rank 0 counts ROOT itself, and the others
 * give ROOT a stand-in for rank 0's v_dir node. 0, or -1 when a rank cannot open ROOT. */
static int
walk_all(struct mpi_job *j, struct scan *s, struct walk_result *r)
{
	char err[1024] = "";
	struct walker *g = walk_new(&s->o, err, sizeof err);
	uint64_t dev;

	if (agree(j, g ? 0 : EXIT_FATAL)) {
		if (!g)
			fmt_diag(stderr, PROG, "rank %d: %s", j->rank, err);
		return -1;
	}
	j->root_dev = walk_root_dev(g);
	dev = j->root_dev;
	MPI_Bcast(&dev, 1, MPI_UINT64_T, 0, j->comm);
	j->canon_dev = dev;
	walk_feeder(g, j->bells[j->rank]);
	/* Every rank starts from its share of ROOT's entries. */
	walk_share(g, j->rank, j->n);
	if (j->rank != 0)
		walk_root(g)->acct = walk_stub(g, NULL, 0, 0);
	walk_seed(g);
	MPI_Barrier(j->comm);
	walk_clock_reset(g);
	walk_go(g, mpi_steal_drive, j);
	walk_collect(g, r);
	walk_resolve(r);	/* paths travel between ranks as text */
	return 0;
}

/* Gather each rank's share for scan_rank; rank 0 gets them all. */
static struct rank_stat *
gather_stats(struct mpi_job *j, const struct scan *s,
    const struct walk_result *r)
{
	struct rank_stat *all = NULL;

	j->st.rank = j->rank;
	j->st.threads = r->threads;
	j->st.entries = r->entries;
	j->st.dirs = r->c.dirs;
	j->st.seconds = r->seconds;
	memcpy(j->st.host, s->host, sizeof j->st.host - 1);
	if (j->rank == 0)
		all = calloc((size_t)j->n, sizeof *all);
	MPI_Gather(&j->st, (int)sizeof j->st, MPI_BYTE, all,
	    (int)sizeof j->st, MPI_BYTE, 0, j->comm);
	return all;
}

/* After the walk: hard links, subtree totals and the census across
 * ranks, then rank 0 writes while the others serve their rows. */
static int
finish(struct mpi_job *j, struct scan *s, const struct args *a,
    struct out *o, struct walk_result *r)
{
	struct rank_stat *ranks = gather_stats(j, s, r);
	struct dir_source src;
	struct snap_parts parts = { .dirs = &src, .ranks = ranks,
	    .nranks = j->n };
	struct mpi_rows *rows;
	uint64_t *counts, entries = r->entries;
	int rc = 0, stop = r->interrupted;

	MPI_Allreduce(&stop, &r->interrupted, 1, MPI_INT, MPI_MAX, j->comm);
	mpi_links(j, r, &s->o);
	counts = mpi_dirs_rollup(j, r);
	mpi_census_reduce(j, &r->c, s->rules);
	MPI_Reduce(&entries, &r->entries, 1, MPI_UINT64_T, MPI_SUM, 0,
	    j->comm);
	if (j->rank != 0) {
		mpi_rows_serve(j, r);
		return 0;
	}
	topn_sort(&r->c.top_files);
	topn_sort(&r->c.top_dirs);
	rows = mpi_rows_new(j, r, counts, &src);
	rc = scan_record(s, a, o->db, o->id, &o->csv, r, &parts);
	mpi_rows_end(rows);
	if (a->verbose || a->progress)
		scan_summary(s, o->id, r, r->entries, rc);
	free(counts);
	free(ranks);
	return rc;
}

static int
run(struct mpi_job *j, struct args *a, char *cmdline, int share)
{
	struct scan s;
	struct out o = { 0 };
	struct walk_result r;
	struct sigaction sa = { .sa_handler = on_signal };
	MPI_Request req;
	int rc, lock = -1;

	/* Rank 0 opens the database, and so locks its directory: before
	 * any rank does any work. */
	if ((rc = agree(j, j->rank == 0 ? args_lock(a, PROG, &lock) : 0)))
		goto unlock;
	rc = agree(j, scan_setup(&s, a, PROG, cmdline, share, &stop_flag));
	if (rc) {
		if (s.rules)
			scan_free(&s);
		goto unlock;
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* The job's rate is shared by the ranks; rank 0 shows progress. */
	if (s.o.max_rate)
		s.o.max_rate = (s.o.max_rate + (uint64_t)j->n - 1) / (uint64_t)j->n;
	j->progress = s.o.progress;
	MPI_Bcast(&j->progress, 1, MPI_INT, 0, j->comm);
	s.o.progress = j->rank == 0 && j->progress;
	/* The snapshot's threads: all ranks' walker threads. */
	MPI_Allreduce(&s.o.threads, &s.m.threads, 1, MPI_INT, MPI_SUM, j->comm);
	if ((rc = agree(j, j->rank == 0 ? open_out(&o, a, &s) : 0)) != 0)
		goto out;
	if (walk_all(j, &s, &r) < 0) {
		if (j->rank == 0)
			snapshot_fail(o.db, o.id);
		rc = EXIT_FATAL;
		goto out;
	}
	rc = finish(j, &s, a, &o, &r);
	walk_result_free(&r);
out:
	/* M4: no other rank has opened the database or the CSV */
	assert(j->rank == 0 || (o.db == NULL && !o.csv.open));
	close_out(&o);
	scan_free(&s);
	MPI_Ibcast(&rc, 1, MPI_INT, 0, j->comm, &req);
	mpi_comm_join(j, &req);
unlock:
	if (lock >= 0)
		close(lock);
	return rc;
}

int
main(int argc, char **argv)
{
	struct mpi_job j = { 0 };
	struct args a = { 0 };
	char *cmdline;
	int provided, rc, share;

	MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
	if (provided < MPI_THREAD_FUNNELED)
		mpi_comm_fail("MPI", "this MPI library cannot run threads");
	MPI_Comm_dup(MPI_COMM_WORLD, &j.comm);
	MPI_Comm_rank(j.comm, &j.rank);
	MPI_Comm_size(j.comm, &j.n);
	j.seed = (unsigned)j.rank * 2654435761u + 12345;
	rc = parse(&j, argc, argv, &a);
	if (rc == 0) {
		cmdline = args_command_line(argc, argv);
		share = mpi_node_open(&j);
		rc = run(&j, &a, cmdline, share);
		mpi_node_close(&j);
		free(cmdline);
	} else {
		rc = rc > 0 ? 0 : EXIT_USAGE;
	}
	MPI_Comm_free(&j.comm);
	MPI_Finalize();
	return rc;
}
