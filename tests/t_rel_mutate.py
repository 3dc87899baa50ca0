#!/usr/bin/env python3
"""Reliability: files and directories deleted, created and renamed while
fsscan -j 4 walks a ~50k-entry tree (tests/lib/mutator.py runs alongside).

The tree has a stable part the mutator never touches (ROOT/stable) and a
mutable part (ROOT/mut). Each round checks: exit 0 or 1, matching the
error count; a complete snapshot; only ENOENT errors (every name the
mutator creates is new, so nothing else can happen); counted entries
between the stable part and the stable part plus the mutator's bound; the
v_dir row of stable/ exact; PRAGMA integrity_check ok.
"""
import errno
import json
import os
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from reltree import (Scratch, build_wide, case, census, done, eq, integrity,  # noqa: E402
                     last_id, ok, rows, run, vdir, vsnap)
from pace import limit  # noqa: E402

MUTATOR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib", "mutator.py")


def mutate(s):
    root = s.path("tree")
    os.mkdir(root)
    build_wide(os.path.join(root, "stable"), 20, 10, 100)     # 20,221 entries
    build_wide(os.path.join(root, "mut"), 300, 0, 100, seed=5)  # 30,301 entries
    stable = census(os.path.join(root, "stable"))
    srow = stable.vdir()[b"."]
    lower = 1 + stable.entries() + 1        # ROOT, stable/..., mut itself
    eq(stable.entries(), 20221, "mutate: stable part has the expected shape")
    db = s.path("mut.db")
    # (tag, fsscan options, mutator ops per second or 0 for flat out)
    rounds = [("j4", ["-j", "4"], 0),
              ("j4 dirs-all slow", ["-j", "4", "--dirs", "all", "--max-rate", "40000"],
               5000),
              ("j4 max-fds 8 slow", ["-j", "4", "--max-fds", "8", "--max-rate", "40000"],
               5000)]
    for i, (tag, args, mrate) in enumerate(rounds):
        tag = "mutate %s" % tag
        ready = s.path("ready%d" % i)
        m = subprocess.Popen([sys.executable, MUTATOR, os.path.join(root, "mut"),
                              "--ready", ready, "--seed", str(i + 1),
                              "--rate", str(mrate)],
                             stdout=subprocess.PIPE)
        try:
            t0 = time.monotonic()
            while not os.path.exists(ready) and time.monotonic() - t0 < limit(30):
                if m.poll() is not None:
                    break
                time.sleep(0.01)
            r = run(["--db", db] + args + [root], timeout=300)
        finally:
            m.send_signal(signal.SIGTERM)
            out, _ = m.communicate(timeout=limit(60))
        mstat = json.loads(out.decode().strip().splitlines()[-1])
        print("# %s: scan %.2f s, mutator %r" % (tag, r.secs, mstat))
        ok(mstat["ops"] > 200, "%s: mutator was running" % tag, "%r" % mstat)
        ok(r.rc in (0, 1), "%s: exit status 0 or 1" % tag, r.why())
        sid = last_id(db)
        vs = vsnap(db, sid)
        ok(vs is not None and vs["complete"] == 1, "%s: snapshot complete=1" % tag,
           "%r; %s" % (vs, r.why()))
        if vs is None:
            continue
        errs = dict(rows(db, "SELECT errno, count FROM scan_error WHERE snapshot_id=?",
                         (sid,)))
        eq(sum(errs.values()), vs["errors"], "%s: scan_error counts add up to errors" % tag)
        eq(r.rc, 1 if vs["errors"] else 0, "%s: exit status matches errors" % tag)
        ok(set(errs) <= {errno.ENOENT}, "%s: only ENOENT errors" % tag, "%r" % errs)
        total = vs["files"] + vs["dirs"] + vs["symlinks"] + vs["others"]
        hi = lower + mstat["bound"]
        ok(lower <= total <= hi, "%s: entries within [stable, stable+mutable]" % tag,
           "%d not in [%d, %d]" % (total, lower, hi))
        got = vdir(db, sid).get(b"stable")
        eq(got, (1,) + srow[1:], "%s: v_dir row of stable/ exact" % tag)
        eq(integrity(db), "ok", "%s: integrity_check" % tag)


def main():
    with Scratch(tmpfs=True, size="1g") as s:
        case("mutate", mutate, s)
    done()


if __name__ == "__main__":
    main()
