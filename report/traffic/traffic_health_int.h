/*
 * traffic_health_int: the parts of `iocensus health` (docs/analyses.md,
 * "Device health"). Private to traffic/.
 *
 *  - traffic_kind.c: a device's kind from its kernel name, and what an
 *    aggregate over devices of that kind counts;
 *  - traffic_health_cmp.c: one hour of a device (or of a host's devices
 *    of one kind) against its peers' hours;
 *  - traffic_health_track.c: the hours of one device or host in time
 *    order: since when it is slow, and the verdict;
 *  - traffic_health_run.c: the hours of a window, device by device and
 *    host by host;
 *  - traffic_health_fig.c: the figure of each slow device;
 *  - traffic_health.c: the question, its tables and notes, and the
 *    metric family.
 */
#ifndef IOCENSUS_TRAFFIC_HEALTH_INT_H
#define IOCENSUS_TRAFFIC_HEALTH_INT_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#include "traffic.h"
#include "query/query.h"
#include "result/result.h"

/* The definitions of docs/analyses.md ("Device health"). */
#define HEALTH_BUSY_MINUTES	30	/* valid minutes of a busy hour */
#define HEALTH_BUSY_IOS		1000	/* reads + writes of a busy hour */
#define HEALTH_DIR_IOS		100	/* reads (writes) for a time per
					   read (write) */
#define HEALTH_SIMILAR		2	/* similar: within this factor */
#define HEALTH_MIN_PEERS	2	/* similar busy peers of an hour
					   compared */
#define HEALTH_MIN_HOURS	6	/* busy and compared hours to call a
					   member; hours above K to call it
					   slow */

/* A kind of device by kernel name (traffic_kind.c). */
struct traffic_kind {
	const char *prefix;	/* of the kernel name: "sd", "dm-" */
	const char *kind;	/* "sd", "dm" */
	int leaf;		/* a disk or LUN, not a stack over others */
	const char *what;	/* "SCSI or SATA disk or LUN" */
};
const struct traffic_kind *traffic_kind_of(const char *name);
const char *traffic_kind_level(const struct traffic_kind *k);

/* One member's hour: a device's, or a host's devices of one kind (the
 * medians of its busy devices). Times per request and per MiB in ms; NaN
 * where there is none. */
enum { HM_RD, HM_WR, HM_TPB, HM_AWAIT, HM_IOS, HM_SIZE, HM_N };
struct health_hour {
	int busy;
	double v[HM_N];		/* ms per read, per write, per MiB read and
				   written, per request (reads and writes);
				   requests; bytes per request */
	uint64_t ms, nios;	/* rd_ms + wr_ms, reads + writes */
};

/* How a member's hour compares with its peers' hours. */
struct health_cmp {
	int compared;		/* alike, with a ratio */
	size_t npeers;		/* the other alike members */
	double slowness;	/* the least of its ratios to the peers'
				   medians */
	double med, lo, hi;	/* the peers' awaits: median, least,
				   greatest */
};

/* Room for the hours of a group of n members. */
struct health_scratch {
	double *v[HM_N];			/* n each */
	const struct health_hour **alike;	/* n */
	unsigned char *flag;			/* n */
};

/* A device's hour from its io_dev_hour row. */
void traffic_health_cmp_dev(struct health_hour *h, const struct devh_row *r);
/* A group's hour: the medians of its n members' busy hours; tmp holds n
 * doubles. */
void traffic_health_cmp_group(struct health_hour *h,
    const struct health_hour *const *m, size_t n, double *tmp);
/* Every member of a group of n against the others: out[i] for m[i]. */
void traffic_health_cmp_hour(const struct health_hour *const *m, size_t n,
    struct health_scratch *s, struct health_cmp *out);

/* The hours of one member, in time order (traffic_health_track.c). */
struct health_sums {
	uint64_t hours, above;	/* compared hours, of them above K */
	uint64_t ms, nios;	/* the member's time and requests */
	double peer_ms;		/* sum of requests x the peers' median */
};
struct health_track {
	uint64_t busy;		/* busy hours */
	uint64_t busy_ms, busy_nios;
	struct health_sums all;	/* every compared hour */
	int64_t prefix;		/* compared hours above K less those not,
				   so far */
	int64_t min_prefix;	/* prefix before the onset */
	int64_t onset;		/* the candidate onset; -1: none */
	struct health_sums since;	/* the hours from the onset */
};

enum health_verdict { HV_SLOW, HV_HEALTHY, HV_FEW_PEERS, HV_FEW_BUSY,
	HV_FEW_COMPARED, HV_TOO_SOON };

void traffic_health_track_init(struct health_track *t);
/* Hour t of the member: its hour h and, when busy, its comparison c. */
void traffic_health_track_hour(struct health_track *t, int64_t hour,
    const struct health_hour *h, const struct health_cmp *c, double k);
/* The verdict, with npeers the member's possible peers. */
enum health_verdict traffic_health_track_verdict(const struct health_track *t,
    size_t npeers);
/* The hours the verdict rests on: since the onset for HV_SLOW and
 * HV_TOO_SOON, else every compared hour. */
const struct health_sums *traffic_health_track_period(
    const struct health_track *t, enum health_verdict v);
/* "high", "medium" or "low" for HV_SLOW and HV_HEALTHY; else NULL. */
const char *traffic_health_track_confidence(const struct health_track *t,
    enum health_verdict v);

/* A window's members and their tracks (traffic_health_run.c). A group
 * is a host's devices of one kind, the peers of each other; the groups
 * of one kind, on different hosts, are the peers of each other. */
struct health_group {
	size_t host;		/* a device of it: its host's name */
	const struct traffic_kind *kind;
	size_t kind_ix;		/* its kind in health_run.kind */
	size_t *dev, n;		/* its devices (list indexes) */
};
struct health_kind {
	const struct traffic_kind *kind;
	size_t *grp, n;		/* its groups */
};
/* A slow device's figure: per compared hour, its await and its peers'. */
struct health_point {
	int64_t t;
	double await, lo, hi, med;
};
struct health_series {
	size_t n, cap;
	struct health_point *p;
};
struct health_run {
	const struct devh_list *l;
	double k;
	size_t ngroup, nkind;
	struct health_group *group;
	struct health_kind *kind;
	size_t *group_of;		/* per device */
	size_t *members, *kind_members;	/* what group and kind point into */
	struct health_track *dev;	/* per device */
	struct health_track *host;	/* per group */
	struct health_series **series;	/* per device: NULL, or its figure
					   rows (the second pass) */
	/* scratch of one hour */
	struct health_hour *dh, *gh;
	const struct health_hour **m;
	struct health_cmp *cmp;
	struct health_scratch s;
};

void traffic_health_run_init(struct health_run *r, const struct devh_list *l,
    double k);
void traffic_health_run_free(struct health_run *r);
/* The possible peers of device i (the other devices of its group), of
 * group g (the groups of its kind on other hosts), and their verdicts. */
size_t traffic_health_run_dev_peers(const struct health_run *r, size_t i);
size_t traffic_health_run_host_peers(const struct health_run *r, size_t g);
enum health_verdict traffic_health_run_dev_verdict(const struct health_run *r,
    size_t i);
enum health_verdict traffic_health_run_host_verdict(
    const struct health_run *r, size_t g);
/* Every hour of the window, tracked; with r->series set, the second pass
 * that fills them. 0, or -1 with err. */
int traffic_health_run_scan(sqlite3 *db, struct health_run *r, char *err,
    size_t errlen);

/* Per slow device of run (tracked), a second pass over the window and
 * a table and figure of its hours in r (traffic_health_fig.c). 0, or
 * -1 with err. */
int traffic_health_fig_add(sqlite3 *db, struct result *r,
    struct health_run *run, char *err, size_t errlen);

#endif
