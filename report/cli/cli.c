/*
 * cli: option parsing for every iocensus command (cli.h).
 */
#include <assert.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "argval.h"
#include "cli_int.h"
#include "conf.h"
#include "epoch.h"
#include "idname.h"
#include "runlock.h"
#include "query/query.h"
#include "suggest.h"
#include "xalloc.h"

/* 2^40 MiB/s is an exbibyte per second: anything above is a typo. The
 * bound also keeps the exact compares of traffic/traffic_peak.c in 128 bits. */
#define MAX_PEAK_MIB_S 1099511627776ull	/* 2^40 */
/* prune --keep-*: a million days is 2,700 years, past every time kept. */
#define MAX_KEEP 1000000
/* A century: further out, a projection says nothing. */
#define HORIZON_MAX_DAYS 36500
/* --top: more rows than any census holds names. */
#define TOP_MAX 1000000000

enum { O_DB = 256, O_FORMAT, O_TABLE, O_FROM, O_TO, O_HOST, O_EVERY,
	O_ANNOTATE, O_PEAK, O_THRESHOLD, O_STRICT, O_BUCKETS, O_BURST_C,
	O_HOST_PEAK, O_BY, O_DEPTH, O_FS, O_PROJECT, O_TARGET, O_METRIC,
	O_SNAPSHOT, O_EXCLUDE, O_THREADS, O_PROGRESS, O_QUIET, O_OUT,
	O_BUNDLE, O_QUARTER, O_TITLE, O_NOW, O_DBGROUP, O_NOPATHS, O_DAYS,
	O_COLUMNS, O_WIDE, O_FACTOR, O_HORIZON, O_HELP, O_KEEP_DAILY,
	O_KEEP_WEEKLY, O_KEEP_MONTHLY, O_KEEP_QUARTERLY, O_DRY_RUN, O_FORCE,
	O_LOCK, O_LOCK_WAIT, O_IFCONF, O_TOP };

struct optdoc {
	struct option opt;
	cli_opts mask;		/* 0: every command */
	const char *arg, *help;
};

/* --help of a command describes its own options only: an option that
 * commands read each their own way has a line here for each, which
 * --help shows instead of the option table's. */
static const struct cmdhelp {
	int val;
	const char *cmd, *arg, *help;
} cmdhelps[] = {
	{ O_BY, "diff", "KEY", "group by project, user, group or dir "
	  "(default project)" },
	{ O_BY, "files", "KEY", "distribution by size, atime, mtime or ctime "
	  "(default size)" },
	{ O_BY, "usage", "KEY", "rows per project, user or group (default "
	  "project)" },
	{ O_BY, "cold", "KEY", "rows per project, user or group (default "
	  "project)" },
	{ O_METRIC, "growth", "METRIC", "files, bytes, alloc, used or inodes "
	  "(default files)" },
	{ O_METRIC, "cold", "METRIC", "atime or mtime (default atime)" },
	{ O_DAYS, "cold", "N", "only this threshold, one that fsscan --cold "
	  "recorded (default: each)" },
	{ O_FS, "growth", "NAME", "file system, or all for their total" },
	{ O_DEPTH, "du", "N", "levels of directories below PATH (default 1;"
	  " at most what fsscan --dirs kept)" },
	{ O_FS, "du", "NAME", "file system (default: the only one)" },
	{ O_TOP, "du", "N", "the N largest directories, then how many more"
	  " (default 0: all)" },
	{ O_FS, "report", "NAME", "only this file system (repeatable)" },
	{ O_PROJECT, "report", "NAME", "only this project (repeatable)" },
	{ O_FS, "snapshots", "NAME", "only this file system's snapshots (a "
	  "recorded name or root)" },
	{ O_FS, "prune", "NAME", "only this file system's snapshots "
	  "(default: every file system's)" },
	{ O_OUT, "report", "FILE", "the HTML page, replaced atomically; no "
	  "more readable than the database, unless --no-paths" },
	{ O_OUT, "metrics", "FILE", "write to FILE, replaced atomically, "
	  "instead of standard output; readable by others (node_exporter)" },
	{ O_LOCK, "ingest", NULL, "one round at a time: lock the logs' "
	  "directory, the first PATH; exit 75 at once if another holds it" },
	{ O_LOCK_WAIT, "ingest", "SECONDS", "as --lock, waiting up to "
	  "SECONDS (at most 2592000) for the other round to end first" },
	{ O_TOP, "report", "N", "the first N rows of each list of projects, "
	  "users or groups, then how many more (default 50; 0: all)" },
	{ O_TOP, "metrics", "N", "per file system, the series of the N "
	  "projects with the most bytes; the rest summed as project "
	  "\"other\" (default: metrics-top of the configuration, else 0: "
	  "all)" },
	{ O_NOW, "metrics", "TIME", "the time the metrics are made "
	  "(iocensus_metrics_generated_timestamp_seconds; default: now)" },
};
#define NCMDHELPS (sizeof cmdhelps / sizeof cmdhelps[0])

static const struct optdoc optdocs[] = {
	{ { "db", 1, NULL, O_DB }, 0, "PATH",
	  "census database (default $IOCENSUS_DB, else ./iocensus.db)" },
	{ { "format", 1, NULL, O_FORMAT }, CO_FORMAT, "FMT", "table, csv or "
	  "json (default table)" },
	{ { "table", 1, NULL, O_TABLE }, CO_TABLE, "KEY",
	  "print only this table" },
	{ { "columns", 1, NULL, O_COLUMNS }, CO_COLUMNS, "LIST",
	  "print these columns (keys, comma-separated; +LIST: the default "
	  "and these)" },
	{ { "wide", 0, NULL, O_WIDE }, CO_COLUMNS, NULL,
	  "table: every column, lines whole (default on a terminal: what "
	  "fits)" },
	{ { "from", 1, NULL, O_FROM }, CO_FROM, "TIME",
	  "window start, UTC (2010-02-01, 2010-02-01T09:00, unix seconds;"
	  " years 0 to 9999)" },
	{ { "to", 1, NULL, O_TO }, CO_TO, "TIME", "window end (exclusive)" },
	{ { "quarter", 1, NULL, O_QUARTER }, CO_QUARTER, "YYYYQn",
	  "the window of a quarter: 2027Q1 is --from 2027-01-01 --to "
	  "2027-04-01" },
	{ { "host", 1, NULL, O_HOST }, CO_HOST, "GLOB",
	  "only these servers (repeatable)" },
	{ { "every", 1, NULL, O_EVERY }, CO_EVERY, "1m|1h|1d",
	  "bucket width (default 1h)" },
	{ { "annotate", 1, NULL, O_ANNOTATE }, CO_ANNOTATE, "FILE",
	  "maintenance windows, lines \"FROM TO LABEL\": tabled and "
	  "shaded" },
	{ { "peak", 1, NULL, O_PEAK }, CO_PEAK, "MIB_S",
	  "provisioned aggregate bandwidth (default: observed peak)" },
	{ { "threshold", 1, NULL, O_THRESHOLD }, CO_THRESHOLD, "PCT",
	  "idle below PCT % of peak (default 5)" },
	{ { "strict", 0, NULL, O_STRICT }, CO_STRICT, NULL,
	  "idle means no request completed on any device" },
	{ { "buckets", 1, NULL, O_BUCKETS }, CO_BUCKETS, "LIST",
	  "idle duration classes (default 1m,10m,1h,2h,4h,8h,24h)" },
	{ { "burst-c", 1, NULL, O_BURST_C }, CO_BURST_C, "LIST",
	  "activity thresholds per minute (default 0,128K,1M)" },
	{ { "host-peak", 1, NULL, O_HOST_PEAK }, CO_HOST_PEAK, "MIB_S",
	  "per-server peak for load classes (default: observed)" },
	{ { "factor", 1, NULL, O_FACTOR }, CO_FACTOR, "K",
	  "slow above K times the peers' median (default 3; above 1, at "
	  "most 1000)" },
	{ { "by", 1, NULL, O_BY }, CO_BY, "KEY",
	  "diff: project|user|group|dir; files: size|atime|mtime|ctime;"
	  " usage, cold: project|user|group" },
	{ { "depth", 1, NULL, O_DEPTH }, CO_DEPTH, "N",
	  "with --by dir: directory depth (default 1)" },
	{ { "fs", 1, NULL, O_FS }, CO_FS, "NAME", "only this file system" },
	{ { "project", 1, NULL, O_PROJECT }, CO_PROJECT, "NAME",
	  "only this project" },
	{ { "horizon", 1, NULL, O_HORIZON }, CO_HORIZON, "DAYS",
	  "the red list holds the projects that reach their limit"
	  " before the window's end plus DAYS (default 90)" },
	{ { "target", 1, NULL, O_TARGET }, CO_TARGET, "N|SIZE|PCT%",
	  "growth target: a count (1e9, 2M), a size (50TiB, 50TB) or a "
	  "share of capacity (80%)" },
	{ { "metric", 1, NULL, O_METRIC }, CO_METRIC, "METRIC",
	  "what to measure" },
	{ { "days", 1, NULL, O_DAYS }, CO_DAYS, "N",
	  "only this threshold in days" },
	{ { "snapshot", 1, NULL, O_SNAPSHOT }, CO_SNAPSHOT, "ID",
	  "snapshot (default: the latest complete one)" },
	{ { "exclude-project", 1, NULL, O_EXCLUDE }, CO_EXCLUDE, "NAME",
	  "leave this project out (repeatable)" },
	{ { "threads", 1, NULL, O_THREADS }, CO_THREADS, "N",
	  "log decoding threads (default: CPUs)" },
	{ { "now", 1, NULL, O_NOW }, CO_NOW, "TIME",
	  "the ingest's time: samples before 2003 or more than a day "
	  "after it are quarantined (default: now)" },
	{ { "progress", 0, NULL, O_PROGRESS }, CO_PROGRESS, NULL,
	  "progress line on stderr (default: when a TTY)" },
	{ { "quiet", 0, NULL, O_QUIET }, CO_PROGRESS, NULL,
	  "no progress line, and no row per log (the totals only)" },
	{ { "db-group", 1, NULL, O_DBGROUP }, CO_DBGROUP, "GROUP",
	  "group of a new database and its directories (mode 0640 and "
	  "0750; default: this user's)" },
	{ { "out", 1, NULL, O_OUT }, CO_OUT, "FILE", "write to FILE, "
	  "replaced atomically, instead of standard output; no more "
	  "readable than the database" },
	{ { "no-paths", 0, NULL, O_NOPATHS }, CO_NOPATHS, NULL,
	  "a page to share: no path below the file systems' roots and no "
	  "file name (totals, projects, users and groups stay)" },
	{ { "bundle", 1, NULL, O_BUNDLE }, CO_BUNDLE, "FILE.tar.gz",
	  "also write the CSV and JSON of every table" },
	{ { "title", 1, NULL, O_TITLE }, CO_TITLE, "TEXT",
	  "the page's heading (default: iocensus report)" },
	{ { "keep-daily", 1, NULL, O_KEEP_DAILY }, CO_PRUNE, "N",
	  "keep the newest complete snapshot of each of the N latest UTC "
	  "days that have one (default 0)" },
	{ { "keep-weekly", 1, NULL, O_KEEP_WEEKLY }, CO_PRUNE, "N",
	  "... of the N latest ISO weeks (default 0)" },
	{ { "keep-monthly", 1, NULL, O_KEEP_MONTHLY }, CO_PRUNE, "N",
	  "... of the N latest calendar months (default 0)" },
	{ { "keep-quarterly", 1, NULL, O_KEEP_QUARTERLY }, CO_PRUNE, "N",
	  "... of the N latest calendar quarters (default 0)" },
	{ { "dry-run", 0, NULL, O_DRY_RUN }, CO_PRUNE, NULL,
	  "say what would be removed and why each kept one is kept; "
	  "remove nothing" },
	{ { "force", 0, NULL, O_FORCE }, CO_FORCE, NULL,
	  "remove a running snapshot too: one whose scan is gone (killed, "
	  "or its host rebooted)" },
	{ { "lock", 0, NULL, O_LOCK }, CO_LOCK, NULL,
	  "one run at a time: lock the database's directory; exit 75 at "
	  "once if another run (a scan) holds it" },
	{ { "lock-wait", 1, NULL, O_LOCK_WAIT }, CO_LOCK, "SECONDS",
	  "as --lock, waiting up to SECONDS (at most 2592000) for the "
	  "other run to end first" },
	{ { "if-configured", 0, NULL, O_IFCONF }, CO_IFCONF, NULL,
	  "a scheduled job's refresh: write the configuration's metrics "
	  "file; do nothing when it names none or no database exists yet" },
	{ { "top", 1, NULL, O_TOP }, CO_TOP, "N",
	  "the first N rows of each list of names, then how many more "
	  "(default 0: all)" },
	{ { "help", 0, NULL, O_HELP }, 0, NULL, "this help" },
};
#define NOPTS (sizeof optdocs / sizeof optdocs[0])

/* The short forms of long options. */
static const struct {
	char c;
	int val;
} shortopts[] = { { 'h', O_HELP }, { 'j', O_THREADS },
    { 'o', O_COLUMNS } };
#define NSHORT (sizeof shortopts / sizeof shortopts[0])

/* The short form of a long option, or 0. */
static char
short_of(int val)
{
	for (size_t i = 0; i < NSHORT; i++)
		if (shortopts[i].val == val)
			return shortopts[i].c;
	return 0;
}

void
cli_init(struct cli *a, const struct command *cmd)
{
	assert(a != NULL);	/* cmd: NULL for a name no command has */
	memset(a, 0, sizeof *a);
	a->cmd = cmd;
	a->format = FMT_TABLE;
	a->progress = isatty(STDERR_FILENO);
	a->db_group = (uint32_t)-1;
	a->horizon = 90;
	opts_init(&a->an);
}

/* The value and help of option d for the command name. */
static void
doc_for(const struct optdoc *d, const char *name, const char **arg,
    const char **text)
{
	*arg = d->arg;
	*text = d->help;
	for (size_t i = 0; i < NCMDHELPS; i++)
		if (cmdhelps[i].val == d->opt.val &&
		    !strcmp(cmdhelps[i].cmd, name)) {
			*arg = cmdhelps[i].arg;
			*text = cmdhelps[i].help;
		}
}

static void
help(FILE *f, const char *name, const char *argspec, cli_opts allowed)
{
	fprintf(f, "usage: iocensus %s [OPTIONS]%s%s\n\n", name,
	    *argspec ? " " : "", argspec);
	for (size_t i = 0; i < NOPTS; i++) {
		const struct optdoc *d = &optdocs[i];
		char lhs[64], c = short_of(d->opt.val);
		const char *arg, *text;

		if (d->mask && !(d->mask & allowed))
			continue;
		doc_for(d, name, &arg, &text);
		/* "-j, --threads N", "    --db PATH" */
		snprintf(lhs, sizeof lhs, "%c%c%s--%s%s%s", c ? '-' : ' ',
		    c ? c : ' ', c ? ", " : "  ", d->opt.name,
		    arg ? " " : "", arg ? arg : "");
		fprintf(f, "  %-30s %s\n", lhs, text);
	}
}

static int
bad(const char *name, const char *opt, const char *val, const char *want)
{
	cli_diag(name, "--%s %s: expected %s", opt, val,
	    want);
	return -1;
}

static int
set_every(struct cli *a, const char *name, const char *v)
{
	int64_t s;

	if (cli_value_duration(v, &s) < 0 || (s != 60 && s != 3600 &&
	    s != 86400))
		return bad(name, "every", v, "1m, 1h or 1d");
	a->an.every = s;
	return 0;
}

/* A snapshot id: a positive decimal integer, nothing else. */
static int
parse_id(const char *s, int64_t *out)
{
	char *end;
	long long v;

	if (*s < '1' || *s > '9')
		return -1;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

static int
add_list(const char **list, size_t *n, const char *v)
{
	if (*n >= CLI_MAX_LIST)
		return -1;
	list[(*n)++] = v;
	return 0;
}

static int
set_annotations(struct cli *a, const char *name, const char *path)
{
	char err[512];

	opts_annotations_free(a->ann, a->nann);
	a->ann = NULL;
	a->nann = 0;
	if (cli_annotate_load(path, &a->ann, &a->nann, err, sizeof err) < 0) {
		cli_diag(name, "--annotate: %s", err);
		return -1;
	}
	a->an.ann = a->ann;
	a->an.nann = a->nann;
	return 0;
}

/* --quarter YYYYQn: [first day of the quarter, first day of the next),
 * both times of lib/epoch.h: 9999Q4 would end in the year 10000. */
static int
set_quarter(struct cli *a, const char *name, const char *v)
{
	static const char *const start[] = { "01-01", "04-01", "07-01",
	    "10-01" };
	char from[16], to[16];
	int y, q;

	if (strlen(v) != 6 || sscanf(v, "%4dQ%1d", &y, &q) != 2 || q < 1 ||
	    q > 4 || y < 0 || y > 9999 || strspn(v, "0123456789") != 4)
		return bad(name, "quarter", v, "a quarter: YYYYQ1 to YYYYQ4");
	snprintf(from, sizeof from, "%04d-%s", y, start[q - 1]);
	snprintf(to, sizeof to, "%04d-%s", q == 4 ? y + 1 : y, start[q % 4]);
	if (epoch_parse(from, &a->an.win.from) < 0 ||
	    epoch_parse(to, &a->an.win.to) < 0)
		return bad(name, "quarter", v, "a quarter that ends in the"
		    " years 0 to 9999: 0000Q1 to 9999Q3");
	a->an.win.has_from = a->an.win.has_to = 1;
	a->quarter = 1;
	return 0;
}

/* The value options of the I/O analyses. 0, or -1 (reported). */
static int
set_io(struct cli *a, const char *name, int o, const char *v)
{
	int n;
	struct xdec x;

	switch (o) {
	case O_FROM:
		a->window = a->an.win.has_from = 1;
		return epoch_parse(v, &a->an.win.from) < 0 ?
		    bad(name, "from", v, EPOCH_SYNTAX) : 0;
	case O_TO:
		a->window = a->an.win.has_to = 1;
		return epoch_parse(v, &a->an.win.to) < 0 ?
		    bad(name, "to", v, EPOCH_SYNTAX) : 0;
	case O_QUARTER:
		return set_quarter(a, name, v);
	case O_HOST:
		return add_list(a->hosts, &a->an.win.nhosts, v) < 0 ?
		    bad(name, "host", v, "at most 64 patterns") : 0;
	case O_EVERY:
		return set_every(a, name, v);
	case O_PEAK:
	case O_HOST_PEAK:
		if (opts_xdec_parse(v, &x) < 0 || x.n == 0 ||
		    x.n > MAX_PEAK_MIB_S * opts_xdec_pow10(x.k))
			return bad(name, o == O_PEAK ? "peak" : "host-peak", v,
			    "a bandwidth in MiB/s above 0 and at most 2^40, "
			    "at most 6 decimals");
		*(o == O_PEAK ? &a->an.peak : &a->an.host_peak) = x;
		return 0;
	case O_THRESHOLD:
		if (opts_xdec_parse(v, &x) < 0 || x.n == 0 ||
		    x.n > 100 * opts_xdec_pow10(x.k))
			return bad(name, "threshold", v, "a percentage in "
			    "(0, 100], at most 6 decimals");
		a->an.threshold_pct = x;
		return 0;
	case O_BUCKETS:
		n = cli_value_durations(v, a->edges, CLI_MAX_LIST);
		if (n < 1 || a->edges[0] <= 0)
			return bad(name, "buckets", v, "ascending durations "
			    "above 0");
		for (int i = 1; i < n; i++)
			if (a->edges[i] <= a->edges[i - 1])
				return bad(name, "buckets", v,
				    "ascending durations");
		a->an.idle_edges = a->edges;
		a->an.nidle_edges = (size_t)n;
		return 0;
	case O_BURST_C:
		n = cli_value_sizes(v, a->burst_c, CLI_MAX_LIST);
		if (n < 1)
			return bad(name, "burst-c", v, "a list of sizes");
		a->an.burst_c = a->burst_c;
		a->an.nburst_c = (size_t)n;
		return 0;
	case O_ANNOTATE:
		return set_annotations(a, name, v);
	case O_FACTOR:
		if (opts_xdec_parse(v, &x) < 0 || x.n <= opts_xdec_pow10(x.k) ||
		    x.n > 1000 * opts_xdec_pow10(x.k))
			return bad(name, "factor", v, "a factor above 1 and at "
			    "most 1000, at most 6 decimals");
		a->an.factor = x;
		return 0;
	}
	return 1;
}

/* prune's rules: --keep-daily N ... and --dry-run. */
static int
set_prune(struct cli *a, const char *name, int o, const char *v)
{
	static const struct {
		int o;
		enum opts_period p;
		const char *name;
	} rule[] = { { O_KEEP_DAILY, OPTS_DAY, "keep-daily" },
	    { O_KEEP_WEEKLY, OPTS_WEEK, "keep-weekly" },
	    { O_KEEP_MONTHLY, OPTS_MONTH, "keep-monthly" },
	    { O_KEEP_QUARTERLY, OPTS_QUARTER, "keep-quarterly" } };
	uint64_t n;

	if (o == O_DRY_RUN) {
		a->an.dry_run = 1;
		return 0;
	}
	if (o == O_FORCE) {
		a->an.force = 1;
		return 0;
	}
	for (size_t i = 0; i < sizeof rule / sizeof rule[0]; i++) {
		if (rule[i].o != o)
			continue;
		if (argval_u64(v, MAX_KEEP, &n) < 0)
			return bad(name, rule[i].name, v, "a whole number "
			    "from 0 to 1000000");
		a->an.keep[rule[i].p] = (uint32_t)n;
		a->an.keep_given = 1;
		return 0;
	}
	return 1;
}

int
cli_prune_conf(struct cli *a, const struct conf *c)
{
	static const int opt[CONF_NPRUNE] = { O_KEEP_DAILY, O_KEEP_WEEKLY,
	    O_KEEP_MONTHLY, O_KEEP_QUARTERLY };
	const int given = a->an.keep_given;
	char name[4200];

	for (size_t i = 0; !given && i < CONF_NPRUNE; i++) {
		if (!c->prune[i].v)
			continue;
		/* "iocensus prune: FILE:LINE: --keep-daily x: expected" */
		snprintf(name, sizeof name, "prune: %s:%d", c->path,
		    c->prune[i].line);
		if (set_prune(a, name, opt[i], c->prune[i].v) < 0)
			return -1;
	}
	return 0;
}

static int set_other(struct cli *a, const char *name, int o,
    const char *v);

int
cli_top_conf(struct cli *a, const struct conf *c)
{
	char name[4200];

	if (a->top_given || !c->top[CONF_METRICS_TOP].v)
		return 0;
	/* "iocensus metrics: FILE:LINE: --top x: expected" */
	snprintf(name, sizeof name, "metrics: %s:%d", c->path,
	    c->top[CONF_METRICS_TOP].line);
	return set_other(a, name, O_TOP, c->top[CONF_METRICS_TOP].v);
}

/* The options of the census analyses, ingest and report. */
static int
set_other(struct cli *a, const char *name, int o, const char *v)
{
	struct units_value u;
	uint64_t u64;
	double d;
	int64_t id;

	switch (o) {
	case O_BY:
		a->an.by = v;
		return 0;
	case O_TOP:
		if (argval_u64(v, TOP_MAX, &u64) < 0)
			return bad(name, "top", v, "a count of rows from 0 to"
			    " 1000000000");
		a->an.top = (size_t)u64;
		a->top_given = 1;
		return 0;
	case O_DEPTH:
		if (cli_value_count(v, &d) < 0 || d < 1 || d > 1000 ||
		    d != (int)d)
			return bad(name, "depth", v, "a depth from 1 to 1000");
		a->an.dir_depth = (int)d;
		return 0;
	case O_FS:
		a->an.fs = v;
		return add_list(a->fss, &a->nfss, v) < 0 ?
		    bad(name, "fs", v, "at most 64") : 0;
	case O_PROJECT:
		a->an.project = v;
		return add_list(a->projects, &a->nprojects, v) < 0 ?
		    bad(name, "project", v, "at most 64") : 0;
	case O_HORIZON:
		if (argval_u64(v, HORIZON_MAX_DAYS, &u64) < 0)
			return bad(name, "horizon", v, "a whole number of days"
			    " from 0 to 36500");
		a->horizon = (int64_t)u64;
		return 0;
	case O_TARGET:
		if (units_parse(v, &u) < 0 || !(u.v > 0) ||
		    (u.kind == UNITS_PERCENT && u.v > 1))
			return bad(name, "target", v, "a count (1e9, 2M), a size"
			    " (50TiB, 50TB) or a percentage in (0%, 100%]");
		a->an.target = a->target = (struct opts_target){ 1, u.kind,
		    u.v };
		return 0;
	case O_METRIC:
		if (!strcmp(name, "cold")) {
			if (strcmp(v, "atime") && strcmp(v, "mtime"))
				return bad(name, "metric", v, "atime or mtime");
			a->an.age = v;
			return 0;
		}
		if (opts_metric_parse(v, &a->an.metric) < 0)
			return bad(name, "metric", v, "files, bytes, alloc, used"
			    " or inodes");
		return 0;
	case O_DAYS:
		if (argval_u64(v, INT32_MAX, &u64) < 0 || u64 == 0)
			return bad(name, "days", v, "a whole number of days from"
			    " 1 to 2147483647");
		a->an.days = (int64_t)u64;
		return 0;
	case O_SNAPSHOT:
		if (parse_id(v, &id) < 0)
			return bad(name, "snapshot", v, "a snapshot id");
		a->an.snapshot = id;
		return 0;
	case O_EXCLUDE:
		return add_list(a->excludes, &a->an.nexclude, v) < 0 ?
		    bad(name, "exclude-project", v, "at most 64") : 0;
	case O_THREADS:
		if (cli_value_count(v, &d) < 0 || d < 1 || d > 256 ||
		    d != (int)d)
			return bad(name, "threads", v, "1 to 256");
		a->threads = (int)d;
		return 0;
	case O_OUT:
		a->out = v;
		return 0;
	case O_NOW:
		if (epoch_parse(v, &a->now) < 0)
			return bad(name, "now", v, EPOCH_SYNTAX);
		a->has_now = 1;
		return 0;
	case O_BUNDLE:
		a->bundle = v;
		return 0;
	case O_DBGROUP:
		if (idname_gid(v, &a->db_group) < 0)
			return bad(name, "db-group", v, "a group name or id");
		return 0;
	case O_NOPATHS:
		a->an.no_paths = 1;
		return 0;
	case O_LOCK:
		a->lock = 1;
		return 0;
	case O_LOCK_WAIT:
		if (argval_u64(v, RUNLOCK_WAIT_MAX, &u64) < 0)
			return bad(name, "lock-wait", v, "a whole number of "
			    "seconds from 0 to 2592000");
		a->lock = 1;
		a->lock_wait = (unsigned)u64;
		return 0;
	case O_TITLE:
		a->title = v;
		return 0;
	case O_IFCONF:
		a->if_configured = 1;
		return 0;
	}
	return 1;
}

static int
set_common(struct cli *a, const char *name, int o, const char *v)
{
	switch (o) {
	case O_DB:
		a->db = v;
		return 0;
	case O_FORMAT:
		if (fmt_parse_kind(v, &a->format) < 0)
			return bad(name, "format", v, "table, csv or json");
		return 0;
	case O_TABLE:
		a->table = v;
		return 0;
	case O_COLUMNS:
		return cli_columns_parse(a, name, v);
	case O_WIDE:
		a->wide = 1;
		return 0;
	case O_STRICT:
		a->an.strict = 1;
		return 0;
	case O_PROGRESS:
	case O_QUIET:
		a->progress = o == O_PROGRESS;
		a->quiet = o == O_QUIET;
		return 0;
	}
	return 1;
}

/* The option getopt_long returned: a long option's val or a short
 * option's letter. */
static const struct optdoc *
doc_of(int val)
{
	for (size_t i = 0; i < NSHORT; i++)
		if (shortopts[i].c == val)
			val = shortopts[i].val;
	for (size_t i = 0; i < NOPTS; i++)
		if (optdocs[i].opt.val == val)
			return &optdocs[i];
	return NULL;
}

/* ":hj:" from the tables: the leading ':' tells a missing value from an
 * unknown option. */
static void
short_string(char *buf)
{
	size_t n = 0;

	buf[n++] = ':';
	for (size_t i = 0; i < NSHORT; i++) {
		buf[n++] = shortopts[i].c;
		if (doc_of(shortopts[i].val)->opt.has_arg)
			buf[n++] = ':';
	}
	buf[n] = '\0';
}

/* The long options this command takes, ending in a zero entry: what a
 * typo is suggested from (cand holds NOPTS + 1). */
static void
allowed_options(struct option *cand, cli_opts allowed)
{
	size_t n = 0;

	for (size_t i = 0; i < NOPTS; i++)
		if (!optdocs[i].mask || (optdocs[i].mask & allowed))
			cand[n++] = optdocs[i].opt;
	memset(&cand[n], 0, sizeof cand[n]);
}

/* What getopt_long rejected (opterr is 0: every message is ours). c is
 * '?' (unknown, ambiguous, or a value given to a flag) or ':' (no value
 * for an option that needs one); arg is the word of argv it read; all is
 * the table it read against. */
static int
getopt_error(const char *name, int c, const char *arg, cli_opts allowed,
    const struct option *all)
{
	const struct optdoc *d = optopt ? doc_of(optopt) : NULL;
	struct option cand[NOPTS + 1];
	char msg[512];

	if (c == ':' && d)
		cli_diag(name, "--%s needs a value (%s)",
		    d->opt.name, d->arg);
	else if (d && d->opt.val == optopt)
		cli_diag(name, "--%s takes no value",
		    d->opt.name);
	else if (optopt)
		cli_diag(name, "unknown option '-%c'",
		    optopt);
	else {
		allowed_options(cand, allowed);
		suggest_option(msg, sizeof msg, arg, all, cand);
		cli_diag(name, "%s", msg);
	}
	cli_diag(name, "`iocensus %s --help` lists its "
	    "options", name);
	return -1;
}

/* An empty value names nothing: --project '' (an unset variable) would
 * otherwise match nothing, or everything. Only a title may be empty. */
static int
empty_value(const char *name, const struct optdoc *d, const char *v)
{
	if (!d->opt.has_arg || !v || *v || d->opt.val == O_TITLE)
		return 0;
	fprintf(stderr, "iocensus %s: --%s '': expected %s, not an empty "
	    "value\n", name, d->opt.name, d->arg);
	return 1;
}

int
cli_parse(struct cli *a, const char *name, const char *argspec,
    cli_opts allowed, int argc, char **argv)
{
	struct option longopts[NOPTS + 1];
	char shorts[2 * NSHORT + 2];
	int c, rc;

	assert(a != NULL && name != NULL && argc >= 0);
	assert(argv != NULL || argc == 0);
	for (size_t i = 0; i < NOPTS; i++)
		longopts[i] = optdocs[i].opt;
	memset(&longopts[NOPTS], 0, sizeof longopts[NOPTS]);
	short_string(shorts);
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, shorts, longopts, NULL)) != -1) {
		const struct optdoc *d = doc_of(c);

		if (c == '?' || c == ':')
			return getopt_error(name, c, argv[optind - 1], allowed,
			    longopts);
		if (d->opt.val == O_HELP) {
			help(stdout, name, argspec, allowed);
			return 1;
		}
		if (d->mask && !(d->mask & allowed)) {
			cli_diag(name, "--%s does not apply "
			    "to this command", d->opt.name);
			return -1;
		}
		if (empty_value(name, d, optarg))
			return -1;
		rc = set_common(a, name, d->opt.val, optarg);
		if (rc == 1)
			rc = set_io(a, name, d->opt.val, optarg);
		if (rc == 1)
			rc = set_other(a, name, d->opt.val, optarg);
		if (rc == 1)
			rc = set_prune(a, name, d->opt.val, optarg);
		if (rc < 0)
			return -1;
	}
	a->an.win.hosts = a->hosts;
	a->an.exclude = a->excludes;
	if (a->quarter && a->window) {
		cli_diag(name, "--quarter is a window of its own:"
		    " give it or --from/--to, not both");
		return -1;
	}
	if (a->an.win.has_from && a->an.win.has_to &&
	    a->an.win.to <= a->an.win.from) {
		cli_diag(name, "--to must be after --from");
		return -1;
	}
	a->args = argv + optind;
	a->nargs = argc - optind;
	return 0;
}

/* forget ID...: at least one, each a snapshot id. */
static int
forget_args(struct cli *a)
{
	if (a->nargs == 0) {
		cli_diag("forget", "expected snapshot ids: "
		    "ID...");
		return -1;
	}
	a->ids = xcalloc((size_t)a->nargs, sizeof *a->ids);
	for (int i = 0; i < a->nargs; i++)
		if (parse_id(a->args[i], &a->ids[i]) < 0) {
			cli_diag("forget", "%s: expected a "
			    "snapshot id", a->args[i]);
			return -1;
		}
	a->an.ids = a->ids;
	a->an.nids = (size_t)a->nargs;
	return 0;
}

int
cli_command_args(struct cli *a, const char *name)
{
	assert(a != NULL && name != NULL);
	assert(a->args != NULL || a->nargs == 0);
	if (!strcmp(name, "forget"))
		return forget_args(a);
	if (!strcmp(name, "du")) {
		a->an.path = a->nargs ? a->args[0] : NULL;
		return 0;
	}
	if (strcmp(name, "diff"))
		return 0;
	for (int i = 0; i < 2 && i < a->nargs; i++) {
		int64_t id;

		if (parse_id(a->args[i], &id) < 0) {
			cli_diag("diff", "%s: expected a "
			    "snapshot id", a->args[i]);
			return -1;
		}
		*(i ? &a->an.snap_b : &a->an.snap_a) = id;
	}
	return 0;
}

int
cli_error_is_usage(const char *err)
{
	assert(err != NULL);
	return !strncmp(err, FMT_USAGE, strlen(FMT_USAGE));
}

void
cli_free(struct cli *a)
{
	assert(a != NULL);
	free(a->cols_buf);
	a->cols_buf = NULL;
	opts_annotations_free(a->ann, a->nann);
	a->ann = NULL;
	a->nann = 0;
	free(a->ids);
	a->ids = NULL;
	query_census_names_free(a->fs_found, a->nfs_found);
	a->fs_found = NULL;
	a->nfs_found = 0;
}

