/*
 * prune: the lifecycle of snapshots. `iocensus forget ID...` removes
 * snapshots by id; `iocensus prune --keep-daily N ...` removes those no
 * retention rule keeps, as backup tools prune (docs/iocensus.1). Both
 * follow the contract of opts/opts.h (a struct opts in, a struct result
 * out, or NULL with err; FMT_USAGE for the request's errors) and change
 * the database in one transaction, on a connection that may write it.
 */
#ifndef IOCENSUS_PRUNE_H
#define IOCENSUS_PRUNE_H

#include <stddef.h>

#include <sqlite3.h>

#include "opts/opts.h"
#include "result/result.h"

/* Remove snapshots o->ids (o->nids of them) and every row that belongs to
 * them. An unknown id, or one still running without o->force, is
 * refused, and nothing is removed. */
struct result *prune_forget(sqlite3 *db, const struct opts *o, char *err,
    size_t errlen);

/* Keep, per file system (o->fs: only that one), the snapshots the rules
 * o->keep keep, remove the others (none with o->dry_run), and then
 * compact the database when a quarter of it or more is free. The result
 * says what became of each snapshot and why. */
struct result *prune_run(sqlite3 *db, const struct opts *o, char *err,
    size_t errlen);

#endif
