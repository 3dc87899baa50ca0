/*
 * walk: the parallel census walk of one tree.
 *
 * Work items are directories. Each thread owns a deque: it pushes and pops
 * at the tail (depth-first, so pending work stays bounded by depth times
 * fan-out) and idle threads steal half of another deque from the head.
 * Directories are opened with openat() relative to their parent's fd, so
 * no path string is built except for error messages and top-N entries.
 */
#ifndef FSSCAN_WALK_H
#define FSSCAN_WALK_H

#include <signal.h>
#include <stdint.h>
#include <sys/types.h>

#include "census.h"
#include "dirtot.h"
#include "hardlink.h"
#include "project/project.h"

struct walk_opts {
	const char *root;		/* as given on the command line */
	int threads;
	int dirs_depth;			/* v_dir rows down to this depth; -1 all */
	int cross_mounts;
	const char *const *excludes;	/* fnmatch globs on entry names */
	int nexcludes;
	int max_fds;			/* directory fds held open at once */
	uint64_t max_rate;		/* stat calls per second, 0 unlimited */
	int topn;
	int64_t now;			/* reference time for ages */
	int progress;			/* progress line on stderr */
	const char *prog;		/* names the program in it (NULL:
					   "fsscan") */
	uint64_t inodes_used;		/* the file system's used inodes when
					   ROOT is its root (the progress
					   line's denominator); 0 unknown */
	int symlink_targets;		/* readlink for the rel/abs split */
	int stat_cached;		/* AT_STATX_DONT_SYNC: trust cached attrs */
	struct project_rules *rules;
	volatile sig_atomic_t *stop;	/* set by SIGINT/SIGTERM */
};

struct walk_result {
	struct census c;		/* merged over all threads */
	struct hltab hl;		/* hard links not yet accounted */
	struct dirtot_list dirs;	/* v_dir rows, subtree totals */
	struct dirtot_list stubs;	/* fsscan-mpi: other ranks' nodes */
	uint64_t entries;		/* names seen */
	double seconds;			/* wall time of the walk */
	int interrupted;
	dev_t root_dev;
};

/* Walk opts->root. Returns 0, or -1 with a message in err when ROOT cannot
 * be walked at all (then r holds nothing to free). */
int walk_run(const struct walk_opts *o, struct walk_result *r, char *err,
    size_t errlen);
void walk_result_free(struct walk_result *r);

#endif
