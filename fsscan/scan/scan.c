/*
 * scan: see scan.h.
 */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "db.h"
#include "fmt.h"
#include "human.h"
#include "scan.h"

int
scan_check_root(const char *prog, const char *root, struct stat *st)
{
	assert(prog != NULL && root != NULL && st != NULL);
	if (lstat(root, st) < 0) {
		fmt_diag(stderr, prog, "%s: %s", root, strerror(errno));
		return -1;
	}
	if (S_ISLNK(st->st_mode)) {
		fmt_diag(stderr, prog, "%s: is a symbolic link; fsscan never "
		    "follows links, give the directory it points to",
		    root);
		return -1;
	}
	if (!S_ISDIR(st->st_mode)) {
		fmt_diag(stderr, prog, "%s: not a directory", root);
		return -1;
	}
	return 0;
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
	    capacity_read(root, &cap) < 0 || cap.inodes == 0 ||
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

int
scan_setup(struct scan *s, const struct args *a, const char *prog,
    char *cmdline, int share, volatile sig_atomic_t *stop)
{
	char err[1024] = "";
	int max_fds;

	assert(s != NULL && a != NULL && prog != NULL && stop != NULL);
	assert(share >= 1);
	memset(s, 0, sizeof *s);
	s->prog = prog;
	if (scan_check_root(prog, a->root, &s->st) < 0)
		return EXIT_USAGE;
	if (!realpath(a->root, s->root_abs))
		snprintf(s->root_abs, sizeof s->root_abs, "%s", a->root);
	if (a->limits && limits_load(a->limits, &s->limits, err,
	    sizeof err) < 0) {
		fmt_diag(stderr, prog, "--limits: %s", err);
		limits_free(&s->limits);
		return EXIT_USAGE;
	}
	s->rules = project_rules_new(a->nprojects ? a->projects : NULL,
	    a->nprojects, s->root_abs, err, sizeof err);
	if (!s->rules) {
		fmt_diag(stderr, prog, "--project: %s", err);
		limits_free(&s->limits);
		return EXIT_USAGE;
	}
	fsident_get(s->st.st_dev, s->root_abs, &s->fi);
	snprintf(s->dev, sizeof s->dev, "%u:%u", major(s->st.st_dev),
	    minor(s->st.st_dev));
	gethostname(s->host, sizeof s->host - 1);
	s->m = (struct snap_meta){ .fs = a->fs ? a->fs : a->root,
	    .root = a->root, .root_abs = s->root_abs, .host = s->host,
	    .fstype = s->fi.fstype, .source = s->fi.source,
	    .uuid = s->fi.uuid[0] ? s->fi.uuid : NULL,
	    .label = s->fi.label[0] ? s->fi.label : NULL,
	    .mntopts = s->fi.options, .options = cmdline, .dev = s->dev,
	    .mountpoint = s->fi.target[0] ? s->fi.target : NULL,
	    .scanned = time(NULL), .threads = a->threads ? a->threads :
	    args_default_threads(s->fi.fstype, share), .dirs_depth = a->dirs };
	s->m.started = a->have_as_of ? a->as_of : s->m.scanned;
	s->m.now_ref = a->have_now ? a->now : s->m.started;
	max_fds = args_fd_budget(a->max_fds);
	/* -j fixes the count; without it the walk adds threads while they
	 * wait on the file system (walk/tune.c). */
	s->o = (struct walk_opts){ .root = a->root, .threads = s->m.threads,
	    .threads_max = a->threads ? a->threads :
	    args_max_threads(s->m.threads, max_fds, share),
	    .cpus = args_cpus(share), .dirs_depth = a->dirs,
	    .cross_mounts = a->cross,
	    .excludes = a->excludes, .nexcludes = a->nexcludes,
	    .max_fds = max_fds, .max_rate = a->max_rate,
	    .topn = a->topn, .now = s->m.now_ref, .cold_days = a->cold,
	    .ncold = a->ncold, .progress = a->progress,
	    .prog = prog, .inodes_used = a->progress ? inodes_used(a->root) : 0,
	    .symlink_targets = a->links, .stat_cached = a->stat_cached,
	    .rules = s->rules, .stop = stop };
	return 0;
}

void
scan_free(struct scan *s)
{
	assert(s != NULL);
	project_rules_free(s->rules);
	s->rules = NULL;
	limits_free(&s->limits);
}

int
scan_record(struct scan *s, const struct args *a, sqlite3 *db, int64_t id,
    struct csv_out *csv, const struct walk_result *r,
    struct snap_parts *parts)
{
	const char *status = r->interrupted ? "interrupted" : "complete";
	char err[1024] = "";
	int rc = r->interrupted ? EXIT_FATAL : r->c.nerrors ? EXIT_PARTIAL : 0;
	int have_cap;

	assert(s != NULL && a != NULL && db != NULL && id > 0);
	assert(csv != NULL && r != NULL && parts != NULL);
	/* A file-system snapshot's statvfs is today's file system's. */
	have_cap = !a->have_as_of && capacity_read(a->root, &s->cap) == 0;
	parts->cap = have_cap && capacity_sane(&s->cap) ? &s->cap : NULL;
	read_quotas(a->root, s->fi.source, s->rules, &s->limits);
	parts->limits = &s->limits;
	parts->started = s->m.started;
	parts->scanned = s->m.scanned;
	parts->cold_days = a->cold;
	parts->ncold = a->ncold;
	/* R3: the CSV is written before the snapshot commits, and renamed
	 * over its target after; a failure of either fails the snapshot */
	if (a->csv && csvout_write(csv, &r->c, r->interrupted,
	    have_cap ? &s->cap : NULL, a->links) < 0) {
		snapshot_fail(db, id);
		rc = EXIT_FATAL;
	} else if (snapshot_finish(db, id, r, s->rules, status, parts, err,
	    sizeof err) < 0) {
		fmt_diag(stderr, s->prog, "%s: cannot record snapshot: %s",
		    db_default_path(a->db), err);
		snapshot_fail(db, id);
		rc = EXIT_FATAL;
	} else if (a->csv && csvout_commit(csv) < 0) {
		snapshot_fail(db, id);
		rc = EXIT_FATAL;
	}
	if (r->interrupted)
		fmt_diag(stderr, s->prog, "interrupted: snapshot %lld recorded "
		    "as incomplete", (long long)id);
	return rc;
}

/* "fsscan: snapshot 12 complete: 1,234,567 files, 45,678 dirs, 12.3 GiB
 * (13,207,024,435 bytes), 0 errors, 1 min 12 s, 23,456 entries/s". A
 * walk that finished but could not be recorded (rc: scan_record's) is
 * "failed", as the snapshot's status says. */
void
scan_summary(const struct scan *s, int64_t id, const struct walk_result *r,
    uint64_t entries, int rc)
{
	char f[32], d[32], h[32], b[64], e[32], t[32], rate[32];

	assert(s != NULL && r != NULL);
	fmt_diag(stderr, s->prog, "snapshot %lld %s: %s files, %s dirs, %s (%s "
	    "bytes), %s error%s, %s, %s entries/s", (long long)id,
	    r->interrupted ? "interrupted" : rc == EXIT_FATAL ? "failed" :
	    "complete",
	    human_uint(r->c.files, f, sizeof f),
	    human_uint(r->c.dirs, d, sizeof d),
	    human_bytes((double)r->c.bytes, 1, h, sizeof h),
	    human_wide((i128)r->c.bytes, b, sizeof b),
	    human_uint(r->c.nerrors, e, sizeof e),
	    r->c.nerrors == 1 ? "" : "s",
	    human_duration((int64_t)(r->seconds + 0.5), t, sizeof t),
	    human_uint(r->seconds > 0 ? (uint64_t)((double)entries /
	    r->seconds) : entries, rate, sizeof rate));
}
