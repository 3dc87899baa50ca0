#!/usr/bin/env python3
"""t_exact: sizes and times at every integer limit, against os.lstat.

A tree on a private tmpfs holds files of 0, 1, 2^31 +- 1, 2^32 +- 1,
2^53 +- 1, 2^62 +- 1 and 2^63 - 1 bytes (sparse: tmpfs stores none of
it), enough of the largest that every total passes 2^64 (v_snapshot, a
project, an owner, a directory, a histogram bucket), and access and
modification times at 0, +-1, +-2^31, 2^32, +-2^53, +-2^62 and both ends
of time_t. fsscan scans it with --now at an ordinary time and at both
ends of the times it takes (0000-01-01 and 9999-12-31T23:59:59, lib/epoch.h:
against the files' times at the ends of time_t, ages of 65 bits both
ways), and every stable view, the owner totals, the extremes
and the largest files are compared with tests/lib/oracle.py (os.lstat,
Python integers): exact, never wrapped, never negative, an INTEGER when
the value fits 64 bits and its decimal TEXT beyond. The fsstats CSV is
compared with tests/lib/fsstats_oracle.py.

iocensus then reads the same totals: snapshots, diff, files, growth,
usage and capacity print them exactly in CSV and JSON, and never as a
negative size in the table; the largest directories by bytes come in
numeric order past 2^63. Under ASan+UBSan every one of these runs is checked for undefined
behaviour by tests/run.

Last, a database of schema 3 (INTEGER columns) is upgraded in place by a
scan: its rows are kept, the new snapshot's totals are exact, the
foreign keys, index and views work as before, and the columns of schema
6 are there (capacity exact, NULL in the rows written before); and one of
schema 4, whose dir rows hold paths and totals beyond 2^63 - 1 as text,
keeps every such total as text when its rows become a parent and a name
(schema 7).
"""
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "lib"))
import fsstats_oracle  # noqa: E402
import oracle  # noqa: E402
from tap import done, eq, ok, skip  # noqa: E402
from pace import limit  # noqa: E402

BUILD = os.environ.get("BUILD") or os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "build")
FSSCAN = os.path.join(BUILD, "fsscan")
IOC = os.path.join(BUILD, "iocensus")
DAY = 86400
I64_MAX = (1 << 63) - 1
I64_MIN = -(1 << 63)
EPOCH_MIN = -62167219200           # 0000-01-01T00:00:00Z, lib/epoch.h
EPOCH_MAX = 253402300799           # 9999-12-31T23:59:59Z
BIG = I64_MAX                      # the largest file a local user can make

SIZES = [0, 1, (1 << 31) - 1, 1 << 31, (1 << 31) + 1, (1 << 32) - 1,
         1 << 32, (1 << 32) + 1, (1 << 53) - 1, 1 << 53, (1 << 53) + 1,
         (1 << 62) - 1, 1 << 62, (1 << 62) + 1, I64_MAX - 1]
TIMES = [0, 1, -1, (1 << 31) - 1, -(1 << 31), 1 << 31, 1 << 32,
         (1 << 53) + 1, -(1 << 53) - 1, 1 << 62, -(1 << 62), I64_MAX,
         I64_MAX - 1, I64_MIN, I64_MIN + 1]


def run(*args):
    p = subprocess.run([str(a) for a in args], capture_output=True,
                       timeout=limit(300))
    return p.returncode, p.stdout.decode(errors="replace"), \
        p.stderr.decode(errors="replace")


def sparse(path, size, data_at=None):
    with open(path, "wb") as f:
        f.truncate(size)
        if data_at is not None:
            f.seek(data_at)
            f.write(b"x" * 4096)


def set_times(path, atime, mtime):
    os.utime(path, ns=(atime * 10 ** 9, mtime * 10 ** 9),
             follow_symlinks=False)


def build_tree(root, now):
    """The tree; times are set last, deepest first, so that creating an
    entry never moves its directory's mtime afterwards."""
    times = []                        # (path, atime, mtime)
    os.makedirs(os.path.join(root, "big", "a", "b"))
    os.makedirs(os.path.join(root, "limits"))
    os.makedirs(os.path.join(root, "times"))
    os.makedirs(os.path.join(root, "oldest", "d"))
    # big/: five files of 2^63 - 1 bytes in three directories: the
    # project, big/a (a v_dir row) and the size bucket pass 2^64; one
    # has a page written far out, so its capacity is not 0
    for i, rel in enumerate(["big/f0", "big/f1", "big/a/f2", "big/a/b/f3",
                             "big/a/b/f4"]):
        p = os.path.join(root, rel)
        sparse(p, BIG, data_at=(1 << 62) if i == 0 else None)
        os.chown(p, 4242, 4343)
        times.append((p, now - i * DAY, now - 40 * DAY))
    # a second link of one of them: counted once
    os.link(os.path.join(root, "big/a/b/f4"), os.path.join(root, "big/f4.lnk"))
    for s in SIZES:
        p = os.path.join(root, "limits", "s%d" % s)
        sparse(p, s)
        times.append((p, now, now))
    for k, t in enumerate(TIMES):
        p = os.path.join(root, "times", "t%d" % k)
        sparse(p, BIG if k % 3 == 0 else 1000 + k)
        times.append((p, t, TIMES[-1 - k]))
    # a directory whose every time is the earliest one: its v_dir
    # max_mtime is INT64_MIN, not missing
    p = os.path.join(root, "oldest", "d", "f")
    sparse(p, 7)
    times.append((p, I64_MIN, I64_MIN))
    times.append((os.path.join(root, "oldest", "d"), I64_MIN, I64_MIN))
    for p, a, m in times:
        set_times(p, a, m)
    for d in ("big/a/b", "big/a", "big", "limits", "times", "oldest"):
        set_times(os.path.join(root, d), now, now - DAY)


# ---------------------------------------------------------------- reading

def csv_match(got, want):
    """fsstats_oracle.match, where fields printed with decimals ("%f",
    "%.2f KB") may differ in their last double bits: fsstats' shares and
    averages are doubles, and past 2^53 the exact value is not one. Every
    integer field (counts, min, max, bounds) must match exactly."""
    def num(x):
        x = x.split("|")[0].strip("{}")
        return float(x.split(" ")[0])

    gl, wl = got.split("\n"), want.split("\n")
    for i in range(max(len(gl), len(wl))):
        g = gl[i] if i < len(gl) else "<EOF>"
        w = wl[i] if i < len(wl) else "<EOF>"
        if fsstats_oracle.match(g, w) is None:
            continue
        gt, wt = g.split(","), w.split(",")
        if len(gt) == len(wt) and all(
                a == b or ("." in a and "." in b and
                           a.split(" ")[1:] == b.split(" ")[1:] and
                           abs(num(a) - num(b)) <= 1e-9 * abs(num(b)))
                for a, b in zip(gt, wt)):
            continue
        return "line %d: got %r want %r" % (i + 1, g, w)
    return None


def exact(v, name, bad):
    """A stored integer: an INTEGER inside int64, else canonical decimal
    TEXT of a value outside it. Returns the Python int."""
    if isinstance(v, int):
        return v
    if isinstance(v, bytes):
        v = v.decode()
    if isinstance(v, str):
        try:
            n = int(v)
        except ValueError:
            bad.append("%s: %r is not an integer" % (name, v))
            return None
        if str(n) != v or I64_MIN <= n <= I64_MAX:
            bad.append("%s: TEXT %r, not an INTEGER" % (name, v))
        return n
    bad.append("%s: %r (%s)" % (name, v, type(v).__name__))
    return v


class Db:
    """What a scan stored, every integer checked for its representation."""

    def __init__(self, path, sid):
        self.bad = []
        c = sqlite3.connect(path)
        c.text_factory = bytes
        try:
            self.load(c, sid)
        finally:
            c.close()

    def rows(self, c, sql, sid, wide):
        """Rows of sql; the columns named in wide are exact integers."""
        cur = c.execute(sql, (sid,))
        names = [d[0] for d in cur.description]
        out = []
        for r in cur.fetchall():
            r = list(r)
            for i, n in enumerate(names):
                if n in wide:
                    r[i] = exact(r[i], n, self.bad)
            out.append(tuple(r))
        return out

    def load(self, c, sid):
        tot = ("bytes", "alloc_bytes")
        r = self.rows(c, "SELECT files, dirs, symlinks, others, bytes,"
                      " alloc_bytes, errors, complete FROM v_snapshot"
                      " WHERE id = ?", sid, tot)[0]
        self.snap = dict(zip(("files", "dirs", "symlinks", "others",
                              "bytes", "alloc_bytes", "errors",
                              "complete"), r))
        self.internal = dict(zip(("all_size", "all_blocks"), self.rows(
            c, "SELECT all_size, all_blocks FROM snapshot WHERE id = ?",
            sid, ("all_size", "all_blocks"))[0]))
        self.projects = {r[0]: r[1:] for r in self.rows(
            c, "SELECT project, files, dirs, bytes, alloc_bytes FROM"
            " v_project WHERE snapshot_id = ?", sid, tot)}
        self.vhist = {(r[0], r[1].decode(), r[2], r[3]): (r[4], r[5])
                      for r in self.rows(
            c, "SELECT project, metric, lo, hi, files, bytes FROM v_hist"
            " WHERE snapshot_id = ?", sid, ("lo", "hi", "bytes"))}
        self.vdir = {r[0]: r[1:] for r in self.rows(
            c, "SELECT path, depth, files, dirs, bytes, alloc_bytes,"
            " max_mtime FROM v_dir WHERE snapshot_id = ?", sid, tot)}
        self.owners = {(r[0].decode(), r[1]): r[2:] for r in self.rows(
            c, "SELECT kind, id, files, dirs, bytes, alloc_bytes FROM owner"
            " WHERE snapshot_id = ?", sid, tot) if any(r[2:])}
        self.extent = {r[0].decode(): r[1:] for r in self.rows(
            c, "SELECT metric, min, max FROM hist_extent WHERE"
            " snapshot_id = ?", sid, ("min", "max"))}
        self.pextent = {(r[0], r[1].decode()): r[2:] for r in self.rows(
            c, "SELECT project, metric, min, max FROM (%s) WHERE"
            " snapshot_id = ?" % PEXT_OF_11, sid, ("min", "max"))}
        self.top = [r[0] for r in self.rows(
            c, "SELECT value FROM top WHERE snapshot_id = ? AND kind ="
            " 'file' ORDER BY rank", sid, ("value",))]
        for k, v in list(self.snap.items()) + list(self.internal.items()):
            if isinstance(v, int) and v < 0:
                self.bad.append("%s is negative: %d" % (k, v))


def oracle_extents(m, now):
    """hist_extent and project_extent of the size and age metrics."""
    whole, per = {}, {}
    metrics = (("size", lambda st: st.st_size),
               ("atime", lambda st: now - oracle.sec(st.st_atime_ns)),
               ("mtime", lambda st: now - oracle.sec(st.st_mtime_ns)),
               ("ctime", lambda st: now - oracle.sec(st.st_ctime_ns)))
    for i, e in m.files():
        for name, f in metrics:
            v = f(e.st)
            for d, key in ((whole, name), (per, (m.proj[i], name))):
                lo, hi = d.get(key, (v, v))
                d[key] = (min(lo, v), max(hi, v))
    return whole, per


def compare(label, tmp, root, now, args=()):
    db = os.path.join(tmp, "c%d.db" % abs(hash((label, now))))
    csv = db + ".csv"
    rc, out, err = run(FSSCAN, "--db", db, "--now", now, "--quiet",
                       "--dirs", "all", "--fsstats-csv", csv, *args, root)
    if not ok(rc == 0, label + ": fsscan exit 0", "rc=%d %s" % (rc, err)):
        return None
    walk = oracle.Walk(root, read_targets=False)
    m = oracle.Model(walk, now, ["depth:1"], "all")
    got = Db(db, 1)
    ok(not got.bad, label + ": every integer is exact (INTEGER in 64 bits,"
       " decimal TEXT beyond), no total negative", "; ".join(got.bad[:6]))
    eq(got.snap, m.snapshot(), label + ": v_snapshot")
    want = m.internal()
    eq(got.internal, {k: want[k] for k in got.internal},
       label + ": all_size, all_blocks")
    eq(got.projects, m.projects(), label + ": v_project")
    eq(got.vhist, m.hist(), label + ": v_hist (whole and per project)")
    eq(got.vdir, m.dirs(), label + ": v_dir")
    eq(got.owners, m.owners(), label + ": owner totals")
    whole, per = oracle_extents(m, now)
    eq({k: v for k, v in got.extent.items() if k in whole}, whole,
       label + ": hist_extent of size and ages")
    eq(got.pextent, per, label + ": project_extent")
    eq(got.top, m.top_files(20), label + ": largest files")
    text = open(csv).read()
    why = csv_match(
        fsstats_oracle.strip(text, statvfs_lines=True),
        fsstats_oracle.build(walk, now, os.fsencode(root)))
    ok(why is None, label + ": fsstats CSV", why)
    return db, m


# ---------------------------------------------------------------- iocensus

def ioc_json(db, *args):
    rc, out, err = run(IOC, *args, "--db", db, "--format", "json")
    if rc != 0:
        return None, "rc=%d %s" % (rc, err)
    return json.loads(out), err


def table(res, key):
    return res["tables"][key]["rows"] if res else []


def exact_capacity(db, root, m, m2, p1, p2):
    """usage, capacity and the largest directories by bytes print totals
    past 2^64 exactly, and order them as numbers."""
    res, err = ioc_json(db, "usage", "--fs", root)
    big = [r for r in table(res, "usage") if r["name"] == "big"]
    eq([(r["files"], r["bytes"], r["alloc_bytes"], r["d_bytes"],
         r["d_alloc"]) for r in big],
       [(p2[0], p2[2], p2[3], p2[2] - p1[2], p2[3] - p1[3])],
       "usage: project big's bytes and their change exact")
    res, err = ioc_json(db, "capacity", "--fs", root)
    big = [r for r in table(res, "projects") if r["project"] == "big"]
    eq([(r["bytes"], r["used"]) for r in big], [(p2[2], p2[3])],
       "capacity: project big's bytes and allocated bytes exact")
    res, err = ioc_json(db, "files", "--snapshot", "2", "--by", "size")
    want = sorted(((v[3], p.decode()) for p, v in m2.dirs().items()
                   if v[0] >= 1), key=lambda x: (-x[0], x[1].encode()))[:20]
    eq([(r["bytes"], r["path"]) for r in table(res, "largest_dirs_bytes")],
       [(b, root + "/" + p) for b, p in want],
       "files: directories by bytes exact, in numeric order past 2^63")


def reports(tmp, root, now, db, m):
    """The same totals through iocensus, and a second snapshot with one
    more file of 2^63 - 1 bytes for diff and growth."""
    p = os.path.join(root, "big", "a", "f5")
    sparse(p, BIG)
    set_times(p, now, now)
    set_times(os.path.join(root, "big", "a"), now, now - DAY)
    set_times(os.path.join(root, "big"), now, now - DAY)
    rc, out, err = run(FSSCAN, "--db", db, "--now", now + DAY, "--quiet",
                       "--dirs", "all", root)
    ok(rc == 0, "second scan: exit 0", err)
    m2 = oracle.Model(oracle.Walk(root, read_targets=False), now + DAY,
                      ["depth:1"], "all")
    s1, s2 = m.snapshot(), m2.snapshot()
    p1, p2 = m.projects()[b"big"], m2.projects()[b"big"]

    res, err = ioc_json(db, "snapshots")
    eq([(r["bytes"], r["alloc_bytes"], r["files"]) for r in
        table(res, "snapshots")],
       [(s["bytes"], s["alloc_bytes"], s["files"]) for s in (s1, s2)],
       "snapshots --format json: exact totals")
    rc, out, err = run(IOC, "snapshots", "--db", db, "--format", "csv")
    ok(rc == 0 and "%d,%d," % (s2["bytes"], s2["alloc_bytes"]) in out,
       "snapshots --format csv: exact totals", out + err)
    rc, out, err = run(IOC, "snapshots", "--db", db)
    want = ["%.1f EiB" % (s["bytes"] / 2 ** 60) for s in (s1, s2)]
    ok(rc == 0 and all(w in out for w in want) and
       not re.search(r" -[0-9]", out), "snapshots table: %s, nothing "
       "negative" % " and ".join(want), out + err)

    res, err = ioc_json(db, "diff", "1", "2")
    fs = table(res, "filesystems")
    eq([(r["bytes_a"], r["bytes_b"], r["d_bytes"]) for r in fs],
       [(s1["bytes"], s2["bytes"], s2["bytes"] - s1["bytes"])],
       "diff: file-system bytes and new bytes exact")
    big = [r for r in table(res, "groups") if r["name"] == "big"]
    eq([(r["bytes_a"], r["bytes_b"], r["d_bytes"], r["d_alloc"])
        for r in big], [(p1[2], p2[2], p2[2] - p1[2], p2[3] - p1[3])],
       "diff --by project: exact bytes of project big")
    res, err = ioc_json(db, "diff", "1", "2", "--by", "dir",
                        "--depth", "2")
    big_a = [r for r in table(res, "groups") if r["name"] == "big/a"]
    eq([(r["bytes_a"], r["bytes_b"]) for r in big_a],
       [(m.dirs()[b"big/a"][3], m2.dirs()[b"big/a"][3])],
       "diff --by dir: exact subtree bytes past 2^64")
    res, err = ioc_json(db, "diff", "1", "2", "--by", "user")
    u = [r for r in table(res, "groups") if r["name"] == "4242"]
    eq([(r["bytes_a"], r["bytes_b"]) for r in u],
       [(m.owners()[("user", 4242)][2], m2.owners()[("user", 4242)][2])],
       "diff --by user: exact owner bytes past 2^64")

    res, err = ioc_json(db, "files", "--snapshot", "1", "--by", "size")
    want = sorted((lo, hi, f, b) for (pr, me, lo, hi), (f, b) in
                  m.hist().items() if pr is None and me == "size")
    eq(sorted((r["lo"] if r["lo"] is not None else None, r["hi"],
               r["files"], r["bytes"]) for r in table(res, "distribution")),
       want, "files --by size: exact buckets and bytes")
    facts = table(res, "facts")
    eq([(f["bytes"], f["largest_file"]) for f in facts],
       [(s1["bytes"], BIG)], "files --by size: total and largest exact")
    ok(any(r["bytes"] == BIG for r in table(res, "largest_files")),
       "files: largest files of 2^63 - 1 bytes", repr(res and
                                                       table(res, "largest_files")[:2]))
    res, err = ioc_json(db, "files", "--snapshot", "1", "--by", "mtime")
    want = sorted((hi // DAY, f, b) for (pr, me, lo, hi), (f, b) in
                  m.hist().items() if pr is None and me == "mtime")
    eq(sorted((r["hi"], r["files"], r["bytes"])
              for r in table(res, "distribution")), want,
       "files --by mtime: exact buckets, ages past 2^63 s")
    for sel in (("--project", "big"), ("--exclude-project", "big")):
        res, err = ioc_json(db, "files", "--snapshot", "1", *sel)
        total = sum(b for (pr, me, lo, hi), (f, b) in m.hist().items()
                    if me == "size" and (pr == b"big") == (sel[0] ==
                                                          "--project")
                    and pr is not None)
        eq([f["bytes"] for f in table(res, "facts")], [total],
           "files %s big: exact bytes" % sel[0])

    # Growth takes one point per day (a scan less than a day before the
    # next is a rescan): date the first snapshot two days back, as if the
    # second had been made then.
    c = sqlite3.connect(db)
    c.execute("UPDATE snapshot SET started_at = started_at - 2 * 86400,"
              " finished_at = finished_at - 2 * 86400 WHERE id = 1")
    c.commit()
    c.close()
    res, err = ioc_json(db, "growth", "--fs", root, "--metric", "bytes",
                        "--target", "1e21")
    eq([r["value"] for r in table(res, "points")],
       [s1["bytes"], s2["bytes"]], "growth --metric bytes: exact points")
    exact_capacity(db, root, m, m2, p1, p2)
    html = os.path.join(tmp, "r.html")
    rc, out, err = run(IOC, "report", "--db", db, "--out", html)
    ok(rc == 0 and "EiB" in open(html).read(), "report: written, in EiB",
       err)


def doc_example(db, m):
    """docs/census-db.md's exact sort runs as printed, largest first."""
    top = os.environ.get("TOP") or os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..")
    text = open(os.path.join(top, "docs", "census-db.md")).read()
    sql = re.findall(r'sqlite3 iocensus.db "([^"]*length\(bytes\)[^"]*)"',
                     text)
    if not ok(len(sql) == 1, "docs/census-db.md: the exact-sort example"):
        return
    c = sqlite3.connect(db)
    got = [exact(b, "bytes", []) for _, b in c.execute(sql[0])]
    c.close()
    want = sorted((r[3] for r in m.dirs().values()), reverse=True)[:10]
    eq(got, want, "docs/census-db.md example: v_dir by exact bytes, "
       "largest first (TEXT past 2^64 and INTEGER mixed)")


def corrupt(tmp, db):
    """A total that is not an exact non-negative integer is an error that
    names it, never a number."""
    for value, why in (("-1", "out of range for a total"),
                       ("'12x'", "not an exact integer"),
                       ("1.5", "not an exact integer"),
                       ("'" + "9" * 40 + "'", "not an exact integer")):
        bad = os.path.join(tmp, "bad.db")
        shutil.copy(db, bad)
        c = sqlite3.connect(bad)
        c.execute("UPDATE snapshot SET bytes = %s WHERE id = 1" % value)
        c.commit()
        c.close()
        rc, out, err = run(IOC, "snapshots", "--db", bad)
        ok(rc == 3 and why in err and "bytes" in err,
           "a stored total of %s: exit 3, %s" % (value, why),
           "rc=%d %s" % (rc, err))
        os.unlink(bad)


# ---------------------------------------------------------------- upgrade

# The census tables of schema 3, as they were: typed INTEGER columns.
V3 = {
    "snapshot": """CREATE TABLE snapshot (id INTEGER PRIMARY KEY,
  fs TEXT NOT NULL, root TEXT NOT NULL, root_abs TEXT, host TEXT,
  fstype TEXT, fs_source TEXT, fs_uuid TEXT, fs_label TEXT, mount_opts TEXT,
  started_at INTEGER NOT NULL, finished_at INTEGER,
  now_ref INTEGER NOT NULL, status TEXT NOT NULL CHECK (status IN
  ('running', 'complete', 'interrupted', 'failed')),
  files INTEGER, dirs INTEGER, symlinks INTEGER, others INTEGER,
  bytes INTEGER, alloc_bytes INTEGER, all_size INTEGER, all_blocks INTEGER,
  hardlink_dups INTEGER, snapshot_dirs INTEGER, symlink_rel INTEGER,
  symlink_abs INTEGER, mounts_skipped INTEGER, excluded INTEGER,
  errors INTEGER, threads INTEGER, options TEXT, entries_per_s REAL,
  version TEXT)""",
    "project": """CREATE TABLE project (snapshot_id INTEGER NOT NULL
  REFERENCES snapshot(id) ON DELETE CASCADE, name TEXT NOT NULL,
  source TEXT NOT NULL, files INTEGER NOT NULL, dirs INTEGER NOT NULL,
  bytes INTEGER NOT NULL, alloc_bytes INTEGER NOT NULL,
  PRIMARY KEY (snapshot_id, name)) WITHOUT ROWID""",
    "owner": """CREATE TABLE owner (snapshot_id INTEGER NOT NULL
  REFERENCES snapshot(id) ON DELETE CASCADE, kind TEXT NOT NULL CHECK
  (kind IN ('user', 'group')), id INTEGER NOT NULL, name TEXT,
  files INTEGER NOT NULL, dirs INTEGER NOT NULL, bytes INTEGER NOT NULL,
  alloc_bytes INTEGER NOT NULL, PRIMARY KEY (snapshot_id, kind, id))
  WITHOUT ROWID""",
    "hist": """CREATE TABLE hist (snapshot_id INTEGER NOT NULL
  REFERENCES snapshot(id) ON DELETE CASCADE, project TEXT,
  metric TEXT NOT NULL, slot INTEGER NOT NULL, lo INTEGER NOT NULL,
  hi INTEGER NOT NULL, n INTEGER NOT NULL, w INTEGER NOT NULL, v TEXT,
  vw TEXT)""",
    "hist_extent": """CREATE TABLE hist_extent (snapshot_id INTEGER NOT
  NULL REFERENCES snapshot(id) ON DELETE CASCADE, metric TEXT NOT NULL,
  min INTEGER NOT NULL, max INTEGER NOT NULL, PRIMARY KEY (snapshot_id,
  metric)) WITHOUT ROWID""",
    "project_extent": """CREATE TABLE project_extent (snapshot_id INTEGER
  NOT NULL REFERENCES snapshot(id) ON DELETE CASCADE, project TEXT NOT
  NULL, metric TEXT NOT NULL, min INTEGER NOT NULL, max INTEGER NOT NULL,
  PRIMARY KEY (snapshot_id, project, metric)) WITHOUT ROWID""",
    "dir": """CREATE TABLE dir (snapshot_id INTEGER NOT NULL REFERENCES
  snapshot(id) ON DELETE CASCADE, path TEXT NOT NULL, depth INTEGER NOT
  NULL, files INTEGER NOT NULL, dirs INTEGER NOT NULL, bytes INTEGER NOT
  NULL, alloc_bytes INTEGER NOT NULL, max_mtime INTEGER,
  PRIMARY KEY (snapshot_id, path)) WITHOUT ROWID""",
    "top": """CREATE TABLE top (snapshot_id INTEGER NOT NULL REFERENCES
  snapshot(id) ON DELETE CASCADE, kind TEXT NOT NULL CHECK (kind IN
  ('file', 'dir')), rank INTEGER NOT NULL, value INTEGER NOT NULL,
  path TEXT NOT NULL, PRIMARY KEY (snapshot_id, kind, rank))
  WITHOUT ROWID""",
}


# dir's rows as v_dir shows them: schema 7 stores a parent and a name
# where schema 6 and before stored the path.
VDIR = ("SELECT snapshot_id, path, depth, files, dirs, bytes, alloc_bytes,"
        " max_mtime FROM v_dir")


# Schema 11 keeps the projects' histogram rows in project_hist and their
# extremes in one row each, bounds in hist_slot: these give the rows of
# schema 3's hist and project_extent from a database of schema 11.
HIST_OF_11 = (
    "SELECT h.snapshot_id, NULL, h.metric, h.slot, b.lo, b.hi, h.n, h.w,"
    " h.v, h.vw FROM hist h JOIN hist_slot b ON b.metric = h.metric"
    " AND b.slot = h.slot UNION ALL"
    " SELECT h.snapshot_id, p.name, m.metric, h.slot, b.lo, b.hi, h.n, h.w,"
    " NULL, NULL FROM project_hist h JOIN project p ON p.snapshot_id ="
    " h.snapshot_id AND p.id = h.project_id JOIN file_metric m ON"
    " m.id = h.metric JOIN hist_slot b ON b.metric = m.metric"
    " AND b.slot = h.slot")
PEXT_OF_11 = " UNION ALL ".join(
    "SELECT e.snapshot_id AS snapshot_id, p.name AS project,"
    " '%s' AS metric, e.%s_min AS min, e.%s_max AS max"
    " FROM project_extent e JOIN project p ON p.snapshot_id ="
    " e.snapshot_id AND p.id = e.project_id" % (m, m, m)
    for m in ("size", "atime", "mtime", "ctime"))
OF_11 = {"hist": HIST_OF_11, "project_extent": PEXT_OF_11}


def v3_columns(t):
    """The columns of schema 3's table t, in order."""
    c = sqlite3.connect(":memory:")
    try:
        c.execute(V3[t])
        return [r[1] for r in c.execute('PRAGMA table_info("%s")' % t)]
    finally:
        c.close()


def dump(db, tables):
    """The rows of each table, in schema 3's columns (a later schema adds
    some, which rows written before have as NULL)."""
    c = sqlite3.connect(db)
    v11 = c.execute("PRAGMA user_version").fetchone()[0] >= 11
    try:
        return {t: sorted(c.execute(
            VDIR if t == "dir" else OF_11[t] if v11 and t in OF_11 else
            'SELECT %s FROM "%s"' % (", ".join(v3_columns(t)), t)
        ).fetchall(), key=repr) for t in tables}
    finally:
        c.close()


def make_v3(db):
    """Turn a fresh census database back into schema 3: the same rows in
    tables of the old column types."""
    c = sqlite3.connect(db)
    c.execute("PRAGMA foreign_keys=OFF")
    c.execute("PRAGMA legacy_alter_table=ON")
    c.execute("CREATE TEMP TABLE dir_rows AS " + VDIR)
    for t, sql in OF_11.items():
        c.execute("CREATE TEMP TABLE %s_rows AS %s" % (t, sql))
    for v in ("v_snapshot", "v_project", "v_hist", "v_dir", "v_limit",
              "v_cold", "v_cold_owner"):
        c.execute("DROP VIEW %s" % v)
    for t in ("project_limit", "project_hist", "cold", "project_cold",
              "owner_cold", "hist_slot", "file_metric"):
        c.execute("DROP TABLE %s" % t)
    for t, ddl in V3.items():
        c.execute('ALTER TABLE "%s" RENAME TO "%s_new"' % (t, t))
        c.execute(ddl)
        if t == "dir":
            c.execute('INSERT INTO dir SELECT * FROM temp.dir_rows')
        elif t in OF_11:
            c.execute('INSERT INTO "%s" SELECT * FROM temp.%s_rows' % (t, t))
        else:
            cols = ", ".join(v3_columns(t))
            c.execute('INSERT INTO "%s" SELECT %s FROM "%s_new"' %
                      (t, cols, t))
        c.execute('DROP TABLE "%s_new"' % t)
    c.executescript(
        "CREATE UNIQUE INDEX hist_key ON hist (snapshot_id,"
        " ifnull(project, ''), metric, slot);"
        "CREATE VIEW v_snapshot AS SELECT id, fs, root, started_at,"
        " finished_at, (status = 'complete') AS complete, files, dirs,"
        " symlinks, others, bytes, alloc_bytes, errors FROM snapshot;"
        "CREATE VIEW v_project AS SELECT snapshot_id, name AS project,"
        " files, dirs, bytes, alloc_bytes FROM project;"
        "CREATE VIEW v_hist AS SELECT snapshot_id, project, metric, lo, hi,"
        " n AS files, w AS bytes FROM hist WHERE metric IN ('size',"
        " 'atime', 'mtime', 'ctime');"
        "CREATE VIEW v_dir AS SELECT snapshot_id, path, depth, files, dirs,"
        " bytes, alloc_bytes, max_mtime FROM dir;"
        "PRAGMA user_version=3;")
    c.commit()
    typed = c.execute("SELECT type FROM pragma_table_info('project') WHERE"
                      " name = 'bytes'").fetchone()[0]
    c.close()
    return typed


def upgrade(tmp, root, now):
    small = os.path.join(tmp, "small")
    os.makedirs(os.path.join(small, "p"))
    sparse(os.path.join(small, "p", "f"), 12345)
    db = os.path.join(tmp, "v3.db")
    rc, out, err = run(FSSCAN, "--db", db, "--now", now, "--quiet", small)
    ok(rc == 0, "upgrade: a snapshot to keep", err)
    eq(make_v3(db), "INTEGER", "upgrade: the fixture has schema 3's types")
    before = dump(db, V3)
    rc, out, err = run(FSSCAN, "--db", db, "--now", now, "--quiet",
                       "--dirs", "all", root)
    ok(rc == 0, "upgrade: fsscan into the schema-3 database: exit 0", err)
    c = sqlite3.connect(db)
    eq(c.execute("PRAGMA user_version").fetchone()[0], 13,
       "upgrade: now schema 13")
    eq(c.execute("SELECT name, type FROM pragma_table_info('snapshot')"
                 " WHERE name IN ('fs_bytes', 'fs_free_bytes',"
                 " 'fs_avail_bytes', 'fs_inodes', 'fs_free_inodes',"
                 " 'scanned_at') ORDER BY cid").fetchall(),
       [("fs_bytes", ""), ("fs_free_bytes", ""), ("fs_avail_bytes", ""),
        ("fs_inodes", ""), ("fs_free_inodes", ""),
        ("scanned_at", "INTEGER")],
       "upgrade: the capacity columns are there, exact (no type)")
    eq(c.execute("SELECT fs_bytes, fs_inodes, scanned_at FROM snapshot"
                 " ORDER BY id").fetchall()[0], (None, None, None),
       "upgrade: the old snapshot's capacity and scan time are unknown")
    ok(c.execute("SELECT fs_bytes IS NOT NULL AND scanned_at IS NOT NULL"
                 " FROM snapshot ORDER BY id DESC").fetchone()[0] == 1,
       "upgrade: the new snapshot records them")
    eq(c.execute("SELECT count(*) FROM project WHERE snapshot_id = 1 AND"
                 " entries IS NOT NULL").fetchone()[0], 0,
       "upgrade: the old project rows have no entries")
    eq(c.execute("SELECT group_concat(name) FROM pragma_table_info('dir')"
                 " WHERE name IN ('bytes', 'alloc_bytes') AND type = ''"
                 ).fetchone()[0], "bytes,alloc_bytes",
       "upgrade: dir's totals have no type")
    eq(c.execute("PRAGMA integrity_check").fetchall(), [("ok",)],
       "upgrade: integrity_check")
    eq(c.execute("PRAGMA foreign_key_check").fetchall(), [],
       "upgrade: foreign_key_check")
    eq(c.execute("SELECT name FROM sqlite_master WHERE type = 'index'"
                 " AND tbl_name IN ('hist', 'project_hist')").fetchall(),
       [], "upgrade: hist_key is gone, the histograms keyed by their"
       " primary keys")
    ok(not c.execute("SELECT name FROM sqlite_master WHERE name LIKE"
                     " '%_v3' OR name LIKE '%_v10'").fetchall(),
       "upgrade: no old table left")
    m = oracle.Model(oracle.Walk(root, read_targets=False), now,
                     ["depth:1"], "all")
    c.close()
    got = Db(db, 2)
    eq(got.snap, m.snapshot(), "upgrade: the new snapshot's totals exact")
    ok(not got.bad, "upgrade: exact representation", "; ".join(got.bad[:4]))
    after = dump(db, V3)
    eq({t: [r for r in rows if r[0] == 1] for t, rows in after.items()},
       before, "upgrade: the old snapshot's rows are unchanged")
    c = sqlite3.connect(db)
    c.execute("PRAGMA foreign_keys=ON")
    c.execute("DELETE FROM snapshot WHERE id = 1")
    c.commit()
    eq(c.execute("SELECT count(*) FROM v_project WHERE snapshot_id = 1"
                 ).fetchone()[0], 0,
       "upgrade: deleting a snapshot still deletes its rows")
    c.close()


# dir of schema 4: a path per row, and exact (untyped) totals.
V4_DIR = """CREATE TABLE dir (snapshot_id INTEGER NOT NULL REFERENCES
  snapshot(id) ON DELETE CASCADE, path TEXT NOT NULL, depth INTEGER NOT
  NULL, files INTEGER NOT NULL, dirs INTEGER NOT NULL, bytes NOT NULL,
  alloc_bytes NOT NULL, max_mtime INTEGER,
  PRIMARY KEY (snapshot_id, path)) WITHOUT ROWID;
CREATE VIEW v_dir AS SELECT snapshot_id, path, depth, files, dirs, bytes,
  alloc_bytes, max_mtime FROM dir;"""


def upgrade_v4(tmp, root, now):
    """A schema-4 database, whose dir rows hold paths and totals beyond
    2^63 - 1 as exact text: the conversion to parent and name (schema 7)
    keeps every total as it was, text included."""
    db = os.path.join(tmp, "v4.db")
    rc, out, err = run(FSSCAN, "--db", db, "--now", now, "--quiet",
                       "--dirs", "all", root)
    ok(rc == 0, "schema 4: a snapshot with exact dir totals", err)
    c = sqlite3.connect(db)
    before = sorted(c.execute(VDIR).fetchall(), key=repr)
    kinds = sorted(set(r[0] for r in c.execute(
        "SELECT typeof(bytes) FROM dir")))
    c.execute("PRAGMA foreign_keys=OFF")
    c.execute("CREATE TEMP TABLE dir_rows AS " + VDIR)
    c.executescript("DROP VIEW v_dir; DROP TABLE dir; " + V4_DIR)
    c.execute("INSERT INTO dir SELECT * FROM temp.dir_rows")
    c.execute("PRAGMA user_version=4")
    c.commit()
    c.close()
    eq(kinds, ["integer", "text"], "schema 4: the fixture's dir totals are"
       " INTEGER and exact TEXT")
    rc, out, err = run(FSSCAN, "--db", db, "--now", now, "--quiet",
                       "--dirs", "1", root)
    ok(rc == 0, "schema 4: fsscan upgrades it: exit 0", err)
    c = sqlite3.connect(db)
    eq(c.execute("PRAGMA user_version").fetchone()[0], 13,
       "schema 4: now schema 13")
    eq([r for r in sorted(c.execute(VDIR).fetchall(), key=repr)
        if r[0] == 1], before,
       "schema 4: v_dir rows as before, exact text kept as text")
    eq(c.execute("SELECT count(*) FROM dir WHERE snapshot_id = 1 AND"
                 " typeof(bytes) = 'text'").fetchone()[0],
       sum(1 for r in before if isinstance(r[5], str)),
       "schema 4: no total turned into a REAL")
    eq(c.execute("PRAGMA integrity_check").fetchall(), [("ok",)],
       "schema 4: integrity_check")
    c.close()


def main():
    if os.geteuid() != 0:
        skip("t_exact: every check", "the trees are made on a tmpfs it"
             " mounts", needs="root")
        done()
    tmp = tempfile.mkdtemp(prefix="t_exact.", dir=os.environ.get("TMPDIR"))
    mnt = os.path.join(tmp, "mnt")
    os.mkdir(mnt)
    if not ok(subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64m",
                              "tmpfs", mnt]).returncode == 0,
              "tmpfs mounted"):
        done()
    try:
        root = os.path.join(mnt, "root")
        os.mkdir(root)
        now = int(time.time())
        build_tree(root, now)
        res = compare("--now now", tmp, root, now)
        if res:
            doc_example(*res)
        compare("--now 9999-12-31T23:59:59", tmp, root, EPOCH_MAX)
        compare("--now 0000-01-01", tmp, root, EPOCH_MIN, ["-j", "1"])
        compare("--now 0, 3 threads", tmp, root, 0, ["-j", "3"])
        if res:
            reports(tmp, root, now, *res)
            corrupt(tmp, res[0])
        upgrade(tmp, root, now)
        upgrade_v4(tmp, root, now)
    finally:
        subprocess.run(["umount", mnt])
        shutil.rmtree(tmp, ignore_errors=True)
    done()


if __name__ == "__main__":
    main()
