/*
 * ingest_pipe: decode sources in worker threads, hand them to the one
 * writer in the order they were found.
 *
 * A ring of `cap` slots indexed by sequence number: the walker puts at
 * `put`, workers take the next undecoded slot at `work`, the writer waits
 * for slot `get` to be done. The ring bounds the memory in flight (each
 * slot holds one decoded source) and keeps the output order, so messages
 * and the database do not depend on thread timing. The bytes the walker
 * has read into memory (archive members) are bounded too: a member waits
 * while others of more than `max_bytes` in all are in flight. So are the
 * decoded ones: a worker starts no source but the writer's next while
 * decoded ones of `max_decoded` bytes or more wait for the writer (the
 * writer's next is always started, so the pipe cannot stall). One mutex:
 * it is taken a few times per source, never per sample.
 */
#include <pthread.h>
#include <stdlib.h>

#include "ingest_int.h"
#include "xalloc.h"

struct pipe {
	pthread_mutex_t mu;
	pthread_cond_t can_put, can_work, can_get;
	size_t cap;
	struct src **slot;
	unsigned char *done;
	size_t put, work, get;		/* sequence numbers */
	size_t bytes, max_bytes;	/* input held by items in flight */
	size_t *len;			/* each slot's share of bytes */
	size_t held, max_decoded;	/* decoded, waiting for the writer */
	size_t *dlen;			/* each slot's share of held */
	int closed, aborted;
	pthread_t *worker;
	size_t nworker;
};

static void *
worker_main(void *arg)
{
	struct pipe *p = arg;

	pthread_mutex_lock(&p->mu);
	for (;;) {
		size_t i;

		while ((p->work == p->put || (p->work != p->get &&
		    p->held >= p->max_decoded)) && !(p->closed &&
		    p->work == p->put) && !p->aborted)
			pthread_cond_wait(&p->can_work, &p->mu);
		if (p->aborted || p->work == p->put)
			break;
		i = p->work++ % p->cap;
		pthread_mutex_unlock(&p->mu);
		ingest_log_decode(p->slot[i]);
		ingest_prep_src(p->slot[i]);
		pthread_mutex_lock(&p->mu);
		p->dlen[i] = ingest_item_bytes(p->slot[i]);
		p->held += p->dlen[i];
		p->done[i] = 1;
		pthread_cond_broadcast(&p->can_get);
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

struct pipe *
ingest_pipe_new(size_t nworkers, size_t cap, size_t max_bytes,
    size_t max_decoded)
{
	struct pipe *p = xcalloc(1, sizeof *p);

	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->can_put, NULL);
	pthread_cond_init(&p->can_work, NULL);
	pthread_cond_init(&p->can_get, NULL);
	p->cap = cap;
	p->slot = xcalloc(cap, sizeof *p->slot);
	p->done = xcalloc(cap, 1);
	p->len = xcalloc(cap, sizeof *p->len);
	p->max_bytes = max_bytes;
	p->dlen = xcalloc(cap, sizeof *p->dlen);
	p->max_decoded = max_decoded;
	p->worker = xcalloc(nworkers, sizeof *p->worker);
	for (size_t i = 0; i < nworkers; i++) {
		if (pthread_create(&p->worker[p->nworker], NULL, worker_main,
		    p) != 0)
			break;
		p->nworker++;
	}
	if (p->nworker == 0) {		/* cannot run without a decoder */
		ingest_pipe_free(p);
		return NULL;
	}
	return p;
}

int
ingest_pipe_put(struct pipe *p, struct src *s)
{
	pthread_mutex_lock(&p->mu);
	while ((p->put - p->get >= p->cap || (p->bytes > 0 &&
	    s->len > p->max_bytes - p->bytes)) && !p->aborted)
		pthread_cond_wait(&p->can_put, &p->mu);
	if (p->aborted) {
		pthread_mutex_unlock(&p->mu);
		ingest_item_free(s);
		return -1;
	}
	p->slot[p->put % p->cap] = s;
	p->done[p->put % p->cap] = 0;
	p->len[p->put % p->cap] = s->len < p->max_bytes ? s->len :
	    p->max_bytes;
	p->bytes += p->len[p->put % p->cap];
	p->put++;
	pthread_cond_signal(&p->can_work);
	pthread_mutex_unlock(&p->mu);
	return 0;
}

void
ingest_pipe_close(struct pipe *p)
{
	pthread_mutex_lock(&p->mu);
	p->closed = 1;
	pthread_cond_broadcast(&p->can_work);
	pthread_cond_broadcast(&p->can_get);
	pthread_mutex_unlock(&p->mu);
}

struct src *
ingest_pipe_get(struct pipe *p)
{
	struct src *s = NULL;

	pthread_mutex_lock(&p->mu);
	while (!p->aborted && !(p->get < p->put && p->done[p->get % p->cap]) &&
	    !(p->closed && p->get == p->put))
		pthread_cond_wait(&p->can_get, &p->mu);
	if (!p->aborted && p->get < p->put) {
		s = p->slot[p->get % p->cap];
		p->slot[p->get % p->cap] = NULL;
		p->bytes -= p->len[p->get % p->cap];
		p->held -= p->dlen[p->get % p->cap];
		p->dlen[p->get % p->cap] = 0;
		p->get++;
		pthread_cond_signal(&p->can_put);
		pthread_cond_broadcast(&p->can_work);
	}
	pthread_mutex_unlock(&p->mu);
	return s;
}

void
ingest_pipe_abort(struct pipe *p)
{
	pthread_mutex_lock(&p->mu);
	p->aborted = 1;
	pthread_cond_broadcast(&p->can_put);
	pthread_cond_broadcast(&p->can_work);
	pthread_cond_broadcast(&p->can_get);
	pthread_mutex_unlock(&p->mu);
}

void
ingest_pipe_free(struct pipe *p)
{
	if (p == NULL)
		return;
	ingest_pipe_abort(p);
	for (size_t i = 0; i < p->nworker; i++)
		pthread_join(p->worker[i], NULL);
	for (size_t i = 0; i < p->cap; i++)
		ingest_item_free(p->slot[i]);
	pthread_cond_destroy(&p->can_put);
	pthread_cond_destroy(&p->can_work);
	pthread_cond_destroy(&p->can_get);
	pthread_mutex_destroy(&p->mu);
	free(p->slot);
	free(p->done);
	free(p->len);
	free(p->dlen);
	free(p->worker);
	free(p);
}
