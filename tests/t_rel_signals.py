#!/usr/bin/env python3
"""Reliability: interrupted and killed scans, and the --max-rate throttle.

- --max-rate 5000 on a 20k-entry tree takes at least 0.7 * entries/rate
  seconds and still counts everything
- SIGINT and SIGTERM one second into a throttled scan: exit 3 soon after,
  the snapshot recorded with complete=0 (or not at all), database intact
- SIGKILL at random moments across a scan (including its final database
  write), several times into one database: integrity_check ok after each,
  and any snapshot marked complete has exactly the tree's counts
"""
import os
import random
import signal
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from reltree import (Scratch, build_wide, case, census, done, eq, integrity,  # noqa: E402
                     last_id, ok, rows, run, start, totals_of, vsnap)
from pace import limit  # noqa: E402


def max_rate(s, root, want):
    db = s.path("rate.db")
    rate = 5000
    r = run(["--db", db, "--max-rate", str(rate), "-j", "4", root])
    eq(r.rc, 0, "max-rate: exit status 0")
    floor = 0.7 * want.entries() / rate
    ok(r.secs >= floor, "max-rate: %d entries at %d/s took >= %.1f s" %
       (want.entries(), rate, floor), "took %.2f s" % r.secs)
    vs = vsnap(db, last_id(db))
    eq(totals_of(vs), want.totals(), "max-rate: totals exact")
    print("# max-rate: %.2f s" % r.secs)


def interrupt(s, root, want, sig, tag):
    db = s.path("%s.db" % tag)
    # a first complete scan, so the database exists with one snapshot
    eq(run(["--db", db, root]).rc, 0, "%s: first scan" % tag)
    before = rows(db, "SELECT id FROM snapshot")
    p = start(["--db", db, "--max-rate", "2000", "-j", "2", root])
    time.sleep(1.0)
    ok(p.poll() is None, "%s: scan still running after 1 s" % tag)
    t0 = time.monotonic()
    p.send_signal(sig)
    try:
        _, err = p.communicate(timeout=limit(30))
    except Exception:
        p.kill()
        p.communicate()
        raise
    stop = time.monotonic() - t0
    eq(p.returncode, 3, "%s: exit status 3" % tag)
    ok(stop < limit(5), "%s: stopped within 5 s (times the pace) of the signal" % tag, "%.1f s" % stop)
    after = rows(db, "SELECT id FROM snapshot")
    new = [i for (i,) in after if (i,) not in before]
    ok(len(new) <= 1, "%s: at most one new snapshot row" % tag, "%r" % new)
    if new:
        vs = vsnap(db, new[0])
        eq(vs["complete"], 0, "%s: snapshot recorded with complete=0" % tag)
        f = vs["files"]
        ok(f is None or 0 <= f <= want.files,
           "%s: partial file count within the tree's" % tag, "files %r" % f)
    else:
        ok(True, "%s: no snapshot row recorded" % tag)
    eq(integrity(db), "ok", "%s: integrity_check" % tag)
    r = run(["--db", db, root])
    vs = vsnap(db, last_id(db))
    ok(r.rc == 0 and vs["complete"] == 1 and totals_of(vs) == want.totals(),
       "%s: a later scan into the same db is complete and exact" % tag,
       "%r; %s" % (vs, r.why()))


def wal_state(db):
    try:
        st = os.stat(db + "-wal")
        return (st.st_ino, st.st_size, st.st_mtime_ns)
    except FileNotFoundError:
        return None


def kill_at_final_write(args, db, rnd, deadline=60):
    """Start a scan and SIGKILL it soon after its second burst of writes to
    the WAL file: the first is the 'running' row, the second the final
    transaction (then the checkpoint on close). Returns the process and
    whether the second burst was seen."""
    p = start(args, killed=True)
    t0 = time.monotonic()
    prev = wal_state(db)
    changes = 0
    while p.poll() is None and time.monotonic() - t0 < limit(deadline):
        cur = wal_state(db)
        if cur != prev and cur is not None:
            changes += 1
            prev = cur
            if changes == 2:
                time.sleep(rnd.uniform(0, 0.004))
                break
        time.sleep(0.0003)
    p.send_signal(signal.SIGKILL)
    p.communicate()
    return p, changes >= 2


def sigkill(s):
    # many directories and --dirs all: a final transaction of ~10k rows
    root = s.path("ktree")
    build_wide(root, 100, 100, 2)       # 20,000 files, 10,101 directories
    want = census(root)
    db = s.path("kill.db")
    args = ["--db", db, "--dirs", "all", "-j", "2", root]
    r = run(args)
    eq(r.rc, 0, "sigkill: reference scan")
    dur = r.secs
    rnd = random.Random(4242)
    # kills spread over the scan, then kills aimed at its final write
    delays = [rnd.uniform(0, 1.1 * dur) for _ in range(10)]
    killed = finished = aimed = 0
    bad = []

    def check(k, what):
        ic = integrity(db)
        if ic != "ok":
            bad.append("after kill %d (%s): integrity %s" % (k, what, ic))
        for (sid,) in rows(db, "SELECT id FROM v_snapshot WHERE complete=1"):
            vs = vsnap(db, sid)
            if totals_of(vs) != want.totals():
                bad.append("after kill %d (%s): complete snapshot %d has %r" %
                           (k, what, sid, vs))

    for k, d in enumerate(delays):
        p = start(args, killed=True)
        time.sleep(d)
        p.send_signal(signal.SIGKILL)
        p.communicate()
        if p.returncode == -signal.SIGKILL:
            killed += 1
        else:
            finished += 1
        check(k, "after %.3f s" % d)
    for k in range(len(delays), len(delays) + 6):
        p, seen = kill_at_final_write(args, db, rnd)
        aimed += seen
        if p.returncode == -signal.SIGKILL:
            killed += 1
        else:
            finished += 1
        check(k, "at the final write" if seen else "aimed, write not seen")
    print("# sigkill: reference %.3f s, %d killed, %d finished first, "
          "%d aimed at the final write" % (dur, killed, finished, aimed))
    ok(not bad, "sigkill: integrity ok and complete snapshots exact after "
       "each of %d kills" % (len(delays) + 6), "; ".join(bad[:3]))
    ok(killed >= 8, "sigkill: most kills landed during the scan",
       "%d of %d" % (killed, len(delays) + 6))
    r = run(args)
    vs = vsnap(db, last_id(db))
    ok(r.rc == 0 and vs["complete"] == 1 and totals_of(vs) == want.totals(),
       "sigkill: a scan after the kills is complete and exact", "%r; %s" % (vs, r.why()))
    n = rows(db, "SELECT count(*) FROM v_snapshot WHERE complete=1")[0][0]
    ok(n >= 2, "sigkill: complete snapshots kept", "%d" % n)


def main():
    with Scratch(tmpfs=True, size="1g") as s:
        root = s.path("tree")
        build_wide(root, 40, 10, 50)        # 20,000 files, 441 directories
        want = census(root)
        case("max-rate", max_rate, s, root, want)
        case("sigint", interrupt, s, root, want, signal.SIGINT, "sigint")
        case("sigterm", interrupt, s, root, want, signal.SIGTERM, "sigterm")
        case("sigkill", sigkill, s)
    done()


if __name__ == "__main__":
    main()
