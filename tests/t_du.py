#!/usr/bin/env python3
"""t_du: iocensus du and dir.cold_bytes, against an os.lstat walk.

A generated tree below a project: nested directories four deep, a file
hard-linked from two directories (counted once, under its owning link,
the smallest (parent inode, name)), files on both sides of the longest
atime threshold of --cold 30,365 (now - 365 days exactly is cold, one
second less old is not), and directories named with a newline, an ESC
sequence and a bidi override. Two snapshots two days apart (--as-of,
also the reference of ages), with files added, removed and a directory made between them. An
independent walk here (os.lstat: du -s style sums of regular files,
allocated bytes st_blocks x 512, each inode once) gives every expected
row:

  * v_dir: every row of both snapshots (files, dirs, bytes, alloc_bytes,
    cold_bytes); fsscan-mpi on 2 and 3 ranks gives the same rows (skipped
    only without mpirun);
  * iocensus du (JSON) at --depth 1, 2 and every recorded level, of the
    root, of a PATH relative to the root and of the same PATH absolute:
    every row, in du's order (bytes descending, then path), the change in
    files and bytes against the first walk (null where the first snapshot
    had no such directory), the cold bytes; --snapshot of the first;
    --top 2 with "more"; CSV with the same rows; the table with the
    hostile names escaped (\\xNN, nothing raw);
  * a PATH at or below the depth --dirs kept: exit 2, the message names
    the recorded depth; a PATH not in the census: exit 2, named escaped;
    two file systems without --fs: exit 2, both listed;
  * a database of schema 11 (made here from a fresh one: the column and
    the view as schema 11 had them) is upgraded in place: user_version
    12, its dir rows kept, cold_bytes NULL, and du shows them with
    cold_bytes null.
"""
import csv
import io
import json
import os
import shutil
import sqlite3
import stat
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
FSSCAN_MPI = os.path.join(BUILD, "fsscan-mpi")
IOCENSUS = os.path.join(BUILD, "iocensus")
MPIRUN = shutil.which("mpirun")
DAY = 86400
NOW = 1767225600
FIRST = NOW - 2 * DAY
COLD = (30, 365)
CUT = NOW - COLD[-1] * DAY          # cold at the longest: atime <= CUT
HOSTILE = ("nl\nname", "esc\x1b[31mred", "bidi\u202eevil")


def run(*cmd, env=None):
    return subprocess.run([str(c) for c in cmd], capture_output=True,
                          env=env)


def mkfile(path, size, atime):
    with open(path, "wb") as f:
        f.write(b"x" * size)
    os.utime(path, (atime, NOW - 5 * DAY))


def build_tree(root):
    """The first state; change() makes the second."""
    p = os.path.join(root, "proj")
    for d in ("a/b/c/d", "e", "y", "z"):
        os.makedirs(os.path.join(p, d))
    mkfile(os.path.join(p, "a", "a1"), 1000, CUT - DAY)           # cold
    mkfile(os.path.join(p, "a", "a2"), 300, NOW - 10 * DAY)       # warm
    mkfile(os.path.join(p, "a", "b", "b1"), 5000, CUT - 40 * DAY)
    os.link(os.path.join(p, "a", "b", "b1"), os.path.join(p, "e", "hl"))
    mkfile(os.path.join(p, "a", "b", "c", "c1"), 777, CUT)         # edge
    mkfile(os.path.join(p, "a", "b", "c", "d", "d1"), 123, CUT + 1)
    mkfile(os.path.join(p, "e", "e1"), 2000, NOW - DAY)
    mkfile(os.path.join(p, "y", "y1"), 1300, CUT + 2)
    mkfile(os.path.join(p, "z", "z1"), 1300, CUT - 2)   # ties y: by path
    os.symlink("a/a1", os.path.join(p, "link"))
    os.makedirs(os.path.join(root, "other"))
    mkfile(os.path.join(root, "other", "o1"), 4096, CUT - 3 * DAY)
    for i, n in enumerate(HOSTILE):
        os.makedirs(os.path.join(root, "proj", n))
        mkfile(os.path.join(root, "proj", n, "f"), 10 + i, CUT - DAY)


def change(root):
    p = os.path.join(root, "proj")
    mkfile(os.path.join(p, "a", "b", "c", "c2"), 4321, NOW - DAY)
    os.unlink(os.path.join(p, "e", "e1"))
    os.makedirs(os.path.join(p, "new", "inner"))
    mkfile(os.path.join(p, "new", "inner", "n1"), 64, CUT - DAY)


def walk(root, now):
    """{path below root ('.' for root): [files, dirs, bytes, alloc, cold]}
    of every directory's subtree: regular files once per inode, under
    the link with the smallest (parent inode, name); cold: not read
    since the longest threshold before now."""
    cut = now - COLD[-1] * DAY
    tot, owner = {}, {}
    for dirpath, dirnames, filenames in os.walk(root):
        rel = os.path.relpath(dirpath, root)
        tot[rel] = [0, 0, 0, 0, 0]
        pino = os.lstat(dirpath).st_ino
        for n in filenames:
            st = os.lstat(os.path.join(dirpath, n))
            if not stat.S_ISREG(st.st_mode):
                continue
            key = (st.st_dev, st.st_ino)
            link = (pino, os.fsencode(n), rel, st)
            if key not in owner or link[:2] < owner[key][:2]:
                owner[key] = link
    for d in list(tot):
        # a directory counts in its own dirs and in each ancestor's
        parts = [] if d == "." else d.split(os.sep)
        for k in range(len(parts) + 1):
            tot[os.sep.join(parts[:k]) or "."][1] += 1
    for _, _, rel, st in owner.values():
        parts = [] if rel == "." else rel.split(os.sep)
        for k in range(len(parts) + 1):
            t = tot[os.sep.join(parts[:k]) or "."]
            t[0] += 1
            t[2] += st.st_size
            t[3] += st.st_blocks * 512
            t[4] += st.st_size if st.st_atime <= cut else 0
    return tot


def q(db, sql, *args):
    con = sqlite3.connect(db)
    try:
        return con.execute(sql, args).fetchall()
    finally:
        con.close()


def vdir(db, sid):
    return {r[0]: list(r[1:]) for r in q(
        db, "SELECT path, files, dirs, bytes, alloc_bytes, cold_bytes"
        " FROM v_dir WHERE snapshot_id = ?", sid)}


def scan(db, root, as_of, *args, prefix=(), prog=FSSCAN, env=None):
    return run(*prefix, prog, "--db", db, "--quiet", "--as-of", as_of,
               "--cold", ",".join(map(str, COLD)), *args,
               root, env=env)


def expect(cur, prev, top, depth):
    """du's rows below top down to depth levels, in du's order."""
    base = 0 if top == "." else top.count("/") + 1
    rows = []
    for path, t in cur.items():
        if path == "." or not (path + "/").startswith(
                "" if top == "." else top + "/"):
            continue
        if not base < path.count("/") + 1 <= base + depth:
            continue
        p = prev.get(path)
        rows.append({"path": path, "files": t[0], "bytes": t[2],
                     "alloc_bytes": t[3],
                     "d_files": t[0] - p[0] if p else None,
                     "d_bytes": t[2] - p[2] if p else None,
                     "cold_bytes": t[4]})
    rows.sort(key=lambda r: (-r["bytes"], os.fsencode(r["path"])))
    return rows


def du(db, *args, fmt="json"):
    p = run(IOCENSUS, "du", "--db", db, "--format", fmt, *args)
    return p.returncode, p.stdout.decode("utf-8", "surrogateescape"), \
        p.stderr.decode("utf-8", "surrogateescape")


def du_rows(db, *args):
    rc, out, err = du(db, *args)
    if not ok(rc == 0, "du %s: exit 0" % " ".join(map(str, args)), err):
        return None, None
    res = json.loads(out)
    return res["tables"]["du"]["rows"], res["tables"]["du"]


def check_vdir(db, want1, want2):
    for sid, want in ((1, want1), (2, want2)):
        got = vdir(db, sid)
        eq(got, {k: [v[0], v[1], v[2], v[3], v[4]] for k, v in want.items()},
           "v_dir of snapshot %d: every row, cold_bytes included (%d)" %
           (sid, len(want)))


def check_du(db, root, want1, want2):
    for depth in (1, 2, 9):
        for top, arg in ((".", ()), ("proj", ("proj",)),
                         ("proj", (os.path.join(root, "proj"),)),
                         ("proj/a", ("proj/./a/",))):
            rows, _ = du_rows(db, *arg, "--depth", depth)
            eq(rows, expect(want2, want1, top, depth),
               "du %s --depth %d: every row, its change and cold bytes" %
               (arg[0] if arg else "(root)", depth))
    rows, _ = du_rows(db, "proj", "--snapshot", 1, "--depth", 9)
    eq(rows, expect(want1, {}, "proj", 9),
       "du --snapshot 1: the first snapshot's rows, changes null")
    rows, t = du_rows(db, "proj", "--depth", 9, "--top", 2)
    eq((rows, t and t.get("more")), (expect(want2, want1, "proj", 9)[:2],
                                     len(expect(want2, want1, "proj", 9)) - 2),
       "du --top 2: the two largest, and how many more")
    rc, out, err = du(db, "proj", "--depth", 2, fmt="csv")
    got = list(csv.DictReader(io.StringIO(out.split("\n", 1)[1])))
    want = [{k: "" if v is None else str(v) for k, v in r.items()}
            for r in expect(want2, want1, "proj", 2)]
    eq((rc, got), (0, want), "du --format csv: the same rows")
    rc, out, err = du(db, "proj", fmt="table")
    raw = [n for n in HOSTILE if n in out]
    esc = {"nl\nname": "proj/nl\\x0aname",
           "esc\x1b[31mred": "proj/esc\\x1b[31mred",
           "bidi\u202eevil": "proj/bidi\\xe2\\x80\\xaeevil"}
    ok(rc == 0 and not raw and "\x1b" not in out and "\u202e" not in out
       and all(e in out for e in esc.values()),
       "du table: hostile names escaped (\\xNN), nothing raw", out)
    line = [x.split() for x in out.split("\n") if x.startswith("proj/new ")]
    eq([x[-4:] for x in line], [["-", "-", "64", "B"]],
       "du table: a change not known reads -", out)


def check_errors(db, db1, root):
    rc, out, err = du(db1, "proj/a")
    ok(rc == 2 and "depth 1" in err and "--dirs 1" in err and
       "proj/a" in err, "du PATH below --dirs 1: exit 2, the recorded"
       " depth named", err)
    rc, out, err = du(db1, "proj/a/b/c")
    ok(rc == 2 and "--dirs 1" in err and "depth 4" in err,
       "du PATH deeper than --dirs 1: exit 2, says so", err)
    rc, out, err = du(db, "proj/nope\x1b[2J")
    ok(rc == 2 and "proj/nope\\x1b[2J" in err and "\x1b" not in err and
       "no such directory" in err,
       "du of a PATH not in the census: exit 2, named escaped", err)
    rc, out, err = du(db, "/elsewhere/proj")
    ok(rc == 2 and "not below" in err, "du of an absolute PATH outside the"
       " root: exit 2", err)
    rc, out, err = du(db, "proj/../other")
    ok(rc == 2 and ".." in err, "du PATH with '..': exit 2", err)
    # A second file system: without --fs du cannot choose.
    other = os.path.join(os.path.dirname(root), "second")
    os.makedirs(other, exist_ok=True)
    both = os.path.join(os.path.dirname(db), "both.db")
    scan(both, root, NOW, "--dirs", "all", "--fs", "first")
    scan(both, other, NOW, "--dirs", "all", "--fs", "second")
    rc, out, err = du(both)
    ok(rc == 2 and "first" in err and "second" in err and "--fs" in err,
       "du with two file systems and no --fs: exit 2, both listed", err)
    rows, _ = du_rows(both, "--fs", "first", "proj")
    ok(rows is not None and len(rows) == 8, "du --fs first: its rows",
       rows)


def check_mpi(tmp, root, want2):
    if not MPIRUN or not os.path.exists(FSSCAN_MPI):
        skip("fsscan-mpi: v_dir with cold_bytes on 2 and 3 ranks",
             "mpirun not found", needs="mpirun")
        return
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1",
               OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    supp = os.path.join(TOP, "tests", "lsan-openmpi.supp")
    if "LSAN_OPTIONS" in env:
        env["LSAN_OPTIONS"] += ":print_suppressions=0:suppressions=" + supp
    if "ASAN_OPTIONS" in env:
        env["ASAN_OPTIONS"] += ":fast_unwind_on_malloc=0:malloc_context_size=8"
    for n in (2, 3):
        db = os.path.join(tmp, "mpi%d.db" % n)
        p = scan(db, root, NOW, "-j", 2, "--dirs", "all", env=env,
                 prefix=(MPIRUN, "--oversubscribe", "-np", n),
                 prog=FSSCAN_MPI)
        if not ok(p.returncode == 0, "fsscan-mpi on %d ranks ran" % n,
                  p.stderr[-500:]):
            continue
        eq(vdir(db, 1), {k: list(v) for k, v in want2.items()},
           "fsscan-mpi on %d ranks: v_dir as the walk's, cold_bytes"
           " included" % n)


def check_upgrade(tmp, root, want2):
    """A schema-11 database: the column and view of schema 12 removed."""
    db = os.path.join(tmp, "v11.db")
    scan(db, root, NOW, "--dirs", "all")
    con = sqlite3.connect(db)
    view = con.execute("SELECT sql FROM sqlite_master WHERE name ="
                       " 'v_dir'").fetchone()[0]
    old = view.replace(",\n         d.cold_bytes", "")
    ok(old != view, "schema 11: v_dir without cold_bytes")
    con.executescript("DROP VIEW v_dir; ALTER TABLE dir DROP COLUMN"
                      " cold_bytes; %s; PRAGMA user_version = 11;" % old)
    con.close()
    before = q(db, "SELECT * FROM v_dir ORDER BY path")
    rows, _ = du_rows(db, "proj", "--depth", 9)
    eq(q(db, "PRAGMA user_version"), [(13,)], "schema 11: now version 13")
    eq([r[:-1] for r in q(db, "SELECT * FROM v_dir ORDER BY path")], before,
       "schema 11: every dir row kept")
    eq(q(db, "SELECT count(*) FROM dir WHERE cold_bytes IS NOT NULL"),
       [(0,)], "schema 11: cold_bytes NULL in every old row")
    want = expect(want2, {}, "proj", 9)
    for r in want:
        r["cold_bytes"] = None
    eq(rows, want, "schema 11: du shows its rows, cold bytes null")
    eq(q(db, "PRAGMA integrity_check"), [("ok",)], "schema 11: integrity")


def main():
    tmp = tempfile.mkdtemp(prefix="t_du.", dir=os.environ.get("TMPDIR"))
    try:
        root = os.path.join(tmp, "root")
        os.mkdir(root)
        build_tree(root)
        want1 = walk(root, FIRST)
        db, db1 = os.path.join(tmp, "du.db"), os.path.join(tmp, "d1.db")
        p = scan(db, root, FIRST, "--dirs", "all")
        ok(p.returncode == 0, "fsscan: the first snapshot", p.stderr)
        scan(db1, root, FIRST, "--dirs", "1")
        change(root)
        want2 = walk(root, NOW)
        p = scan(db, root, NOW, "--dirs", "all")
        ok(p.returncode == 0, "fsscan: the second snapshot", p.stderr)
        check_vdir(db, want1, want2)
        check_du(db, root, want1, want2)
        check_errors(db, db1, root)
        check_mpi(tmp, root, want2)
        check_upgrade(tmp, root, want2)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    done()


if __name__ == "__main__":
    main()
