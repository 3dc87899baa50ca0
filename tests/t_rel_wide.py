#!/usr/bin/env python3
"""Reliability: one directory with 200,000 entries, and a ROOT of
100,000 subdirectories.

Exact file count (v_snapshot, v_dir) and the top directories table naming
it first with 200000 entries. The tree lives on a private tmpfs so that
creating it takes about a second and removing it is one umount.

A ROOT of 100,000 subdirectories, each a project under the default
depth:1 (user directories of a /home), one in 1,000 holding a file: every
project's row of v_project is what a walk here counts, and, in the
release build, fsscan's peak RSS stays under 96 MiB (it was 1.8 GiB when
each project carried its 7 KiB of distributions whether it held a file or
not, and the queue grew with the directory).
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from reltree import (FSSCAN, Scratch, case, census, done, eq, integrity,  # noqa: E402
                     last_id, ok, opendir, rows, run, totals_of, vdir, vsnap)
from peakrss import run_peak                     # noqa: E402
from tap import skip                             # noqa: E402

NPROJ = 100000

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


def sanitized():
    """An ASan build, whose shadow memory makes its RSS no measure."""
    out = subprocess.run(["ldd", FSSCAN], capture_output=True).stdout
    return b"libasan" in out


def projects(s):
    root = s.path("home")
    os.mkdir(root)
    want = {}
    for i in range(NPROJ):
        name = "u%06d" % i
        os.mkdir(os.path.join(root, name))
        want[name] = (0, 0, 1)
        if i % 1000 == 0:
            with open(os.path.join(root, name, "f"), "wb") as f:
                f.write(b"x" * i)
            want[name] = (1, i, 1)
    db = s.path("home.db")
    rc, out, err, kib = run_peak([FSSCAN, "--db", db, "--quiet", "-j", "2",
                                  "--dirs", "0", root])
    eq(rc, 0, "projects: exit status 0", err)
    got = {r[0]: tuple(r[1:]) for r in rows(
        db, "SELECT project, files, bytes, dirs FROM v_project WHERE "
        "snapshot_id = ?", (last_id(db),))}
    want["(none)"] = (0, 0, 1)          # ROOT itself, in no project
    eq(got, want, "projects: every project's files, bytes and directories")
    if sanitized():
        skip("projects: peak RSS under 96 MiB", "an ASan build's RSS "
             "counts its shadow memory")
    else:
        ok(kib < 96 * 1024, "projects: peak RSS under 96 MiB",
           "%d KiB" % kib)
    print("# projects: peak RSS %d KiB" % kib)


def main():
    with Scratch(tmpfs=True, size="1g") as s:
        case("wide", wide, s)
        case("projects", projects, s)
    done()


if __name__ == "__main__":
    main()
