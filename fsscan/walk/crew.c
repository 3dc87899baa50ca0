/*
 * crew: the walk's threads. Each takes directories from the pool and
 * visits them; a thread whose id is not below g->active parks after its
 * directory, and what it had queued is stolen by the others.
 *
 * When the count is not fixed (-j), a tuner thread measures the walk
 * every TUNE_WINDOW_MS and sets the count (tune.c decides): it starts
 * threads as they are first needed, up to g->nw, and parks them again
 * when they no longer pay. A started thread keeps its worker (census,
 * deque) to the end: what it counted is merged with the others'.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "walk_int.h"
#include "xalloc.h"

void
crew_init_worker(struct walker *g, int i)
{
	struct worker *w = &g->w[i];

	w->g = g;
	w->id = i;
	w->seed = (unsigned)i * 2654435761u + 1;
	w->buf = xmalloc(DIRBUF_SIZE);
	census_init(&w->c, g->o->topn);
	pthread_mutex_init(&w->lk, NULL);
}

/* Visit d, timing it for the tuner. */
static void
crew_visit(struct worker *w, struct dnode *d)
{
	uint64_t t0 = throttle_mono_ns();

	atomic_store_explicit(&w->busy_since, t0, memory_order_relaxed);
	visit_dir(w, d);
	atomic_store_explicit(&w->busy_since, 0, memory_order_relaxed);
	atomic_fetch_add_explicit(&w->busy_ns, throttle_mono_ns() - t0,
	    memory_order_relaxed);
}

/* Wait for work, timing it; 0 when the walk is over. */
static int
crew_wait(struct worker *w)
{
	uint64_t t0 = throttle_mono_ns();
	int more = pool_wait(w->g);

	atomic_fetch_add_explicit(&w->wait_ns, throttle_mono_ns() - t0,
	    memory_order_relaxed);
	return more;
}

/* About what w's thread holds: its buffer, its census and what grows in
 * it with the projects, users and groups seen (tune_cap). */
static uint64_t
state_bytes(const struct worker *w)
{
	return sizeof *w + DIRBUF_SIZE + census_bytes(&w->c);
}

void *
crew_main(void *arg)
{
	struct worker *w = arg;
	struct walker *g = w->g;

	atomic_store(&w->tid, gettid());
	for (;;) {
		struct dnode *d;

		if (w->id >= atomic_load(&g->active)) {
			/* A parked thread holds no fds beyond the budget. */
			visit_forget_slots(w);
			if (!pool_park(w))
				break;
		}
		if (!(d = pool_take(w))) {
			if (!crew_wait(w))
				break;
			continue;
		}
		if (*g->o->stop)
			atomic_store(&g->interrupted, 1);
		else {
			crew_visit(w, d);
			atomic_store_explicit(&w->state_bytes,
			    state_bytes(w), memory_order_relaxed);
			atomic_store_explicit(&w->bytes_seen,
			    (double)w->c.bytes, memory_order_relaxed);
			atomic_store_explicit(&w->errors_seen, w->c.nerrors,
			    memory_order_relaxed);
		}
		dnode_release(g, d);
		pool_done(g);
	}
	visit_forget_slots(w);
	return NULL;
}

/* Thread tid's time on a CPU and runnable in the run queue, from
 * /proc/self/task/TID/schedstat; -1 when the kernel does not say. */
static int
sched_times(int tid, uint64_t *cpu, uint64_t *runq)
{
	char path[64], buf[128];
	int fd;
	ssize_t n;

	snprintf(path, sizeof path, "/proc/self/task/%d/schedstat", tid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	return sscanf(buf, "%" SCNu64 " %" SCNu64, cpu, runq) == 2 ? 0 : -1;
}

/* The walk's totals so far, as the tuner differences them; *sched
 * cleared when a thread's schedstat could not be read. */
static struct tune_sample
measure(struct walker *g, int *sched)
{
	struct tune_sample s = { .ns = throttle_mono_ns() };
	int nw = atomic_load_explicit(&g->started, memory_order_acquire);
	struct timespec cpu;

	for (int i = 0; i < nw; i++) {
		struct worker *w = &g->w[i];
		uint64_t since = atomic_load_explicit(&w->busy_since,
		    memory_order_relaxed), c, q;
		int tid = atomic_load(&w->tid);

		s.entries += atomic_load_explicit(&w->entries,
		    memory_order_relaxed);
		s.busy_ns += atomic_load_explicit(&w->busy_ns,
		    memory_order_relaxed);
		/* The visit under way so far: its end adds the whole. */
		if (since && since < s.ns)
			s.busy_ns += s.ns - since;
		s.wait_ns += atomic_load_explicit(&w->wait_ns,
		    memory_order_relaxed);
		if (*sched && tid > 0 && sched_times(tid, &c, &q) == 0) {
			s.cpu_ns += c;
			s.runq_ns += q;
		} else if (tid > 0) {
			*sched = 0;
		}
	}
	if (!*sched) {
		s.runq_ns = 0;
		if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu) == 0)
			s.cpu_ns = (uint64_t)cpu.tv_sec * 1000000000u +
			    (uint64_t)cpu.tv_nsec;
	}
	return s;
}

/* The most state one thread holds now. */
static uint64_t
per_thread(struct walker *g)
{
	int nw = atomic_load_explicit(&g->started, memory_order_acquire);
	uint64_t most = 0;

	for (int i = 0; i < nw; i++) {
		uint64_t b = atomic_load_explicit(&g->w[i].state_bytes,
		    memory_order_relaxed);
		if (b > most)
			most = b;
	}
	return most;
}

/* b - a, field by field; a count that went back (a visit under way at a
 * and ended since is counted whole at b) gives 0. */
static uint64_t
since(uint64_t a, uint64_t b)
{
	return b > a ? b - a : 0;
}

static struct tune_sample
window(const struct tune_sample *a, const struct tune_sample *b)
{
	return (struct tune_sample){ .ns = since(a->ns, b->ns),
	    .entries = since(a->entries, b->entries),
	    .busy_ns = since(a->busy_ns, b->busy_ns),
	    .wait_ns = since(a->wait_ns, b->wait_ns),
	    .cpu_ns = since(a->cpu_ns, b->cpu_ns),
	    .runq_ns = since(a->runq_ns, b->runq_ns) };
}

/* n threads walk from now on: start those never started, wake the
 * parked ones (or let the extra ones park). */
static void
crew_set(struct walker *g, int n)
{
	int started = atomic_load(&g->started);

	for (; started < n; started++) {
		struct worker *w = &g->w[started];

		crew_init_worker(g, started);
		/* Stealers see a worker only once it is set up. */
		atomic_store_explicit(&g->started, started + 1,
		    memory_order_release);
		if (pthread_create(&w->th, NULL, crew_main, w) != 0) {
			/* It stays a worker without a thread: its deque
			 * is empty, and it is merged as the others are. */
			atomic_store(&g->started, started + 1);
			g->most = started;
			break;
		}
		w->has_thread = 1;
	}
	if (n > started)
		n = started;
	if (n > g->peak)
		g->peak = n;
	if (n > atomic_exchange(&g->active, n))
		pool_unpark(g);
}

/* One window's end: measure, and set the threads for the next. */
static void
tune_window(struct walker *g, struct tune_sample *last, int *sched)
{
	int was = *sched;
	struct tune_sample now = measure(g, sched), s;

	/* A thread's schedstat lost: this window's CPU time is of two
	 * kinds; measure again from here. */
	if (was && !*sched) {
		*last = measure(g, sched);
		return;
	}
	s = window(last, &now);
	*last = now;
	g->tune.hi = tune_cap(g->tune.lo, g->most, per_thread(g));
	crew_set(g, tune_step(&g->tune, &s));
}

static void *
tuner_main(void *arg)
{
	struct walker *g = arg;
	int sched = 1;
	struct tune_sample last = measure(g, &sched);
	long ms = TUNE_FIRST_MS;

	pthread_mutex_lock(&g->idle_lk);
	while (!atomic_load(&g->tuner_stop)) {
		struct timespec ts = pool_deadline(ms * 1000L);

		pthread_cond_timedwait(&g->tune_cv, &g->idle_lk, &ts);
		if (atomic_load(&g->tuner_stop))
			break;
		pthread_mutex_unlock(&g->idle_lk);
		tune_window(g, &last, &sched);
		ms = TUNE_WINDOW_MS;
		pthread_mutex_lock(&g->idle_lk);
	}
	pthread_mutex_unlock(&g->idle_lk);
	return NULL;
}

void
crew_go(struct walker *g, int first)
{
	int nw = atomic_load(&g->started);

	for (int i = first; i < nw; i++)
		g->w[i].has_thread = pthread_create(&g->w[i].th, NULL,
		    crew_main, &g->w[i]) == 0;
	if (tune_adaptive(&g->tune) &&
	    pthread_create(&g->tuner, NULL, tuner_main, g) == 0)
		g->tuning = 1;
}

void
crew_join(struct walker *g, int first)
{
	int nw;

	if (g->tuning) {
		pthread_mutex_lock(&g->idle_lk);
		atomic_store(&g->tuner_stop, 1);
		pthread_cond_signal(&g->tune_cv);
		pthread_mutex_unlock(&g->idle_lk);
		pthread_join(g->tuner, NULL);
	}
	nw = atomic_load(&g->started);
	for (int i = first; i < nw; i++)
		if (g->w[i].has_thread)
			pthread_join(g->w[i].th, NULL);
}
