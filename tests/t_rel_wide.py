#!/usr/bin/env python3
"""Reliability: one directory with 200,000 entries.

Exact file count (v_snapshot, v_dir) and the top directories table naming
it first with 200000 entries. The tree lives on a private tmpfs so that
creating it takes about a second and removing it is one umount.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from reltree import (Scratch, case, census, done, eq, integrity, last_id,  # noqa: E402
                     ok, opendir, rows, run, totals_of, vdir, vsnap)

N = 200000


def wide(s):
    root = s.path("wide")
    os.mkdir(root)
    os.mkdir(os.path.join(root, "big"))
    os.mkdir(os.path.join(root, "small"))
    fd = opendir(os.path.join(root, "big"))
    flags = os.O_CREAT | os.O_WRONLY | os.O_EXCL
    for i in range(N):
        os.close(os.open("f%06d" % i, flags, 0o644, dir_fd=fd))
    os.close(fd)
    fd = opendir(os.path.join(root, "small"))
    for i in range(10):
        os.close(os.open("g%d" % i, flags, 0o644, dir_fd=fd))
    os.close(fd)

    want = census(root)
    eq((want.files, want.names[b"big"]), (N + 10, N), "wide: expected tree shape")
    db = s.path("wide.db")
    r = run(["--db", db, "-j", "2", root])
    eq(r.rc, 0, "wide: exit status 0")
    sid = last_id(db)
    vs = vsnap(db, sid)
    ok(vs is not None and vs["complete"] == 1, "wide: snapshot complete",
       "%r; %s" % (vs, r.why()))
    eq(totals_of(vs), want.totals(), "wide: v_snapshot totals exact")
    eq(vdir(db, sid).get(b"big"), want.vdir()[b"big"], "wide: v_dir row of big/ exact")
    top = rows(db, "SELECT rank, value, path FROM top WHERE snapshot_id=? AND "
               "kind='dir' ORDER BY rank LIMIT 2", (sid,), raw=True)
    ok(len(top) >= 1 and top[0][0] == 1 and top[0][1] == N and
       (top[0][2] == b"big" or top[0][2].endswith(b"/big")),
       "wide: top dir rank 1 is big/ with 200000 entries", "top %r" % (top,))
    ok(len(top) >= 2 and top[1][1] == 10,
       "wide: top dir rank 2 has 10 entries", "top %r" % (top,))
    eq(integrity(db), "ok", "wide: integrity_check")
    print("# wide: scan took %.2f s" % r.secs)


def main():
    with Scratch(tmpfs=True, size="1g") as s:
        case("wide", wide, s)
    done()


if __name__ == "__main__":
    main()
