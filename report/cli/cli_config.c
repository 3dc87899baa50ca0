/*
 * cli_config: the configuration file in iocensus (lib/conf.h): `iocensus
 * config`, every value in effect and where it came from, and what the
 * file gives the other commands: ingest's logs, metrics' file, prune's
 * rules and --fs given as a root.
 */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_int.h"
#include "conf.h"
#include "db.h"
#include "fmt.h"
#include "query/query.h"
#include "result/result.h"
#include "xalloc.h"

enum { C_KEY, C_VALUE, C_SOURCE };

static const struct rcol_spec cols[] = {
	[C_KEY] = { "key", "Key", NULL, CF_PLAIN, 0 },
	[C_VALUE] = { "value", "Value", NULL, CF_PLAIN, 0 },
	[C_SOURCE] = { "source", "Source", NULL, CF_PLAIN, 0 },
};

static void
row(struct rtable *t, const char *key, const char *value, enum conf_src src,
    int line)
{
	size_t r = result_row(t);
	char buf[32];

	result_set_text(t, r, C_KEY, key);
	result_set_text(t, r, C_VALUE, value);
	result_set_text(t, r, C_SOURCE, conf_src_text(src, line, buf,
	    sizeof buf));
}

/* A file system's keys, as written: fsscan reads them (its defaults are
 * its options', docs/fsscan.1). */
static void
fs_rows(struct rtable *t, const struct conf_fs *f)
{
	char key[512];

	for (int k = 0; k < CONF_NFS; k++) {
		snprintf(key, sizeof key, "fs.%s.%s", f->name,
		    conf_fs_keys[k]);
		if (k == CONF_FS_PROJECT) {
			for (size_t i = 0; i < f->nproject; i++)
				row(t, key, f->project[i].v, CONF_SRC_FILE,
				    f->project[i].line);
		} else if (f->key[k].v) {
			row(t, key, f->key[k].v, CONF_SRC_FILE, f->key[k].line);
		}
	}
}

/* The value in effect of a key before any section (CONF_DB ...), NULL
 * for none (metrics: standard output). */
static const char *
top_value(const struct cli *a, int k, enum conf_src *src)
{
	const struct conf *c = conf_get();

	switch (k) {
	case CONF_DB:
		return conf_pick(a->db, DB_ENV, &c->top[k], DB_DEFAULT, src);
	case CONF_LOGS:
		return conf_pick(NULL, NULL, &c->top[k], CONF_LOGS_DEFAULT,
		    src);
	default:
		return conf_pick(NULL, NULL, &c->top[k], NULL, src);
	}
}

int
cli_config_value(const struct cli *a)
{
	const char *v;
	char *term;
	int k;

	assert(a && a->nargs >= 1);
	for (k = 0; k < CONF_NTOP; k++)
		if (!strcmp(a->args[0], conf_top_keys[k]))
			break;
	if (a->nargs != 1 || k == CONF_NTOP) {
		cli_diag("config", "expected one KEY: db, logs or metrics");
		return CLI_EXIT_USAGE;
	}
	/* A job reads it through a pipe, as written; a terminal gets it
	 * escaped, as every name. */
	if ((v = top_value(a, k, NULL)) == NULL)
		return 0;
	if (fmt_is_term(stdout)) {
		term = fmt_term_str(v);
		puts(term);
		free(term);
	} else {
		puts(v);
	}
	if (fflush(stdout) == EOF || ferror(stdout)) {
		cli_diag("config", "writing the output: %s", strerror(errno));
		return CLI_EXIT_FATAL;
	}
	return 0;
}

int
cli_config_is_logs(const char *path)
{
	const char *logs = conf_get()->top[CONF_LOGS].v;

	return logs && path && !strcmp(path, logs);
}

int
cli_config_metrics_due(const struct cli *a)
{
	const char *db = db_default_path(a->db);

	assert(a && a->if_configured);
	return a->out && access(db, F_OK) == 0;
}

struct result *
cli_config(const struct cli *a)
{
	const struct conf *c = conf_get();
	struct result *r = result_new("config", "Configuration");
	struct rtable *t = result_table(r, "config", "Configuration", cols,
	    sizeof cols / sizeof cols[0]);
	const char *env = getenv(CONF_ENV);
	enum conf_src src;
	const char *v;
	char key[64];

	row(t, "conf", c->path ? c->path : CONF_PATH " (absent)", env && *env ?
	    CONF_SRC_ENV : CONF_SRC_DEFAULT, 0);
	for (int k = 0; k < CONF_NTOP; k++) {
		v = top_value(a, k, &src);
		row(t, conf_top_keys[k], v ? v : "-", src, c->top[k].line);
	}
	for (int i = 0; i < CONF_NPRUNE; i++) {
		snprintf(key, sizeof key, "prune.%s", conf_prune_keys[i]);
		v = conf_pick(NULL, NULL, &c->prune[i], "-", &src);
		row(t, key, v, src, c->prune[i].line);
	}
	for (size_t i = 0; i < c->nfs; i++)
		fs_rows(t, &c->fs[i]);
	result_note(r, "Precedence: option, environment (%s, %s), file,"
	    " default; '-' is none (metrics: standard output; prune: no"
	    " rule). fsscan reads a file system's keys: what they leave"
	    " out is fsscan's default.", CONF_ENV, DB_ENV);
	return r;
}

int
cli_config_defaults(struct cli *a, const char *name)
{
	static char *logs[1];
	const struct conf *c = conf_get();

	if (!strcmp(name, "ingest") && a->nargs == 0 && c->top[CONF_LOGS].v) {
		logs[0] = c->top[CONF_LOGS].v;
		a->args = logs;
		a->nargs = 1;
	}
	if (!strcmp(name, "metrics") && a->if_configured && a->out) {
		cli_diag(name, "--if-configured writes the file the "
		    "configuration names: give no --out");
		return -1;
	}
	if (!strcmp(name, "metrics") && cli_top_conf(a, c) < 0)
		return -1;
	if (!strcmp(name, "metrics") && !a->out)
		a->out = c->top[CONF_METRICS].v;
	if (!strcmp(name, "metrics") && a->out && !strcmp(a->out, "-"))
		a->out = NULL;
	if (!strcmp(name, "prune") || !strcmp(name, "config")) {
		struct cli check = *a;

		if (cli_prune_conf(!strcmp(name, "prune") ? a : &check, c) < 0)
			return -1;
	}
	return 0;
}

/* One --fs value: a root path becomes the name recorded with it. */
static int
resolve(struct cli *a, sqlite3 *db, const char **fs, char *err,
    size_t errlen)
{
	char **names;
	size_t n;

	if (!*fs || **fs != '/')
		return 0;
	if (query_census_fs_at(db, *fs, &names, &n, err, errlen) < 0)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(names[i], *fs)) {
			query_census_names_free(names, n);
			return 0;	/* recorded under that name */
		}
	if (n > 1) {
		int len = snprintf(err, errlen, FMT_USAGE "--fs %s: the root"
		    " of several file systems:", *fs);

		for (size_t i = 0; i < n && len > 0 && (size_t)len < errlen;
		    i++)
			len += snprintf(err + len, errlen - (size_t)len, "%s %s",
			    i ? "," : "", names[i]);
		query_census_names_free(names, n);
		return -1;
	}
	if (n == 1) {
		a->fs_found = xreallocarray(a->fs_found, a->nfs_found + 1,
		    sizeof *a->fs_found);
		a->fs_found[a->nfs_found++] = names[0];
		*fs = names[0];
		free(names);
	} else {
		query_census_names_free(names, n);
	}
	return 0;
}

int
cli_config_fs(struct cli *a, sqlite3 *db, char *err, size_t errlen)
{
	for (size_t i = 0; i < a->nfss; i++)
		if (resolve(a, db, &a->fss[i], err, errlen) < 0)
			return -1;
	return resolve(a, db, &a->an.fs, err, errlen);
}
