/*
 * prune_int: the parts of the room (prune.h).
 *
 *   prune_policy.c  which snapshots the rules keep, and why: pure, a list
 *                   of snapshots in, a decision for each out
 *   prune_delete.c  the removal of snapshots, with every row that belongs
 *                   to them, inside the caller's transaction
 *   prune_forget.c  `iocensus forget`
 *   prune.c         `iocensus prune`: the policy on the database, the
 *                   removal, the compaction
 */
#ifndef IOCENSUS_PRUNE_INT_H
#define IOCENSUS_PRUNE_INT_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#include "opts/opts.h"

/* What a snapshot is to the policy. */
enum prune_state {
	PRUNE_COMPLETE,		/* status complete */
	PRUNE_RUNNING,		/* status running: a scan may still write it */
	PRUNE_UNFINISHED	/* interrupted or failed */
};

/* Why a snapshot is kept (bits; none: it goes). */
enum {
	PRUNE_NEWEST = 1u << 0,		/* its file system's newest complete */
	PRUNE_RULE = 1u << 1,		/* PRUNE_RULE << p: the rule of period
					   p (enum opts_period) */
	PRUNE_RUN = 1u << (1 + OPTS_NPERIOD),	/* running */
	PRUNE_LATER = 1u << (2 + OPTS_NPERIOD)	/* unfinished, but newer than
						   the newest complete (or
						   there is none) */
};

struct prune_item {
	int64_t id;
	const char *fs;
	int64_t t;		/* started_at: the snapshot's time */
	enum prune_state state;
	unsigned why;		/* out: PRUNE_* bits, 0 when it goes */
};

/* Decide for each of the n items (any order): per file system, newest
 * first (by time, then id), each rule p with keep[p] > 0 keeps the newest
 * complete snapshot of each of its keep[p] most recent periods that have
 * one; the newest complete snapshot is always kept; unfinished snapshots
 * older than it go, running ones stay. */
void prune_policy(struct prune_item *it, size_t n,
    const uint32_t keep[OPTS_NPERIOD]);

/* The period of kind p that holds time t, as a number that grows with
 * time (UTC). */
int64_t prune_policy_period(enum opts_period p, int64_t t);
/* Its name: "2026-06-01", "2026-W22" (ISO 8601 week-numbering year),
 * "2026-06", "2026Q2". */
const char *prune_policy_label(enum opts_period p, int64_t t, char *buf,
    size_t len);

/* Remove the snapshots ids (n of them, known to exist) and every row of
 * every table that holds a snapshot_id, inside the caller's transaction:
 * the rows go by the foreign keys' ON DELETE CASCADE, which is checked
 * first to hold for every such table, after PRAGMA quick_check has
 * found the database intact (else nothing is changed, and err names the
 * database and the damage). rows[i]: the rows that went with
 * ids[i]; *ntables the tables they were in. 0, or -1 with err (the caller
 * rolls back). */
int prune_delete(sqlite3 *db, const int64_t *ids, size_t n, uint64_t *rows,
    size_t *ntables, char *err, size_t errlen);

#endif
