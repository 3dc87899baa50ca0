/*
 * cli_metrics: `iocensus metrics [--out FILE]`, the census and the
 * devices' health (iocensus_device_slow, over the default window of
 * `iocensus health`) in the Prometheus textfile format. The file is replaced all at once (a
 * temporary beside it, then rename, lib/outfile), so node_exporter's
 * textfile collector never reads half of it; the temporary's name does
 * not end in .prom, so the collector never reads it either.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "space/space.h"
#include "traffic/traffic.h"
#include "cli_int.h"
#include "render/render.h"

int
cli_metrics_write(sqlite3 *db, const struct opts *o, const char *path,
    const struct outfile_opts *out, char *err, size_t errlen)
{
	struct result *r = space_metrics(db, o, err, errlen), *h = NULL;
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	int rc = -1;

	if (!r || !(h = traffic_health_metrics(db, o, err, errlen)))
		goto done;
	if (!(f = open_memstream(&text, &len))) {
		snprintf(err, errlen, "out of memory");
		goto done;
	}
	render_prom(f, r);
	render_prom(f, h);
	if (fclose(f) != 0) {
		snprintf(err, errlen, "out of memory");
		goto done;
	}
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
	result_free(r);
	result_free(h);
	return rc;
}
