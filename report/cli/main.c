/*
 * iocensus: the analysis front end. See docs/iocensus.1.
 *
 * One table of options serves every command; each command lists the
 * options it takes, so `iocensus cdf --by size` is a usage error naming
 * the command, not a silently ignored flag.
 *
 * Exit status: 0 success; 1 ingest skipped something (damage, unreadable
 * input: everything readable was loaded); 2 usage error (including an
 * unknown snapshot id); 3 fatal (database, output, interrupted ingest);
 * 75 skipped: another run holds the lock (ingest and prune --lock).
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "conf.h"
#include "db.h"
#include "fmt.h"
#include "ingest/ingest.h"
#include "prune/prune.h"
#include "query/query.h"
#include "render/render.h"
#include "runlock.h"
#include "space/space.h"
#include "suggest.h"
#include "traffic/traffic.h"
#include "cli_int.h"
#include "xalloc.h"

static volatile sig_atomic_t stop_flag;

static void
on_signal(int sig)
{
	(void)sig;
	stop_flag = 1;
}

typedef struct result *(*analysis_fn)(sqlite3 *, const struct opts *,
    char *, size_t);

struct command {
	const char *name;
	const char *args;	/* positional arguments, for usage */
	const char *what;
	cli_opts opts;		/* CO_* options it takes */
	int nargs;		/* -1: any number; -2: pairs (none: a window);
				   -3: none or one */
	analysis_fn fn;
};

#define CO_WINDOW (CO_FROM | CO_TO | CO_HOST)
/* Every command but report prints a result: in a format, or one table,
 * of the columns chosen. */
#define CO_PRINT (CO_FORMAT | CO_TABLE | CO_OUT | CO_COLUMNS)

/* report --top's default: a page a reviewer reads, at any census size. */
#define REPORT_TOP 50

static const struct command commands[] = {
	/* With no PATH, ingest only finishes the roll-ups that an
	 * interrupted one left (the analyses' "stale" note asks for it). */
	{ "ingest", "[PATH...]", "load iostatmon logs (files, directories, "
	  "archives)", CO_PRINT | CO_THREADS | CO_PROGRESS | CO_NOW |
	  CO_DBGROUP | CO_LOCK, -1,
	  NULL },
	{ "snapshots", "", "list snapshots", CO_PRINT | CO_FS, 0,
	  space_snapshots },
	/* Opens no database: shows where each would come from. */
	{ "config", "[KEY]", "the configuration in effect: each value and "
	  "its source; KEY (db, logs, metrics): its value alone",
	  CO_FORMAT | CO_TABLE | CO_COLUMNS, -1, NULL },
	{ "forget", "ID...", "remove snapshots, with every row of theirs",
	  CO_PRINT | CO_FORCE, -1, prune_forget },
	{ "prune", "", "remove the snapshots no retention rule keeps",
	  CO_PRINT | CO_FS | CO_PRUNE | CO_LOCK, 0, prune_run },
	{ "diff", "A B ...", "growth between snapshots A and B (more pairs: "
	  "one per file system), or over a window", CO_PRINT | CO_BY |
	  CO_DEPTH | CO_TOP | CO_FROM | CO_TO | CO_QUARTER, -2, space_diff },
	{ "growth", "", "project files, bytes, used space or inodes to a "
	  "target", CO_PRINT | CO_FS | CO_PROJECT | CO_TARGET | CO_METRIC, 0,
	  space_growth },
	{ "capacity", "", "size, use and projected full dates per file "
	  "system and project", CO_PRINT | CO_FS | CO_FROM | CO_TO |
	  CO_QUARTER | CO_TOP, 0, space_capacity },
	{ "cold", "", "files and bytes per project, user or group not read "
	  "(or not modified) in N days", CO_PRINT | CO_FS | CO_FROM | CO_TO |
	  CO_QUARTER | CO_DAYS | CO_METRIC | CO_BY | CO_TOP, 0, space_cold },
	{ "usage", "", "files and bytes per project, user or group",
	  CO_PRINT | CO_FS | CO_BY | CO_TOP, 0, space_usage },
	{ "du", "[PATH]", "directories below PATH by bytes, as du shows a "
	  "tree", CO_PRINT | CO_FS | CO_SNAPSHOT | CO_DEPTH | CO_TOP, -3,
	  space_du },
	{ "files", "", "file size and age distributions and CDFs",
	  CO_PRINT | CO_FS | CO_SNAPSHOT | CO_BY | CO_PROJECT | CO_EXCLUDE, 0,
	  space_files },
	{ "throughput", "", "aggregate read/write throughput over time",
	  CO_PRINT | CO_WINDOW | CO_EVERY | CO_ANNOTATE, 0,
	  traffic_throughput },
	{ "cdf", "", "CDF of one-minute aggregate throughput",
	  CO_PRINT | CO_WINDOW | CO_PEAK, 0, traffic_cdf },
	{ "idle", "", "idle-period table",
	  CO_PRINT | CO_WINDOW | CO_PEAK | CO_THRESHOLD | CO_STRICT |
	  CO_BUCKETS, 0, traffic_idle },
	{ "burst", "", "I/O intensity, burstiness, parallelism; load classes",
	  CO_PRINT | CO_WINDOW | CO_BURST_C | CO_HOST_PEAK, 0, traffic_burst },
	{ "devices", "", "per-device and per-host tables, imbalance",
	  CO_PRINT | CO_WINDOW, 0, traffic_devices },
	{ "health", "", "slow devices and hosts, each against its peers",
	  CO_PRINT | CO_WINDOW | CO_FACTOR, 0, traffic_health },
	/* These write a file format of their own: no --format or --table. */
	{ "metrics", "", "census metrics for Prometheus (node_exporter "
	  "textfile)", CO_OUT | CO_NOW | CO_IFCONF | CO_TOP, 0, NULL },
	{ "report", "", "write the HTML report (and a bundle)",
	  CO_WINDOW | CO_QUARTER | CO_PEAK | CO_THRESHOLD | CO_EVERY |
	  CO_ANNOTATE | CO_BURST_C | CO_HOST_PEAK | CO_TARGET | CO_OUT |
	  CO_BUNDLE | CO_TITLE | CO_NOPATHS | CO_FS | CO_PROJECT |
	  CO_HORIZON | CO_TOP, 0, NULL },
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void
usage(FILE *f)
{
	fputs("usage: iocensus COMMAND [OPTIONS] [ARGS]\n"
	    "Analyse the census database: snapshots from fsscan, I/O samples "
	    "from iostatmon.\n\ncommands:\n", f);
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-11s %-8s %s\n", commands[i].name,
		    commands[i].args, commands[i].what);
	fputs("\n`iocensus COMMAND --help` lists a command's options. Every "
	    "command takes\n--db PATH (default $IOCENSUS_DB, else the db of "
	    CONF_PATH ",\nelse ./iocensus.db); every command but metrics and report takes "
	    "--format\ntable|csv|json and --table KEY. The configuration file "
	    "($" CONF_ENV " names\nanother) also gives ingest its logs, metrics "
	    "its file, prune its rules:\niocensus.conf(5).\n"
	    "Exit status: 0 success; 1 ingest skipped damaged or unreadable "
	    "input;\n2 usage error; 3 fatal error; 75 skipped: another run "
	    "holds the lock (--lock).\n", f);
}

static const struct command *
find_command(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

/* An unknown command: the one meant, if a typo away, else the list. */
static void
unknown_command(const char *name)
{
	const char *names[NCOMMANDS], *meant;

	for (size_t i = 0; i < NCOMMANDS; i++)
		names[i] = commands[i].name;
	meant = suggest_word(name, names, NCOMMANDS);
	fmt_diag(stderr, "iocensus", "unknown command '%s'%s%s%s", name,
	    meant ? "; did you mean '" : "", meant ? meant : "",
	    meant ? "'?" : "");
	if (!meant)
		usage(stderr);
}

static int
check_args(const struct command *c, int nargs)
{
	/* diff with no ids takes a window (space_diff says if none). */
	if (c->nargs == -1 || nargs == c->nargs ||
	    (c->nargs == -2 && nargs % 2 == 0) ||
	    (c->nargs == -3 && nargs <= 1))
		return 0;
	if (c->nargs == -3) {
		cli_diag(c->name, "expected at most one argument: %s",
		    c->args);
		return -1;
	}
	if (c->nargs == -2) {
		cli_diag(c->name, "expected snapshot ids in pairs:"
		    " A B [A2 B2 ...]");
		return -1;
	}
	cli_diag(c->name, "expected %s%s",
	    c->nargs ? "arguments " : "no arguments",
	    c->nargs ? c->args : "");
	return -1;
}

/* --lock: one run at a time, before the database is opened. ingest
 * locks the logs' directory, its first PATH: what two rounds must not do
 * at once is load the same logs, and a scan, which holds the database's
 * directory all night, must not hold up the rounds between. prune locks
 * the database's directory, which the scan holds, and which it creates
 * none of. 0 with *fd the lock (-1 without --lock), or the exit status,
 * reported. */
static int
take_lock(const struct cli *a, int *fd)
{
	int ingest = !strcmp(a->cmd->name, "ingest");
	char err[1024];

	*fd = -1;
	if (!a->lock)
		return 0;
	if (ingest && a->nargs < 1) {
		fprintf(stderr, "iocensus ingest: --lock locks the logs' "
		    "directory: give it as the first PATH\n");
		return CLI_EXIT_USAGE;
	}
	*fd = ingest ? runlock_dir(a->args[0], NULL, a->lock_wait, err,
	    sizeof err) : runlock_dir_of(db_default_path(a->db), NULL,
	    a->lock_wait, err, sizeof err);
	if (*fd >= 0)
		return 0;
	/* The previous round still running is no failure of this one:
	 * --quiet, a scheduled job's, says so by the exit status alone. */
	if (errno == EWOULDBLOCK) {
		if (!a->quiet)
			cli_diag(a->cmd->name, "%s", err);
		return RUNLOCK_BUSY;
	}
	if (ingest && errno == ENOENT && cli_config_is_logs(a->args[0]))
		cli_diag(a->cmd->name, "%s (the logs of %s: start iostatmon "
		    "there, or set logs to where the logs are)", err,
		    conf_get()->path);
	else
		cli_diag(a->cmd->name, "%s", err);
	return CLI_EXIT_FATAL;
}

/* Open the database: ingest creates it; forget and prune write it; every
 * other command needs it, and only reads it (so it may belong to another
 * user). */
static sqlite3 *
open_db(const struct command *c, const struct opts *o, const char *path,
    uint32_t group)
{
	int writes = !strcmp(c->name, "forget") ||
	    (!strcmp(c->name, "prune") && !o->dry_run);

	char err[1024];
	sqlite3 *db;
	int immutable = 0;

	if (strcmp(c->name, "ingest") && access(path, F_OK) < 0) {
		/* A directory this user may not search hides the file: say
		 * so, not that there is none. */
		cli_diag(c->name, "%s: %s (%s)", path, strerror(errno),
		    errno == EACCES ? "the census is for root and the "
		    "database's group: run as one of them" : "create it with "
		    "fsscan or iocensus ingest");
		return NULL;
	}
	db_set_stop_flag(&stop_flag);
	if (!strcmp(c->name, "ingest") || writes)
		db = db_open(path, (gid_t)group, err, sizeof err);
	else
		db = db_open_read(path, &immutable, err, sizeof err);
	if (!db)
		cli_diag(c->name, "%s", err);
	else if (immutable)
		cli_diag(c->name, "note: %s is opened read-only, "
		    "without locking (this user cannot write it or its "
		    "directory): results may be inconsistent while another "
		    "process writes it", path);
	return db;
}

static int
finish_output(const char *cmd)
{
	if (fflush(stdout) == EOF || ferror(stdout)) {
		cli_diag(cmd, "writing the output: %s",
		    strerror(errno));
		return CLI_EXIT_FATAL;
	}
	return 0;
}

/* --table KEY named no table of the result: say which there are. */
static void
no_such_table(const struct cli *a, const struct result *r)
{
	char *list = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&list, &len);

	if (m == NULL) {
		cli_diag(a->cmd->name, "--table %s: no such table", a->table);
		return;
	}
	for (size_t i = 0; i < r->ntable; i++)
		fprintf(m, "%s %s", i ? "," : "", r->table[i].key);
	fclose(m);
	cli_diag(a->cmd->name, "--table %s: no such table; %s has%s",
	    a->table, a->cmd->name, r->ntable ? list : " none");
	free(list);
}

/* What of r is printed (--table, --columns, --wide), and how wide: a
 * file of --out is no terminal, its lines whole. */
static struct render_view
view_of(const struct cli *a, size_t width)
{
	return (struct render_view){ .table = a->table,
	    .cols = a->ncols ? a->cols : NULL, .ncols = a->ncols,
	    .add = a->cols_add, .wide = a->wide, .width = width };
}

/* --out FILE: the output, rendered whole, then written all at once. */
static int
print_to_file(const struct cli *a, sqlite3 *db, struct result *r)
{
	const struct render_view v = view_of(a, 0);
	struct outfile_opts out;
	struct stat st;
	char *text = NULL, err[1024];
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int rc;

	if (!f) {
		cli_diag(a->cmd->name, "out of memory");
		return CLI_EXIT_FATAL;
	}
	render_view(f, r, a->format, &v);
	fclose(f);
	cli_out_opts(db, db_default_path(a->db), 1, &out, &st);
	rc = cli_out_write(&out, a->out, text, len, err, sizeof err);
	free(text);
	if (rc < 0) {
		cli_diag(a->cmd->name, "%s", err);
		return CLI_EXIT_FATAL;
	}
	return 0;
}

/* CSV has no place for a count beside its rows: the rows --top left out
 * are told on stderr, so that standard output stays CSV. */
static void
more_diag(const struct cli *a, const struct result *r)
{
	for (size_t i = 0; a->format == FMT_CSV && i < r->ntable; i++) {
		const struct rtable *t = &r->table[i];

		if (t->more && (!a->table || !strcmp(a->table, t->key)))
			cli_diag(a->cmd->name, "%s: and %zu more (--top 0 "
			    "prints every row)", t->key, t->more);
	}
}

static int
print_result(const struct cli *a, sqlite3 *db, struct result *r)
{
	const struct render_view v = view_of(a,
	    cli_columns_width(STDOUT_FILENO));
	int rc = 0;

	if (a->table && result_table_index(r, a->table) < 0) {
		no_such_table(a, r);
		rc = CLI_EXIT_USAGE;
	} else if (cli_columns_check(a, a->cmd->name, r) < 0)
		rc = CLI_EXIT_USAGE;
	else {
		result_top(r, a->an.top);
		if (a->out)
			rc = print_to_file(a, db, r);
		else
			render_view(stdout, r, a->format, &v);
		if (rc == 0)
			more_diag(a, r);
	}
	result_free(r);
	return rc || a->out ? rc : finish_output(a->cmd->name);
}

static int
run_ingest(struct cli *a, sqlite3 *db)
{
	struct ingest_opts io = {
		.threads = a->threads, .progress = a->progress,
		.now = a->has_now ? a->now : (int64_t)time(NULL),
		.stop = &stop_flag,
	};
	char err[1024];
	int status = 0, rc;
	struct result *r = ingest_run(db, a->args, (size_t)a->nargs, &io,
	    &status, err, sizeof err);

	if (!r) {
		fmt_diag(stderr, "iocensus ingest", "%s: %s",
		    db_default_path(a->db), err);
		return CLI_EXIT_FATAL;
	}
	/* --quiet: the table format names the per-log table instead of
	 * printing it; --table sources, CSV and JSON still give it. */
	if (a->quiet && result_table_index(r, "sources") >= 0)
		r->table[result_table_index(r, "sources")].detail = 1;
	rc = print_result(a, db, r);
	return rc ? rc : status;
}

/* An analysis failed because of the request (FMT_USAGE): say why. 1 if
 * so, 0 if the error is another kind. */
static int
usage_error(const struct cli *a, const char *err)
{
	if (!cli_error_is_usage(err))
		return 0;
	cli_diag(a->cmd->name, "%s",
	    err + strlen(FMT_USAGE));
	return 1;
}

/* A question about the database failed: the request's fault (exit 2),
 * or the database's (exit 3, naming it). */
static int
query_failed(const struct cli *a, const char *err)
{
	if (usage_error(a, err))
		return CLI_EXIT_USAGE;
	cli_diag(a->cmd->name, "%s: %s",
	    db_default_path(a->db), err);
	return CLI_EXIT_FATAL;
}

/* Every --host pattern names a known host (query_hosts_check): before any
 * work, so that the report does not compute its census part first. */
static int
check_hosts(const struct cli *a, sqlite3 *db)
{
	char err[1024];

	if (query_hosts_check(db, &a->an.win, err, sizeof err) == 0)
		return 0;
	return query_failed(a, err);
}

static int
run_report(struct cli *a, sqlite3 *db)
{
	struct report_scope scope = { a->fss, a->nfss, a->projects,
	    a->nprojects, a->horizon };
	struct outfile_opts out;
	struct stat st;
	char err[1024];

	if (!a->out) {
		fmt_diag(stderr, "iocensus report", "--out FILE.html is "
		    "required");
		return CLI_EXIT_USAGE;
	}
	/* A page without paths is made to be shared. */
	cli_out_opts(db, db_default_path(a->db), !a->an.no_paths, &out, &st);
	if (!a->top_given)
		a->an.top = REPORT_TOP;
	if (cli_report_write(db, &a->an, &a->target, &scope, a->title,
	    a->out, a->bundle, &out, err, sizeof err) < 0) {
		if (usage_error(a, err))
			return CLI_EXIT_USAGE;
		fmt_diag(stderr, "iocensus report", "%s", err);
		return CLI_EXIT_FATAL;
	}
	return 0;
}

static int
run_metrics(struct cli *a, sqlite3 *db)
{
	struct outfile_opts out;
	struct stat st;
	char err[1024];

	/* The metrics name file systems and projects, never a path below
	 * them: node_exporter, running as another user, must read them. */
	cli_out_opts(db, db_default_path(a->db), 0, &out, &st);
	if (cli_metrics_write(db, &a->an, a->has_now ? a->now :
	    (int64_t)time(NULL), a->out, &out, err, sizeof err) == 0)
		return 0;
	if (usage_error(a, err))
		return CLI_EXIT_USAGE;
	/* A file the configuration names in a directory not there: most
	 * often node_exporter's, on a host that does not run it. */
	if (errno == ENOENT && a->out)
		fmt_diag(stderr, "iocensus metrics", "%s (make its directory,"
		    " or set metrics in %s to another file, or leave it out)",
		    err, conf_get()->path ? conf_get()->path : CONF_PATH);
	else
		fmt_diag(stderr, "iocensus metrics", "%s", err);
	return CLI_EXIT_FATAL;
}

/* The pairs after the first (diff A B A2 B2 ...), each read as the
 * first one is: ids[2k], ids[2k + 1]. 0 or -1 (reported). */
static int
more_pairs(struct cli *a, int64_t *ids)
{
	struct cli one = *a;

	for (int i = 2; i + 1 < a->nargs; i += 2) {
		one.args = a->args + i;
		one.nargs = 2;
		if (cli_command_args(&one, a->cmd->name) < 0)
			return -1;
		ids[i - 2] = one.an.snap_a;
		ids[i - 1] = one.an.snap_b;
	}
	a->an.pairs = ids;
	a->an.npairs = a->nargs > 2 ? (size_t)(a->nargs - 2) / 2 : 0;
	return 0;
}

static int
run_analysis(struct cli *a, sqlite3 *db)
{
	char err[1024] = "";
	struct result *r = a->cmd->fn(db, &a->an, err, sizeof err);

	return r ? print_result(a, db, r) : query_failed(a, err);
}

static int
run_command(struct cli *a, sqlite3 *db)
{
	char err[1024];
	int rc = check_hosts(a, db);

	if (rc != 0)
		return rc;
	if (cli_config_fs(a, db, err, sizeof err) < 0)
		return query_failed(a, err);
	if (!strcmp(a->cmd->name, "ingest"))
		return run_ingest(a, db);
	if (!strcmp(a->cmd->name, "report"))
		return run_report(a, db);
	if (!strcmp(a->cmd->name, "metrics"))
		return run_metrics(a, db);
	return run_analysis(a, db);
}

int
main(int argc, char **argv)
{
	struct cli a;
	int64_t *pairs;
	sqlite3 *db;
	int rc, lock;

	if (argc < 2) {
		usage(stderr);
		return CLI_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version")) {
		printf("iocensus %s\n", IOCENSUS_VERSION);
		return 0;
	}
	cli_init(&a, find_command(argv[1]));
	if (!a.cmd) {
		unknown_command(argv[1]);
		return CLI_EXIT_USAGE;
	}
	rc = cli_parse(&a, a.cmd->name, a.cmd->args, a.cmd->opts, argc - 1,
	    argv + 1);
	if (rc != 0 || check_args(a.cmd, a.nargs) < 0) {
		cli_free(&a);
		return rc > 0 ? 0 : CLI_EXIT_USAGE;
	}
	pairs = xcalloc((size_t)a.nargs + 1, sizeof *pairs);
	if (cli_command_args(&a, a.cmd->name) < 0 || (a.cmd->nargs == -2 &&
	    more_pairs(&a, pairs) < 0)) {
		free(pairs);
		cli_free(&a);
		return CLI_EXIT_USAGE;
	}
	if (conf_init("iocensus") < 0 || cli_config_defaults(&a, a.cmd->name) <
	    0) {
		free(pairs);
		cli_free(&a);
		return CLI_EXIT_USAGE;
	}
	if (!strcmp(a.cmd->name, "config")) {
		free(pairs);
		rc = a.nargs ? cli_config_value(&a) : print_result(&a, NULL,
		    cli_config(&a));
		cli_free(&a);
		return rc;
	}
	if (a.if_configured && !cli_config_metrics_due(&a)) {
		free(pairs);
		cli_free(&a);
		return 0;
	}
	if ((rc = take_lock(&a, &lock)) != 0) {
		free(pairs);
		cli_free(&a);
		return rc;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	db = open_db(a.cmd, &a.an, db_default_path(a.db), a.db_group);
	if (!db)
		rc = CLI_EXIT_FATAL;
	else {
		rc = run_command(&a, db);
		db_close(db);
	}
	if (lock >= 0)
		close(lock);
	free(pairs);
	cli_free(&a);
	return rc;
}
