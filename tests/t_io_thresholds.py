#!/usr/bin/env python3
"""t_io_thresholds: --peak, --host-peak and --threshold are the decimals
the user typed, compared exactly.

Two tiny raw captures of one device go through `iostatmon import` and
`iocensus ingest`; every expectation below is worked out by hand from the
sector counts (512-byte sectors, one-minute samples), not from an oracle.

  exact27: minutes of 331776, 0, 0 sectors. 331776 * 512 B in 60 s is
      2.7 MiB/s exactly, so the minute is 100% of --peak 2.7, 75% of
      --peak 3.6 and 50% of --host-peak 5.4: never below. (As doubles
      2.7, 3.6 and 5.4 are all a little above their decimals, which made
      that minute count as below.)
  pct: minutes of 40000, 2223, 2221, 2222, 0, 1, 2 sectors. The observed
      peak is 40000 sectors; 5.555% of it is 2222 sectors and 5.5575% is
      2223, 0.004% is 1.6. (Rounded to 0.01%, 5.555 acted as 5.56 = 2224
      sectors and 0.004 as 0.)
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from tap import ok, eq, done                     # noqa: E402

BUILD = os.environ["BUILD"]
IOCENSUS = os.path.join(BUILD, "iocensus")
IOSTATMON = os.path.join(BUILD, "iostatmon")
T0 = 1699920000                                  # 2023-11-14 00:00 UTC


def run(*args):
    p = subprocess.run(list(args), capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def capture(path, sectors):
    """One sample a minute; the counters grow by sectors[i] in minute i
    (and one read each minute, so no minute is strictly idle)."""
    total = 0
    with open(path, "w") as f:
        for i in range(len(sectors) + 1):
            f.write("T %d\n" % (T0 + 60 * i))
            f.write("   8      16 sdb %d 0 %d 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
                    % (i, total))
            if i < len(sectors):
                total += sectors[i]


def make_db(d, name, sectors):
    raw, log = os.path.join(d, name + ".raw"), os.path.join(d, name + ".log")
    db = os.path.join(d, name + ".db")
    capture(raw, sectors)
    for args in ((IOSTATMON, "import", raw, "--host", "a", "--out", log),
                 (IOCENSUS, "ingest", "--db", db, log)):
        rc, _, err = run(*args)
        if rc != 0:
            raise RuntimeError("%s: exit %d: %s" % (" ".join(args), rc, err))
    return db


def query(db, cmd, *opts):
    """(exit status, JSON tables or None, stderr)."""
    rc, out, err = run(IOCENSUS, cmd, "--db", db, "--format", "json", *opts)
    return rc, json.loads(out)["tables"] if rc == 0 else None, err


def summary(db, cmd, *opts):
    rc, t, err = query(db, cmd, *opts)
    if not ok(rc == 0, "%s %s: exit 0" % (cmd, " ".join(opts)), err):
        return {}
    return t["summary"]["rows"][0]


def idle_counts(db, *opts):
    s = summary(db, "idle", *opts)
    return s.get("n"), s.get("idle_minutes"), s.get("idle_periods")


def check_exact27(db):
    eq(idle_counts(db, "--peak", "2.7", "--threshold", "100"), (3, 2, 1),
       "idle --peak 2.7 --threshold 100: the 2.7 MiB/s minute is not idle")
    eq(idle_counts(db, "--peak", "2.7000000", "--threshold", "100.000"),
       (3, 2, 1), "trailing zeros change nothing")
    s = summary(db, "idle", "--peak", "2.7", "--threshold", "100")
    eq((s.get("peak_mib_s"), s.get("threshold_pct"), s.get("peak_source")),
       (2.7, 100, "configured"), "idle summary: the peak and threshold")
    rc, t, err = query(db, "cdf", "--peak", "3.6")
    below = {r["f_pct"]: r["minutes"] for r in t["below_peak"]["rows"]} \
        if rc == 0 else {}
    eq(below.get(75), 2, "cdf --peak 3.6: the 2.7 MiB/s minute is not "
       "below 75% (2.7 MiB/s exactly)")
    eq(below.get(50), 2, "cdf --peak 3.6: nor below 50%")
    rc, t, err = query(db, "burst", "--host-peak", "5.4")
    rows = t["load_classes"]["rows"] if rc == 0 else []
    eq([(r["class"], r["ratio"]) for r in rows], [("mid", 0.5)],
       "burst --host-peak 5.4: 2.7 MiB/s is 50% exactly: mid, ratio 0.5")
    rc, t, err = query(db, "burst", "--host-peak", "27")
    rows = t["load_classes"]["rows"] if rc == 0 else []
    eq([(r["class"], r["ratio"]) for r in rows], [("low", 0.1)],
       "burst --host-peak 27: 10% exactly is low, ratio 0.1")


def check_pct(db):
    # Idle at 5.555% (< 2222 sectors): 2221, then 0, 1, 2: two periods.
    eq(idle_counts(db, "--threshold", "5.555"), (7, 4, 2),
       "idle --threshold 5.555: 2223 (5.5575%) and 2222 (5.555%) busy")
    eq(idle_counts(db, "--threshold", "5.5575"), (7, 5, 1),
       "idle --threshold 5.5575: 2222 idle, 2223 (exactly) busy")
    # 0.004% of 40000 sectors is 1.6: the 0 and 1 sector minutes.
    eq(idle_counts(db, "--threshold", "0.004"), (7, 2, 1),
       "idle --threshold 0.004: the zero and one-sector minutes are idle")
    eq(idle_counts(db, "--threshold", "0.000001"), (7, 1, 1),
       "idle --threshold 0.000001: only the zero minute is idle")
    s = summary(db, "idle", "--threshold", "5.555")
    eq(s.get("threshold_pct"), 5.555, "summary: threshold 5.555")
    rc, out, err = run(IOCENSUS, "idle", "--db", db, "--threshold", "5.555")
    ok("X < 5.555% of peak" in out, "the note prints 5.555%", out[:400])
    # One idle minute, the zero one (the fifth): a singular note.
    rc, out, err = run(IOCENSUS, "idle", "--db", db, "--threshold",
                       "0.000001")
    ok("Longest idle period: 1 minute from 2023-11-14 00:04 UTC." in out,
       "the note says 1 minute", out[:600])


def check_usage(db):
    for opt, val in (("--threshold", "1.0000001"), ("--threshold", "0"),
                     ("--threshold", "100.000001"), ("--threshold", "1e1"),
                     ("--threshold", ".5"), ("--threshold", "-5"),
                     ("--peak", "0.0000001"), ("--peak", "1099511627776.5"),
                     ("--peak", "2k"), ("--host-peak", "1e3")):
        cmd = "burst" if opt == "--host-peak" else "idle"
        rc, out, err = run(IOCENSUS, cmd, "--db", db, opt, val)
        eq(rc, 2, "%s %s %s: usage error" % (cmd, opt, val))
        ok(("%s %s: expected" % (opt, val)) in err and "6 decimals" in err,
           "%s %s: the message names the option" % (opt, val), err)
    rc, out, err = run(IOCENSUS, "idle", "--db", db, "--peak",
                       "1099511627776", "--threshold", "0.000001")
    eq(rc, 0, "--peak 2^40 with a six-decimal threshold is accepted")


def main():
    with tempfile.TemporaryDirectory() as d:
        check_exact27(make_db(d, "exact27", [331776, 0, 0]))
        db = make_db(d, "pct", [40000, 2223, 2221, 2222, 0, 1, 2])
        check_pct(db)
        check_usage(db)
    done()


main()
