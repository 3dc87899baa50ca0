/*
 * import_raw: the reader of raw diskstats captures for `iostatmon import`:
 * "T <unix-seconds>" lines, each followed by the /proc/diskstats lines of
 * that instant. Malformed lines and blocks are reported with file and line
 * number and skipped; nothing else is lost.
 */
#ifndef IOSTATMON_IMPORT_RAW_H
#define IOSTATMON_IMPORT_RAW_H

#include <stddef.h>
#include <stdint.h>

#include "diskstats.h"

struct raw_stats {
	uint64_t usual_step;	/* most common T difference in ns; 0: unknown */
	size_t blocks;		/* blocks delivered */
	size_t skipped_blocks, skipped_lines;
};

/* Pre-pass over the T lines only, for the usual step. Path "-" (stdin)
 * cannot be read twice: st->usual_step stays 0. 0, or -1 with a message. */
int import_raw_scan(const char *path, struct raw_stats *st);

/* Called once per good block, in file order, with T in ns; a non-zero
 * return stops the read and is returned. */
typedef int (*raw_block_fn)(void *arg, uint64_t t_ns,
    const struct ds_table *t);

/* Read path ("-": stdin) block by block. 0, or -1 (the file cannot be
 * read: message printed), or fn's non-zero return. */
int import_raw_read(const char *path, raw_block_fn fn, void *arg,
    struct raw_stats *st);

#endif
