#!/usr/bin/env python3
"""capgen.py: a generated capacity-planning history for `make bench`.

    capgen.py --fsscan BUILD/fsscan [--fs 10] [--projects 500]
              [--weeks 157] [--start 2024-01-01] [--seed 1] DB

Weekly snapshots of every file system (3 years by default), each with its
capacity (statvfs columns), its projects (files, dirs, bytes, allocated
bytes, entries), a byte or inode limit for each project, the size
histogram of the whole file system and one directory per project (depth
1). Projects grow linearly with noise, some faster than others; a few
start later. The schema is made by fsscan (one scan of an empty
directory, its rows removed), the rows are inserted with sqlite3.
Deterministic from the arguments. Past 500 projects, each file system
is as many times larger, so that 10^5 projects still fit it.
"""
import argparse
import calendar
import os
import random
import sqlite3
import subprocess
import tempfile
import time

GIB = 1 << 30
WEEK = 7 * 86400


def schema(db, fsscan):
    empty = tempfile.mkdtemp()
    subprocess.run([fsscan, "--db", db, "--quiet", empty], check=True)
    os.rmdir(empty)
    con = sqlite3.connect(db)
    for t in ("scan_error_path", "scan_error", "top", "dir_scope", "dir",
              "project_extent", "hist_extent", "hist", "owner", "project",
              "project_limit", "snapshot"):
        con.execute("DELETE FROM %s" % t)
    con.commit()
    return con


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fsscan", required=True)
    ap.add_argument("--fs", type=int, default=10)
    ap.add_argument("--projects", type=int, default=500)
    ap.add_argument("--weeks", type=int, default=157)
    ap.add_argument("--start", default="2024-01-01")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("db")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    t0 = calendar.timegm(time.strptime(a.start, "%Y-%m-%d")) + 2 * 3600
    con = schema(a.db, a.fsscan)
    sid = 0
    for f in range(a.fs):
        fs = "fs%02d" % f
        # More projects than the default 500: a file system as many
        # times larger, so that it still holds them.
        scale = max(1, -(-a.projects // 500))
        size = (200 + 50 * f) * 1024 * GIB * scale
        inodes = 2_000_000_000 * scale
        proj = []
        for p in range(a.projects):
            start = rng.choice([0] * 8 + [rng.randrange(a.weeks)])
            base = rng.uniform(1, 60) * GIB
            rate = rng.uniform(0.01, 1.5) * GIB * (3 if p % 17 == 0 else 1)
            files0 = rng.randrange(10_000, 2_000_000)
            frate = rng.randrange(100, 20_000)
            lim = (round(base + rate * a.weeks * rng.uniform(0.6, 2.5)),
                   None) if p % 3 else (None, files0 + frate * a.weeks * 2)
            proj.append(("p%03d" % p, start, base, rate, files0, frate, lim))
        for w in range(a.weeks):
            t = t0 + w * WEEK + rng.randrange(0, 3600)
            sid += 1
            rows, lims, dirs = [], [], []
            tf = tb = ta = te = 0
            for name, start, base, rate, files0, frate, lim in proj:
                if w < start:
                    continue
                k = w - start
                b = int(base + rate * k * rng.uniform(0.8, 1.2))
                fl = files0 + frate * k + rng.randrange(0, 1000)
                alloc = b + fl * 2048
                dn = fl // 50 + 1
                # id: the project's number in its snapshot (schema 11)
                rows.append((sid, name, "depth:1", fl, dn, b, alloc,
                             fl + dn, len(rows) + 1))
                lims.append((sid, name, lim[0], lim[1], "file"))
                dirs.append((sid, name, 1, fl, dn, b, alloc, t))
                tf, tb, ta, te = tf + fl, tb + b, ta + alloc, te + fl + dn
            used = ta + 40 * GIB
            free = size - used
            con.execute(
                "INSERT INTO snapshot (id, fs, root, root_abs, host, fstype,"
                " started_at, finished_at, now_ref, status, files, dirs,"
                " symlinks, others, bytes, alloc_bytes, errors, threads,"
                " version, fs_bytes, fs_free_bytes, fs_avail_bytes,"
                " fs_inodes, fs_free_inodes, scanned_at) VALUES (?,?,?,?,"
                "'gen','gpfs',?,?,?,'complete',?,?,0,0,?,?,0,8,'capgen',?,?,"
                "?,?,?,?)",
                (sid, fs, "/" + fs, "/" + fs, t, t + 5400, t, tf,
                 te - tf, tb, ta, size, free, max(0, free - size // 20),
                 inodes, inodes - te - 1000, t))
            con.executemany("INSERT INTO project (snapshot_id, name, source,"
                            " files, dirs, bytes, alloc_bytes, entries, id)"
                            " VALUES (?,?,?,?,?,?,?,?,?)", rows)
            con.executemany("INSERT INTO project_limit VALUES (?,?,?,?,?)",
                            lims)
            # ROOT's row, then each project's directory below it: rows
            # name their parent's row (schema 7), never a path.
            cols = ("INSERT INTO dir (snapshot_id, parent, name, depth,"
                    " files, dirs, bytes, alloc_bytes, max_mtime) VALUES"
                    " (?,?,?,?,?,?,?,?,?)")
            root = con.execute(cols, (sid, None, ".", 0, tf, te - tf, tb,
                                      ta, t)).lastrowid
            con.executemany(cols, [(d[0], root) + d[1:] for d in dirs])
            con.execute("INSERT INTO dir_scope VALUES (?, 1)", (sid,))
            for slot in range(1, 24):
                lo = 0 if slot == 1 else 1 << (slot + 9)
                n = max(1, tf >> slot)
                # the bounds of a slot are hist_slot's (schema 11)
                con.execute("INSERT INTO hist (snapshot_id, metric, slot, n,"
                            " w) VALUES (?,'size',?,?,?)",
                            (sid, slot, n, n * (lo + (1 << (slot + 9)))))
        con.commit()
    con.close()


if __name__ == "__main__":
    main()
