#!/usr/bin/env python3
"""t_io_strict: the strict idle variant ("no disk activity at all") when
samples straddle minutes.

One device, samples at :30 of every minute (T0 + 30 + 60 i, i = 0..7):
100 reads of 12,288,000 sectors in the interval ending at T0 + 90, one
read of one sector in the interval ending at T0 + 270, nothing else.
Worked out by hand (minutes [T0 + 60 k, T0 + 60 k + 60)):

  k = 0 and 7 are only half covered: missing; k = 1..6 are complete (6).
  k = 1 gets half of the 100 reads: busy.
  k = 2: nothing at all: strictly idle.
  k = 3 gets half of the one-sector read: 256 bytes, and 0 requests once
      the request is split in whole requests (floor): bytes moved, so
      not strictly idle (it was, when only requests were looked at).
  k = 4 gets the request and the other 256 bytes.
  k = 5, 6: nothing: strictly idle.
So 3 strictly idle minutes in 2 periods, the longest 2 minutes from
T0 + 300. Against the observed peak (minute 1, 50 MiB/s), the 5%
threshold makes k = 2..6 idle: one period of 5 minutes from T0 + 120.
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from tap import eq, ok, done                     # noqa: E402

BUILD = os.environ.get("BUILD", "build")
T0 = 1699920000                                  # 2023-11-14 00:00 UTC


def run(*args):
    p = subprocess.run([str(a) for a in args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def main():
    d = tempfile.mkdtemp(prefix="t_io_strict.")
    raw, log, db = (os.path.join(d, n) for n in ("s.raw", "s.log", "s.db"))
    with open(raw, "w") as f:
        for i in range(8):
            ios, sectors = (0, 0) if i < 1 else (100, 12288000) if i < 4 \
                else (101, 12288001)
            f.write("T %d\n   8      16 sdb %d 0 %d 0 0 0 0 0 0 0 0 0 0 0 "
                    "0 0 0\n" % (T0 + 30 + 60 * i, ios, sectors))
    eq(run(os.path.join(BUILD, "iostatmon"), "import", raw, "--host", "a",
           "--out", log)[0], 0, "import")
    eq(run(os.path.join(BUILD, "iocensus"), "ingest", "--db", db, log)[0], 0,
       "ingest")
    rc, out, err = run(os.path.join(BUILD, "iocensus"), "idle", "--db", db,
                       "--format", "json")
    ok(rc == 0, "idle: exit 0", err)
    t = json.loads(out)["tables"] if rc == 0 else {}
    s = t.get("summary", {}).get("rows", [{}])[0]
    got = {k: s.get(k) for k in ("n", "strict_minutes", "strict_periods",
                                 "longest_strict_minutes", "longest_strict_t",
                                 "idle_minutes", "idle_periods",
                                 "longest_minutes", "longest_t")}
    eq(got, {"n": 6, "strict_minutes": 3, "strict_periods": 2,
             "longest_strict_minutes": 2, "longest_strict_t": T0 + 300,
             "idle_minutes": 5, "idle_periods": 1, "longest_minutes": 5,
             "longest_t": T0 + 120},
       "a minute with 256 bytes but no whole request is not strictly idle")
    notes = json.loads(out)["notes"] if rc == 0 else []
    for want in ("Coverage: 6 of 8 calendar minutes complete (75.00%); "
                 "0 of 1 day has no complete minute.",
                 "Window: 2023-11-14 00:00 to 2023-11-14 00:08 UTC; 1 host, "
                 "1 device.",
                 "Longest strictly idle period: 2 minutes from "
                 "2023-11-14 00:05 UTC."):
        ok(want in notes, "note: " + want, repr(notes))
    done()


main()
