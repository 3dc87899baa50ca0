/* annotate: --annotate FILE parsing, the windows placed on minutes and
 * buckets, and the defaults of opts_init. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli_int.h"
#include "traffic/traffic_int.h"
#include "tap.h"

static char path[64];

static void
write_file(const char *text)
{
	FILE *f = fopen(path, "w");

	fputs(text, f);
	fclose(f);
}

static void
good(void)
{
	struct annotation *a = NULL;
	size_t n = 99;
	char err[256] = "";

	write_file("# windows\n\n"
	    "2010-03-01 2010-03-02 maintenance day\n"
	    "  2010-02-01T09:00 2010-02-05T10:00Z   data lost  \n"
	    "2010-03-10 06:00 2010-03-10 18:00:30 unplanned 10:00 outage\n"
	    "@1267401600 1267405200 x\n");
	if (!ok_why(cli_annotate_load(path, &a, &n, err, sizeof err) == 0, err,
	    "annotations load"))
		return;
	is_i64((int64_t)n, 4, "four windows");
	is_i64(a[0].from, 1267401600, "date FROM");
	is_i64(a[0].to, 1267488000, "date TO");
	is_str(a[0].label, "maintenance day", "label with a blank");
	is_i64(a[1].from, 1264982400 + 9 * 3600, "ISO T time");
	is_i64(a[1].to, 1264982400 + 4 * 86400 + 10 * 3600, "ISO Z time");
	is_str(a[1].label, "data lost", "label trimmed");
	is_i64(a[2].from, 1268179200 + 6 * 3600, "date and time as two words");
	is_i64(a[2].to, 1268179200 + 18 * 3600 + 30, "TO with seconds");
	is_str(a[2].label, "unplanned 10:00 outage", "label keeps inner words");
	is_i64(a[3].to, 1267405200, "unix seconds");
	opts_annotations_free(a, n);
}

static void
bad(const char *text, const char *want, const char *name)
{
	struct annotation *a = NULL;
	size_t n = 0;
	char err[256] = "", full[128];

	write_file(text);
	snprintf(full, sizeof full, "%s:%s", path, want);
	ok(cli_annotate_load(path, &a, &n, err, sizeof err) == -1,
	    "%s rejected", name);
	is_str(err, full, "%s message", name);
}

/* Ten minutes from 2010-02-01 00:00, minutes 3, 4 and 7 not complete. */
static void
series10(struct minute_series *s)
{
	memset(s, 0, sizeof *s);
	s->t0 = 1264982400;
	s->n = 10;
	s->state = malloc(s->n);
	memset(s->state, MIN_COMPLETE, s->n);
	s->state[3] = s->state[4] = MIN_MISSING;
	s->state[7] = MIN_NONE;
}

static const char *
text_cell(const struct rtable *t, size_t row, int col)
{
	const struct cell *c = result_cell(t, row, col);

	return c->kind == CK_TEXT ? c->v.s : "(not text)";
}

static uint64_t
uint_cell(const struct rtable *t, size_t row, int col)
{
	const struct cell *c = result_cell(t, row, col);

	return c->kind == CK_UINT ? c->v.u : 999;
}

static void
placed(void)
{
	int64_t t0 = 1264982400;
	struct annotation a[] = {
		{ t0 + 120, t0 + 300, "m2-4" },		/* minutes 2, 3, 4 */
		{ t0 + 90, t0 + 91, "one second" },	/* minute 1 */
		{ t0 + 420, t0 + 7200, "to the end" },	/* minutes 7, 8, 9 */
		{ t0 - 600, t0, "before" },		/* none */
		{ t0 + 570, t0 + 630, "edge" },		/* minute 9 */
	};
	static const uint64_t want[][3] = { { 3, 1, 2 }, { 1, 1, 0 },
	    { 3, 2, 1 }, { 0, 0, 0 }, { 1, 1, 0 } };
	struct minute_series s;
	struct result *r = result_new("t", "t");
	const struct rtable *t;
	char **mark;

	series10(&s);
	traffic_annotate_table(r, &s, a, 5);
	t = &r->table[0];
	is_str(t->key, "annotations", "table key");
	is_i64((int64_t)t->nrow, 5, "a row per window");
	for (size_t i = 0; i < 5 && i < t->nrow; i++) {
		is_i64(result_cell(t, i, 0)->v.i, a[i].from, "%s: from", a[i].label);
		is_i64(result_cell(t, i, 1)->v.i, a[i].to, "%s: to", a[i].label);
		is_str(text_cell(t, i, 2), a[i].label, "%s: label", a[i].label);
		ok(uint_cell(t, i, 3) == want[i][0] &&
		    uint_cell(t, i, 4) == want[i][1] &&
		    uint_cell(t, i, 5) == want[i][2],
		    "%s: %llu minutes, %llu complete, %llu missing", a[i].label,
		    (unsigned long long)want[i][0],
		    (unsigned long long)want[i][1],
		    (unsigned long long)want[i][2]);
	}
	/* Buckets of 5 minutes: [0, 5) and [5, 10). */
	mark = traffic_annotate_mark(&s, 300, 2, a, 5);
	is_str(mark[0] ? mark[0] : "(none)", "m2-4; one second",
	    "first bucket: its windows in file order");
	is_str(mark[1] ? mark[1] : "(none)", "to the end; edge",
	    "second bucket");
	traffic_annotate_marks_free(mark, 2);
	/* Hours: one bucket, labelled by 00:00, holding the ten minutes. */
	mark = traffic_annotate_mark(&s, 3600, 1, a + 3, 1);
	ok(mark[0] == NULL, "a window before the series marks nothing");
	traffic_annotate_marks_free(mark, 1);
	result_free(r);
	query_minutes_free(&s);
}

static void
defaults(void)
{
	struct opts o;
	static const int64_t edges[] = { 60, 600, 3600, 7200, 14400, 28800,
	    86400 };

	opts_init(&o);
	is_i64(o.every, 3600, "default every");
	ok(o.threshold_pct.n == 5 && o.threshold_pct.k == 0,
	    "default threshold 5%%");
	ok(o.peak.n == 0 && o.strict == 0 && o.nann == 0,
	    "no peak, not strict");
	is_i64((int64_t)o.nidle_edges, 7, "seven idle classes");
	ok(memcmp(o.idle_edges, edges, sizeof edges) == 0, "idle edges");
	is_i64((int64_t)o.nburst_c, 3, "three burst thresholds");
	ok(o.burst_c[0] == 0 && o.burst_c[1] == 131072 &&
	    o.burst_c[2] == 1048576, "burst thresholds 0, 128K, 1M");
	is_i64(o.dir_depth, 1, "dir depth 1");
}

int
main(void)
{
	struct annotation *a;
	size_t n;
	char err[256];
	int fd;

	snprintf(path, sizeof path, "/tmp/test_annotate.XXXXXX");
	fd = mkstemp(path);
	close(fd);
	good();
	bad("2010-03-01 2010-03-02 ok\n2010-03-02 2010-03-01 back\n",
	    "2: TO is not after FROM", "reversed window");
	bad("2010-03-01 2010-03-01 empty\n", "1: TO is not after FROM",
	    "empty window");
	bad("# c\n2010-03-01 2010-03-02\n", "2: missing label", "no label");
	bad("2010-03-01\n", "1: bad TO time", "no TO");
	bad("yesterday 2010-03-02 x\n", "1: bad FROM time", "bad FROM");
	bad("2010-03-01 2010-13-02 x\n", "1: bad TO time", "bad month");
	unlink(path);
	ok(cli_annotate_load(path, &a, &n, err, sizeof err) == -1 &&
	    strstr(err, "No such file") != NULL, "missing file: %s", err);
	placed();
	defaults();
	return tap_end();
}
