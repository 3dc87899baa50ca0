/*
 * iocensus_genstat: what the generator wrote, and the model's aggregate.
 *
 * The aggregate is per one-minute interval (the samples' own intervals,
 * each 1 to 40 ms off the minute), summed over every device, over the
 * intervals every host knows: close to, not exactly, the complete minutes
 * ingest computes. It is a check of the model's shape (mean far below peak,
 * most of the time idle), not an oracle.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "iocensus_gen.h"
#include "xalloc.h"

#define MIB 1048576.0

void
gen_count_init(struct gen_count *c, const struct gen *g, int thread)
{
	memset(c, 0, sizeof *c);
	c->g = g;
	c->thread = thread;
	c->bytes = xcalloc((size_t)g->load.minutes, sizeof *c->bytes);
	c->hosts = xcalloc((size_t)g->load.minutes, sizeof *c->hosts);
}

void
gen_count_free(struct gen_count *c)
{
	free(c->bytes);
	free(c->hosts);
}

static uint64_t
dir_bytes(const char *dir, const char *suffix)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	uint64_t sum = 0;
	size_t ls = strlen(suffix);
	char path[4096];
	struct stat st;

	if (!d)
		return 0;
	while ((e = readdir(d)) != NULL) {
		size_t l = strlen(e->d_name);

		if (l < ls || strcmp(e->d_name + l - ls, suffix) != 0)
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		if (stat(path, &st) == 0)
			sum += (uint64_t)st.st_size;
	}
	closedir(d);
	return sum;
}

/* Idle runs below 5 % of peak: minutes in runs of an hour or more, and
 * the longest run. An interval not every host knows ends a run. */
static void
idle_runs(const struct gen *g, const uint64_t *b, const uint32_t *h,
    uint64_t peak)
{
	int64_t run = 0, longest = 0, at = -1, hour_plus = 0, n = 0;
	char when[32];

	for (int64_t k = 0; k <= g->load.minutes; k++) {
		int idle = k < g->load.minutes && h[k] == (uint32_t)g->hosts &&
		    b[k] * 20 < peak;

		n += k < g->load.minutes && h[k] == (uint32_t)g->hosts;
		if (idle) {
			run++;
			continue;
		}
		if (run >= 60)
			hour_plus += run;
		if (run > longest) {
			longest = run;
			at = k - run;
		}
		run = 0;
	}
	time_t t = (time_t)(g->start + at * 60);
	strftime(when, sizeof when, "%Y-%m-%d %H:%M", gmtime(&t));
	printf("model: %.1f%% of known time in idle runs >= 1 h (below 5%% of "
	    "peak); longest %lld min from %s UTC\n", n ? 100.0 * (double)hour_plus
	    / (double)n : 0.0, (long long)longest, at >= 0 ? when : "-");
}

static void
model_stats(const struct gen *g, const struct gen_count *c)
{
	int64_t m = g->load.minutes, n = 0;
	uint64_t *b = xcalloc((size_t)m, sizeof *b), peak = 0;
	uint32_t *h = xcalloc((size_t)m, sizeof *h);
	static const int pct[] = { 5, 10, 25, 33, 50 };
	double sum = 0;

	for (int i = 0; i < g->threads; i++)
		for (int64_t k = 0; k < m; k++) {
			b[k] += c[i].bytes[k];
			h[k] += c[i].hosts[k];
		}
	for (int64_t k = 0; k < m; k++)
		if (h[k] == (uint32_t)g->hosts) {
			n++;
			sum += (double)b[k];
			peak = b[k] > peak ? b[k] : peak;
		}
	printf("model: %lld of %lld minutes known on every host; mean %.1f "
	    "MiB/s, peak %.1f MiB/s (mean/peak %.1f%%)\n", (long long)n,
	    (long long)m, n ? sum / (double)n / 60 / MIB : 0.0,
	    (double)peak / 60 / MIB, peak ? 100 * sum / (double)n /
	    (double)peak : 0.0);
	printf("model: time below x%% of peak:");
	for (size_t i = 0; i < sizeof pct / sizeof pct[0]; i++) {
		int64_t below = 0;

		for (int64_t k = 0; k < m; k++)
			below += h[k] == (uint32_t)g->hosts &&
			    b[k] * 100 < (uint64_t)pct[i] * peak;
		printf(" %d%%: %.1f%%", pct[i], n ? 100.0 * (double)below /
		    (double)n : 0.0);
	}
	printf("\n");
	idle_runs(g, b, h, peak);
	free(b);
	free(h);
}

void
gen_report(const struct gen *g, const struct gen_count *c)
{
	uint64_t files = 0, samples = 0, bytes;

	for (int i = 0; i < g->threads; i++) {
		files += c[i].files;
		samples += c[i].samples;
	}
	if (g->out) {
		bytes = dir_bytes(g->out, ".iolog.gz");
		printf("logs: %llu files, %llu device-samples, %llu bytes "
		    "(%.2f B per device-sample)\n", (unsigned long long)files,
		    (unsigned long long)samples, (unsigned long long)bytes,
		    samples ? (double)bytes / (double)samples : 0.0);
	}
	if (g->raw)
		printf("raw captures: %d hosts x %d days, %llu bytes\n",
		    g->raw_hosts < g->hosts ? g->raw_hosts : g->hosts,
		    g->raw_days < g->days ? g->raw_days : g->days,
		    (unsigned long long)dir_bytes(g->raw, ".raw"));
	if (g->stats)
		model_stats(g, c);
}
