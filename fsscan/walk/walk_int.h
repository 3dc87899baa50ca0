/*
 * walk_int: what the walker's own files share, and no other room's
 * (walk.h is the room's public header): the state of a walk and of its
 * threads, and the functions only the walker calls.
 *
 *   walk.c      one scan: progress line, the merge
 *   crew.c      the threads: started, parked, and how many (tune.c)
 *   drive.c     what a driver (fsscan-mpi) sets and reads of a walk
 *   pool.c      work items: deques, stealing, termination
 *   dnode.c     directory items, their names and paths
 *   visit.c     one directory
 *   account.c   one entry into a thread's census
 *   census.c    the census, its merge, its errors
 *   topn.c      the census's top-N lists
 *   hardlink.c  the hard-link table
 *   dirtot.c    v_dir subtree totals
 *   throttle.c  --max-rate (throttle_int.h), the monotonic clock
 *   bell.c      the doorbell
 *   tune.c      how many threads walk (tune_int.h)
 */
#ifndef FSSCAN_WALK_INT_H
#define FSSCAN_WALK_INT_H

#include <pthread.h>
#include <stdatomic.h>

#include "throttle_int.h"
#include "tune_int.h"
#include "walk.h"

#define DIRBUF_SIZE (64 * 1024)
#define FD_SLOTS 2
/* Directories queued in the pool before the readers of wide directories
 * visit their own newest ones between chunks (visit.c, W7): about 190
 * bytes each, so the queue stays near 12 MiB however wide a directory. */
#define POOL_QUEUE_MAX (1 << 16)

struct walker;

struct worker {
	struct walker *g;
	int id;
	pthread_t th;
	int has_thread;			/* th runs it (crew.c) */
	pthread_mutex_t lk;		/* guards the deque */
	struct dnode **dq;
	size_t head, tail, cap;
	struct census c;
	struct project_cache pc;
	struct hltab hl;
	struct dirtot_list dirs;
	struct throttle_local tl;
	char *buf;			/* getdents64 buffer */
	struct dnode **later;		/* children held until the fd closes */
	size_t nlater, caplater;
	/* Directories this thread opened past the fd budget (the last it
	 * visited, the last parent it reopened), kept open with a reference,
	 * most recent first: their children often come next (visit.c). */
	struct dnode *slot[FD_SLOTS];
	int slot_fd[FD_SLOTS];
	_Atomic uint64_t entries;
	/* For the tuner (crew.c): time spent visiting directories, the
	 * start of the visit under way (0: none), time waiting for work. */
	_Atomic uint64_t busy_ns, busy_since, wait_ns;
	_Atomic int tid;		/* the kernel's id of its thread */
	_Atomic uint64_t state_bytes;	/* what its census holds, about */
	/* c.bytes and c.nerrors as of the last directory, for the
	 * progress line (c itself is this thread's alone); the bytes as a
	 * double, which only shows them and never wraps. */
	_Atomic double bytes_seen;
	_Atomic uint64_t errors_seen;
	unsigned seed;
};

struct walker {
	const struct walk_opts *o;
	struct worker *w;
	int nw;				/* the most threads: w's length */
	/* Threads started (w[0 .. started - 1] are set up, and stay so),
	 * and those of them that walk: a thread whose id is active or more
	 * parks after its directory (crew.c). */
	_Atomic int started, active;
	int peak;			/* the most that walked at once */
	int most;			/* the most that may: nw, or fewer
					   when a thread could not start */
	struct tune tune;
	pthread_t tuner;
	int tuning;			/* the tuner runs */
	_Atomic int tuner_stop;
	pthread_cond_t park_cv;		/* parked threads wait (idle_lk) */
	pthread_cond_t tune_cv;		/* the tuner naps (idle_lk) */
	struct dnode *root;		/* ROOT, holding its fd */
	int seeded;			/* ROOT is an item of this walk */
	/* ROOT's entries are split by name between share_n processes
	 * (walk_share): this one stats those of share_rank, and only share
	 * 0 counts ROOT itself. */
	int share_rank, share_n;
	int fed;			/* items also come from elsewhere (MPI):
					   no pending item is not the end */
	_Atomic int over;		/* the feeder says the walk is over */
	/* Other ranks' entries, bytes and errors, for rank 0's progress. */
	_Atomic uint64_t remote_entries, remote_errors;
	_Atomic double remote_bytes;
	struct dirtot_list stubs;	/* stand-ins for other ranks' nodes */
	int feed;			/* the deque the next batch goes to */
	uint64_t start_ns;
	_Atomic int64_t pending;	/* items pushed and not yet finished */
	_Atomic int64_t queued;		/* items in the deques */
	_Atomic int open_fds;		/* budgeted directory fds, and the
					   slots' reserve (W3) */
	int keep_slots;			/* FD_SLOTS per thread in the budget */
	_Atomic int idle;
	_Atomic int interrupted;
	_Atomic uint64_t dir_seq;	/* next v_dir node's number */
	pthread_mutex_t idle_lk;
	pthread_cond_t idle_cv;
	/* The feeder's doorbell (pool_nap), rung by a thread that begins to
	 * wait for work; under fsscan-mpi it lies in memory that the node's
	 * ranks share, and they ring it after each message to this rank. */
	_Atomic uint32_t *bell;
	_Atomic uint32_t bell_own;
	struct throttle thr;
	uint64_t root_dev;
	uid_t euid;
	struct account_ref ref;		/* now and the cold-data cuts */
};

/* The part of the fd budget kept for the threads' slots (visit.c): what
 * open_fds counts while no budgeted fd is open (W3). */
static inline int
walk_fd_reserve(const struct walker *g)
{
	return g->keep_slots ? FD_SLOTS * g->nw : 0;
}

/* crew.c: set up thread i's worker (not its thread); run a thread; start
 * the threads and the tuner, and wait for them. */
void crew_init_worker(struct walker *g, int i);
void *crew_main(void *arg);
void crew_go(struct walker *g, int first);
void crew_join(struct walker *g, int first);

/* walk.c: the steps of walk_run after walk_collect. */
/* Account every hard-linked file once, under its owning link. */
void walk_links(struct walk_result *r, const struct walk_opts *o);
/* Build the top-N paths (walk_resolve), sort the top-N lists and sum the
 * subtrees: the last step of a scan. */
void walk_finish(struct walk_result *r);

/* pool.c: queue d; the next item for w (its own newest, else half of a
 * victim's oldest), or NULL; 0 when the walk is over, else 1 after a short
 * wait for work. */
void pool_push(struct worker *w, struct dnode *d);
struct dnode *pool_take(struct worker *w);
/* w's own newest item, never another's; NULL when w's deque is empty. */
struct dnode *pool_pop(struct worker *w);
/* Items queued, over every thread. */
size_t pool_queued(const struct walker *g);
int pool_wait(struct walker *g);
/* w is parked (its id is active or more): wait until it walks again (1)
 * or the walk is over (0). */
int pool_park(struct worker *w);
/* Wake the parked threads: active rose, or the walk is over. */
void pool_unpark(struct walker *g);
/* A condition variable timed by the monotonic clock, which no clock
 * setting can stretch. */
void pool_cond_init(pthread_cond_t *cv);
/* Now plus us microseconds on that clock. */
struct timespec pool_deadline(long us);

/*
 * dnode.c: the names of a walk's directories, each item pointing to its
 * parent, so that a path is never stored but built when one is shown.
 *
 * A top-N entry holds a directory as a reference (dnode_hold) rather
 * than as its path, and compares it with another by dnode_pathcmp in
 * time logarithmic in their depth: building each candidate's path to
 * compare it, as a chain of directories would have every level do, costs
 * time quadratic in the depth.
 */
/* Full path of name inside d (or of d itself when name is NULL), joined
 * from ROOT as given. */
char *dnode_path(const struct dnode *d, const char *name, size_t namelen);
/* d's path below ROOT, "a/b/c" (its components, ROOT's excluded). */
char *dnode_relpath(const struct dnode *d);
/* strcmp(dnode_path(a, an, alen), dnode_path(b, bn, blen)), as its sign,
 * without building either path (an and bn may be NULL). */
int dnode_pathcmp(const struct dnode *a, const char *an, size_t alen,
    const struct dnode *b, const char *bn, size_t blen);
/* Keep d's name and its ancestors' (not its fd) until dnode_drop. */
void dnode_hold(struct dnode *d);
void dnode_drop(struct dnode *d);

/* visit.c */
void visit_dir(struct worker *w, struct dnode *d);
void visit_forget_slots(struct worker *w);

/* account.c: the other entries (account_file is in walk.h). */
void account_dir(struct census *c, const struct dnode *d, struct dirlocal *dl);
void account_symlink(struct census *c, int32_t proj, uint64_t size,
    uint64_t blocks, int64_t mtime, int target_abs, struct dirlocal *dl);
void account_other(struct census *c, int32_t proj, uint64_t size,
    uint64_t blocks, int64_t mtime, struct dirlocal *dl);

/* topn.c: what only the walker calls. */
/* Would a top-N heap keep key? */
int topn_wants(const struct topn *t, uint64_t key);
/* Offer leaf (NULL: dir itself) in dir without building its path: dir is
 * held and leaf copied only when kept. */
void topn_offer_at(struct topn *t, uint64_t key, struct dnode *dir,
    const char *leaf, size_t leaflen);
/* Turn every held entry into its path, letting go of its directory. */
void topn_resolve(struct topn *t);
/* One entry by itself (a hard link's candidate): strcmp of the paths of
 * a and b, held or not; its path; its release. */
int topn_ent_pathcmp(const struct top_ent *a, const struct top_ent *b);
void topn_ent_resolve(struct top_ent *e);
void topn_ent_free(struct top_ent *e);
/* Offer e (nothing when it has neither path nor directory) with key;
 * what e owns passes to t or is freed. */
void topn_offer_ent(struct topn *t, uint64_t key, struct top_ent *e);
/* Add src's entries into dst (src is left empty); free t's entries. */
void topn_merge(struct topn *dst, struct topn *src);
void topn_free(struct topn *t);

/* census.c: is a path of one more error err kept? */
int census_error_wants_path(const struct census *c, int err);
/* census.c: one regular file into its project's distributions: its size
 * (the weight of each bin), its ages by atime, mtime and ctime, and its
 * cold bins by atime and mtime (-1: not cold at any threshold). */
struct census_file {
	uint64_t size;
	i128 age[3];
	int cold[ACCOUNT_NCOLD_METRIC];
};
void census_dist_file(struct census *c, struct proj_stats *ps,
    const struct census_file *f);

/* hardlink.c: record one link, name in directory dir; dir is held as a
 * top-N candidate when top is set. */
void hardlink_note(struct hltab *t, uint64_t dev, uint64_t ino, uint64_t pino,
    struct dnode *dir, const char *name, size_t namelen,
    const struct hl_file *f, int top);
/* Build every entry's top-N path, letting go of its directory. */
void hardlink_resolve(struct hltab *t);
/* Move all of src into dst, combining links to the same inode. */
void hardlink_merge(struct hltab *dst, struct hltab *src);

/* dirtot.c: a node under parent (NULL: ROOT, named "."), numbered from
 * *seq. */
struct dirtot *dirtot_new(struct dirtot *parent, const char *name,
    size_t namelen, _Atomic uint64_t *seq);
/* A stand-in for node seq of another rank under the stand-in parent
 * (walk_stub). */
struct dirtot *dirtot_stub(struct dirtot *parent, int rank, uint64_t seq);
void dirtot_local_mtime(struct dirlocal *l, int64_t mtime);
void dirtot_list_push(struct dirtot_list *l, struct dirtot *t);
/* Move every node of src into dst. */
void dirtot_list_take(struct dirtot_list *dst, struct dirtot_list *src);
void dirtot_list_free(struct dirtot_list *l);

#endif
