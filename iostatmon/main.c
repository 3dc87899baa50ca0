/*
 * iostatmon: block-device sampling daemon. See docs/iostatmon.8.
 *
 *	iostatmon [OPTIONS]		sample into daily logs (the daemon)
 *	iostatmon devices [OPTIONS]	every device, its decision and why
 *	iostatmon dump [OPTIONS] LOG...	samples as CSV or iostat -x columns
 *	iostatmon import [OPTIONS] RAW	a raw capture into a log
 *
 * Exit status: 0 stopped normally; 1 stopped, but some samples could not
 * be written; 2 usage error; 3 fatal error.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "argval.h"
#include "cmd.h"
#include "conf.h"
#include "daemon.h"
#include "fmt.h"
#include "interval.h"
#include "logfiles.h"
#include "suggest.h"

#ifndef IOCENSUS_VERSION
#define IOCENSUS_VERSION "0.1.0"
#endif

#define MAX_GLOBS 64
#define BACKLOG_MAX (1ULL << 32)
#define DEFAULT_LOG_DIR CONF_LOGS_DEFAULT

static void
usage(FILE *f)
{
	fprintf(f,
"usage: iostatmon [OPTIONS]             sample block devices into daily logs\n"
"       iostatmon devices [OPTIONS]     list devices, decisions and reasons\n"
"       iostatmon dump [OPTIONS] LOG... print samples (CSV or iostat -x)\n"
"       iostatmon import [OPTIONS] RAW  convert a raw capture into a log\n"
"\n"
"  -i, --interval SEC    sample every SEC seconds, aligned to wall-clock\n"
"                        multiples (default 60; 0.1 to 86400, whole ms)\n"
"  -c, --count N         stop after N samples, N >= 1 (default: run until\n"
"                        signalled)\n"
"  -o, --log-dir DIR     daily logs go here (default: logs of " CONF_PATH ",\n"
"                        else " DEFAULT_LOG_DIR ")\n"
"      --host NAME       host name in the logs (default: gethostname)\n"
"      --retain DAYS     delete this host's logs older than DAYS days\n"
"                        (default 31; 0 keeps everything; at most 100000)\n"
"      --proc DIR        read DIR/diskstats, DIR/self/mountinfo, DIR/swaps\n"
"                        (default /proc)\n"
"      --sys DIR         sysfs root (default /sys)\n"
"      --include GLOB    always sample devices whose name matches (repeatable)\n"
"      --exclude GLOB    never sample devices whose name matches (repeatable)\n"
"      --all-devices     no local-disk filtering\n"
"      --no-probe        do not probe /dev with libblkid for fs type, UUID,\n"
"                        label (default: probe, unless --sys is given)\n"
"      --pidfile FILE    write the pid to FILE (atomically), remove it at exit\n"
"      --backlog BYTES   samples kept in memory while the log cannot be\n"
"                        written (default 1M; suffixes K, M)\n"
"  -v, --verbose         a line on stderr for every sample written\n"
"  -h, --help            this help\n"
"  -V, --version         version\n"
"\n"
"Exit status: 0 stopped normally; 1 stopped, but samples were lost;\n"
"2 usage error; 3 fatal error.\n");
}

enum {
	OPT_HOST = 256, OPT_RETAIN, OPT_PROC, OPT_SYS, OPT_INCLUDE,
	OPT_EXCLUDE, OPT_ALL, OPT_NO_PROBE, OPT_PIDFILE, OPT_BACKLOG
};

static const struct option longopts[] = {
	{ "interval", required_argument, NULL, 'i' },
	{ "count", required_argument, NULL, 'c' },
	{ "log-dir", required_argument, NULL, 'o' },
	{ "host", required_argument, NULL, OPT_HOST },
	{ "retain", required_argument, NULL, OPT_RETAIN },
	{ "proc", required_argument, NULL, OPT_PROC },
	{ "sys", required_argument, NULL, OPT_SYS },
	{ "include", required_argument, NULL, OPT_INCLUDE },
	{ "exclude", required_argument, NULL, OPT_EXCLUDE },
	{ "all-devices", no_argument, NULL, OPT_ALL },
	{ "no-probe", no_argument, NULL, OPT_NO_PROBE },
	{ "pidfile", required_argument, NULL, OPT_PIDFILE },
	{ "backlog", required_argument, NULL, OPT_BACKLOG },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

static int
bad(const char *opt, const char *arg, const char *why)
{
	fmt_diag(stderr, "iostatmon", "%s %s: %s", opt, arg, why);
	return -1;
}

/* A whole number of opt from min to max (argval.h: digits only). */
static int
parse_u64(const char *opt, const char *arg, uint64_t min, uint64_t max,
    uint64_t *v)
{
	char why[80];

	if (argval_u64(arg, max, v) == 0 && *v >= min)
		return 0;
	snprintf(why, sizeof why, "want a whole number from %llu to %llu",
	    (unsigned long long)min, (unsigned long long)max);
	return bad(opt, arg, why);
}

/* BYTES[K|M], at most 4 GiB: the suffix is checked before it scales, so
 * no value wraps. */
static int
parse_bytes(const char *arg, size_t *v)
{
	uint64_t x;
	const char *end = argval_digits(arg, &x);
	int shift = 0;

	if (end && (*end == 'K' || *end == 'k'))
		shift = 10, end++;
	else if (end && (*end == 'M' || *end == 'm'))
		shift = 20, end++;
	if (!end || *end != '\0' || x > (BACKLOG_MAX >> shift))
		return bad("--backlog", arg, "want BYTES[K|M], at most 4G");
	*v = (size_t)(x << shift);
	return 0;
}

static const struct {
	const char *name, *prog;
	int (*run)(int, char **);
} cmds[] = {
	{ "devices", "iostatmon devices", devices_cmd },
	{ "dump", "iostatmon dump", dump_cmd },
	{ "import", "iostatmon import", import_cmd },
};
#define NCMDS (sizeof cmds / sizeof cmds[0])

struct args {
	struct daemon_opts d;
	const char *include[MAX_GLOBS], *exclude[MAX_GLOBS];
	int no_probe;
	char host[256];
};

static int
add_glob(const char **list, size_t *n, const char *opt, const char *arg)
{
	if (*n >= MAX_GLOBS)
		return bad(opt, arg, "too many globs");
	list[(*n)++] = arg;
	return 0;
}

/* One option; 0, 1 (exit 0: help/version) or -1 (usage error). */
static int
take_option(struct args *a, int c, const char *arg)
{
	uint64_t v;

	switch (c) {
	case 'i':
		return interval_parse("iostatmon", arg, 100,
		    &a->d.interval_ns);
	case 'c':
		/* 0 is "never" inside: not a count */
		return parse_u64("--count", arg, 1, UINT64_MAX, &a->d.count);
	case 'o': a->d.log_dir = arg; return 0;
	case OPT_HOST:
		if (arg[0] == '\0' || strlen(arg) > LOGFILE_HOST_MAX)
			return bad("--host", arg, "want a name of 1 to 227"
			    " bytes (it is part of the log files' names)");
		a->d.host = arg;
		return 0;
	case OPT_RETAIN:
		if (parse_u64("--retain", arg, 0, 100000, &v) < 0)
			return -1;
		a->d.retain_days = (int)v;
		return 0;
	case OPT_PROC: a->d.dev.proc = arg; return 0;
	case OPT_SYS: a->d.dev.sys = arg; return 0;
	case OPT_INCLUDE:
		return add_glob(a->include, &a->d.dev.ninclude, "--include", arg);
	case OPT_EXCLUDE:
		return add_glob(a->exclude, &a->d.dev.nexclude, "--exclude", arg);
	case OPT_ALL: a->d.dev.all_devices = 1; return 0;
	case OPT_NO_PROBE: a->no_probe = 1; return 0;
	case OPT_PIDFILE: a->d.pidfile = arg; return 0;
	case OPT_BACKLOG: return parse_bytes(arg, &a->d.backlog_max);
	case 'v': a->d.verbose = 1; return 0;
	case 'h': usage(stdout); return 1;
	case 'V': printf("iostatmon %s\n", IOCENSUS_VERSION); return 1;
	default: usage(stderr); return -1;
	}
}

/* The daemon takes no argument: a word is a command mistyped, or
 * misplaced. */
static void
unexpected(const char *word)
{
	const char *names[NCMDS], *meant;

	for (size_t i = 0; i < NCMDS; i++)
		names[i] = cmds[i].name;
	meant = suggest_word(word, names, NCMDS);
	if (meant)
		fmt_diag(stderr, "iostatmon", "unknown command '%s'; did you "
		    "mean '%s'?", word, meant);
	else
		fmt_diag(stderr, "iostatmon", "unexpected argument '%s' "
		    "(commands: devices, dump, import)", word);
}

static int
parse_args(struct args *a, int argc, char **argv)
{
	int c, r;

	memset(a, 0, sizeof *a);
	a->d.interval_ns = 60ULL * 1000000000;
	a->d.retain_days = 31;
	a->d.backlog_max = 1 << 20;
	a->d.dev.proc = "/proc";
	a->d.dev.sys = "/sys";
	a->d.dev.include = a->include;
	a->d.dev.exclude = a->exclude;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":i:c:o:vhV", longopts, NULL)) !=
	    -1) {
		if (c == '?' || c == ':') {
			suggest_getopt("iostatmon", c, argv[optind - 1], optopt,
			    longopts);
			return -1;
		}
		if ((r = take_option(a, c, optarg)) != 0)
			return r;
	}
	if (optind < argc) {
		unexpected(argv[optind]);
		return -1;
	}
	/* --log-dir, else the configuration's logs, which iocensus ingest
	 * reads too. */
	if (conf_init("iostatmon") < 0)
		return -1;
	a->d.log_dir = conf_pick(a->d.log_dir, NULL,
	    &conf_get()->top[CONF_LOGS], DEFAULT_LOG_DIR, NULL);
	if (a->d.host == NULL) {
		if (gethostname(a->host, sizeof a->host - 1) < 0) {
			fmt_diag(stderr, "iostatmon", "gethostname: %s; use "
			    "--host", strerror(errno));
			return -1;
		}
		a->d.host = a->host;
	}
	a->d.dev.probe_blkid = !a->no_probe && strcmp(a->d.dev.sys, "/sys") == 0;
	return 0;
}

int
main(int argc, char **argv)
{
	struct args a;
	int r;

	/* getopt names argv[0] in its messages: the program, not its path */
	for (size_t i = 0; argc > 1 && i < NCMDS; i++)
		if (strcmp(argv[1], cmds[i].name) == 0) {
			argv[1] = (char *)cmds[i].prog;
			return cmds[i].run(argc - 1, argv + 1);
		}
	if (argc > 0)
		argv[0] = (char *)"iostatmon";
	r = parse_args(&a, argc, argv);
	if (r != 0)
		return r > 0 ? 0 : EXIT_USAGE;
	return daemon_run(&a.d);
}
