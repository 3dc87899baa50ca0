/*
 * suggest: the word a typo was meant to be, and what getopt_long refused,
 * in one grammar for every program (suggest.h).
 */
#include <stdio.h>
#include <string.h>

#include "fmt.h"
#include "suggest.h"

#define MAX_WORD 64
#define MAX_OPTS 128	/* the longest option table of the programs, with room */

/* Edits from a to b: insertions, deletions, substitutions and swaps of
 * two neighbours (the optimal string alignment distance). */
static size_t
distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t d[MAX_WORD + 1][MAX_WORD + 1];

	if (la > MAX_WORD || lb > MAX_WORD)
		return (size_t)-1;
	for (size_t i = 0; i <= la; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			size_t v = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);

			if (d[i - 1][j] + 1 < v)
				v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	return d[la][lb];
}

const char *
suggest_word(const char *word, const char *const *cand, size_t n)
{
	size_t len = strlen(word), best = (size_t)-1, nbest = 0, nprefix = 0;
	size_t limit = len >= 5 ? 2 : 1;
	const char *pick = NULL, *prefix = NULL;

	for (size_t i = 0; i < n; i++) {
		size_t d = distance(word, cand[i]);

		if (len >= 2 && !strncmp(cand[i], word, len)) {
			prefix = cand[i];
			nprefix++;
		}
		if (d < best) {
			best = d;
			pick = cand[i];
			nbest = 1;
		} else if (d == best)
			nbest++;
	}
	if (nprefix == 1)
		return prefix;
	return best <= limit && nbest == 1 ? pick : NULL;
}

/* The names of a getopt_long table, at most max of them. */
static size_t
names_of(const struct option *opts, const char **names, size_t max)
{
	size_t n = 0;

	for (; opts->name && n < max; opts++)
		names[n++] = opts->name;
	return n;
}

void
suggest_option(char *buf, size_t len, const char *arg,
    const struct option *all, const struct option *cand)
{
	const char *names[MAX_OPTS], *meant;
	const char *w = arg + 2 * (strncmp(arg, "--", 2) == 0);
	size_t wlen = strcspn(w, "="), n, off;
	char word[MAX_WORD + 1];
	int nprefix = 0;

	/* getopt_long takes an unambiguous prefix: several are ambiguous */
	for (const struct option *o = all; o->name && wlen > 0; o++)
		nprefix += strncmp(o->name, w, wlen) == 0;
	if (nprefix > 1) {
		off = (size_t)snprintf(buf, len, "ambiguous option '--%.*s' (",
		    (int)wlen, w);
		for (const struct option *o = all; o->name && off < len; o++)
			if (strncmp(o->name, w, wlen) == 0)
				off += (size_t)snprintf(buf + off, len - off,
				    "%s--%s", buf[off - 1] == '(' ? "" : ", ",
				    o->name);
		if (off < len)
			snprintf(buf + off, len - off, ")");
		return;
	}
	meant = NULL;
	if (wlen <= MAX_WORD) {
		memcpy(word, w, wlen);
		word[wlen] = '\0';
		n = names_of(cand ? cand : all, names, MAX_OPTS);
		meant = suggest_word(word, names, n);
	}
	snprintf(buf, len, "unknown option '--%.*s'%s%s%s", (int)wlen, w,
	    meant ? "; did you mean '--" : "", meant ? meant : "",
	    meant ? "'?" : "");
}

/* The long option whose getopt_long value is val, or NULL. */
static const struct option *
option_of(const struct option *opts, int val)
{
	for (; opts->name; opts++)
		if (opts->flag == NULL && opts->val == val)
			return opts;
	return NULL;
}

void
suggest_getopt(const char *prog, int c, const char *arg, int opt,
    const struct option *opts)
{
	const struct option *o = opt ? option_of(opts, opt) : NULL;
	size_t wlen = strcspn(arg + 2 * (arg[0] == '-' && arg[1] == '-'),
	    "=");
	/* The word read is this long option's, or an unknown one's (optopt
	 * 0); else it is a word before a cluster of short options ("-xv"
	 * leaves optind on it) */
	int is_long = strncmp(arg, "--", 2) == 0 && (opt == 0 ||
	    (o && strncmp(o->name, arg + 2, wlen) == 0));
	char msg[512];

	if (c == ':' && is_long && o)
		snprintf(msg, sizeof msg, "--%s needs a value", o->name);
	else if (c == ':' && is_long)
		snprintf(msg, sizeof msg, "--%.*s needs a value",
		    (int)strcspn(arg + 2, "="), arg + 2);
	else if (c == ':')
		snprintf(msg, sizeof msg, "-%c needs a value", opt);
	else if (is_long && o)
		/* a value given to a flag: "--verbose=1" */
		snprintf(msg, sizeof msg, "--%s takes no value", o->name);
	else if (is_long)
		suggest_option(msg, sizeof msg, arg, opts, NULL);
	else
		snprintf(msg, sizeof msg, "unknown option '-%c'", opt);
	fmt_diag(stderr, prog, "%s", msg);
	fmt_diag(stderr, prog, "`%s --help` lists the options", prog);
}
