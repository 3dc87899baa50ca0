/*
 * cli_suggest: "did you mean ...?" for a mistyped command or option: the
 * one candidate a typo away (cli_int.h).
 */
#include <string.h>

#include "cli_int.h"

#define MAX_WORD 64

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
cli_suggest(const char *word, const char *const *cand, size_t n)
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
