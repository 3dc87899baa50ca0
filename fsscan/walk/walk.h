/*
 * walk: the parallel census walk of one tree, the public header of
 * fsscan/walk/. What other rooms may use of the walker is declared here,
 * in three parts: what a walk counts (the census with its top-N lists,
 * its hard links and its directory totals), the walk itself (walk_run),
 * and the interface of a driver that feeds the walk directories from
 * elsewhere (fsscan-mpi).
 * walk_int.h holds what only the walker's own files share.
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
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "hist.h"
#include "i128.h"
#include "metric.h"
#include "project/project.h"

struct dnode;
struct dirtot;

/*
 * topn.c: the lists of the largest files and directories.
 *
 * A bounded min-heap keeping the largest keys. An entry is a path (owned),
 * or while the walk runs a directory held (dnode_hold) and, for a file,
 * its name (owned): topn_resolve turns those into paths.
 */
struct topn {
	struct top_ent {
		uint64_t key;
		char *path;
		struct dnode *dir;
		char *leaf;
		size_t leaflen;
	} *e;
	int cap, len;
};

/* Offer a candidate to a top-N heap; path is built by the caller only when
 * topn_wants() says the key would be kept. Takes ownership of path. */
void topn_offer(struct topn *t, uint64_t key, char *path);
/* Sort entries by key, largest first (ties by path) for output. */
void topn_sort(struct topn *t);

/*
 * census.c: what one scan counts. Each walker thread owns one struct
 * census and fills it without locks; census_merge() adds them once at the
 * end. Histograms add exactly, so the merged result does not depend on
 * how the work was split between threads.
 */

/* Totals for one owner, project or directory. Bytes are 128-bit: a few
 * sparse files of 2^63 - 1 bytes pass 2^64 (hist.h gives the bounds). */
struct acct {
	uint64_t files, dirs;
	u128 bytes, alloc;
};

/*
 * Cold data (account.c): a regular file is cold at `days` by its atime
 * (mtime) when now - atime >= days * 86400. A scan counts at most
 * ACCOUNT_COLD_MAX thresholds, ascending, each of 1 to
 * ACCOUNT_COLD_DAYS_MAX days (10,000 years: days * 86400 is below 2^39,
 * and now - that stays far inside int64_t for every time of lib/epoch.h).
 * A file adds to one bin, that of the largest threshold it reaches: bin k
 * holds the files cold at days[k] and not at days[k + 1], so the files
 * cold at days[k] are the sum of bins k and up (census_cold_sum), and
 * the hot path adds one count and one size whatever the thresholds.
 */
#define ACCOUNT_COLD_MAX 8
#define ACCOUNT_COLD_DAYS_MAX 3652425
enum { ACCOUNT_ATIME, ACCOUNT_MTIME, ACCOUNT_NCOLD_METRIC };

struct cold_bins {
	uint64_t n[ACCOUNT_COLD_MAX];
	u128 w[ACCOUNT_COLD_MAX];		/* bytes: Σ st_size */
};

/* A project's distributions, of its regular files only, as a reader gets
 * them (census_proj_dist): dense, 7 KiB. */
struct proj_dist {
	struct phist size, atime, mtime, ctime;
	struct cold_bins cold[ACCOUNT_NCOLD_METRIC];	/* by atime, mtime */
};

/* What a census holds of one project. Its distributions start with its
 * first regular file in a sparse form (census.c), the bins it uses and
 * its extremes, a few hundred bytes for a project of a few files; past
 * CENSUS_SPARSE_MAX bins they move to a dense struct proj_dist. */
struct pdist;
struct proj_stats {
	struct acct a;
	uint64_t entries;			/* everything attributed,
	    any type */
	int32_t id;				/* the project's */
	struct pdist *sparse;			/* NULL: none, or dense */
	struct proj_dist *dense;
};
#define CENSUS_SPARSE_MAX 32

/* uid or gid -> totals; open addressing, grows by doubling. An owner's
 * cold-data bins (account.c) are held only once it has a cold file, and
 * then sparse (census.c): the bins it uses, 24 bytes each, as most
 * owners have none and most of the others one or two per metric. */
struct ocold;
struct idmap {
	struct idmap_ent {
		uint32_t id, used;
		struct ocold *cold;	/* NULL: no cold file */
		struct acct a;
	} *e;
	size_t cap, len;
	size_t coldbytes;		/* what the cold bins take */
};

#define ERR_PATHS 5	/* first paths kept per errno */
struct errstat {
	int err;
	uint64_t count;
	int npaths;
	char *paths[ERR_PATHS];
};

struct census {
	/* v_snapshot totals: regular files counted once per inode */
	uint64_t files, dirs, symlinks, others;
	u128 bytes, alloc;
	/* fsstats scalars */
	u128 all_size, all_blocks;	/* every counted entry, roots included */
	uint64_t hardlink_dups, snapshot_dirs, symlink_rel, symlink_abs;
	uint64_t mounts_skipped, excluded;
	struct hist h[METRIC_COUNT];

	/* The projects met, in the order met (each names its id), found
	 * by id through a hash index of their positions (1 + position, 0
	 * empty); the last found first, as a thread adds runs of one. */
	struct proj_stats *projs;
	size_t nprojs, capprojs;
	uint32_t *projslot;
	size_t nprojslot;
	size_t projlast;
	int32_t projend;		/* one past the largest id */
	size_t distbytes;		/* what the distributions take */
	struct idmap users, groups;
	struct topn top_files;		/* key: st_size */
	struct topn top_dirs;		/* key: entries in the directory */

	struct errstat *errs;		/* sorted by err after merge */
	size_t nerrs;
	uint64_t nerrors;
};

/*
 * Every sum is exact in 128 bits (192 for value * weight) while a scan
 * counts fewer than 2^54 entries, 57 years at 10^7 entries per second:
 * each entry adds less than 2^73 (hist.h). The snapshot writer refuses
 * a census beyond that rather than store a total that could have wrapped
 * (R2).
 */
#define CENSUS_MAX_ENTRIES ((u128)1 << 54)

void census_init(struct census *c, int topn);
/* Entries counted: files, directories, symlinks and others. */
u128 census_entries(const struct census *c);
void census_free(struct census *c);
/* Add src into dst; src is left empty but valid (its paths move to dst). */
void census_merge(struct census *dst, struct census *src);

/* About what c holds, in bytes: its tables and what grows in them with
 * the projects, users and groups it has met. */
size_t census_bytes(const struct census *c);
/* Project proj's totals, made empty when c has met nothing of it. */
struct proj_stats *census_proj(struct census *c, int32_t proj);
/* Reading c's projects: a loop over the ids below census_proj_end;
 * census_proj_find gives an id's totals, NULL when nothing was
 * attributed to it, and census_proj_dist fills d with its
 * distributions, all empty when it has no regular file. Every reader
 * gets them so, whatever form c keeps them in. */
int32_t census_proj_end(const struct census *c);
const struct proj_stats *census_proj_find(const struct census *c,
    int32_t proj);
void census_proj_dist(const struct census *c, int32_t proj,
    struct proj_dist *d);
/* Add d (another census's, dense) to project proj's distributions. */
void census_proj_dist_add(struct census *c, int32_t proj,
    const struct proj_dist *d);
/* Cold-data bins (account.c): the files and bytes of b cold at threshold
 * k of nthr, bins k and up; dst += src, bin by bin. */
void census_cold_sum(const struct cold_bins *b, int nthr, int k,
    uint64_t *files, u128 *bytes);
void census_cold_merge(struct cold_bins *dst, const struct cold_bins *src);
/* The entry of an owner, made empty when m has met nothing of it. */
struct idmap_ent *census_idmap_get(struct idmap *m, uint32_t id);
/* Add n files of w bytes to bin k of metric (ACCOUNT_ATIME, ...) of e, an
 * entry of m; census_idmap_cold gives e's bins dense, all 0 when it has
 * none. */
void census_idmap_cold_add(struct idmap *m, struct idmap_ent *e, int metric,
    int k, uint64_t n, u128 w);
void census_idmap_cold(const struct idmap_ent *e,
    struct cold_bins cb[ACCOUNT_NCOLD_METRIC]);

/* Count an error; path may be NULL when more paths would not be kept. */
void census_error(struct census *c, int err, char *path);
/* Count n more errors err whose paths are not kept. */
void census_error_count(struct census *c, int err, uint64_t n);

/*
 * hardlink.c: regular files with st_nlink > 1, counted once per (dev, ino).
 *
 * Each thread keeps its own table; the tables are merged after the walk
 * and only then are the files accounted. The link that owns an inode (for
 * project, owner and directory totals) is the one with the smallest
 * (parent directory inode, name), so the result does not depend on which
 * thread saw which link first. This table is the only part of a scan's
 * memory that grows with the number of files.
 */

struct hl_file {
	uint64_t size, blocks;
	int64_t atime, mtime, ctime;
	uint32_t uid, gid, nlink;
	int32_t proj;			/* owning link's project */
	struct dirtot *acct;		/* owning link's v_dir node */
	int32_t rank;			/* fsscan-mpi: the rank that saw the
					   owning link (proj and acct are
					   that rank's) */
};

struct hl_ent {
	uint64_t dev, ino;
	uint64_t links;			/* links seen */
	uint64_t owner_pino;		/* owning link: parent dir inode */
	char *owner_name;		/* and name, owned */
	size_t owner_namelen;
	struct top_ent top;		/* for top-N: the smallest path of
					   the links offered, held while the
					   walk runs (struct topn) */
	struct hl_file f;
};

struct hltab {
	struct hl_ent *e;		/* e[0 .. len-1], in order of first link */
	size_t len, cap;
	uint32_t *slot;			/* hash index: 1 + position in e, 0 empty */
	size_t nslot;
	uint64_t links;			/* links seen in total */
};

/* Add links links to one inode, of which (pino, name) is the smallest
 * and f its file; name and what top owns (it may hold nothing) pass to
 * the table. */
void hardlink_add(struct hltab *t, uint64_t dev, uint64_t ino, uint64_t links,
    uint64_t pino, char *name, size_t namelen, const struct hl_file *f,
    struct top_ent *top);
/* The entry of (dev, ino), or NULL. */
struct hl_ent *hardlink_find(struct hltab *t, uint64_t dev, uint64_t ino);
void hardlink_free(struct hltab *t);

/*
 * dirtot.c: per-directory subtree totals for v_dir.
 *
 * Directories down to --dirs depth get a node; deeper ones add into their
 * nearest kept ancestor. A node holds its own name and a pointer to its
 * parent, never a path, so memory is linear in the number of nodes however
 * deep the tree (a path string per node would be quadratic in depth).
 * While walking, each directory adds its own direct content to its node
 * with relaxed atomic adds (once per directory, not per file);
 * dirtot_finish() then sums children into parents, deepest first.
 *
 * Each node has a sequence number, dense from 0 in the order nodes were
 * made (ROOT is 0): its row id in the database is a base plus seq, and
 * its parent's row id the same base plus the parent's seq.
 */

/* A 128-bit total that threads add to without a lock: the low half with
 * an atomic add, and each carry out of it into the high half. */
struct dirtot_u128 {
	_Atomic uint64_t lo, hi;
};

struct dirtot {
	struct dirtot *parent;
	uint64_t seq;			/* dense per scan, ROOT 0 */
	int rank;			/* -1: this process's own node; else a
					   stand-in for node seq of that rank */
	int depth;
	_Atomic uint64_t files, dirs;
	struct dirtot_u128 bytes, alloc;
	struct dirtot_u128 cold;	/* bytes not read since the longest
					   --cold threshold (v_dir
					   cold_bytes) */
	_Atomic int64_t max_mtime;
	_Atomic int any_mtime;		/* max_mtime holds a time: INT64_MIN
					   is one too */
	size_t namelen;
	char name[];			/* own name, "." for ROOT */
};

struct dirtot_list {
	struct dirtot **v;
	size_t len, cap;
};

/* Direct content of one directory, gathered without atomics. */
struct dirlocal {
	uint64_t files, dirs;
	u128 bytes, alloc;
	u128 cold;			/* of bytes, those of files cold at the
					   longest atime threshold */
	int64_t max_mtime;
	int any;
};

void dirtot_add(struct dirtot *t, const struct dirlocal *l);
/* What has been added to t, as a dirlocal (exact once every thread's
 * adds are done). */
void dirtot_get(const struct dirtot *t, struct dirlocal *l);
/* Sum subtrees and order the nodes by seq (parents before children), so
 * that node seq is l->v[seq]; call once, single-threaded. A node whose
 * parent is a stand-in adds its sum to it. */
void dirtot_finish(struct dirtot_list *l);

/*
 * walk.c: one scan of one tree.
 */

/* The most threads a walk grows to by itself on one node, and the part
 * of --max-fds each needs (the directory it reads, its slots', a share
 * of the budget for its children): the caller's bound on threads_max. */
#define WALK_THREADS_MAX	32
#define WALK_FDS_PER_THREAD	16

struct walk_opts {
	const char *root;		/* as given on the command line */
	int threads;			/* walker threads to start with */
	/* The most threads the walk may grow to while its threads wait on
	 * the file system (walk/tune.c); threads or less: fixed. */
	int threads_max;
	double cpus;			/* CPUs this process may use */
	int dirs_depth;			/* v_dir rows down to this depth; -1 all */
	int cross_mounts;
	const char *const *excludes;	/* fnmatch globs on entry names */
	int nexcludes;
	int max_fds;			/* directory fds held open at once */
	uint64_t max_rate;		/* stat calls per second, 0 unlimited */
	int topn;
	int64_t now;			/* reference time for ages */
	const uint32_t *cold_days;	/* cold-data thresholds in days,
					   ascending (ACCOUNT_COLD_MAX) */
	int ncold;
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
	int threads;			/* the most that walked at once */
	int interrupted;
	dev_t root_dev;
};

/* Walk opts->root. Returns 0, or -1 with a message in err when ROOT cannot
 * be walked at all (then r holds nothing to free). */
int walk_run(const struct walk_opts *o, struct walk_result *r, char *err,
    size_t errlen);
void walk_result_free(struct walk_result *r);

/*
 * Driving a walk: the interface of fsscan-mpi, whose ranks each walk the
 * tree with their threads while the main thread moves directories between
 * them.
 *
 * walk_run is walk_new, walk_seed, walk_go, walk_collect and the steps
 * after them; a driver takes the first four itself, and while its threads
 * work (walk_go's drive, in the calling thread) it feeds the pool items
 * made here for directories found elsewhere (dnode_new, pool_feed), with
 * stand-ins for their ancestors and their v_dir nodes (walk_stub), hands
 * the pool's oldest items to another walk (pool_give), naps until there
 * is something to do (pool_nap, rung by a thread that runs out of work),
 * and says when the walk is over (pool_end). Only the driver's thread
 * calls these.
 */

/* One walk: its threads, their deques and the fd budget (walk_int.h). */
struct walker;

/*
 * An item: a directory to visit. refs counts the item itself until it has
 * been visited plus one per child item alive. fd is set when the directory
 * is opened and is constant while any child exists: either it stays open
 * until the last child is released, or (over the fd budget) it is closed
 * before the children are published, and they reopen it through their
 * ancestors. A directory without an fd (closed for the budget, or a
 * stand-in for an ancestor of items from another rank, never visited) gets
 * shared_fd from the first child that reopens it, when the budget has
 * room: set once, from -1 to an open fd, read by any child, closed only
 * when the node is freed. So the children of one directory, whichever
 * thread takes them, reopen their ancestors once.
 *
 * life counts what needs the node's name: 1 while refs is not 0, one per
 * child node, one per dnode_hold (a top-N entry); the node is freed when
 * it drops to 0, so a held node outlives its fd, and keeps its ancestors.
 * jump is an ancestor (ROOT's is ROOT) chosen as in a skew-binary list
 * (Myers, 1983), so that any ancestor is reached in O(log depth) steps.
 *
 * A driver reads, and sets in the items it makes, what identifies a
 * directory: its name and parent, dev, ino, its own stat, no_read, its
 * v_dir node (acct) and its project state (proj); the rest is the
 * walker's.
 */
struct dnode {
	struct dnode *parent;
	struct dnode *jump;
	_Atomic int refs;
	_Atomic int life;
	int fd;
	int fd_budgeted;
	_Atomic int shared_fd;		/* budgeted; -1 until a child shares */
	uint64_t dev, ino;		/* identity, checked after openat */
	uint64_t size, blocks;		/* the directory's own stat */
	int64_t mtime;
	uint32_t uid, gid;
	int depth;
	uint8_t no_read;		/* .snapshot: count, do not descend */
	uint8_t listable;		/* every user may list it (its mode's
					   other bits: PROJECT_LISTABLE): one
					   bit of the walk's stat, no call */
	struct dirtot *acct;		/* v_dir node receiving its content */
	struct proj_dir proj;
	size_t namelen;
	char name[];
};

/* walk.c: the steps of walk_run. walk_new opens ROOT (NULL, with a
 * message in err, when it cannot); walk_seed makes ROOT the walk's first
 * item. */
struct walker *walk_new(const struct walk_opts *o, char *err, size_t errlen);
void walk_seed(struct walker *g);
/* Run the threads until the walk is over; drive, when given, runs in the
 * calling thread meanwhile (and all the workers are new threads). */
void walk_go(struct walker *g, void (*drive)(struct walker *, void *),
    void *arg);
/* Merge the threads' results into r and free the walker. Hard-linked
 * files are in r->hl, not yet accounted. */
void walk_collect(struct walker *g, struct walk_result *r);
/* Build the paths of the top-N entries and hard links' candidates, which
 * hold their directories until then. */
void walk_resolve(struct walk_result *r);
/* This process's entries, bytes and errors so far (its threads'), for a
 * progress line. */
struct walk_sofar {
	uint64_t entries, errors;
	double bytes;
};
void walk_so_far(const struct walker *g, struct walk_sofar *s);

/* drive.c: items also come from the driver, and bell is its doorbell: an
 * empty pool is then only idle, and the walk is over when pool_end says
 * so; a thread that begins to wait for work rings bell. */
void walk_feeder(struct walker *g, _Atomic uint32_t *bell);
/* ROOT's entries are split by their names' hash between n processes,
 * each walking from its share of them: this one is rank (0 to n - 1),
 * and only rank 0 counts ROOT itself. So every process starts with work
 * of its own, none with a steal. Each seeds its walk (walk_seed); all
 * but rank 0 give ROOT a stand-in for rank 0's v_dir node first. */
void walk_share(struct walker *g, int rank, int n);
/* ROOT's item, its st_dev, and the walk's project rules. */
struct dnode *walk_root(struct walker *g);
uint64_t walk_root_dev(const struct walker *g);
struct project_rules *walk_rules(const struct walker *g);
/* A stand-in for node seq of another rank (or of this one, reached
 * through another rank), under the stand-in parent (NULL for ROOT's
 * node); the walk keeps it, in walk_result's stubs. What is added to it
 * belongs to that node and to each of its ancestors. */
struct dirtot *walk_stub(struct walker *g, struct dirtot *parent, int rank,
    uint64_t seq);
/* The other processes' counts so far, added to this one's on the
 * progress line. */
void walk_remote(struct walker *g, const struct walk_sofar *s);
/* The walk's time (its seconds, the progress line's rate) runs from
 * now: when all the ranks have set up theirs. */
void walk_clock_reset(struct walker *g);

/* dnode.c: an item named name below parent (NULL: ROOT), with one
 * reference; drop one (the last closes its fds, the name may live on). */
struct dnode *dnode_new(struct dnode *parent, const char *name, size_t len);
void dnode_release(struct walker *g, struct dnode *d);

/* pool.c: queue n items from elsewhere on one thread's deque, the next in
 * turn (the other threads steal runs of siblings from it). */
void pool_feed(struct walker *g, struct dnode **items, size_t n);
/* Is nothing pending (queued or being visited)? */
int pool_idle(struct walker *g);
/* Some thread waits for work and none is queued: time to ask for more. */
int pool_hungry(struct walker *g);
/* Take up to max of the oldest queued items, at most half of them and
 * keeping one per idle thread, to hand to another process; once it is
 * packed, the caller releases each (dnode_release) and finishes it
 * (pool_done). */
size_t pool_give(struct walker *g, struct dnode **out, size_t max);
/* An item is finished: after its visit and release, or given away. */
void pool_done(struct walker *g);
/* The driver's pause: us microseconds, or less when its bell rings (a
 * thread begins to wait for work, a message comes) or has rung since the
 * last pool_nap returned (*seen, 0 at first). */
void pool_nap(struct walker *g, long us, uint32_t *seen);
/* The walk is over: the threads return from walk_go. */
void pool_end(struct walker *g);

/* account.c: the times a file is measured against: now, for its ages,
 * and the cold-data thresholds as times (cut[k] = now - days[k] * 86400:
 * a file is cold at days[k] when its time <= cut[k]). */
struct account_ref {
	int64_t now;
	int ncold;
	int64_t cut[ACCOUNT_COLD_MAX];
};
void account_ref_init(struct account_ref *ref, int64_t now,
    const uint32_t *days, int ndays);
/* Add one regular file to c. Its directory's share goes to
 * dl, or, when dl is NULL, straight to its v_dir node (f->acct), as for a
 * hard-linked file, accounted once after the walk under its owning link;
 * path, when not NULL, is offered as a top-N candidate (owned). */
void account_file(struct census *c, const struct account_ref *ref,
    const struct hl_file *f, struct dirlocal *dl, char *path);


/*
 * bell.c: a doorbell, one 32-bit word that threads, or processes sharing
 * the memory it lives in, ring and wait on (a Linux futex). Ringing never
 * blocks, and no ring is lost: a waiter sleeps only while the word still
 * holds the count it last saw.
 */
void bell_ring(_Atomic uint32_t *b);
/* Sleep for up to us microseconds, unless b has rung since it counted
 * *seen; then *seen is its count. */
void bell_wait(_Atomic uint32_t *b, uint32_t *seen, long us);

/* throttle.c: the monotonic clock, in nanoseconds, that the walk and its
 * driver time themselves by. */
uint64_t throttle_mono_ns(void);

#endif
