/*
 * mpi_steal: the driver thread of a rank (the main thread, the only one
 * that calls MPI) while its walker threads work.
 *
 * Directories move between ranks by random work stealing, as libcircle
 * does: a rank whose threads wait for work asks a random other rank; the
 * victim hands over half of its queued directories, the shallowest (mpi_
 * item), or says it has none, and the thief asks another.
 *
 * Termination is Dijkstra's token ring (EWD 840, each rank a "machine"):
 * a rank that gives work turns black; the token goes 0 -> 1 -> ... -> 0,
 * each rank passing it on only while idle, blackening it when it is
 * black itself and turning white as it does. Rank 0 starts a round with
 * a white token, and when one comes back white while rank 0 is idle and
 * white, no rank has work and none is in flight (work only moves from a
 * rank that has it, which then turns black): the walk is over
 * (M3). Rank 0 says so to every rank, each drains the requests still in
 * flight, and a barrier closes the walk.
 *
 * Progress: with --progress, every rank sends rank 0 its entries, errors
 * and bytes so far four times a second (three 64-bit words, the bytes as
 * a double's bits: they only show), and rank 0's progress line (once a
 * second) shows the job's totals.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "mpi.h"
#include "xalloc.h"

#define MAX_GIVE	512		/* directories per steal */
/* The driver naps between polls. Every wake-up is a probe through Open
 * MPI's progress engine, and on a virtual machine it costs about 50 us of
 * a core that a walker thread could use (0.1 s in the 2,050 wake-ups of
 * 1.2 s of a 2-rank walk, naps of at most 1 ms); a steal answered late
 * costs the thief what it would have walked meanwhile. Steals come in
 * bursts, so naps double from 20 us to 1 ms while steal messages come and
 * go, and on to 4 ms after 50 ms without one. While our own request is
 * out they stay under 100 us: our threads wait for the answer, so their
 * cores are free. A thread that begins to wait for work ends a nap at once
 * (pool_nap). A thief told "none" asks again after 100 us, doubling to
 * 4 ms while the answers stay "none", so that it does not keep a busy
 * victim's driver awake.
 *
 * When every rank is on this node, each rings the receiver's bell after
 * a message (mpi_node.c), and a nap ends when one comes: no poll is needed
 * to find one. Naps are then as long as nothing else needs MPI: 20 ms,
 * and no more than 100 us while an answer, a send of ours or the end's
 * barrier is under way (MPI's own messages ring no bell), or until a
 * hungry thief's next request is due. */
#define POLL_MIN_US	20
#define POLL_MAX_US	1000
#define POLL_ASK_US	100
#define POLL_QUIET_US	4000
#define QUIET_NS	50000000ull
#define POLL_BELL_US	20000
#define RETRY_MIN_US	100
#define RETRY_MAX_US	4000
#define PROG_NS		250000000ull
#define PROG_LAST	UINT64_MAX
#define WHITE		0
#define BLACK		1

struct steal {
	struct mpi_job *j;
	struct walker *g;
	int outstanding;		/* our request awaits its answer */
	int black;			/* gave work since the token passed */
	int token;			/* -1, or the color of the token held */
	int done;			/* rank 0 said the walk is over */
	MPI_Request work_req;		/* a batch being sent */
	struct iobuf work, in;
	struct dnode *give[MAX_GIVE];
	long us;			/* the next nap */
	uint64_t stir_ns;		/* the last steal message, in or out */
	uint64_t retry_ns;		/* no request before, after a "none" */
	long retry_us;			/* the wait after the next "none" */
	uint32_t rings;			/* pool_nap's count */
	struct walk_sofar *seen;	/* rank 0: each rank's counts */
	int lasts;			/* rank 0: last counts received */
	MPI_Request prog_req;
	uint64_t prog_val[3], prog_ns;
};

static void
send_empty(struct steal *s, int dst, int tag)
{
	mpi_comm_send(s->j, NULL, 0, MPI_BYTE, dst, tag);
}

/* Half of our queued directories to src, or nothing. */
static void
answer(struct steal *s, int src)
{
	struct walker *g = s->g;
	size_t n = 0;

	if (!s->done && s->work_req == MPI_REQUEST_NULL)
		n = pool_give(g, s->give, MAX_GIVE);
	if (n == 0) {
		send_empty(s, src, TAG_NOWORK);
		return;
	}
	s->work.len = 0;
	mpi_item_pack(s->j, g, s->give, n, &s->work);
	if (s->work.oom || s->work.len > (size_t)INT32_MAX)
		mpi_comm_fail("directories for another rank",
		    "batch too large");
	mpi_comm_isend(s->j, s->work.p, (int)s->work.len, MPI_BYTE, src,
	    TAG_WORK, &s->work_req);
	/* M1: packed, so no longer ours: released, and done here */
	assert(s->work.len > 0 && s->work_req != MPI_REQUEST_NULL);
	for (size_t i = 0; i < n; i++) {
		dnode_release(g, s->give[i]);
		pool_done(g);
	}
	s->black = 1;
	s->j->st.items_out += n;
}

static void
receive_work(struct steal *s, const MPI_Status *st)
{
	int n;

	MPI_Get_count(st, MPI_BYTE, &n);
	s->in.len = 0;
	if (iobuf_reserve(&s->in, (size_t)n + 1) < 0)
		mpi_comm_fail("directories from another rank", "out of memory");
	MPI_Recv(s->in.p, n, MPI_BYTE, st->MPI_SOURCE, TAG_WORK, s->j->comm,
	    MPI_STATUS_IGNORE);
	if (s->done)
		mpi_comm_fail("directories from another rank", "after the end");
	s->stir_ns = throttle_mono_ns();
	s->j->st.items_in += mpi_item_unpack(s->j, s->g, s->in.p, (size_t)n);
	s->j->st.steals++;
	s->outstanding = 0;
	s->retry_us = RETRY_MIN_US;
}

static void
receive_progress(struct steal *s, const MPI_Status *st)
{
	struct walk_sofar sum = { 0 }, *r = &s->seen[st->MPI_SOURCE];
	uint64_t v[3];

	MPI_Recv(v, 3, MPI_UINT64_T, st->MPI_SOURCE, TAG_PROG, s->j->comm,
	    MPI_STATUS_IGNORE);
	if (v[0] == PROG_LAST) {
		s->lasts++;
		return;
	}
	r->entries = v[0];
	r->errors = v[1];
	memcpy(&r->bytes, &v[2], sizeof r->bytes);
	for (int i = 1; i < s->j->n; i++) {
		sum.entries += s->seen[i].entries;
		sum.errors += s->seen[i].errors;
		sum.bytes += s->seen[i].bytes;
	}
	walk_remote(s->g, &sum);
}

/* Handle one message, if any is there; returns whether one was. */
static int
poll_one(struct steal *s)
{
	MPI_Status st;
	int color;

	if (!mpi_comm_probe(s->j, MPI_ANY_SOURCE, MPI_ANY_TAG, &st))
		return 0;
	switch (st.MPI_TAG) {
	case TAG_REQ:
		MPI_Recv(NULL, 0, MPI_BYTE, st.MPI_SOURCE, TAG_REQ, s->j->comm,
		    MPI_STATUS_IGNORE);
		s->stir_ns = throttle_mono_ns();
		answer(s, st.MPI_SOURCE);
		break;
	case TAG_WORK:
		receive_work(s, &st);
		break;
	case TAG_NOWORK:
		MPI_Recv(NULL, 0, MPI_BYTE, st.MPI_SOURCE, TAG_NOWORK,
		    s->j->comm, MPI_STATUS_IGNORE);
		s->outstanding = 0;
		s->stir_ns = throttle_mono_ns();
		s->retry_ns = s->stir_ns + (uint64_t)s->retry_us * 1000;
		if (s->retry_us < RETRY_MAX_US)
			s->retry_us *= 2;
		break;
	case TAG_TOKEN:
		MPI_Recv(&color, 1, MPI_INT, st.MPI_SOURCE, TAG_TOKEN,
		    s->j->comm, MPI_STATUS_IGNORE);
		s->token = color;
		break;
	case TAG_DONE:
		MPI_Recv(NULL, 0, MPI_BYTE, st.MPI_SOURCE, TAG_DONE, s->j->comm,
		    MPI_STATUS_IGNORE);
		/* M3: told the walk is over, this rank has nothing pending */
		assert(pool_idle(s->g));
		s->done = 1;
		break;
	case TAG_PROG:
		receive_progress(s, &st);
		break;
	default:
		mpi_comm_fail("walk", "unexpected message");
	}
	return 1;
}

/* Ask a random other rank for work as soon as a thread lacks it, not
 * when all do. */
static void
ask(struct steal *s)
{
	int n = s->j->n, v;

	if (n == 1 || s->outstanding || !pool_hungry(s->g) ||
	    throttle_mono_ns() < s->retry_ns)
		return;
	v = (int)(rand_r(&s->j->seed) % (unsigned)(n - 1));
	if (v >= s->j->rank)
		v++;
	send_empty(s, v, TAG_REQ);
	s->outstanding = 1;
	s->us = POLL_MIN_US;	/* the answer is soon there */
}

/* Pass the token on, or on rank 0 end the walk (M3). */
static void
pass_token(struct steal *s)
{
	const struct mpi_job *j = s->j;
	int color;

	assert(pool_idle(s->g));	/* M3: only while idle */
	if (j->rank == 0 && s->token == WHITE && !s->black) {
		for (int i = 1; i < j->n; i++)
			send_empty(s, i, TAG_DONE);
		s->done = 1;
		s->token = -1;
		return;
	}
	color = j->rank == 0 ? WHITE : s->black ? BLACK : s->token;
	mpi_comm_send(j, &color, 1, MPI_INT, (j->rank + 1) % j->n, TAG_TOKEN);
	s->black = 0;
	s->token = -1;
}

static void
send_progress(struct steal *s, int last)
{
	uint64_t now = throttle_mono_ns();
	int flag = 1;

	if (!s->j->progress || s->j->rank == 0)
		return;
	if (s->prog_req != MPI_REQUEST_NULL) {
		if (last)
			mpi_comm_wait(s->j, &s->prog_req);
		else
			MPI_Test(&s->prog_req, &flag, MPI_STATUS_IGNORE);
	}
	if (!flag || (!last && now - s->prog_ns < PROG_NS))
		return;
	s->prog_ns = now;
	if (last) {
		s->prog_val[0] = PROG_LAST;
	} else {
		struct walk_sofar so;

		walk_so_far(s->g, &so);
		s->prog_val[0] = so.entries;
		s->prog_val[1] = so.errors;
		memcpy(&s->prog_val[2], &so.bytes, sizeof so.bytes);
	}
	mpi_comm_isend(s->j, s->prog_val, 3, MPI_UINT64_T, 0, TAG_PROG,
	    &s->prog_req);
	if (last)
		mpi_comm_wait(s->j, &s->prog_req);
}

/* The longest the next nap may be. */
static long
nap_max(const struct steal *s)
{
	uint64_t now = throttle_mono_ns();

	if (s->outstanding || s->done || s->work_req != MPI_REQUEST_NULL)
		return POLL_ASK_US;
	if (!s->j->local)
		return now - s->stir_ns > QUIET_NS ? POLL_QUIET_US :
		    POLL_MAX_US;
	/* A thief told "none" asks again at retry_ns (ask). */
	if (s->retry_ns > now && s->retry_ns - now < POLL_BELL_US * 1000ull &&
	    pool_hungry(s->g))
		return (long)((s->retry_ns - now) / 1000) + 1;
	return POLL_BELL_US;
}

static void
nap(struct steal *s, int busy)
{
	long max = nap_max(s);

	if (busy) {
		s->us = POLL_MIN_US;
		return;
	}
	/* A bell ends the nap when a message comes: no need to poll the
	 * more often just after one. */
	if (s->j->local || s->us > max)
		s->us = max;
	pool_nap(s->g, s->us, &s->rings);
	if (s->us < max)
		s->us *= 2;
	if (s->us > max)
		s->us = max;
}

static void
walk_ranks(struct steal *s)
{
	struct walker *g = s->g;

	while (!s->done) {
		int busy = 0, flag;

		while (!s->done && poll_one(s))
			busy = 1;
		if (s->work_req != MPI_REQUEST_NULL)
			MPI_Test(&s->work_req, &flag, MPI_STATUS_IGNORE);
		if (s->done)
			break;
		if (pool_idle(g)) {
			if (s->j->n == 1) {
				s->done = 1;
				break;
			}
			if (s->token >= 0)
				pass_token(s);
		}
		ask(s);
		send_progress(s, 0);
		nap(s, busy);
	}
}

/* After the end: answer what is still in flight, then a barrier. */
static void
drain(struct steal *s)
{
	const struct mpi_job *j = s->j;
	MPI_Request bar;
	int flag = 0;

	s->us = POLL_MIN_US;
	while (s->outstanding)
		nap(s, poll_one(s));
	if (s->work_req != MPI_REQUEST_NULL)
		mpi_comm_wait(j, &s->work_req);
	send_progress(s, 1);
	MPI_Ibarrier(j->comm, &bar);
	for (;;) {
		int busy = poll_one(s);
		if (!flag)
			MPI_Test(&bar, &flag, MPI_STATUS_IGNORE);
		if (flag && (j->rank || !j->progress || s->lasts == j->n - 1))
			break;
		nap(s, busy);
	}
}

void
mpi_steal_drive(struct walker *g, void *arg)
{
	struct steal s = { .j = arg, .g = g, .token = -1, .us = POLL_MIN_US,
	    .retry_us = RETRY_MIN_US,
	    .work_req = MPI_REQUEST_NULL, .prog_req = MPI_REQUEST_NULL };

	if (s.j->rank == 0)
		s.token = BLACK;	/* rank 0 starts the first round */
	s.seen = xcalloc((size_t)s.j->n, sizeof *s.seen);
	walk_ranks(&s);
	drain(&s);
	/* M3: nothing pending here, and no request or batch of ours in
	 * flight */
	assert(pool_idle(g) && !s.outstanding &&
	    s.work_req == MPI_REQUEST_NULL);
	pool_end(g);
	iobuf_free(&s.work);
	iobuf_free(&s.in);
	free(s.seen);
}
