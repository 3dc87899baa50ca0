/* test_prune_policy: report/prune/prune_policy.c on calendars made by
 * hand: which snapshots each rule keeps, and why, at the ends of years
 * (ISO weeks that straddle them), across quarters, with gaps, several
 * file systems and unfinished snapshots. The expected ids and labels are
 * worked out here from the calendar (Python's date.isocalendar() agrees
 * with every week named). */
#include <stdint.h>
#include <string.h>

#include "epoch.h"
#include "prune/prune_int.h"
#include "tap.h"

#define MAXN 64

/* Unix seconds of "YYYY-MM-DD" or "YYYY-MM-DDTHH:MM". */
static int64_t
at(const char *date)
{
	int64_t t = 0;

	if (epoch_parse(date, &t) < 0)
		ok(0, "fixture date %s", date);
	return t;
}

struct cal {
	struct prune_item it[MAXN];
	size_t n;
};

static void
add(struct cal *c, int64_t id, const char *fs, const char *date,
    enum prune_state st)
{
	c->it[c->n++] = (struct prune_item){ id, fs, at(date), st, 0 };
}

/* The ids kept, ascending, as "1 4 7". */
static const char *
kept(const struct cal *c, char *buf, size_t len)
{
	size_t off = 0;
	int64_t last = 0;

	buf[0] = '\0';
	for (;;) {
		int64_t next = INT64_MAX;

		for (size_t i = 0; i < c->n; i++)
			if (c->it[i].why && c->it[i].id > last &&
			    c->it[i].id < next)
				next = c->it[i].id;
		if (next == INT64_MAX || off >= len)
			return buf;
		off += (size_t)snprintf(buf + off, len - off, "%s%lld",
		    off ? " " : "", (long long)next);
		last = next;
	}
}

static unsigned
why_of(const struct cal *c, int64_t id)
{
	for (size_t i = 0; i < c->n; i++)
		if (c->it[i].id == id)
			return c->it[i].why;
	return 0;
}

static void
run(struct cal *c, uint32_t d, uint32_t w, uint32_t m, uint32_t q)
{
	uint32_t keep[OPTS_NPERIOD] = { d, w, m, q };

	prune_policy(c->it, c->n, keep);
}

static void
labels(void)
{
	static const struct {
		enum opts_period p;
		const char *date, *want;
	} l[] = {
		{ OPTS_DAY, "2026-06-01T23:59", "2026-06-01" },
		{ OPTS_DAY, "1969-12-31T23:00", "1969-12-31" },
		{ OPTS_WEEK, "2020-12-31", "2020-W53" },
		{ OPTS_WEEK, "2021-01-03T23:59", "2020-W53" },
		{ OPTS_WEEK, "2021-01-04", "2021-W01" },
		{ OPTS_WEEK, "2018-12-31", "2019-W01" },
		{ OPTS_WEEK, "2024-12-30", "2025-W01" },
		{ OPTS_WEEK, "2026-01-01", "2026-W01" },
		{ OPTS_WEEK, "2027-01-01", "2026-W53" },
		{ OPTS_WEEK, "2016-01-03", "2015-W53" },
		{ OPTS_WEEK, "1970-01-01", "1970-W01" },
		{ OPTS_MONTH, "2026-02-28T12:00", "2026-02" },
		{ OPTS_QUARTER, "2026-03-31T23:59", "2026Q1" },
		{ OPTS_QUARTER, "2026-04-01", "2026Q2" },
		{ OPTS_QUARTER, "2026-12-31", "2026Q4" },
	};
	char buf[32];

	for (size_t i = 0; i < sizeof l / sizeof l[0]; i++)
		is_str(prune_policy_label(l[i].p, at(l[i].date), buf,
		    sizeof buf), l[i].want, "label of %s", l[i].date);
	/* a week's number changes on Monday, not on the 1st of January */
	ok(prune_policy_period(OPTS_WEEK, at("2020-12-31")) ==
	    prune_policy_period(OPTS_WEEK, at("2021-01-03T23:59")),
	    "2020-12-31 and 2021-01-03 are one ISO week");
	ok(prune_policy_period(OPTS_WEEK, at("2021-01-03T23:59")) + 1 ==
	    prune_policy_period(OPTS_WEEK, at("2021-01-04")),
	    "2021-01-04 starts the next");
	ok(prune_policy_period(OPTS_DAY, at("1969-12-31T23:59")) + 1 ==
	    prune_policy_period(OPTS_DAY, at("1970-01-01")),
	    "days before 1970 too");
}

/* Daily snapshots 2020-12-28 (Mon) to 2021-01-10 (Sun): ids 1 to 14. */
static void
daily_fortnight(struct cal *c)
{
	char d[16];

	memset(c, 0, sizeof *c);
	for (int i = 0; i < 14; i++) {
		int day = 28 + i;

		if (day <= 31)
			snprintf(d, sizeof d, "2020-12-%02d", day);
		else
			snprintf(d, sizeof d, "2021-01-%02d", day - 31);
		add(c, i + 1, "fs", d, PRUNE_COMPLETE);
	}
}

static void
weeks_at_year_end(void)
{
	struct cal c;
	char buf[256];

	daily_fortnight(&c);
	run(&c, 0, 2, 0, 0);
	/* 2021-W01 ends on Jan 10 (14), 2020-W53 on Jan 3 (7) */
	is_str(kept(&c, buf, sizeof buf), "7 14", "weekly 2: the last day "
	    "of each of 2021-W01 and 2020-W53");
	ok(why_of(&c, 14) == (PRUNE_NEWEST | (PRUNE_RULE << OPTS_WEEK)),
	    "the newest: newest and weekly");
	ok(why_of(&c, 7) == (PRUNE_RULE << OPTS_WEEK), "Jan 3: weekly only");
	run(&c, 0, 3, 0, 0);
	is_str(kept(&c, buf, sizeof buf), "7 14", "weekly 3: only two "
	    "weeks have a snapshot");
	run(&c, 3, 1, 1, 1);
	/* daily: 12, 13, 14; monthly 2021-01 and quarterly 2021Q1: 14 */
	is_str(kept(&c, buf, sizeof buf), "12 13 14", "the rules' union");
	ok(why_of(&c, 14) == (PRUNE_NEWEST | PRUNE_RULE << OPTS_DAY |
	    PRUNE_RULE << OPTS_WEEK | PRUNE_RULE << OPTS_MONTH |
	    PRUNE_RULE << OPTS_QUARTER), "the newest: every rule");
	run(&c, 0, 0, 2, 2);
	/* 2021-01 ends with 14, 2020-12 with 4 (Dec 31); so the quarters */
	is_str(kept(&c, buf, sizeof buf), "4 14", "monthly and quarterly "
	    "2 across the year's end");
	ok(why_of(&c, 4) == (PRUNE_RULE << OPTS_MONTH |
	    PRUNE_RULE << OPTS_QUARTER), "Dec 31: monthly and quarterly");
	run(&c, 0, 0, 0, 0);
	is_str(kept(&c, buf, sizeof buf), "14", "no rule: the newest "
	    "complete only");
}

static void
quarters_and_gaps(void)
{
	struct cal c;
	char buf[256], d[16];

	memset(&c, 0, sizeof c);
	/* the 15th of every month of 2025 but May and June: Q2 is April
	 * alone */
	for (int m = 1; m <= 12; m++) {
		if (m == 5 || m == 6)
			continue;
		snprintf(d, sizeof d, "2025-%02d-15", m);
		add(&c, m, "fs", d, PRUNE_COMPLETE);
	}
	run(&c, 0, 0, 0, 3);
	is_str(kept(&c, buf, sizeof buf), "4 9 12", "quarterly 3: Dec, "
	    "Sep, and Apr for a Q2 without May and June");
	run(&c, 0, 0, 4, 0);
	is_str(kept(&c, buf, sizeof buf), "9 10 11 12", "monthly 4");
	run(&c, 0, 0, 6, 0);
	is_str(kept(&c, buf, sizeof buf), "7 8 9 10 11 12",
	    "monthly 6: months without a snapshot are not counted");
	run(&c, 0, 0, 0, 100);
	is_str(kept(&c, buf, sizeof buf), "3 4 9 12", "quarterly 100: "
	    "every quarter's newest");
}

static void
same_day(void)
{
	struct cal c;
	char buf[256];

	memset(&c, 0, sizeof c);
	add(&c, 1, "fs", "2026-03-01T01:00", PRUNE_COMPLETE);
	add(&c, 2, "fs", "2026-03-01T13:00", PRUNE_COMPLETE);
	add(&c, 3, "fs", "2026-03-02T01:00", PRUNE_COMPLETE);
	add(&c, 4, "fs", "2026-03-02T01:00", PRUNE_COMPLETE);	/* a tie */
	add(&c, 5, "fs", "2026-03-02T00:30", PRUNE_COMPLETE);
	run(&c, 2, 0, 0, 0);
	is_str(kept(&c, buf, sizeof buf), "2 4", "daily 2: each day's "
	    "latest; of two at one time, the higher id");
}

static void
unfinished(void)
{
	struct cal c;
	char buf[256];

	memset(&c, 0, sizeof c);
	add(&c, 1, "fs", "2026-01-01", PRUNE_COMPLETE);
	add(&c, 2, "fs", "2026-01-02", PRUNE_UNFINISHED);	/* superseded */
	add(&c, 3, "fs", "2026-01-03", PRUNE_RUNNING);	/* never touched */
	add(&c, 4, "fs", "2026-01-04", PRUNE_COMPLETE);
	add(&c, 5, "fs", "2026-01-05", PRUNE_UNFINISHED);	/* the latest */
	add(&c, 6, "fs", "2026-01-05T12:00", PRUNE_RUNNING);
	run(&c, 10, 0, 0, 0);
	is_str(kept(&c, buf, sizeof buf), "1 3 4 5 6", "unfinished older "
	    "than the newest complete go; newer ones and running ones stay");
	ok(why_of(&c, 5) == PRUNE_LATER && why_of(&c, 3) == PRUNE_RUN &&
	    why_of(&c, 6) == PRUNE_RUN, "... and say why");
	ok(why_of(&c, 4) == (PRUNE_NEWEST | PRUNE_RULE << OPTS_DAY) &&
	    why_of(&c, 1) == PRUNE_RULE << OPTS_DAY,
	    "unfinished snapshots take no day of a rule");
	memset(&c, 0, sizeof c);
	add(&c, 1, "fs", "2026-01-01", PRUNE_UNFINISHED);
	add(&c, 2, "fs", "2026-01-02", PRUNE_UNFINISHED);
	run(&c, 0, 0, 0, 0);
	is_str(kept(&c, buf, sizeof buf), "1 2", "no complete snapshot: "
	    "every unfinished one stays");
}

static void
file_systems(void)
{
	struct cal c;
	char buf[256];

	memset(&c, 0, sizeof c);
	/* interleaved, in id order as scans record them */
	add(&c, 1, "home", "2026-01-01", PRUNE_COMPLETE);
	add(&c, 2, "proj", "2026-01-01", PRUNE_COMPLETE);
	add(&c, 3, "home", "2026-01-02", PRUNE_COMPLETE);
	add(&c, 4, "proj", "2026-01-02", PRUNE_UNFINISHED);
	add(&c, 5, "home", "2026-01-03", PRUNE_COMPLETE);
	add(&c, 6, "scratch", "2025-06-01", PRUNE_COMPLETE);
	add(&c, 7, "scratch", "2025-07-01", PRUNE_COMPLETE);
	run(&c, 2, 0, 0, 0);
	/* home: 3, 5; proj: 2 (newest complete), 4 (newer, unfinished);
	 * scratch: its own two days, however old */
	is_str(kept(&c, buf, sizeof buf), "2 3 4 5 6 7", "daily 2 per "
	    "file system");
	run(&c, 0, 0, 1, 0);
	is_str(kept(&c, buf, sizeof buf), "2 4 5 7", "monthly 1 per file "
	    "system: each one's newest");
}

int
main(void)
{
	labels();
	weeks_at_year_end();
	quarters_and_gaps();
	same_day();
	unfinished();
	file_systems();
	return tap_end();
}
