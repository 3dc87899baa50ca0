#!/usr/bin/env python3
"""Reliability: several scans and one database.

- two fsscan processes on different trees at the same time into one
  database (first into a new file, so both race to create the schema, then
  into the existing file): both exit 0, both snapshots complete and exact
- many rounds of three scans racing to create a new database: all exit 0
  (switching a new file to WAL takes a lock SQLite does not wait for)
- a second scan of an unchanged tree (same --now) gives identical
  histograms, directory totals, owners, projects and top lists
- another process holds the write lock: fsscan waits for it, and SIGINT or
  SIGTERM still stops it promptly while it waits
"""
import os
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from reltree import (Scratch, build_wide, case, census, done, eq, integrity,  # noqa: E402
                     last_id, mkfile, ok, opendir, rows, run, start, totals_of, vsnap)
from pace import limit  # noqa: E402


def two_at_once(s, ta, wa, tb, wb):
    db = s.path("two.db")
    for rnd in (1, 2):
        tag = "two scans round %d" % rnd
        pa = start(["--db", db, "-j", "2", ta])
        pb = start(["--db", db, "-j", "2", tb])
        _, ea = pa.communicate(timeout=limit(300))
        _, eb = pb.communicate(timeout=limit(300))
        eq((pa.returncode, pb.returncode), (0, 0), "%s: both exit 0" % tag)
        if pa.returncode or pb.returncode:
            print("# stderr A: %r\n# stderr B: %r" % (ea[-300:], eb[-300:]))
        for root, want, name in ((ta, wa, "A"), (tb, wb, "B")):
            ids = rows(db, "SELECT id FROM v_snapshot WHERE root=? ORDER BY id", (root,))
            ok(len(ids) == rnd, "%s: %d snapshot(s) of tree %s" % (tag, rnd, name),
               "ids %r" % ids)
            if not ids:
                continue
            vs = vsnap(db, ids[-1][0])
            eq(vs["complete"], 1, "%s: tree %s complete" % (tag, name))
            eq(totals_of(vs), want.totals(), "%s: tree %s totals exact" % (tag, name))
        eq(integrity(db), "ok", "%s: integrity_check" % tag)


def new_db_race(s, tiny):
    """Three scans at once into a database that does not exist yet."""
    bad = []
    for rnd in range(12):
        db = s.path("race%d.db" % rnd)
        ps = [start(["--db", db, "-j", "1", t]) for t in tiny]
        for p in ps:
            _, e = p.communicate(timeout=limit(120))
            if p.returncode:
                bad.append((rnd, p.returncode, e[-200:]))
        n = rows(db, "SELECT count(*) FROM v_snapshot WHERE complete=1")[0][0]
        if n != len(tiny):
            bad.append((rnd, "complete snapshots", n))
    eq(bad, [], "new db race: 12 rounds of 3 scans all exit 0 with 3 snapshots")


def locked(s, ta, wa):
    """Another process holds the write lock for 2 s: fsscan waits for it."""
    db = s.path("locked.db")
    eq(run(["--db", db, ta]).rc, 0, "locked db: first scan")
    holder = hold_lock(db, 2)
    t0 = time.monotonic()
    r = run(["--db", db, ta])
    holder.wait(timeout=limit(30))
    eq(r.rc, 0, "locked db: scan exits 0 after waiting")
    ok(time.monotonic() - t0 >= 1.5 or r.rc != 0,
       "locked db: scan waited for the lock", "%.2f s" % (time.monotonic() - t0))
    vs = vsnap(db, last_id(db))
    eq(totals_of(vs), wa.totals(), "locked db: totals exact")
    eq(integrity(db), "ok", "locked db: integrity_check")

    # A signal must stop a scan that waits for someone else's lock: the
    # contract allows exit 3 with no snapshot recorded.
    for sig, name in ((signal.SIGINT, "SIGINT"), (signal.SIGTERM, "SIGTERM")):
        holder = hold_lock(db, 60)
        try:
            p = start(["--db", db, ta])
            time.sleep(1.0)
            t0 = time.monotonic()
            p.send_signal(sig)
            try:
                p.communicate(timeout=limit(6))
                stop = time.monotonic() - t0
            except subprocess.TimeoutExpired:
                stop = None
        finally:
            holder.kill()
            holder.wait()
            if p.poll() is None:
                p.communicate()
        ok(stop is not None and stop < limit(5) and p.returncode == 3,
           "locked db: %s while waiting for the lock exits 3 within 5 s"
           " (times the pace)" % name,
           "exit %s after %s s (still waiting when the lock holder was killed)"
           % (p.returncode, "%.1f" % stop if stop is not None else "> 6"))
    eq(integrity(db), "ok", "locked db: integrity_check after signals")
    n = rows(db, "SELECT count(*) FROM v_snapshot WHERE complete=1")[0][0]
    eq(n, 2, "locked db: only the two finished scans are complete")


def hold_lock(db, secs):
    """A process holding the database's write lock for secs seconds."""
    holder = subprocess.Popen([sys.executable, "-c", (
        "import sqlite3, sys, time\n"
        "c = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
        "c.execute('BEGIN IMMEDIATE')\n"
        "c.execute('CREATE TABLE IF NOT EXISTS hold (a)')\n"
        "print('locked', flush=True)\n"
        "time.sleep(float(sys.argv[2]))\n"
        "c.execute('COMMIT')\n"), db, str(secs)], stdout=subprocess.PIPE)
    ok(holder.stdout.readline().strip() == b"locked", "locked db: lock taken")
    return holder


TABLES = {
    "hist": "metric, slot, n, w, v, vw",
    "project_hist": "project_id, metric, slot, n, w",
    "v_hist": "project, metric, lo, hi, files, bytes",
    "v_dir": "path, depth, files, dirs, bytes, alloc_bytes, max_mtime",
    "v_project": "project, files, dirs, bytes, alloc_bytes",
    "owner": "kind, id, name, files, dirs, bytes, alloc_bytes",
    "top": "kind, rank, value, path",
}


def rescan(s, ta, wa):
    db = s.path("rescan.db")
    now = str(int(os.stat(ta).st_mtime) + 5 * 86400)
    for _ in range(2):
        eq(run(["--db", db, "--now", now, "-j", "2", ta]).rc, 0, "rescan: exit 0")
    a, b = [i for (i,) in rows(db, "SELECT id FROM snapshot ORDER BY id")[-2:]]
    eq(totals_of(vsnap(db, b)), totals_of(vsnap(db, a)), "rescan: same totals")
    for table, cols in TABLES.items():
        ra = sorted(rows(db, "SELECT %s FROM %s WHERE snapshot_id=?" % (cols, table),
                         (a,), raw=True), key=repr)
        rb = sorted(rows(db, "SELECT %s FROM %s WHERE snapshot_id=?" % (cols, table),
                         (b,), raw=True), key=repr)
        ok(ra, "rescan: %s has rows" % table)
        eq(rb, ra, "rescan: %s identical" % table)


def main():
    with Scratch(tmpfs=True, size="512m") as s:
        ta, tb = s.path("A"), s.path("B")
        build_wide(ta, 30, 3, 100, seed=1)      # 9,000 files
        build_wide(tb, 20, 0, 200, seed=2)      # 4,000 files
        # some variety for the histograms: ages, links, symlinks
        fd = opendir(ta)
        for i in range(50):
            mkfile(fd, "old%d" % i, data=b"o" * (i * 100 + 1))
            os.utime("old%d" % i, (1e9 + i * 86400 * 30, 1e9 + i * 86400 * 17),
                     dir_fd=fd)
        os.symlink("d000", "ln", dir_fd=fd)
        os.link("old1", "d001/old1link", src_dir_fd=fd, dst_dir_fd=fd)
        os.close(fd)
        wa, wb = census(ta), census(tb)
        case("two scans", two_at_once, s, ta, wa, tb, wb)
        tiny = [s.path("tiny%d" % i) for i in range(3)]
        for i, t in enumerate(tiny):
            build_wide(t, 2, 0, 5, seed=10 + i)
        case("new db race", new_db_race, s, tiny)
        case("rescan", rescan, s, ta, wa)
        case("locked db", locked, s, ta, wa)
    done()


if __name__ == "__main__":
    main()
