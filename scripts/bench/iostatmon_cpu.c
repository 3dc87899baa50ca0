/*
 * iostatmon_cpu: CPU time per sample of the daemon's hot path, for a table of
 * N devices: pread of a diskstats file kept open, diskstats_parse_all(), and
 * sampler_feed() (deltas, plausibility, encoding, deflate with a sync flush,
 * and the write of the frame). Hourly keyframes are included: a day of 60 s
 * samples is fed.
 *
 * usage: iostatmon_cpu [DEVICES [SAMPLES [ACTIVE_PERCENT [DIR]]]]
 * (defaults 1000, 1440, 50, $TMPDIR or /tmp). Prints the median, mean and
 * 99th percentile of per-sample thread CPU time (all, and the read+parse
 * part alone) and wall time in µs, then the log's size in bytes.
 * Preparing each sample's text (the kernel's work) is not timed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include "diskstats.h"
#include "iolog/iolog.h"
#include "sampler.h"

#define NFIELDS 17

static uint64_t rng = 88172645463325252ull;

static uint64_t
next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static double
now_us(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Advance the counters (active devices only) and print them as the kernel
 * would into buf. Returns the text's length. */
static size_t
make_sample(uint64_t *v, int ndev, int active_pct, char *buf, size_t cap)
{
	size_t len = 0;

	for (int d = 0; d < ndev; d++) {
		uint64_t *c = v + (size_t)d * NFIELDS;

		if ((int)(next_rand() % 100) < active_pct) {
			uint64_t r = 1 + next_rand() % 3000, w = next_rand() % 3000;

			c[0] += r; c[1] += r / 8; c[2] += r * 16; c[3] += r * 3;
			c[4] += w; c[5] += w / 4; c[6] += w * 64; c[7] += w * 2;
			c[8] = next_rand() % 32;
			c[9] += next_rand() % 57000; c[10] += r * 3 + w * 2;
			c[15] += next_rand() % 100; c[16] += next_rand() % 200;
		} else {
			c[8] = 0;
		}
		len += (size_t)snprintf(buf + len, cap - len, "%4d %7d sd%c%c%c",
		    8 + d / 16, d % 16, 'a' + d / 676 % 26, 'a' + d / 26 % 26,
		    'a' + d % 26);
		for (int f = 0; f < NFIELDS; f++)
			len += (size_t)snprintf(buf + len, cap - len, " %llu",
			    (unsigned long long)(f == 3 || f == 7 || f >= 9 ?
			    c[f] & 0xffffffffu : c[f]));
		buf[len++] = '\n';
	}
	return len;
}

static void
report(const char *what, double *t, int n)
{
	double sum = 0;

	for (int i = 0; i < n; i++)
		sum += t[i];
	qsort(t, (size_t)n, sizeof *t, cmp_double);
	printf("%-11s median %8.1f us   mean %8.1f us   p99 %8.1f us\n", what,
	    t[n / 2], sum / n, t[n * 99 / 100]);
}

int
main(int argc, char **argv)
{
	int ndev = argc > 1 ? atoi(argv[1]) : 1000;
	int nsamp = argc > 2 ? atoi(argv[2]) : 1440;
	int active = argc > 3 ? atoi(argv[3]) : 50;
	const char *dir = argc > 4 ? argv[4] :
	    getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	size_t cap = (size_t)ndev * 400;
	char *text = malloc(cap), *buf = malloc(cap), logp[4096], dsp[4096], err[512];
	uint64_t *v = calloc((size_t)ndev * NFIELDS, sizeof *v);
	double *cpu = calloc((size_t)nsamp, sizeof *cpu);
	double *wall = calloc((size_t)nsamp, sizeof *wall);
	double *parse = calloc((size_t)nsamp, sizeof *parse);
	struct iolog_header h = { .long_bits = 64, .interval_ms = 60000 };
	struct ds_table t = { 0 };

	if (ndev < 1 || nsamp < 2 || !text || !buf || !v || !cpu || !wall || !parse)
		return 2;
	snprintf(logp, sizeof logp, "%s/iostatmon_cpu.%d.iolog.gz", dir, (int)getpid());
	snprintf(dsp, sizeof dsp, "%s/iostatmon_cpu.%d.diskstats", dir, (int)getpid());
	snprintf(h.host, sizeof h.host, "bench");
	snprintf(h.writer, sizeof h.writer, "iostatmon_cpu");
	struct iolog_writer *w = iolog_writer_open(logp, NULL, err, sizeof err);
	int fd = open(dsp, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (!w || fd < 0) {
		fprintf(stderr, "iostatmon_cpu: %s\n", w ? strerror(errno) : err);
		return 1;
	}
	struct sampler *s = sampler_new(w, &h);
	for (int d = 0; d < ndev * NFIELDS; d++)
		v[d] = next_rand() % 1000000000;
	for (int k = 0; k < nsamp; k++) {
		size_t len = make_sample(v, ndev, active, text, cap);
		struct iolog_clock c = {
			.realtime_ns = (1700000000ull + 60ull * k) * 1000000000ull,
			.monotonic_ns = (1000ull + 60ull * k) * 1000000000ull,
			.boottime_ns = (1000ull + 60ull * k) * 1000000000ull,
		};

		if (pwrite(fd, text, len, 0) != (ssize_t)len || ftruncate(fd, (off_t)len))
			return 1;
		double c0 = now_us(CLOCK_THREAD_CPUTIME_ID), w0 = now_us(CLOCK_MONOTONIC);
		ssize_t n = pread(fd, buf, cap, 0);
		diskstats_parse_all(buf, n > 0 ? (size_t)n : 0, &t);
		parse[k] = now_us(CLOCK_THREAD_CPUTIME_ID) - c0;
		if (sampler_feed(s, &t, NULL, &c) < 0) {
			perror("iostatmon_cpu: sampler_feed");
			return 1;
		}
		cpu[k] = now_us(CLOCK_THREAD_CPUTIME_ID) - c0;
		wall[k] = now_us(CLOCK_MONOTONIC) - w0;
	}
	iolog_writer_close(w);
	sampler_free(s);
	diskstats_table_free(&t);
	printf("%d devices, %d samples, %d%% active per sample\n", ndev, nsamp, active);
	report("cpu", cpu, nsamp);
	report("read+parse", parse, nsamp);
	report("wall", wall, nsamp);
	struct stat st;
	if (stat(logp, &st) == 0)
		printf("log %lld bytes\n", (long long)st.st_size);
	unlink(logp);
	unlink(dsp);
	close(fd);
	free(text); free(buf); free(v); free(cpu); free(wall); free(parse);
	return 0;
}
