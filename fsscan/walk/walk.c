/*
 * walk: one scan. Sets up the walker, runs its threads (crew.c) over the
 * pool (pool.c) visiting directories (visit.c), reports progress, and
 * merges the threads' results. The steps are separate (walk_new, walk_seed,
 * walk_go, walk_collect, walk_links) so that fsscan-mpi can put its own
 * driver in the main thread and resolve hard links across ranks;
 * walk_run is the whole of one process's scan.
 */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "human.h"
#include "walk_int.h"
#include "xalloc.h"

/* Progress on stderr, once a second, only when asked (a TTY by default). */
struct progress {
	struct walker *g;
	pthread_t th;
	_Atomic int done;
	uint64_t start_ns;
};

void
walk_so_far(const struct walker *g, struct walk_sofar *s)
{
	int nw = atomic_load_explicit(&g->started, memory_order_acquire);

	memset(s, 0, sizeof *s);
	for (int i = 0; i < nw; i++) {
		s->entries += atomic_load_explicit(&g->w[i].entries,
		    memory_order_relaxed);
		s->bytes += atomic_load_explicit(&g->w[i].bytes_seen,
		    memory_order_relaxed);
		s->errors += atomic_load_explicit(&g->w[i].errors_seen,
		    memory_order_relaxed);
	}
}

/* "fsscan: 1,234,567 entries (~45% of 2,716,000 inodes in use),
 * 12.3 GiB, 0 errors, 23,456/s, 52 s": the share only when ROOT is the
 * file system's root, where the used inodes are a fair denominator (hard
 * links make it an estimate). fsscan-mpi's rank 0 adds the other ranks'
 * counts, as they last sent them. */
static void
progress_line(const struct progress *p)
{
	char n[32], in[32], b[32], e[32], r[32], t[32], share[80] = "";
	const struct walker *g = p->g;
	double s = (double)(throttle_mono_ns() - p->start_ns) / 1e9;
	uint64_t used = g->o->inodes_used;
	struct walk_sofar so;

	walk_so_far(g, &so);
	so.entries += atomic_load_explicit(&g->remote_entries,
	    memory_order_relaxed);
	so.bytes += atomic_load_explicit(&g->remote_bytes,
	    memory_order_relaxed);
	so.errors += atomic_load_explicit(&g->remote_errors,
	    memory_order_relaxed);
	if (used > 0 && so.entries <= used)
		snprintf(share, sizeof share, " (~%d%% of %s inodes in use)",
		    (int)(100.0 * (double)so.entries / (double)used),
		    human_uint(used, in, sizeof in));
	fprintf(stderr, "\r%s: %s entries%s, %s, %s error%s, %s/s, %s"
	    "\033[K", g->o->prog ? g->o->prog : "fsscan",
	    human_uint(so.entries, n, sizeof n), share,
	    human_bytes(so.bytes, 1, b, sizeof b),
	    human_uint(so.errors, e, sizeof e), so.errors == 1 ? "" : "s",
	    human_uint(s > 0 ? (uint64_t)((double)so.entries / s) : 0, r,
	    sizeof r), human_duration((int64_t)s, t, sizeof t));
}

static void *
progress_main(void *arg)
{
	struct progress *p = arg;
	int ticks = 0;

	while (!atomic_load(&p->done)) {
		struct timespec ts = { 0, 100 * 1000 * 1000 };
		nanosleep(&ts, NULL);
		if (++ticks % 10)
			continue;
		progress_line(p);
	}
	if (ticks >= 10)
		fputc('\n', stderr);
	return NULL;
}

static int
open_root(const char *root, struct stat *st, char *err, size_t errlen)
{
	int fd;

	if (lstat(root, st) < 0) {
		snprintf(err, errlen, "%s: %s", root, strerror(errno));
		return -1;
	}
	if (S_ISLNK(st->st_mode)) {
		snprintf(err, errlen, "%s: is a symbolic link; fsscan never "
		    "follows links, give the directory it points to", root);
		return -1;
	}
	if (!S_ISDIR(st->st_mode)) {
		snprintf(err, errlen, "%s: not a directory", root);
		return -1;
	}
	fd = open(root,
	    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC | O_NOATIME);
	if (fd < 0 && errno == EPERM)
		fd = open(root,
		    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fstat(fd, st) < 0) {
		snprintf(err, errlen, "%s: %s", root, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

/* ROOT's item, holding its fd; its v_dir node comes with walk_seed. */
static struct dnode *
root_node(struct walker *g, int fd, const struct stat *st)
{
	const struct walk_opts *o = g->o;
	struct dnode *d = dnode_new(NULL, o->root, strlen(o->root));

	d->fd = fd;
	d->dev = st->st_dev;
	d->ino = st->st_ino;
	d->size = (uint64_t)st->st_size;
	d->blocks = (uint64_t)st->st_blocks;
	d->mtime = st->st_mtim.tv_sec;
	d->uid = st->st_uid;
	d->gid = st->st_gid;
	project_root(o->rules, &d->proj, fd, st->st_uid, st->st_gid,
	    st->st_mode);
	atomic_fetch_add(&d->refs, 1);	/* the walker's: keeps ROOT's fd open */
	return d;
}

struct walker *
walk_new(const struct walk_opts *o, char *err, size_t errlen)
{
	struct walker *g;
	struct stat st;
	int fd, lo;

	if ((fd = open_root(o->root, &st, err, errlen)) < 0)
		return NULL;
	g = xcalloc(1, sizeof *g);
	g->o = o;
	lo = o->threads > 0 ? o->threads : 1;
	tune_init(&g->tune, lo, o->threads_max, o->cpus, o->max_rate);
	g->nw = g->most = g->tune.hi;
	g->root_dev = st.st_dev;
	g->euid = geteuid();
	account_ref_init(&g->ref, o->now, o->cold_days, o->ncold);
	/* FD_SLOTS of the fd budget per thread for directories opened past
	 * it (visit.c), when the budget can spare them. */
	g->keep_slots = o->max_fds > 2 * FD_SLOTS * g->nw;
	atomic_init(&g->open_fds, walk_fd_reserve(g));
	throttle_init(&g->thr, o->max_rate);
	pthread_mutex_init(&g->idle_lk, NULL);
	pool_cond_init(&g->idle_cv);
	pool_cond_init(&g->tune_cv);
	pthread_cond_init(&g->park_cv, NULL);
	g->bell = &g->bell_own;
	/* Workers for the most threads, set up as their threads start. */
	g->w = xcalloc((size_t)g->nw, sizeof *g->w);
	for (int i = 0; i < lo; i++)
		crew_init_worker(g, i);
	atomic_init(&g->started, lo);
	atomic_init(&g->active, lo);
	g->peak = lo;
	g->root = root_node(g, fd, &st);
	g->start_ns = throttle_mono_ns();
	return g;
}

void
walk_seed(struct walker *g)
{
	struct dnode *root = g->root;

	/* ROOT's own node, unless the driver gave it another's stand-in:
	 * then it is counted there (walk_share). */
	if (!root->acct) {
		root->acct = dirtot_new(NULL, NULL, 0, &g->dir_seq);
		dirtot_list_push(&g->w[0].dirs, root->acct);
		hist_add(&g->w[0].c.h[METRIC_NAME_LEN], HS_LINEAR8,
		    root->namelen, 0);
	}
	g->seeded = 1;
	pool_push(&g->w[0], root);
}

void
walk_go(struct walker *g, void (*drive)(struct walker *, void *), void *arg)
{
	struct progress prog = { .g = g, .start_ns = g->start_ns };
	int first = drive ? 0 : 1;	/* without a driver, this thread works */

	if (g->o->progress)
		pthread_create(&prog.th, NULL, progress_main, &prog);
	crew_go(g, first);
	if (drive)
		drive(g, arg);
	else
		crew_main(&g->w[0]);
	crew_join(g, first);
	if (g->o->progress) {
		atomic_store(&prog.done, 1);
		pthread_join(prog.th, NULL);
	}
}

static void
workers_free(struct walker *g)
{
	for (int i = 0; i < atomic_load(&g->started); i++) {
		struct worker *w = &g->w[i];
		census_free(&w->c);
		project_cache_free(&w->pc);
		hardlink_free(&w->hl);
		dirtot_list_free(&w->dirs);
		free(w->dq);
		free(w->buf);
		free(w->later);
		pthread_mutex_destroy(&w->lk);
	}
	free(g->w);
}

/* Merge the threads' results into r and free the walker. Hard-linked
 * files are in r->hl, not yet accounted (walk_links). */
void
walk_collect(struct walker *g, struct walk_result *r)
{
	struct dnode *root = g->root;
	int nw;

	memset(r, 0, sizeof *r);
	close(root->fd);
	root->fd = -1;
	if (!g->seeded)
		dnode_release(g, root);		/* the item it never was */
	dnode_release(g, root);
	/* W3: every item is released, every budgeted fd closed */
	assert(atomic_load(&g->open_fds) == walk_fd_reserve(g));
	census_init(&r->c, g->o->topn);
	nw = atomic_load(&g->started);
	for (int i = 1; i < nw; i++)		/* the largest table first */
		if (g->w[i].hl.len > g->w[0].hl.len) {
			struct hltab t = g->w[0].hl;
			g->w[0].hl = g->w[i].hl;
			g->w[i].hl = t;
		}
	for (int i = 0; i < nw; i++) {
		struct worker *w = &g->w[i];
		census_merge(&r->c, &w->c);
		hardlink_merge(&r->hl, &w->hl);
		dirtot_list_take(&r->dirs, &w->dirs);
		r->entries += atomic_load(&w->entries);
	}
	dirtot_list_take(&r->stubs, &g->stubs);
	r->interrupted = atomic_load(&g->interrupted) || *g->o->stop;
	r->root_dev = g->root_dev;
	r->seconds = (double)(throttle_mono_ns() - g->start_ns) / 1e9;
	r->threads = g->peak;
	workers_free(g);
	pthread_mutex_destroy(&g->idle_lk);
	pthread_cond_destroy(&g->idle_cv);
	pthread_cond_destroy(&g->tune_cv);
	pthread_cond_destroy(&g->park_cv);
	free(g);
}

/* Account every hard-linked file once, under its owning link. */
void
walk_links(struct walk_result *r, const struct walk_opts *o)
{
	struct hltab *hl = &r->hl;
	struct account_ref ref;

	account_ref_init(&ref, o->now, o->cold_days, o->ncold);
	for (size_t i = 0; i < hl->len; i++) {
		struct hl_ent *e = &hl->e[i];
		account_file(&r->c, &ref, &e->f, NULL, NULL);
		topn_offer_ent(&r->c.top_files, e->f.size, &e->top);
	}
	r->c.hardlink_dups += hl->links - hl->len;
	hardlink_free(hl);
}

void
walk_resolve(struct walk_result *r)
{
	topn_resolve(&r->c.top_files);
	topn_resolve(&r->c.top_dirs);
	hardlink_resolve(&r->hl);
}

/* Sort the top-N lists and sum the subtrees: the last step of a scan. */
void
walk_finish(struct walk_result *r)
{
	walk_resolve(r);
	topn_sort(&r->c.top_files);
	topn_sort(&r->c.top_dirs);
	dirtot_finish(&r->dirs);
}

int
walk_run(const struct walk_opts *o, struct walk_result *r, char *err,
    size_t errlen)
{
	struct walker *g = walk_new(o, err, errlen);

	if (!g)
		return -1;
	walk_seed(g);
	walk_go(g, NULL, NULL);
	walk_collect(g, r);
	walk_links(r, o);
	walk_finish(r);
	return 0;
}

void
walk_result_free(struct walk_result *r)
{
	census_free(&r->c);
	hardlink_free(&r->hl);
	dirtot_list_free(&r->dirs);
	dirtot_list_free(&r->stubs);
}
