#!/usr/bin/env python3
# tests/run: alone
"""t_io_window: a window of two centuries around half a day of I/O data
costs what the data does, and says what the data's own window says.

The database holds 2 hosts x 2 devices x 12 hours (report/query/query.h
stores only the minutes that can hold data; the rest of a window is
counted, not walked). throughput (--every 1d), cdf, idle and burst run
over 1900-01-01 to 2099-12-31 and over the data alone (no --from/--to);
the wide answer must be the narrow one plus the outside time accounted
as Python counts it here: calendar minutes and days of the window from
the dates, coverage = complete / calendar, one empty day bucket per day
without data, a missing load-class hour per host and hour outside the
data. The same with --host 'h*' (the host filter's loader) gives the
same tables. Peak RSS of each wide run (resource.getrusage of a fresh
process, tests/lib/peakrss.py) stays under 64 MiB in the release build;
the 200-year cap and the million-bucket limit still hold.
"""
import calendar
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from tap import ok, eq, skip, done               # noqa: E402
from peakrss import run_peak                     # noqa: E402
from rawgen import Dataset                       # noqa: E402
import reportdb                                  # noqa: E402
import snapgen                                   # noqa: E402

BUILD = os.environ["BUILD"]
IOCENSUS = os.path.join(BUILD, "iocensus")
S = reportdb.IO_START                            # 2010-03-01 00:00 UTC
MINUTES = 720                                    # the data: 12 hours
WIDE = ("--from", "1900-01-01", "--to", "2099-12-31")
F = calendar.timegm((1900, 1, 1, 0, 0, 0))
T = calendar.timegm((2099, 12, 31, 0, 0, 0))
CAL = (T - F) // 60                              # calendar minutes
DAYS = (T - F) // 86400
HOURS = (T - F) // 3600
RSS_LIMIT_KIB = 64 * 1024


def make_db(tmp):
    ds = Dataset(seed=3, hosts=2, devs_per_host=2, start=S, minutes=MINUTES)
    ds.burst(S + 3600, S + 4200, level=1.0)
    ds.idle_run(S + 5 * 3600, 60)
    ds.missing(S + 8 * 3600, S + 9 * 3600, host=ds.hosts[1])
    db = snapgen.new_db(tmp, BUILD)
    reportdb.ingest(db, BUILD, tmp, ds)
    return db


def answer(db, *args):
    p = subprocess.run([IOCENSUS] + list(args) + ["--db", db, "--format",
                       "json"], capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("%s: exit %d: %s" % (" ".join(args), p.returncode,
                                                p.stderr.strip()[-300:]))
    return json.loads(p.stdout)


def rows(a, key):
    return a["tables"][key]["rows"]


def coverage_note(complete, days_empty):
    """The note of traffic_int.h, worked out from Python's counts."""
    return ("Coverage: %s of %s calendar minutes complete (%.2f%%); %s of %s "
            "days have no complete minute." % (
                format(complete, ","), format(CAL, ","),
                100 * complete / CAL, format(days_empty, ","),
                format(DAYS, ",")))


def widened_summary(row):
    """A summary row of the data's window, over the wide window."""
    w = dict(row)
    w["calendar_minutes"] = CAL
    w["coverage"] = row["n"] / CAL
    return w


def check_notes(name, narrow, wide, complete, hosts):
    eq(wide["notes"][0], coverage_note(complete, DAYS - 1),
       name + ": the coverage note counts the minutes and days outside")
    eq(wide["notes"][1], "Window: 1900-01-01 00:00 to 2099-12-31 00:00 UTC; "
       "%s, 4 devices." % hosts, name + ": the window note")
    eq(wide["notes"][2:], narrow["notes"][2:], name + ": the other notes")


def check_cdf_idle(db, name, host):
    narrow, wide = answer(db, name), answer(db, name, *WIDE)
    eq(rows(narrow, "summary")[0]["calendar_minutes"], MINUTES,
       name + ": the data's own window is its 720 minutes")
    complete = rows(narrow, "summary")[0]["n"]
    want = dict(narrow["tables"])
    want["summary"] = dict(want["summary"], rows=[
        widened_summary(rows(narrow, "summary")[0])])
    eq(wide["tables"], want, name + ": 1900-2099 is the data's answer, "
       "with the calendar minutes and coverage of 200 years")
    check_notes(name, narrow, wide, complete, "2 hosts")
    eq(answer(db, name, "--host", host, *WIDE)["tables"], wide["tables"],
       name + ": the same under a host filter")


def empty_day(t, keys):
    r = {k: None for k in keys}
    r.update(t=t, minutes=1440, complete=0, partial=1)
    return r


def widened_days(narrow_rows, keys):
    """Every UTC day of the wide window: empty, but the data's day, whose
    minutes are all 1,440 of it."""
    got = {r["t"]: dict(r, minutes=1440) for r in narrow_rows}
    return [got.get(F + k * 86400, empty_day(F + k * 86400, keys))
            for k in range(DAYS)]


def check_throughput(db, host):
    narrow = answer(db, "throughput", "--every", "1d")
    wide = answer(db, "throughput", "--every", "1d", *WIDE)
    for key in ("series", "days"):
        cols = [c["key"] for c in narrow["tables"][key]["columns"]]
        eq(rows(wide, key), widened_days(rows(narrow, key), cols),
           "throughput: table %s holds every day of 1900-2099, empty "
           "but the data's" % key)
    t = dict(rows(narrow, "totals")[0])
    eq((t["calendar_minutes"], t["days"], t["days_empty"]), (MINUTES, 1, 0),
       "throughput: the data's own window is one day of 720 minutes")
    t.update(calendar_minutes=CAL, coverage=t["complete"] / CAL, days=DAYS,
             days_empty=DAYS - 1)
    eq(rows(wide, "totals"), [t], "throughput: the totals over 1900-2099 "
       "are the data's, with 200 years of calendar minutes and days")
    check_notes("throughput", narrow, wide, t["complete"], "2 hosts")
    eq(answer(db, "throughput", "--every", "1d", "--host", host,
              *WIDE)["tables"], wide["tables"],
       "throughput: the same under a host filter")
    p = subprocess.run([IOCENSUS, "throughput", "--db", db] + list(WIDE),
                       capture_output=True, text=True)
    eq((p.returncode, p.stderr.strip()), (2, "iocensus throughput: %d "
       "buckets of one hour in the window (at most 1000000): use a wider "
       "--every or a narrower --from/--to" % HOURS),
       "throughput: the million-bucket limit still holds")


def check_burst(db):
    """One host: the load classes are a row per host and hour of the
    window, so a second host would only double them."""
    args = ("burst", "--host", "h000")
    narrow, wide = answer(db, *args), answer(db, *args, *WIDE)
    eq(rows(wide, "burst"), rows(narrow, "burst"),
       "burst: the metrics over 1900-2099 are the data's")
    counts = [dict(r, missing=r["missing"] + HOURS - MINUTES // 60)
              for r in rows(narrow, "load_counts")]
    eq(rows(wide, "load_counts"), counts, "burst: every hour outside the "
       "data is a missing load-class hour")
    classes = rows(wide, "load_classes")
    data = [r for r in classes if S <= r["t"] < S + MINUTES * 60]
    outside = [r for r in classes if not S <= r["t"] < S + MINUTES * 60]
    eq(data, rows(narrow, "load_classes"), "burst: the data's hours classed "
       "as in its own window")
    ok(len(outside) == HOURS - MINUTES // 60 and all(
        r["class"] == "missing" and r["complete_minutes"] == 0
        for r in outside) and [r["t"] for r in classes] ==
       [F + 3600 * k for k in range(HOURS)],
       "burst: every other hour of 1900-2099 is missing, in order",
       "%d rows outside" % len(outside))


def asan_build():
    out = subprocess.run(["ldd", IOCENSUS], capture_output=True).stdout
    return b"libasan" in out


def check_rss(db, host):
    runs = [("cdf",), ("idle",), ("throughput", "--every", "1d"),
            ("cdf", "--host", host), ("idle", "--host", host),
            ("throughput", "--every", "1d", "--host", host)]
    if asan_build():
        skip("peak RSS of %d analyses over 1900-2099" % len(runs),
             "ASan's shadow memory inflates RSS; the release build checks it")
        return
    for args in runs:
        rc, out, err, kib = run_peak([IOCENSUS] + list(args) + [
            "--db", db, "--format", "csv"] + list(WIDE))
        ok(rc == 0 and kib < RSS_LIMIT_KIB, "%s over 1900-2099: peak RSS "
           "%d KiB, under %d" % (" ".join(args), kib, RSS_LIMIT_KIB),
           "exit %d, %d KiB: %s" % (rc, kib, err.strip()[-200:]))


def main():
    with tempfile.TemporaryDirectory() as tmp:
        db = make_db(tmp)
        check_cdf_idle(db, "cdf", "h*")
        check_cdf_idle(db, "idle", "h*")
        check_throughput(db, "h*")
        check_burst(db)
        check_rss(db, "h*")
    done()


if __name__ == "__main__":
    main()
