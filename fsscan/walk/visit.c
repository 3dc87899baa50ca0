/*
 * visit: read one directory and account everything in it.
 *
 * Per getdents64 chunk, subdirectories are stat'ed and published first so
 * idle threads can take them, then the other entries are stat'ed in
 * directory order (which is what network file systems' statahead expects).
 * Every stat is relative to the directory fd: no path is ever resolved.
 */
#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "fmt.h"
#include "globlist.h"
#include "walk_int.h"
#include "xalloc.h"

#ifndef STATX_ATTR_MOUNT_ROOT
#define STATX_ATTR_MOUNT_ROOT 0x00002000
#endif

#define STAT_FLAGS (AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT)
#define STAT_MASK  (STATX_BASIC_STATS)

static void
record_error(struct worker *w, const struct dnode *d, const char *name,
    size_t namelen, int err)
{
	char *path = NULL;

	if (census_error_wants_path(&w->c, err)) {
		path = dnode_path(d, name, namelen);
		fmt_diag(stderr, "fsscan", "%s: %s", path, strerror(err));
	}
	census_error(&w->c, err, path);
}

static int
open_flags(const struct walker *g, uint32_t owner)
{
	int f = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;

	/* O_NOATIME needs ownership or CAP_FOWNER; reading a directory
	 * otherwise updates its atime, which sites use for purge policy. */
	if (g->euid == 0 || g->euid == owner)
		f |= O_NOATIME;
	return f;
}

static int
open_at(const struct walker *g, int dfd, const struct dnode *d)
{
	int fl = open_flags(g, d->uid);
	int fd = openat(dfd, d->name, fl);

	if (fd < 0 && errno == EPERM && (fl & O_NOATIME))
		fd = openat(dfd, d->name, fl & ~O_NOATIME);
	return fd;
}

/* The directory must still be the one that was stat'ed. */
static int
same_dir(int fd, const struct dnode *d)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return -1;
	if ((uint64_t)st.st_dev != d->dev || (uint64_t)st.st_ino != d->ino) {
		errno = ESTALE;
		return -1;
	}
	return 0;
}

/* The fd of p when it is open: its own, the one a child shared, or one
 * in the thread's slots. */
static int
fd_of(const struct worker *w, const struct dnode *p)
{
	int fd;

	if (p->fd >= 0)
		return p->fd;
	if ((fd = atomic_load_explicit(&p->shared_fd,
	    memory_order_acquire)) >= 0)
		return fd;
	for (int i = 0; i < FD_SLOTS; i++)
		if (w->slot[i] == p)
			return w->slot_fd[i];
	return -1;
}

void
visit_forget_slots(struct worker *w)
{
	for (int i = 0; i < FD_SLOTS; i++) {
		if (!w->slot[i])
			continue;
		close(w->slot_fd[i]);
		dnode_release(w->g, w->slot[i]);
		w->slot[i] = NULL;
	}
}

/*
 * Keep fd, a directory opened past the fd budget, in the thread's slots
 * (with a reference, so that the item outlives it), the oldest slot
 * giving way; 0, or -1 when the budget has no slots (fd stays the
 * caller's). The children of such a directory, or its siblings (items
 * handed over from another rank come in runs of siblings), are usually
 * taken by this thread next: they open from it instead of reopening it
 * through its ancestors, so a chain deeper than the budget costs one open
 * per level, not one per level and ancestor.
 */
static int
slot_put(struct worker *w, struct dnode *d, int fd)
{
	struct dnode *old = w->slot[FD_SLOTS - 1];
	int refs;

	if (!w->g->keep_slots)
		return -1;
	if (old) {
		close(w->slot_fd[FD_SLOTS - 1]);
		dnode_release(w->g, old);
	}
	memmove(w->slot + 1, w->slot, (FD_SLOTS - 1) * sizeof *w->slot);
	memmove(w->slot_fd + 1, w->slot_fd, (FD_SLOTS - 1) * sizeof *w->slot_fd);
	refs = atomic_fetch_add(&d->refs, 1);
	assert(refs > 0);	/* W1: d is an item being visited */
	(void)refs;
	w->slot[0] = d;
	w->slot_fd[0] = fd;
	return 0;
}

/*
 * Share *fd, p reopened by one of its children, with all of them: p's
 * shared_fd, within the fd budget. Another child may have shared its own
 * first: then *fd is closed and becomes that one. 0 when *fd is p's
 * shared fd now, -1 when the budget is full (*fd stays the caller's).
 */
static int
share_fd(struct worker *w, struct dnode *p, int *fd)
{
	struct walker *g = w->g;
	int none = -1;

	assert(*fd >= 0 && p->fd < 0);	/* W2: p has no fd of its own */
	if (atomic_fetch_add(&g->open_fds, 1) >= g->o->max_fds) {
		atomic_fetch_sub(&g->open_fds, 1);
		return -1;
	}
	if (!atomic_compare_exchange_strong_explicit(&p->shared_fd, &none,
	    *fd, memory_order_acq_rel, memory_order_acquire)) {
		close(*fd);
		atomic_fetch_sub(&g->open_fds, 1);
		*fd = none;
	}
	return 0;
}

/* Open d when its parent has no fd (closed for the fd budget, or a
 * stand-in for another rank's directory): walk up to the nearest open
 * ancestor and back down, sharing each ancestor's fd with its other
 * children, or keeping the parent's in a slot past the budget. The fd
 * returned is temporary. */
static int
reopen(struct worker *w, struct dnode *d)
{
	const struct walker *g = w->g;
	int pfd = fd_of(w, d->parent), tmp = -1, fd, e;

	if (pfd < 0) {
		pfd = reopen(w, d->parent);
		if (pfd >= 0 && share_fd(w, d->parent, &pfd) < 0 &&
		    slot_put(w, d->parent, pfd) < 0)
			tmp = pfd;
	}
	if (pfd < 0)
		return -1;
	fd = open_at(g, pfd, d);
	e = errno;
	if (tmp >= 0)
		close(tmp);
	if (fd >= 0 && same_dir(fd, d) < 0) {
		e = errno;
		close(fd);
		fd = -1;
	}
	errno = e;
	return fd;
}

static int
open_dir(struct worker *w, struct dnode *d)
{
	int fd, e, pfd = fd_of(w, d->parent);

	if (pfd >= 0)
		fd = open_at(w->g, pfd, d);
	else
		return reopen(w, d);
	if (fd >= 0 && same_dir(fd, d) < 0) {
		e = errno;
		close(fd);
		errno = e;
		fd = -1;
	}
	return fd;
}

static int
excluded(const struct walk_opts *o, const char *name)
{
	return globlist_match(o->excludes, (size_t)o->nexcludes, name) != NULL;
}

static int
stat_entry(struct worker *w, int fd, const char *name, struct statx *sx)
{
	/* On network and FUSE file systems a synced stat costs a second round
	 * trip per entry after the lookup; --stat-cached accepts the client's
	 * cached attributes instead. */
	int sync = w->g->o->stat_cached ? AT_STATX_DONT_SYNC : AT_STATX_SYNC_AS_STAT;

	throttle_op(&w->g->thr, &w->tl);
	return statx(fd, name, STAT_FLAGS | sync, STAT_MASK, sx);
}

static int
other_mount(const struct walker *g, const struct statx *sx)
{
	uint64_t dev = makedev(sx->stx_dev_major, sx->stx_dev_minor);

	if (g->o->cross_mounts)
		return 0;
	if (dev != g->root_dev)
		return 1;
	/* A bind mount of the same file system shares st_dev. */
	return (sx->stx_attributes_mask & STATX_ATTR_MOUNT_ROOT) &&
	    (sx->stx_attributes & STATX_ATTR_MOUNT_ROOT);
}

static void
hold_child(struct worker *w, struct dnode *c)
{
	w->later = xgrow(w->later, w->nlater, &w->caplater, sizeof *w->later,
	    64);
	w->later[w->nlater++] = c;
}

/* A subdirectory: publish it as a work item, now when d's fd stays open,
 * else once it is closed. */
static void
add_subdir(struct worker *w, struct dnode *d, const char *name, size_t len,
    const struct statx *sx, int publish_now)
{
	struct dnode *c;

	/* W2: d's fd is set before its first child exists: kept, or none */
	assert((d->fd >= 0) == publish_now);
	c = dnode_new(d, name, len);

	c->dev = makedev(sx->stx_dev_major, sx->stx_dev_minor);
	c->ino = sx->stx_ino;
	c->size = sx->stx_size;
	c->blocks = sx->stx_blocks;
	c->mtime = sx->stx_mtime.tv_sec;
	c->uid = sx->stx_uid;
	c->gid = sx->stx_gid;
	c->no_read = len == 9 && memcmp(name, ".snapshot", 9) == 0;
	c->listable = PROJECT_LISTABLE(sx->stx_mode);
	if (publish_now)
		pool_push(w, c);
	else
		hold_child(w, c);
}

static int
symlink_kind(const struct walk_opts *o, int fd, const char *name)
{
	char first;

	/* readlink updates the link's atime, so it is opt-in. */
	if (!o->symlink_targets)
		return -1;
	if (readlinkat(fd, name, &first, 1) != 1)
		return -1;
	return first == '/';
}

/* A non-directory: account it now, or defer it when hard-linked. */
static void
add_entry(struct worker *w, struct dnode *d, int fd, const char *name,
    size_t len, const struct statx *sx, struct dirlocal *dl)
{
	const struct walk_opts *o = w->g->o;
	mode_t m = sx->stx_mode;
	int32_t proj = project_of(o->rules, &d->proj, &w->pc, name,
	    sx->stx_uid, sx->stx_gid);

	if (S_ISREG(m)) {
		struct hl_file f = {
			.size = sx->stx_size, .blocks = sx->stx_blocks,
			.atime = sx->stx_atime.tv_sec,
			.mtime = sx->stx_mtime.tv_sec,
			.ctime = sx->stx_ctime.tv_sec,
			.uid = sx->stx_uid, .gid = sx->stx_gid,
			.nlink = sx->stx_nlink, .proj = proj, .acct = d->acct,
		};
		int top = topn_wants(&w->c.top_files, f.size);
		if (f.nlink > 1) {
			hardlink_note(&w->hl, makedev(sx->stx_dev_major,
			    sx->stx_dev_minor), sx->stx_ino, d->ino, d, name,
			    len, &f, top);
		} else {
			account_file(&w->c, &w->g->ref, &f, dl, NULL);
			if (top)
				topn_offer_at(&w->c.top_files, f.size, d,
				    name, len);
		}
	} else if (S_ISLNK(m)) {
		account_symlink(&w->c, proj, sx->stx_size, sx->stx_blocks,
		    sx->stx_mtime.tv_sec, symlink_kind(o, fd, name), dl);
	} else {
		account_other(&w->c, proj, sx->stx_size, sx->stx_blocks,
		    sx->stx_mtime.tv_sec, dl);
	}
}

/* Is ROOT's entry name this process's to stat (walk_share)? FNV-1a: the
 * processes agree on it whatever order each reads ROOT in. */
static int
in_share(const struct walker *g, const char *name)
{
	uint64_t h = 14695981039346656037ull;

	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		h = (h ^ *p) * 1099511628211ull;
	return h % (uint64_t)g->share_n == (uint64_t)g->share_rank;
}

/* Does this process count d itself (not only some of its entries)? */
static int
counts_dir(const struct walker *g, const struct dnode *d)
{
	return d->parent || g->share_rank == 0;
}

static int
skip_dot(const char *n)
{
	return n[0] == '.' && (n[1] == 0 || (n[1] == '.' && n[2] == 0));
}

/*
 * One getdents64 chunk, in two passes: directories first (published at
 * once when the fd stays open), then everything else.
 */
static void
read_chunk(struct worker *w, struct dnode *d, int fd, long n,
    struct dirlocal *dl, uint64_t *names, int publish_now)
{
	const struct walk_opts *o = w->g->o;
	struct statx sx;

	for (int pass = 0; pass < 2; pass++) {
		for (long off = 0; off < n;) {
			struct dirent64 *de = (struct dirent64 *)(w->buf + off);
			const char *name = de->d_name;
			int is_dir = de->d_type == DT_DIR ||
			    de->d_type == DT_UNKNOWN;
			size_t len;

			off += de->d_reclen;
			if (skip_dot(name) || is_dir != (pass == 0))
				continue;
			len = strlen(name);
			(*names)++;
			if (!d->parent && w->g->share_n > 1 &&
			    !in_share(w->g, name))
				continue;
			if (o->nexcludes && excluded(o, name)) {
				w->c.excluded++;
				continue;
			}
			if (stat_entry(w, fd, name, &sx) < 0) {
				record_error(w, d, name, len, errno);
				continue;
			}
			atomic_fetch_add_explicit(&w->entries, 1,
			    memory_order_relaxed);
			if (S_ISDIR(sx.stx_mode)) {
				if (other_mount(w->g, &sx)) {
					w->c.mounts_skipped++;
					continue;
				}
				hist_add(&w->c.h[METRIC_NAME_LEN], HS_LINEAR8,
				    (int64_t)len, 0);
				add_subdir(w, d, name, len, &sx, publish_now);
				continue;
			}
			hist_add(&w->c.h[METRIC_NAME_LEN], HS_LINEAR8,
			    (int64_t)len, 0);
			add_entry(w, d, fd, name, len, &sx, dl);
		}
	}
}

/* Choose the directory's v_dir node and project, and count it. */
static void
enter_dir(struct worker *w, struct dnode *d, int fd, struct dirlocal *dl)
{
	const struct walk_opts *o = w->g->o;

	if (d->parent) {
		if (o->dirs_depth < 0 || d->depth <= o->dirs_depth) {
			d->acct = dirtot_new(d->parent->acct, d->name,
			    d->namelen, &w->g->dir_seq);
			dirtot_list_push(&w->dirs, d->acct);
		} else {
			d->acct = d->parent->acct;
		}
		/* The one path built here: a project directory of depth:N,
		 * N > 1, is named by it (W4's exception). */
		char *rel = project_wants_path(o->rules, d->depth) ?
		    dnode_relpath(d) : NULL;

		project_dir(o->rules, &d->parent->proj, &d->proj, d->name,
		    rel, d->depth, fd, d->uid, d->gid, d->listable);
		free(rel);
	}
	if (counts_dir(w->g, d))
		account_dir(&w->c, d, dl);
	if (d->no_read)
		w->c.snapshot_dirs++;
}

static void
publish_held(struct worker *w)
{
	for (size_t i = 0; i < w->nlater; i++)
		pool_push(w, w->later[i]);
	w->nlater = 0;
}

/*
 * W7: the pool holds about POOL_QUEUE_MAX items at most, whatever the
 * tree: a directory of millions of subdirectories would otherwise queue
 * them all (190 bytes each) before any is visited. Past the bound, the
 * reader of such a directory visits its own newest items, depth-first,
 * between two chunks, until the pool is down to half the bound (GNU fts
 * bounds a wide directory's entries in the same spirit). The chunk just
 * read is done with, so w->buf is free for the visits.
 */
static void
drain_own(struct worker *w)
{
	struct dnode *c;

	if (pool_queued(w->g) <= POOL_QUEUE_MAX)
		return;
	while (pool_queued(w->g) > POOL_QUEUE_MAX / 2 && !*w->g->o->stop &&
	    (c = pool_pop(w)) != NULL) {
		/* W7: an item of the queue, not yet visited: nothing else
		 * holds it, and it has no fd yet */
		assert(atomic_load(&c->refs) == 1 && c->fd == -1);
		visit_dir(w, c);
		dnode_release(w->g, c);
		pool_done(w->g);
	}
}

void
visit_dir(struct worker *w, struct dnode *d)
{
	struct walker *g = w->g;
	struct dirlocal dl = { 0 };
	uint64_t names = 0;
	int fd = -1, keep = 0;
	long n;

	if (d->parent == NULL) {
		fd = d->fd;		/* ROOT is opened by walk_run */
		keep = 1;
	} else if (!d->no_read) {
		fd = open_dir(w, d);
		if (fd < 0)
			record_error(w, d, NULL, 0, errno);
	}
	enter_dir(w, d, fd, &dl);
	if (fd >= 0 && d->parent) {
		keep = atomic_fetch_add(&g->open_fds, 1) < g->o->max_fds;
		if (!keep)
			atomic_fetch_sub(&g->open_fds, 1);
		d->fd_budgeted = keep;
		/* W2: d->fd is set before any child exists, and an fd over
		 * the budget is never published (children reopen it) */
		assert(atomic_load(&d->refs) == 1 && d->fd == -1);
		if (keep)
			d->fd = fd;
	}
	while (fd >= 0 && !*g->o->stop &&
	    (n = getdents64(fd, w->buf, DIRBUF_SIZE)) != 0) {
		if (n < 0) {
			record_error(w, d, NULL, 0, errno);
			break;
		}
		read_chunk(w, d, fd, n, &dl, &names, keep);
		if (keep)
			drain_own(w);
	}
	if (*g->o->stop)
		atomic_store(&g->interrupted, 1);
	if (fd >= 0 && counts_dir(g, d)) {
		hist_add(&w->c.h[METRIC_DIR_ENTRIES], HS_COUNT, names, 0);
		hist_add(&w->c.h[METRIC_DIR_SIZE], HS_SIZE, d->size, 0);
		if (topn_wants(&w->c.top_dirs, names))
			topn_offer_at(&w->c.top_dirs, names, d, NULL, 0);
	}
	dirtot_add(d->acct, &dl);
	if (fd >= 0 && !keep) {
		if (slot_put(w, d, fd) < 0)
			close(fd);
		publish_held(w);
	}
}
