/*
 * summary: the report's opening page.
 */
#ifndef IOCENSUS_SUMMARY_H
#define IOCENSUS_SUMMARY_H

#include <stddef.h>

#include "result/result.h"

/* Capacity, files, growth, projected dates, busiest projects,
 * burstiness, drawn from the results of the questions (it reads their
 * tables; it computes nothing new). */
struct result *summary_page(struct result *const *parts, size_t nparts);

#endif
