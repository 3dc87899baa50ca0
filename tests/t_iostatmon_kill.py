#!/usr/bin/env python3
"""The kill test: SIGKILL iostatmon at 100 random moments while it samples
a fast-changing fake diskstats, restarting it after each kill.

The daemon runs with --interval 0.2 (five samples a second, so that 100
kills fit in well under a minute) and -v, which prints a line for every
sample after its record was written. At the end one clean run stops with
SIGTERM. Then:
  - the log passes `gzip -t`: every torn member was repaired before the
    next run appended to it;
  - every sample any run reported as written decodes: a kill loses at most
    the record being written;
  - at most one decoded sample per run was not reported (the one written
    just before the kill);
  - every decoded delta equals the delta computed here from the
    fixture's counters for the two versions the interval spans.
Kill moments are uniform over the first 0.7 s of each run, so they land in
start-up, repair, sampling and idle waits alike. Set KILL_SEED to replay.
"""
import glob
import os
import random
import shutil
import signal
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from tap import ok, eq, done  # noqa: E402
import fakeproc  # noqa: E402
from iostatmon_run import Daemon, BIN, gzip_ok  # noqa: E402

CYCLES = 100
INTERVAL = 0.2


def main():
    seed = int(os.environ.get("KILL_SEED", random.randrange(1 << 30)))
    print("# KILL_SEED=%d" % seed)
    rng = random.Random(seed)
    tmp = tempfile.mkdtemp(prefix="t_iostatmon_kill.")
    try:
        run(tmp, rng)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    done()


def run(tmp, rng):
    root = fakeproc.FakeRoot(os.path.join(tmp, "root"), INTERVAL)
    root.start()
    logdir = os.path.join(tmp, "log")
    args = ["-i", str(INTERVAL), "--all-devices", "--proc", root.proc,
            "--sys", root.sys, "-o", logdir, "--host", "killhost", "-v"]
    runs, repairs, bad_exit = [], 0, []
    for i in range(CYCLES):
        start = time.time_ns()
        d = Daemon(args)
        time.sleep(rng.uniform(0.0, 0.7))
        d.p.send_signal(signal.SIGKILL)
        rc = d.finish()
        end = time.time_ns()
        if rc != -signal.SIGKILL:
            bad_exit.append((i, rc, d.lines[-3:]))
        repairs += sum("torn tail" in ln for ln in d.lines)
        runs.append((start, end, d.written()))
    last = Daemon(args)
    ok(last.wait_written(3), "final run: samples written")
    last.p.send_signal(signal.SIGTERM)
    eq(last.finish(), 0, "final run: SIGTERM exits 0")
    root.stop()
    runs.append((0, 0, last.written()))

    eq(bad_exit, [], "every run was still alive when killed")
    ok(repairs > 0, "torn tails were found and repaired on restart",
       "no run reported a repair")
    files = sorted(glob.glob(os.path.join(logdir, "*.iolog.gz")))
    ok(files and gzip_ok(files), "log passes gzip -t after %d kills" % CYCLES)
    rows, err, st = fakeproc.dump(BIN, files)
    eq(st, 0, "dump exits 0")
    n, problems = fakeproc.check_rows(rows)
    eq(problems, [], "no decoded sample is wrong")
    decoded = {fakeproc.t_ns(r["t"]) for r in rows if r["device"] == "sda"}
    reported = [t for _, _, w in runs for t in w[1:]]   # w[0]: keyframe
    ok(len(reported) >= CYCLES // 4, "the runs sampled",
       "only %d samples reported" % len(reported))
    lost = [t for t in reported if t not in decoded]
    eq(lost, [], "every sample reported written decodes")
    extra = []
    for start, end, w in runs[:-1]:
        mine = [t for t in decoded if start <= t <= end and t not in w]
        if len(mine) > 1:
            extra.append(mine)
    eq(extra, [], "at most one unreported sample per killed run")
    print("# %d runs, %d samples reported, %d decoded, %d repairs" % (
        len(runs), len(reported), len(decoded), repairs))


if __name__ == "__main__":
    main()
