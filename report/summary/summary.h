/*
 * summary: the report's opening page.
 */
#ifndef IOCENSUS_SUMMARY_H
#define IOCENSUS_SUMMARY_H

#include <stddef.h>
#include <stdint.h>

#include "result/result.h"

/* Where the red list looks ahead to: the window's end (window: --to or
 * --quarter given; else the latest point shown, INT64_MIN for none)
 * plus horizon days. */
struct summary_opts {
	int64_t end;
	int64_t horizon;
	int window;
};

/* The findings of the other results, most urgent first, as short tables:
 * the red list (projects over their limit and file systems full, or
 * reaching it before end + horizon), each file system's device once, cold data, the top growers,
 * I/O headroom and the busiest hosts. It reads their tables (by table
 * and column key) and copies cells; it computes nothing new. */
struct result *summary_page(struct result *const *parts, size_t nparts,
    const struct summary_opts *o);

#endif
