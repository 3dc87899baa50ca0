/*
 * cli_int: what the pieces of the command line share. Private to cli/.
 *
 *   cli_value.c     option values, parsed strictly (trailing junk,
 *                   overflow and empty strings are errors)
 *   cli_diag.c      messages on stderr, names escaped
 *   cli_annotate.c  --annotate FILE
 *   cli_report.c    `iocensus report`: every analysis the database has
 *                   data for, written as the HTML page (and the bundle)
 *   cli_metrics.c   `iocensus metrics`: the Prometheus textfile
 *   cli_out.c       the files written (--out, --bundle): atomic, never
 *                   through a link or over the database, no more
 *                   readable than the database
 *   cli_columns.c   --columns, --wide, and the terminal's width
 *   cli_config.c    `iocensus config`, and what the configuration file
 *                   gives the other commands
 */
#ifndef IOCENSUS_CLI_INT_H
#define IOCENSUS_CLI_INT_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>
#include <sys/stat.h>

#include "opts/opts.h"
#include "outfile.h"

struct cli;
struct conf;
struct result;

/* `iocensus config`: each value in effect, and its source. */
struct result *cli_config(const struct cli *a);
/* What the configuration gives the command name that its command line
 * did not: ingest's PATH (logs), metrics' --out (metrics; "-" is
 * standard output), prune's rules ([prune], which config checks too).
 * 0, or -1 (reported: a value of the file refused). */
int cli_config_defaults(struct cli *a, const char *name);
/* `iocensus config KEY`: the value in effect of db, logs or metrics
 * alone on a line (none: no line), for a job's shell. The exit status. */
int cli_config_value(const struct cli *a);
/* 1 when path is the logs directory the configuration names. */
int cli_config_is_logs(const char *path);
/* metrics --if-configured: 1 when there is something to write (the
 * configuration names a file and the database exists), else 0: a
 * scheduled refresh before the first scan, or where no node_exporter
 * reads one, has nothing to do. */
int cli_config_metrics_due(const struct cli *a);
/* prune's rules from [prune], read as --keep-* are, unless the command
 * line gave one. 0, or -1 (reported, naming the file and line). */
int cli_prune_conf(struct cli *a, const struct conf *c);
/* metrics-top of the configuration, as --top, unless --top was given:
 * 0, or -1 (reported, naming its file and line). */
int cli_top_conf(struct cli *a, const struct conf *c);
/* --fs values that are a root path: the name of the file system whose
 * snapshots have that root (lib/conf.h, conf_root_len). 0, or -1 with
 * err (a usage error: a root of several file systems). */
int cli_config_fs(struct cli *a, sqlite3 *db, char *err, size_t errlen);
/* "iocensus CMD: MESSAGE" on stderr, through fmt_diag: every message
 * of the command line, whatever names it quotes, reaches the terminal
 * escaped. */
void cli_diag(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* A duration: "90" (seconds), "90s", "10m", "1h", "2d", "1w". 0 or -1. */
int cli_value_duration(const char *s, int64_t *out);
/* A size: "0", "131072", "128K", "128KiB", "1M", "1MiB", "1G" (binary
 * units). 0 or -1. */
int cli_value_size(const char *s, uint64_t *out);
/* A number: "1e9", "1000000000", "95.7M" (decimal suffixes K M G T for
 * counts). 0 or -1. */
int cli_value_count(const char *s, double *out);
/* Comma-separated lists of the above. Returns the count, or -1. */
int cli_value_durations(const char *s, int64_t *out, int max);
int cli_value_sizes(const char *s, uint64_t *out, int max);

/* Parse --annotate FILE: lines "FROM TO LABEL..." (times as epoch_parse
 * takes them, lib/epoch.h), '#' comments and blank lines ignored, within
 * the bounds of lib/lines.h. 0, or -1 with "FILE:LINE: why" in err;
 * free with opts_annotations_free. */
int cli_annotate_load(const char *path, struct annotation **a, size_t *n,
    char *err, size_t errlen);

/* What the report is narrowed to (--fs, --project: none given, all),
 * and its red list's horizon in days (--horizon). */
struct report_scope {
	const char *const *fs;
	size_t nfs;
	const char *const *project;
	size_t nproject;
	int64_t horizon;
};

/* o: the window, peak and thresholds given on the command line (others
 * default). target: the file-count growth target; none given picks the
 * next power of ten above each file system's latest file count. title:
 * the page's heading, NULL for "iocensus report". 0, or -1 with err. */
int cli_report_write(sqlite3 *db, const struct opts *o,
    const struct opts_target *target, const struct report_scope *scope,
    const char *title,
    const char *html_path, const char *bundle_path,
    const struct outfile_opts *out, char *err, size_t errlen);

/* The metrics (space_metrics, traffic_metrics, traffic_health_metrics)
 * in the Prometheus text format, made at unix time now, to path
 * (replaced atomically) or, path NULL, to standard output. 0, or -1
 * with err. */
int cli_metrics_write(sqlite3 *db, const struct opts *o, int64_t now,
    const char *path, const struct outfile_opts *out, char *err,
    size_t errlen);

struct cli;
struct result;

/* --columns LIST (KEY,KEY or +KEY,KEY) into a->cols. 0, or -1
 * (reported). */
int cli_columns_parse(struct cli *a, const char *name, const char *v);
/* Every key of --columns names a column of a table r prints (--table's,
 * or any): 0, or -1 with the one meant and every table's keys on
 * stderr. */
int cli_columns_check(const struct cli *a, const char *name,
    const struct result *r);
/* The width the table format fits on fd: COLUMNS when set (a positive
 * number; also when fd is no terminal), else the terminal's (80 when it
 * does not say), else 0: no terminal, lines whole. */
size_t cli_columns_width(int fd);

/* How a file derived from db (at db_path) is written: never over the
 * database; when it carries names (names), no more readable than the
 * database (st holds its status: keep it alive while o is used). */
void cli_out_opts(sqlite3 *db, const char *db_path, int names,
    struct outfile_opts *o, struct stat *st);
/* The results r[0..n) made fit for every user to read (metrics, report
 * --no-paths): each private project name, wherever it stands, replaced
 * by its label (report/query/query.h). Sums are untouched: rows are
 * relabelled, never dropped. 0, or -1 with err. */
int cli_out_hide(sqlite3 *db, struct result **r, size_t n, char *err,
    size_t errlen);
/* Write data to path, all at once; 0, or -1 with err. */
int cli_out_write(const struct outfile_opts *o, const char *path,
    const void *data, size_t len, char *err, size_t errlen);

#endif
