/*
 * traffic_health_int: the parts of `iocensus health` (docs/analyses.md,
 * "Device health"). Private to traffic/.
 *
 *  - traffic_kind.c: a device's kind from its kernel name, and what an
 *    aggregate over devices of that kind counts;
 *  - traffic_health_cmp.c: one hour of a device (or of a host's devices
 *    of one kind) against its peers' hours: the load model, the ratios
 *    per direction;
 *  - traffic_health_track.c: the hours of one device or host in time
 *    order: since when each direction is slow, and the verdict;
 *  - traffic_health_min.c: the minutes of a group hour, the episodes and
 *    the onset minutes of a device;
 *  - traffic_health_run.c: the hours of a window, device by device and
 *    host by host, in two passes (hours, then minutes);
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
#define HEALTH_DIR_IOS		100	/* reads (writes) of an hour for a
					   time per read (write) */
#define HEALTH_SIMILAR		2	/* alike: request size within this
					   factor of the median */
#define HEALTH_RHO_MAX		0.9	/* alike: a share of time busy at
					   the peers' service time below
					   this */
#define HEALTH_MIN_PEERS	2	/* other alike members with a value
					   for a ratio */
#define HEALTH_MIN_HOURS	6	/* busy and compared hours to call a
					   member; hours above K in a
					   direction to call it slow */
#define HEALTH_MINUTE_IOS	20	/* reads (writes) of a minute for a
					   ratio */
#define HEALTH_EPISODE_GAP	3	/* minutes: consecutive slow minutes
					   of an episode at most this apart */
#define HEALTH_EPISODE_MINUTES	10	/* slow minutes of an episode */
#define HEALTH_EPISODES		2	/* episodes of an intermittent
					   device */
#define HEALTH_CONF_HIGH	24	/* hours for high confidence */
#define HEALTH_CONF_MEDIUM	12	/* hours for medium confidence */
#define HEALTH_SLOW_HIGH_PCT	90	/* slow, high: at least this % of
					   the period above K */
#define HEALTH_SLOW_MEDIUM_PCT	75	/* slow, medium */
#define HEALTH_OK_HIGH_PCT	10	/* healthy, high: at most this %
					   above K */
#define HEALTH_OK_MEDIUM_PCT	25	/* healthy, medium */

/* A kind of device by kernel name (traffic_kind.c). */
struct traffic_kind {
	const char *prefix;	/* of the kernel name: "sd", "dm-" */
	const char *kind;	/* "sd", "dm" */
	int leaf;		/* a disk or LUN, not a stack over others */
	const char *what;	/* "SCSI or SATA disk or LUN" */
};
const struct traffic_kind *traffic_kind_of(const char *name);
const char *traffic_kind_level(const struct traffic_kind *k);

/* The two directions, each with its own ratios and track. */
enum { HD_READ, HD_WRITE, HD_N };

/* One member's hour: a device's, or a host's devices of one kind (the
 * medians of its busy devices). Times in ms; NaN where there is none. */
enum { HM_TR, HM_BR, HM_TW, HM_BW, HM_AWAIT, HM_LOAD, HM_SVC, HM_SIZE,
	HM_N };
struct health_hour {
	int busy;
	double v[HM_N];		/* ms per read, per MiB read, per write, per
				   MiB written, per request; requests per ms
				   (load); busy ms per request (service
				   time); bytes per request */
	double ms;		/* requests x await: a device's rd_ms +
				   wr_ms */
	uint64_t ios[HD_N];	/* reads, writes */
	uint64_t nios;		/* reads + writes */
};

/* How a member's hour compares with its peers' hours. */
struct health_cmp {
	int alike;		/* alike, in a group with enough alike */
	double q;		/* the wait per service time of its load at
				   its peers' speed: 1 / (1 - rho) */
	double slow[HD_N];	/* read, write slowness; NaN: not compared
				   in that direction */
	double adj[HD_N];	/* time per read (write) / q, where the
				   ratio of it exists; else NaN */
	double peer[HD_N];	/* the peers' median of the same */
	double med, lo, hi;	/* the peers' awaits: median, least,
				   greatest */
};

/* Room for the hours of a group of n members. */
struct health_scratch {
	double *v[HM_N];			/* n each */
	const struct health_hour **alike;	/* n */
	double *q;				/* n */
};

/* A device's hour from its io_dev_hour row. */
void traffic_health_cmp_dev(struct health_hour *h, const struct devh_row *r);
/* A group's hour: the medians of its n members' busy hours; tmp holds n
 * doubles. */
void traffic_health_cmp_group(struct health_hour *h,
    const struct health_hour *const *m, size_t n, double *tmp);
/* The queue factor of load L at service time S (NaN: none): 1 / (1 -
 * L S), 1 when S is NaN; *rho gets L S (0 when S is NaN). */
double traffic_health_cmp_queue(double load, double svc, double *rho);
/* Every member of a group of n against the others: out[i] for m[i]. */
void traffic_health_cmp_hour(const struct health_hour *const *m, size_t n,
    struct health_scratch *s, struct health_cmp *out);
/* Compared (in some direction), and above K (in some direction). */
int traffic_health_cmp_compared(const struct health_cmp *c);
int traffic_health_cmp_above(const struct health_cmp *c, double k);

/* The median of sorted v[0..n) (n > 0). */
double traffic_health_cmp_median(const double *v, size_t n);
/* The median of sorted v[0..n) without one element equal to x (which is
 * in v); n >= 2. */
double traffic_health_cmp_median_without(const double *v, size_t n, double x);
/* Element i of sorted v[0..n) without one element equal to x. */
double traffic_health_cmp_without_at(const double *v, size_t n, double x,
    size_t i);
/* Sort n doubles ascending. */
void traffic_health_cmp_sort(double *v, size_t n);

/* The hours of one member, in time order (traffic_health_track.c). */
struct health_sums {
	uint64_t hours, above;	/* compared hours, of them above K */
	double ms;		/* the member's requests x await */
	uint64_t nios;		/* its requests */
	double peer_ms;		/* requests x the peers' median await */
	double fnum[HD_N], fden[HD_N];	/* reads (writes) x its adjusted
					   time per read (write), x its
					   peers' median of it */
	uint64_t fhours[HD_N];	/* hours with that ratio */
};
/* One direction's track: x = +1 for a compared hour above K, -1 for one
 * not; the onset is the hour above K with the least prefix of x before
 * it (the latest of equals). */
struct health_dir {
	int64_t prefix, min_prefix;
	int64_t onset;		/* -1: none */
	uint64_t above;		/* hours above K in it since the onset */
	struct health_sums since;	/* every compared hour from the
					   onset */
};
struct health_track {
	uint64_t busy;		/* busy hours */
	double busy_ms;
	uint64_t busy_nios;
	struct health_sums all;	/* every compared hour */
	struct health_dir dir[HD_N];
};

enum health_verdict { HV_SLOW, HV_INTERMITTENT, HV_SUSPECT, HV_HEALTHY,
	HV_FEW_PEERS, HV_FEW_BUSY, HV_FEW_COMPARED };

void traffic_health_track_init(struct health_track *t);
/* Hour t of the member: its hour h and, when busy, its comparison c. */
void traffic_health_track_hour(struct health_track *t, int64_t hour,
    const struct health_hour *h, const struct health_cmp *c, double k);
/* Direction d of the track is slow (2), suspect (1) or neither (0). */
int traffic_health_track_dir(const struct health_track *t, int d);
/* The verdict, with npeers the member's possible peers and episodes its
 * episodes in the window. */
enum health_verdict traffic_health_track_verdict(const struct health_track *t,
    size_t npeers, size_t episodes);
/* The directions the verdict names (bit d for direction d): the slow
 * ones of HV_SLOW, the suspect ones of HV_SUSPECT; else 0. */
unsigned traffic_health_track_dirs(const struct health_track *t,
    enum health_verdict v);
/* Of the directions dirs, the one with the earliest onset hour. */
int traffic_health_track_first(const struct health_track *t, unsigned dirs);
/* The hours the verdict rests on: from the earliest onset of the
 * verdict's directions for HV_SLOW and HV_SUSPECT, else every compared
 * hour. */
const struct health_sums *traffic_health_track_period(
    const struct health_track *t, enum health_verdict v);
/* "high", "medium" or "low" for HV_SLOW and HV_HEALTHY; else NULL. */
const char *traffic_health_track_confidence(const struct health_track *t,
    enum health_verdict v);

/* Minutes (traffic_health_min.c). One minute of a device in a group
 * hour: valid, and its reads and writes and their ms. */
#define HEALTH_HOUR_MINUTES	DEVH_MINUTES
struct health_minute {
	int valid;
	uint64_t ios[HD_N], ms[HD_N];
};
/* An episode: a run of slow minutes. */
struct health_episode {
	int64_t start, end;	/* unix seconds */
	unsigned dirs;		/* bit d: slow in direction d */
	uint64_t slow;		/* slow minutes */
	double factor;		/* the greatest minute ratio */
};
/* A device's minutes in time order: its episodes, and the onset minute
 * of each direction whose onset hour is known. */
struct health_mtrack {
	struct health_episode run;	/* the open run (run.slow > 0) */
	struct health_episode *ep;
	size_t nep, cap;
	int64_t hour[HD_N];		/* onset hour to refine; -1: none */
	int64_t prefix[HD_N], least[HD_N];
	int64_t onset[HD_N];		/* the onset minute; -1: none yet */
};
/* The ratios of each alike member of a group hour, minute by minute: m
 * holds n x HEALTH_HOUR_MINUTES minutes (member i's minute j at i *
 * HEALTH_HOUR_MINUTES + j), q the members' queue factors; ratio gets n x
 * HEALTH_HOUR_MINUTES x HD_N (NaN: none); tmp holds n doubles. */
void traffic_health_min_compare(const struct health_minute *m,
    const double *q, size_t n, double *tmp, double *ratio);
void traffic_health_min_init(struct health_mtrack *t, int64_t onset_read,
    int64_t onset_write);
/* Minute t of a device, with its ratios per direction. */
void traffic_health_min_add(struct health_mtrack *t, int64_t minute,
    const double ratio[HD_N], double k);
/* The window ends: close the open run. */
void traffic_health_min_end(struct health_mtrack *t);
/* The onset of direction d to the minute (its onset hour when no
 * compared minute started before its end). */
int64_t traffic_health_min_onset(const struct health_mtrack *t, int d);
void traffic_health_min_free(struct health_mtrack *t);

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
	struct health_mtrack *min;	/* per device: its minutes (the
					   second pass) */
	struct health_series **series;	/* per device: NULL, or its figure
					   rows (the second pass) */
	int second;			/* in the second pass */
	/* scratch of one hour */
	struct health_hour *dh, *gh;
	const struct health_hour **m;
	struct health_cmp *cmp;
	struct health_scratch s;
	/* scratch of one group hour's minutes */
	struct health_minute *mm;	/* most x 60 */
	double *ratio;			/* most x 60 x HD_N */
	size_t *who;			/* most: the alike members */
	double *q;			/* most */
	struct devh_minute *dm;		/* one device hour's minutes */
	struct devh_mreader *reader;
	char *err;
	size_t errlen;
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
/* Device i's episodes in the window. */
size_t traffic_health_run_episodes(const struct health_run *r, size_t i);
/* Device i's since: the earliest onset minute of its verdict's
 * directions (slow or suspect); -1 for the other verdicts. */
int64_t traffic_health_run_since(const struct health_run *r, size_t i);
/* Every hour of the window, tracked (the first pass). 0, or -1 with
 * err. */
int traffic_health_run_hours(sqlite3 *db, struct health_run *r, char *err,
    size_t errlen);
/* The second pass: the minutes of the alike devices' hours, and the
 * hours of each device with a series (r->series, when set). 0, or -1
 * with err. */
int traffic_health_run_minutes(sqlite3 *db, struct health_run *r,
    char *err, size_t errlen);

/* Per slow device of run, a series for the second pass to fill
 * (traffic_health_fig.c); after it, a table and figure of each in r. */
void traffic_health_fig_want(struct health_run *run);
void traffic_health_fig_add(struct result *r, const struct health_run *run);

#endif
