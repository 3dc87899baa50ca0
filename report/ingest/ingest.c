/*
 * ingest: `iocensus ingest PATH...` (ingest.h).
 *
 * Three kinds of thread: the walker finds sources (ingest_src.c), decoders
 * turn logs into per-device sample arrays (ingest_log.c), and this thread
 * alone writes, one transaction per source, in the order the walker found
 * them (ingest_store.c). Messages are printed by this thread too, so they
 * come in input order whatever the timing. The roll-up of the hours that
 * changed runs once at the end (rollup.c).
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "floordiv.h"
#include "fmt.h"
#include "human.h"
#include "ingest.h"
#include "ingest_int.h"
#include "rollup/rollup.h"

#define MAX_THREADS 64
/* Archive members held in memory, in flight at once (one at least):
 * with the one the walker is reading (ingest_archive.c's MEMBER_MAX),
 * what any archive costs stays far below 256 MiB. */
#define PIPE_BYTES ((size_t)64 << 20)
/* Decoded sources waiting for the writer, beyond the one each decoding
 * thread holds: a day's log of a large server decodes to some 100 MiB. */
#define PIPE_DECODED ((size_t)64 << 20)
#define PROGRESS_NS 500000000LL

enum { C_SOURCE, C_HOST, C_SAMPLES, C_NEW, C_DUPS, C_CONFLICTS, C_DAMAGE,
	C_QUAR, C_QUAR_FIRST, C_QUAR_LAST, C_STATUS };
enum { T_SOURCES, T_SKIPPED, T_SAMPLES, T_NEW, T_QUAR, T_HOSTS, T_DEVICES,
	T_FIRST, T_LAST };

static const struct rcol_spec source_cols[] = {
	{ "source", "Source", NULL, CF_PLAIN, 0 },
	{ "host", "Host", NULL, CF_PLAIN, 0 },
	{ "samples", "Samples", "device-samples", CF_PLAIN, 0 },
	{ "new_samples", "New", NULL, CF_PLAIN, 0 },
	{ "duplicates", "Duplicates", NULL, CF_PLAIN, 0 },
	{ "conflicts", "Conflicts", NULL, CF_PLAIN, 0 },
	{ "damage", "Damage", NULL, CF_PLAIN, 0 },
	{ "quarantined", "Quarantined", "device-samples", CF_PLAIN, 0 },
	{ "quarantined_first", "Quarantined from", NULL, CF_TIME, 0 },
	{ "quarantined_last", "Quarantined to", NULL, CF_TIME, 0 },
	{ "status", "Status", NULL, CF_PLAIN, 0 },
};

static const struct rcol_spec total_cols[] = {
	{ "sources", "Sources", "logs", CF_PLAIN, 0 },
	{ "skipped", "Skipped", "files", CF_PLAIN, 0 },
	{ "samples", "Samples", "device-samples", CF_PLAIN, 0 },
	{ "new_samples", "New", NULL, CF_PLAIN, 0 },
	{ "quarantined", "Quarantined", NULL, CF_PLAIN, 0 },
	{ "hosts", "Hosts", NULL, CF_PLAIN, 0 },
	{ "devices", "Devices", NULL, CF_PLAIN, 0 },
	{ "first_t", "First sample", NULL, CF_TIME, 0 },
	{ "last_t", "Last sample", NULL, CF_TIME, 0 },
};

struct run {
	const struct ingest_opts *o;
	struct store *st;
	struct result *r;
	struct rtable *src;
	int status;			/* 0, 1 or 3 */
	uint64_t sources, skipped, links, samples, new_samples, quarantined;
	int64_t first_t, last_t;
	int have_t;
	int64_t next_progress;		/* monotonic ns */
	int line_open;			/* progress line without newline */
};

static int
stopped(const struct run *u)
{
	return u->o->stop && *u->o->stop;
}

static int64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void
progress(struct run *u, int last)
{
	int64_t t;

	if (!u->o->progress)
		return;
	t = now_ns();
	if (!last && t < u->next_progress)
		return;
	u->next_progress = t + PROGRESS_NS;
	fprintf(stderr, "\riocensus ingest: %" PRIu64 " sources, %" PRIu64
	    " device-samples (%" PRIu64 " new)%s", u->sources, u->samples,
	    u->new_samples, last ? "\n" : "");
	u->line_open = !last;
}

/* Messages interrupt the progress line on a line of their own; names in
 * them are escaped (fmt_vdiag), so each message is one line. */
static void
say(struct run *u, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void
say(struct run *u, const char *fmt, ...)
{
	va_list ap;

	if (u->line_open)
		fputc('\n', stderr);
	u->line_open = 0;
	va_start(ap, fmt);
	fmt_vdiag(stderr, "iocensus ingest", fmt, ap);
	va_end(ap);
	u->next_progress = 0;
}

static size_t
row(struct run *u, const char *name, const char *host, const char *status)
{
	size_t i = result_row(u->src);

	result_set_text(u->src, i, C_SOURCE, name);
	if (host)
		result_set_text(u->src, i, C_HOST, host);
	result_set_text(u->src, i, C_STATUS, status);
	return i;
}

/* Print the damage of a source; the number that is damage, not notes. */
static uint64_t
report_damage(struct run *u, const struct src *s)
{
	uint64_t n = 0;

	for (size_t i = 0; i < s->ndmg; i++) {
		const struct src_damage *d = &s->dmg[i];

		if (d->truncated) {
			say(u, "%s: note: %s, at compressed offset %" PRIu64,
			    s->name, d->reason, d->offset);
			continue;
		}
		say(u, "%s: damaged at compressed offset %" PRIu64 ": %s",
		    s->name, d->offset, d->reason);
		n++;
	}
	if (n)
		u->status = 1;
	return n;
}

/* Say, per host, which samples of the source were quarantined; set the
 * row's columns. Returns the status word to add ("" for none). */
static const char *
report_quarantine(struct run *u, const struct src *s, size_t row)
{
	char a[32], b[32], lo[32], hi[32];
	int64_t first = 0, last = 0;
	int any = 0;

	if (s->quarantined == 0)
		return "";
	human_date(floor_div64(s->ok_from_ms, 1000), 1, lo, sizeof lo);
	human_date(floor_div64(s->ok_to_ms, 1000), 1, hi, sizeof hi);
	for (size_t h = 0; h < s->nhost; h++) {
		struct quar_host q;

		ingest_quar_host(s, h, &q);
		if (q.n == 0)
			continue;
		say(u, "%s: %" PRIu64 " device-samples of host %s quarantined: "
		    "times %s to %s UTC, outside %s to %s (the ingest's time "
		    "plus a day): kept apart, left out of every analysis",
		    s->name, q.n, s->host[h].name,
		    human_date(floor_div64(q.first_ms, 1000), 1, a, sizeof a),
		    human_date(floor_div64(q.last_ms, 1000), 1, b, sizeof b),
		    lo, hi);
		if (!any || q.first_ms < first)
			first = q.first_ms;
		if (!any || q.last_ms > last)
			last = q.last_ms;
		any = 1;
	}
	result_set_uint(u->src, row, C_QUAR, s->quarantined);
	result_set_int(u->src, row, C_QUAR_FIRST, floor_div64(first, 1000));
	result_set_int(u->src, row, C_QUAR_LAST, floor_div64(last, 1000));
	u->quarantined += s->quarantined;
	u->status = 1;
	return "quarantined";
}

/* A log: stored in its own transaction. -1 fatal, 1 stopped. */
static int
on_log(struct run *u, const struct src *s, char *err, size_t errlen)
{
	struct store_stats ss;
	uint64_t damage = report_damage(u, s), conflicts, dups;
	int rc = ingest_store_source(u->st, s, &ss, u->o->stop, err, errlen);
	const char *status = damage ? "damaged" : "ok", *quar;
	char word[64];
	size_t i;

	for (i = 0; i < s->ndmg && !damage; i++)
		if (s->dmg[i].truncated)
			status = "truncated";

	if (rc != 0)
		return rc;
	conflicts = s->conflicts + ss.conflicts;
	dups = s->dups + ss.dups;
	if (conflicts) {
		say(u, "%s: %" PRIu64 " samples have the time of a stored or "
		    "earlier sample of their device but other values; the "
		    "first ones were kept", s->name, conflicts);
		u->status = 1;
		status = damage ? "damaged, conflicts" : "conflicts";
	}
	if (ss.released)
		say(u, "%s: %" PRIu64 " device-samples released from the "
		    "quarantine: their times are plausible for this ingest",
		    s->name, ss.released);
	if (ss.overflow) {
		say(u, "%s: %" PRIu64 " samples dropped: more than %d samples "
		    "of one device in one hour", s->name, ss.overflow,
		    IOCHUNK_MAX);
		u->status = 1;
	}
	if (s->samples == 0 && s->quarantined == 0 && !damage && !conflicts) {
		/* read whole, and empty: say so rather than "ok" */
		say(u, "%s: no samples: the log holds none (iostatmon sampled "
		    "no device, or stopped before its second read)", s->name);
		status = strcmp(status, "ok") ? "truncated, no samples" :
		    "no samples";
	}
	i = row(u, s->name, s->nhost ? s->host[0].name : NULL, status);
	quar = report_quarantine(u, s, i);
	if (*quar) {
		snprintf(word, sizeof word, "%s%s%s", !strcmp(status, "ok") ?
		    "" : status, !strcmp(status, "ok") ? "" : ", ", quar);
		result_set_text(u->src, i, C_STATUS, word);
	}
	result_set_uint(u->src, i, C_SAMPLES, s->samples);
	result_set_uint(u->src, i, C_NEW, ss.new_samples);
	result_set_uint(u->src, i, C_DUPS, dups);
	result_set_uint(u->src, i, C_CONFLICTS, conflicts);
	result_set_uint(u->src, i, C_DAMAGE, damage);
	u->sources++;
	u->samples += s->samples;
	u->new_samples += ss.new_samples;
	for (size_t k = 0; k < s->ndev; k++) {
		const struct src_dev *d = &s->dev[k];
		int64_t a, b;

		if (d->n == 0)
			continue;
		a = d->s[0].t_ms / 1000;
		b = d->s[d->n - 1].t_ms / 1000;
		if (!u->have_t || a < u->first_t)
			u->first_t = a;
		if (!u->have_t || b > u->last_t)
			u->last_t = b;
		u->have_t = 1;
	}
	return 0;
}

/* One item from the pipe. -1 fatal, 1 stopped. */
static int
on_item(struct run *u, const struct src *s, char *err, size_t errlen)
{
	size_t i;
	const char *why;

	switch (s->kind) {
	case SRC_LOG:
		return on_log(u, s, err, errlen);
	case SRC_SKIP:
		say(u, "%s: skipped: %s", s->name, s->error ? s->error :
		    "not an iostatmon log");
		u->skipped++;
		return 0;
	case SRC_LINK:
		u->links++;
		return 0;
	case SRC_ERROR:
		say(u, "%s", s->error);
		why = s->error;
		if (!strncmp(why, s->name, strlen(s->name)) &&
		    !strncmp(why + strlen(s->name), ": ", 2))
			why += strlen(s->name) + 2;
		row(u, s->name, NULL, why);
		u->status = 1;
		return 0;
	case SRC_DAMAGE:
		i = row(u, s->name, NULL, "damaged archive");
		result_set_uint(u->src, i, C_DAMAGE, report_damage(u, s));
		return ingest_store_damage(u->st, s, err, errlen);
	}
	return 0;
}

struct walker_thread {
	pthread_t th;
	char *const *paths;
	size_t npaths;
	struct pipe *pipe;
	int64_t ok_from_ms, ok_to_ms;	/* plausible sample times */
	volatile sig_atomic_t *stop;
};

static int
put(void *ctx, struct src *s)
{
	struct walker_thread *w = ctx;

	s->ok_from_ms = w->ok_from_ms;
	s->ok_to_ms = w->ok_to_ms;
	return ingest_pipe_put(w->pipe, s);
}

static void *
walker_main(void *arg)
{
	struct walker_thread *w = arg;
	struct src_walk sw = { .emit = put, .ctx = w, .stop = w->stop };

	ingest_src_walk(w->paths, w->npaths, &sw);
	ingest_pipe_close(w->pipe);
	return NULL;
}

static size_t
decoders(const struct ingest_opts *o)
{
	long n = o->threads > 0 ? o->threads : sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > MAX_THREADS ? MAX_THREADS : (size_t)n;
}

/* Every source through the pipe. -1 fatal, 1 stopped, 0 done. */
static int
load_all(struct run *u, char *const *paths, size_t npaths, char *err,
    size_t errlen)
{
	size_t n = decoders(u->o);
	struct walker_thread w = { .paths = paths, .npaths = npaths,
	    .ok_from_ms = (int64_t)INGEST_TIME_FLOOR * 1000,
	    .ok_to_ms = (u->o->now + INGEST_AHEAD_S) * 1000,
	    .stop = u->o->stop };
	struct src *s;
	int rc = 0;

	w.pipe = ingest_pipe_new(n, 2 * n + 2, PIPE_BYTES, PIPE_DECODED);
	if (w.pipe == NULL || pthread_create(&w.th, NULL, walker_main, &w)) {
		snprintf(err, errlen, "cannot start threads");
		ingest_pipe_free(w.pipe);
		return -1;
	}
	while (rc == 0 && (s = ingest_pipe_get(w.pipe)) != NULL) {
		rc = stopped(u) ? 1 : on_item(u, s, err, errlen);
		ingest_item_free(s);
		progress(u, 0);
	}
	if (rc == 0 && stopped(u))
		rc = 1;		/* the walk ended early */
	ingest_pipe_abort(w.pipe);
	pthread_join(w.th, NULL);
	ingest_pipe_free(w.pipe);
	return rc;
}

static void
totals(struct run *u)
{
	struct rtable *t = result_table(u->r, "totals", "Totals", total_cols,
	    sizeof total_cols / sizeof total_cols[0]);
	size_t i = result_row(t);

	result_wide(t, "skipped,hosts,devices");

	result_set_uint(t, i, T_SOURCES, u->sources);
	result_set_uint(t, i, T_SKIPPED, u->skipped);
	result_set_uint(t, i, T_SAMPLES, u->samples);
	result_set_uint(t, i, T_NEW, u->new_samples);
	result_set_uint(t, i, T_QUAR, u->quarantined);
	result_set_uint(t, i, T_HOSTS, ingest_store_hosts(u->st));
	result_set_uint(t, i, T_DEVICES, ingest_store_devices(u->st));
	if (u->have_t) {
		result_set_int(t, i, T_FIRST, u->first_t);
		result_set_int(t, i, T_LAST, u->last_t);
	}
}

static void
closing_notes(struct run *u, int rc)
{
	if (u->skipped) {
		say(u, "%" PRIu64 " files skipped: not iostatmon logs",
		    u->skipped);
		result_note(u->r, "%" PRIu64 " files skipped: not iostatmon "
		    "logs.", u->skipped);
	}
	if (u->links) {
		say(u, "%" PRIu64 " symbolic links not followed", u->links);
		result_note(u->r, "%" PRIu64 " symbolic links not followed.",
		    u->links);
	}
	result_note(u->r, "%" PRIu64 " device-sample%s read from %" PRIu64
	    " log%s, %" PRIu64 " of them new.", u->samples,
	    u->samples == 1 ? "" : "s", u->sources, u->sources == 1 ? "" :
	    "s", u->new_samples);
	if (u->quarantined)
		result_note(u->r, "%" PRIu64 " device-samples quarantined: "
		    "their times are before 2003 or more than a day after "
		    "this ingest; they are kept apart (v_io_quarantine) and "
		    "left out of every analysis.", u->quarantined);
	if (rc == 1)
		result_note(u->r, "Stopped by a signal: the sources listed "
		    "were loaded; hours not yet rolled up stay recorded and "
		    "the next ingest rolls them up.");
}

struct result *
ingest_run(sqlite3 *db, char *const *paths, size_t npaths,
    const struct ingest_opts *o, int *status, char *err, size_t errlen)
{
	struct run u = { .o = o };
	int rc;

	*status = 3;
	u.st = ingest_store_open(db, err, errlen);
	if (u.st == NULL)
		return NULL;
	u.r = result_new("ingest", "Ingest");
	u.src = result_table(u.r, "sources", "Sources", source_cols,
	    sizeof source_cols / sizeof source_cols[0]);
	result_wide(u.src, "conflicts,quarantined_first,quarantined_last");
	rc = load_all(&u, paths, npaths, err, errlen);
	progress(&u, 1);
	if (rc == 0 && o->progress)
		fputs("iocensus ingest: rolling up the hours that changed\n",
		    stderr);
	if (rc == 0 && rollup_run(db, o->stop, err, errlen) < 0)
		rc = stopped(&u) ? 1 : -1;
	if (rc < 0) {
		ingest_store_close(u.st);
		result_free(u.r);
		return NULL;
	}
	closing_notes(&u, rc);
	totals(&u);
	ingest_store_close(u.st);
	*status = rc == 1 ? 3 : u.status;
	return u.r;
}
