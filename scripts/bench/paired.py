#!/usr/bin/env python3
"""paired.py: whole-process wall and CPU times of several commands, run in
turn.

    paired.py [--runs N] [--warmup W] [--cold] [--rm PATH]...
              NAME=CMD NAME=CMD ...

Each round runs every command once, in an order that rotates from round to
round (A B C, B C A, C A B, ...), so that a drift of a shared machine's
speed, or the command that runs first after the cache was warmed, favours
none. With --cold, the page cache, dentries and inodes are dropped before
every run (sync; echo 3 > /proc/sys/vm/drop_caches, as root), outside the
timed part: every run then walks a cold cache. CMD is split as a shell
splits words, and run without a shell (benchtime.run_once: peak RSS from GNU
time). Each --rm PATH is deleted before every run.

Prints, per command:
    NAME median min max peak_rss_kib worst_exit cpu_median cpu_min cpu_max
and then, for every command after the first, the first's time over its
time, taken round by round, wall then CPU (user + system, the command's
own and its children's, from wait4):
    FIRST/NAME median min max cpu_median cpu_min cpu_max
On a machine that others use too, CPU time moves less with their load
than wall time does.
"""
import argparse
import os
import shlex
import statistics
import subprocess
import sys
import tempfile

from benchtime import GNU_TIME, run_once

DROP = "/proc/sys/vm/drop_caches"


def drop_caches():
    subprocess.run(["sync"], check=False)
    with open(DROP, "w") as f:
        f.write("3\n")


def can_drop():
    """None when this process can drop the caches, else why not."""
    if os.geteuid() != 0:
        return "not root: cannot drop the page cache"
    if not os.access(DROP, os.W_OK):
        return "%s is not writable here" % DROP
    return None


def spread(v, fmt):
    """median min max of v, each as fmt."""
    return " ".join(fmt % x for x in (statistics.median(v), min(v), max(v)))


def ratios(by, first, name):
    """first's value over name's, round by round (0 where name's is 0)."""
    return [x / y if y else 0.0 for x, y in zip(by[first], by[name])]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--warmup", type=int, default=1)
    ap.add_argument("--cold", action="store_true")
    ap.add_argument("--check-cold", action="store_true",
                    help="exit 0 when --cold can work here, else print why")
    ap.add_argument("--rm", action="append", default=[])
    ap.add_argument("cmds", nargs="*")
    a = ap.parse_args()
    if a.check_cold:
        why = can_drop()
        if why:
            print(why)
        return 1 if why else 0
    cmds = []
    for c in a.cmds:
        name, eq, line = c.partition("=")
        if not eq or not name or not line:
            ap.error("%s: want NAME=CMD" % c)
        cmds.append((name, shlex.split(line)))
    if not cmds or a.runs < 1:
        ap.error("need NAME=CMD and --runs >= 1")
    if a.cold and can_drop():
        ap.error(can_drop())
    rssfile = None
    if os.access(GNU_TIME, os.X_OK):
        fd, rssfile = tempfile.mkstemp(prefix="paired.")
        os.close(fd)
    times = {n: [] for n, _ in cmds}
    cpus = {n: [] for n, _ in cmds}
    rss = {n: 0 for n, _ in cmds}
    worst = {n: 0 for n, _ in cmds}
    try:
        for rnd in range(a.warmup + a.runs):
            k = rnd % len(cmds)
            for name, argv in cmds[k:] + cmds[:k]:
                if a.cold:
                    drop_caches()
                cpu = []
                dt, r, st = run_once(argv, a.rm, rssfile, cpu)
                worst[name] = max(worst[name], st)
                if rnd >= a.warmup:
                    times[name].append(dt)
                    cpus[name].append(cpu[0])
                    rss[name] = max(rss[name], r)
    finally:
        if rssfile:
            os.unlink(rssfile)
    for name, _ in cmds:
        print("%s %s %d %d %s" % (name, spread(times[name], "%.4f"),
                                  rss[name], worst[name],
                                  spread(cpus[name], "%.4f")))
    first = cmds[0][0]
    for name, _ in cmds[1:]:
        print("%s/%s %s %s" % (first, name,
                               spread(ratios(times, first, name), "%.3f"),
                               spread(ratios(cpus, first, name), "%.3f")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
