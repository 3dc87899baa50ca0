/*
 * args: the command line of fsscan and fsscan-mpi, which take the same
 * options (docs/fsscan.1).
 */
#include <assert.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "argval.h"
#include "db.h"
#include "dbfile.h"
#include "conf.h"
#include "epoch.h"
#include "fmt.h"
#include "human.h"
#include "idname.h"
#include "runlock.h"
#include "scan.h"
#include "suggest.h"
#include "xalloc.h"

void
args_usage(FILE *f, const char *prog)
{
	assert(f != NULL && prog != NULL);
	fprintf(f,
"usage: %s [OPTIONS] ROOT\n"
"       %s [OPTIONS] --fs NAME\n"
"Walk ROOT in parallel and record a census snapshot in the database.\n"
"A file system of the configuration file (" CONF_PATH ",\n"
"or $" CONF_ENV ") gives its root, rules, limits, cold, dirs and max-rate;\n"
"options given here win (iocensus.conf(5)).\n"
"\n"
"  --db PATH             census database (default $IOCENSUS_DB, else the\n"
"                        configuration's db, else ./iocensus.db)\n"
"  --db-group GROUP      group of a new database and its directories, which\n"
"                        are made mode 0640 and 0750 (default: this user's)\n"
"  --fs NAME             file-system name for the snapshot (default: the\n"
"                        configured one whose root is ROOT, else ROOT);\n"
"                        without ROOT, the configured file system NAME\n"
"  -j, --threads N       walker threads, 1 to 1024, fixed (default: start from\n"
"                        CPUs and fs type, add while they wait on the disk)\n"
"  --project RULE        projid | depth:N | map:FILE | gidmap:FILE | group | user;\n"
"                        repeatable, first match wins (default depth:1)\n"
"  --now TIME            reference time for ages (default: scan start)\n"
"  --as-of TIME          date a scan of a file-system snapshot: the snapshot's\n"
"                        time and the age reference (capacity is not read)\n"
"                        TIME: unix seconds or a UTC date (2010-02-01,\n"
"                        2010-02-01T09:00), in the years 0 to 9999\n"
"  --limits FILE         CSV project,bytes,inodes: each project's limit\n"
"  --cold DAYS[,DAYS...] count the files not read (atime) and not modified\n"
"                        (mtime) in DAYS days, per project: 1 to 8\n"
"                        thresholds, ascending, of 1 to 3652425 days\n"
"                        (default 30,90,180,365)\n"
"  --dirs DEPTH|all      subtree totals down to DEPTH (default 3)\n"
"  --fsstats-csv FILE    also write the fsstats 1.4.5 CSV\n"
"  --exclude GLOB        skip entries whose name matches (repeatable)\n"
"  --cross-mounts        descend into other file systems\n"
"  --max-fds N           directory fds held open at once, 1 to 1048576\n"
"                        (default 1024)\n"
"  --max-rate N          at most N stat calls per second (default 0:\n"
"                        unlimited)\n"
"  --top N               largest files and directories to keep, 0 to 100000\n"
"                        (default 20)\n"
"  --symlink-targets     read symlink targets for the relative/absolute split\n"
"                        (readlink updates the link's atime)\n"
"  --stat-cached         accept cached attributes (AT_STATX_DONT_SYNC): one\n"
"                        round trip less per entry on NFS, FUSE, Lustre\n"
"  --lock                one run at a time: lock the database's directory for\n"
"                        the whole run; exit 75 at once if another run holds it\n"
"  --lock-wait SECONDS   as --lock, waiting up to SECONDS (at most 2592000)\n"
"                        for the other run to end first\n"
"  --progress, --quiet   progress line on stderr (default: when it is a TTY);\n"
"                        --quiet also skips silently when the lock is held\n"
"  -v, --verbose         print a summary when done\n"
"  -h, --help            this help\n"
"  -V, --version         version\n"
"\n"
"Exit status: 0 complete, 1 complete with unreadable entries, 2 usage error,\n"
"3 aborted or fatal, 75 skipped: another run holds the lock (--lock).\n", prog, prog);
}

/* A refused value: the option, the value and what it takes. */
static int
bad_value(const char *prog, const char *opt, const char *val,
    const char *want)
{
	fmt_diag(stderr, prog, "%s '%s': expected %s", opt, val, want);
	return -1;
}

/* A whole number of an option, min to max (argval.h: digits only). */
static int
number(const char *prog, const char *opt, const char *val, uint64_t min,
    uint64_t max, uint64_t *v)
{
	char want[96];

	if (argval_u64(val, max, v) == 0 && *v >= min)
		return 0;
	snprintf(want, sizeof want, "a whole number from %llu to %llu",
	    (unsigned long long)min, (unsigned long long)max);
	return bad_value(prog, opt, val, want);
}

enum { O_DB = 256, O_FS, O_PROJECT, O_NOW, O_DIRS, O_CSV, O_EXCLUDE, O_CROSS,
    O_MAXFDS, O_MAXRATE, O_TOP, O_PROGRESS, O_QUIET, O_LINKS, O_CACHED,
    O_ASOF, O_LIMITS, O_DBGROUP, O_COLD, O_LOCK, O_LOCK_WAIT };

static const struct option longopts[] = {
	{ "db", required_argument, NULL, O_DB },
	{ "db-group", required_argument, NULL, O_DBGROUP },
	{ "fs", required_argument, NULL, O_FS },
	{ "threads", required_argument, NULL, 'j' },
	{ "project", required_argument, NULL, O_PROJECT },
	{ "now", required_argument, NULL, O_NOW },
	{ "as-of", required_argument, NULL, O_ASOF },
	{ "limits", required_argument, NULL, O_LIMITS },
	{ "cold", required_argument, NULL, O_COLD },
	{ "dirs", required_argument, NULL, O_DIRS },
	{ "fsstats-csv", required_argument, NULL, O_CSV },
	{ "exclude", required_argument, NULL, O_EXCLUDE },
	{ "cross-mounts", no_argument, NULL, O_CROSS },
	{ "max-fds", required_argument, NULL, O_MAXFDS },
	{ "max-rate", required_argument, NULL, O_MAXRATE },
	{ "top", required_argument, NULL, O_TOP },
	{ "symlink-targets", no_argument, NULL, O_LINKS },
	{ "stat-cached", no_argument, NULL, O_CACHED },
	{ "lock", no_argument, NULL, O_LOCK },
	{ "lock-wait", required_argument, NULL, O_LOCK_WAIT },
	{ "progress", no_argument, NULL, O_PROGRESS },
	{ "quiet", no_argument, NULL, O_QUIET },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

/* --as-of dates the past: a future time is a mistake, and --now would
 * contradict it (it is the age reference too). */
static int
check_as_of(const char *prog, const struct args *a)
{
	if (!a->have_as_of)
		return 0;
	if (a->have_now) {
		fmt_diag(stderr, prog, "--as-of is also the reference time for"
		    " ages: give --as-of or --now, not both");
		return -1;
	}
	if (a->as_of > (int64_t)time(NULL)) {
		char when[32];

		fmt_diag(stderr, prog, "--as-of %s UTC is in the future: it "
		    "dates a file-system snapshot already taken",
		    human_date(a->as_of, 1, when, sizeof when));
		return -1;
	}
	return 0;
}

/* --now or --as-of: a time of lib/epoch.h. */
static int
set_time(const char *prog, const char *opt, const char *val, int64_t *t,
    int *have)
{
	if (epoch_parse(val, t) < 0)
		return bad_value(prog, opt, val, EPOCH_SYNTAX);
	*have = 1;
	return 0;
}

/* --cold DAYS[,DAYS...]: whole numbers of days, ascending without a
 * repeat (each threshold is a row of v_cold: two equal ones, or an order
 * the table would not keep, are mistakes), at most ACCOUNT_COLD_MAX of
 * them, each of 1 to ACCOUNT_COLD_DAYS_MAX days (walk.h). */
static int
set_cold(struct args *a, const char *prog, const char *val)
{
	char want[160];
	const char *p = val;
	uint64_t d;
	int n = 0;

	snprintf(want, sizeof want, "1 to %d whole numbers of days, ascending,"
	    " each from 1 to %d, separated by commas (30,90,180,365)",
	    ACCOUNT_COLD_MAX, ACCOUNT_COLD_DAYS_MAX);
	for (;;) {
		if (n == ACCOUNT_COLD_MAX || !(p = argval_digits(p, &d)) ||
		    d < 1 || d > ACCOUNT_COLD_DAYS_MAX ||
		    (n > 0 && d <= a->cold[n - 1]))
			return bad_value(prog, "--cold", val, want);
		a->cold[n++] = (uint32_t)d;
		if (*p == '\0')
			break;
		if (*p++ != ',')
			return bad_value(prog, "--cold", val, want);
	}
	a->ncold = n;
	return 0;
}

/* One option that takes a value; 0, or -1 (reported; 1 for an option
 * that takes none, which getopt never hands here). */
static int
set_value(struct args *a, const char *prog, int c, const char *val)
{
	uint64_t v;

	a->given |= c == O_COLD ? ARGS_GIVEN_COLD : c == O_DIRS ?
	    ARGS_GIVEN_DIRS : c == O_MAXRATE ? ARGS_GIVEN_MAX_RATE : 0;
	switch (c) {
	case 'j':
		if (number(prog, "--threads", val, 1, 1024, &v) < 0)
			return -1;
		a->threads = (int)v;
		return 0;
	case O_NOW:
		return set_time(prog, "--now", val, &a->now, &a->have_now);
	case O_ASOF:
		return set_time(prog, "--as-of", val, &a->as_of,
		    &a->have_as_of);
	case O_COLD:
		return set_cold(a, prog, val);
	case O_LOCK_WAIT:
		if (number(prog, "--lock-wait", val, 0, RUNLOCK_WAIT_MAX,
		    &v) < 0)
			return -1;
		a->lock = 1;
		a->lock_wait = (unsigned)v;
		return 0;
	case O_DIRS:
		if (strcmp(val, "all") == 0) {
			a->dirs = -1;
			return 0;
		}
		if (argval_u64(val, INT_MAX, &v) < 0)
			return bad_value(prog, "--dirs", val, "a depth from 0 to"
			    " 2147483647, or all");
		a->dirs = (int)v;
		return 0;
	case O_MAXFDS:
		if (number(prog, "--max-fds", val, 1, 1 << 20, &v) < 0)
			return -1;
		a->max_fds = (int)v;
		return 0;
	case O_MAXRATE:
		return number(prog, "--max-rate", val, 0, ARGS_MAX_RATE,
		    &a->max_rate);
	case O_TOP:
		if (number(prog, "--top", val, 0, 100000, &v) < 0)
			return -1;
		a->topn = (int)v;
		return 0;
	case O_PROJECT:
	case O_EXCLUDE: {
		int *n = c == O_PROJECT ? &a->nprojects : &a->nexcludes;
		const char **l = c == O_PROJECT ? a->projects : a->excludes;
		if (*n == ARGS_MAX_LIST)
			return bad_value(prog, c == O_PROJECT ? "--project" :
			    "--exclude", val, "at most 64 of them");
		l[(*n)++] = val;
		return 0;
	}
	}
	return 1;
}

/* An empty value names nothing (--fs '' from an unset variable would
 * record a snapshot of no file system's name): every option refuses it. */
static int
empty_value(const char *prog, int c, const char *val)
{
	const char *name = NULL;

	if (!val || *val)
		return 0;
	for (size_t i = 0; longopts[i].name && !name; i++)
		if (longopts[i].val == c)
			name = longopts[i].name;
	if (name)
		fprintf(stderr, "%s: --%s '': expected a value, not an empty "
		    "one\n", prog, name);
	else
		fprintf(stderr, "%s: -%c '': expected a value, not an empty "
		    "one\n", prog, c);
	return 1;
}

/* "PROG: FILE:LINE", the prefix of a message about a value of the
 * configuration file, as bad_value prints it. */
static const char *
where(char *buf, size_t len, const char *prog, int line)
{
	snprintf(buf, len, "%s: %s:%d", prog, conf_get()->path, line);
	return buf;
}

/* The settings of the configured file system f that the command line
 * left alone (a->given, and --project, --limits), read by the options'
 * own code: 0, or -1 (reported, naming the file and line). */
static int
apply_fs(struct args *a, const char *prog, const struct conf_fs *f)
{
	static const struct {
		int key, opt;
		unsigned given;
	} num[] = { { CONF_FS_COLD, O_COLD, ARGS_GIVEN_COLD },
	    { CONF_FS_DIRS, O_DIRS, ARGS_GIVEN_DIRS },
	    { CONF_FS_MAX_RATE, O_MAXRATE, ARGS_GIVEN_MAX_RATE } };
	const unsigned given = a->given;
	char at[PATH_MAX + 64];

	for (size_t i = 0; i < sizeof num / sizeof num[0]; i++) {
		const struct conf_val *v = &f->key[num[i].key];

		if (v->v && !(given & num[i].given) && set_value(a, where(at,
		    sizeof at, prog, v->line), num[i].opt, v->v) != 0)
			return -1;
	}
	a->given = given;
	if (!a->limits)
		a->limits = f->key[CONF_FS_LIMITS].v;
	if (a->nprojects > 0)
		return 0;
	for (size_t i = 0; i < f->nproject; i++)
		if (set_value(a, where(at, sizeof at, prog,
		    f->project[i].line), O_PROJECT, f->project[i].v) != 0)
			return -1;
	return 0;
}

/* " proj (/proj), home (/home)": the configured file systems, for a
 * message. */
static void
list_fs(FILE *f, const struct conf *c)
{
	for (size_t i = 0; i < c->nfs; i++)
		fprintf(f, "%s %s (%s)", i ? "," : "", c->fs[i].name,
		    c->fs[i].key[CONF_FS_ROOT].v);
	fputs(c->nfs ? "\n" : " none\n", f);
}

/* The configured file system of this scan: named by --fs without ROOT,
 * or whose root is ROOT. Every one's values are read first, so that a
 * bad value is found by any scan, not only by the scan of its file
 * system. 0, or -1 (reported). */
static int
configured(struct args *a, const char *prog)
{
	const struct conf *c = conf_get();
	const struct conf_fs *f;

	for (size_t i = 0; i < c->nfs; i++) {
		struct args check = { .nprojects = 0 };

		if (apply_fs(&check, prog, &c->fs[i]) < 0)
			return -1;
	}
	f = a->root ? conf_fs_rooted(c, a->root) : conf_fs_named(c, a->fs);
	if (!a->root && !f) {
		fprintf(stderr, "%s: --fs %s without ROOT: no such file system"
		    " in %s (add [fs %s] with its root there); configured:",
		    prog, a->fs, c->path ? c->path : CONF_PATH " (absent)",
		    a->fs);
		list_fs(stderr, c);
		return -1;
	}
	if (a->root && a->fs && conf_fs_named(c, a->fs) &&
	    conf_fs_named(c, a->fs) != f) {
		fprintf(stderr, "%s: --fs %s: %s configures it with root %s,"
		    " not %s\n", prog, a->fs, c->path,
		    conf_fs_named(c, a->fs)->key[CONF_FS_ROOT].v, a->root);
		return -1;
	}
	if (!f)
		return 0;
	if (!a->root)
		a->root = f->key[CONF_FS_ROOT].v;
	if (!a->fs)
		a->fs = f->name;
	return apply_fs(a, prog, f);
}

int
args_parse(int argc, char **argv, const char *prog, struct args *a)
{
	int c;

	assert(argc >= 1 && argv != NULL && prog != NULL && a != NULL);
	a->dirs = 3;
	a->db_group = (uint32_t)-1;
	a->max_fds = 1024;
	a->topn = 20;
	set_cold(a, prog, ARGS_COLD_DEFAULT);
	a->progress = isatty(STDERR_FILENO);
	opterr = 0;		/* getopt would start with argv[0], a path */
	while ((c = getopt_long(argc, argv, ":j:vhV", longopts, NULL)) != -1) {
		if (c != ':' && c != '?' && empty_value(prog, c, optarg))
			return -1;
		switch (c) {
		case O_DB: a->db = optarg; break;
		case O_DBGROUP:
			if (idname_gid(optarg, &a->db_group) < 0) {
				fmt_diag(stderr, prog, "--db-group: no group "
				    "'%s'", optarg);
				return -1;
			}
			break;
		case O_FS: a->fs = optarg; break;
		case O_LIMITS: a->limits = optarg; break;
		case O_CSV: a->csv = optarg; break;
		case O_CROSS: a->cross = 1; break;
		case O_LINKS: a->links = 1; break;
		case O_CACHED: a->stat_cached = 1; break;
		case O_LOCK: a->lock = 1; break;
		case O_PROGRESS: a->progress = 1; break;
		case O_QUIET: a->progress = 0; a->quiet = 1; break;
		case 'v': a->verbose = 1; break;
		case 'h': args_usage(stdout, prog); return 1;
		case 'V': printf("%s (iocensus) %s\n", prog, IOCENSUS_VERSION);
			return 1;
		case ':':
		case '?':
			/* as prog, not as the path it was started by */
			suggest_getopt(prog, c, argv[optind - 1], optopt,
			    longopts);
			return -1;
		default:
			if (set_value(a, prog, c, optarg) != 0)
				return -1;
			break;
		}
	}
	if (optind < argc - 1 || (optind == argc && !a->fs)) {
		fmt_diag(stderr, prog, "%s", optind == argc ?
		    "missing ROOT" : "only one ROOT may be given");
		args_usage(stderr, prog);
		return -1;
	}
	a->root = optind < argc ? argv[optind] : NULL;
	if (conf_init(prog) < 0 || configured(a, prog) < 0)
		return -1;
	return check_as_of(prog, a);
}

/* The CPUs of this node that one of share processes (MPI ranks) may use. */
double
args_cpus(int share)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	if (cpus < 1)
		cpus = 1;
	return share > 1 ? (double)cpus / share : (double)cpus;
}

/* Network and FUSE file systems are latency-bound: many threads overlap
 * round trips. Local ones are bound by kernel CPU time when the cache is
 * warm, which the processes of one node (MPI ranks: share) divide between
 * them; when it is cold the walk adds threads (args_max_threads). */
int
args_default_threads(const char *fstype, int share)
{
	static const char *const remote[] = { "nfs", "nfs4", "lustre", "gpfs",
	    "cifs", "smb3", "beegfs", "ceph", "glusterfs", "9p", "panfs",
	    "fuse", "afs", "pvfs2", "orangefs", NULL };
	int cpus = (int)args_cpus(share);

	assert(fstype != NULL && share >= 1);
	for (int i = 0; remote[i]; i++)
		if (strncmp(fstype, remote[i], strlen(remote[i])) == 0)
			return 32;
	if (cpus < 1)
		cpus = 1;
	return cpus > 8 ? 8 : cpus;
}

/* The most threads a walk that starts with threads may grow to:
 * WALK_THREADS_MAX per node, divided between its share processes, and one per
 * WALK_FDS_PER_THREAD of the fd budget; never fewer than it starts with. */
int
args_max_threads(int threads, int max_fds, int share)
{
	int hi = WALK_THREADS_MAX / (share > 1 ? share : 1);

	assert(threads >= 1 && max_fds >= 0 && share >= 1);
	if (hi > max_fds / WALK_FDS_PER_THREAD)
		hi = max_fds / WALK_FDS_PER_THREAD;
	return hi > threads ? hi : threads;
}

/* Keep a margin below RLIMIT_NOFILE for the database and the CSV. */
int
args_fd_budget(int wanted)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
		if (rl.rlim_cur < rl.rlim_max) {
			rl.rlim_cur = rl.rlim_max;
			setrlimit(RLIMIT_NOFILE, &rl);
			getrlimit(RLIMIT_NOFILE, &rl);
		}
		if (rl.rlim_cur != RLIM_INFINITY && (rlim_t)wanted + 64 > rl.rlim_cur)
			wanted = rl.rlim_cur > 80 ? (int)rl.rlim_cur - 64 : 16;
	}
	return wanted;
}

char *
args_command_line(int argc, char **argv)
{
	size_t len = 1;
	char *s;

	assert(argc >= 0 && (argv != NULL || argc == 0));
	for (int i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	s = xcalloc(1, len);
	for (int i = 0; i < argc; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, argv[i]);
	}
	return s;
}

int
args_lock(const struct args *a, const char *prog, int *fd)
{
	struct safedir_make mk = { DBFILE_DIR_MODE, (gid_t)a->db_group };
	char err[1024];

	assert(a != NULL && prog != NULL && fd != NULL);
	*fd = -1;
	if (!a->lock)
		return 0;
	if ((*fd = runlock_dir_of(db_default_path(a->db), &mk, a->lock_wait,
	    err, sizeof err)) >= 0)
		return 0;
	/* A scan still running is no failure of this one: its scheduled
	 * job stays quiet, and says so by its exit status. */
	if (errno == EWOULDBLOCK) {
		if (!a->quiet)
			fprintf(stderr, "%s: %s\n", prog, err);
		return RUNLOCK_BUSY;
	}
	fprintf(stderr, "%s: %s (the database's directory: make it, or set"
	    " db in %s, writable by this user)\n", prog, err, conf_get()->path ?
	    conf_get()->path : CONF_PATH);
	return EXIT_FATAL;
}
