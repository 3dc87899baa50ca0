#!/usr/bin/env python3
# tests/run: alone
"""t_cold_cache: fsscan on a cold cache, where its pool adapts (walk/tune.c).

A 20,000-entry tree on a disk-backed file system, the page cache, dentries
and inodes dropped before each scan (as root): the default scan, which
adds threads while its threads wait on the disk, and -j 3, which fixes the
count, both count what find(1) counts; -j 3 records 3 threads in
scan_rank, and the default at least the threads it starts with (the CPUs,
at most 8) and at most 32. Whether the default adds threads depends on
the disk; how much it gains is make bench's to measure (scripts/bench/
cold), not this test's.

It runs alone: dropping the caches slows whatever else reads files.
"""
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "lib"))
from tap import done, eq, ok, skip  # noqa: E402

TOP = os.environ.get("TOP") or os.path.dirname(
    os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("BUILD") or os.path.join(TOP, "build")
FSSCAN = os.environ.get("FSSCAN") or os.path.join(BUILD, "fsscan")
DROP = "/proc/sys/vm/drop_caches"


def drop_caches():
    subprocess.run(["sync"], check=False)
    with open(DROP, "w") as f:
        f.write("3\n")


def find_census(root):
    """files (once per inode), bytes, dirs, symlinks as find sees them."""
    p = subprocess.run(["find", root, "-printf", "%y %i %s\\n"],
                       capture_output=True, text=True, check=True)
    files, dirs, links = {}, 0, 0
    for line in p.stdout.splitlines():
        kind, ino, size = line.split()
        if kind == "f":
            files[ino] = int(size)
        dirs += kind == "d"
        links += kind == "l"
    return (len(files), sum(files.values()), dirs, links)


def scan(tmp, root, args):
    db = os.path.join(tmp, "db", "census.db")
    for suffix in ("", "-wal", "-journal", "-shm"):
        if os.path.exists(db + suffix):
            os.unlink(db + suffix)
    drop_caches()
    p = subprocess.run([FSSCAN, "--quiet", "--db", db] + args + [root],
                       capture_output=True, text=True)
    if p.returncode != 0:
        return None, p.stderr[-300:]
    with sqlite3.connect(db) as c:
        tot = c.execute("SELECT files, bytes, dirs, symlinks"
                        " FROM v_snapshot").fetchone()
        threads = c.execute("SELECT threads FROM scan_rank").fetchone()[0]
    return (tuple(tot), threads), ""


def main():
    if os.geteuid() != 0 or not os.access(DROP, os.W_OK):
        skip("cold scans", "dropping the page cache needs root", "root")
        done()
    base = "/var/tmp"
    fstype = subprocess.run(["stat", "-f", "-c", "%T", base],
                            capture_output=True, text=True).stdout.strip()
    if fstype in ("tmpfs", "ramfs"):
        skip("cold scans", "%s is %s: nothing to drop" % (base, fstype))
        done()
    tmp = tempfile.mkdtemp(prefix="t_cold_cache.", dir=base)
    try:
        os.mkdir(os.path.join(tmp, "db"), 0o700)
        root = os.path.join(tmp, "tree")
        subprocess.run([sys.executable, os.path.join(TOP, "scripts", "bench",
                        "mktree.py"), "--entries", "20000", "--seed", "3",
                        "--shuffle", root], capture_output=True, check=True)
        want = find_census(root)
        start = min(8, os.cpu_count() or 1)
        got, why = scan(tmp, root, [])
        if ok(got is not None, "cold, default threads: scan", why):
            eq(got[0], want, "cold, default threads: files, bytes, dirs,"
               " symlinks = find's")
            ok(start <= got[1] <= 32, "default: %d threads at most, from"
               " %d, within 32" % (got[1], start))
        got, why = scan(tmp, root, ["-j", "3"])
        if ok(got is not None, "cold, -j 3: scan", why):
            eq(got[0], want, "cold, -j 3: files, bytes, dirs, symlinks ="
               " find's")
            eq(got[1], 3, "-j 3: 3 threads, fixed")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    done()


if __name__ == "__main__":
    main()
