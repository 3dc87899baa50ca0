/*
 * walk: one scan. Sets up the threads, runs each over the pool (pool.c)
 * visiting directories (visit.c), reports progress, and merges the
 * threads' results.
 */
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

static void *
worker_main(void *arg)
{
	struct worker *w = arg;
	struct walker *g = w->g;

	for (;;) {
		struct dnode *d = pool_take(w);

		if (!d) {
			if (!pool_wait(g))
				break;
			continue;
		}
		if (*g->o->stop)
			atomic_store(&g->interrupted, 1);
		else {
			visit_dir(w, d);
			atomic_store_explicit(&w->bytes_seen, w->c.bytes,
			    memory_order_relaxed);
			atomic_store_explicit(&w->errors_seen, w->c.nerrors,
			    memory_order_relaxed);
		}
		dnode_release(g, d);
		pool_done(g);
	}
	return NULL;
}

/* Progress on stderr, once a second, only when asked (a TTY by default). */
struct progress {
	struct walker *g;
	pthread_t th;
	_Atomic int done;
	uint64_t start_ns;
};

/* Entries, bytes and errors so far, summed over the threads. */
static void
so_far(const struct walker *g, uint64_t *entries, uint64_t *bytes,
    uint64_t *errors)
{
	*entries = *bytes = *errors = 0;
	for (int i = 0; i < g->nw; i++) {
		*entries += atomic_load_explicit(&g->w[i].entries,
		    memory_order_relaxed);
		*bytes += atomic_load_explicit(&g->w[i].bytes_seen,
		    memory_order_relaxed);
		*errors += atomic_load_explicit(&g->w[i].errors_seen,
		    memory_order_relaxed);
	}
}

/* "fsscan: 1,234,567 entries (~45% of 2,716,000 inodes in use),
 * 12.3 GiB, 0 errors, 23,456/s, 52 s": the share only when ROOT is the
 * file system's root, where the used inodes are a fair denominator (hard
 * links make it an estimate). */
static void
progress_line(const struct progress *p)
{
	char n[32], in[32], b[32], e[32], r[32], t[32], share[80] = "";
	double s = (double)(mono_ns() - p->start_ns) / 1e9;
	uint64_t entries, bytes, errors, used = p->g->o->inodes_used;

	so_far(p->g, &entries, &bytes, &errors);
	if (used > 0 && entries <= used)
		snprintf(share, sizeof share, " (~%d%% of %s inodes in use)",
		    (int)(100.0 * (double)entries / (double)used),
		    human_uint(used, in, sizeof in));
	fprintf(stderr, "\rfsscan: %s entries%s, %s, %s error%s, %s/s, %s"
	    "\033[K", human_uint(entries, n, sizeof n), share,
	    human_bytes((double)bytes, 1, b, sizeof b),
	    human_uint(errors, e, sizeof e), errors == 1 ? "" : "s",
	    human_uint(s > 0 ? (uint64_t)((double)entries / s) : 0, r,
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

static struct dnode *
root_node(const struct walk_opts *o, int fd, const struct stat *st)
{
	struct dnode *d = dnode_new(NULL, o->root, strlen(o->root));

	d->fd = fd;
	d->dev = st->st_dev;
	d->ino = st->st_ino;
	d->size = (uint64_t)st->st_size;
	d->blocks = (uint64_t)st->st_blocks;
	d->mtime = st->st_mtim.tv_sec;
	d->uid = st->st_uid;
	d->gid = st->st_gid;
	d->acct = dirtot_new(NULL, NULL, 0);
	project_root(o->rules, &d->proj, fd, st->st_uid, st->st_gid);
	return d;
}

/* Merge the threads' results; hard-linked files are accounted only now,
 * once each, under their owning link. */
static void
merge(struct walker *g, struct walk_result *r)
{
	struct hltab hl = { 0 };

	census_init(&r->c, g->o->topn);
	for (int i = 0; i < g->nw; i++) {
		struct worker *w = &g->w[i];
		census_merge(&r->c, &w->c);
		hl_merge(&hl, &w->hl);
		dirtot_list_take(&r->dirs, &w->dirs);
		r->entries += atomic_load(&w->entries);
	}
	for (size_t i = 0; i < hl.cap; i++) {
		struct hl_ent *e = &hl.e[i];
		if (!e->links)
			continue;
		account_file(&r->c, g->o->now, &e->f, NULL, e->path);
		e->path = NULL;
	}
	r->c.hardlink_dups += hl.links - hl.len;
	hl_free(&hl);
}

static void
workers_free(struct walker *g)
{
	for (int i = 0; i < g->nw; i++) {
		struct worker *w = &g->w[i];
		census_free(&w->c);
		project_cache_free(&w->pc);
		hl_free(&w->hl);
		dirtot_list_free(&w->dirs);
		free(w->dq);
		free(w->buf);
		free(w->later);
		pthread_mutex_destroy(&w->lk);
	}
	free(g->w);
}

int
walk_run(const struct walk_opts *o, struct walk_result *r, char *err,
    size_t errlen)
{
	struct walker g = { .o = o, .nw = o->threads > 0 ? o->threads : 1 };
	struct progress prog = { .g = &g };
	struct stat st;
	struct dnode *root;
	uint64_t t0 = mono_ns();
	int fd;

	memset(r, 0, sizeof *r);
	if ((fd = open_root(o->root, &st, err, errlen)) < 0)
		return -1;
	g.root_dev = st.st_dev;
	g.euid = geteuid();
	throttle_init(&g.thr, o->max_rate);
	pthread_mutex_init(&g.idle_lk, NULL);
	pthread_cond_init(&g.idle_cv, NULL);
	g.w = xcalloc((size_t)g.nw, sizeof *g.w);
	for (int i = 0; i < g.nw; i++) {
		struct worker *w = &g.w[i];
		w->g = &g;
		w->id = i;
		w->seed = (unsigned)i * 2654435761u + 1;
		w->buf = xmalloc(DIRBUF_SIZE);
		census_init(&w->c, o->topn);
		pthread_mutex_init(&w->lk, NULL);
	}
	root = root_node(o, fd, &st);
	dirtot_list_push(&g.w[0].dirs, root->acct);
	hist_add(&g.w[0].c.h[METRIC_NAME_LEN], HS_LINEAR8,
	    (int64_t)root->namelen, 0);
	atomic_fetch_add(&root->refs, 1);	/* ours: keeps ROOT's fd open */
	pool_push(&g.w[0], root);

	prog.start_ns = t0;
	if (o->progress)
		pthread_create(&prog.th, NULL, progress_main, &prog);
	for (int i = 1; i < g.nw; i++)
		pthread_create(&g.w[i].th, NULL, worker_main, &g.w[i]);
	worker_main(&g.w[0]);
	for (int i = 1; i < g.nw; i++)
		pthread_join(g.w[i].th, NULL);
	if (o->progress) {
		atomic_store(&prog.done, 1);
		pthread_join(prog.th, NULL);
	}
	close(root->fd);
	root->fd = -1;
	dnode_release(&g, root);

	merge(&g, r);
	topn_sort(&r->c.top_files);
	topn_sort(&r->c.top_dirs);
	dirtot_finish(&r->dirs);
	r->interrupted = atomic_load(&g.interrupted) || *o->stop;
	r->root_dev = st.st_dev;
	r->seconds = (double)(mono_ns() - t0) / 1e9;
	workers_free(&g);
	pthread_mutex_destroy(&g.idle_lk);
	pthread_cond_destroy(&g.idle_cv);
	return 0;
}

void
walk_result_free(struct walk_result *r)
{
	census_free(&r->c);
	dirtot_list_free(&r->dirs);
}
