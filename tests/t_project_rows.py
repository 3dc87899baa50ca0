#!/usr/bin/env python3
"""t_project_rows: schema 11's per-project rows, their views and their cost.

  * tests/golden/schema10.sql, a database that fsscan of schema 10 wrote
    (three snapshots: depth:1 with --cold 1,7,30 and limits, depth:2 with
    a private name, one threshold of 3652425 days; exact TEXT totals,
    future times, a hard link, a project without files), is upgraded in
    place by the first iocensus that opens it: user_version 13, every
    view (v_snapshot, v_limit, v_project, v_cold, v_hist, v_dir and the
    I/O views) gives exactly the rows it gave, values and types (v_dir
    with schema 12's cold_bytes, NULL in every old row); no old
    table or index is left; integrity and foreign keys hold; iocensus
    files, cold, usage, diff and snapshots answer byte for byte what
    schema 10's iocensus answered (tests/golden/schema10_answers.json);
    forget removes a snapshot's rows from every table, the new ones too;
  * a fresh snapshot of 1,500 projects of 5 files each (every tenth one
    dated 2 to 800 days back) against an os.lstat oracle
    (tests/lib/oracle.py, and cold data computed here): v_snapshot,
    v_project, v_hist (whole file system and every project), v_dir,
    v_cold (every project and threshold, zeros included) and each
    project's extremes (project_extent);
  * one more snapshot of the same tree adds less than 400 bytes per
    project (dbstat, after VACUUM: schema 10 added 1,190 on this tree,
    docs/PERFORMANCE.md "Database per project").
"""
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "lib"))
import oracle  # noqa: E402
from tap import done, eq, ok  # noqa: E402

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("BUILD") or os.path.join(TOP, "build")
FSSCAN = os.environ.get("FSSCAN") or os.path.join(BUILD, "fsscan")
IOC = os.path.join(BUILD, "iocensus")
GOLDEN = os.path.join(TOP, "tests", "golden")
DAY = 86400
NOW = 1767225600
COLD = (30, 90, 180, 365)
NPROJ = 1500
SIZES = (120, 900, 3000, 12000, 50000)
ATIME_DAYS = (2, 40, 100, 200, 400)
MTIME_DAYS = (10, 60, 150, 300, 800)


def env():
    e = dict(os.environ)
    e.pop("IOCENSUS_CONF", None)
    e.pop("IOCENSUS_DB", None)
    return e


def run(*cmd):
    p = subprocess.run([str(c) for c in cmd], capture_output=True,
                       text=True, env=env())
    return p.returncode, p.stdout, p.stderr


def views(db):
    """Every view's rows, sorted, each value with its Python type (int,
    str, bytes, float, None): exact values and SQLite's types."""
    c = sqlite3.connect(db)
    c.text_factory = bytes
    try:
        names = [r[0].decode() for r in c.execute(
            "SELECT name FROM sqlite_master WHERE type = 'view'"
            " ORDER BY name")]
        return {v: sorted((tuple((type(x).__name__, x) for x in r)
                           for r in c.execute('SELECT * FROM "%s"' % v)),
                          key=repr) for v in names}
    finally:
        c.close()


def q(db, sql, args=()):
    c = sqlite3.connect(db)
    c.text_factory = bytes
    try:
        return c.execute(sql, args).fetchall()
    finally:
        c.close()


# ---------------------------------------------------------------- upgrade

def upgrade(tmp):
    db = os.path.join(tmp, "v10.db")
    c = sqlite3.connect(db)
    with open(os.path.join(GOLDEN, "schema10.sql")) as f:
        c.executescript(f.read())
    c.close()
    eq(q(db, "PRAGMA user_version"), [(10,)], "upgrade: the fixture is of"
       " schema 10")
    before = views(db)
    ok(all(before[v] for v in ("v_project", "v_cold", "v_hist", "v_dir",
                               "v_limit")),
       "upgrade: the fixture has rows in every census view",
       {v: len(r) for v, r in before.items()})
    rc, out, err = run(IOC, "snapshots", "--db", db)
    eq(rc, 0, "upgrade: iocensus snapshots opens it", err)
    eq(q(db, "PRAGMA user_version"), [(13,)], "upgrade: now schema 13")
    after = views(db)
    eq(sorted(after), sorted(list(before) + ["v_cold_owner",
                                             "v_io_device"]),
       "upgrade: the same views, and schema 12's v_cold_owner and 13's"
       " v_io_device")
    eq(q(db, "SELECT DISTINCT snapshot_id, files, bytes FROM"
            " v_cold_owner"), q(db, "SELECT snapshot_id, 0, 0 FROM cold"
                                " GROUP BY snapshot_id HAVING max(files)"
                                " = 0"),
       "upgrade: v_cold_owner has rows, zeros, only for a snapshot none of"
       " whose files was cold")
    for v in sorted(before):
        got = after.get(v) or []
        if v == "v_dir":
            # Schema 12 adds cold_bytes at the end: unknown for old rows.
            eq(sorted({r[-1] for r in got}), [("NoneType", None)],
               "upgrade: v_dir: cold_bytes is NULL in every old row")
            got = sorted((r[:-1] for r in got), key=repr)
        eq(got, before[v], "upgrade: %s: the same rows, values and"
           " types (%d)" % (v, len(before[v])))
    eq(q(db, "SELECT name FROM sqlite_master WHERE name LIKE '%\\_v10'"
            " ESCAPE '\\' OR name IN ('hist_key', 'cold_key')"), [],
       "upgrade: no old table nor index left")
    eq(q(db, "PRAGMA integrity_check"), [(b"ok",)], "upgrade: integrity")
    eq(q(db, "PRAGMA foreign_key_check"), [], "upgrade: foreign keys")
    eq(q(db, "SELECT count(*) FROM project_cold WHERE files = 0"), [(0,)],
       "upgrade: no zero cold row of a project kept")
    with open(os.path.join(GOLDEN, "schema10_answers.json")) as f:
        want = json.load(f)
    for cmd in sorted(want):
        p = subprocess.run([IOC] + cmd.split() + ["--db", db, "--format",
                                                  "json"],
                           capture_output=True, text=True, env=env())
        eq([p.returncode, p.stdout, p.stderr], want[cmd],
           "upgrade: iocensus %s answers as schema 10 did" % cmd)
    rc, out, err = run(IOC, "forget", "--db", db, "2")
    eq(rc, 0, "upgrade: forget 2", err)
    left = {t: q(db, 'SELECT count(*) FROM "%s" WHERE snapshot_id = 2' % t)
            [0][0] for t in ("project", "project_hist", "project_extent",
                             "project_cold", "cold", "hist")}
    eq(left, {t: 0 for t in left}, "upgrade: forget removes snapshot 2's"
       " rows from every table")


# ---------------------------------------------------------------- fresh

def make_tree(root):
    data = b"x" * max(SIZES)
    for i in range(NPROJ):
        d = os.path.join(root, "proj%05d" % i)
        os.makedirs(os.path.join(d, "sub"))
        for k, size in enumerate(SIZES):
            f = os.path.join(d, "sub" if k == 4 else "", "f%d" % k)
            with open(f, "wb") as fh:
                fh.write(data[:size])
            if i % 10 == 0:
                os.utime(f, (NOW - ATIME_DAYS[k] * DAY,
                             NOW - MTIME_DAYS[k] * DAY))


def cold_oracle(m):
    """v_cold from the model's files: cold at d when now - time >= d days,
    per project (every project with a v_project row) and for the file
    system (None), zeros included."""
    out = {}
    for p in list(m.projects()) + [None]:
        for metric in ("atime", "mtime"):
            for d in COLD:
                out[(p, metric, d)] = [0, 0]
    for i, e in m.files():
        for metric in ("atime", "mtime"):
            t = oracle.sec(getattr(e.st, "st_%s_ns" % metric))
            for d in COLD:
                if NOW - t >= d * DAY:
                    for p in (m.proj[i], None):
                        out[(p, metric, d)][0] += 1
                        out[(p, metric, d)][1] += e.st.st_size
    return {k: tuple(v) for k, v in out.items()}


def extent_oracle(m):
    out = {}
    for i, e in m.files():
        vals = (e.st.st_size, NOW - oracle.sec(e.st.st_atime_ns),
                NOW - oracle.sec(e.st.st_mtime_ns),
                NOW - oracle.sec(e.st.st_ctime_ns))
        cur = out.get(m.proj[i])
        out[m.proj[i]] = vals * 2 if cur is None else tuple(
            min(a, b) for a, b in zip(cur[:4], vals)) + tuple(
            max(a, b) for a, b in zip(cur[4:], vals))
    return {p: (v[0], v[4], v[1], v[5], v[2], v[6], v[3], v[7])
            for p, v in out.items()}


def per_table(db):
    c = sqlite3.connect(db)
    try:
        c.execute("VACUUM")
        return dict(c.execute("SELECT name, sum(pgsize) FROM dbstat"
                              " GROUP BY name"))
    finally:
        c.close()


def fresh(tmp):
    root = os.path.join(tmp, "tree")
    make_tree(root)
    db = os.path.join(tmp, "v11.db")
    args = ("--db", db, "--quiet", "--now", NOW, "--cold",
            ",".join(map(str, COLD)), root)
    rc, out, err = run(FSSCAN, *args)
    eq(rc, 0, "fresh: fsscan of %d projects" % NPROJ, err)
    m = oracle.Model(oracle.Walk(root.encode(), read_targets=False), NOW,
                     ["depth:1"], 3)
    cols = ("files", "dirs", "symlinks", "others", "bytes", "alloc_bytes",
            "errors", "complete")
    got = q(db, "SELECT %s FROM v_snapshot" % ", ".join(cols))
    eq([dict(zip(cols, r)) for r in got], [m.snapshot()],
       "fresh: v_snapshot")
    eq({r[0]: r[1:] for r in q(db, "SELECT project, files, dirs, bytes,"
                               " alloc_bytes FROM v_project")},
       m.projects(), "fresh: v_project")
    eq({r[:4]: r[4:] for r in q(db, "SELECT project, metric, lo, hi, files,"
                                " bytes FROM v_hist")},
       {(k[0], k[1].encode()) + k[2:]: v for k, v in m.hist().items()},
       "fresh: v_hist, the whole file system and every project")
    eq({r[0]: r[1:] for r in q(db, "SELECT path, depth, files, dirs, bytes,"
                               " alloc_bytes, max_mtime FROM v_dir")},
       m.dirs(), "fresh: v_dir")
    eq({(r[0], r[1].decode(), r[2]): r[3:] for r in q(
        db, "SELECT project, metric, days, files, bytes FROM v_cold")},
       cold_oracle(m), "fresh: v_cold, every project and threshold, zeros"
       " included")
    eq({r[0]: r[1:] for r in q(
        db, "SELECT p.name, size_min, size_max, atime_min, atime_max,"
        " mtime_min, mtime_max, ctime_min, ctime_max FROM project_extent e"
        " JOIN project p ON p.snapshot_id = e.snapshot_id"
        " AND p.id = e.project_id")},
       extent_oracle(m), "fresh: each project's extremes in one row")
    eq(q(db, "SELECT count(*) FROM project_cold WHERE files = 0"), [(0,)],
       "fresh: a project's zero cold rows are not stored")
    ok(q(db, "SELECT count(*), count(DISTINCT id), min(id), max(id) FROM"
            " project") == [(len(m.projects()),) * 2 + (1, len(
                m.projects()))] and q(
        db, "SELECT count(*) FROM project a JOIN project b ON"
        " b.snapshot_id = a.snapshot_id AND b.id = a.id + 1"
        " WHERE b.name <= a.name") == [(0,)],
       "fresh: project ids 1 up, in the order of names")

    one = per_table(db)
    rc, out, err = run(FSSCAN, *args)
    eq(rc, 0, "fresh: a second snapshot", err)
    two = per_table(db)
    growth = {t: two.get(t, 0) - one.get(t, 0) for t in two}
    per = sum(growth.values()) / NPROJ
    ok(per < 400, "fresh: a snapshot adds %.0f bytes per project, under"
       " 400" % per, {t: round(v / NPROJ) for t, v in growth.items() if v})


def main():
    tmp = tempfile.mkdtemp(prefix="t_project_rows.",
                           dir=os.environ.get("TMPDIR"))
    try:
        upgrade(tmp)
        fresh(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    done()


if __name__ == "__main__":
    main()
