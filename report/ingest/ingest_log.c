/*
 * ingest_log: one log's bytes -> per-device sample arrays (struct src).
 * Runs in the decoder threads; touches nothing but its own source.
 *
 * Samples (docs/census-db.md): every entry with state OK of every SAMPLE
 * event, t_ms = realtime rounded to ms, dur_ms = the monotonic interval
 * rounded to ms. A device is (header host, device name). Afterwards each
 * device's samples are sorted by t_ms (stable) and a repeated t_ms keeps
 * its first sample, so the writer sees sorted, unique samples.
 */
#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ingest_int.h"
#include "iolog/iolog.h"
#include "xalloc.h"

static size_t
host_of(struct src *s, const struct iolog_header *h)
{
	size_t i;

	for (i = 0; i < s->nhost; i++)
		if (!strcmp(s->host[i].name, h->host))
			break;
	if (i == s->nhost) {
		s->host = xreallocarray(s->host, s->nhost + 1, sizeof *s->host);
		snprintf(s->host[i].name, sizeof s->host[i].name, "%s",
		    h->host);
		s->host[i].interval_ms = 0;
		s->nhost++;
	}
	/* Several headers may disagree; the largest interval is the one
	 * that bridges every sample the others would (an order-free rule). */
	if (h->interval_ms > s->host[i].interval_ms)
		s->host[i].interval_ms = h->interval_ms;
	return i;
}

/* The source's devices by (host, name): open addressing, so that a log
 * of N devices costs O(N) lookups, not O(N^2). */
struct dev_index {
	size_t *slot;		/* device index + 1; 0: empty */
	size_t cap;		/* a power of two, at least twice the devices */
};

static uint64_t
dev_hash(size_t host, const char *name)
{
	uint64_t h = 1469598103934665603ULL ^ host;	/* FNV-1a */

	for (; *name; name++)
		h = (h ^ (uint8_t)*name) * 1099511628211ULL;
	return h;
}

static void
index_put(struct dev_index *x, const struct src *s, size_t i)
{
	size_t j = dev_hash(s->dev[i].host, s->dev[i].name) & (x->cap - 1);

	while (x->slot[j])
		j = (j + 1) & (x->cap - 1);
	x->slot[j] = i + 1;
}

static size_t
dev_of(struct src *s, struct dev_index *x, size_t host, const char *name)
{
	size_t i, j;

	if (x->cap < 2 * (s->ndev + 1)) {	/* grow, and put all again */
		free(x->slot);
		x->cap = x->cap ? 2 * x->cap : 64;
		x->slot = xcalloc(x->cap, sizeof *x->slot);
		for (i = 0; i < s->ndev; i++)
			index_put(x, s, i);
	}
	/* the index has its slots, a power of two of them, at least twice
	 * the devices: a probe ends on an empty one */
	assert(x->slot != NULL && (x->cap & (x->cap - 1)) == 0);
	assert(host < s->nhost);
	j = dev_hash(host, name) & (x->cap - 1);
	for (; x->slot[j]; j = (j + 1) & (x->cap - 1)) {
		i = x->slot[j] - 1;
		if (s->dev[i].host == host && !strcmp(s->dev[i].name, name))
			return i;
	}
	i = s->ndev;
	s->dev = xgrow(s->dev, s->ndev, &s->devcap, sizeof *s->dev, 16);
	memset(&s->dev[i], 0, sizeof s->dev[i]);
	s->dev[i].host = host;
	snprintf(s->dev[i].name, sizeof s->dev[i].name, "%s", name);
	s->ndev++;
	index_put(x, s, i);
	return i;
}

static const char *const field_name[IOF_N] = { "rd_ios", "wr_ios",
    "rd_sectors", "wr_sectors", "rd_ms", "wr_ms", "io_ms",
    "dc_ios + fl_ios" };

/* One OK entry -> a sample; -1 (and a damage record) when a value is
 * beyond what r127 stores. */
static int
make_sample(struct src *s, const struct iolog_event *ev, size_t i,
    struct io_sample *x)
{
	const uint64_t *v = ev->val[i].v;
	char why[256];

	x->t_ms = (int64_t)((ev->clock->realtime_ns + 500000) / 1000000);
	x->dur_ms = (int64_t)((ev->interval_ns + 500000) / 1000000);
	x->v[IOF_RD_IOS] = v[DS_RD_IOS];
	x->v[IOF_WR_IOS] = v[DS_WR_IOS];
	x->v[IOF_RD_SEC] = v[DS_RD_SECTORS];
	x->v[IOF_WR_SEC] = v[DS_WR_SECTORS];
	x->v[IOF_RD_MS] = v[DS_RD_MS];
	x->v[IOF_WR_MS] = v[DS_WR_MS];
	x->v[IOF_IO_MS] = v[DS_IO_MS];
	x->v[IOF_OTH_IOS] = v[DS_DC_IOS] + v[DS_FL_IOS];
	if (x->v[IOF_OTH_IOS] < v[DS_DC_IOS])	/* the sum wrapped */
		x->v[IOF_OTH_IOS] = UINT64_MAX;
	for (int k = 0; k < IOF_N; k++) {
		if (x->v[k] <= R127_MAX)
			continue;
		snprintf(why, sizeof why, "device %s: %s delta %" PRIu64
		    " exceeds the largest storable value %" PRIu64 "; sample "
		    "at %" PRId64 " ms dropped", ev->dev[i].name,
		    field_name[k], x->v[k], R127_MAX, x->t_ms);
		ingest_item_damage(s, ev->offset, why, 0);
		s->dropped++;
		return -1;
	}
	return 0;
}

/* The samples of an event; each plausible one widens the identity its
 * device had in the table (ident[i], SIZE_MAX: none). */
static void
add_samples(struct src *s, const struct iolog_event *ev, const size_t *map,
    const size_t *ident)
{
	/* iolog_next delivers a sample only after its device table, whose
	 * devices decode_events has mapped */
	assert(ev->ndev == 0 || (map != NULL && ident != NULL));
	for (size_t i = 0; i < ev->ndev; i++) {
		struct src_dev *d;
		struct io_sample x;

		if (ev->val[i].state != IOLOG_OK)
			continue;
		s->samples++;
		if (make_sample(s, ev, i, &x) < 0)
			continue;
		d = &s->dev[map[i]];
		if (ident[i] != SIZE_MAX && ingest_quar_plausible(s, &x))
			ingest_ident_widen(d, ident[i], &x);
		/* from 4 samples up: a log of many devices and few samples
		 * costs its samples, not a block per device */
		d->s = xgrow(d->s, d->n, &d->cap, sizeof *d->s, 4);
		d->s[d->n++] = x;
	}
}

/* Stable bottom-up merge sort by t_ms (logs are nearly always sorted
 * already; a clock step back is what makes them not). */
static void
sort_samples(struct io_sample *a, size_t n)
{
	struct io_sample *tmp = xreallocarray(NULL, n, sizeof *tmp);
	struct io_sample *from = a, *to = tmp;

	for (size_t w = 1; w < n; w *= 2) {
		for (size_t lo = 0; lo < n; lo += 2 * w) {
			size_t mid = lo + w < n ? lo + w : n;
			size_t hi = lo + 2 * w < n ? lo + 2 * w : n;
			size_t i = lo, j = mid, k = lo;

			while (i < mid || j < hi)
				to[k++] = j == hi || (i < mid &&
				    from[i].t_ms <= from[j].t_ms) ? from[i++] :
				    from[j++];
		}
		struct io_sample *t = from;
		from = to;
		to = t;
	}
	if (from != a)
		memcpy(a, from, n * sizeof *a);
	free(tmp);
}

static int
same_sample(const struct io_sample *a, const struct io_sample *b)
{
	return a->dur_ms == b->dur_ms && !memcmp(a->v, b->v, sizeof a->v);
}

/* Sort, drop repeated t_ms (the first read wins), set implausible times
 * apart, find the extremes of the others. */
static void
finish_dev(struct src *s, struct src_dev *d)
{
	size_t out = 0;
	int sorted = 1;

	for (size_t i = 1; i < d->n && sorted; i++)
		sorted = d->s[i - 1].t_ms < d->s[i].t_ms;
	if (!sorted)
		sort_samples(d->s, d->n);
	for (size_t i = 0; i < d->n; i++) {
		if (out > 0 && d->s[out - 1].t_ms == d->s[i].t_ms) {
			s->dups++;
			s->conflicts += !same_sample(&d->s[out - 1], &d->s[i]);
			continue;
		}
		d->s[out++] = d->s[i];
	}
	d->n = out;
	if (d->cap > d->n && d->n > 0) {	/* the slack of growth goes */
		d->s = xreallocarray(d->s, d->n, sizeof *d->s);
		d->cap = d->n;
	}
	ingest_quar_split(s, d);
	for (size_t i = 0; i < d->n; i++) {
		int64_t start = d->s[i].t_ms - d->s[i].dur_ms;

		if (i == 0 || start < d->first_ms)
			d->first_ms = start;
		if (i == 0 || d->s[i].t_ms > d->last_ms)
			d->last_ms = d->s[i].t_ms;
	}
}

static void
decode_events(struct src *s, struct iolog_reader *r)
{
	struct iolog_event ev;
	struct dev_index x = { 0 };
	size_t host = 0, *map = NULL, *ident = NULL, nmap = 0;

	while (iolog_next(r, &ev) == 1) {
		switch (ev.type) {
		case IOLOG_EV_HEADER:
			host = host_of(s, ev.header);
			break;
		case IOLOG_EV_TABLE:
			if (ev.ndev > nmap) {
				nmap = ev.ndev;
				free(map);
				free(ident);
				map = xcalloc(nmap, sizeof *map);
				ident = xcalloc(nmap, sizeof *ident);
			}
			for (size_t i = 0; i < ev.ndev; i++) {
				map[i] = dev_of(s, &x, host, ev.dev[i].name);
				ident[i] = ingest_ident_of(&s->dev[map[i]],
				    &ev.dev[i]);
			}
			break;
		case IOLOG_EV_SAMPLE:
			add_samples(s, &ev, map, ident);
			break;
		case IOLOG_EV_DAMAGE:
			if (ev.cut && s->cut)
				ingest_item_damage(s, ev.offset,
				    "ends inside a "
				    "frame, where the archive breaks off", 1);
			else
				ingest_item_damage(s, ev.offset, ev.reason,
				    ev.truncated);
			break;
		default:
			break;
		}
	}
	free(map);
	free(ident);
	free(x.slot);
}

/* Not a log: inside a directory or archive it is skipped; named on the
 * command line it is an error. */
static void
not_a_log(struct src *s, const char *why)
{
	if (!s->named) {
		ingest_item_skip(s, why);
		return;
	}
	if (s->ndmg > 0)
		ingest_item_error(s, "%s: not an iostatmon log or archive: %s "
		    "(damaged at compressed offset %" PRIu64 ": %s)", s->name,
		    why,
		    s->dmg[0].offset, s->dmg[0].reason);
	else
		ingest_item_error(s, "%s: not an iostatmon log or archive: %s",
		    s->name,
		    why);
}

void
ingest_log_decode(struct src *s)
{
	struct iolog_reader *r;
	enum iolog_kind kind;

	if (s->kind != SRC_LOG)
		return;
	if (s->fd >= 0) {
		int rc = ingest_read_file(s);

		if (rc < 0)
			ingest_item_error(s, "%s: cannot read: %s", s->name,
			    strerror(errno));
		close(s->fd);
		s->fd = -1;
		if (rc < 0)
			goto out;
	}
	if (s->len < 2 || s->buf[0] != 0x1f || s->buf[1] != 0x8b) {
		not_a_log(s, "not gzip data");
		goto out;
	}
	kind = ingest_sniff(s->buf, s->len, 0, s->name);
	r = iolog_reader_mem(s->buf, s->len, s->name);
	if (r == NULL) {
		ingest_item_error(s, "%s: %s", s->name, strerror(ENOMEM));
		goto out;
	}
	decode_events(s, r);
	iolog_reader_close(r);
	/* No header frame could be read: a log all the same when it starts
	 * like one, or is gzip damaged too early to tell, and is damaged
	 * (it is then stored with its damage and no samples). */
	if (s->nhost == 0 && !(s->damaged && (kind == IOLOG_LOG ||
	    kind == IOLOG_DAMAGED))) {
		not_a_log(s, "gzip data without a readable log header");
		goto out;
	}
	for (size_t i = 0; i < s->ndev; i++)
		finish_dev(s, &s->dev[i]);
out:
	free(s->buf);
	s->buf = NULL;
	s->len = 0;
}
