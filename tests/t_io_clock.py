# tests/run: alone
"""iocensus: one server with a wrong clock costs only its own data.

A generated database of 8 hosts x 2 devices x 2 days (a missing window
and a reboot in it), and two bad logs: one of an existing host whose
clock jumped to 2199, one of a new host whose clock was reset to 1970.
With them ingested as well:

  - their samples are quarantined: the ingest says so per source and
    host (count, first and last time) on stderr and in the sources table
    and exits 1, v_io_quarantine holds exactly what `iostatmon dump`
    prints for them, and the report's summary names them;
  - every analysis of the good data is byte for byte what it is without
    them (CSV and JSON of each I/O command, with and without a host
    filter; the report, but for its quarantine notes);
  - ingest and report cost what they cost without them, within generous
    bounds: time at most 2x + 3 s, peak RSS at most 1.5x + 24 MiB, the
    database at most 1 MiB larger (before the fix, the 2199 log alone
    made the roll-up write every minute to 2199);
  - with no options, report works.

Also: a log that is plausible but years from the others (2005) costs
ingest and report nothing more (derived rows only where a device has a
value; the default window the last 366 days of data, with a note); the
quarantine is relative to the ingest's time (--now) and samples leave it
when an ingest finds them plausible; a version-3 database loses its rows
of minutes without a value and analyses read the same.
"""
import contextlib
import csv
import io
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from tap import ok, eq, done          # noqa: E402
from pace import limit  # noqa: E402
from rawgen import Dataset            # noqa: E402
from peakrss import run_peak          # noqa: E402
from iodump import dump_rows, view_rows  # noqa: E402

BUILD = os.environ.get("BUILD", "build")
IOC = os.path.join(BUILD, "iocensus")
MON = os.path.join(BUILD, "iostatmon")
TMP = tempfile.mkdtemp(prefix="t_io_clock.")
DAY = 86400
S = 1709251200                  # 2024-03-01 00:00 UTC
T2199 = 7258032000              # 2199-12-31 00:00 UTC
T2005 = 1104537600              # 2005-01-01 00:00 UTC
FLOOR = 1041379200              # 2003-01-01 00:00 UTC
ENV = dict(os.environ, ASAN_OPTIONS=os.environ.get("ASAN_OPTIONS", "") +
           ":quarantine_size_mb=16")
COMMANDS = ("throughput", "cdf", "idle", "burst", "devices")


def path(*p):
    return os.path.join(TMP, *p)


def sql(db, q, args=()):
    with contextlib.closing(sqlite3.connect(db)) as con:
        return con.execute(q, args).fetchall()


def run(*args, timeout=300):
    try:
        p = subprocess.run([str(a) for a in args], capture_output=True,
                           text=True, timeout=limit(timeout))
    except subprocess.TimeoutExpired:
        return -1, "", "timed out after %d s" % timeout
    return p.returncode, p.stdout, p.stderr


def measured(args, timeout=300):
    """(rc, stdout, stderr, seconds, peak RSS KiB); rc -1 on a timeout."""
    t = time.monotonic()
    try:
        rc, out, err, kib = run_peak(args, timeout=timeout, env=ENV)
    except subprocess.TimeoutExpired:
        return -1, "", "timed out", timeout, 0
    return rc, out, err, time.monotonic() - t, kib


def logs_of(name, ds, hosts=None):
    raw = path("raw", name)
    out = []
    for i, p in enumerate(sorted(ds.write(raw))):
        h = hosts[i] if hosts else os.path.basename(p)[:-4]
        log = path(name + "-" + h + ".iolog.gz")
        subprocess.run([MON, "import", p, "--host", h, "--out", log],
                       check=True, capture_output=True)
        out.append(log)
    return out


def outputs(db):
    """Every I/O analysis of db, as the bytes it prints."""
    out = {}
    for c in COMMANDS:
        for fmt in ("csv", "json"):
            out[(c, fmt)] = run(IOC, c, "--db", db, "--format", fmt)
    out[("throughput", "1m h00[0-3]")] = run(
        IOC, "throughput", "--db", db, "--format", "csv", "--every", "1m",
        "--host", "h00[0-3]")
    out[("burst", "h00[4-7]")] = run(IOC, "burst", "--db", db, "--format",
                                     "csv", "--host", "h00[4-7]")
    return out


def without_quarantine_notes(html):
    return re.sub(r'<p class="note">Quarantined, not analysed:[^\n]*\n', "",
                  html)


def good_dataset():
    ds = Dataset(seed=5, hosts=8, devs_per_host=2, start=S,
                 minutes=2 * 1440)
    ds.missing(S + DAY + 3600, S + DAY + 4 * 3600)
    ds.reboot(ds.hosts[2], S + DAY + 10 * 3600)
    return ds


def check_wrong_clocks():
    good = logs_of("good", good_dataset())
    # h003's clock jumped to 2199; a new host's RTC was reset to 1970.
    bad = (logs_of("y2199", Dataset(seed=11, hosts=["h003"],
                                    devs_per_host=2, start=T2199,
                                    minutes=9)) +
           logs_of("y1970", Dataset(seed=12, hosts=["rtc"],
                                    devs_per_host=2, start=0, minutes=9)))
    db_good, db_bad = path("good.db"), path("bad.db")
    g = measured([IOC, "ingest", "--db", db_good, "--format", "csv"] + good)
    b = measured([IOC, "ingest", "--db", db_bad, "--format", "csv"] + good +
                 bad, timeout=max(120, int(10 * g[3])))
    eq(g[0], 0, "good logs: ingest exits 0 (%s)" % g[2].strip())
    eq(b[0], 1, "with the wrong clocks: ingest exits 1 (%s)" %
       b[2].strip()[-300:])
    print("# ingest: %.2f s, %d KiB; with the wrong clocks %.2f s, %d KiB" %
          (g[3], g[4], b[3], b[4]))
    done_b = b[0] >= 0      # not killed on a timeout
    ok(done_b and b[3] <= 2 * g[3] + 3, "wrong clocks: ingest time within "
       "2x + 3 s", "%.2f s, without them %.2f s" % (b[3], g[3]))
    ok(done_b and b[4] <= 1.5 * g[4] + 24 * 1024, "wrong clocks: ingest "
       "peak RSS within 1.5x + 24 MiB", "%d KiB, without them %d KiB" %
       (b[4], g[4]))
    sg, sb = os.path.getsize(db_good), os.path.getsize(db_bad)
    print("# database: %d bytes; with the wrong clocks %d" % (sg, sb))
    ok(done_b and sb <= sg + (1 << 20), "wrong clocks: the database at "
       "most 1 MiB larger", "%d bytes, without them %d" % (sb, sg))

    # What was quarantined, and said so.
    want = dump_rows(MON, bad)
    eq(view_rows(db_bad, "v_io_quarantine"), want,
       "v_io_quarantine: exactly the bad logs' samples")
    eq(view_rows(db_bad, "v_io"), view_rows(db_good, "v_io"),
       "v_io: exactly the good samples")
    eq(sql(db_bad, "SELECT name FROM io_host WHERE name = 'rtc'"), [],
       "a host with only quarantined samples is not a host of the data")
    table = b[1].partition("# sources\n")[2].split("\n\n")[0]
    rows = {r["source"]: r for r in csv.DictReader(io.StringIO(table))}
    for log, host in ((bad[0], "h003"), (bad[1], "rtc")):
        mine = [x for x in want if x[0] == host]
        n, first, last = (len(mine), min(x[2] for x in mine) // 1000,
                          max(x[2] for x in mine) // 1000)
        r = rows.get(log, {})
        eq((r.get("host"), r.get("quarantined"), r.get("quarantined_first"),
            r.get("quarantined_last"), r.get("status")),
           (host, str(n), str(first), str(last), "quarantined"),
           "%s: the sources row: host, count, first and last time" % host)
        span = "times %s to %s UTC" % (
            time.strftime("%Y-%m-%d %H:%M", time.gmtime(first)),
            time.strftime("%Y-%m-%d %H:%M", time.gmtime(last)))
        msg = "%s: %d device-samples of host %s quarantined: %s" % (
            log, n, host, span)
        ok(msg in b[2], "%s: stderr names the source, host, count and "
           "times" % host, "%r not in %r" % (msg, b[2]))
    # The example of docs/SECURITY.md: the samples quarantined, per host.
    eq(sql(db_bad, "SELECT host, count(*), min(t), max(t) "
           "FROM v_io_quarantine GROUP BY host") if view_rows(
               db_bad, "v_io_quarantine") is not None else None,
       sorted((h, sum(1 for x in want if x[0] == h),
               min(x[2] for x in want if x[0] == h) // 1000,
               max(x[2] for x in want if x[0] == h) // 1000)
              for h in {x[0] for x in want}),
       "docs/SECURITY.md's example: count and times per host")
    ok(rows.get(good[0], {}).get("status") == "ok",
       "the good logs are not quarantined", repr(rows.get(good[0])))

    # The analyses of the good data are unchanged, byte for byte.
    og, ob = outputs(db_good), outputs(db_bad)
    for k in og:
        ok(og[k][0] == 0 and og[k] == ob[k], "%s %s: the same bytes with "
           "and without the wrong clocks" % k,
           "rc %d/%d: %s" % (og[k][0], ob[k][0], ob[k][2][:300]))
    rg = measured([IOC, "report", "--db", db_good, "--out",
                   path("good.html")])
    rb = measured([IOC, "report", "--db", db_bad, "--out",
                   path("bad.html")], timeout=max(120, int(10 * rg[3])))
    eq((rg[0], rb[0]), (0, 0), "report with no options works (%s)" %
       rb[2].strip()[:300])
    print("# report: %.2f s, %d KiB; with the wrong clocks %.2f s, %d KiB" %
          (rg[3], rg[4], rb[3], rb[4]))
    ok(rb[0] == 0 and rb[3] <= 2 * rg[3] + 3, "wrong clocks: report time "
       "within 2x + 3 s", "%.2f s, without them %.2f s" % (rb[3], rg[3]))
    ok(rb[0] == 0 and rb[4] <= 1.5 * rg[4] + 24 * 1024, "wrong clocks: "
       "report peak RSS within 1.5x + 24 MiB", "%d KiB, without them %d "
       "KiB" % (rb[4], rg[4]))
    html_g = open(path("good.html")).read() if rg[0] == 0 else ""
    html_b = open(path("bad.html")).read() if rb[0] == 0 else ""
    eq(without_quarantine_notes(html_b), html_g, "report: the same bytes "
       "but for the quarantine notes")
    for host, n in (("h003", sum(1 for x in want if x[0] == "h003")),
                    ("rtc", sum(1 for x in want if x[0] == "rtc"))):
        note = ("Quarantined, not analysed: %d device-samples of host %s, "
                "times " % (n, host))
        ok(note in html_b, "report: the summary names %s's quarantined "
           "samples" % host, note)
    return good, db_good


def check_far_plausible(good, db_good):
    """A host that logged in 2005 only: plausible, stored, and expected
    (missing) from then on; ingest and report cost what they did."""
    far = logs_of("y2005", Dataset(seed=13, hosts=["old"],
                                   devs_per_host=2, start=T2005, minutes=9))
    db = path("far.db")
    shutil.copy(db_good, db)
    rc, out, err, secs, kib = measured([IOC, "ingest", "--db", db] + far)
    eq(rc, 0, "a 2005 log: stored, not quarantined (%s)" % err.strip())
    eq(sql(db, "SELECT count(*) FROM io_quarantine"), [(0,)],
       "a 2005 log: nothing quarantined")
    grow = os.path.getsize(db) - os.path.getsize(db_good)
    ok(grow <= 256 << 10, "a 2005 log: no rows for the 19 years without a "
       "value (database %d bytes larger)" % grow, "%d bytes" % grow)
    ok(secs < 10, "a 2005 log: ingest in seconds", "%.2f s" % secs)
    eq(sql(db, "SELECT count(*) FROM io_minute WHERE valid = 0"), [(0,)],
       "io_minute: no row without a valid device")
    rc, out, err, secs, kib = measured([IOC, "report", "--db", db, "--out",
                                        path("far.html")])
    print("# report with a 2005 host: %.2f s, %d KiB" % (secs, kib))
    eq(rc, 0, "a 2005 log: report with no options works (%s)" % err[:300])
    ok(kib < 96 * 1024, "a 2005 log: report within 96 MiB", "%d KiB" % kib)
    rc, out, err = run(IOC, "cdf", "--db", db, "--format", "json")
    notes = json.loads(out)["notes"] if rc == 0 else []
    end = sql(db, "SELECT max(last_ms) FROM io_dev")[0][0]
    end = -(-end // 60000) * 60
    start = end - 366 * DAY
    note = ("The window is the last 366 days of the data: the data from "
            "2005-01-01 00:00 to %s UTC is left out (--from includes it)." %
            time.strftime("%Y-%m-%d %H:%M", time.gmtime(start)))
    ok(note in notes, "no --from: the last 366 days, and a note says what "
       "was left out", repr(notes))
    rc, out, err = run(IOC, "cdf", "--db", db, "--format", "json", "--from",
                       "2004-12-31")
    notes = json.loads(out)["notes"] if rc == 0 else []
    ok(rc == 0 and not any("left out" in n for n in notes),
       "--from: the window asked for, no note", repr(notes))
    rc, out, err = run(IOC, "throughput", "--db", db, "--format", "csv",
                       "--every", "1m", "--table", "series")
    eq((rc, out.count("\n") - 1), (0, 366 * 1440),
       "no options, --every 1m: 366 days of minutes, within the limits")


def check_now(good):
    """The quarantine is relative to the ingest's time; an ingest that
    finds quarantined samples plausible loads them and they leave it."""
    db = path("now.db")
    rc, out, err = run(IOC, "ingest", "--db", db, "--now",
                       str(S - 2 * DAY), good[0])
    n = len(dump_rows(MON, [good[0]]))
    eq(rc, 1, "--now two days before a log: exit 1")
    eq(sql(db, "SELECT count(*) FROM io_quarantine"), [(n,)],
       "--now two days before: the log quarantined")
    rc, out, err = run(IOC, "ingest", "--db", db, "--now",
                       str(S + 2 * DAY), good[0])
    eq(rc, 0, "--now after the log: exit 0 (%s)" % err.strip())
    eq((sql(db, "SELECT count(*) FROM io_quarantine"),
        sql(db, "SELECT count(*) FROM v_io")), ([(0,)], [(n,)]),
       "ingested again when plausible: loaded, and out of the quarantine")
    ok("%d device-samples released from the quarantine" % n in err,
       "the release is said", err)
    rc, out, err = run(IOC, "ingest", "--db", db, "--now", "nonsense")
    eq(rc, 2, "--now nonsense: usage error")


def check_upgrade(db_good):
    """A version-3 database (every minute with an expected device has a
    row): upgraded, it keeps only the rows with a value, and the
    analyses read the same."""
    db = path("v3.db")
    shutil.copy(db_good, db)
    before = outputs(db)
    con = sqlite3.connect(db)
    # What version 3 also held: rows for the minutes in which every
    # expected device is missing (the missing window of the data).
    con.executescript(
        "INSERT INTO io_minute (t, expected, valid, rd_bytes, wr_bytes, "
        "ios) SELECT t, 16, 0, 0, 0, 0 FROM (WITH RECURSIVE k(t) AS "
        "(SELECT %d UNION ALL SELECT t + 60 FROM k WHERE t < %d) "
        "SELECT t FROM k) WHERE t NOT IN (SELECT t FROM io_minute);"
        "PRAGMA user_version = 3;" % (S + DAY + 3600, S + DAY + 4 * 3600 -
                                      60))
    con.commit()
    con.close()
    ok(sql(db, "SELECT count(*) FROM io_minute WHERE valid = 0")[0][0] > 0,
       "version 3: rows without a valid device")
    after = outputs(db)
    eq(sql(db, "PRAGMA user_version"), [(13,)], "version 3: now 13")
    eq(sql(db, "SELECT count(*) FROM io_minute WHERE valid = 0"), [(0,)],
       "version 3, upgraded: no row without a valid device")
    ok(after == before, "version 3, upgraded: every analysis the same")


def main():
    good, db_good = check_wrong_clocks()
    check_far_plausible(good, db_good)
    check_now(good)
    check_upgrade(db_good)
    done()


main()
