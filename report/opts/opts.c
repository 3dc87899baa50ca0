/*
 * opts: the defaults every option of a question starts from, and the
 * --annotate windows freed (opts.h).
 */
#include <stdlib.h>
#include <string.h>

#include "opts.h"

/* Idle duration classes of docs/analyses.md ("Idle periods"): [1, 10) min, [10, 60)
 * min, [1, 2) h, [2, 4) h, [4, 8) h, [8, 24) h, >= 24 h. */
static const int64_t default_idle_edges[] = { 60, 600, 3600, 7200, 14400,
    28800, 86400 };
/* Activity thresholds c of El Sayed et al.: 0, 128 KiB, 1 MiB. */
static const uint64_t default_burst_c[] = { 0, 131072, 1048576 };

void
opts_init(struct opts *o)
{
	memset(o, 0, sizeof *o);
	o->every = 3600;
	o->threshold_pct = XDEC_INT(5);
	o->idle_edges = default_idle_edges;
	o->nidle_edges = sizeof default_idle_edges / sizeof default_idle_edges[0];
	o->burst_c = default_burst_c;
	o->nburst_c = sizeof default_burst_c / sizeof default_burst_c[0];
	o->factor = XDEC_INT(3);
	o->dir_depth = 1;
	o->age = "atime";
}

void
opts_annotations_free(struct annotation *a, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(a[i].label);
	free(a);
}
