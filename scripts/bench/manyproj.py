#!/usr/bin/env python3
"""manyproj.py: a census of many projects, for the outputs' costs.

    manyproj.py --fsscan BUILD/fsscan [--projects 100000] [--limits N]
                [--seed 1] TREE DB

Makes TREE with one directory per project (p000000, ...), each holding
one to three regular files of pseudo-random sizes and ages, then scans it
twice with fsscan --project depth:1 --cold 30,365, dated a week apart
(--as-of, so the second is a point of its own), a few projects grown
between the scans. The first N projects (--limits, default 1000) get a
byte limit from a fsscan --limits file. Deterministic from the
arguments; the rows are fsscan's own, so the database has the schema of
the fsscan given.
"""
import argparse
import os
import random
import subprocess

DAY = 86400
T0 = 1767225600          # 2026-01-01T00:00:00Z


def tree(root, n, rng):
    os.makedirs(root, exist_ok=True)
    for p in range(n):
        d = os.path.join(root, "p%06d" % p)
        os.makedirs(d, exist_ok=True)
        for k in range(1 + rng.randrange(3)):
            f = os.path.join(d, "f%d" % k)
            with open(f, "wb") as fh:
                fh.truncate(rng.randrange(1, 1 << 20))
            age = rng.choice([0, 10, 40, 100, 400, 1000]) * DAY
            os.utime(f, (T0 - age, T0 - age))


def grow(root, n, rng):
    for p in range(0, n, 97):
        f = os.path.join(root, "p%06d" % p, "grown")
        with open(f, "wb") as fh:
            fh.truncate(rng.randrange(1, 1 << 22))
        os.utime(f, (T0, T0))


def scan(fsscan, db, root, limits, t):
    subprocess.run([fsscan, "--db", db, "--quiet", "--fs", "many",
                    "--project", "depth:1", "--cold", "30,365",
                    "--limits", limits, "--as-of", str(t), root],
                   check=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fsscan", required=True)
    ap.add_argument("--projects", type=int, default=100000)
    ap.add_argument("--limits", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("tree")
    ap.add_argument("db")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    tree(a.tree, a.projects, rng)
    lim = a.db + ".limits"
    with open(lim, "w") as fh:
        for p in range(min(a.limits, a.projects)):
            fh.write("p%06d,%d,\n" % (p, rng.randrange(1 << 20, 1 << 22)))
    scan(a.fsscan, a.db, a.tree, lim, T0 - 7 * DAY)
    grow(a.tree, a.projects, rng)
    scan(a.fsscan, a.db, a.tree, lim, T0)


if __name__ == "__main__":
    main()
