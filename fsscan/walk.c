/*
 * walk: the thread pool. Per-thread deques with steal-half, termination on
 * an atomic count of pending directories, and the final merge.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "walk_int.h"
#include "xalloc.h"

static void
deque_append(struct worker *w, struct dnode *d)
{
	if (w->tail == w->cap) {
		if (w->head > 0) {
			memmove(w->dq, w->dq + w->head,
			    (w->tail - w->head) * sizeof *w->dq);
			w->tail -= w->head;
			w->head = 0;
		}
		if (w->tail == w->cap) {
			w->cap = w->cap ? 2 * w->cap : 256;
			w->dq = xrealloc(w->dq, w->cap * sizeof *w->dq);
		}
	}
	w->dq[w->tail++] = d;
}

void
work_push(struct worker *w, struct dnode *d)
{
	struct walker *g = w->g;

	atomic_fetch_add(&g->pending, 1);
	pthread_mutex_lock(&w->lk);
	deque_append(w, d);
	pthread_mutex_unlock(&w->lk);
	if (atomic_load_explicit(&g->idle, memory_order_relaxed) > 0) {
		pthread_mutex_lock(&g->idle_lk);
		pthread_cond_signal(&g->idle_cv);
		pthread_mutex_unlock(&g->idle_lk);
	}
}

/* The owner works depth-first from the tail. */
static struct dnode *
pop_local(struct worker *w)
{
	struct dnode *d = NULL;

	pthread_mutex_lock(&w->lk);
	if (w->tail > w->head)
		d = w->dq[--w->tail];
	if (w->tail == w->head)
		w->head = w->tail = 0;
	pthread_mutex_unlock(&w->lk);
	return d;
}

/* Take half of a victim's items from the head: the shallowest ones, which
 * carry the most work, so steals stay rare. */
static struct dnode *
steal(struct worker *w)
{
	struct walker *g = w->g;
	struct dnode *tmp[512];

	for (int k = 1; k < g->nw; k++) {
		struct worker *v = &g->w[(w->id + k + (int)(rand_r(&w->seed) %
		    (unsigned)g->nw)) % g->nw];
		size_t n = 0;

		if (v == w)
			continue;
		pthread_mutex_lock(&v->lk);
		if (v->tail > v->head) {
			n = (v->tail - v->head + 1) / 2;
			if (n > sizeof tmp / sizeof *tmp)
				n = sizeof tmp / sizeof *tmp;
			memcpy(tmp, v->dq + v->head, n * sizeof *tmp);
			v->head += n;
		}
		pthread_mutex_unlock(&v->lk);
		if (n == 0)
			continue;
		pthread_mutex_lock(&w->lk);
		for (size_t i = 1; i < n; i++)
			deque_append(w, tmp[i]);
		pthread_mutex_unlock(&w->lk);
		return tmp[0];
	}
	return NULL;
}

static void
idle_wait(struct walker *g)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_nsec += 2 * 1000 * 1000;
	if (ts.tv_nsec >= 1000000000) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000;
	}
	pthread_mutex_lock(&g->idle_lk);
	atomic_fetch_add(&g->idle, 1);
	if (atomic_load(&g->pending) > 0)
		pthread_cond_timedwait(&g->idle_cv, &g->idle_lk, &ts);
	atomic_fetch_sub(&g->idle, 1);
	pthread_mutex_unlock(&g->idle_lk);
}

void
dnode_release(struct walker *g, struct dnode *d)
{
	while (d && atomic_fetch_sub(&d->refs, 1) == 1) {
		struct dnode *p = d->parent;
		if (d->fd >= 0 && p) {
			close(d->fd);
			if (d->fd_budgeted)
				atomic_fetch_sub(&g->open_fds, 1);
		}
		free(d);
		d = p;
	}
}

static void *
worker_main(void *arg)
{
	struct worker *w = arg;
	struct walker *g = w->g;

	for (;;) {
		struct dnode *d = pop_local(w);

		if (!d)
			d = steal(w);
		if (!d) {
			if (atomic_load(&g->pending) == 0)
				break;
			idle_wait(g);
			continue;
		}
		if (*g->o->stop)
			atomic_store(&g->interrupted, 1);
		else
			visit_dir(w, d);
		dnode_release(g, d);
		if (atomic_fetch_sub(&g->pending, 1) == 1) {
			pthread_mutex_lock(&g->idle_lk);
			pthread_cond_broadcast(&g->idle_cv);
			pthread_mutex_unlock(&g->idle_lk);
		}
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

static uint64_t
entries_so_far(const struct walker *g)
{
	uint64_t n = 0;

	for (int i = 0; i < g->nw; i++)
		n += atomic_load_explicit(&g->w[i].entries, memory_order_relaxed);
	return n;
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
		double s = (double)(mono_ns() - p->start_ns) / 1e9;
		uint64_t n = entries_so_far(p->g);
		fprintf(stderr, "\rfsscan: %llu entries, %.0f/s, %.0f s\033[K",
		    (unsigned long long)n, s > 0 ? (double)n / s : 0.0, s);
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
	fd = open(root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC | O_NOATIME);
	if (fd < 0 && errno == EPERM)
		fd = open(root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
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
	hist_add(&g.w[0].c.h[FH_NAME_LEN], HS_LINEAR8, (int64_t)root->namelen, 0);
	atomic_fetch_add(&root->refs, 1);	/* ours: keeps ROOT's fd open */
	work_push(&g.w[0], root);

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
