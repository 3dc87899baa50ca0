#!/usr/bin/env python3
# tests/run: once
"""t_bench_capacity: make bench's capacity step still runs on the schema of
today, at a small size (4 file systems x 5 projects x 30 weeks, one run):
scripts/bench/capgen.py writes its history through the tables fsscan
creates, and iocensus's growth dates and every project's full date agree
with the independent Python peer (scripts/bench/pycapacity.py), as the
benchmark itself checks. Its timings are not looked at.
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "lib"))
from tap import done, ok  # noqa: E402
from pace import limit  # noqa: E402

TOP = os.environ.get("TOP") or os.path.dirname(
    os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("BUILD") or os.path.join(TOP, "build")


def main():
    env = dict(os.environ, BUILD=BUILD, BENCH_RUNS="1", BENCH_CAP_FS="4",
               BENCH_CAP_PROJECTS="5", BENCH_CAP_WEEKS="30")
    p = subprocess.run([os.path.join(TOP, "scripts", "bench", "capacity")],
                       env=env, capture_output=True, text=True, timeout=limit(300))
    out = p.stdout + p.stderr
    ok(p.returncode == 0 and "Traceback" not in out and "failed" not in out,
       "the capacity bench runs", out[-1500:])
    m = re.search(r"generated in \d+ s: (\d+) snapshots, (\d+) project rows",
                  out)
    ok(m and m.group(1) == "120", "capgen writes 4 x 30 snapshots",
       m.group(0) if m else out[-500:])
    ok(re.search(r"growth dates: iocensus \[\d+, \d+, \d+\], Python "
                 r"\[\d+, \d+, \d+\]: same", out),
       "growth dates as the Python peer's", out[-800:])
    m = re.search(r"capacity: (\d+) projects' dates, (\d+) differ", out)
    ok(m and int(m.group(1)) == 20 and m.group(2) == "0",
       "every project's full date as the Python peer's",
       m.group(0) if m else out[-800:])
    done()


if __name__ == "__main__":
    main()
