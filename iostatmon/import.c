/*
 * import: `iostatmon import RAW --host NAME (-o LOGDIR | --out FILE)`.
 *
 * A raw capture is what `while :; do echo "T $(date +%s)"; cat
 * /proc/diskstats; sleep 60; done` prints: a line "T <unix-seconds>" (a
 * fraction such as `date +%s.%N` prints is accepted), then the diskstats
 * lines of that instant, repeated. Each block goes through the daemon's own
 * sampler (sampler.c), so the same counters give the same log, and the same
 * `dump` output, whichever way they arrive.
 *
 * Clocks: a capture has one clock, so realtime = monotonic = boottime = T,
 * in ns, and the interval is the difference of successive T. read_ns is 0.
 * A T difference above 1.5 intervals is flagged as a gap, with `missed` the
 * number of whole intervals skipped; late, clock-step and suspend cannot be
 * known and are never set. The nominal interval is --interval, else the most
 * common T difference of the capture (60 s if it cannot be read twice).
 * The header's boot_id, kernel release and machine are empty (the capture
 * does not say), long_bits is --long-bits (64 unless the capture came from
 * a 32-bit kernel), created is the first T.
 *
 * Devices: a capture has no sysfs, so the topology that excludes local disks
 * is unknown. Devices that never hold data by their number and name (loop,
 * ram, zram, nbd, optical, floppy, 0:0: devices_never_data(), the rule live
 * sampling applies) are left out unless --all-devices; every other device
 * is kept. --include GLOB keeps only the names matching some include,
 * --exclude GLOB drops matching names (exclude wins).
 *
 * Identity: a capture has no sysfs either, so its devices have none, unless
 * --ident FILE gives it (import_ident.h: a table of device, wwn, serial,
 * model, slot); each device named there gets those attributes in the
 * log's device table, as iostatmon's devident would have written them.
 * A malformed line of it is reported with the file and line and left
 * out, a file that cannot be read is reported, and the capture is
 * imported either way (exit status 1).
 *
 * Malformed input is reported with file and line and skipped, and the rest
 * is imported: a bad or non-increasing T line skips its whole block, a line
 * that is not a diskstats line (or repeats a name in its block) is dropped.
 * Output: --out FILE, or one file per UTC day in LOGDIR named like the
 * daemon's (LOGDIR and its missing parents are created, mode 0755 less the
 * umask). Existing files are never appended to, and no link is followed:
 * each file is new (O_EXCL), made relative to its directory's descriptor,
 * which lib/safedir opens without following other users' links.
 *
 * A sample is one frame, and a log's device table holds at most
 * IOLOG_NDEV_MAX devices (docs/iolog-format.md): a block that would
 * import more is refused, naming the limit, and so is any other error
 * that stops the import; the logs it made are then removed, so that the
 * output is written whole or not at all (import never appends: each
 * of them is its own).
 *
 * Exit status: 0 imported; 1 imported, but malformed input was skipped;
 * 2 usage error; 3 fatal (the capture cannot be read or holds no sample
 * at all, or a log cannot be opened or written).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "devices.h"
#include "fmt.h"
#include "import_ident.h"
#include "import_raw.h"
#include "interval.h"
#include "logfiles.h"
#include "globlist.h"
#include "safedir.h"
#include "sampler.h"
#include "suggest.h"
#include "xalloc.h"

#define EXIT_SKIPPED 1
#define EXIT_USAGE   2
#define EXIT_FATAL   3
#define MAX_GLOBS    64
#define NS           UINT64_C(1000000000)

struct import {
	const char *raw, *host, *dir, *out, *ident_path;
	struct import_idents ident;	/* --ident: by device name */
	int ident_bad;			/* --ident had lines left out */
	const char *include[MAX_GLOBS], *exclude[MAX_GLOBS];
	size_t ninclude, nexclude;
	int all_devices;		/* keep loop, ram, zram... too */
	uint64_t interval_ns;		/* 0: guess from the capture */
	int long_bits;
	struct iolog_header h;
	struct iolog_writer *w;
	struct sampler *s;
	int64_t day;			/* UTC day of the open file (-o) */
	uint64_t prev_t;		/* T of the previous block fed */
	struct dev_set set;
	size_t set_cap;
	struct made *made;		/* the logs made, to remove on failure */
	size_t nmade;
};

/* A log import made: its path, and which file it is. */
struct made {
	char *path;
	dev_t dev;
	ino_t ino;
};

static void
usage(FILE *f)
{
	fputs(
"usage: iostatmon import RAW --host NAME (-o LOGDIR | --out FILE) [OPTIONS]\n"
"Convert a raw capture (\"T <unix-seconds>\" lines, each followed by the\n"
"/proc/diskstats of that instant) into an iostatmon log.\n"
"\n"
"  --host NAME           the server the capture comes from (required)\n"
"  -o, --log-dir DIR     write iostatmon-HOST-YYYYMMDD.iolog.gz per UTC day\n"
"                        (DIR and its missing parents are created)\n"
"  --out FILE            write one file\n"
"  --include GLOB        keep only devices whose name matches (repeatable)\n"
"  --exclude GLOB        drop devices whose name matches (repeatable)\n"
"  --all-devices         keep loop, ram, zram, nbd, optical and floppy\n"
"                        devices too (left out by default, as live)\n"
"  -i, --interval SEC    nominal interval, 0.001 to 86400, whole ms (default:\n"
"                        the usual T difference)\n"
"  --long-bits 32|64     the capturing kernel's long width (default 64)\n"
"  --ident FILE          the devices' identity: a tab-separated table with\n"
"                        the header device, then any of wwn, serial, model,\n"
"                        slot\n"
"  -h, --help            this help\n", f);
}

/* Open a fresh log file: the writer appends to what exists, import never
 * should (a second import of the same capture would double it). Nothing
 * at the path is used: not a file, not a link (lib/safefile). */
static struct iolog_writer *
open_log(const char *path)
{
	char err[PATH_MAX + 256];
	struct iolog_writer *w = iolog_writer_create(path, err, sizeof err);

	if (w == NULL && errno == EEXIST)
		fmt_diag(stderr, "iostatmon import", "%s: already exists; "
		    "import never appends to a log", path);
	else if (w == NULL)
		fmt_diag(stderr, "iostatmon import", "%s", err);
	return w;
}

/* The file at path, reached as lib/safedir reaches it: dev and ino. */
static int
file_id(const char *path, dev_t *dev, ino_t *ino)
{
	struct safedir d;
	struct stat st;
	char err[PATH_MAX + 256];
	int rc;

	if (safedir_open(&d, path, NULL, err, sizeof err) < 0)
		return -1;
	rc = fstatat(d.fd, d.name, &st, AT_SYMLINK_NOFOLLOW);
	if (rc == 0) {
		*dev = st.st_dev;
		*ino = st.st_ino;
	}
	safedir_close(&d);
	return rc;
}

static void
note_made(struct import *im, const char *path)
{
	struct made m = { xstrdup(path), 0, 0 };

	if (file_id(path, &m.dev, &m.ino) < 0) {
		free(m.path);
		return;
	}
	im->made = xreallocarray(im->made, im->nmade + 1, sizeof *im->made);
	im->made[im->nmade++] = m;
}

/* After a failure: remove each log this import made, when the name still
 * holds that file (relative to its directory, no link followed). */
static void
remove_made(struct import *im)
{
	for (size_t i = 0; i < im->nmade; i++) {
		struct made *m = &im->made[i];
		struct safedir d;
		struct stat st;
		char err[PATH_MAX + 256];

		if (safedir_open(&d, m->path, NULL, err, sizeof err) < 0)
			continue;
		if (fstatat(d.fd, d.name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    st.st_dev == m->dev && st.st_ino == m->ino &&
		    unlinkat(d.fd, d.name, 0) == 0)
			fprintf(stderr, "iostatmon import: %s: removed: the "
			    "import failed\n", m->path);
		safedir_close(&d);
	}
}

static void
free_made(struct import *im)
{
	for (size_t i = 0; i < im->nmade; i++)
		free(im->made[i].path);
	free(im->made);
}

/* LOGDIR and its missing parents, 0755 less the umask, made through
 * lib/safedir: no other user's link is followed on the way. 0 or -1. */
static int
make_dir(const char *dir)
{
	struct safedir_make mk = { 0755, (gid_t)-1 };
	char err[PATH_MAX + 256];
	int fd = safedir_dir(dir, &mk, err, sizeof err);

	if (fd < 0) {
		fmt_diag(stderr, "iostatmon import", "%s", err);
		return -1;
	}
	close(fd);
	return 0;
}

static void
init_header(struct import *im, uint64_t first_t)
{
	struct iolog_header *h = &im->h;

	memset(h, 0, sizeof *h);
	snprintf(h->host, sizeof h->host, "%s", im->host);
	h->long_bits = im->long_bits;
	h->interval_ms = (uint32_t)(im->interval_ns / 1000000);
	h->created_ns = first_t;
	snprintf(h->writer, sizeof h->writer, "iostatmon %s import",
	    IOCENSUS_VERSION);
}

/* Make sure the writer for the UTC day of t is open. 0 or -1. */
static int
writer_for(struct import *im, uint64_t t)
{
	char path[4096];
	int64_t day = logfiles_day(t);

	if (im->w && (im->out || day == im->day))
		return 0;
	if (im->w && iolog_writer_close(im->w) < 0) {
		fmt_diag(stderr, "iostatmon import", "closing the log of day "
		    "%" PRId64 ": %s", im->day, strerror(errno));
		im->w = NULL;
		return -1;
	}
	im->w = NULL;
	if (im->out)
		snprintf(path, sizeof path, "%s", im->out);
	else if (logfiles_path(path, sizeof path, im->dir, im->host, day) < 0) {
		fmt_diag(stderr, "iostatmon import", "%s: path too long",
		    im->dir);
		return -1;
	} else if (make_dir(im->dir) < 0)
		return -1;
	if (!(im->w = open_log(path)))
		return -1;
	note_made(im, path);
	im->day = day;
	if (!im->s) {
		init_header(im, t);
		im->s = sampler_new(im->w, &im->h);
	}
	else
		sampler_set_writer(im->s, im->w);
	return 0;
}

static int
selected(const struct import *im, const struct ds_line *l, char *why,
    size_t len)
{
	const char *g;

	if ((g = globlist_match(im->exclude, im->nexclude, l->name)) != NULL) {
		snprintf(why, len, "excluded: matches --exclude %s", g);
		return 0;
	}
	if ((g = globlist_match(im->include, im->ninclude, l->name)) != NULL) {
		snprintf(why, len, "imported: matches --include %s", g);
		return 1;
	}
	if (im->ninclude) {
		snprintf(why, len, "excluded: matches no --include");
		return 0;
	}
	if (!im->all_devices &&
	    (g = devices_never_data(l->major, l->minor, l->name)) != NULL) {
		snprintf(why, len, "excluded: %s", g);
		return 0;
	}
	snprintf(why, len, "imported: a raw capture has no sysfs to tell "
	    "local disks from data disks");
	return 1;
}

/* The monitored set for one block, in the block's order. */
static void
build_set(struct import *im, const struct ds_table *t)
{
	for (size_t i = 0; i < im->set.n; i++)
		free(im->set.d[i].reason);
	if (t->n > im->set_cap) {
		im->set_cap = t->n * 2;
		im->set.d = reallocarray(im->set.d, im->set_cap,
		    sizeof *im->set.d);
		if (!im->set.d) {
			perror("iostatmon import");
			exit(EXIT_FATAL);
		}
	}
	im->set.n = t->n;
	for (size_t i = 0; i < t->n; i++) {
		struct dev_info *d = &im->set.d[i];
		char why[256];

		const struct import_ident *id;

		memset(d, 0, sizeof *d);
		memcpy(d->name, t->dev[i].name, sizeof d->name);
		/* Borrowed: the sampler copies what it writes. */
		if ((id = import_ident_find(&im->ident, d->name)) != NULL) {
			d->nattr = id->nattr;
			d->attr = id->attr;
		}
		d->major = t->dev[i].major;
		d->minor = t->dev[i].minor;
		d->monitored = selected(im, &t->dev[i], why, sizeof why);
		d->reason = xstrdup(why);
	}
}

/* import_raw's callback: one good block. 0, or -1 to stop (fatal). */
static int
feed_block(void *arg, uint64_t t, const struct ds_table *tab)
{
	struct import *im = arg;
	struct iolog_clock c = {
		.realtime_ns = t, .monotonic_ns = t, .boottime_ns = t,
	};
	uint64_t iv = im->interval_ns;
	size_t n;

	if (im->prev_t && t - im->prev_t > iv + iv / 2) {
		c.flags |= IOLOG_GAP;
		c.missed = (t - im->prev_t + iv / 2) / iv - 1;
	}
	build_set(im, tab);
	if ((n = sampler_monitored(tab, &im->set)) > IOLOG_NDEV_MAX) {
		fprintf(stderr, "iostatmon import: %s: the sample at T %" PRIu64
		    " has %zu devices to import; a log holds at most %d in one "
		    "sample (docs/iolog-format.md), and a sample is never split:"
		    " nothing imported (--include or --exclude selects fewer)\n",
		    im->raw, t / NS, n, IOLOG_NDEV_MAX);
		return -1;
	}
	if (writer_for(im, t) < 0)
		return -1;
	if (sampler_feed(im->s, tab, &im->set, &c) < 0) {
		fmt_diag(stderr, "iostatmon import", "writing the log: %s",
		    strerror(errno));
		return -1;
	}
	im->prev_t = t;
	return 0;
}

static int
parse_args(struct import *im, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "host", required_argument, NULL, 'H' },
		{ "log-dir", required_argument, NULL, 'o' },
		{ "out", required_argument, NULL, 'O' },
		{ "include", required_argument, NULL, 'n' },
		{ "exclude", required_argument, NULL, 'x' },
		{ "all-devices", no_argument, NULL, 'A' },
		{ "interval", required_argument, NULL, 'i' },
		{ "long-bits", required_argument, NULL, 'L' },
		{ "ident", required_argument, NULL, 'I' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":ho:i:", longopts, NULL)) !=
	    -1) {
		switch (c) {
		case 'H': im->host = optarg; break;
		case 'A': im->all_devices = 1; break;
		case 'o': im->dir = optarg; break;
		case 'O': im->out = optarg; break;
		case 'I': im->ident_path = optarg; break;
		case 'n':
			if (im->ninclude == MAX_GLOBS)
				goto too_many;
			im->include[im->ninclude++] = optarg;
			break;
		case 'x':
			if (im->nexclude == MAX_GLOBS)
				goto too_many;
			im->exclude[im->nexclude++] = optarg;
			break;
		case 'i':
			if (interval_parse("iostatmon import", optarg, 1,
			    &im->interval_ns) < 0)
				return -1;
			break;
		case 'L':
			im->long_bits = strcmp(optarg, "32") == 0 ? 32 :
			    strcmp(optarg, "64") == 0 ? 64 : 0;
			if (im->long_bits == 0) {
				fmt_diag(stderr, "iostatmon import",
				    "--long-bits %s: expected 32 or 64", optarg);
				return -1;
			}
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			suggest_getopt("iostatmon import", c, argv[optind - 1],
			    optopt, longopts);
			return -1;
		}
	}
	if (optind != argc - 1 || !im->host || !*im->host ||
	    !im->dir == !im->out) {
		fmt_diag(stderr, "iostatmon import", "need one RAW file, "
		    "--host NAME, and one of -o LOGDIR or --out FILE");
		usage(stderr);
		return -1;
	}
	if (strlen(im->host) > (im->dir ? LOGFILE_HOST_MAX :
	    sizeof im->h.host - 1)) {
		fmt_diag(stderr, "iostatmon import", "--host %s: longer than "
		    "the %zu bytes %s", im->host,
		    im->dir ?
		    (size_t)LOGFILE_HOST_MAX : sizeof im->h.host - 1,
		    im->dir ?
		    "a log file's name holds (-o)" : "a log holds");
		return -1;
	}
	im->raw = argv[optind];
	return 0;
too_many:
	fmt_diag(stderr, "iostatmon import", "at most %d --include/--exclude",
	    MAX_GLOBS);
	return -1;
}

int
import_cmd(int argc, char **argv)
{
	struct import im = { .long_bits = 64 };
	struct raw_stats st;
	int rc, status = 0;

	if (parse_args(&im, argc, argv) < 0)
		return EXIT_USAGE;
	if (im.ident_path && (import_ident_read(im.ident_path, &im.ident) < 0
	    || im.ident.bad > 0))
		im.ident_bad = 1;
	rc = import_raw_scan(im.raw, &st);
	if (rc < 0) {
		import_ident_free(&im.ident);
		return EXIT_FATAL;
	}
	if (!im.interval_ns)
		im.interval_ns = st.usual_step ? st.usual_step : 60 * NS;
	rc = import_raw_read(im.raw, feed_block, &im, &st);
	if (rc < 0)
		status = EXIT_FATAL;
	else if (st.skipped_lines || st.skipped_blocks || im.ident_bad)
		status = EXIT_SKIPPED;
	if (im.w && iolog_writer_close(im.w) < 0) {
		fmt_diag(stderr, "iostatmon import", "closing the log: %s",
		    strerror(errno));
		status = EXIT_FATAL;
	}
	if (status == EXIT_FATAL)
		remove_made(&im);
	free_made(&im);
	if (im.s)
		sampler_free(im.s);
	for (size_t i = 0; i < im.set.n; i++)
		free(im.set.d[i].reason);
	free(im.set.d);
	import_ident_free(&im.ident);
	if (status != EXIT_FATAL && st.blocks == 0) {
		fmt_diag(stderr, "iostatmon import", "%s: no sample found (a "
		    "sample is a \"T <unix-seconds>\" line followed by "
		    "diskstats lines); nothing imported", im.raw);
		status = EXIT_FATAL;
	}
	return status;
}
