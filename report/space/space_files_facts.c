/*
 * space_files_facts: the facts of a files result: what the study quotes from
 * Figures 8 and 9 (most popular bucket, shares under 1 MiB, 2 MiB and
 * 128 MiB, share not accessed in 32 days), read exactly at bucket edges.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "space_files_int.h"
#include "human.h"
#include "space_snapout_int.h"

static const char *const verbs[] = { NULL, "accessed", "modified",
    "changed" };

double
space_files_facts_frac(i128 part, i128 whole)
{
	return whole > 0 ? (double)part / (double)whole : NAN;
}

/* Shares of files and bytes in buckets wholly below `edge` (below = 1)
 * or wholly at or above it; the future row counts as below. */
static void
edge_shares(const struct dist *d, int64_t edge, int below, double *sf,
    double *sb)
{
	i128 f = 0, b = 0;

	for (size_t k = 0; k < d->n; k++) {
		int past = d->slot[k] != HIST_UNDER && d->lo[k] >= edge;
		int under = d->slot[k] == HIST_UNDER || d->hi[k] <= edge;
		if (below ? under : past) {
			f += d->files[k];
			b += d->bytes[k];
		}
	}
	*sf = space_files_facts_frac(f, d->nfiles);
	*sb = space_files_facts_frac(b, d->nbytes);
}

enum { X_SNAP, X_FILES, X_BYTES, X_PLO, X_PHI, X_PFILES, X_UNRES, X_MAX,
    X_E1, X_E2, X_E3, X_E4, X_E5, X_E6 };

static const struct rcol_spec size_facts[] = {
	[X_MAX] = { "largest_file", "Largest file", "bytes", CF_BYTES, 0 },
	[X_E1] = { "files_lt_1mib", "Files < 1 MiB", "%", CF_PCT, 1 },
	[X_E2] = { "bytes_lt_1mib", "Bytes < 1 MiB", "%", CF_PCT, 1 },
	[X_E3] = { "files_lt_2mib", "Files < 2 MiB", "%", CF_PCT, 1 },
	[X_E4] = { "bytes_lt_2mib", "Bytes < 2 MiB", "%", CF_PCT, 1 },
	[X_E5] = { "files_lt_128mib", "Files < 128 MiB", "%", CF_PCT, 1 },
	[X_E6] = { "bytes_lt_128mib", "Bytes < 128 MiB", "%", CF_PCT, 1 },
};
static const struct rcol_spec age_facts[] = {
	[X_MAX] = { "oldest_days", "Oldest", "days", CF_PLAIN, 1 },
	[X_E1] = { "edge_days", "Edge", "days", CF_PLAIN, 0 },
	[X_E2] = { "files_old", "Files at/over edge", "%", CF_PCT, 1 },
	[X_E3] = { "bytes_old", "Bytes at/over edge", "%", CF_PCT, 1 },
	[X_E4] = { "future_files", "Future timestamps", "files", CF_PLAIN, 0 },
};

struct rtable *
space_files_facts_table(struct result *r, const struct dist *d)
{
	struct rcol_spec c[X_E6 + 1] = {
		[X_SNAP] = { "snapshot", "Snapshot", NULL, CF_PLAIN, 0 },
		[X_FILES] = { "files", "Files", "files", CF_PLAIN, 0 },
		[X_BYTES] = { "bytes", "Bytes", "bytes", CF_BYTES, 0 },
		/* The bucket holding the most files, in words a reader
		 * takes in at once. */
		[X_PLO] = { "popular_lo", d->age ? "Most common ages, from" :
		    "Most common sizes, from", d->age ? "days" : "bytes",
		    d->age ? CF_PLAIN : CF_BYTES, 0 },
		[X_PHI] = { "popular_hi", "to under", d->age ? "days" : "bytes",
		    d->age ? CF_PLAIN : CF_BYTES, 0 },
		[X_PFILES] = { "popular_files", d->age ? "Files of those ages" :
		    "Files of those sizes", "files", CF_PLAIN, 0 },
		[X_UNRES] = { "unresolved_share", "Project unresolved", "%",
		    CF_PCT, 2 },
	};
	size_t n = d->age ? X_E4 + 1 : X_E6 + 1;

	struct rtable *t;

	for (size_t i = X_MAX; i < n; i++)
		c[i] = d->age ? age_facts[i] : size_facts[i];
	t = result_table(r, "facts", "Facts", c, n);
	result_wide(t, d->age ? "popular_lo,popular_hi,popular_files" :
	    "popular_lo,popular_hi,popular_files,files_lt_2mib,bytes_lt_2mib");
	return t;
}

/* The study's "most popular range" sentence. */
static void
note_popular(struct result *r, const struct dist *d, size_t k)
{
	char lo[64], hi[64];

	char n[32];

	human_int(d->files[k], n, sizeof n);
	if (d->slot[k] == HIST_UNDER)
		result_note(r, "The most popular bucket is the future one:"
		    " %s files.", n);
	else if (d->age)
		result_note(r, "The most popular bucket is [%s, %s) days"
		    " with %s files.", i128_str(d->lo[k], lo),
		    i128_str(d->hi[k], hi), n);
	else
		result_note(r, "The most popular bucket is [%s, %s) with %s"
		    " files.", human_bytes((double)d->lo[k], 0, lo, sizeof lo),
		    human_bytes((double)d->hi[k], 0, hi, sizeof hi), n);
}

void
space_files_facts(struct result *r, const struct dist *d, const struct snap *s,
    int metric, double unresolved)
{
	struct rtable *t = space_files_facts_table(r, d);
	size_t row = result_row(t), pop = 0;
	double sf[3], sb[3];

	result_set_int(t, row, X_SNAP, s->id);
	result_set_wide(t, row, X_FILES, d->nfiles);
	result_set_wide(t, row, X_BYTES, d->nbytes);
	for (size_t k = 1; k < d->n; k++)
		pop = d->files[k] > d->files[pop] ? k : pop;
	if (d->n) {
		if (d->slot[pop] != HIST_UNDER)
			result_set_wide(t, row, X_PLO, d->lo[pop]);
		result_set_wide(t, row, X_PHI, d->hi[pop]);
		result_set_int(t, row, X_PFILES, d->files[pop]);
	}
	if (d->n)
		note_popular(r, d, pop);
	space_snapout_real(t, row, X_UNRES, unresolved);
	if (d->has_ext && d->ext_exact) {
		if (d->age)
			result_set_real(t, row, X_MAX,
			    (double)d->ext_max / DIST_DAY);
		else
			result_set_wide(t, row, X_MAX, d->ext_max);
	}
	if (!d->age) {
		static const int64_t edges[] = { 1 << 20, 1 << 21, 1 << 27 };
		for (int i = 0; i < 3; i++) {
			edge_shares(d, edges[i], 1, &sf[i], &sb[i]);
			space_snapout_real(t, row, X_E1 + 2 * i, sf[i]);
			space_snapout_real(t, row, X_E2 + 2 * i, sb[i]);
		}
		if (d->nfiles > 0)
			result_note(r, "%.1f%% of files are under 1 MiB, %.1f%%"
			    " under 2 MiB and %.1f%% under 128 MiB (exact:"
			    " these are bucket edges).", 100 * sf[0],
			    100 * sf[1], 100 * sf[2]);
		return;
	}
	edge_shares(d, 32, 0, &sf[0], &sb[0]);
	result_set_int(t, row, X_E1, 32);
	space_snapout_real(t, row, X_E2, sf[0]);
	space_snapout_real(t, row, X_E3, sb[0]);
	result_set_int(t, row, X_E4, d->n && d->slot[0] == HIST_UNDER ?
	    d->files[0] : 0);
	if (d->nfiles > 0 && d->nbytes > 0)
		result_note(r, "%.1f%% of files and %.1f%% of bytes were not %s"
		    " in at least 32 days (1 - F at the 32-day bucket edge).",
		    100 * sf[0], 100 * sb[0], verbs[metric]);
}
