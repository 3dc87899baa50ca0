/* test_args: fsscan/scan/args.c, fsscan's command line: the values of
 * --threads, --max-rate, --top, --dirs, --lock-wait and --cold at their
 * limits (2^63 - 1, 2^64, 0, one past each bound), what is refused (a
 * sign, a blank, trailing text, an empty value, --cold out of order), and
 * args_command_line's one string, against values written out here. The
 * configuration file is an empty one of the test's own. */
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scan/scan.h"
#include "scratch.h"
#include "tap.h"

/* args_parse of fsscan OPT VAL /tmp: its return, the args in *a. */
static int
parse(const char *opt, const char *val, struct args *a)
{
	char *argv[] = { "fsscan", "--db", (char *)scratch_at("x.db"),
	    (char *)opt, (char *)val, "/tmp", NULL };
	int argc = val ? 6 : 5;

	if (!val)
		argv[4] = "/tmp", argv[5] = NULL;
	memset(a, 0, sizeof *a);
	optind = 0;		/* glibc: a new scan of a new argv */
	return args_parse(argc, argv, "fsscan", a);
}

static void
values(void)
{
	static const struct {
		const char *opt, *val;
		int rc;
		int64_t want;	/* the field the option sets */
	} c[] = {
		{ "--threads", "1", 0, 1 }, { "--threads", "1024", 0, 1024 },
		{ "--threads", "0", -1, 0 }, { "--threads", "1025", -1, 0 },
		{ "--threads", "-1", -1, 0 }, { "--threads", "+2", -1, 0 },
		{ "--threads", "2x", -1, 0 }, { "--threads", " 2", -1, 0 },
		{ "--threads", "", -1, 0 },
		{ "--max-rate", "0", 0, 0 },
		{ "--max-rate", "9223372036854775807", 0, INT64_MAX },
		{ "--max-rate", "9223372036854775808", -1, 0 },
		{ "--max-rate", "18446744073709551616", -1, 0 },
		{ "--max-rate", "1e3", -1, 0 }, { "--max-rate", "1k", -1, 0 },
		{ "--top", "0", 0, 0 }, { "--top", "100000", 0, 100000 },
		{ "--top", "100001", -1, 0 },
		{ "--dirs", "0", 0, 0 }, { "--dirs", "all", 0, -1 },
		{ "--dirs", "2147483647", 0, 2147483647 },
		{ "--dirs", "2147483648", -1, 0 }, { "--dirs", "All", -1, 0 },
		{ "--lock-wait", "0", 0, 0 },
		{ "--lock-wait", "2592000", 0, 2592000 },
		{ "--lock-wait", "2592001", -1, 0 },
		{ "--max-fds", "1", 0, 1 }, { "--max-fds", "1048576", 0, 1048576 },
		{ "--max-fds", "1048577", -1, 0 },
	};
	struct args a;

	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
		int rc = parse(c[i].opt, c[i].val, &a);
		int64_t got = 0;

		if (!ok(rc == c[i].rc, "%s \"%s\": %s", c[i].opt, c[i].val,
		    c[i].rc == 0 ? "taken" : "refused") || rc != 0)
			continue;
		if (strcmp(c[i].opt, "--threads") == 0)
			got = a.threads;
		else if (strcmp(c[i].opt, "--max-rate") == 0)
			got = (int64_t)a.max_rate;
		else if (strcmp(c[i].opt, "--top") == 0)
			got = a.topn;
		else if (strcmp(c[i].opt, "--dirs") == 0)
			got = a.dirs;
		else if (strcmp(c[i].opt, "--lock-wait") == 0)
			got = a.lock_wait;
		else
			got = a.max_fds;
		is_i64(got, c[i].want, "%s \"%s\": the value", c[i].opt,
		    c[i].val);
	}
}

static void
cold(void)
{
	static const struct {
		const char *val;
		int n;			/* thresholds; -1: refused */
		uint32_t d[8];
	} c[] = {
		{ "30", 1, { 30 } },
		{ "1,2,3,4,5,6,7,8", 8, { 1, 2, 3, 4, 5, 6, 7, 8 } },
		{ "1,2,3,4,5,6,7,8,9", -1, { 0 } },	/* 9: one too many */
		{ "3652425", 1, { 3652425 } },
		{ "3652426", -1, { 0 } }, { "0", -1, { 0 } },
		{ "90,30", -1, { 0 } }, { "30,30", -1, { 0 } },
		{ "30,", -1, { 0 } }, { ",30", -1, { 0 } },
		{ "30,,90", -1, { 0 } }, { "30 ,90", -1, { 0 } },
		{ "30;90", -1, { 0 } }, { "-30", -1, { 0 } },
		{ "18446744073709551646", -1, { 0 } },
	};
	struct args a;

	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
		int rc = parse("--cold", c[i].val, &a), same = 1;

		if (!ok((rc == 0) == (c[i].n >= 0), "--cold \"%s\": %s",
		    c[i].val, c[i].n >= 0 ? "taken" : "refused") || rc != 0)
			continue;
		for (int k = 0; k < c[i].n; k++)
			same &= a.cold[k] == c[i].d[k];
		ok(a.ncold == c[i].n && same, "--cold \"%s\": %d days, as"
		    " written", c[i].val, c[i].n);
	}
	ok(parse("--quiet", NULL, &a) == 0 && a.ncold == 4 && a.cold[0] == 30 &&
	    a.cold[3] == 365, "no --cold: 30,90,180,365");
}

static void
command_line(void)
{
	char *argv[] = { "fsscan", "--fs", "a b", "/data", NULL };
	char *s = args_command_line(4, argv);

	ok(s != NULL && strstr(s, "fsscan") == s && strstr(s, "/data"),
	    "args_command_line: the program first, the root in it: %s",
	    s ? s : "(null)");
	free(s);
}

int
main(void)
{
	scratch_make("test_args");
	scratch_put("empty.conf", "");
	setenv("IOCENSUS_CONF", scratch_at("empty.conf"), 1);
	values();
	cold();
	command_line();
	scratch_remove();
	return tap_end();
}
