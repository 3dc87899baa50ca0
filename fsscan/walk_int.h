/*
 * walk_int: state shared by the walker's pieces: walk.c (one scan),
 * pool.c (work items), dnode.c (directory items), visit.c (one directory).
 * Not for use outside the walker.
 */
#ifndef FSSCAN_WALK_INT_H
#define FSSCAN_WALK_INT_H

#include <pthread.h>
#include <stdatomic.h>

#include "hardlink.h"
#include "throttle.h"
#include "walk.h"

/*
 * A directory to visit. refs counts the item itself until it has been
 * visited plus one per child item alive. fd is set when the directory is
 * opened and is constant while any child exists: either it stays open until
 * the last child is released, or (over the fd budget) it is closed before
 * the children are published, and they reopen it through their ancestors.
 */
struct dnode {
	struct dnode *parent;
	_Atomic int refs;
	int fd;
	int fd_budgeted;
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
	_Atomic uint64_t entries;
	/* c.bytes and c.nerrors as of the last directory, for the
	 * progress line (c itself is this thread's alone). */
	_Atomic uint64_t bytes_seen, errors_seen;
	unsigned seed;
};

struct walker {
	const struct walk_opts *o;
	struct worker *w;
	int nw;
	_Atomic int64_t pending;	/* items pushed and not yet finished */
	_Atomic int open_fds;		/* budgeted directory fds */
	_Atomic int idle;
	_Atomic int interrupted;
	pthread_mutex_t idle_lk;
	pthread_cond_t idle_cv;
	struct throttle thr;
	uint64_t root_dev;
	uid_t euid;
};

#define DIRBUF_SIZE (64 * 1024)

/* pool.c: queue d; the next item for w (its own newest, else half of a
 * victim's oldest), or NULL; 0 when the walk is over, else 1 after a short
 * wait for work; an item is finished (after its visit and release). */
void pool_push(struct worker *w, struct dnode *d);
struct dnode *pool_take(struct worker *w);
int pool_wait(struct walker *g);
void pool_done(struct walker *g);

/* dnode.c */
struct dnode *dnode_new(struct dnode *parent, const char *name, size_t len);
char *dnode_path(const struct dnode *d, const char *name, size_t namelen);
/* d's path below ROOT, "a/b/c" (its components, ROOT's excluded). */
char *dnode_relpath(const struct dnode *d);
void dnode_release(struct walker *g, struct dnode *d);

/* visit.c */
void visit_dir(struct worker *w, struct dnode *d);

/* account.c */
void account_file(struct census *c, int64_t now, const struct hl_file *f,
    struct dirlocal *dl, char *path);
void account_dir(struct census *c, const struct dnode *d, struct dirlocal *dl);
void account_symlink(struct census *c, int32_t proj, uint64_t size,
    uint64_t blocks, int64_t mtime, int target_abs, struct dirlocal *dl);
void account_other(struct census *c, int32_t proj, uint64_t size,
    uint64_t blocks, int64_t mtime, struct dirlocal *dl);

#endif
