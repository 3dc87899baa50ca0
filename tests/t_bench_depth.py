#!/usr/bin/env python3
# tests/run: once
"""t_bench_depth: make bench's depth step (scripts/bench/depth) runs at a
small size (chains 300 and 600 deep, v_dir of 100 and 200, one run each)
and prints a row per depth with fsscan's ratio to du -s and iocensus's
times, whose values it does not look at: timing bounds are the bench's.
The chains it makes are the depth asked for, as find counts them.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "lib"))
from tap import done, eq, ok  # noqa: E402
from pace import limit  # noqa: E402

TOP = os.environ.get("TOP") or os.path.dirname(
    os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("BUILD") or os.path.join(TOP, "build")


def main():
    tmp = tempfile.mkdtemp(prefix="t_bench_depth.")
    try:
        env = dict(os.environ, BUILD=BUILD, BENCH_RUNS="1", BENCH_DIR=tmp,
                   BENCH_DEPTHS="300 600", BENCH_VDIR_DEPTHS="100 200")
        p = subprocess.run([os.path.join(TOP, "scripts", "bench", "depth")],
                           env=env, capture_output=True, text=True,
                           timeout=limit(300))
        out = p.stdout + p.stderr
        ok(p.returncode == 0 and "Traceback" not in out and
           "failed" not in out and "exit status" not in out,
           "depth step runs", out[-600:])
        for d in (300, 600):
            ok(re.search(r"^\| %d \| [0-9.]+ \| [0-9.]+ \| [0-9.]+ \((pass|miss)\)"
                         % d, out, re.M),
               "depth %d: a row with fsscan/du" % d, out[-600:])
            n = subprocess.run(["find", os.path.join(tmp, "chain-%d" % d),
                                "-type", "d"], capture_output=True).stdout
            eq(n.count(b"\n"), d + 1, "chain-%d: %d directories below its"
               " root" % (d, d))
        ok(re.search(r"^\| 200 \| \d+ \| [0-9.]+ \| [0-9.]+ \| [0-9.]+ ", out,
                     re.M), "v_dir rate row at depth 200", out[-600:])
    finally:
        shutil.rmtree(tmp)
    done()


if __name__ == "__main__":
    main()
