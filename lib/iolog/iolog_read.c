/*
 * iolog_read: frames to events. Keeps the member's header and current
 * device table, checks the order of frames (H, then T, then K before any
 * S), and computes each sample's interval from the monotonic clock of the
 * previous K or S frame of the same member. Anything out of order is damage.
 * Damage is reported once per damaged region, when reading resumes (L3):
 * at a table, a keyframe, or at the second sample read again (the first
 * one's interval starts at a read that was lost); a member whose header is
 * lost or wrong is skipped to its end.
 */
#include "iolog_int.h"
#include "iolog_inflate_int.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

struct iolog_reader {
	char name[256];
	uint8_t *owned;		/* the file's bytes (file readers) */
	struct iolog_inflate inf;
	struct iolog_header hdr;
	int have_hdr;
	struct iolog_dev *dev;	/* NULL until the member's first T */
	size_t ndev;
	int have_table;
	struct iolog_val *val;	/* ndev entries */
	struct iolog_clock clock;
	/* The previous K or S of the member was read: its clocks start the
	 * next interval (deltas are taken from that read). */
	int have_base;
	uint64_t prev_mono;
	uint64_t last_seq;	/* seq of the last K or S delivered */
	/* A damaged region not reported yet: it is reported once, when
	 * reading resumes (or at the next member, or the end). */
	int lost;
	int lost_cut;		/* it began where the input ends mid-frame */
	uint64_t lost_at;
	char lost_why[256];
	uint64_t resume_at;	/* start of the first frame read since */
	uint64_t resume_seq;	/* its seq, when it is a K or S */
	int resume_has_seq;
	/* What comes after the damage report: an event, or a new member. */
	struct iolog_event next;
	int have_next, member_next;
	const uint8_t *next_body;
	size_t next_len;
	const uint8_t *body;	/* the frame delivered last */
	size_t body_len;
	char why[352];
};

struct iolog_reader *
iolog_reader_mem(const void *buf, size_t len, const char *name)
{
	struct iolog_reader *r = calloc(1, sizeof *r);

	if (r == NULL)
		return NULL;
	snprintf(r->name, sizeof r->name, "%s", name ? name : "(memory)");
	iolog_inflate_init(&r->inf, buf, len);
	return r;
}

/* The whole file in memory: daily logs are a few MB, and a private copy
 * cannot change under the reader the way a mapping could. */
uint8_t *
iolog_read_slurp_fd(int fd, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	uint8_t *buf = malloc(cap), *p;
	ssize_t got;

	if (buf == NULL)
		return NULL;
	for (;;) {
		if (n == cap) {
			p = reallocarray(buf, cap, 2);
			if (p == NULL) {
				free(buf);
				errno = ENOMEM;
				return NULL;
			}
			buf = p;
			cap *= 2;
		}
		got = read(fd, buf + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			free(buf);
			return NULL;
		}
		if (got == 0)
			break;
		n += (size_t)got;
	}
	*len = n;
	return buf;
}

struct iolog_reader *
iolog_reader_fd(int fd, const char *name, char *err, size_t errlen)
{
	struct iolog_reader *r;
	uint8_t *buf;
	size_t len;

	if ((buf = iolog_read_slurp_fd(fd, &len)) == NULL) {
		snprintf(err, errlen, "%s: cannot read: %s", name,
		    strerror(errno));
		return NULL;
	}
	r = iolog_reader_mem(buf, len, name);
	if (r == NULL) {
		free(buf);
		snprintf(err, errlen, "%s: %s", name, strerror(ENOMEM));
		return NULL;
	}
	r->owned = buf;
	return r;
}

struct iolog_reader *
iolog_reader_open(const char *path, char *err, size_t errlen)
{
	struct iolog_reader *r;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		snprintf(err, errlen, "%s: cannot open: %s", path,
		    strerror(errno));
		return NULL;
	}
	r = iolog_reader_fd(fd, path, err, errlen);
	close(fd);
	return r;
}

const char *
iolog_reader_name(const struct iolog_reader *r)
{
	return r->name;
}

static void
drop_table(struct iolog_reader *r)
{
	iolog_decode_devs_free(r->dev, r->ndev);
	free(r->val);
	r->dev = NULL;
	r->val = NULL;
	r->ndev = 0;
	r->have_table = r->have_base = 0;
}

static void
new_member(struct iolog_reader *r)
{
	drop_table(r);
	r->have_hdr = 0;
	r->last_seq = 0;	/* the member's first K has seq 0 */
	memset(&r->hdr, 0, sizeof r->hdr);
}

static int
damage(struct iolog_reader *r, struct iolog_event *ev, uint64_t offset,
    const char *why)
{
	if (why != r->why)
		snprintf(r->why, sizeof r->why, "%s", why);
	memset(ev, 0, sizeof *ev);
	ev->type = IOLOG_EV_DAMAGE;
	ev->offset = offset;
	ev->reason = r->why;
	ev->header = r->have_hdr ? &r->hdr : NULL;
	r->body = NULL;
	r->body_len = 0;
	return 1;
}

/* Damage at `at`: frames are skipped until one can be delivered. Damage
 * met while skipping belongs to the same region; it only breaks the run
 * of frames read since. */
static void
lose(struct iolog_reader *r, uint64_t at, const char *why, int cut)
{
	r->have_base = 0;
	r->resume_at = 0;
	r->resume_has_seq = 0;
	if (r->lost)
		return;
	r->lost = 1;
	r->lost_cut = cut;
	r->lost_at = at;
	snprintf(r->lost_why, sizeof r->lost_why, "%.255s", why);
}

/* The damage event of the region, once reading resumed at `resumed` (0:
 * nothing after it could be read). Records between the last delivered
 * and the first read again are counted from seq, which counts the
 * member's samples (a K has the seq of the S it follows). */
static int
report_lost(struct iolog_reader *r, struct iolog_event *ev,
    uint64_t resumed, int counted)
{
	int n;

	assert(r->lost);	/* L3: a region is reported once */
	n = snprintf(r->why, sizeof r->why, "%s", r->lost_why);
	if (resumed && n >= 0 && (size_t)n < sizeof r->why)
		n += snprintf(r->why + n, sizeof r->why - (size_t)n,
		    "; resumed at compressed offset %llu",
		    (unsigned long long)resumed);
	if (counted && r->resume_has_seq && r->resume_seq >= r->last_seq &&
	    n >= 0 && (size_t)n < sizeof r->why)
		snprintf(r->why + n, sizeof r->why - (size_t)n, "; %llu sample "
		    "records lost", (unsigned long long)(r->resume_seq -
		    r->last_seq));
	damage(r, ev, r->lost_at, r->why);
	ev->resumed = resumed;
	ev->cut = r->lost_cut && !resumed;
	r->lost = 0;
	return 1;
}

static const char *
on_table(struct iolog_reader *r, const uint8_t *p, size_t n)
{
	struct iolog_dev *dev;
	size_t ndev;
	const char *why = iolog_decode_table(p, n, &dev, &ndev);

	drop_table(r);		/* a bad table leaves none: never the old one */
	if (why != NULL)
		return why;
	r->val = calloc(ndev ? ndev : 1, sizeof *r->val);
	if (r->val == NULL) {
		iolog_decode_devs_free(dev, ndev);
		return "out of memory";
	}
	r->dev = dev;
	r->ndev = ndev;
	r->have_table = 1;
	return NULL;
}

/* A K, S or P (a sample of version 2). A sample needs a base: the
 * previous K or sample of the member. After damage, the first sample read
 * again has none; it is not delivered, but its clocks are the base of the
 * next (*deliver = 0). */
static const char *
on_values(struct iolog_reader *r, int type, const uint8_t *p, size_t n,
    struct iolog_event *ev, int *deliver)
{
	int sample = type != IOLOG_T_KEYFRAME;
	const char *why;

	if (!r->have_table)
		return sample ? "sample before device table" :
		    "keyframe before device table";
	if (type == IOLOG_T_PACKED && r->hdr.version < 2)
		return "packed sample in a version 1 member";
	if (sample && !r->have_base && !r->lost)
		return "sample before keyframe";
	why = type == IOLOG_T_PACKED ?
	    iolog_packed_decode(p, n, &r->clock, r->val, r->ndev) :
	    iolog_decode_values(p, n, type, &r->clock, r->val, r->ndev);
	if (why != NULL)
		return why;
	*deliver = !sample || r->have_base;
	if (sample && r->have_base) {
		if (r->clock.monotonic_ns < r->prev_mono)
			return "monotonic clock went backwards";
		ev->interval_ns = r->clock.monotonic_ns - r->prev_mono;
	}
	r->prev_mono = r->clock.monotonic_ns;
	r->have_base = 1;
	ev->type = sample ? IOLOG_EV_SAMPLE : IOLOG_EV_KEYFRAME;
	ev->clock = &r->clock;
	ev->val = r->val;
	return NULL;
}

/* One frame body to an event: NULL, or why it is damage. */
static const char *
on_frame(struct iolog_reader *r, const uint8_t *body, size_t len,
    struct iolog_event *ev, int *deliver)
{
	int type = body[0];
	const char *why;

	*deliver = 1;
	if (!r->have_hdr && type != IOLOG_T_HEADER)
		return "member does not start with a header frame";
	switch (type) {
	case IOLOG_T_HEADER:
		if (r->have_hdr)
			return "second header frame in member";
		why = iolog_decode_header(body + 1, len - 1, &r->hdr);
		if (why != NULL)
			return why;
		r->have_hdr = 1;
		ev->type = IOLOG_EV_HEADER;
		return NULL;
	case IOLOG_T_TABLE:
		why = on_table(r, body + 1, len - 1);
		ev->type = IOLOG_EV_TABLE;
		return why;
	case IOLOG_T_KEYFRAME:
	case IOLOG_T_SAMPLE:
	case IOLOG_T_PACKED:
		return on_values(r, type, body + 1, len - 1, ev, deliver);
	default:
		snprintf(r->why, sizeof r->why, "unknown frame type 0x%02x",
		    type);
		return r->why;
	}
}

/* A frame from the member layer: 1 with an event in *ev, 0 when it was
 * skipped. A member without its header is given up; any other bad frame
 * is damage, and reading goes on with the next frame that can be used. */
static int
on_inf_frame(struct iolog_reader *r, const struct inf_frame *fr,
    struct iolog_event *ev)
{
	const char *why;
	int deliver;

	memset(ev, 0, sizeof *ev);
	why = on_frame(r, fr->body, fr->len, ev, &deliver);
	if (why != NULL) {
		if (!r->have_hdr || fr->body[0] == IOLOG_T_HEADER)
			iolog_inflate_skip_member(&r->inf);
		lose(r, fr->start, why, 0);
		return 0;
	}
	if (r->lost && r->resume_at == 0) {
		r->resume_at = fr->start;
		r->resume_has_seq = ev->clock != NULL;
		r->resume_seq = ev->clock ? ev->clock->seq : 0;
	}
	if (!deliver)
		return 0;
	ev->offset = fr->offset;
	ev->header = r->have_hdr ? &r->hdr : NULL;
	ev->dev = r->dev;
	ev->ndev = r->ndev;
	if (ev->clock != NULL && !r->lost)
		r->last_seq = ev->clock->seq;
	if (r->lost) {		/* report the damage first, then this */
		r->next = *ev;
		r->next_body = fr->body;
		r->next_len = fr->len;
		r->have_next = 1;
		report_lost(r, ev, r->resume_at, 1);
		if (r->next.clock != NULL)
			r->last_seq = r->next.clock->seq;
		return 1;
	}
	r->body = fr->body;
	r->body_len = fr->len;
	return 1;
}

int
iolog_next(struct iolog_reader *r, struct iolog_event *ev)
{
	struct inf_frame fr;

	for (;;) {
		if (r->have_next) {
			r->have_next = 0;
			*ev = r->next;
			r->body = r->next_body;
			r->body_len = r->next_len;
			return 1;
		}
		if (r->member_next) {
			r->member_next = 0;
			new_member(r);
		}
		switch (iolog_inflate_next(&r->inf, &fr)) {
		case INF_END:
			return r->lost ? report_lost(r, ev, 0, 0) : 0;
		case INF_MEMBER:
			if (r->lost) {
				r->member_next = 1;
				return report_lost(r, ev, fr.offset, 0);
			}
			new_member(r);
			continue;
		case INF_DAMAGE:
			if (fr.at_end && !r->lost) {
				damage(r, ev, fr.offset, fr.reason);
				ev->truncated = 1;
				return 1;
			}
			lose(r, fr.offset, fr.reason, fr.cut);
			continue;
		case INF_FRAME:
			if (on_inf_frame(r, &fr, ev))
				return 1;
			continue;
		}
	}
}

void
iolog_reader_frame(const struct iolog_reader *r, const uint8_t **body,
    size_t *len)
{
	*body = r->body;
	*len = r->body_len;
}

void
iolog_reader_close(struct iolog_reader *r)
{
	if (r == NULL)
		return;
	drop_table(r);
	iolog_inflate_free(&r->inf);
	free(r->owned);
	free(r);
}
