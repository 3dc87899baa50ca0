#!/usr/bin/env python3
"""dbsize: what one snapshot adds to the census database, per project.

    dbsize.py --fsscan build/fsscan --dir DIR --projects 10000 \\
              --layout depth1|depth2 [--aged]

Makes DIR/tree-LAYOUT-N[-aged] once (kept for the next run): N projects of
5 small files each (120 B to 50 KB), as N top-level directories (depth1,
fsscan --project depth:1) or as 100 GROUP directories of N/100 USER
directories each (depth2, --project depth:2). --aged dates each project's
files 2 to 800 days back (atime and mtime apart), so that its histograms
have several buckets and its cold rows are not all zero; without it the
files keep the time they were made.

The tree is scanned twice into a new database (--cold 30,90,180,365, the
default --dirs, a fixed --now), each scan followed by VACUUM, and the
bytes of every table and index (the dbstat virtual table: its pages) are
printed after each: the second scan's growth divided by N is what a
snapshot costs per project. The database file's growth is printed too.
"""
import argparse
import os
import sqlite3
import subprocess
import sys
import tempfile

DAY = 86400
NOW = 1767225600          # 2026-01-01: the ages of --aged count from here
SIZES = (120, 900, 3000, 12000, 50000)
ATIME_DAYS = (2, 40, 100, 200, 400)
MTIME_DAYS = (10, 60, 150, 300, 800)


def make_tree(path, n, layout, aged):
    if os.path.isdir(path):
        return
    tmp = path + ".part"
    os.makedirs(tmp, exist_ok=True)
    data = b"x" * max(SIZES)
    groups = 100 if layout == "depth2" else 1
    for i in range(n):
        if layout == "depth2":
            d = os.path.join(tmp, "g%03d" % (i % groups),
                             "user%06d" % i)
        else:
            d = os.path.join(tmp, "proj%06d" % i)
        os.makedirs(d, exist_ok=True)
        for k, size in enumerate(SIZES):
            f = os.path.join(d, "f%d" % k)
            fd = os.open(f, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            os.write(fd, data[:size])
            os.close(fd)
            if aged:
                os.utime(f, (NOW - ATIME_DAYS[k] * DAY,
                             NOW - MTIME_DAYS[k] * DAY))
    os.rename(tmp, path)


def sizes(db):
    c = sqlite3.connect(db)
    try:
        c.execute("VACUUM")
        rows = dict(c.execute("SELECT name, sum(pgsize) FROM dbstat"
                              " GROUP BY name"))
    finally:
        c.close()
    return rows, os.path.getsize(db)


def scan(fsscan, db, tree, layout):
    rule = "depth:2" if layout == "depth2" else "depth:1"
    env = dict(os.environ)
    env.pop("IOCENSUS_CONF", None)
    subprocess.run([fsscan, "--db", db, "--quiet", "--now", str(NOW),
                    "--project", rule, "--cold", "30,90,180,365", tree],
                   check=True, env=env)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fsscan", required=True)
    ap.add_argument("--dir", required=True)
    ap.add_argument("--projects", type=int, default=10000)
    ap.add_argument("--layout", choices=("depth1", "depth2"),
                    default="depth1")
    ap.add_argument("--aged", action="store_true")
    a = ap.parse_args()
    tree = os.path.join(a.dir, "tree-%s-%d%s" % (a.layout, a.projects,
                                                 "-aged" if a.aged else ""))
    make_tree(tree, a.projects, a.layout, a.aged)
    with tempfile.TemporaryDirectory(dir=a.dir) as tmp:
        db = os.path.join(tmp, "census.db")
        scan(a.fsscan, db, tree, a.layout)
        one, size1 = sizes(db)
        scan(a.fsscan, db, tree, a.layout)
        two, size2 = sizes(db)
    n = a.projects
    print("%s, %d projects%s: table or index, bytes after one snapshot,"
          " after two, per project" % (a.layout, n,
                                       ", aged" if a.aged else ""))
    for name in sorted(set(one) | set(two), key=lambda k: -(
            two.get(k, 0) - one.get(k, 0))):
        d = two.get(name, 0) - one.get(name, 0)
        if d:
            print("  %-18s %10d %10d %8.1f" % (name, one.get(name, 0),
                                               two.get(name, 0), d / n))
    print("  %-18s %10d %10d %8.1f" % ("file", size1, size2,
                                       (size2 - size1) / n))
    return 0


if __name__ == "__main__":
    sys.exit(main())
