/*
 * import_raw: read a raw capture block by block. See import_raw.h.
 *
 * A block is accepted when its T line parses, T is later than the previous
 * accepted block's, and it holds at least one diskstats line. Within a
 * block, a line that does not parse, or that repeats a device name (two
 * `cat`s without a T between them), is dropped. Messages name the file and
 * the line; after MAX_MESSAGES only the final summary is printed.
 */
#include "import_raw.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "xalloc.h"

#define NS           UINT64_C(1000000000)
#define MAX_MESSAGES 20

struct reader {
	const char *path;
	FILE *f;
	size_t lineno, messages;
	struct raw_stats *st;
	/* the block being collected */
	int in_block;			/* a good T line opened it */
	uint64_t t, prev_t;
	size_t t_line;
	struct ds_table tab;
	uint32_t *slots;		/* name hash set: index + 1, 0 free */
	size_t nslots;
};

static void
complain(struct reader *r, size_t line, const char *fmt, ...)
{
	va_list ap;
	char *msg = NULL;

	if (++r->messages > MAX_MESSAGES)
		return;
	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	/* The line's words are the file's: escaped with the rest. */
	fmt_diag(stderr, "iostatmon import", "%s:%zu: %s", r->path, line,
	    msg ? msg : strerror(ENOMEM));
	free(msg);
	if (r->messages == MAX_MESSAGES)
		fmt_diag(stderr, "iostatmon import", "%s: further problems are "
		    "only counted", r->path);
}

/* "T 1700000000" or "T 1700000000.123456789" into ns. 0, or -1. */
static int
parse_t(const char *s, uint64_t *ns)
{
	uint64_t sec = 0, frac = 0, scale = NS;
	int digits = 0;

	if (s[0] != 'T' || (s[1] != ' ' && s[1] != '\t'))
		return -1;
	for (s += 2; *s == ' ' || *s == '\t'; s++)
		;
	for (; *s >= '0' && *s <= '9'; s++, digits++) {
		if (sec > (UINT64_MAX / NS - 9) / 10)
			return -1;
		sec = sec * 10 + (uint64_t)(*s - '0');
	}
	if (!digits)
		return -1;
	if (*s == '.')
		for (s++; *s >= '0' && *s <= '9'; s++)
			if (scale > 1) {
				scale /= 10;
				frac += (uint64_t)(*s - '0') * scale;
			}
	while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
		s++;
	if (*s)
		return -1;
	*ns = sec * NS + frac;
	return 0;
}

static int
is_t_line(const char *s)
{
	return s[0] == 'T' && (s[1] == ' ' || s[1] == '\t' || !s[1] ||
	    s[1] == '\n');
}

static int
blank(const char *s)
{
	return s[strspn(s, " \t\r\n")] == '\0';
}

static uint32_t
hash_name(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

/* Has the block a device of this name already? If not, remember index i. */
static int
seen_name(struct reader *r, const char *name, size_t i)
{
	if (r->nslots < 2 * (i + 1)) {
		size_t n = r->nslots ? r->nslots : 64;

		while (n < 2 * (i + 1))
			n *= 2;
		r->slots = xreallocarray(r->slots, n, sizeof *r->slots);
		r->nslots = n;
		memset(r->slots, 0, n * sizeof *r->slots);
		for (size_t k = 0; k < i; k++)	/* rehash what is there */
			seen_name(r, r->tab.dev[k].name, k);
	}
	for (size_t h = hash_name(name) & (r->nslots - 1);;
	    h = (h + 1) & (r->nslots - 1)) {
		if (!r->slots[h]) {
			r->slots[h] = (uint32_t)i + 1;
			return 0;
		}
		if (!strcmp(r->tab.dev[r->slots[h] - 1].name, name))
			return 1;
	}
}

static void
add_line(struct reader *r, const char *s, size_t len)
{
	struct ds_table *t = &r->tab;

	t->dev = xgrow(t->dev, t->n, &t->cap, sizeof *t->dev, 64);
	if (diskstats_parse_line(s, len, &t->dev[t->n]) < 0) {
		complain(r, r->lineno, "not a diskstats line; skipped");
		r->st->skipped_lines++;
		return;
	}
	if (seen_name(r, t->dev[t->n].name, t->n)) {
		complain(r, r->lineno, "%s appears twice after the T line of "
		    "line %zu; skipped", t->dev[t->n].name, r->t_line);
		r->st->skipped_lines++;
		return;
	}
	t->n++;
}

/* The block is complete: hand it over, or say why not. */
static int
end_block(struct reader *r, raw_block_fn fn, void *arg)
{
	int rc = 0;

	if (!r->in_block)
		return 0;
	r->in_block = 0;
	if (r->tab.n == 0) {
		complain(r, r->t_line, "T line without diskstats lines; "
		    "block skipped");
		r->st->skipped_blocks++;
		return 0;
	}
	rc = fn(arg, r->t, &r->tab);
	r->st->blocks++;
	r->prev_t = r->t;
	return rc;
}

static void
start_block(struct reader *r, const char *line)
{
	uint64_t t;

	r->t_line = r->lineno;
	r->tab.n = 0;
	if (r->nslots)
		memset(r->slots, 0, r->nslots * sizeof *r->slots);
	if (parse_t(line, &t) < 0) {
		complain(r, r->lineno, "bad T line (expected \"T "
		    "<unix-seconds>\"); block skipped");
		r->st->skipped_blocks++;
		return;
	}
	if (r->prev_t && t <= r->prev_t) {
		complain(r, r->lineno, "T %" PRIu64 ".%09" PRIu64 " is not "
		    "after the previous block's; block skipped", t / NS,
		    t % NS);
		r->st->skipped_blocks++;
		return;
	}
	r->t = t;
	r->in_block = 1;
}

static FILE *
open_raw(const char *path)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;

	if (!f)
		fmt_diag(stderr, "iostatmon import", "%s: cannot open: %s",
		    path, strerror(errno));
	return f;
}

static int
close_raw(FILE *f, const char *path)
{
	int bad = ferror(f);

	if (bad)
		fmt_diag(stderr, "iostatmon import", "%s: read error: %s",
		    path, strerror(errno));
	if (f != stdin)
		fclose(f);
	return bad ? -1 : 0;
}

int
import_raw_read(const char *path, raw_block_fn fn, void *arg,
    struct raw_stats *st)
{
	struct reader r = { .path = path, .st = st };
	char *line = NULL;
	size_t cap = 0, orphans = 0;
	ssize_t len;
	int rc = 0;

	if (!(r.f = open_raw(path)))
		return -1;
	while (rc == 0 && (len = getline(&line, &cap, r.f)) >= 0) {
		r.lineno++;
		if (is_t_line(line)) {
			rc = end_block(&r, fn, arg);
			start_block(&r, line);
		} else if (blank(line)) {
			continue;
		} else if (r.in_block) {
			add_line(&r, line, (size_t)len);
		} else {
			/* lines of a skipped block were reported with it */
			if (r.t_line == 0 && !orphans++)
				complain(&r, r.lineno, "diskstats lines before "
				    "the first T line; skipped");
			st->skipped_lines++;
		}
	}
	if (rc == 0)
		rc = end_block(&r, fn, arg);
	if (close_raw(r.f, path) < 0 && rc == 0)
		rc = -1;
	if (st->skipped_lines || st->skipped_blocks)
		fmt_diag(stderr, "iostatmon import", "%s: skipped %zu lines "
		    "and %zu blocks", path, st->skipped_lines,
		    st->skipped_blocks);
	free(line);
	free(r.slots);
	diskstats_table_free(&r.tab);
	return rc;
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The most common value of a sorted array (the smallest on a tie). */
static uint64_t
mode(const uint64_t *v, size_t n)
{
	uint64_t best = 0;
	size_t best_n = 0;

	for (size_t i = 0, j; i < n; i = j) {
		for (j = i; j < n && v[j] == v[i]; j++)
			;
		if (j - i > best_n) {
			best_n = j - i;
			best = v[i];
		}
	}
	return best;
}

int
import_raw_scan(const char *path, struct raw_stats *st)
{
	FILE *f;
	char *line = NULL;
	size_t cap = 0, n = 0, vcap = 0;
	uint64_t *steps = NULL, prev = 0, t;
	int rc;

	memset(st, 0, sizeof *st);
	if (!strcmp(path, "-"))
		return 0;
	if (!(f = open_raw(path)))
		return -1;
	while (getline(&line, &cap, f) >= 0) {
		if (!is_t_line(line) || parse_t(line, &t) < 0)
			continue;
		if (prev && t > prev) {
			steps = xgrow(steps, n, &vcap, sizeof *steps, 1024);
			/* to the millisecond: `date +%s.%N` jitters */
			steps[n++] = (t - prev + 500000) / 1000000 * 1000000;
		}
		if (t > prev)
			prev = t;
	}
	rc = close_raw(f, path);
	if (n > 0)	/* no step at all: steps is NULL */
		qsort(steps, n, sizeof *steps, cmp_u64);
	st->usual_step = mode(steps, n);
	free(steps);
	free(line);
	return rc;
}
