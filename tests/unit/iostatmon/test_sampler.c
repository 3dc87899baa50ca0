/*
 * test_sampler: epochs, tables and members, with hand-computed fixtures
 * (the per-field arithmetic is in test_delta.c). The sampler writes real
 * frames, read back with the reader and rendered as one line per frame:
 *	H boot=B | T id:name ... | K#seq f=flags dev{field=value,...} ...
 *	S#seq f=flags dev{...} | dev:absent | dev:reset{...}
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "iolog/iolog.h"
#include "sampler.h"
#include "tap.h"

#define SEC 1000000000ULL
#define F14 0x7ffu		/* fields of a 14-column line */

/* ---- sampler through the real writer and reader ---- */

static struct ds_table tab;

static uint64_t *
line(const char *name, uint32_t major, uint32_t minor)
{
	struct ds_line *l;

	if (tab.n == tab.cap) {
		tab.cap = tab.cap ? tab.cap * 2 : 8;
		tab.dev = realloc(tab.dev, tab.cap * sizeof *tab.dev);
	}
	l = &tab.dev[tab.n++];
	memset(l, 0, sizeof *l);
	snprintf(l->name, sizeof l->name, "%s", name);
	l->major = major;
	l->minor = minor;
	l->ncols = 14;
	l->mask = F14;
	return l->v;
}

static void
rd(uint64_t *v, uint64_t rd_ios, uint64_t wr_ios)
{
	v[DS_RD_IOS] = rd_ios;
	v[DS_WR_IOS] = wr_ios;
}

/* Append the frames of path, rendered, to out. */
static void
render(const char *path, char *out, size_t len)
{
	char err[512];
	struct iolog_reader *r = iolog_reader_open(path, err, sizeof err);
	struct iolog_event ev;
	size_t o = 0;

	out[0] = '\0';
	if (r == NULL) {
		snprintf(out, len, "open failed: %s", err);
		return;
	}
#define PUT(...) (o += (size_t)snprintf(out + o, o < len ? len - o : 0, __VA_ARGS__))
	while (iolog_next(r, &ev) > 0 && o < len) {
		switch (ev.type) {
		case IOLOG_EV_HEADER:
			PUT("H boot=%s\n", ev.header->boot_id);
			break;
		case IOLOG_EV_TABLE:
			PUT("T");
			for (size_t j = 0; j < ev.ndev; j++)
				PUT(" %llu:%s", (unsigned long long)ev.dev[j].id,
				    ev.dev[j].name);
			PUT("\n");
			break;
		case IOLOG_EV_KEYFRAME:
		case IOLOG_EV_SAMPLE:
			PUT("%c#%llu f=%u", ev.type == IOLOG_EV_SAMPLE ? 'S' : 'K',
			    (unsigned long long)ev.clock->seq, ev.clock->flags);
			for (size_t j = 0; j < ev.ndev; j++) {
				const struct iolog_val *v = &ev.val[j];
				const char *sep = "";

				PUT(" %s%s", ev.dev[j].name, ev.type ==
				    IOLOG_EV_KEYFRAME ? "{" : v->state ==
				    IOLOG_ABSENT ? ":absent" : v->state ==
				    IOLOG_RESET ? ":reset{" : "{");
				if (ev.type == IOLOG_EV_SAMPLE &&
				    v->state == IOLOG_ABSENT)
					continue;
				for (int f = 0; f < DS_FIELDS; f++) {
					if (!(v->mask >> f & 1))
						continue;
					PUT("%s%s=%llu", sep,
					    diskstats_field_name(f),
					    (unsigned long long)v->v[f]);
					sep = ",";
				}
				PUT("}");
			}
			PUT("\n");
			break;
		case IOLOG_EV_DAMAGE:
			PUT("DAMAGE %s\n", ev.reason);
			break;
		}
	}
#undef PUT
	iolog_reader_close(r);
}

static struct iolog_clock
clk(uint64_t sec)
{
	struct iolog_clock c = { 0 };

	c.realtime_ns = 1795219200ULL * SEC + sec * SEC;	/* 2026-11-21 */
	c.monotonic_ns = 1000 * SEC + sec * SEC;
	c.boottime_ns = c.monotonic_ns;
	return c;
}

static struct iolog_header
hdr(const char *boot)
{
	struct iolog_header h = { 0 };

	snprintf(h.host, sizeof h.host, "test");
	snprintf(h.boot_id, sizeof h.boot_id, "%s", boot);
	h.long_bits = 64;
	h.interval_ms = 60000;
	return h;
}

static struct iolog_writer *
wopen(const char *path)
{
	char err[512];
	struct iolog_writer *w;

	unlink(path);
	w = iolog_writer_open(path, NULL, err, sizeof err);
	if (w == NULL) {
		printf("# %s\n", err);
		exit(1);
	}
	return w;
}

static char dir[] = "/tmp/test_sampler.XXXXXX";

static void
path_of(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", dir, name);
}

/* Devices come and go; counters reset; identities change. No dev_set. */
static void
test_churn(void)
{
	char path[256], got[8192];
	struct iolog_header h = hdr("boot-a");
	struct iolog_writer *w;
	struct sampler *s;
	struct iolog_clock c;

	path_of(path, sizeof path, "churn.iolog.gz");
	w = wopen(path);
	s = sampler_new(w, &h);
	tab.n = 0;
	rd(line("sda", 8, 0), 100, 5);
	rd(line("sdb", 8, 16), 7, 0);
	c = clk(0);
	sampler_feed(s, &tab, NULL, &c);
	tab.n = 0;			/* +3 reads; sdb idle */
	rd(line("sda", 8, 0), 103, 5);
	rd(line("sdb", 8, 16), 7, 0);
	c = clk(60);
	sampler_feed(s, &tab, NULL, &c);
	tab.n = 0;			/* sdb removed */
	rd(line("sda", 8, 0), 104, 6);
	c = clk(120);
	sampler_feed(s, &tab, NULL, &c);
	tab.n = 0;			/* sdb back, counters from 0 */
	rd(line("sda", 8, 0), 104, 6);
	rd(line("sdb", 8, 16), 2, 1);
	c = clk(180);
	sampler_feed(s, &tab, NULL, &c);
	tab.n = 0;			/* sda counters drop (64-bit): reset */
	rd(line("sda", 8, 0), 4, 0);
	rd(line("sdb", 8, 16), 5, 1);
	c = clk(240);
	sampler_feed(s, &tab, NULL, &c);
	tab.n = 0;			/* sdb now 8:32: another device */
	rd(line("sda", 8, 0), 6, 0);
	rd(line("sdb", 8, 32), 1, 0);
	c = clk(300);
	sampler_feed(s, &tab, NULL, &c);
	sampler_free(s);
	ok(iolog_writer_close(w) == 0, "churn: writer closed");
	render(path, got, sizeof got);
	is_str(got,
	    "H boot=boot-a\n"
	    "T 0:sda 1:sdb\n"
	    "K#0 f=0 sda{rd_ios=100,wr_ios=5} sdb{rd_ios=7}\n"
	    "S#1 f=0 sda{rd_ios=3} sdb{}\n"
	    "S#2 f=0 sda{rd_ios=1,wr_ios=1} sdb:absent\n"
	    "T 0:sda\n"
	    "K#2 f=0 sda{rd_ios=104,wr_ios=6}\n"
	    "S#3 f=0 sda{}\n"
	    "T 0:sda 2:sdb\n"
	    "K#3 f=0 sda{rd_ios=104,wr_ios=6} sdb{rd_ios=2,wr_ios=1}\n"
	    "S#4 f=0 sda:reset{rd_ios=4} sdb{rd_ios=3}\n"
	    "S#5 f=0 sda{rd_ios=2} sdb:absent\n"
	    "T 0:sda 3:sdb\n"
	    "K#5 f=0 sda{rd_ios=6} sdb{rd_ios=1}\n",
	    "churn: removal, re-add, reset, changed major:minor");
}

static struct dev_info *
info(struct dev_set *set, const char *name, uint32_t major, uint32_t minor,
    int monitored, uint64_t diskseq)
{
	struct dev_info *d;

	set->d = realloc(set->d, (set->n + 1) * sizeof *set->d);
	d = &set->d[set->n++];
	memset(d, 0, sizeof *d);
	snprintf(d->name, sizeof d->name, "%s", name);
	d->major = major;
	d->minor = minor;
	d->monitored = monitored;
	d->diskseq = diskseq;
	d->reason = strdup(monitored ? "data" : "excluded");
	return d;
}

static void
set_attr(struct dev_info *d, const char *key, const char *value)
{
	d->attr = realloc(d->attr, (d->nattr + 1) * sizeof *d->attr);
	d->attr[d->nattr].key = strdup(key);
	d->attr[d->nattr].value = strdup(value);
	d->nattr++;
}

static void
free_set(struct dev_set *set)
{
	for (size_t i = 0; i < set->n; i++) {
		for (size_t k = 0; k < set->d[i].nattr; k++) {
			free(set->d[i].attr[k].key);
			free(set->d[i].attr[k].value);
		}
		free(set->d[i].attr);
		free(set->d[i].reason);
	}
	free(set->d);
	set->d = NULL;
	set->n = 0;
}

/* Decisions: NVMe hidden paths, zero-size partitions, a reused dm minor,
 * a changed diskseq, a reboot and a rotation. */
static void
test_decisions(void)
{
	char path[256], path2[256], got[8192];
	struct iolog_header h = hdr("boot-a");
	struct iolog_writer *w, *w2;
	struct dev_set set = { 0 };
	struct sampler *s;
	struct iolog_clock c;

	path_of(path, sizeof path, "dec.iolog.gz");
	path_of(path2, sizeof path2, "dec2.iolog.gz");
	w = wopen(path);
	s = sampler_new(w, &h);
	/* nvme0n1 counts; its hidden paths are 0:0 and not monitored. */
	tab.n = 0;
	rd(line("nvme0c0n1", 0, 0), 9, 9);
	rd(line("nvme0c1n1", 0, 0), 9, 9);
	rd(line("nvme0n1", 259, 0), 18, 18);
	rd(line("dm-3", 253, 3), 50, 0);
	info(&set, "nvme0c0n1", 0, 0, 0, 0);
	info(&set, "nvme0c1n1", 0, 0, 0, 0);
	info(&set, "nvme0n1", 259, 0, 1, 11);
	set_attr(info(&set, "dm-3", 253, 3, 1, 0), "dm_name", "vg-old");
	c = clk(0);
	sampler_feed(s, &tab, &set, &c);
	/* A zero-size partition appears, excluded: no table change. */
	tab.n = 0;
	rd(line("nvme0c0n1", 0, 0), 10, 9);
	rd(line("nvme0c1n1", 0, 0), 9, 9);
	rd(line("nvme0n1", 259, 0), 19, 18);
	rd(line("nvme0n1p1", 259, 1), 0, 0);
	rd(line("dm-3", 253, 3), 51, 0);
	free_set(&set);
	info(&set, "nvme0c0n1", 0, 0, 0, 0);
	info(&set, "nvme0c1n1", 0, 0, 0, 0);
	info(&set, "nvme0n1", 259, 0, 1, 11);
	info(&set, "nvme0n1p1", 259, 1, 0, 11);
	set_attr(info(&set, "dm-3", 253, 3, 1, 0), "dm_name", "vg-old");
	sampler_devices_changed(s);
	c = clk(60);
	sampler_feed(s, &tab, &set, &c);
	/* The partition goes again; dm-3 is a new map on the same minor
	 * (dm_name changed, counters 0 -> 2); nvme0n1 got a new diskseq. */
	tab.n = 0;
	rd(line("nvme0c0n1", 0, 0), 10, 9);
	rd(line("nvme0c1n1", 0, 0), 9, 9);
	rd(line("nvme0n1", 259, 0), 1, 0);
	rd(line("dm-3", 253, 3), 2, 0);
	free_set(&set);
	info(&set, "nvme0c0n1", 0, 0, 0, 0);
	info(&set, "nvme0c1n1", 0, 0, 0, 0);
	info(&set, "nvme0n1", 259, 0, 1, 12);
	set_attr(info(&set, "dm-3", 253, 3, 1, 0), "dm_name", "vg-new");
	sampler_devices_changed(s);
	c = clk(120);
	sampler_feed(s, &tab, &set, &c);
	/* Crossing the hour: a keyframe after the sample. */
	tab.n = 0;
	rd(line("nvme0c0n1", 0, 0), 10, 9);
	rd(line("nvme0c1n1", 0, 0), 9, 9);
	rd(line("nvme0n1", 259, 0), 3, 0);
	rd(line("dm-3", 253, 3), 2, 0);
	c = clk(3600);
	sampler_feed(s, &tab, &set, &c);
	/* Rotation: the new file starts with a keyframe of the last read. */
	w2 = wopen(path2);
	sampler_set_writer(s, w2);
	ok(iolog_writer_close(w) == 0, "decisions: first writer closed");
	tab.n = 0;
	rd(line("nvme0c0n1", 0, 0), 10, 9);
	rd(line("nvme0c1n1", 0, 0), 9, 9);
	rd(line("nvme0n1", 259, 0), 7, 0);
	rd(line("dm-3", 253, 3), 2, 0);
	c = clk(3660);
	sampler_feed(s, &tab, &set, &c);
	render(path, got, sizeof got);
	is_str(got,
	    "H boot=boot-a\n"
	    "T 0:nvme0n1 1:dm-3\n"
	    "K#0 f=0 nvme0n1{rd_ios=18,wr_ios=18} dm-3{rd_ios=50}\n"
	    "S#1 f=0 nvme0n1{rd_ios=1} dm-3{rd_ios=1}\n"
	    "S#2 f=0 nvme0n1:absent dm-3:absent\n"
	    "T 2:nvme0n1 3:dm-3\n"
	    "K#2 f=0 nvme0n1{rd_ios=1} dm-3{rd_ios=2}\n"
	    "S#3 f=0 nvme0n1{rd_ios=2} dm-3{}\n"
	    "K#3 f=0 nvme0n1{rd_ios=3} dm-3{rd_ios=2}\n",
	    "decisions: hidden paths, zero-size partition, dm reuse, diskseq, "
	    "hourly keyframe");

	/* Reboot: new boot_id, counters drop. New member, no interval. */
	w = wopen(path);
	h = hdr("boot-b");
	sampler_set_header(s, &h);
	sampler_set_writer(s, w);
	ok(iolog_writer_close(w2) == 0, "decisions: second writer closed");
	render(path2, got, sizeof got);
	is_str(got,
	    "H boot=boot-a\n"
	    "T 2:nvme0n1 3:dm-3\n"
	    "K#0 f=0 nvme0n1{rd_ios=3} dm-3{rd_ios=2}\n"
	    "S#1 f=0 nvme0n1{rd_ios=4} dm-3{}\n",
	    "rotation: new member keeps the interval across files");
	tab.n = 0;
	rd(line("nvme0c0n1", 0, 0), 0, 0);
	rd(line("nvme0c1n1", 0, 0), 0, 0);
	rd(line("nvme0n1", 259, 0), 1, 0);
	rd(line("dm-3", 253, 3), 0, 0);
	c = clk(10);	/* monotonic restarted */
	sampler_feed(s, &tab, &set, &c);
	tab.n = 0;
	rd(line("nvme0c0n1", 0, 0), 0, 0);
	rd(line("nvme0c1n1", 0, 0), 0, 0);
	rd(line("nvme0n1", 259, 0), 5, 0);
	rd(line("dm-3", 253, 3), 1, 0);
	c = clk(60);
	sampler_feed(s, &tab, &set, &c);
	sampler_free(s);
	ok(iolog_writer_close(w) == 0, "reboot: writer closed");
	render(path, got, sizeof got);
	is_str(got,
	    "H boot=boot-b\n"
	    "T 4:nvme0n1 5:dm-3\n"
	    "K#0 f=16 nvme0n1{rd_ios=1} dm-3{}\n"
	    "S#1 f=0 nvme0n1{rd_ios=4} dm-3{rd_ios=1}\n",
	    "reboot: new member flagged new boot, no interval across it");
	free_set(&set);
}

/* Attributes and reason go into the table; the sampler copies them. */
static void
test_attrs(void)
{
	char path[256], err[512];
	struct iolog_header h = hdr("boot-a");
	struct iolog_writer *w;
	struct dev_set set = { 0 };
	struct sampler *s;
	struct iolog_clock c = clk(0);
	struct iolog_reader *r;
	struct iolog_event ev;
	int seen = 0;

	path_of(path, sizeof path, "attr.iolog.gz");
	w = wopen(path);
	s = sampler_new(w, &h);
	tab.n = 0;
	rd(line("sdc", 8, 32), 1, 1);
	set_attr(info(&set, "sdc", 8, 32, 1, 3), "wwid", "naa.5000c500a1b2c3d4");
	sampler_feed(s, &tab, &set, &c);
	free_set(&set);		/* the sampler must not point into it */
	c = clk(60);
	sampler_feed(s, &tab, NULL, &c);
	sampler_free(s);
	iolog_writer_close(w);
	r = iolog_reader_open(path, err, sizeof err);
	while (r && iolog_next(r, &ev) > 0) {
		if (ev.type != IOLOG_EV_TABLE || seen++)
			continue;
		is_u64(ev.ndev, 1, "attrs: one device");
		is_u64(ev.dev[0].diskseq, 3, "attrs: diskseq kept");
		is_u64(ev.dev[0].nattr, 2, "attrs: wwid and reason");
		if (ev.dev[0].nattr == 2) {
			is_str(ev.dev[0].attr[0].value, "naa.5000c500a1b2c3d4",
			    "attrs: wwid value");
			is_str(ev.dev[0].attr[1].key, "reason", "attrs: reason key");
			is_str(ev.dev[0].attr[1].value, "data", "attrs: reason");
		}
	}
	ok(r != NULL && seen == 2, "attrs: set to NULL (diskseq 0) is a new "
	    "table");
	iolog_reader_close(r);
}

int
main(void)
{
	char cmd[300];

	if (mkdtemp(dir) == NULL)
		return 1;
	test_churn();
	test_decisions();
	test_attrs();
	free(tab.dev);
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", dir);
	return tap_end();
}
