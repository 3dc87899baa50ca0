/*
 * cli_columns: which columns a command prints (-o, --columns LIST) and
 * how wide its table format is (--wide, COLUMNS, the terminal), as
 * lsblk, findmnt and df --output choose theirs (cli_int.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "argval.h"
#include "cli.h"
#include "cli_int.h"
#include "fmt.h"
#include "suggest.h"
#include "xalloc.h"

/* The widest terminal believed: a longer COLUMNS is a mistake, and a
 * table laid out to it is a line as whole as none. */
#define MAX_COLUMNS 100000

int
cli_columns_parse(struct cli *a, const char *name, const char *v)
{
	char *save = NULL;

	free(a->cols_buf);
	a->cols_buf = xstrdup(v + (*v == '+'));
	a->cols_add = *v == '+';
	a->ncols = 0;
	if (!*a->cols_buf || a->cols_buf[0] == ',' ||
	    a->cols_buf[strlen(a->cols_buf) - 1] == ',' ||
	    strstr(a->cols_buf, ",,"))
		goto bad;
	for (char *k = strtok_r(a->cols_buf, ",", &save); k;
	    k = strtok_r(NULL, ",", &save)) {
		if (a->ncols == CLI_MAX_LIST)
			goto bad;
		a->cols[a->ncols++] = k;
	}
	return 0;
bad:
	cli_diag(name, "--columns %s: expected column keys, comma-separated "
	    "(at most %d; +LIST adds them to the default)", v, CLI_MAX_LIST);
	return -1;
}

/* Would a key of --columns be looked for in table t? */
static int
in_scope(const struct cli *a, const struct rtable *t)
{
	return !a->table || !strcmp(a->table, t->key);
}

/* The distinct column keys of the tables in scope, for suggestions. */
static size_t
known_keys(const struct cli *a, const struct result *r, const char ***out)
{
	size_t n = 0, cap = 0;
	const char **k = NULL;

	for (size_t i = 0; i < r->ntable; i++)
		for (size_t c = 0; in_scope(a, &r->table[i]) &&
		    c < r->table[i].ncol; c++) {
			const char *key = r->table[i].col[c].key;
			size_t j = 0;

			while (j < n && strcmp(k[j], key))
				j++;
			if (j < n)
				continue;
			k = xgrow(k, n, &cap, sizeof *k, 16);
			k[n++] = key;
		}
	*out = k;
	return n;
}

/* An unknown key: the one meant, then every table's keys. */
static void
unknown_column(const struct cli *a, const char *name,
    const struct result *r, const char *key)
{
	const char **keys, *meant;
	size_t n = known_keys(a, r, &keys);

	meant = suggest_word(key, keys, n);
	cli_diag(name, "--columns: no column '%s'%s%s%s", key,
	    meant ? "; did you mean '" : "", meant ? meant : "",
	    meant ? "'?" : "");
	for (size_t i = 0; i < r->ntable; i++) {
		const struct rtable *t = &r->table[i];

		if (!in_scope(a, t))
			continue;
		fprintf(stderr, "iocensus %s: table %s has", name,
		    t->key);
		for (size_t c = 0; c < t->ncol; c++)
			fprintf(stderr, "%s %s", c ? "," : "", t->col[c].key);
		fputs(t->ncol ? "\n" : " no columns\n", stderr);
	}
	free(keys);
}

int
cli_columns_check(const struct cli *a, const char *name,
    const struct result *r)
{
	for (size_t k = 0; k < a->ncols; k++) {
		int found = 0;

		for (size_t i = 0; !found && i < r->ntable; i++)
			found = in_scope(a, &r->table[i]) &&
			    result_col_index(&r->table[i], a->cols[k]) >= 0;
		if (!found) {
			unknown_column(a, name, r, a->cols[k]);
			return -1;
		}
	}
	return 0;
}

/* COLUMNS, as the shell and ls(1) read it: a positive number. */
static size_t
env_columns(void)
{
	const char *s = getenv("COLUMNS");
	uint64_t v;

	if (!s || argval_u64(s, MAX_COLUMNS, &v) < 0 || v == 0)
		return 0;
	return (size_t)v;
}

size_t
cli_columns_width(int fd)
{
	struct winsize ws;
	size_t w = env_columns();

	if (w)
		return w;
	if (!isatty(fd))
		return 0;
	if (ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	return 80;
}
