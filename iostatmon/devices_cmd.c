/*
 * devices_cmd: `iostatmon devices`, every device of /proc/diskstats with
 * the decision of devices.c and its reason, one line each under a header,
 * then, after a blank line, each stack's level (devices_level.c):
 *
 *	device  maj:min  decision   reason
 *	sda     8:0      excluded   holds / via sda2
 *	...
 *
 *	stacks: the level sampled, and what an aggregate then counts
 *	  md0 (raid1 over sdb, sdc): disks sampled (sdb, sdc); an ...
 *
 * libblkid probing (fstype, uuid, label in --format json) only runs on the
 * real /proc and /sys: with --proc or --sys the names describe a tree that
 * is not this machine's /dev.
 */
#include "cmd.h"
#include "fmt.h"

#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devices.h"
#include "diskstats.h"
#include "dsread.h"
#include "suggest.h"

#define MAX_GLOBS 64

static void
usage(FILE *f)
{
	fprintf(f,
	    "usage: iostatmon devices [--proc DIR] [--sys DIR] [--include GLOB]...\n"
	    "                         [--exclude GLOB]... [--all-devices]\n"
	    "                         [--format table|csv|json]\n");
}

/* The reason without its "monitored: "/"excluded: " prefix. */
static const char *
why(const struct dev_info *d)
{
	const char *s;

	if (!d->reason)
		return "";
	s = strchr(d->reason, ':');

	return s && s[1] == ' ' ? s + 2 : d->reason;
}

static const char *
decision(const struct dev_info *d)
{
	return d->monitored ? "monitored" : "excluded";
}

/* One cell of the table, as a terminal shows it, left-aligned in w
 * columns (then two spaces), or last on its line. */
static void
cell(const char *s, size_t w, int last)
{
	char *t = fmt_term_str(s);

	fputs(t, stdout);
	if (last)
		putchar('\n');
	else
		printf("%*s", (int)(w - fmt_term_width(t) + 2), "");
	free(t);
}

/* The widest of the names as a terminal shows them, and of head. */
static size_t
name_width(const struct dev_set *s, const char *head)
{
	size_t w = strlen(head);

	for (size_t k = 0; k < s->n; k++) {
		char *t = fmt_term_str(s->d[k].name);
		size_t tw = fmt_term_width(t);

		w = tw > w ? tw : w;
		free(t);
	}
	return w;
}

static void
print_table(const struct dev_set *s)
{
	size_t wname = name_width(s, "device"), wnum = strlen("maj:min");
	char num[32];
	size_t k;

	for (k = 0; k < s->n; k++) {
		size_t len = (size_t)snprintf(num, sizeof num, "%u:%u",
		    s->d[k].major, s->d[k].minor);

		wnum = len > wnum ? len : wnum;
	}
	printf("%-*s  %-*s  %-9s  %s\n", (int)wname, "device", (int)wnum,
	    "maj:min", "decision", "reason");
	for (k = 0; k < s->n; k++) {
		snprintf(num, sizeof num, "%u:%u", s->d[k].major, s->d[k].minor);
		cell(s->d[k].name, wname, 0);
		printf("%-*s  %-9s  ", (int)wnum, num, decision(&s->d[k]));
		cell(why(&s->d[k]), 0, 1);
	}
	for (k = 0; k < s->n; k++)
		if (s->d[k].level)
			break;
	if (k < s->n)
		printf("\nstacks: the level sampled, and what an aggregate "
		    "then counts\n");
	for (; k < s->n; k++)
		if (s->d[k].level) {
			fputs("  ", stdout);
			cell(s->d[k].level, 0, 1);
		}
}

/* term: stdout is a terminal (fmt_is_term), every text escaped for it. */
static void
print_csv(const struct dev_set *s, int term)
{
	size_t k;

	printf("name,major,minor,diskseq,decision,reason,whole,level\n");
	for (k = 0; k < s->n; k++) {
		const struct dev_info *d = &s->d[k];

		fmt_csv_cell(stdout, d->name, term);
		printf(",%u,%u,%" PRIu64 ",%s,", d->major, d->minor, d->diskseq,
		    decision(d));
		fmt_csv_cell(stdout, why(d), term);
		putchar(',');
		fmt_csv_cell(stdout, d->is_partition ? d->whole : "", term);
		putchar(',');
		fmt_csv_cell(stdout, d->level ? d->level : "", term);
		putchar('\n');
	}
}

/* A JSON string, or null for NULL. */
static void
json_or_null(const char *v, int term)
{
	if (v)
		fmt_json_cell(stdout, v, term);
	else
		fputs("null", stdout);
}

static void
print_json(const struct dev_set *s, int term)
{
	size_t k, a;

	printf("[");
	for (k = 0; k < s->n; k++) {
		const struct dev_info *d = &s->d[k];

		printf("%s\n {\"name\": ", k ? "," : "");
		fmt_json_cell(stdout, d->name, term);
		printf(", \"major\": %u, \"minor\": %u, \"diskseq\": %" PRIu64
		    ", \"monitored\": %s, \"reason\": ", d->major, d->minor,
		    d->diskseq, d->monitored ? "true" : "false");
		fmt_json_cell(stdout, why(d), term);
		printf(", \"whole\": ");
		json_or_null(d->is_partition ? d->whole : NULL, term);
		printf(", \"level\": ");
		json_or_null(d->level, term);
		printf(", \"attributes\": {");
		for (a = 0; a < d->nattr; a++) {
			printf("%s", a ? ", " : "");
			fmt_json_cell(stdout, d->attr[a].key, term);
			printf(": ");
			fmt_json_cell(stdout, d->attr[a].value, term);
		}
		printf("}}");
	}
	printf("\n]\n");
}

int
devices_cmd(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "proc", required_argument, NULL, 'P' },
		{ "sys", required_argument, NULL, 'S' },
		{ "include", required_argument, NULL, 'I' },
		{ "exclude", required_argument, NULL, 'X' },
		{ "all-devices", no_argument, NULL, 'A' },
		{ "format", required_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *include[MAX_GLOBS], *exclude[MAX_GLOBS];
	struct dev_opts o = { .proc = "/proc", .sys = "/sys",
	    .include = include, .exclude = exclude };
	enum fmt_kind fmt = FMT_TABLE;
	struct ds_table t = { 0 };
	struct dsread ds;
	struct dev_set s;
	char err[PATH_MAX + 128];
	int c;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case 'P': o.proc = optarg; break;
		case 'S': o.sys = optarg; break;
		case 'A': o.all_devices = 1; break;
		case 'I': case 'X':
			if ((c == 'I' ? o.ninclude : o.nexclude) == MAX_GLOBS) {
				fmt_diag(stderr, "iostatmon devices", "more "
				    "than %d --%s globs", MAX_GLOBS,
				    c == 'I' ? "include" : "exclude");
				return 2;
			}
			if (c == 'I')
				include[o.ninclude++] = optarg;
			else
				exclude[o.nexclude++] = optarg;
			break;
		case 'F':
			if (fmt_parse_kind(optarg, &fmt) < 0) {
				fmt_diag(stderr, "iostatmon devices",
				    "--format %s: want table, csv or json",
				    optarg);
				return 2;
			}
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			suggest_getopt("iostatmon devices", c, argv[optind - 1],
			    optopt, longopts);
			return 2;
		}
	}
	if (optind < argc) {
		fmt_diag(stderr, "iostatmon devices", "unexpected argument %s",
		    argv[optind]);
		usage(stderr);
		return 2;
	}
	o.probe_blkid = strcmp(o.proc, "/proc") == 0 &&
	    strcmp(o.sys, "/sys") == 0;
	if (dsread_open(&ds, o.proc, err, sizeof err) < 0 ||
	    dsread_table(&ds, &t, err, sizeof err) < 0) {
		fmt_diag(stderr, "iostatmon devices", "%s", err);
		dsread_close(&ds);
		diskstats_table_free(&t);
		return 3;
	}
	if (t.bad)
		fmt_diag(stderr, "iostatmon devices", "%s: %zu lines are not "
		    "diskstats lines, skipped", ds.path, t.bad);
	dsread_close(&ds);
	if (devices_decide(&o, &t, &s, err, sizeof err) < 0) {
		fmt_diag(stderr, "iostatmon devices", "%s", err);
		diskstats_table_free(&t);
		return 3;
	}
	if (fmt == FMT_TABLE)
		print_table(&s);
	else if (fmt == FMT_CSV)
		print_csv(&s, fmt_is_term(stdout));
	else
		print_json(&s, fmt_is_term(stdout));
	devices_set_free(&s);
	diskstats_table_free(&t);
	return fflush(stdout) == 0 ? 0 : 3;
}
