/*
 * dump: `iostatmon dump [--iostat] [--format table|csv|json] LOG...`.
 *
 * Prints one row per device per interval, for intervals the log knows
 * (state OK entries of S frames): never a row across a reset, a device's
 * absence or a member boundary, never a zero-filled row.
 *
 *   t        the sample's CLOCK_REALTIME, unix seconds;
 *   seconds  the interval, from CLOCK_MONOTONIC.
 * Both print exactly: the nanosecond value as a decimal with trailing zeros
 * (and a bare point) removed, so "1700000060" or "60.000123456".
 *
 * Plain mode prints the counter deltas (in_flight: its value at t) under the
 * stable header; a field the kernel lacks is empty (null in JSON). --iostat
 * prints iostat -x columns (iostat_calc.c) with two decimals, as iostat does.
 * Default format: csv, or table with --iostat.
 *
 * Exit status: 0 every log read completely (today's log, which ends after
 * a whole record without its gzip trailer, is complete: a note says so);
 * 1 something could not be read (missing file, damage, a log cut inside a
 * record: reported on stderr with file, offset and reason; everything
 * readable is still printed); 2 usage error; 3 writing the output failed.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd.h"
#include "fmt.h"
#include "iolog/iolog.h"
#include "iostat_calc.h"
#include "suggest.h"

#define PROG "iostatmon dump"

#define EXIT_DAMAGE 1
#define EXIT_USAGE  2
#define EXIT_OUTPUT 3

/* One interval of one device, as the renderers see it. */
struct row {
	const char *host, *device;
	uint64_t t_ns, interval_ns;
	uint32_t fields;		/* what the kernel provides */
	uint64_t d[DS_FIELDS];		/* deltas; 0 where not stored */
};

struct out {
	enum fmt_kind fmt;
	int iostat;
	int term;			/* names escaped for a terminal: the
					 * table format, or stdout is one */
	size_t rows;
	uint64_t block_t;		/* iostat table: sample being printed */
	char block_host[256];
};

static const char *const stable_header =
    "host,device,t,seconds,rd_ios,rd_merges,rd_sectors,rd_ms,wr_ios,"
    "wr_merges,wr_sectors,wr_ms,in_flight,io_ms,weighted_ms,dc_ios,"
    "dc_merges,dc_sectors,dc_ms,fl_ios,fl_ms";

/* Exact decimal of a nanosecond count: "12", "12.5", "12.000000001". */
static char *
fmt_ns(char *buf, size_t len, uint64_t ns)
{
	int n = snprintf(buf, len, "%" PRIu64 ".%09" PRIu64,
	    ns / 1000000000, ns % 1000000000);

	while (n > 0 && buf[n - 1] == '0')
		buf[--n] = '\0';
	if (n > 0 && buf[n - 1] == '.')
		buf[--n] = '\0';
	return buf;
}

static void
print_header(const struct out *o)
{
	if (o->fmt == FMT_JSON) {
		fputs("[", stdout);
		return;
	}
	if (o->fmt == FMT_TABLE && o->iostat)
		return;		/* one header per sample block */
	if (!o->iostat) {
		if (o->fmt == FMT_CSV) {
			puts(stable_header);
			return;
		}
		printf("%-10s %-12s %-20s %-14s", "host", "device", "t",
		    "seconds");
		for (int f = 0; f < DS_KNOWN; f++)
			printf(" %12s", diskstats_field_name(f));
		putchar('\n');
		return;
	}
	fputs("host,device,t,seconds", stdout);
	for (int c = 0; c < IOX_NCOLS; c++)
		printf(",%s", iostat_calc_col_title(c));
	putchar('\n');
}

static void
print_footer(const struct out *o)
{
	if (o->fmt == FMT_JSON)
		fputs(o->rows ? "\n]\n" : "]\n", stdout);
}

static void
row_counters(const struct out *o, const struct row *r)
{
	for (int f = 0; f < DS_KNOWN; f++) {
		int have = (r->fields >> f) & 1;

		if (o->fmt == FMT_CSV) {
			putchar(',');
			if (have)
				printf("%" PRIu64, r->d[f]);
		} else if (o->fmt == FMT_JSON) {
			printf(", \"%s\": ", diskstats_field_name(f));
			if (have)
				printf("%" PRIu64, r->d[f]);
			else
				fputs("null", stdout);
		} else if (have) {
			printf(" %12" PRIu64, r->d[f]);
		} else {
			printf(" %12s", "-");
		}
	}
}

static void
row_iostat(const struct out *o, const struct row *r)
{
	struct iox_row x;

	iostat_calc_compute(r->d, r->fields, r->interval_ns, &x);
	for (int c = 0; c < IOX_NCOLS; c++) {
		int have = (x.have >> c) & 1;

		if (o->fmt == FMT_CSV) {
			putchar(',');
			if (have)
				printf("%.2f", x.v[c]);
		} else if (o->fmt == FMT_JSON) {
			printf(", \"%s\": ", iostat_calc_col_json(c));
			if (have)
				printf("%.2f", x.v[c]);
			else
				fputs("null", stdout);
		} else {
			int w = strstr(iostat_calc_col_title(c), "kB") ? 9 : 8;

			if (have)
				printf(" %*.2f", w, x.v[c]);
			else
				printf(" %*s", w, "-");
		}
	}
}

/* iostat table: a block per sample, headed by host, time and interval. */
static void
iostat_block(struct out *o, const struct row *r)
{
	char tb[32], sb[32];
	struct tm tm;
	time_t t = (time_t)(r->t_ns / 1000000000);

	if (o->rows && o->block_t == r->t_ns && !strcmp(o->block_host, r->host))
		return;
	o->block_t = r->t_ns;
	snprintf(o->block_host, sizeof o->block_host, "%s", r->host);
	gmtime_r(&t, &tm);
	strftime(tb, sizeof tb, "%Y-%m-%d %H:%M:%S UTC", &tm);
	printf("%s%s  %s  interval %s s\n%-13s", o->rows ? "\n" : "", r->host,
	    tb, fmt_ns(sb, sizeof sb, r->interval_ns), "Device");
	for (int c = 0; c < IOX_NCOLS; c++)
		printf(" %*s", strstr(iostat_calc_col_title(c), "kB") ? 9 : 8,
		    iostat_calc_col_title(c));
	putchar('\n');
}

static void
print_row(struct out *o, const struct row *r)
{
	char tb[32], sb[32];

	fmt_ns(tb, sizeof tb, r->t_ns);
	fmt_ns(sb, sizeof sb, r->interval_ns);
	if (o->fmt == FMT_CSV) {
		fmt_csv_str(stdout, r->host);
		putchar(',');
		fmt_csv_str(stdout, r->device);
		printf(",%s,%s", tb, sb);
	} else if (o->fmt == FMT_JSON) {
		fputs(o->rows ? ",\n{\"host\": " : "\n{\"host\": ", stdout);
		fmt_json_str(stdout, r->host);
		fputs(", \"device\": ", stdout);
		fmt_json_str(stdout, r->device);
		printf(", \"t\": %s, \"seconds\": %s", tb, sb);
	} else if (o->iostat) {
		iostat_block(o, r);
		printf("%-13s", r->device);
	} else {
		printf("%-10s %-12s %-20s %-14s", r->host, r->device, tb, sb);
	}
	if (o->iostat)
		row_iostat(o, r);
	else
		row_counters(o, r);
	fputs(o->fmt == FMT_JSON ? "}" : "\n", stdout);
	o->rows++;
}

/* The host and device names a log holds were chosen by whoever wrote
 * it: on a terminal they are shown through fmt_term_str, whatever the
 * format; to a file or a pipe, CSV and JSON carry their exact bytes. */
static void
print_sample(struct out *o, const char *host, const struct iolog_event *ev)
{
	char *th = o->term ? fmt_term_str(host) : NULL;

	for (size_t i = 0; i < ev->ndev; i++) {
		const struct iolog_val *v = &ev->val[i];
		char *td = NULL;
		struct row r = {
			.host = th ? th : host, .device = ev->dev[i].name,
			.t_ns = ev->clock->realtime_ns,
			.interval_ns = ev->interval_ns,
			.fields = ev->dev[i].fields,
		};

		if (v->state != IOLOG_OK)
			continue;
		if (o->term)
			r.device = td = fmt_term_str(ev->dev[i].name);
		for (int f = 0; f < DS_FIELDS; f++)
			r.d[f] = (v->mask >> f) & 1 ? v->v[f] : 0;
		print_row(o, &r);
		free(td);
	}
	free(th);
}

/* Print every readable sample of one file. 0, or -1 if anything was lost. */
static int
dump_file(struct out *o, const char *path)
{
	char err[512], host[sizeof ((struct iolog_header *)0)->host] = "";
	struct iolog_reader *r = iolog_reader_open(path, err, sizeof err);
	struct iolog_event ev;
	int lost = 0;

	if (!r) {
		fmt_diag(stderr, PROG, "%s", err);
		return -1;
	}
	while (iolog_next(r, &ev) == 1) {
		switch (ev.type) {
		case IOLOG_EV_HEADER:
			snprintf(host, sizeof host, "%s", ev.header->host);
			break;
		case IOLOG_EV_SAMPLE:
			print_sample(o, host, &ev);
			break;
		case IOLOG_EV_DAMAGE:
			/* Today's log ends after a whole record, without its
			 * trailer, while the daemon writes it (or after its
			 * writer was killed between two records): nothing is
			 * lost. Say so, succeed. A log cut inside a record is
			 * damage. */
			if (ev.truncated) {
				fmt_diag(stderr, PROG, "%s: note: %s, at "
				    "compressed offset %" PRIu64, path,
				    ev.reason, ev.offset);
				break;
			}
			fmt_diag(stderr, PROG, "%s: damaged at compressed "
			    "offset %" PRIu64 ": %s", path, ev.offset,
			    ev.reason ? ev.reason : "unknown");
			lost = 1;
			break;
		default:
			break;
		}
	}
	iolog_reader_close(r);
	return lost ? -1 : 0;
}

static void
usage(FILE *f)
{
	fputs(
"usage: iostatmon dump [--iostat] [--format table|csv|json] LOG...\n"
"Print every known interval of the logs, one row per device per interval.\n"
"\n"
"  --iostat              iostat -x columns instead of counter deltas\n"
"  --format FMT          table, csv or json (default csv; table with --iostat)\n"
"  -h, --help            this help\n", f);
}

int
dump_cmd(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "iostat", no_argument, NULL, 'I' },
		{ "format", required_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct out o = { .fmt = FMT_CSV };
	int c, have_fmt = 0, status = 0;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case 'I':
			o.iostat = 1;
			break;
		case 'F':
			have_fmt = 1;
			if (fmt_parse_kind(optarg, &o.fmt) < 0) {
				fmt_diag(stderr, PROG, "--format %s: "
				    "expected table, csv or json", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			suggest_getopt("iostatmon dump", c, argv[optind - 1],
			    optopt, longopts);
			return EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		fmt_diag(stderr, "iostatmon dump", "no log file given");
		usage(stderr);
		return EXIT_USAGE;
	}
	if (o.iostat && !have_fmt)
		o.fmt = FMT_TABLE;
	o.term = o.fmt == FMT_TABLE || fmt_is_term(stdout);
	print_header(&o);
	for (int i = optind; i < argc; i++)
		if (dump_file(&o, argv[i]) < 0)
			status = EXIT_DAMAGE;
	print_footer(&o);
	if (fflush(stdout) == EOF || ferror(stdout)) {
		fmt_diag(stderr, "iostatmon dump", "writing the output: %s",
		    strerror(errno));
		return EXIT_OUTPUT;
	}
	return status;
}
