/*
 * iolog_text: the iolog codec as a text filter, for the Python oracle
 * (tests/t_iostatmon_codec.py), which checks it against its own reading of
 * docs/iolog-format.md. test_iolog runs it when given arguments:
 *
 *	test_iolog encode LOG < TEXT	frames from text into LOG
 *	test_iolog decode LOG > TEXT	events of LOG as text
 *
 * One frame per line; strings are %XX-escaped outside [A-Za-z0-9._/:-]:
 *	H host release machine long_bits interval_ms boot_id created_ns writer
 *	T id,name,major,minor,diskseq,fields,nattr[,key,value]... ...
 *	K seq rt mono boot read flags missed FIELDS...
 *	S seq rt mono boot read flags missed STATE[:FIELDS]... [iv=NS]
 *	D offset resumed note|cut|damage reason  (iolog.h: DAMAGE fields)
 * FIELDS is "i=v/i=v..." (non-zero fields) or "-". Decode prints iv= on
 * samples. text_check() is a small self-check of the two.
 */
#ifndef TESTS_IOLOG_TEXT_H
#define TESTS_IOLOG_TEXT_H

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "iolog/iolog.h"
#include "tap.h"

static inline void
put_esc(FILE *o, const char *s)
{
	if (*s == '\0')
		fputs("%", o);	/* the empty string: a lone % */
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (isalnum(c) || strchr("._/:-", c))
			fputc(c, o);
		else
			fprintf(o, "%%%02X", c);
	}
}

/* Unescape tok into dst (size n); a lone "%" is the empty string. */
static inline void
get_esc(const char *tok, char *dst, size_t n)
{
	size_t j = 0;

	if (strcmp(tok, "%") == 0)
		tok = "";
	for (; *tok && j + 1 < n; tok++) {
		unsigned int c;

		if (*tok == '%' && sscanf(tok + 1, "%2X", &c) == 1) {
			dst[j++] = (char)c;
			tok += 2;
		} else {
			dst[j++] = *tok;
		}
	}
	dst[j] = '\0';
}

static inline void
put_fields(FILE *o, const struct iolog_val *v)
{
	int f, first = 1;

	for (f = 0; f < DS_FIELDS; f++) {
		if (!(v->mask & (UINT32_C(1) << f)) || v->v[f] == 0)
			continue;
		fprintf(o, "%s%d=%" PRIu64, first ? "" : "/", f, v->v[f]);
		first = 0;
	}
	if (first)
		fputs("-", o);
}

static inline void
get_fields(const char *tok, struct iolog_val *v)
{
	memset(v->v, 0, sizeof v->v);
	v->mask = 0;
	while (*tok && *tok != '-') {
		int f = atoi(tok);
		const char *eq = strchr(tok, '=');

		if (eq == NULL || f < 0 || f >= DS_FIELDS)
			break;
		v->v[f] = strtoull(eq + 1, NULL, 10);
		v->mask |= UINT32_C(1) << f;
		tok = strchr(eq, '/');
		if (tok == NULL)
			break;
		tok++;
	}
}

static inline void
put_clock(FILE *o, const struct iolog_clock *c)
{
	fprintf(o, " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %"
	    PRIu64 " %" PRIu32 " %" PRIu64, c->seq, c->realtime_ns,
	    c->monotonic_ns, c->boottime_ns, c->read_ns, c->flags, c->missed);
}

static inline void
put_event(FILE *o, const struct iolog_event *ev)
{
	const struct iolog_header *h = ev->header;
	size_t i, j;

	switch (ev->type) {
	case IOLOG_EV_HEADER:
		fputs("H ", o); put_esc(o, h->host);
		fputs(" ", o); put_esc(o, h->release);
		fputs(" ", o); put_esc(o, h->machine);
		fprintf(o, " %d %" PRIu32 " ", h->long_bits, h->interval_ms);
		put_esc(o, h->boot_id);
		fprintf(o, " %" PRIu64 " ", h->created_ns);
		put_esc(o, h->writer);
		break;
	case IOLOG_EV_TABLE:
		fputs("T", o);
		for (i = 0; i < ev->ndev; i++) {
			const struct iolog_dev *d = &ev->dev[i];

			fprintf(o, " %" PRIu64 ",", d->id);
			put_esc(o, d->name);
			fprintf(o, ",%" PRIu32 ",%" PRIu32 ",%" PRIu64 ",%" PRIu32
			    ",%zu", d->major, d->minor, d->diskseq, d->fields,
			    d->nattr);
			for (j = 0; j < d->nattr; j++) {
				fputs(",", o); put_esc(o, d->attr[j].key);
				fputs(",", o); put_esc(o, d->attr[j].value);
			}
		}
		break;
	case IOLOG_EV_KEYFRAME:
	case IOLOG_EV_SAMPLE:
		fputs(ev->type == IOLOG_EV_SAMPLE ? "S" : "K", o);
		put_clock(o, ev->clock);
		for (i = 0; i < ev->ndev; i++) {
			fputs(" ", o);
			if (ev->type == IOLOG_EV_SAMPLE) {
				fprintf(o, "%u", ev->val[i].state);
				if (ev->val[i].state == IOLOG_ABSENT)
					continue;
				fputs(":", o);
			}
			put_fields(o, &ev->val[i]);
		}
		if (ev->type == IOLOG_EV_SAMPLE)
			fprintf(o, " iv=%" PRIu64, ev->interval_ns);
		break;
	case IOLOG_EV_DAMAGE:
		fprintf(o, "D %" PRIu64 " %" PRIu64 " %s ", ev->offset,
		    ev->resumed, ev->truncated ? "note" : ev->cut ? "cut" :
		    "damage");
		put_esc(o, ev->reason);
		break;
	}
	fputs("\n", o);
}

static inline int
text_decode(const char *path, FILE *o)
{
	char err[512];
	struct iolog_reader *r = iolog_reader_open(path, err, sizeof err);
	struct iolog_event ev;

	if (r == NULL) {
		fprintf(stderr, "%s\n", err);
		return 2;
	}
	while (iolog_next(r, &ev) > 0)
		put_event(o, &ev);
	iolog_reader_close(r);
	return 0;
}

/* Split a line into tokens in place; returns the count. */
static inline size_t
split(char *line, char ***tok)
{
	size_t n = 0, cap = 16;
	char *save, *t;

	*tok = malloc(cap * sizeof **tok);
	for (t = strtok_r(line, " \n", &save); t; t = strtok_r(NULL, " \n",
	    &save)) {
		if (n == cap)
			*tok = realloc(*tok, (cap *= 2) * sizeof **tok);
		(*tok)[n++] = t;
	}
	return n;
}

static inline int
enc_header(struct iolog_writer *w, char **t, size_t n)
{
	struct iolog_header h;

	if (n != 9)
		return -2;
	memset(&h, 0, sizeof h);
	get_esc(t[1], h.host, sizeof h.host);
	get_esc(t[2], h.release, sizeof h.release);
	get_esc(t[3], h.machine, sizeof h.machine);
	h.long_bits = atoi(t[4]);
	h.interval_ms = (uint32_t)strtoul(t[5], NULL, 10);
	get_esc(t[6], h.boot_id, sizeof h.boot_id);
	h.created_ns = strtoull(t[7], NULL, 10);
	get_esc(t[8], h.writer, sizeof h.writer);
	return iolog_write_header(w, &h);
}

/* One device token: id,name,major,minor,diskseq,fields,nattr[,k,v]... */
static inline void
get_dev(char *tok, struct iolog_dev *d)
{
	char *save, *f[8], *k, *v;
	size_t i;

	memset(d, 0, sizeof *d);
	for (i = 0; i < 7; i++)
		f[i] = strtok_r(i ? NULL : tok, ",", &save);
	if (f[6] == NULL)
		return;
	d->id = strtoull(f[0], NULL, 10);
	get_esc(f[1], d->name, sizeof d->name);
	d->major = (uint32_t)strtoul(f[2], NULL, 10);
	d->minor = (uint32_t)strtoul(f[3], NULL, 10);
	d->diskseq = strtoull(f[4], NULL, 10);
	d->fields = (uint32_t)strtoul(f[5], NULL, 10);
	d->nattr = strtoul(f[6], NULL, 10);
	d->attr = calloc(d->nattr + 1, sizeof *d->attr);
	for (i = 0; i < d->nattr; i++) {
		k = strtok_r(NULL, ",", &save);
		v = strtok_r(NULL, ",", &save);
		d->attr[i].key = calloc(1, 70000);
		d->attr[i].value = calloc(1, 70000);
		get_esc(k ? k : "%", d->attr[i].key, 70000);
		get_esc(v ? v : "%", d->attr[i].value, 70000);
	}
}

static inline int
enc_table(struct iolog_writer *w, char **t, size_t n)
{
	struct iolog_dev *d = calloc(n, sizeof *d);
	size_t i, j;
	int rc;

	for (i = 1; i < n; i++)
		get_dev(t[i], &d[i - 1]);
	rc = iolog_write_table(w, d, n - 1);
	for (i = 0; i + 1 < n; i++) {
		for (j = 0; j < d[i].nattr; j++) {
			free(d[i].attr[j].key);
			free(d[i].attr[j].value);
		}
		free(d[i].attr);
	}
	free(d);
	return rc;
}

static inline int
enc_values(struct iolog_writer *w, char **t, size_t n)
{
	struct iolog_clock c;
	struct iolog_val *v;
	size_t i, ndev = n < 8 ? 0 : n - 8;
	int rc;

	if (n < 8)
		return -2;
	if (ndev > 0 && strncmp(t[n - 1], "iv=", 3) == 0)
		ndev--;		/* decode output fed back */
	c.seq = strtoull(t[1], NULL, 10);
	c.realtime_ns = strtoull(t[2], NULL, 10);
	c.monotonic_ns = strtoull(t[3], NULL, 10);
	c.boottime_ns = strtoull(t[4], NULL, 10);
	c.read_ns = strtoull(t[5], NULL, 10);
	c.flags = (uint32_t)strtoul(t[6], NULL, 10);
	c.missed = strtoull(t[7], NULL, 10);
	v = calloc(ndev + 1, sizeof *v);
	for (i = 0; i < ndev; i++) {
		const char *tok = t[8 + i];

		if (t[0][0] == 'S') {
			v[i].state = (uint8_t)atoi(tok);
			tok = strchr(tok, ':');
			if (tok == NULL)
				continue;
			tok++;
		}
		get_fields(tok, &v[i]);
	}
	rc = t[0][0] == 'S' ? iolog_write_sample(w, &c, v, ndev) :
	    iolog_write_keyframe(w, &c, v, ndev);
	free(v);
	return rc;
}

static inline int
text_encode(const char *path, FILE *in)
{
	char err[512], *line = NULL, **t;
	size_t cap = 0, n;
	struct iolog_writer *w = iolog_writer_open(path, NULL, err, sizeof err);
	int rc = 0, lineno = 0;

	if (w == NULL) {
		fprintf(stderr, "%s\n", err);
		return 2;
	}
	while (getline(&line, &cap, in) > 0) {
		int r = -2;

		lineno++;
		n = split(line, &t);
		if (n > 0 && strcmp(t[0], "H") == 0)
			r = enc_header(w, t, n);
		else if (n > 0 && strcmp(t[0], "T") == 0)
			r = enc_table(w, t, n);
		else if (n > 0 && (strcmp(t[0], "K") == 0 ||
		    strcmp(t[0], "S") == 0))
			r = enc_values(w, t, n);
		free(t);
		if (r != 0) {
			fprintf(stderr, "line %d: %s\n", lineno,
			    r == -2 ? "bad line" : strerror(errno));
			rc = 1;
		}
	}
	free(line);
	if (iolog_writer_close(w) < 0) {
		fprintf(stderr, "%s: close: %s\n", path, strerror(errno));
		rc = 1;
	}
	return rc;
}

/* Encode a fixed text, decode it, compare. */
static inline void
text_check(void)
{
	static const char text[] =
	    "H h%20x 6.1.0 x86_64 64 60000 b-1 17 w\n"
	    "T 1,sda,8,0,0,131071,1,wwid,naa.1 2,cciss/c0d0,104,0,9,15,0\n"
	    "K 0 100 1000 1000 5 0 0 0=1/3=4294967295 -\n"
	    "S 1 200 61000 61000 5 1 0 0:0=18446744073709551615 1 iv=60000\n"
	    "S 2 300 121000 121000 5 2 3 2:8=7 0:- iv=60000\n";
	char path[] = "/tmp/test_iolog_text-XXXXXX", *out = NULL;
	size_t outlen = 0;
	FILE *in = fmemopen((void *)text, sizeof text - 1, "r"), *o;
	int fd = mkstemp(path);

	ok(fd >= 0 && in != NULL, "temporary file");
	close(fd);
	ok(text_encode(path, in) == 0, "text: encode the fixed text");
	fclose(in);
	o = open_memstream(&out, &outlen);
	ok(text_decode(path, o) == 0, "text: decode it");
	fclose(o);
	is_str(out, text, "text: decoded text equals the input");
	free(out);
	unlink(path);
}

#endif
