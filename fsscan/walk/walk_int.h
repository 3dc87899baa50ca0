/*
 * walk_int: state shared by the walker's pieces: walk.c (one scan),
 * pool.c (work items), dnode.c (directory items), visit.c (one directory).
 * Not for use outside the walker.
 */
#ifndef FSSCAN_WALK_INT_H
#define FSSCAN_WALK_INT_H

#include <pthread.h>
#include <stdatomic.h>

#include "bell.h"
#include "dnode.h"
#include "hardlink.h"
#include "throttle.h"
#include "walk.h"

/*
 * A directory to visit. refs counts the item itself until it has been
 * visited plus one per child item alive. fd is set when the directory is
 * opened and is constant while any child exists: either it stays open until
 * the last child is released, or (over the fd budget) it is closed before
 * the children are published, and they reopen it through their ancestors.
 * A directory without an fd (closed for the budget, or a stand-in for an
 * ancestor of items from another rank, never visited) gets shared_fd from
 * the first child that reopens it, when the budget has room: set once,
 * from -1 to an open fd, read by any child, closed only when the node is
 * freed. So the children of one directory, whichever thread takes them,
 * reopen their ancestors once.
 *
 * life counts what needs the node's name: 1 while refs is not 0, one per
 * child node, one per dnode_hold (a top-N entry); the node is freed when
 * it drops to 0, so a held node outlives its fd, and keeps its ancestors.
 * jump is an ancestor (ROOT's is ROOT) chosen as in a skew-binary list
 * (Myers, 1983), so that any ancestor is reached in O(log depth) steps.
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
	int no_read;			/* .snapshot: count, do not descend */
	struct dirtot *acct;		/* v_dir node receiving its content */
	struct proj_dir proj;
	size_t namelen;
	char name[];
};

#define DIRBUF_SIZE (64 * 1024)
#define FD_SLOTS 2

struct walker;

struct worker {
	struct walker *g;
	int id;
	pthread_t th;
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
	int nw;
	struct dnode *root;		/* ROOT, holding its fd */
	int seeded;			/* ROOT is an item of this walk */
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
	_Atomic int open_fds;		/* budgeted directory fds */
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
};



/* walk.c: the steps of walk_run (walk.h), for a driver of its own */
struct walker *walk_new(const struct walk_opts *o, char *err, size_t errlen);
void walk_seed(struct walker *g);
/* Run the threads until the walk is over; drive, when given, runs in the
 * calling thread meanwhile (and all g->nw workers are new threads). */
void walk_go(struct walker *g, void (*drive)(struct walker *, void *),
    void *arg);
void walk_collect(struct walker *g, struct walk_result *r);
void walk_links(struct walk_result *r, int64_t now);
/* Build the paths of the top-N entries and hard links' candidates, which
 * hold their directories until then (census.h); walk_finish does it. */
void walk_resolve(struct walk_result *r);
void walk_finish(struct walk_result *r);
/* This process's entries, bytes and errors so far (its threads'), for a
 * progress line. */
struct walk_sofar {
	uint64_t entries, errors;
	double bytes;
};
void walk_so_far(const struct walker *g, struct walk_sofar *s);

/* pool.c: queue d; the next item for w (its own newest, else half of a
 * victim's oldest), or NULL; 0 when the walk is over, else 1 after a short
 * wait for work; an item is finished (after its visit and release). */
void pool_push(struct worker *w, struct dnode *d);
struct dnode *pool_take(struct worker *w);
int pool_wait(struct walker *g);
void pool_done(struct walker *g);
/* For a feeder outside the threads (g->fed): is nothing pending; take up
 * to max of the oldest queued items, at most half of them and keeping one
 * per idle thread, to hand to another process (each then released and
 * pool_done by the caller); end the walk. */
int pool_idle(struct walker *g);
/* Some thread waits for work and none is queued: time to ask for more. */
int pool_hungry(struct walker *g);
size_t pool_give(struct walker *g, struct dnode **out, size_t max);
/* The feeder's pause: us microseconds, or less when g->bell rings (a
 * thread begins to wait for work, a message comes) or has rung since the
 * last pool_nap returned (*seen, 0 at first). */
void pool_nap(struct walker *g, long us, uint32_t *seen);
/* A condition variable timed by the monotonic clock, which no clock
 * setting can stretch. */
void pool_cond_init(pthread_cond_t *cv);
void pool_end(struct walker *g);

/* dnode.c (and dnode.h) */
struct dnode *dnode_new(struct dnode *parent, const char *name, size_t len);
void dnode_release(struct walker *g, struct dnode *d);

/* visit.c */
void visit_dir(struct worker *w, struct dnode *d);
void visit_forget_slots(struct worker *w);

/* account.c */
void account_file(struct census *c, int64_t now, const struct hl_file *f,
    struct dirlocal *dl, char *path);
void account_dir(struct census *c, const struct dnode *d, struct dirlocal *dl);
void account_symlink(struct census *c, int32_t proj, uint64_t size,
    uint64_t blocks, int64_t mtime, int target_abs, struct dirlocal *dl);
void account_other(struct census *c, int32_t proj, uint64_t size,
    uint64_t blocks, int64_t mtime, struct dirlocal *dl);

#endif
