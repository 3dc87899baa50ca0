/*
 * ingest_store_int: the writer's state, shared by ingest_store.c (the source's
 * transaction, hosts, devices, source and damage rows) and
 * ingest_chunks.c (samples into hour chunks, dirty hours).
 */
#ifndef IOCENSUS_INGEST_STORE_INT_H
#define IOCENSUS_INGEST_STORE_INT_H

#include "ingest_int.h"

struct chunk_ref {
	int64_t id, t0;
};

struct idset {
	int64_t *v;
	size_t n, cap;
};

enum { Q_HOST, Q_WIDEN, Q_DEV, Q_RANGE, Q_SPAN, Q_GET, Q_INS, Q_UPD, Q_DIRTY,
	Q_SOURCE, Q_DAMAGE, Q_QUAR, Q_QPROBE, Q_QDEL, Q_IDENT, NQ };

/* The hours a device has chunks in, as far as the writer knows: loaded
 * from the database the first time the device comes up, then widened by
 * every hour written (a rolled-back write leaves it too wide, which only
 * costs a query). */
enum { SPAN_UNKNOWN, SPAN_EMPTY, SPAN_SET };
struct dev_span {
	int state;
	int64_t lo, hi;		/* first and last chunk hour */
};

/* ingest_ckpt.c: checkpoints in a thread while ingesting (NULL: not
 * possible, SQLite's automatic checkpoints stay). */
struct ckpt;
struct ckpt *ingest_ckpt_start(sqlite3 *db);
void ingest_ckpt_stop(struct ckpt *c);

struct store {
	sqlite3 *db;
	struct ckpt *ckpt;
	sqlite3_stmt *q[NQ];		/* ingest_store.c's sql[] */
	int old_cache;
	struct iochunk chunk;
	struct iochunk_scratch scratch;
	struct chunk_ref *have;		/* a device's chunks in range */
	size_t nhave, havecap;
	struct idset hours;		/* dirty hours of the source */
	struct idset dirty;		/* hours in io_dirty, committed */
	struct dev_span *span;		/* by device id */
	size_t nspan;
	int64_t *devid;			/* per device of the source */
	size_t devidcap;
	struct idset hosts, devs;	/* distinct ids committed */
};

/* Add id to a sorted set of distinct ids; is it there? */
void ingest_idset_add(struct idset *s, int64_t id);
int ingest_idset_has(const struct idset *s, int64_t id);

/* Merge a device's (sorted, unique, prepared: ingest_prep.c) samples,
 * whose encoded rows are in enc, into its chunks; the hours
 * that changed are remembered for ingest_chunks_dirty(). 0, or -1 with err. */
int ingest_chunks_dev(struct store *st, int64_t dev_id, const struct src_dev *d,
    const char *enc, struct store_stats *out, char *err, size_t errlen);
/* ingest_quar.c: the source's quarantined samples into io_quarantine
 * (a set: a sample already there stays); its plausible samples out of
 * it (released: stored with the others), counted in out->released. 0
 * or -1. */
int ingest_quar_store(struct store *st, const struct src *s,
    struct store_stats *out);

/* ingest_ident.c: the identities of the source's device i, stored as
 * device dev_id's (a set: each row widened to the times it spans). 0
 * or -1. */
int ingest_ident_store(struct store *st, int64_t dev_id,
    const struct src_dev *d);

/* Mark the remembered hours dirty (those not already committed as
 * dirty by an earlier source). 0 or -1. */
int ingest_chunks_dirty(struct store *st);
/* After the commit: the remembered hours are in io_dirty for good. */
void ingest_chunks_dirty_committed(struct store *st);

#endif
