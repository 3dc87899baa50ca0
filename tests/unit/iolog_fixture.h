/*
 * iolog_fixture: logs with known contents for the iolog unit tests. Every
 * frame written is also rendered as text from the writer's input, and
 * decoded events are rendered the same way, so a test compares texts. The
 * expected interval of a sample is the difference of the monotonic clocks
 * the fixture chose.
 */
#ifndef TESTS_IOLOG_FIXTURE_H
#define TESTS_IOLOG_FIXTURE_H

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "iolog/iolog.h"
#include "tap.h"

#define FX_MAX 512

struct fixture {
	char path[64];
	char *exp[FX_MAX];	/* rendered frames, in order */
	uint64_t end[FX_MAX];	/* file size once frame i was written */
	size_t n;
	uint64_t member_end[16];	/* file size after each writer close */
	size_t nmember;
	uint64_t rng;
	uint64_t mono;		/* last monotonic clock written */
	int write_errors;
};

/* Text of an event: only non-zero values are shown, as the format stores
 * exactly those. */
static inline char *
render(const struct iolog_event *ev)
{
	char *s = NULL;
	size_t len = 0, i, j;
	FILE *o = open_memstream(&s, &len);
	const struct iolog_header *h = ev->header;
	const struct iolog_clock *c = ev->clock;

	switch (ev->type) {
	case IOLOG_EV_HEADER:
		fprintf(o, "H %s|%s|%s|%d|%" PRIu32 "|%s|%" PRIu64 "|%s",
		    h->host, h->release, h->machine, h->long_bits,
		    h->interval_ms, h->boot_id, h->created_ns, h->writer);
		break;
	case IOLOG_EV_TABLE:
		fprintf(o, "T");
		for (i = 0; i < ev->ndev; i++) {
			const struct iolog_dev *d = &ev->dev[i];

			fprintf(o, " %" PRIu64 ",%s,%" PRIu32 ":%" PRIu32 ",%"
			    PRIu64 ",%" PRIx32, d->id, d->name, d->major,
			    d->minor, d->diskseq, d->fields);
			for (j = 0; j < d->nattr; j++)
				fprintf(o, ",%s=%s", d->attr[j].key,
				    d->attr[j].value);
		}
		break;
	case IOLOG_EV_KEYFRAME:
	case IOLOG_EV_SAMPLE:
		fprintf(o, "%c %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64
		    " %" PRIu64 " %" PRIu32 " %" PRIu64 " iv=%" PRIu64,
		    ev->type == IOLOG_EV_SAMPLE ? 'S' : 'K', c->seq,
		    c->realtime_ns, c->monotonic_ns, c->boottime_ns,
		    c->read_ns, c->flags, c->missed, ev->interval_ns);
		for (i = 0; i < ev->ndev; i++) {
			const struct iolog_val *v = &ev->val[i];

			fprintf(o, " %u", ev->type == IOLOG_EV_SAMPLE ?
			    v->state : 9);
			if (ev->type == IOLOG_EV_SAMPLE &&
			    v->state == IOLOG_ABSENT)
				continue;
			for (j = 0; j < DS_FIELDS; j++)
				if (v->v[j] != 0)
					fprintf(o, ",%zu=%" PRIu64, j, v->v[j]);
		}
		break;
	case IOLOG_EV_DAMAGE:
		fprintf(o, "D %" PRIu64 " %s", ev->offset, ev->reason);
		break;
	}
	fclose(o);
	return s;
}

static inline uint64_t
fx_rand(struct fixture *fx)
{
	fx->rng = fx->rng * 6364136223846793005u + 1442695040888963407u;
	return fx->rng >> 11 ^ fx->rng << 7;
}

/* Counter values of every magnitude, with the extremes. */
static inline uint64_t
fx_value(struct fixture *fx)
{
	switch (fx_rand(fx) % 8) {
	case 0: case 1: case 2: return 0;
	case 3: return fx_rand(fx) % 100;
	case 4: return UINT32_MAX;
	case 5: return UINT64_MAX;
	case 6: return fx_rand(fx) & 0xffffffff;
	default: return fx_rand(fx);
	}
}

static inline void
fx_record(struct fixture *fx, const struct iolog_event *ev)
{
	struct stat st;

	if (fx->n >= FX_MAX)
		abort();
	if (stat(fx->path, &st) < 0)
		abort();
	fx->exp[fx->n] = render(ev);
	fx->end[fx->n] = (uint64_t)st.st_size;
	fx->n++;
}

/* A keyframe (key) or sample, with seq s, for ndev devices, cycling
 * through every state and value range. Returns what the writer returned. */
static inline int
fx_frame(struct fixture *fx, struct iolog_writer *w, size_t ndev, int s,
    int key)
{
	struct iolog_val val[8];
	struct iolog_clock c;
	struct iolog_event ev = { 0 };
	size_t i;
	int f, rc;

	memset(&c, 0, sizeof c);
	c.seq = (uint64_t)s;
	c.realtime_ns = 1700000000000000000u + 60000000000u * (uint64_t)s;
	c.monotonic_ns = fx->mono + 1000 + fx_rand(fx) % 100000000000u;
	c.boottime_ns = c.monotonic_ns + 5;
	c.read_ns = fx_rand(fx) % 50000;
	c.flags = (uint32_t)(fx_rand(fx) % 32);
	c.missed = s % 4 == 3 ? fx_rand(fx) : 0;
	memset(val, 0, sizeof val);
	for (i = 0; i < ndev; i++) {
		val[i].state = key ? 0 : (uint8_t)((s + i) % 3);
		val[i].mask = 0xfff;	/* ignored by the writer */
		if (val[i].state != IOLOG_ABSENT)
			for (f = 0; f < DS_FIELDS; f++)
				val[i].v[f] = fx_value(fx);
	}
	ev.type = key ? IOLOG_EV_KEYFRAME : IOLOG_EV_SAMPLE;
	ev.interval_ns = key ? 0 : c.monotonic_ns - fx->mono;
	ev.clock = &c;
	ev.val = val;
	ev.ndev = ndev;
	rc = key ? iolog_write_keyframe(w, &c, val, ndev) :
	    iolog_write_sample(w, &c, val, ndev);
	fx->mono = c.monotonic_ns;
	fx_record(fx, &ev);
	return rc;
}

/* A keyframe (s == 0) or sample s. */
static inline int
fx_values(struct fixture *fx, struct iolog_writer *w, size_t ndev, int s)
{
	return fx_frame(fx, w, ndev, s, s == 0);
}

/* A table of ndev devices with attributes, as members start with. */
static inline int
fx_table(struct fixture *fx, struct iolog_writer *w, size_t ndev)
{
	struct iolog_dev dev[8];
	struct iolog_attr attr[2] = { { "wwid", "naa.5000c500a1b2c3d4" },
	    { "reason", "data disk, not local" } };
	struct iolog_event ev = { 0 };
	size_t i;
	int rc;

	memset(dev, 0, sizeof dev);
	for (i = 0; i < ndev; i++) {
		dev[i].id = 100 * fx->nmember + i;
		if (i == 1)
			snprintf(dev[i].name, sizeof dev[i].name, "cciss/c0d0");
		else
			snprintf(dev[i].name, sizeof dev[i].name, "sd%c",
			    (char)('a' + i));
		dev[i].major = 8;
		dev[i].minor = (uint32_t)(16 * i);
		dev[i].diskseq = i == 2 ? UINT64_MAX : i;
		dev[i].fields = i == 1 ? 0x55 : 0x1ffff;
		dev[i].nattr = i % 3;
		dev[i].attr = attr;
	}
	rc = iolog_write_table(w, dev, ndev);
	ev.type = IOLOG_EV_TABLE;
	ev.dev = dev;
	ev.ndev = ndev;
	fx_record(fx, &ev);
	return rc;
}

/* Forget the last k expected frames (they never reached the file). */
static inline void
fx_drop(struct fixture *fx, size_t k)
{
	while (k-- > 0 && fx->n > 0)
		free(fx->exp[--fx->n]);
}

/* One member on w: H, T (ndev devices with attributes), K, then nsamples
 * S frames cycling through every state. */
static inline void
fx_member(struct fixture *fx, struct iolog_writer *w, size_t ndev,
    int nsamples)
{
	struct iolog_header h = { .long_bits = 64, .interval_ms = 60000,
	    .created_ns = 1700000000000000000u };
	struct iolog_event ev = { 0 };
	int s;

	snprintf(h.host, sizeof h.host, "host-%zu", fx->nmember);
	snprintf(h.release, sizeof h.release, "6.1.0-13-amd64");
	snprintf(h.machine, sizeof h.machine, "x86_64");
	snprintf(h.boot_id, sizeof h.boot_id, "0b3c-%" PRIu64, fx->rng);
	snprintf(h.writer, sizeof h.writer, "iostatmon test");
	if (iolog_write_header(w, &h) != 0)
		fx->write_errors++;
	ev.type = IOLOG_EV_HEADER;
	ev.header = &h;
	fx_record(fx, &ev);

	if (fx_table(fx, w, ndev) != 0)
		fx->write_errors++;
	for (s = 0; s <= nsamples; s++)
		if (fx_values(fx, w, ndev, s) != 0)
			fx->write_errors++;
}

/* RLIMIT_FSIZE: the kernel refuses every byte a file would get past n, a
 * full disk for this process (its stdout too: print nothing meanwhile).
 * SIGXFSZ must be ignored. */
static inline void
fx_fsize(rlim_t n)
{
	struct rlimit rl;

	getrlimit(RLIMIT_FSIZE, &rl);
	rl.rlim_cur = n;
	setrlimit(RLIMIT_FSIZE, &rl);
}

static inline void
fx_init(struct fixture *fx, uint64_t seed)
{
	int fd;

	memset(fx, 0, sizeof *fx);
	fx->rng = seed;
	snprintf(fx->path, sizeof fx->path, "/tmp/test_iolog-XXXXXX");
	fd = mkstemp(fx->path);
	if (fd < 0)
		abort();
	close(fd);
}

/* A whole writer session of nmembers members. */
static inline void
fx_session(struct fixture *fx, int nmembers, size_t ndev, int nsamples)
{
	char err[512];
	struct iolog_writer *w = iolog_writer_open(fx->path, NULL, err,
	    sizeof err);
	struct stat st;
	int m;

	if (w == NULL) {
		ok_why(0, err, "open writer");
		exit(1);
	}
	for (m = 0; m < nmembers; m++)
		fx_member(fx, w, ndev, nsamples);
	ok(iolog_writer_close(w) == 0 && fx->write_errors == 0,
	    "write and close %d members", nmembers);
	if (stat(fx->path, &st) < 0)
		abort();
	fx->member_end[fx->nmember++] = (uint64_t)st.st_size;
}

static inline void
fx_free(struct fixture *fx)
{
	size_t i;

	for (i = 0; i < fx->n; i++)
		free(fx->exp[i]);
	unlink(fx->path);
}

/* Decoded events of buf: frames rendered into got[], damage counted. */
struct decoded {
	char *got[FX_MAX + 64];
	size_t n, ndamage;
	uint64_t first_damage;
	int truncated;		/* the first damage: a note, nothing lost */
	int cut;		/* the first damage: the input ends in a frame */
	uint64_t resumed;	/* the first damage: where reading resumed */
	char reason[400];
};

static inline void
decode_buf(const void *buf, size_t len, struct decoded *d)
{
	struct iolog_reader *r = iolog_reader_mem(buf, len, "test");
	struct iolog_event ev;

	memset(d, 0, sizeof *d);
	while (iolog_next(r, &ev) > 0) {
		if (ev.type == IOLOG_EV_DAMAGE) {
			if (d->ndamage++ == 0) {
				d->first_damage = ev.offset;
				d->truncated = ev.truncated;
				d->cut = ev.cut;
				d->resumed = ev.resumed;
				snprintf(d->reason, sizeof d->reason, "%s",
				    ev.reason);
			}
			continue;
		}
		if (d->n < FX_MAX + 64)
			d->got[d->n++] = render(&ev);
	}
	iolog_reader_close(r);
}

static inline void
decoded_free(struct decoded *d)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		free(d->got[i]);
}

static inline uint8_t *
read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long n;

	if (f == NULL || fseek(f, 0, SEEK_END) < 0 || (n = ftell(f)) < 0)
		abort();
	rewind(f);
	buf = malloc((size_t)n + 1);
	if (buf == NULL || fread(buf, 1, (size_t)n, f) != (size_t)n)
		abort();
	fclose(f);
	*len = (size_t)n;
	return buf;
}

#endif
