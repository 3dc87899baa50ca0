/* test_suggest: lib/suggest.c, the "did you mean" of every program:
 * which word a typo is taken for (and when none), and getopt_long's
 * refusals in words, against texts written out here. */
#include <getopt.h>
#include <stddef.h>

#include "suggest.h"
#include "tap.h"

static void
words(void)
{
	static const char *const cmd[] = { "snapshots", "diff", "growth",
	    "idle", "cdf", "metrics", "throughput", "devices", "dump",
	    "import", "forget", "prune" };
	static const struct {
		const char *typo, *want;
	} w[] = {
		{ "snapshot", "snapshots" },	/* a letter short */
		{ "idel", "idle" },		/* two swapped */
		{ "cfd", "cdf" },
		{ "growht", "growth" },
		{ "thr", "throughput" },	/* the only word it starts */
		{ "froget", "forget" },
		{ "prnue", "prune" },
		{ "devcies", "devices" },
		{ "d", NULL },			/* one letter: no guess */
		{ "du", "dump" },		/* two: the one it starts */
		{ "xyzzy", NULL },		/* far from all */
		{ "dif", "diff" },
		{ "im", "import" },
	};

	for (size_t i = 0; i < sizeof w / sizeof w[0]; i++) {
		const char *got = suggest_word(w[i].typo, cmd,
		    sizeof cmd / sizeof cmd[0]);

		if (w[i].want)
			is_str(got ? got : "(none)", w[i].want, "%s: %s",
			    w[i].typo, w[i].want);
		else
			ok(got == NULL, "%s: no guess (got %s)", w[i].typo,
			    got ? got : "none");
	}
	{
		static const char *const two[] = { "abcd", "abce" };

		ok(suggest_word("abcx", two, 2) == NULL,
		    "two words as near: no guess");
	}
}

static void
options(void)
{
	static const struct option all[] = {
		{ "project", required_argument, NULL, 1 },
		{ "progress", no_argument, NULL, 2 },
		{ "quiet", no_argument, NULL, 3 },
		{ "threads", required_argument, NULL, 'j' },
		{ "threshold", required_argument, NULL, 4 },
		{ NULL, 0, NULL, 0 },
	};
	static const struct option mine[] = {
		{ "project", required_argument, NULL, 1 },
		{ "quiet", no_argument, NULL, 3 },
		{ NULL, 0, NULL, 0 },
	};
	static const struct {
		const char *arg;
		const struct option *cand;
		const char *want;
	} o[] = {
		{ "--projekt", NULL, "unknown option '--projekt'; did you "
		  "mean '--project'?" },
		{ "--projekt=x", NULL, "unknown option '--projekt'; did you "
		  "mean '--project'?" },
		{ "--pro", NULL, "ambiguous option '--pro' (--project, "
		  "--progress)" },
		{ "--th=3", NULL, "ambiguous option '--th' (--threads, "
		  "--threshold)" },
		{ "--bogus", NULL, "unknown option '--bogus'" },
		{ "--treshold", NULL, "unknown option '--treshold'; did you "
		  "mean '--threshold'?" },
		/* suggested only from the options the command takes */
		{ "--treshold", mine, "unknown option '--treshold'" },
		{ "--quite", mine, "unknown option '--quite'; did you mean "
		  "'--quiet'?" },
	};
	char buf[256];

	for (size_t i = 0; i < sizeof o / sizeof o[0]; i++) {
		suggest_option(buf, sizeof buf, o[i].arg, all, o[i].cand);
		is_str(buf, o[i].want, "%s%s", o[i].arg,
		    o[i].cand ? " (of a command's options)" : "");
	}
}

int
main(void)
{
	words();
	options();
	return tap_end();
}
