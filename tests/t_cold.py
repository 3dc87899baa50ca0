#!/usr/bin/env python3
"""t_cold: cold data (fsscan --cold, v_cold, iocensus cold), exactly.

On a tmpfs (root; elsewhere a scratch directory, without the file past
2^64 bytes) a tree of three projects and loose files, whose atimes and
mtimes are set with os.utime at each threshold's edge: now - days * 86400
exactly (cold), one second less old (not cold) and one second older
(cold), separately for atime and mtime; files in the future; a file
hard-linked from two projects (counted once, in the project of its owning
link, the smallest (parent inode, name)); sparse files whose sizes add up
past 2^64 (bytes as exact TEXT). An os.walk/os.lstat oracle computes every
row of v_cold:

  * fsscan --now N --cold 1,7,30: every row, for every project with
    entries and the whole file system (project NULL), both metrics, every
    threshold, zeros included; the default thresholds (30,90,180,365);
  * fsscan-mpi on 1, 2 and 3 ranks: the same rows as fsscan (skipped
    only when mpirun is missing);
  * --cold refused unless 1 to 8 ascending whole numbers of 1 to 3652425
    days (exit 2, nothing recorded);
  * iocensus cold (JSON) at the latest of two points two days apart
    (--as-of): per project and for the file system, files, bytes, shares
    of the project's files and bytes and the change since the first
    point, against the oracle at both; --days, --metric mtime, --fs, a
    --days not recorded (exit 2, the recorded ones listed);
  * a database of schema 7 is upgraded in place: v_cold and
    v_snapshot.fs_device appear, its snapshot keeps its rows and has no
    cold data (iocensus cold says so), user_version is 8.
"""
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
NOW = 1700000000
THRESHOLDS = (1, 7, 30)
DEFAULT = (30, 90, 180, 365)


def run(*cmd, **kw):
    return subprocess.run([str(c) for c in cmd], capture_output=True,
                          text=True, **kw)


def q(db, sql, *args):
    con = sqlite3.connect(db)
    try:
        return con.execute(sql, args).fetchall()
    finally:
        con.close()


def mkfile(path, size, atime, mtime, sparse=False):
    with open(path, "wb") as f:
        if sparse:
            f.truncate(size)
        else:
            f.write(b"x" * size)
    os.utime(path, (atime, mtime))


def build_tree(root, now, huge):
    """Files at every edge of every threshold, for atime and mtime apart:
    project pK gets the atime edges of threshold K, mtime young; project
    mK the mtime edges, atime young; loose files in ROOT."""
    n = 0
    for d in THRESHOLDS:
        edge = now - d * DAY
        for proj, which in (("a%d" % d, "atime"), ("m%d" % d, "mtime")):
            os.makedirs(os.path.join(root, proj, "sub"), exist_ok=True)
            for k, t in enumerate((edge, edge + 1, edge - 1)):
                n += 1
                at, mt = (t, now) if which == "atime" else (now, t)
                mkfile(os.path.join(root, proj, "sub" if k else "",
                                    "f%d" % k), 10 * n + k, at, mt)
    # The future, and one exactly now (age 0: cold at no threshold).
    mkfile(os.path.join(root, "a1", "future"), 5, now + 3600, now + 1)
    mkfile(os.path.join(root, "a1", "now"), 6, now, now)
    mkfile(os.path.join(root, "loose1"), 7, now - 400 * DAY, now - 8 * DAY)
    # One inode, two projects' links: counted once, by its owning link.
    os.makedirs(os.path.join(root, "links"))
    mkfile(os.path.join(root, "links", "shared"), 1000, now - 31 * DAY,
           now - 2 * DAY)
    os.link(os.path.join(root, "links", "shared"),
            os.path.join(root, "m7", "also"))
    os.link(os.path.join(root, "links", "shared"),
            os.path.join(root, "a30", "sub", "again"))
    if huge:
        # Two sparse files of 2^63 - 1 bytes: more than 2^64 bytes cold.
        os.makedirs(os.path.join(root, "big"))
        for i in range(2):
            mkfile(os.path.join(root, "big", "s%d" % i), (1 << 63) - 1,
                   now - 100 * DAY, now - 100 * DAY, sparse=True)


def owners(root):
    """[(project, lstat)] of every regular file, each inode once, in the
    project (depth:1) of its link with the smallest (parent inode, name);
    and every project with entries."""
    owner = {}
    projects = {"(none)"}
    for dirpath, dirs, files in os.walk(root):
        rel = os.path.relpath(dirpath, root)
        proj = "(none)" if rel == "." else rel.split(os.sep)[0]
        projects.add(proj)
        pino = os.lstat(dirpath).st_ino
        for name in files:
            st = os.lstat(os.path.join(dirpath, name))
            if not stat.S_ISREG(st.st_mode):
                continue
            key = (st.st_dev, st.st_ino)
            cand = ((pino, os.fsencode(name)), proj, st)
            if key not in owner or cand[0] < owner[key][0]:
                owner[key] = cand
    return [(p, st) for _, p, st in owner.values()], projects


def oracle(root, now, thresholds):
    """{(project, metric, days): (files, bytes)}, project None for the
    whole file system."""
    files, projects = owners(root)
    rows = {}
    for p in [None] + sorted(projects):
        for m in ("atime", "mtime"):
            for d in thresholds:
                rows[(p, m, d)] = [0, 0]
    for proj, st in files:
        for m, t in (("atime", st.st_atime_ns // 10**9),
                     ("mtime", st.st_mtime_ns // 10**9)):
            for d in thresholds:
                if now - t >= d * DAY:
                    for p in (None, proj):
                        rows[(p, m, d)][0] += 1
                        rows[(p, m, d)][1] += st.st_size
    return {k: tuple(v) for k, v in rows.items()}, projects


def totals(root):
    """{project: (files, bytes)} of regular files as v_project counts
    them (None: the whole file system)."""
    out = {}
    for proj, st in owners(root)[0]:
        for p in (None, proj):
            f, b = out.get(p, (0, 0))
            out[p] = (f + 1, b + st.st_size)
    return out


def stored(db, sid):
    """v_cold of one snapshot: {(project, metric, days): (files, bytes)},
    bytes read exactly (TEXT beyond 2^63 - 1)."""
    got = {}
    for p, m, d, f, b in q(db, "SELECT project, metric, days, files, bytes"
                           " FROM v_cold WHERE snapshot_id = ?", sid):
        got[(p, m, d)] = (f, int(b))
    return got


def latest(db):
    return q(db, "SELECT max(id) FROM v_snapshot")[0][0]


def scan(db, root, *args, prefix=(), prog=FSSCAN, env=None):
    p = run(*prefix, prog, "--db", db, "--quiet", *args, root, env=env)
    return p


def check_rows(tmp, root, huge):
    db = os.path.join(tmp, "rows.db")
    want, projects = oracle(root, NOW, THRESHOLDS)
    p = scan(db, root, "--now", NOW, "--cold", ",".join(map(str, THRESHOLDS)))
    ok(p.returncode == 0, "fsscan --cold 1,7,30 ran", p.stderr)
    got = stored(db, latest(db))
    eq(got, want, "v_cold: every row at the edges, hard link once, "
       "zeros included (%d rows)" % len(want))
    eq(sorted(k[0] for k in got if k[0] is not None and k[1:] ==
              ("atime", 1)), sorted(projects),
       "v_cold: a row per project with entries")
    edge = {k: v for k, v in got.items() if k[0] in ("a7", "m7")}
    eq((edge[("a7", "atime", 7)][0], edge[("m7", "mtime", 7)][0],
        edge[("a7", "mtime", 7)][0]), (2, 2, 0),
       "at the edge: now - time = 7 days is cold, one second less is not")
    if huge:
        t = q(db, "SELECT typeof(bytes), bytes FROM v_cold WHERE project"
              " IS NULL AND metric = 'atime' AND days = 30")[0]
        ok(t[0] == "text" and int(t[1]) > 1 << 64,
           "v_cold: bytes past 2^64 are exact TEXT", repr(t))
    # The default thresholds.
    db2 = os.path.join(tmp, "default.db")
    scan(db2, root, "--now", NOW)
    want2, _ = oracle(root, NOW, DEFAULT)
    eq(stored(db2, latest(db2)), want2,
       "default --cold 30,90,180,365: every row")
    return want


def check_mpi(tmp, root, want):
    if not MPIRUN or not os.path.exists(FSSCAN_MPI):
        skip("fsscan-mpi: v_cold on 1 to 3 ranks", "mpirun not found",
             needs="mpirun")
        return
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1",
               OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    supp = os.path.join(TOP, "tests", "lsan-openmpi.supp")
    if "LSAN_OPTIONS" in env:
        env["LSAN_OPTIONS"] += ":print_suppressions=0:suppressions=" + supp
    if "ASAN_OPTIONS" in env:
        env["ASAN_OPTIONS"] += ":fast_unwind_on_malloc=0:malloc_context_size=8"
    for n in (1, 2, 3):
        db = os.path.join(tmp, "mpi%d.db" % n)
        p = scan(db, root, "--now", NOW, "-j", 2, "--cold",
                 ",".join(map(str, THRESHOLDS)), env=env,
                 prefix=(MPIRUN, "--oversubscribe", "-np", n),
                 prog=FSSCAN_MPI)
        if not ok(p.returncode == 0, "fsscan-mpi on %d ranks ran" % n,
                  p.stderr[-500:]):
            continue
        eq(stored(db, latest(db)), want,
           "fsscan-mpi on %d rank%s: v_cold as fsscan's" %
           (n, "" if n == 1 else "s"))


def check_option(tmp, root):
    db = os.path.join(tmp, "opt.db")
    for bad in ("", "0", "7,7", "30,7", "1,2,3,4,5,6,7,8,9", "3652426",
                "-1", "+7", " 7", "7 ", "7,", ",7", "7,,30", "7.5", "1e3",
                "18446744073709551617", "0x10"):
        p = scan(db, root, "--cold", bad)
        ok(p.returncode == 2 and "--cold" in p.stderr,
           "--cold %r: usage error naming the option" % bad,
           "%d %s" % (p.returncode, p.stderr))
    ok(not os.path.exists(db) or q(db, "SELECT count(*) FROM snapshot")
       == [(0,)], "a refused --cold records nothing")
    p = scan(db, root, "--now", NOW, "--cold", "1,2,3,4,5,6,7,3652425")
    ok(p.returncode == 0, "--cold with 8 thresholds up to 3652425 days",
       p.stderr)
    eq(q(db, "SELECT days FROM v_cold WHERE project IS NULL AND metric ="
         " 'mtime' ORDER BY days"), [(d,) for d in (1, 2, 3, 4, 5, 6, 7,
                                                    3652425)],
       "every threshold has its row")


def cold_json(db, *args):
    p = run(IOCENSUS, "cold", "--db", db, "--format", "json", *args)
    ok(p.returncode == 0, "iocensus cold %s ran" % " ".join(args), p.stderr)
    return json.loads(p.stdout) if p.returncode == 0 else {"tables": {}}


def rows_of(res, key):
    return res["tables"][key]["rows"] if key in res["tables"] else []


def frac(a, b):
    """A share as the program computes it: each side as a double."""
    return float(a) / float(b) if b else None


def check_report(tmp, root):
    """Two points two days apart (--as-of), the tree changed between."""
    db = os.path.join(tmp, "report.db")
    t0 = NOW - 10 * DAY
    t1 = t0 + 2 * DAY
    ok(scan(db, root, "--as-of", t0, "--fs", "tree").returncode == 0,
       "first scan (--as-of)")
    before, _ = oracle(root, t0, DEFAULT)
    mkfile(os.path.join(root, "a1", "older"), 4321, t0 - 200 * DAY,
           t0 - 95 * DAY)
    os.unlink(os.path.join(root, "loose1"))
    ok(scan(db, root, "--as-of", t1, "--fs", "tree").returncode == 0,
       "second scan, two days later")
    after, _ = oracle(root, t1, DEFAULT)
    tot = totals(root)
    sid = latest(db)
    for metric in ("atime", "mtime"):
        args = () if metric == "atime" else ("--metric", "mtime")
        res = cold_json(db, *args)
        want_p, want_f = [], []
        for (p, m, d), (f, b) in after.items():
            if m != metric:
                continue
            pf, pb = before.get((p, m, d), (0, 0))
            tf, tb = tot.get(p, (0, 0))
            row = [d, f, b, frac(f, tf), frac(b, tb), f - pf, b - pb]
            (want_f if p is None else want_p).append(
                ([p] if p else []) + row)
        got_p = [[r["project"], r["days"], r["files"], r["bytes"],
                  r["share_files"], r["share_bytes"], r["d_files"],
                  r["d_bytes"]] for r in rows_of(res, "projects")]
        got_f = [[r["days"], r["files"], r["bytes"], r["share_files"],
                  r["share_bytes"], r["d_files"], r["d_bytes"]]
                 for r in rows_of(res, "filesystems")]
        key = lambda r: (r[1], -r[3], os.fsencode(r[0]))  # noqa: E731
        eq(got_p, sorted(want_p, key=key), "cold --metric %s: every project"
           " row (files, bytes, shares, changes), most cold bytes first"
           % metric)
        eq(got_f, sorted(want_f), "cold --metric %s: the file system's"
           " rows" % metric)
        eq({(r["fs"], r["snapshot"], r["metric"]) for r in
            rows_of(res, "projects") + rows_of(res, "filesystems")},
           {("tree", sid, metric)}, "cold --metric %s: the latest point"
           % metric)
    res = cold_json(db, "--days", "90", "--fs", "tree")
    eq(sorted({r["days"] for r in rows_of(res, "projects")}), [90],
       "cold --days 90: that threshold only")
    p = run(IOCENSUS, "cold", "--db", db, "--days", "100")
    ok(p.returncode == 2 and "30, 90, 180 and 365" in p.stderr,
       "cold --days 100: usage error listing the recorded thresholds",
       p.stderr)
    for bad in ("0", "-1", "x", "2147483648"):
        p = run(IOCENSUS, "cold", "--db", db, "--days", bad)
        ok(p.returncode == 2 and "--days" in p.stderr,
           "cold --days %s: usage error" % bad, p.stderr)
    p = run(IOCENSUS, "cold", "--db", db, "--metric", "ctime")
    ok(p.returncode == 2 and "atime or mtime" in p.stderr,
       "cold --metric ctime: usage error", p.stderr)
    res = cold_json(db, "--to", "1970-01-02")
    eq(rows_of(res, "projects"), [], "cold: a window before every"
       " snapshot has no rows")
    ok(any("no complete snapshot in the window" in n for n in res["notes"]),
       "cold: and says so", repr(res["notes"]))
    res = cold_json(db, "--to", str(t1))
    eq({r["snapshot"] for r in rows_of(res, "projects")}, {sid - 1},
       "cold --to: the latest point before the window's end")
    ok(all(r["d_files"] is None for r in rows_of(res, "projects")),
       "cold: the first point has no change")


def check_upgrade(tmp, root):
    """A schema-7 database: what schemas 8 and 10 added removed by hand."""
    db = os.path.join(tmp, "v7.db")
    scan(db, root, "--now", NOW)
    con = sqlite3.connect(db)
    # snapshot as schema 7 made it: its columns up to scanned_at, the last.
    sql = q(db, "SELECT sql FROM sqlite_master WHERE name = 'snapshot'")[0][0]
    end = sql.index("scanned_at")
    sql = sql[:end] + sql[end:].split(",")[0] + ")"
    cols = ", ".join(r[1] for r in con.execute("PRAGMA table_info(snapshot)")
                     if r[1] not in ("fs_dev", "fs_mountpoint"))
    con.executescript(
        "PRAGMA legacy_alter_table = ON;"
        "DROP VIEW v_cold; DROP TABLE cold; DROP VIEW v_snapshot;"
        "ALTER TABLE snapshot RENAME TO s8;" + sql + ";"
        "INSERT INTO snapshot SELECT %s FROM s8; DROP TABLE s8;" % cols +
        "CREATE VIEW v_snapshot AS SELECT id, fs, root, started_at,"
        " finished_at, (status = 'complete') AS complete, files, dirs,"
        " symlinks, others, bytes, alloc_bytes, errors, fs_bytes,"
        " fs_free_bytes, fs_avail_bytes, fs_inodes, fs_free_inodes"
        " FROM snapshot; PRAGMA user_version = 7;")
    con.close()
    ok("fs_dev" not in [r[1] for r in q(db, "PRAGMA table_info(snapshot)")],
       "schema 7: a snapshot table without fs_dev")
    before = q(db, "SELECT id, files, bytes FROM v_snapshot")
    p = run(IOCENSUS, "cold", "--db", db, "--format", "json")
    ok(p.returncode == 0, "schema 7: iocensus cold opens it", p.stderr)
    eq(q(db, "PRAGMA user_version"), [(13,)], "schema 7: now version 13")
    eq(q(db, "SELECT id, files, bytes FROM v_snapshot"), before,
       "schema 7: its snapshot keeps its rows")
    eq(q(db, "SELECT count(*) FROM v_cold"), [(0,)],
       "schema 7: v_cold exists, without rows for the old snapshot")
    uuid = q(db, "SELECT fs_uuid FROM snapshot")[0][0]
    eq(q(db, "SELECT fs_device FROM v_snapshot"),
       [("UUID=" + uuid if uuid else None,)],
       "schema 7: fs_device of an old snapshot: its UUID, else unknown")
    res = json.loads(p.stdout) if p.returncode == 0 else {"notes": []}
    ok(any("records no cold data" in n for n in res["notes"]),
       "schema 7: cold says the snapshot records no cold data")


def main():
    tmp = tempfile.mkdtemp(prefix="t_cold.", dir=os.environ.get("TMPDIR"))
    mnt = os.path.join(tmp, "mnt")
    os.mkdir(mnt)
    mounted = os.geteuid() == 0 and run(
        "mount", "-t", "tmpfs", "-o", "size=32m,mode=700", "tmpfs",
        mnt).returncode == 0
    if not mounted:
        skip("v_cold: bytes past 2^64 (sparse files on a tmpfs)",
             "mounting a tmpfs needs root", needs="root")
    try:
        root = os.path.join(mnt, "root")
        os.mkdir(root)
        build_tree(root, NOW, mounted)
        want = check_rows(tmp, root, mounted)
        check_mpi(tmp, root, want)
        check_option(tmp, root)
        check_upgrade(tmp, root)
        check_report(tmp, root)
    finally:
        if mounted:
            run("umount", mnt)
        shutil.rmtree(tmp, ignore_errors=True)
    done()


if __name__ == "__main__":
    main()
