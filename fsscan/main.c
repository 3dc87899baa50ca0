/*
 * fsscan: parallel file-system census. See docs/fsscan.1.
 *
 * Exit status: 0 complete; 1 complete, but some entries could not be read;
 * 2 usage error; 3 aborted or fatal (the snapshot is recorded as
 * incomplete, or not at all).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include <fcntl.h>

#include "db.h"
#include "fsident.h"
#include "fsstats.h"
#include "human.h"
#include "limits.h"
#include "project.h"
#include "quota.h"
#include "snapshot.h"
#include "walk.h"
#include "xalloc.h"

#define EXIT_PARTIAL 1
#define EXIT_USAGE   2
#define EXIT_FATAL   3
#define MAX_LIST     64

static volatile sig_atomic_t stop_flag;

static void
on_signal(int sig)
{
	(void)sig;
	stop_flag = 1;
}

struct args {
	const char *db, *fs, *csv, *root, *limits;
	const char *projects[MAX_LIST];
	int nprojects;
	const char *excludes[MAX_LIST];
	int nexcludes;
	int threads, dirs, cross, max_fds, topn, progress, verbose, links;
	int stat_cached;
	uint64_t max_rate;
	int64_t now, as_of;
	int have_now, have_as_of;
};

static void
usage(FILE *f)
{
	fprintf(f,
"usage: fsscan [OPTIONS] ROOT\n"
"Walk ROOT in parallel and record a census snapshot in the database.\n"
"\n"
"  --db PATH             census database (default $IOCENSUS_DB, else ./iocensus.db)\n"
"  --fs NAME             file-system name for the snapshot (default: ROOT)\n"
"  -j, --threads N       walker threads (default: from CPUs and fs type)\n"
"  --project RULE        projid | depth:N | map:FILE | gidmap:FILE | group | user;\n"
"                        repeatable, first match wins (default depth:1)\n"
"  --now EPOCH           reference time for ages (default: scan start)\n"
"  --as-of EPOCH         date a scan of a file-system snapshot: the snapshot's\n"
"                        time and the age reference (capacity is not read)\n"
"  --limits FILE         CSV project,bytes,inodes: each project's limit\n"
"  --dirs DEPTH|all      subtree totals down to DEPTH (default 3)\n"
"  --fsstats-csv FILE    also write the fsstats 1.4.5 CSV\n"
"  --exclude GLOB        skip entries whose name matches (repeatable)\n"
"  --cross-mounts        descend into other file systems\n"
"  --max-fds N           directory fds held open at once (default 1024)\n"
"  --max-rate N          at most N stat calls per second (default unlimited)\n"
"  --top N               largest files and directories to keep (default 20)\n"
"  --symlink-targets     read symlink targets for the relative/absolute split\n"
"                        (readlink updates the link's atime)\n"
"  --stat-cached         accept cached attributes (AT_STATX_DONT_SYNC): one\n"
"                        round trip less per entry on NFS, FUSE, Lustre\n"
"  --progress, --quiet   progress line on stderr (default: when it is a TTY)\n"
"  -v, --verbose         print a summary when done\n"
"  -h, --help            this help\n"
"  -V, --version         version\n"
"\n"
"Exit status: 0 complete, 1 complete with unreadable entries, 2 usage error,\n"
"3 aborted or fatal.\n");
}

static int
parse_u64(const char *s, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	if (!*s || *s == '-')
		return -1;
	v = strtoull(s, &end, 10);
	if (errno || *end || v > max)
		return -1;
	*out = v;
	return 0;
}

static int
bad_value(const char *opt, const char *val)
{
	fprintf(stderr, "fsscan: invalid value for %s: '%s'\n", opt, val);
	return -1;
}

enum { O_DB = 256, O_FS, O_PROJECT, O_NOW, O_DIRS, O_CSV, O_EXCLUDE, O_CROSS,
    O_MAXFDS, O_MAXRATE, O_TOP, O_PROGRESS, O_QUIET, O_LINKS, O_CACHED,
    O_ASOF, O_LIMITS };

static const struct option longopts[] = {
	{ "db", required_argument, NULL, O_DB },
	{ "fs", required_argument, NULL, O_FS },
	{ "threads", required_argument, NULL, 'j' },
	{ "project", required_argument, NULL, O_PROJECT },
	{ "now", required_argument, NULL, O_NOW },
	{ "as-of", required_argument, NULL, O_ASOF },
	{ "limits", required_argument, NULL, O_LIMITS },
	{ "dirs", required_argument, NULL, O_DIRS },
	{ "fsstats-csv", required_argument, NULL, O_CSV },
	{ "exclude", required_argument, NULL, O_EXCLUDE },
	{ "cross-mounts", no_argument, NULL, O_CROSS },
	{ "max-fds", required_argument, NULL, O_MAXFDS },
	{ "max-rate", required_argument, NULL, O_MAXRATE },
	{ "top", required_argument, NULL, O_TOP },
	{ "symlink-targets", no_argument, NULL, O_LINKS },
	{ "stat-cached", no_argument, NULL, O_CACHED },
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
check_as_of(const struct args *a)
{
	if (!a->have_as_of)
		return 0;
	if (a->have_now) {
		fprintf(stderr, "fsscan: --as-of is also the reference time for"
		    " ages: give --as-of or --now, not both\n");
		return -1;
	}
	if (a->as_of > (int64_t)time(NULL)) {
		fprintf(stderr, "fsscan: --as-of %lld is in the future: it dates"
		    " a file-system snapshot already taken\n",
		    (long long)a->as_of);
		return -1;
	}
	return 0;
}

/* getopt rejected the word arg of argv: say so as fsscan, not as the
 * path the program was started by. */
static void
option_error(const char *arg)
{
	if (!strncmp(arg, "--", 2))
		fprintf(stderr, "fsscan: unknown option '%.*s'\n",
		    (int)strcspn(arg, "="), arg);
	else if (optopt)
		fprintf(stderr, "fsscan: unknown option '-%c'\n", optopt);
	else
		fprintf(stderr, "fsscan: unknown option '%s'\n", arg);
	fputs("fsscan: `fsscan --help` lists the options\n", stderr);
}

/* Returns 0 to run, 1 after --help/--version, -1 on a usage error. */
static int
parse_args(int argc, char **argv, struct args *a)
{
	uint64_t v;
	int c;

	a->dirs = 3;
	a->max_fds = 1024;
	a->topn = 20;
	a->progress = isatty(STDERR_FILENO);
	opterr = 0;		/* getopt would start with argv[0], a path */
	while ((c = getopt_long(argc, argv, ":j:vhV", longopts, NULL)) != -1) {
		switch (c) {
		case O_DB: a->db = optarg; break;
		case O_FS: a->fs = optarg; break;
		case 'j':
			if (parse_u64(optarg, 1024, &v) < 0 || v == 0)
				return bad_value("--threads", optarg);
			a->threads = (int)v;
			break;
		case O_PROJECT:
		case O_EXCLUDE: {
			int *n = c == O_PROJECT ? &a->nprojects : &a->nexcludes;
			const char **l = c == O_PROJECT ? a->projects : a->excludes;
			if (*n == MAX_LIST)
				return bad_value(argv[optind - 2], optarg);
			l[(*n)++] = optarg;
			break;
		}
		case O_NOW:
		case O_ASOF: {
			char *end;
			int64_t *t = c == O_NOW ? &a->now : &a->as_of;
			errno = 0;
			*t = strtoll(optarg, &end, 10);
			if (errno || !*optarg || *end)
				return bad_value(c == O_NOW ? "--now" :
				    "--as-of", optarg);
			*(c == O_NOW ? &a->have_now : &a->have_as_of) = 1;
			break;
		}
		case O_LIMITS: a->limits = optarg; break;
		case O_DIRS:
			if (strcmp(optarg, "all") == 0)
				a->dirs = -1;
			else if (parse_u64(optarg, INT_MAX, &v) < 0)
				return bad_value("--dirs", optarg);
			else
				a->dirs = (int)v;
			break;
		case O_CSV: a->csv = optarg; break;
		case O_CROSS: a->cross = 1; break;
		case O_MAXFDS:
			if (parse_u64(optarg, 1 << 20, &v) < 0 || v == 0)
				return bad_value("--max-fds", optarg);
			a->max_fds = (int)v;
			break;
		case O_MAXRATE:
			if (parse_u64(optarg, UINT64_MAX / 2, &a->max_rate) < 0)
				return bad_value("--max-rate", optarg);
			break;
		case O_TOP:
			if (parse_u64(optarg, 100000, &v) < 0)
				return bad_value("--top", optarg);
			a->topn = (int)v;
			break;
		case O_LINKS: a->links = 1; break;
		case O_CACHED: a->stat_cached = 1; break;
		case O_PROGRESS: a->progress = 1; break;
		case O_QUIET: a->progress = 0; break;
		case 'v': a->verbose = 1; break;
		case 'h': usage(stdout); return 1;
		case 'V': printf("fsscan (iocensus) %s\n", IOCENSUS_VERSION); return 1;
		case ':':
			fprintf(stderr, "fsscan: %s needs a value\n",
			    argv[optind - 1]);
			return -1;
		default:
			option_error(argv[optind - 1]);
			return -1;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "fsscan: %s\n", optind == argc ?
		    "missing ROOT" : "only one ROOT may be given");
		usage(stderr);
		return -1;
	}
	a->root = argv[optind];
	return check_as_of(a);
}

/* Network and FUSE file systems are latency-bound: many threads overlap
 * round trips. Local ones are bound by kernel CPU time. */
static int
default_threads(const char *fstype)
{
	static const char *const remote[] = { "nfs", "nfs4", "lustre", "gpfs",
	    "cifs", "smb3", "beegfs", "ceph", "glusterfs", "9p", "panfs",
	    "fuse", "afs", "pvfs2", "orangefs", NULL };
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	for (int i = 0; remote[i]; i++)
		if (strncmp(fstype, remote[i], strlen(remote[i])) == 0)
			return 32;
	if (cpus < 1)
		cpus = 1;
	return cpus > 8 ? 8 : (int)cpus;
}

/* Keep a margin below RLIMIT_NOFILE for the database and the CSV. */
static int
fd_budget(int wanted)
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

static char *
command_line(int argc, char **argv)
{
	size_t len = 1;
	char *s;

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

/*
 * The fsstats CSV is written to FILE.tmp, which is opened before any
 * database row exists and renamed into place only after the snapshot has
 * committed: a run that cannot write its CSV records nothing as complete.
 */
struct csv_out {
	const char *path;
	char tmp[PATH_MAX];
	FILE *f;
};

static int
csv_open(struct csv_out *c, const char *path)
{
	c->path = path;
	if (snprintf(c->tmp, sizeof c->tmp, "%s.tmp", path) >= (int)sizeof c->tmp) {
		fprintf(stderr, "fsscan: %s: name too long\n", path);
		return -1;
	}
	if (!(c->f = fopen(c->tmp, "w"))) {
		fprintf(stderr, "fsscan: %s: %s\n", c->tmp, strerror(errno));
		return -1;
	}
	return 0;
}

static void
csv_discard(struct csv_out *c)
{
	if (c->f)
		fclose(c->f);
	if (c->path)
		unlink(c->tmp);
	c->f = NULL;
}

/* fsstats prints "Filesystem used" as total - f_bavail * f_frsize (with
 * Filesys::Statvfs): the blocks reserved for root count as used. Exact,
 * and a server that says more is available than there is shows as
 * negative use rather than as a wrapped one. */
static int
csv_write(struct csv_out *c, const struct walk_result *r,
    const struct fs_capacity *cap, int links)
{
	struct fsstats_info info = { .complete = !r->interrupted,
	    .errors = r->c.nerrors, .symlink_targets = links };
	int rc;

	if (cap) {
		info.have_statvfs = 1;
		info.fs_total_bytes = cap->bytes;
		info.fs_used_bytes = cap->bytes - cap->avail_bytes;
	}
	rc = fsstats_write(c->f, &r->c, &info);
	if (rc == 0 && fsync(fileno(c->f)) != 0)
		rc = -1;
	if (fclose(c->f) != 0)
		rc = -1;
	c->f = NULL;
	if (rc < 0)
		fprintf(stderr, "fsscan: %s: %s\n", c->tmp, strerror(errno));
	return rc;
}

static int
csv_commit(struct csv_out *c)
{
	if (rename(c->tmp, c->path) == 0)
		return 0;
	fprintf(stderr, "fsscan: %s: %s\n", c->path, strerror(errno));
	return -1;
}

/* "fsscan: snapshot 12 complete: 1,234,567 files, 45,678 dirs, 12.3 GiB
 * (13,207,024,435 bytes), 0 errors, 1 min 12 s, 23,456 entries/s". */
static void
summary(int64_t id, const struct walk_result *r, const char *status)
{
	char f[32], d[32], h[32], b[64], e[32], t[32], rate[32];

	fprintf(stderr, "fsscan: snapshot %lld %s: %s files, %s dirs, %s (%s "
	    "bytes), %s error%s, %s, %s entries/s\n", (long long)id, status,
	    human_uint(r->c.files, f, sizeof f),
	    human_uint(r->c.dirs, d, sizeof d),
	    human_bytes((double)r->c.bytes, 1, h, sizeof h),
	    human_wide((i128)r->c.bytes, b, sizeof b),
	    human_uint(r->c.nerrors, e, sizeof e),
	    r->c.nerrors == 1 ? "" : "s",
	    human_duration((int64_t)(r->seconds + 0.5), t, sizeof t),
	    human_uint(r->seconds > 0 ? (uint64_t)((double)r->entries /
	    r->seconds) : r->entries, rate, sizeof rate));
}

/* statvfs(ROOT) in bytes and inodes, exact: 0, or -1 when it fails (or
 * names a fragment size so large that the products pass 2^127). */
static int
read_capacity(const char *root, struct fs_capacity *cap)
{
	struct statvfs sv;
	i128 fr;

	if (statvfs(root, &sv) < 0)
		return -1;
	fr = sv.f_frsize ? sv.f_frsize : sv.f_bsize;
	if (__builtin_mul_overflow((i128)sv.f_blocks, fr, &cap->bytes) ||
	    __builtin_mul_overflow((i128)sv.f_bfree, fr, &cap->free_bytes) ||
	    __builtin_mul_overflow((i128)sv.f_bavail, fr, &cap->avail_bytes))
		return -1;
	cap->inodes = sv.f_files;
	cap->free_inodes = sv.f_ffree;
	return 0;
}

/* Whether a capacity can be recorded: a server that reports more free
 * than in all (it happens on confused network file systems) gives shares
 * that mean nothing, so the snapshot records its capacity as unknown; so
 * does one beyond what the census holds (DB_CAPACITY_MAX, 2^120 bytes). */
static int
capacity_sane(const struct fs_capacity *cap)
{
	return cap->bytes <= DB_CAPACITY_MAX &&
	    cap->free_bytes <= cap->bytes &&
	    cap->avail_bytes <= cap->bytes && cap->free_inodes <= cap->inodes;
}

/* The used inodes of the file system when ROOT is its root: there they
 * are a fair estimate of the entries a scan will meet. 0 otherwise, or
 * when the kernel cannot say. */
static uint64_t
inodes_used(const char *root)
{
	struct statx sx;
	struct fs_capacity cap;

	if (statx(AT_FDCWD, root, AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT,
	    STATX_INO, &sx) < 0 ||
	    !(sx.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT) ||
	    !(sx.stx_attributes & STATX_ATTR_MOUNT_ROOT) ||
	    read_capacity(root, &cap) < 0 || cap.inodes == 0 ||
	    !capacity_sane(&cap))
		return 0;
	return (uint64_t)(cap.inodes - cap.free_inodes);
}

/* The project quotas of the projects a projid rule named, for those the
 * limits file does not list. Quotas off, unsupported or not permitted
 * give none: the limits are then simply not known. */
static void
read_quotas(const char *root, const char *dev,
    const struct project_rules *rules, struct limits *l)
{
	uint32_t *ids;
	int32_t *projs;
	size_t n = project_projids(rules, &ids, &projs);
	int fd = n ? open(root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC) : -1;

	for (size_t i = 0; fd >= 0 && i < n; i++) {
		struct limit x = { .project = (char *)project_name(rules,
		    projs[i]) };
		if (quota_project(fd, dev, ids[i], &x) == 1)
			limits_add(l, &x);
	}
	if (fd >= 0)
		close(fd);
	free(ids);
	free(projs);
}

/* ROOT must be a real directory: fsscan never follows symlinks. */
static int
check_root(const char *root, struct stat *st)
{
	if (lstat(root, st) < 0) {
		fprintf(stderr, "fsscan: %s: %s\n", root, strerror(errno));
		return -1;
	}
	if (S_ISLNK(st->st_mode)) {
		fprintf(stderr, "fsscan: %s: is a symbolic link; fsscan never "
		    "follows links, give the directory it points to\n", root);
		return -1;
	}
	if (!S_ISDIR(st->st_mode)) {
		fprintf(stderr, "fsscan: %s: not a directory\n", root);
		return -1;
	}
	return 0;
}

static int
scan(struct args *a, char *cmdline)
{
	struct walk_opts o = { 0 };
	struct walk_result r;
	struct snap_meta m = { 0 };
	struct fsident fi;
	struct project_rules *rules;
	struct sigaction sa = { .sa_handler = on_signal };
	struct stat st;
	struct csv_out csv = { 0 };
	struct limits limits = { 0 };
	struct fs_capacity cap;
	struct snap_extra x = { .limits = &limits };
	int have_cap;
	char err[1024] = "", root_abs[PATH_MAX], host[256] = "";
	const char *status;
	sqlite3 *db;
	int64_t id;
	int rc;

	if (check_root(a->root, &st) < 0)
		return EXIT_USAGE;
	if (!realpath(a->root, root_abs))
		snprintf(root_abs, sizeof root_abs, "%s", a->root);
	if (a->limits && limits_load(a->limits, &limits, err,
	    sizeof err) < 0) {
		fprintf(stderr, "fsscan: --limits: %s\n", err);
		limits_free(&limits);
		return EXIT_USAGE;
	}
	rules = project_rules_new(a->nprojects ? a->projects : NULL,
	    a->nprojects, root_abs, err, sizeof err);
	if (!rules) {
		fprintf(stderr, "fsscan: --project: %s\n", err);
		limits_free(&limits);
		return EXIT_USAGE;
	}
	if (!(db = db_open(db_default_path(a->db), err, sizeof err))) {
		fprintf(stderr, "fsscan: %s\n", err);
		project_rules_free(rules);
		limits_free(&limits);
		return EXIT_FATAL;
	}
	fsident_get(st.st_dev, root_abs, &fi);
	gethostname(host, sizeof host - 1);
	m = (struct snap_meta){ .fs = a->fs ? a->fs : a->root, .root = a->root,
	    .root_abs = root_abs, .host = host, .fstype = fi.fstype,
	    .source = fi.source, .uuid = fi.uuid[0] ? fi.uuid : NULL,
	    .label = fi.label[0] ? fi.label : NULL, .mntopts = fi.options,
	    .options = cmdline, .scanned = time(NULL),
	    .threads = a->threads ? a->threads : default_threads(fi.fstype),
	    .dirs_depth = a->dirs };
	m.started = a->have_as_of ? a->as_of : m.scanned;
	m.now_ref = a->have_now ? a->now : m.started;
	x.started = m.started;
	x.scanned = m.scanned;

	o = (struct walk_opts){ .root = a->root, .threads = m.threads,
	    .dirs_depth = a->dirs, .cross_mounts = a->cross,
	    .excludes = a->excludes, .nexcludes = a->nexcludes,
	    .max_fds = fd_budget(a->max_fds), .max_rate = a->max_rate,
	    .topn = a->topn, .now = m.now_ref, .progress = a->progress,
	    .inodes_used = a->progress ? inodes_used(a->root) : 0,
	    .symlink_targets = a->links, .stat_cached = a->stat_cached,
	    .rules = rules, .stop = &stop_flag };
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	db_set_stop_flag(&stop_flag);

	if (a->csv && csv_open(&csv, a->csv) < 0) {
		rc = EXIT_FATAL;
		goto out;
	}
	if (snapshot_begin(db, &m, &id, err, sizeof err) < 0) {
		fprintf(stderr, "fsscan: %s: %s%s\n", db_default_path(a->db), err,
		    stop_flag ? " (interrupted while waiting for the lock)" : "");
		rc = EXIT_FATAL;
		goto out;
	}
	if (walk_run(&o, &r, err, sizeof err) < 0) {
		fprintf(stderr, "fsscan: %s\n", err);
		snapshot_fail(db, id);
		rc = EXIT_FATAL;
		goto out;
	}
	status = r.interrupted ? "interrupted" : "complete";
	rc = r.interrupted ? EXIT_FATAL : r.c.nerrors ? EXIT_PARTIAL : 0;
	/* A file-system snapshot's statvfs is today's file system's. */
	have_cap = !a->have_as_of && read_capacity(a->root, &cap) == 0;
	x.cap = have_cap && capacity_sane(&cap) ? &cap : NULL;
	read_quotas(a->root, fi.source, rules, &limits);
	if (a->csv && csv_write(&csv, &r, have_cap ? &cap : NULL,
	    a->links) < 0) {
		snapshot_fail(db, id);
		rc = EXIT_FATAL;
	} else if (snapshot_finish(db, id, &r, rules, status, &x, err,
	    sizeof err) < 0) {
		fprintf(stderr, "fsscan: %s: cannot record snapshot: %s\n",
		    db_default_path(a->db), err);
		snapshot_fail(db, id);
		rc = EXIT_FATAL;
	} else if (a->csv && csv_commit(&csv) < 0) {
		snapshot_fail(db, id);
		rc = EXIT_FATAL;
	}
	if (r.interrupted)
		fprintf(stderr, "fsscan: interrupted: snapshot %lld recorded as "
		    "incomplete\n", (long long)id);
	if (a->verbose || a->progress)
		summary(id, &r, status);
	walk_result_free(&r);
out:
	csv_discard(&csv);
	db_close(db);
	project_rules_free(rules);
	limits_free(&limits);
	return rc;
}

int
main(int argc, char **argv)
{
	struct args a = { 0 };
	char *cmdline;
	int rc;

	rc = parse_args(argc, argv, &a);
	if (rc != 0)
		return rc > 0 ? 0 : EXIT_USAGE;
	cmdline = command_line(argc, argv);
	rc = scan(&a, cmdline);
	free(cmdline);
	return rc;
}
