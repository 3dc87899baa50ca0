/*
 * iocensus_genopt: the generator's command line. See iocensus_gen.c.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "iocensus_gen.h"

static void
usage(void)
{
	fputs(
"usage: iocensus_gen [--out DIR] [OPTIONS]\n"
"Write one-minute iostatmon logs of a generated study-like system.\n"
"\n"
"  --out DIR          logs: DIR/iostatmon-HOST-YYYYMMDD.iolog.gz\n"
"  --hosts N          hosts (128)\n"
"  --devices N        data devices per host (10)\n"
"  --days N           days of samples (62)\n"
"  --start UNIX       first read, unix seconds (1264204800: 2010-01-23)\n"
"  --seed N           random seed (1)\n"
"  --threads N        writer threads (online CPUs)\n"
"  --lost-day N       day whose 09:00 starts 4 days lost on every host (9; -1 none)\n"
"  --maint-day N      maintenance day, no I/O 04:00-23:00 (37; -1 none)\n"
"  --raw DIR          also write raw captures DIR/HOST.raw ...\n"
"  --raw-hosts N      ... of the first N hosts (16)\n"
"  --raw-days N       ... for the first N days (7)\n"
"  --stats            print the model's aggregate throughput summary\n"
"  --slow-read H,D,DAY,F    device D of host H: reads F times slower from day DAY\n"
"  --episode H,D,MIN,LEN,F  device D of host H: F times slower for LEN minutes\n"
"                     from minute MIN of every day\n",
	    stderr);
}

static int
number(const char *s, long long lo, long long hi, long long *v)
{
	char *end;

	*v = strtoll(s, &end, 10);
	if (*s == '\0' || *end || *v < lo || *v > hi) {
		fprintf(stderr, "iocensus_gen: %s: expected an integer from "
		    "%lld to %lld\n", s, lo, hi);
		return -1;
	}
	return 0;
}

/* "a,b,...": n numbers, the last one a factor from 1 to 1000. */
static int
fault(struct gen *g, const char *s, int reads_only)
{
	struct gen_fault *f = &g->fault[g->nfault];
	long long h, d, a, b = 1440;
	double x;
	char *end;
	int n, used = 0;

	if (g->nfault == GEN_FAULTS) {
		fprintf(stderr, "iocensus_gen: at most %d faults\n", GEN_FAULTS);
		return -1;
	}
	n = reads_only ?
	    sscanf(s, "%lld,%lld,%lld,%n", &h, &d, &a, &used) :
	    sscanf(s, "%lld,%lld,%lld,%lld,%n", &h, &d, &a, &b, &used);
	if (n != (reads_only ? 3 : 4) || used == 0 || h < 0 || d < 0 ||
	    a < 0 || a > (reads_only ? 3650 : 1439) || b < 1 || b > 1440)
		goto bad;
	x = strtod(s + used, &end);
	if (*end || !(x >= 1 && x <= 1000))
		goto bad;
	memset(f, 0, sizeof *f);
	f->h = (int)h;
	f->d = (int)d;
	f->reads_only = reads_only;
	f->day = reads_only ? (int)a : 0;
	f->from = reads_only ? 0 : a;
	f->len = b;
	f->factor = x;
	g->nfault++;
	return 0;
bad:
	fprintf(stderr, "iocensus_gen: %s: expected %s\n", s, reads_only ?
	    "HOST,DEVICE,DAY,FACTOR" : "HOST,DEVICE,MINUTE,LENGTH,FACTOR");
	return -1;
}

int
gen_options(struct gen *g, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "out", 1, NULL, 'o' }, { "hosts", 1, NULL, 'H' },
		{ "devices", 1, NULL, 'D' }, { "days", 1, NULL, 'N' },
		{ "start", 1, NULL, 's' }, { "seed", 1, NULL, 'S' },
		{ "threads", 1, NULL, 'j' }, { "lost-day", 1, NULL, 'l' },
		{ "maint-day", 1, NULL, 'm' }, { "raw", 1, NULL, 'r' },
		{ "raw-hosts", 1, NULL, 'R' }, { "raw-days", 1, NULL, 'd' },
		{ "stats", 0, NULL, 'x' }, { "help", 0, NULL, 'h' },
		{ "slow-read", 1, NULL, 'F' }, { "episode", 1, NULL, 'E' },
		{ NULL, 0, NULL, 0 }
	};
	long long v = 0;
	int c, rc = 0;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	memset(g, 0, sizeof *g);
	g->hosts = 128;
	g->devices = 10;
	g->days = 62;
	g->start = 1264204800;
	g->seed = 1;
	g->threads = cpus > 0 ? (int)cpus : 1;
	g->lost_day = 9;
	g->maint_day = 37;
	g->raw_hosts = 16;
	g->raw_days = 7;
	while (rc == 0 && (c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'o': g->out = optarg; break;
		case 'r': g->raw = optarg; break;
		case 'x': g->stats = 1; break;
		case 'F': rc = fault(g, optarg, 1); break;
		case 'E': rc = fault(g, optarg, 0); break;
		case 'H': rc = number(optarg, 1, 100000, &v); g->hosts = (int)v; break;
		case 'D': rc = number(optarg, 1, 1000, &v); g->devices = (int)v; break;
		case 'N': rc = number(optarg, 1, 3650, &v); g->days = (int)v; break;
		case 's': rc = number(optarg, 0, 4102444800LL, &v); g->start = v; break;
		case 'S': rc = number(optarg, 0, 1LL << 62, &v); g->seed = (uint64_t)v; break;
		case 'j': rc = number(optarg, 1, 256, &v); g->threads = (int)v; break;
		case 'l': rc = number(optarg, -1, 3650, &v); g->lost_day = (int)v; break;
		case 'm': rc = number(optarg, -1, 3650, &v); g->maint_day = (int)v; break;
		case 'R': rc = number(optarg, 0, 100000, &v); g->raw_hosts = (int)v; break;
		case 'd': rc = number(optarg, 0, 3650, &v); g->raw_days = (int)v; break;
		default: usage(); return -1;
		}
	}
	if (rc < 0)
		return -1;
	if (optind != argc || (!g->out && !g->raw && !g->stats)) {
		usage();
		return -1;
	}
	for (int i = 0; i < g->nfault; i++)
		if (g->fault[i].h >= g->hosts || g->fault[i].d >= g->devices) {
			fprintf(stderr, "iocensus_gen: a fault names host %d "
			    "device %d of %d x %d\n", g->fault[i].h,
			    g->fault[i].d, g->hosts, g->devices);
			return -1;
		}
	if (g->start % 60) {
		fprintf(stderr, "iocensus_gen: --start must be a whole minute\n");
		return -1;
	}
	return 0;
}
