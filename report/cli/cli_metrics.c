/*
 * cli_metrics: `iocensus metrics [--out FILE] [--now TIME]`: when the
 * metrics were made, the census (space_metrics), the hosts' I/O
 * (traffic_metrics) and the devices' health (iocensus_device_slow, over
 * the default window of `iocensus health`) in the Prometheus textfile
 * format. The file is replaced all at once (a temporary beside it, then
 * rename, lib/outfile), so node_exporter's textfile collector never
 * reads half of it; the temporary's name does not end in .prom, so the
 * collector never reads it either. Every user may read it: a private
 * project name is its label there (cli_out_hide). The time it was made
 * is labelled with the database's path, which tells the files of two
 * databases apart.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "space/space.h"
#include "traffic/traffic.h"
#include "cli_int.h"
#include "render/render.h"

enum { PART_MADE, PART_SPACE, PART_IO, PART_HEALTH, NPART };

/* The one family every file has, even of an empty census: the time it
 * was made, so that a rule can tell stale metrics from quiet ones. Its
 * label db, the database's path, tells two files on one node apart (two
 * databases, each with its metrics file): without it their samples
 * would clash in node_exporter, and a stale one hide behind the other. */
static struct result *
made(sqlite3 *db, int64_t now)
{
	static const struct rcol_spec col[] = {
		{ "db", "Database", NULL, CF_PLAIN, 0 },
		{ "value", "Value", "seconds", CF_PLAIN, 0 } };
	struct result *r = result_new("metrics", "Metrics");
	struct rtable *t = result_table(r,
	    "iocensus_metrics_generated_timestamp_seconds", "When iocensus "
	    "metrics made this file from the database db, unix seconds (its "
	    "--now when given).", col, 2);
	const char *path = sqlite3_db_filename(db, "main");

	result_sample(t, (const char *const[]){ path && *path ? path : NULL },
	    now);
	return r;
}

/* Every part rendered into *text; 0, or -1 with err. */
static int
render_parts(sqlite3 *db, const struct opts *o, int64_t now, char **text,
    size_t *len, char *err, size_t errlen)
{
	struct result *part[NPART] = { made(db, now) };
	FILE *f;
	int rc = -1;

	if (!(part[PART_SPACE] = space_metrics(db, o, err, errlen)) ||
	    !(part[PART_IO] = traffic_metrics(db, o, err, errlen)) ||
	    !(part[PART_HEALTH] = traffic_health_metrics(db, o, err, errlen)) ||
	    cli_out_hide(db, part, NPART, err, errlen) < 0)
		goto done;
	if (!(f = open_memstream(text, len))) {
		snprintf(err, errlen, "out of memory");
		goto done;
	}
	for (int i = 0; i < NPART; i++)
		render_prom(f, part[i]);
	if (fclose(f) == 0)
		rc = 0;
	else
		snprintf(err, errlen, "out of memory");
done:
	for (int i = 0; i < NPART; i++)
		result_free(part[i]);
	return rc;
}

int
cli_metrics_write(sqlite3 *db, const struct opts *o, int64_t now,
    const char *path, const struct outfile_opts *out, char *err,
    size_t errlen)
{
	char *text = NULL;
	size_t len = 0;
	int rc = -1;

	if (render_parts(db, o, now, &text, &len, err, errlen) < 0)
		goto done;
	if (!path) {
		if (fwrite(text, 1, len, stdout) == len && fflush(stdout) == 0)
			rc = 0;
		else
			snprintf(err, errlen, "writing the output: %s",
			    strerror(errno));
		goto done;
	}
	rc = cli_out_write(out, path, text, len, err, errlen);
done:
	free(text);
	return rc;
}
