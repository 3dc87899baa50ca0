#!/usr/bin/env python3
"""benchtime.py: wall time and peak RSS of a command over several runs.

    benchtime.py [--runs N] [--warmup W] [--rm PATH]... -- CMD [ARG]...

Runs CMD W times untimed (to warm the caches), then N times timed, with
stdout sent to /dev/null and no shell in between.  Each --rm PATH is deleted
before every run (e.g. the database fsscan writes, so each run pays for
creating it).  Wall time is whole-process time from fork to exit; peak RSS
is "Maximum resident set size" as /usr/bin/time (GNU time, package `time`)
reports it; without GNU time it falls back to wait4's ru_maxrss, which is
only an upper bound (it includes this script's own ~15 MiB).

Prints one line:  median min max maxrss_kib worst_exit_status
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time


GNU_TIME = "/usr/bin/time"


def run_once(cmd, rm, rssfile, cpu=None):
    """Run cmd once; return (wall seconds, peak RSS KiB, exit status).
    When cpu is a list, the command's CPU seconds (user + system, from
    wait4, which GNU time passes on from its child) are appended to it.

    ru_maxrss of our own child would include this Python process's RSS
    (Linux carries the high-water mark across fork/vfork and exec), so when
    GNU time is installed it forks the command from its small process and
    reports the command's own peak with %M.
    """
    for p in rm:
        try:
            os.unlink(p)
        except FileNotFoundError:
            pass
    argv = cmd
    if rssfile:
        argv = [GNU_TIME, "-q", "-f", "%M", "-o", rssfile] + cmd
    t0 = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    dt = time.perf_counter() - t0
    rss = usage.ru_maxrss
    if cpu is not None:
        cpu.append(usage.ru_utime + usage.ru_stime)
    if rssfile:
        with open(rssfile) as f:
            lines = f.read().split()
        rss = int(lines[-1]) if lines and lines[-1].isdigit() else 0
    return dt, rss, os.waitstatus_to_exitcode(status)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--warmup", type=int, default=1)
    ap.add_argument("--rm", action="append", default=[])
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.cmd[1:] if a.cmd[:1] == ["--"] else a.cmd
    if not cmd or a.runs < 1:
        ap.error("need a command and --runs >= 1")
    rssfile = None
    if os.access(GNU_TIME, os.X_OK):
        fd, rssfile = tempfile.mkstemp(prefix="benchtime.")
        os.close(fd)
    worst = 0
    for _ in range(a.warmup):
        _, _, st = run_once(cmd, a.rm, rssfile)
        worst = max(worst, st)
    times, rss = [], 0
    for _ in range(a.runs):
        dt, r, st = run_once(cmd, a.rm, rssfile)
        times.append(dt)
        rss = max(rss, r)
        worst = max(worst, st)
    if rssfile:
        os.unlink(rssfile)
    print("%.4f %.4f %.4f %d %d" % (statistics.median(times), min(times),
                                    max(times), rss, worst))


if __name__ == "__main__":
    sys.exit(main())
