/*
 * record: what a scan writes, the public header of fsscan/record/: the
 * capacity of the file system, the projects' limits (a --limits file,
 * project quotas), the snapshot's rows in the census database, and the
 * fsstats CSV beside it (fsstats_int.h, written through csvout.c).
 */
#ifndef FSSCAN_RECORD_H
#define FSSCAN_RECORD_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

#include "i128.h"
#include "outfile.h"
#include "project/project.h"
#include "strtab.h"
#include "walk/walk.h"

/*
 * capacity.c: what statvfs says of the file system a scan walks, exact.
 */

/* statvfs(ROOT) at the scan, in bytes and inodes: f_blocks, f_bfree and
 * f_bavail times f_frsize, f_files, f_ffree; exact (64-bit counts times
 * the fragment size need up to 128 bits). */
struct fs_capacity {
	i128 bytes, free_bytes, avail_bytes, inodes, free_inodes;
};

/* 0, or -1 when statvfs fails (or names a fragment size so large that the
 * products pass 2^127). */
int capacity_read(const char *root, struct fs_capacity *cap);
/* Whether a capacity can be recorded: a server that reports more free
 * than in all (it happens on confused network file systems) gives shares
 * that mean nothing, so the snapshot records its capacity as unknown; so
 * does one beyond what the census holds (DB_CAPACITY_MAX, 2^120 bytes). */
int capacity_sane(const struct fs_capacity *cap);

/*
 * limits.c: each project's limit, recorded with the snapshot (v_limit).
 *
 * fsscan --limits FILE reads a CSV "project,bytes,inodes", the form a site
 * exports from lfs quota, mmrepquota or xfs_quota: one line per project,
 * either limit may be empty (no limit of that kind). Fields may be quoted
 * as RFC 4180 does (a name holding a comma); an optional header line
 * "project,bytes,inodes", blank lines and lines starting with '#' are
 * skipped. bytes is a whole number of bytes, with a size unit as written
 * ("10TiB" is 10 * 2^40, "10TB" 10 * 10^12); inodes a whole number, with
 * K, M, G, T as powers of 1000 ("2M"). A project listed twice, a line
 * without three fields, or a value that is not such a number is an error
 * naming the file and line; so are a file past 64 MiB, a line past 64 KiB
 * and a NUL byte (lib/lines.h).
 *
 * Project quotas (quota.c) add the limits of the projects a projid rule
 * named; a project the file lists keeps the file's limit.
 */

struct limit {
	char *project;
	int has_bytes, has_inodes;
	int64_t bytes, inodes;
	const char *source;		/* "file" or "quota" */
};

struct limits {
	struct limit *v;	/* v[i].project is names.name[i] */
	size_t n, cap;
	struct strtab names;	/* project -> index into v */
};

/* Read FILE into l (empty or not), within the bounds of lib/lines.h
 * (--limits /dev/zero fails at once), in time linear in its lines. 0, or
 * -1 with "FILE:LINE: why". */
int limits_load(const char *path, struct limits *l, char *err,
    size_t errlen);
/* The limit of project, or NULL. */
const struct limit *limits_find(const struct limits *l, const char *project);
/* Add a limit (copied) unless project already has one: 1 added, 0 not. */
int limits_add(struct limits *l, const struct limit *x);
void limits_free(struct limits *l);

/*
 * quota.c: the project quotas of a file system, where the kernel exposes
 * them (quotactl with PRJQUOTA: XFS mounted with prjquota, ext4 with the
 * project feature and quotas on). Only read: fsscan never sets a quota.
 */

/*
 * The limit of file-system project projid on the file system that holds
 * the directory fd (quotactl_fd, Linux 5.14), or, on an older kernel, on
 * block device dev: its hard limits, or its soft limits where no hard one
 * is set. 1 with x's bytes/inodes set (has_* 0 for "no limit"), 0 when
 * there is none (no limit set, quotas off, not supported, not permitted),
 * with errno saying why.
 */
int quota_project(int fd, const char *dev, uint32_t projid,
    struct limit *x);

/*
 * snapshot.c: one scan in the census database.
 *
 * snapshot_begin() records the scan as 'running', with how deep its
 * directory totals go, in its own short transaction; snapshot_finish()
 * writes every row and the final status in one transaction. A scan killed at any point therefore leaves either a
 * 'running' row (complete = 0 in v_snapshot) or a finished one, never a
 * half-written snapshot that looks complete.
 */

struct snap_meta {
	const char *fs, *root, *root_abs, *host;
	const char *fstype, *source, *uuid, *label, *mntopts;
	const char *options;		/* command line */
	const char *dev;		/* ROOT's st_dev, "MAJOR:MINOR" */
	const char *mountpoint;		/* of the mount holding ROOT; NULL
					   unknown */
	int64_t started, now_ref;	/* --as-of: both the as-of time */
	int64_t scanned;		/* when the walk really started */
	int threads;
	int dirs_depth;			/* --dirs; -1: all */
};

/* One process's share of a scan (table scan_rank): fsscan is rank 0 of
 * 1, fsscan-mpi has one per MPI rank. */
struct rank_stat {
	int32_t rank, threads;
	uint64_t entries;		/* names read and stat'ed */
	uint64_t dirs;			/* directories visited */
	uint64_t items_in, items_out;	/* directories from / to other ranks */
	uint64_t steals;		/* steal requests that brought work */
	double seconds;			/* its walk */
	char host[64];
};

/* A v_dir node to write: its row id is the snapshot's base plus seq. */
struct dir_row {
	uint64_t seq, parent_seq;
	int has_parent, depth;
	const char *name;
	size_t namelen;
	struct dirlocal tot;		/* subtree totals */
};

/* Rows from elsewhere (fsscan-mpi: every rank's, in batches): next gives
 * 1 and the next row (its name valid until the next call), 0 after the
 * last, -1 with a message in err. */
struct dir_source {
	int (*next)(void *arg, struct dir_row *row, char *err, size_t errlen);
	void *arg;
};

/* The row of node t, whose parent's number in the snapshot is
 * parent_seq (when it has one). */
void snapshot_dir_row(const struct dirtot *t, uint64_t parent_seq,
    struct dir_row *row);

/* What a scan adds to the walk's own rows. */
struct snap_parts {
	const struct dir_source *dirs;	/* NULL: r->dirs */
	const struct rank_stat *ranks;
	int nranks;
	const struct fs_capacity *cap;	/* NULL: unknown (NULL columns) */
	const struct limits *limits;	/* NULL: none */
	int64_t started, scanned;	/* snap_meta's: finished_at is started
					   plus the walk's real duration */
	const uint32_t *cold_days;	/* the walk's cold-data thresholds */
	int ncold;
};

int snapshot_begin(sqlite3 *db, const struct snap_meta *m, int64_t *id,
    char *err, size_t errlen);
/* status: "complete" or "interrupted". */
int snapshot_finish(sqlite3 *db, int64_t id, const struct walk_result *r,
    const struct project_rules *rules, const char *status,
    const struct snap_parts *parts, char *err, size_t errlen);
/* Best effort: mark a scan that could not finish. */
void snapshot_fail(sqlite3 *db, int64_t id);

/*
 * csvout.c: the fsstats CSV of a scan. Its temporary file is made when the
 * scan starts, before any database row exists, and renamed into place
 * only after the snapshot has committed: a run that cannot write its CSV
 * records nothing as complete. It is written as every output file is
 * (lib/outfile): never through a link nor over the database, and no more
 * readable than the database.
 */

struct csv_out {
	const char *prog;		/* names the program in messages */
	struct outfile f;
	int open;
};

/* Each returns 0, or -1 with a message on stderr. db is the database
 * the scan writes, at db_path. */
int csvout_open(struct csv_out *c, const char *prog, const char *path,
    sqlite3 *db, const char *db_path);
/* cap: statvfs at the scan, NULL when unknown (no Filesystem lines). */
int csvout_write(struct csv_out *c, const struct census *cs, int interrupted,
    const struct fs_capacity *cap, int links);
int csvout_commit(struct csv_out *c);
/* Close and remove the temporary file, if any. */
void csvout_discard(struct csv_out *c);

#endif
