/*
 * traffic_burst: I/O intensity I, burstiness rho and parallel I/O intensity P
 * across servers (El Sayed et al.; docs/analyses.md, "Burstiness"), plus Beacon's
 * hourly load classes (traffic_load.c), from one scan over the host minutes.
 *
 * Servers S are the hosts of the window; dt = 60 s. A minute is valid
 * when every host expected in it is complete (and one is expected);
 * any other minute is undefined: it ends runs and counts in no
 * denominator. delta(s, m) = 1 iff the bytes of s in m exceed c, and
 * H(m) = 1 iff some delta is. Reads and writes are separate, per c.
 */
#include <math.h>
#include <stdlib.h>

#include "traffic_int.h"
#include "traffic_load_int.h"
#include "traffic.h"
#include "human.h"
#include "xalloc.h"

enum { DIR_READ, DIR_WRITE, NDIR };
static const char *const dir_name[NDIR] = { "read", "write" };

/* One (c, direction) pair: counts over valid minutes. */
struct burst_acc {
	uint64_t valid, io;		/* valid minutes; those with H = 1 */
	uint64_t runs_io, runs_noio;	/* maximal runs of H = 1, H = 0 */
	uint64_t active;		/* sum of active servers, H = 1 */
	int last;			/* H of the previous minute; -1 after
					   an undefined one */
};

struct burst_scan {
	const uint64_t *c;
	size_t nc;
	struct burst_acc *acc;		/* nc * NDIR, c-major */
	struct load_acc *load;
};

/* Valid: no host expected but incomplete, and one host complete. */
static int
minute_valid(const struct host_minute *m)
{
	int any = 0;

	for (size_t h = 0; h < m->nhost; h++) {
		if (m->state[h] == MIN_MISSING)
			return 0;
		any |= m->state[h] == MIN_COMPLETE;
	}
	return any;
}

static void
acc_minute(struct burst_acc *a, const struct host_minute *m,
    const uint64_t *bytes, uint64_t c)
{
	uint64_t active = 0;
	int h1;

	for (size_t h = 0; h < m->nhost; h++)
		active += m->state[h] == MIN_COMPLETE && bytes[h] > c;
	h1 = active > 0;
	a->valid++;
	if (h1) {
		a->io++;
		a->active += active;
	}
	if (h1 != a->last)
		*(h1 ? &a->runs_io : &a->runs_noio) += 1;
	a->last = h1;
}

static int
burst_minute(const struct host_minute *m, void *arg)
{
	struct burst_scan *s = arg;
	int valid = minute_valid(m);

	traffic_load_minute(s->load, m);
	for (size_t k = 0; k < s->nc; k++)
		for (int d = 0; d < NDIR; d++) {
			struct burst_acc *a = &s->acc[k * NDIR + d];

			if (!valid)
				a->last = -1;
			else
				acc_minute(a, m, d == DIR_READ ? m->rd : m->wr,
				    s->c[k]);
		}
	return 0;
}

static const struct rcol_spec burst_cols[] = {
	{ "direction", "Direction", NULL, CF_PLAIN, 0 },
	{ "c_bytes", "c", "bytes/min", CF_BYTES, 0 },
	{ "valid_minutes", "Valid minutes", "min", CF_PLAIN, 0 },
	{ "io_minutes", "I/O minutes", "min", CF_PLAIN, 0 },
	{ "io_runs", "I/O runs", NULL, CF_PLAIN, 0 },
	{ "noio_runs", "Quiet runs", NULL, CF_PLAIN, 0 },
	{ "i", "I", NULL, CF_PLAIN, 3 },
	{ "l_io", "l_IO", "min", CF_MINUTES, 2 },
	{ "l_noio", "l_noIO", "min", CF_MINUTES, 2 },
	{ "rho", "rho", NULL, CF_PLAIN, 3 },
	{ "servers", "Servers", NULL, CF_PLAIN, 0 },
	{ "pi", "Pi", NULL, CF_PLAIN, 3 },
	{ "p", "P", NULL, CF_PLAIN, 3 },
};
enum { B_DIR, B_C, B_VALID, B_IO, B_RUNS_IO, B_RUNS_NOIO, B_I, B_LIO,
	B_LNOIO, B_RHO, B_SERVERS, B_PI, B_P };

/* The metrics of one row. l_noIO is 0 when no minute was quiet (the
 * paper's "I = 1, rho = 0" case); I, rho and P need I/O to be defined. */
static void
burst_row(struct rtable *t, struct result *r, const struct burst_acc *a,
    int d, uint64_t c, size_t nserver)
{
	size_t row = result_row(t);
	double l_io, l_noio, pi;
	char cbuf[32];

	result_set_text(t, row, B_DIR, dir_name[d]);
	result_set_uint(t, row, B_C, c);
	result_set_uint(t, row, B_VALID, a->valid);
	result_set_uint(t, row, B_IO, a->io);
	result_set_uint(t, row, B_RUNS_IO, a->runs_io);
	result_set_uint(t, row, B_RUNS_NOIO, a->runs_noio);
	result_set_uint(t, row, B_SERVERS, nserver);
	if (a->valid == 0)
		return;
	result_set_real(t, row, B_I, (double)a->io / (double)a->valid);
	l_noio = a->runs_noio ?
	    (double)(a->valid - a->io) / (double)a->runs_noio : 0;
	result_set_real(t, row, B_LNOIO, l_noio);
	if (a->io == 0) {
		result_note(r, "%s at c = %s: no I/O (no valid minute moved "
		    "more than c bytes on any server); rho and P are "
		    "undefined.", dir_name[d],
		    human_bytes((double)c, 0, cbuf, sizeof cbuf));
		return;
	}
	l_io = (double)a->io / (double)a->runs_io;
	result_set_real(t, row, B_LIO, l_io);
	result_set_real(t, row, B_RHO,
	    l_noio > 0 ? 1 - tanh(l_io / l_noio) : 0);
	pi = (double)a->active / ((double)nserver * (double)a->io);
	result_set_real(t, row, B_PI, pi);
	if (nserver > 1)
		result_set_real(t, row, B_P, ((double)nserver * pi - 1) /
		    (double)(nserver - 1));
}

static void
burst_notes(struct result *r, size_t nserver)
{
	result_note(r, "Burst metrics (El Sayed et al.): %zu server%s, one-"
	    "minute intervals. A minute is valid when every server expected "
	    "in it is complete; other minutes end runs and are left out of "
	    "every denominator. I = I/O minutes / valid minutes; rho = "
	    "1 - tanh(l_IO / l_noIO) (0 when no valid minute is quiet); "
	    "Pi = mean share of servers above c over the I/O minutes; "
	    "P = (|S| Pi - 1) / (|S| - 1).", nserver, nserver == 1 ? "" : "s");
	result_note(r, "How to read them: I (I/O intensity) is the share of "
	    "the time the servers moved more than c bytes a minute: 0.25 "
	    "means busy a quarter of the time.");
	result_note(r, "\u03c1 (rho, burstiness) compares the mean length "
	    "of busy runs (l_IO) with that of quiet ones (l_noIO): near 0 the "
	    "I/O comes in long steady runs, near 1 in short bursts between "
	    "long quiet spells.");
	result_note(r, "P (parallel I/O intensity) is how many servers are "
	    "busy together while any is: 1 means all of them at once, 0 one "
	    "server at a time.");
	if (nserver == 1)
		result_note(r, "With one server P is undefined.");
}

static void
add_burst_table(struct result *r, const struct burst_scan *s,
    size_t nserver)
{
	struct rtable *t = result_table(r, "burst",
	    "I/O intensity, burstiness and parallel I/O intensity",
	    burst_cols, sizeof burst_cols / sizeof *burst_cols);

	result_wide(t, "valid_minutes,io_minutes,io_runs,noio_runs,servers");

	if (nserver == 0)
		return;
	for (size_t k = 0; k < s->nc; k++)
		for (int d = 0; d < NDIR; d++)
			burst_row(t, r, &s->acc[k * NDIR + d], d, s->c[k],
			    nserver);
}

struct result *
traffic_burst(sqlite3 *db, const struct opts *o, char *err, size_t errlen)
{
	struct result *r = result_new("burst",
	    "Burstiness across servers and hourly load classes");
	struct burst_scan s = { 0 };
	struct host_list hl = { 0 };
	size_t complete, nserver;
	int rc = -1;

	s.c = o->burst_c;		/* default: 0, 128 KiB, 1 MiB */
	s.nc = o->nburst_c;
	s.acc = xcalloc(s.nc ? s.nc * NDIR : 1, sizeof *s.acc);
	for (size_t i = 0; i < s.nc * NDIR; i++)
		s.acc[i].last = -1;
	if (traffic_coverage_window_notes(db, &o->win, 0, r, &complete, err,
	    errlen) ||
	    query_hosts_load(db, &o->win, &hl, err, errlen))
		goto out;
	nserver = complete ? hl.n : 0;	/* no data: empty tables */
	s.load = traffic_load_new(nserver, o->host_peak);
	if (nserver && query_scan_host_minutes(db, &o->win, &hl, burst_minute,
	    &s, err, errlen))
		goto out;
	if (nserver)
		burst_notes(r, nserver);
	add_burst_table(r, &s, nserver);
	rc = traffic_load_finish(s.load, db, &o->win, &hl, r, err, errlen);
out:
	traffic_load_free(s.load);
	free(s.acc);
	query_hosts_free(&hl);
	if (rc) {
		result_free(r);
		return NULL;
	}
	return r;
}
