#!/usr/bin/env python3
# tests/run: once
"""t_bench_cold: make bench's cold step (scripts/bench/cold) runs at a
small size (trees of 3,000 and 2,000 entries, one round each) and prints,
for both trees, a cold (as root) and a warm table with fsscan's ratio to
du in wall and in CPU time, and du's CPU time, whose values it does not
bound: timing bounds are the bench's. The cold tables' goal lines (CPU
at most 1.0 of du's, wall at most 0.40) say met or miss as the printed
ratios do.

The aged tree (mktree.py --shuffle) holds the same entries as the tree
made in the default order from the same seed, as find lists them, and
was made in a shuffled order: files made at the same time (their change
times, set as each file is made, in the file system's ticks of a few
ms) belong to few directories in the default order, and mostly each to
another in the aged one; where the times are finer than the making of a
file, a file made next is of the same directory in the default order,
and seldom in the aged one. (Where the
file system puts their inodes is its own affair, which ext4 decides by
its groups and its recently freed inodes.)
"""
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "lib"))
from tap import done, ok  # noqa: E402
from pace import limit  # noqa: E402

TOP = os.environ.get("TOP") or os.path.dirname(
    os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("BUILD") or os.path.join(TOP, "build")
MKTREE = os.path.join(TOP, "scripts", "bench", "mktree.py")


def listing(root):
    """Every entry below root with its type and size, as find sees it."""
    p = subprocess.run(["find", root, "-mindepth", "1", "-printf",
                        "%P %y %s\\n"], capture_output=True, text=True)
    return sorted(p.stdout.splitlines())


def mixing(root):
    """How mixed the directories of files made together are, 0 to 1: the
    share of files, in the order they were made, in another directory
    than the file made before. The order is ctime's, a tick of the
    kernel's clock (some milliseconds) breaking ties by inode number,
    which the file systems here hand out in the order asked."""
    made = []
    for d, _, files in os.walk(root):
        for f in files:
            st = os.lstat(os.path.join(d, f))
            if stat.S_ISREG(st.st_mode) and st.st_nlink == 1:
                made.append((st.st_ctime_ns, st.st_ino, d))
    made.sort()
    other = sum(a[2] != b[2] for a, b in zip(made, made[1:]))
    return other / (len(made) - 1) if len(made) > 1 else 0.0


def shuffled_tree(tmp):
    plain, aged = os.path.join(tmp, "plain"), os.path.join(tmp, "aged")
    for dest, extra in ((plain, []), (aged, ["--shuffle"])):
        subprocess.run([sys.executable, MKTREE, "--entries", "2000",
                        "--seed", "5", "--jobs", "1"] + extra + [dest],
                       capture_output=True, check=True)
    a, b = listing(plain), listing(aged)
    ok(len(a) > 1500 and a == b,
       "--shuffle: the same %d entries as the default order" % len(a))
    p, s = mixing(plain), mixing(aged)
    ok(p < 0.4 and s > 0.6,
       "--shuffle: the files of a directory made among everyone else's",
       "mixing: default %.2f, shuffled %.2f" % (p, s))


def goals_follow_ratios(tree, table):
    """The cold table's goal lines: CPU at most 1.0 and wall at most 0.40
    of du's, each met exactly when the ratio printed above says so."""
    m = re.search(r"fsscan/du +ratio ([0-9.]+) .*CPU ratio ([0-9.]+)", table)
    want = {"CPU": (float(m.group(2)), "1.0"), "wall": (float(m.group(1)),
                                                        "0.40")}
    for what, (ratio, bound) in want.items():
        verdict = "met" if ratio <= float(bound) else "miss"
        line = "  goal: fsscan/du %s %s <= %s: %s" % (
            what, m.group(2) if what == "CPU" else m.group(1), bound,
            verdict)
        ok(line in table.splitlines(), "%s, cold: the %s goal, %s" %
           (tree, what, verdict), table)


def bench_step(tmp):
    env = dict(os.environ, BUILD=BUILD, BENCH_DIR=tmp, BENCH_ENTRIES="3000",
               BENCH_AGED_ENTRIES="2000", BENCH_COLD_RUNS="1",
               BENCH_WARM_RUNS="1")
    env.pop("DWALK", None)
    p = subprocess.run([os.path.join(TOP, "scripts", "bench", "cold")],
                       env=env, capture_output=True, text=True, timeout=limit(600))
    out = p.stdout + p.stderr
    ok(p.returncode == 0 and "Traceback" not in out and "exit 0" in out and
       not re.search(r"exit [1-9]", out), "cold step runs", out[-800:])
    kinds = ["warm"]
    if os.geteuid() == 0 and os.access("/proc/sys/vm/drop_caches", os.W_OK):
        kinds.append("cold")
    else:
        ok("cold: skipped: " in out, "cold part skipped, and says why",
           out[-400:])
    for tree in ("tree-3000", "aged-2000"):
        for kind in kinds:
            m = re.search(r"^== %s: \S*%s, median of 1 rounds\n(.*?)(?=^==|\Z)"
                          % (kind, tree), out, re.M | re.S)
            ok(m and re.search(r"fsscan/du +ratio [0-9.]+ \([0-9.]+-[0-9.]+\)"
                               r"  CPU ratio [0-9.]+", m.group(1)),
               "%s, %s: fsscan's ratio to du, wall and CPU" % (tree, kind),
               out[-800:])
            ok(m and re.search(r"^  du +median +[0-9.]+ s .*  CPU [0-9.]+ s",
                               m.group(1), re.M),
               "%s, %s: du's CPU time" % (tree, kind), out[-800:])
            if kind == "cold" and m:
                goals_follow_ratios(tree, m.group(1))
    ok("dwalk: skipped (install mpifileutils' dwalk and set DWALK)" in out,
       "without DWALK, dwalk is skipped and the way to add it said")


def main():
    tmp = tempfile.mkdtemp(prefix="t_bench_cold.",
                           dir=os.environ.get("TMPDIR", "/var/tmp"))
    try:
        shuffled_tree(tmp)
        bench_step(tmp)
    finally:
        shutil.rmtree(tmp)
    done()


if __name__ == "__main__":
    main()
