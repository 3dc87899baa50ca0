/*
 * iolog_read: frames to events. Keeps the member's header and current
 * device table, checks the order of frames (H, then T, then K before any
 * S), and computes each sample's interval from the monotonic clock of the
 * previous K or S frame of the same member. Anything out of order is damage:
 * reported once, and the rest of the member is skipped.
 */
#include "iolog_codec.h"
#include "iolog_inflate.h"

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
	int have_hdr, have_key;
	struct iolog_dev *dev;	/* NULL until the member's first T */
	size_t ndev;
	int have_table;
	struct iolog_val *val;	/* ndev entries */
	struct iolog_clock clock;
	uint64_t prev_mono;
	const uint8_t *body;	/* the frame delivered last */
	size_t body_len;
	char why[200];
};

struct iolog_reader *
iolog_reader_mem(const void *buf, size_t len, const char *name)
{
	struct iolog_reader *r = calloc(1, sizeof *r);

	if (r == NULL)
		return NULL;
	snprintf(r->name, sizeof r->name, "%s", name ? name : "(memory)");
	inf_init(&r->inf, buf, len);
	return r;
}

/* The whole file in memory: daily logs are a few MB, and a private copy
 * cannot change under the reader the way a mapping could. */
static uint8_t *
slurp(int fd, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	uint8_t *buf = malloc(cap), *p;
	ssize_t got;

	if (buf == NULL)
		return NULL;
	for (;;) {
		if (n == cap) {
			p = cap < SIZE_MAX / 2 ? realloc(buf, cap * 2) : NULL;
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

uint8_t *
iolog_slurp(const char *path, size_t *len, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	uint8_t *buf;

	if (fd < 0) {
		snprintf(err, errlen, "%s: cannot open: %s", path,
		    strerror(errno));
		return NULL;
	}
	buf = slurp(fd, len);
	if (buf == NULL)
		snprintf(err, errlen, "%s: cannot read: %s", path,
		    strerror(errno));
	close(fd);
	return buf;
}

struct iolog_reader *
iolog_reader_open(const char *path, char *err, size_t errlen)
{
	struct iolog_reader *r;
	uint8_t *buf;
	size_t len;

	buf = iolog_slurp(path, &len, err, errlen);
	if (buf == NULL)
		return NULL;
	r = iolog_reader_mem(buf, len, path);
	if (r == NULL) {
		free(buf);
		snprintf(err, errlen, "%s: %s", path, strerror(ENOMEM));
		return NULL;
	}
	r->owned = buf;
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
	iolog_devs_free(r->dev, r->ndev);
	free(r->val);
	r->dev = NULL;
	r->val = NULL;
	r->ndev = 0;
	r->have_table = r->have_key = 0;
}

static void
new_member(struct iolog_reader *r)
{
	drop_table(r);
	r->have_hdr = 0;
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

/* Semantic damage: report it and skip the rest of the member. */
static int
bad_frame(struct iolog_reader *r, struct iolog_event *ev, uint64_t offset,
    const char *why)
{
	inf_skip_member(&r->inf);
	return damage(r, ev, offset, why);
}

static const char *
on_table(struct iolog_reader *r, const uint8_t *p, size_t n)
{
	struct iolog_dev *dev;
	size_t ndev;
	const char *why = iolog_dec_table(p, n, &dev, &ndev);

	if (why != NULL)
		return why;
	drop_table(r);
	r->val = calloc(ndev ? ndev : 1, sizeof *r->val);
	if (r->val == NULL) {
		iolog_devs_free(dev, ndev);
		return "out of memory";
	}
	r->dev = dev;
	r->ndev = ndev;
	r->have_table = 1;
	return NULL;
}

static const char *
on_values(struct iolog_reader *r, int type, const uint8_t *p, size_t n,
    struct iolog_event *ev)
{
	const char *why;

	if (!r->have_table)
		return type == IOLOG_T_SAMPLE ? "sample before device table" :
		    "keyframe before device table";
	if (type == IOLOG_T_SAMPLE && !r->have_key)
		return "sample before keyframe";
	why = iolog_dec_values(p, n, type, &r->clock, r->val, r->ndev);
	if (why != NULL)
		return why;
	if (type == IOLOG_T_SAMPLE) {
		if (r->clock.monotonic_ns < r->prev_mono)
			return "monotonic clock went backwards";
		ev->interval_ns = r->clock.monotonic_ns - r->prev_mono;
	}
	r->prev_mono = r->clock.monotonic_ns;
	r->have_key = 1;
	ev->type = type == IOLOG_T_SAMPLE ? IOLOG_EV_SAMPLE :
	    IOLOG_EV_KEYFRAME;
	ev->clock = &r->clock;
	ev->val = r->val;
	return NULL;
}

/* One frame body to an event: NULL, or why it is damage. */
static const char *
on_frame(struct iolog_reader *r, const uint8_t *body, size_t len,
    struct iolog_event *ev)
{
	int type = body[0];
	const char *why;

	if (!r->have_hdr && type != IOLOG_T_HEADER)
		return "member does not start with a header frame";
	switch (type) {
	case IOLOG_T_HEADER:
		if (r->have_hdr)
			return "second header frame in member";
		why = iolog_dec_header(body + 1, len - 1, &r->hdr);
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
		return on_values(r, type, body + 1, len - 1, ev);
	default:
		snprintf(r->why, sizeof r->why, "unknown frame type 0x%02x",
		    type);
		return r->why;
	}
}

int
iolog_next(struct iolog_reader *r, struct iolog_event *ev)
{
	struct inf_frame fr;
	const char *why;

	for (;;) {
		switch (inf_next(&r->inf, &fr)) {
		case INF_END:
			return 0;
		case INF_MEMBER:
			new_member(r);
			continue;
		case INF_DAMAGE:
			damage(r, ev, fr.offset, fr.reason);
			ev->truncated = fr.at_end;
			return 1;
		case INF_FRAME:
			break;
		}
		memset(ev, 0, sizeof *ev);
		why = on_frame(r, fr.body, fr.len, ev);
		if (why != NULL)
			return bad_frame(r, ev, fr.offset, why);
		ev->offset = fr.offset;
		ev->header = r->have_hdr ? &r->hdr : NULL;
		ev->dev = r->dev;
		ev->ndev = r->ndev;
		r->body = fr.body;
		r->body_len = fr.len;
		return 1;
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
	inf_free(&r->inf);
	free(r->owned);
	free(r);
}
