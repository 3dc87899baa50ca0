/*
 * ingest_store: the writer's state, shared by ingest_store.c (the source's
 * transaction, hosts, devices, source and damage rows) and
 * ingest_chunks.c (samples into hour chunks, dirty hours).
 */
#ifndef IOCENSUS_INGEST_STORE_H
#define IOCENSUS_INGEST_STORE_H

#include "ingest_int.h"

struct chunk_ref {
	int64_t id, t0;
};

struct idset {
	int64_t *v;
	size_t n, cap;
};

enum { Q_HOST, Q_DEV, Q_RANGE, Q_GET, Q_INS, Q_UPD, Q_DIRTY, Q_SOURCE,
	Q_DAMAGE, NQ };

struct store {
	sqlite3 *db;
	sqlite3_stmt *q[NQ];		/* ingest_store.c's sql[] */
	int old_cache;
	struct iochunk chunk;
	struct iochunk_scratch scratch;
	struct chunk_ref *have;		/* a device's chunks in range */
	size_t nhave, havecap;
	struct idset hours;		/* dirty hours of the source */
	int64_t *devid;			/* per device of the source */
	size_t devidcap;
	struct idset hosts, devs;	/* distinct ids committed */
};

/* Add id to a sorted set of distinct ids. */
void idset_add(struct idset *s, int64_t id);

/* Merge a device's (sorted, unique) samples into its chunks; the hours
 * that changed are remembered for store_dirty(). 0, or -1 with err. */
int store_dev(struct store *st, int64_t dev_id, const struct src_dev *d,
    struct store_stats *out, char *err, size_t errlen);
/* Mark the remembered hours dirty. 0 or -1. */
int store_dirty(struct store *st);

#endif
