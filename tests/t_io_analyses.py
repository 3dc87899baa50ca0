#!/usr/bin/env python3
"""t_io_analyses: `iocensus throughput`, `cdf` and `idle` against the oracle.

Generated raw captures (4 hosts x 3 devices x 4 days: a whole UTC day
missing on every host, a 3-hour gap on one host, a counter reset, bursts,
a 9-hour idle stretch, and system-wide idle runs of exactly 60 and 59
minutes between busy minutes) go through `iostatmon import` and
`iocensus ingest`. Every table of the three commands' JSON is compared
with tests/lib/ioan_oracle.py, computed from io_oracle's model of the raw
captures (never from the database): integers exactly, reals to 1e-9
relative, NULL as None. A few facts follow from the dataset's design
alone and are asserted without the oracle (the idle-run bucket edges,
missing time never idle). A second dataset (3 hosts x 2 days, one host
stopped for the second day) checks that a server that stops logging is
missing to the end of the data, never idle, also for scripts/bench/pycdf.py
(compared with `iocensus cdf` by scripts/bench/cdfcheck.py).
"""
import csv
import io
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from tap import ok, eq, done                     # noqa: E402
from rawgen import Dataset                       # noqa: E402
from io_oracle import load_raw, build            # noqa: E402
import ioan_oracle as O                          # noqa: E402

BUILD = os.environ["BUILD"]
BENCH = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))), "scripts", "bench")
IOCENSUS = os.path.join(BUILD, "iocensus")
IOSTATMON = os.path.join(BUILD, "iostatmon")
DAY = 86400

START = 1700000000 // DAY * DAY + 5 * 3600       # 05:00 UTC: a partial first day
D1 = START // DAY * DAY + DAY                    # first whole day
RUN60 = D1 + 3 * 3600                            # idle run of exactly 60 minutes
RUN59 = D1 + 6 * 3600                            # and of 59
QUIET = (D1 + 10 * 3600, D1 + 19 * 3600)         # 9 h without I/O
GONE = (D1 + DAY, D1 + 2 * DAY)                  # a UTC day missing everywhere


def dataset():
    ds = Dataset(seed=4, hosts=4, devs_per_host=3, start=START, minutes=4 * 1440)
    ds.burst(START + 7200, START + 7800, level=1.0)
    ds.idle_run(RUN60, 60)
    ds.idle_run(RUN59, 59)
    ds.idle(*QUIET)
    ds.missing(*GONE)
    ds.missing(GONE[1] + 3600, GONE[1] + 4 * 3600, host="h002")
    ds.reboot("h001", GONE[1] + 8 * 3600)
    return ds


def run(*args, want_rc=0):
    p = subprocess.run(list(args), capture_output=True, text=True)
    if p.returncode != want_rc:
        raise RuntimeError("%s: exit %d, want %d: %s" % (
            " ".join(args), p.returncode, want_rc, p.stderr.strip()[-400:]))
    return p


def close(a, b):
    return a == b or abs(a - b) <= 1e-9 * max(abs(a), abs(b))


def cell_ok(got, want):
    if isinstance(want, float):
        return (isinstance(got, (int, float)) and not isinstance(got, bool)
                and close(float(got), want))
    return got == want and type(got) is type(want)


def compare(out, want, name):
    """Every table of want (oracle) against the command's JSON tables."""
    for key, rows in want.items():
        if key.startswith("_"):
            continue
        got = out["tables"].get(key)
        if not ok(got is not None, "%s: table %s present" % (name, key)):
            continue
        got = got["rows"]
        if not eq(len(got), len(rows), "%s: %s rows" % (name, key)):
            continue
        bad = []
        for i, (g, w) in enumerate(zip(got, rows)):
            if set(g) != set(w):
                bad.append("row %d columns %s" % (i, sorted(set(g) ^ set(w))))
                continue
            bad += ["row %d %s: got %r want %r" % (i, c, g[c], w[c])
                    for c in w if not cell_ok(g[c], w[c])]
        ok(not bad, "%s: %s values" % (name, key),
           "; ".join(bad[:6]) + (" (%d more)" % (len(bad) - 6) if len(bad) > 6 else ""))


class Census:
    def __init__(self, tmp, paths):
        self.db = os.path.join(tmp, "census.db")
        logs = []
        for p in paths:
            host = os.path.basename(p)[:-4]
            log = os.path.join(tmp, host + ".log")
            run(IOSTATMON, "import", p, "--host", host, "--out", log)
            logs.append(log)
        run(IOCENSUS, "ingest", "--db", self.db, *logs)

    def json(self, cmd, *opts):
        p = run(IOCENSUS, cmd, "--db", self.db, "--format", "json", *opts)
        return json.loads(p.stdout)


def check_notes(out, series, name):
    note = O.coverage_note(series)
    ok(note in out["notes"], "%s: coverage note" % name,
       "want %r in %r" % (note, out["notes"]))


def whole_window(c, m):
    s = m.series()
    for every, flag in ((60, "1m"), (3600, "1h"), (DAY, "1d")):
        out = c.json("throughput", "--every", flag)
        compare(out, O.throughput(s, every), "throughput --every " + flag)
    check_notes(out, s, "throughput")
    out = c.json("cdf")
    compare(out, O.cdf(s), "cdf")
    check_notes(out, s, "cdf")
    sentence = O.cdf_sentence(s)
    ok(sentence in out["notes"], "cdf: the study's sentence",
       "want %r in %r" % (sentence, out["notes"]))
    out = c.json("cdf", "--peak", "20000")
    compare(out, O.cdf(s, 20000.0), "cdf --peak 20000")
    eq(out["tables"]["summary"]["rows"][0]["peak_source"], "configured",
       "cdf --peak: says configured")
    for thr in ("5", "1", "0.5"):
        out = c.json("idle", "--threshold", thr)
        compare(out, O.idle(s, float(thr)), "idle --threshold " + thr)
    check_notes(out, s, "idle")
    out = c.json("idle", "--peak", "20000", "--threshold", "2.5")
    compare(out, O.idle(s, 2.5, peak=20000.0), "idle --peak --threshold 2.5")


def design_facts(c, m):
    """What the dataset's design alone says, without the oracle."""
    s = m.series()
    days = {}
    for t, state, *_ in s:
        days.setdefault(t // DAY, []).append(state)
    eq(sorted(d for d, v in days.items() if "complete" not in v),
       [GONE[0] // DAY], "oracle: the gone day has no complete minute")
    strict = c.json("idle", "--strict", "--threshold", "1")
    eq(list(strict["tables"])[0], "strict_periods", "idle --strict: strict table first")
    rows = {r["class"]: r for r in strict["tables"]["strict_periods"]["rows"]}
    # No request at all only in the runs we made: 59, 60 and 540 minutes.
    eq([(k, rows[k]["periods"], rows[k]["minutes"]) for k in
        ("[10 min, 1 h)", "[1 h, 2 h)", "[8 h, 24 h)")],
       [("[10 min, 1 h)", 1, 59), ("[1 h, 2 h)", 1, 60), ("[8 h, 24 h)", 1, 540)],
       "strict: exactly 59, 60 and 540 minute runs in their classes")
    summ = strict["tables"]["summary"]["rows"][0]
    eq((summ["strict_minutes"], summ["strict_periods"],
        summ["longest_strict_minutes"], summ["longest_strict_t"]),
       (659, 3, 540, QUIET[0]), "strict: the missing day is not idle")
    thr = c.json("idle", "--threshold", "1")
    runs = O.idle(s, 1.0)["_runs"]["idle"]
    ok((RUN60, 60) in runs and (RUN59, 59) in runs,
       "oracle: threshold runs of exactly 60 and 59 minutes exist")
    rows = {r["class"]: r for r in thr["tables"]["periods"]["rows"]}
    ok(rows["[1 h, 2 h)"]["periods"] >= 1 and rows["[1 h, 2 h)"]["minutes"] >= 60,
       "idle: the 60-minute run is in [1 h, 2 h)")
    out = c.json("idle", "--buckets", "2m,1h,2h")
    compare(out, O.idle(s, 5, (120, 3600, 7200)), "idle --buckets 2m,1h,2h")
    eq([r["class"] for r in out["tables"]["periods"]["rows"]],
       ["< 2 min", "[2 min, 1 h)", "[1 h, 2 h)", ">= 2 h"],
       "idle classes: a '< first edge' row when the first edge > 1 min")


def windows(c, m):
    frm, to = D1 + 12 * 3600 + 30, GONE[1] + 20 * 3600   # from rounds down
    s = m.series(frm=frm, to=to)
    opts = ("--from", str(frm), "--to", "@%d" % to)
    compare(c.json("throughput", "--every", "1h", *opts),
            O.throughput(s, 3600), "throughput --from --to")
    compare(c.json("cdf", *opts), O.cdf(s), "cdf --from --to")
    out = c.json("idle", "--threshold", "1", *opts)
    compare(out, O.idle(s, 1.0), "idle --from --to")
    check_notes(out, s, "idle --from --to")
    s = m.series(hosts=["h00[02]"])
    for cmd, want in (("cdf", O.cdf(s)), ("idle", O.idle(s)),
                      ("throughput", O.throughput(s, DAY))):
        extra = ("--every", "1d") if cmd == "throughput" else ()
        out = c.json(cmd, "--host", "h00[02]", *extra)
        compare(out, want, cmd + " --host")
    check_notes(out, s, "throughput --host")
    # Inside the gone day: calendar minutes, none complete.
    inside = ("--from", str(GONE[0] + 3600), "--to", str(GONE[0] + 7200))
    for cmd in ("throughput", "cdf", "idle"):
        out = c.json(cmd, *inside)
        ok(out["notes"] and out["notes"][0] == "No I/O data in the window.",
           cmd + ": no data in the gone day", repr(out["notes"][:2]))
        if cmd != "throughput":
            ok(all(not t["rows"] for t in out["tables"].values()),
               cmd + ": empty tables without data")
    missing_window(c, m)
    unknown_hosts(c)


def unknown_hosts(c):
    """A --host pattern that matches no host is a usage error naming it
    and the known hosts, not an empty window."""
    hosts = "h000, h001, h002, h003"
    for cmd in ("throughput", "cdf", "idle", "burst", "devices"):
        p = run(IOCENSUS, cmd, "--db", c.db, "--host", "nosuch", want_rc=2)
        eq((p.stdout, p.stderr), ("", "iocensus %s: --host nosuch matches "
                                  "no host; hosts: %s\n" % (cmd, hosts)),
           cmd + " --host nosuch: exit 2, the pattern and the hosts")
    p = run(IOCENSUS, "cdf", "--db", c.db, "--host", "h00[02]", "--host",
            "x*", want_rc=2)
    eq(p.stderr, "iocensus cdf: --host x* matches no host; hosts: %s\n" %
       hosts, "one pattern of two matches nothing: that one is named")
    out = os.path.join(os.path.dirname(c.db), "nohost.html")
    p = run(IOCENSUS, "report", "--db", c.db, "--host", "nosuch", "--out",
            out, want_rc=2)
    ok(not os.path.exists(out) and "--host nosuch matches no host" in
       p.stderr, "report --host nosuch: exit 2, no page", p.stderr)
    # Many hosts: the first ten by name, then how many more.
    many = os.path.join(os.path.dirname(c.db), "many.db")
    shutil.copyfile(c.db, many)
    db = sqlite3.connect(many)
    db.executemany("INSERT INTO io_host (name) VALUES (?)",
                   [("z%02d" % i,) for i in range(1, 13)])
    db.commit()
    db.close()
    p = run(IOCENSUS, "idle", "--db", many, "--host", "y", want_rc=2)
    eq(p.stderr, "iocensus idle: --host y matches no host; hosts: %s, %s "
       "and 6 more\n" % (hosts, ", ".join("z%02d" % i for i in range(1, 7))),
       "sixteen hosts: ten named, six more counted")
    p = run(IOCENSUS, "idle", "--db", many, "--host", "z1?", "--format",
            "json")
    ok("No I/O data in the window." in json.loads(p.stdout)["notes"],
       "a known host without data: an empty window, exit 0")


NULLS = ("rd_bytes", "wr_bytes", "rd_mib_s", "wr_mib_s", "rd_max_mib_s",
         "wr_max_mib_s", "read_share")


def missing_window(c, m):
    """An explicit window without a complete minute still has a row per
    bucket, the rows a larger window shows for the same minutes."""
    for frm, to, every, flag in ((GONE[0] + 3600, GONE[0] + 7200, 60, "1m"),
                                 (GONE[0], GONE[0] + 6 * 3600, 3600, "1h"),
                                 (GONE[0], GONE[1], DAY, "1d")):
        name = "throughput --every %s over %d missing minutes" % (
            flag, (to - frm) // 60)
        out = c.json("throughput", "--every", flag, "--from", str(frm),
                     "--to", str(to))
        rows = out["tables"]["series"]["rows"]
        eq(len(rows), (to - frm) // every, name + ": one row per bucket")
        eq([r["t"] for r in rows], list(range(frm, to, every)),
           name + ": bucket starts")
        ok(all(r["minutes"] == every // 60 and r["complete"] == 0 and
               r["partial"] == 1 and all(r[k] is None for k in NULLS)
               for r in rows), name + ": null values, never 0")
        tot = out["tables"]["totals"]["rows"]
        eq([(t["complete"], t["calendar_minutes"], t["rd_bytes"],
             t["peak_rd_t"]) for t in tot], [(0, (to - frm) // 60, None, None)],
           name + ": totals count the minutes and sum nothing")
        compare(out, O.throughput(m.series(frm=frm, to=to), every), name)
        big = c.json("throughput", "--every", flag, "--from", str(frm - DAY),
                     "--to", str(to + every))
        eq([r for r in big["tables"]["series"]["rows"] if frm <= r["t"] < to],
           rows, name + ": the rows of a larger window")
    # Not bucket-aligned: 90 minutes from :30 touch three hours.
    out = c.json("throughput", "--from", str(GONE[0] + 1800), "--to",
                 str(GONE[0] + 7200), "--every", "1h")
    eq([(r["t"], r["minutes"]) for r in out["tables"]["series"]["rows"]],
       [(GONE[0], 30), (GONE[0] + 3600, 60)], "a ragged missing window")


def annotations(c, m, tmp):
    path = os.path.join(tmp, "maint.txt")
    outage = 'outage, "unplanned" <b>'
    ann = [(D1, D1 + 3600, "planned"),
           (GONE[0] + 6 * 3600, GONE[0] + 7 * 3600 + 1800, outage),
           (GONE[0] + 30, GONE[0] + 90, "a minute and a half"),
           (GONE[1] - 1800, GONE[1] + 1800, "across the gone day's end"),
           (1577836800, 1577923200, "before the data")]
    with open(path, "w") as f:
        f.write("# maintenance\n%d %d planned\n"
                "2023-11-16 06:00 2023-11-16 07:30 %s\n"
                "@%d %d a minute and a half\n"
                "%d %d across the gone day's end\n"
                "2020-01-01 2020-01-02 before the data\n" % (
                    D1, D1 + 3600, outage, GONE[0] + 30, GONE[0] + 90,
                    GONE[1] - 1800, GONE[1] + 1800))
    s = m.series()
    for every, flag in ((3600, "1h"), (60, "1m"), (DAY, "1d")):
        out = c.json("throughput", "--every", flag, "--annotate", path)
        compare(out, O.throughput(s, every, ann), "throughput --annotate "
                "--every " + flag)
    rows = out["tables"]["annotations"]["rows"]
    # By the dataset's design: the gone day has no complete minute.
    eq([(r["from"], r["to"], r["label"], r["minutes"], r["complete"],
         r["missing"]) for r in rows[1:3] + rows[4:]],
       [(GONE[0] + 6 * 3600, GONE[0] + 7 * 3600 + 1800, outage, 90, 0, 90),
        (GONE[0] + 30, GONE[0] + 90, "a minute and a half", 2, 0, 2),
        (1577836800, 1577923200, "before the data", 0, 0, 0)],
       "annotations: minutes of the gone day missing, a window outside none")
    eq(out["tables"]["series"]["rows"][(GONE[0] - START // DAY * DAY) // DAY]
       ["annotation"], "%s; a minute and a half; across the gone day's end" %
       outage, "annotations: a day bucket names every window over it")
    plain = c.json("throughput", "--every", "1d")
    ok("annotations" not in plain["tables"] and
       "annotation" not in plain["tables"]["series"]["rows"][0],
       "no --annotate: no annotation table or column")
    p = run(IOCENSUS, "throughput", "--db", c.db, "--annotate", path,
            "--format", "csv", "--table", "annotations")
    got = list(csv.reader(io.StringIO(p.stdout)))
    eq(got[0], ["from", "to", "label", "minutes", "complete", "missing"],
       "annotations CSV: header")
    eq([r[2] for r in got[1:]], [a[2] for a in ann],
       "annotations CSV: labels quoted and read back exactly")
    p = run(IOCENSUS, "throughput", "--db", c.db, "--annotate", path)
    ok("Annotated windows (--annotate)" in p.stdout and outage in p.stdout,
       "annotations: the table format prints the windows")
    with open(path, "a") as f:
        f.write("2023-11-16 2023-11-15 backwards\n")
    p = run(IOCENSUS, "throughput", "--db", c.db, "--annotate", path,
            want_rc=2)
    ok(path + ":7:" in p.stderr, "bad annotation: FILE:LINE in the message",
       p.stderr.strip())


def stale(c, m):
    """Hours left dirty by an interrupted ingest are reported."""
    for t0, hours in ((D1, "1 hour"), (D1 + 3600, "2 hours")):
        db = sqlite3.connect(c.db)
        db.execute("INSERT INTO io_dirty (t0) VALUES (?)", (t0,))
        db.commit()
        db.close()
        for cmd in ("throughput", "cdf", "idle"):
            out = c.json(cmd)
            note = "Derived tables are stale for %s: run iocensus ingest." % (
                hours)
            ok(note in out["notes"], "%s: stale roll-up note, %s" % (
                cmd, hours), repr(out["notes"]))


def stopped_host(tmp):
    """3 hosts x 2 days; h001's daemon stops at the end of day 1 (no T
    block from D1 + DAY on). Its last sample covers the minute before the
    last of day 1, so by design day 1 has 1439 complete minutes and day 2
    none: h001 is expected, hence missing, to the end of the data."""
    d = os.path.join(tmp, "stopped")
    ds = Dataset(seed=12, hosts=3, devs_per_host=3, start=D1,
                 minutes=2 * 1440)
    ds.missing(D1 + DAY, D1 + 2 * DAY + 60, host="h001")
    paths = ds.write(d)
    m = build([load_raw(p, os.path.basename(p)[:-4]) for p in paths])
    c = Census(d, paths)
    s = m.series()
    out = c.json("cdf")
    compare(out, O.cdf(s), "stopped host: cdf")
    check_notes(out, s, "stopped host: cdf")
    summ = out["tables"]["summary"]["rows"][0]
    eq((summ["n"], summ["calendar_minutes"]), (1439, 2880),
       "stopped host: 1439 of 2880 minutes complete (by design)")
    out = c.json("throughput", "--every", "1d")
    compare(out, O.throughput(s, DAY), "stopped host: throughput --every 1d")
    eq([(r["t"], r["complete"], r["partial"], r["rd_bytes"])
        for r in out["tables"]["days"]["rows"]],
       [(D1, 1439, 1, out["tables"]["days"]["rows"][0]["rd_bytes"]),
        (D1 + DAY, 0, 1, None)],
       "stopped host: day 2 has no complete minute, no bytes (by design)")
    out = c.json("idle", "--threshold", "1")
    compare(out, O.idle(s, 1.0), "stopped host: idle")
    out = c.json("cdf", "--host", "h00[02]")
    eq(out["tables"]["summary"]["rows"][0]["n"], 2880,
       "stopped host: the hosts still logging are complete (by design)")
    # The benchmark's baseline agrees, through the benchmark's checker.
    mine = os.path.join(d, "cdf.json")
    with open(mine, "w") as f:
        f.write(run(IOCENSUS, "cdf", "--db", c.db, "--format",
                    "json").stdout)
    py = os.path.join(d, "pycdf.json")
    with open(py, "w") as f:
        f.write(run(sys.executable, os.path.join(BENCH, "pycdf.py"),
                    "--json", *paths).stdout)
    eq(json.load(open(py))["n"], 1439, "stopped host: pycdf.py n")
    chk = run(sys.executable, os.path.join(BENCH, "cdfcheck.py"), mine, py)
    ok(chk.stdout.startswith("agree:"), "stopped host: pycdf.py agrees "
       "with iocensus cdf", chk.stdout.strip())


def main():
    tmp = tempfile.mkdtemp(prefix="t_io_analyses.")
    try:
        paths = dataset().write(tmp)
        m = build([load_raw(p, os.path.basename(p)[:-4]) for p in paths])
        c = Census(tmp, paths)
        whole_window(c, m)
        design_facts(c, m)
        windows(c, m)
        annotations(c, m, tmp)
        stale(c, m)
        stopped_host(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    done()


if __name__ == "__main__":
    main()
