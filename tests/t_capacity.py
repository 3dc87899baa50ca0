#!/usr/bin/env python3
"""t_capacity: what fsscan records of a file system's capacity and limits.

On a tmpfs mounted with a fixed size= and nr_inodes= (root only; without
root the checks are skipped and say why):
  * v_snapshot's fs_bytes, fs_free_bytes, fs_avail_bytes, fs_inodes and
    fs_free_inodes equal os.statvfs(ROOT) read right after the scan (the
    tree does not change in between), and df's Size/Used/Avail;
  * the fsstats CSV's "Filesystem used" is total - f_bavail * f_frsize;
  * project.entries (a project's inodes) equals an os.lstat walk;
  * --limits FILE: v_limit rows by hand (units as written, quoted names,
    a header, comments, empty fields); bad lines are usage errors (exit 2)
    naming the file and line, and nothing is recorded;
  * --as-of: the snapshot's time and age reference are the given time,
    the real start is kept in snapshot.scanned_at, finished_at keeps the
    scan's duration, capacity is NULL and the CSV has no Filesystem
    lines; a future time, and --as-of with --now, are usage errors;
  * a database of schema 4 or 5 (exact totals, before capacity) is
    upgraded in place by adding the columns: its rows get NULL capacity,
    entries and mount point (schema 10's fs_mountpoint; the new scan's is
    the tmpfs's), the capacity columns have no type (exact), v_limit
    exists, user_version is 13 (schema 3 and older: t_exact.py);
  * names on one device (two subdirectories of a tmpfs and a bind mount
    of one, scanned as three --fs names, beside a second tmpfs): one
    v_snapshot.fs_device, ROOT's device number, mount source and host;
    capacity's devices table counts each device's statvfs once, and its
    total the sum over the devices; every name shows its device's
    capacity and the names it shares it with; growth --fs all --metric
    used|inodes has one line per device, whose target is each device's
    capacity once, as is a percentage target of bytes.
Without root, on a census of two file systems (snapgen: project rows
alone), "zeta" written first, whose projects' growths interleave with
"alpha"'s, one project of each growing alike, one shrinking, one absent
at the first point, and a point before the window:
  * capacity --quarter 2027Q1 --table growers ranks the projects of every
    file system in one list: an oracle over v_snapshot and v_project
    (sqlite3) takes each file system's first and last points in the
    window (complete snapshots, one per day: a rescan less than a day
    before the next is left out), each project's growth of allocated
    bytes between them (0 where it has no row), the growth per day and
    the share of its file system's growth, and orders them by growth,
    then file system, then project (byte order); JSON, CSV and the table
    agree; --top 2 keeps the first two and says how many more; --fs
    narrows the list to one file system's, in the same order.
"""
import calendar
import json
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "lib"))
import snapgen  # noqa: E402
from tap import done, eq, ok, skip  # noqa: E402

FSSCAN = os.environ.get("FSSCAN", "build/fsscan")
CAP_COLS = ("fs_bytes", "fs_free_bytes", "fs_avail_bytes", "fs_inodes",
            "fs_free_inodes")


def run(*cmd, **kw):
    return subprocess.run([str(c) for c in cmd], capture_output=True,
                          text=True, **kw)


def q(db, sql, *args):
    con = sqlite3.connect(db)
    try:
        return con.execute(sql, args).fetchall()
    finally:
        con.close()


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def statvfs_cols(path):
    s = os.statvfs(path)
    return (s.f_blocks * s.f_frsize, s.f_bfree * s.f_frsize,
            s.f_bavail * s.f_frsize, s.f_files, s.f_ffree)


def df_cols(path):
    """df's 1-byte Size, Used, Avail and its inode Inodes, IUsed."""
    p = run("df", "-B1", "--output=size,used,avail,itotal,iused", path)
    return tuple(int(x) for x in p.stdout.splitlines()[1].split())


def entries_by_project(root):
    """depth:1 projects: every entry below ROOT/NAME (NAME itself too),
    each inode once; entries directly in ROOT (ROOT too) are (none)."""
    seen, out = set(), {}
    for dirpath, dirs, files in os.walk(root):
        for name in [""] + dirs + files:
            p = os.path.join(dirpath, name) if name else dirpath
            st = os.lstat(p)
            if (st.st_dev, st.st_ino) in seen:
                continue
            seen.add((st.st_dev, st.st_ino))
            rel = os.path.relpath(p, root)
            proj = "(none)" if rel == "." or os.sep not in rel and \
                not os.path.isdir(p) else rel.split(os.sep)[0]
            out[proj] = out.get(proj, 0) + 1
    return out


def check_capacity(tmp, mnt):
    os.mkdir(os.path.join(mnt, "alpha"))
    os.mkdir(os.path.join(mnt, "beta"))
    os.mkdir(os.path.join(mnt, "beta", "sub"))
    write(os.path.join(mnt, "alpha", "a"), b"x" * 300000)
    write(os.path.join(mnt, "beta", "sub", "b"), b"y" * 5000)
    os.link(os.path.join(mnt, "beta", "sub", "b"),
            os.path.join(mnt, "beta", "b2"))
    os.symlink("a", os.path.join(mnt, "alpha", "link"))
    write(os.path.join(mnt, "loose"), b"z")
    db, csvf = os.path.join(tmp, "cap.db"), os.path.join(tmp, "fs.csv")
    p = run(FSSCAN, "--db", db, "--quiet", "--fsstats-csv", csvf, mnt)
    ok(p.returncode == 0, "fsscan on the tmpfs exits 0", p.stderr)
    want = statvfs_cols(mnt)
    got = q(db, "SELECT %s FROM v_snapshot" % ", ".join(CAP_COLS))
    eq(got, [want], "v_snapshot capacity columns equal os.statvfs(ROOT)")
    size, used, avail, itotal, iused = df_cols(mnt)
    g = got[0]
    eq((g[0], g[0] - g[1], g[2], g[3], g[3] - g[4]),
       (size, used, avail, itotal, iused),
       "and df's Size, Used, Avail, Inodes, IUsed")
    eq(g[0], 16 << 20, "fs_bytes is the tmpfs size= (16 MiB)")
    eq(g[3], 64, "fs_inodes is the tmpfs nr_inodes= (64)")
    s = os.statvfs(mnt)
    used_kb = (s.f_blocks - s.f_bavail) * s.f_frsize / 1024
    line = [ln for ln in open(csvf) if ln.startswith("Filesystem used,")]
    eq(line, ["Filesystem used,%.2f %s\n" % (
        (used_kb / 1024, "MB") if used_kb > 1024 else (used_kb, "KB"))],
       "fsstats CSV: Filesystem used is total - f_bavail x f_frsize")
    got = dict(q(db, "SELECT name, entries FROM project"))
    eq(got, entries_by_project(mnt),
       "project.entries: every entry once per inode (an lstat walk)")


def check_limits(tmp, mnt):
    db = os.path.join(tmp, "lim.db")
    lim = os.path.join(tmp, "limits.csv")
    write(lim, b"project,bytes,inodes\n# from lfs quota\n\n"
          b"alpha,10TiB,2M\nbeta,1.5TB,\n\"gam,ma\",,1000\n"
          b"\"q\"\"uote\",4096B,3k\nnolimit,,\nhuge,7EiB,\n")
    p = run(FSSCAN, "--db", db, "--quiet", "--limits", lim, mnt)
    ok(p.returncode == 0, "--limits: exit 0", p.stderr)
    got = q(db, "SELECT project, bytes, inodes, source FROM v_limit"
            " ORDER BY project")
    eq(got, sorted([("alpha", 10 << 40, 2000000, "file"),
                    ("beta", 1500000000000, None, "file"),
                    ("gam,ma", None, 1000, "file"),
                    ('q"uote', 4096, 3000, "file"),
                    ("huge", 7 << 60, None, "file")]),
       "--limits: v_limit rows (units as written, quoted names; a line"
       " without limits records nothing)")
    bad = [(b"alpha,10T,\n", 1, "10TiB (2^40) or 10TB"),
           (b"project,bytes,inodes\nalpha,1,2\nalpha,3,4\n", 3,
            "listed twice"),
           (b"alpha,1\n", 1, "three fields"),
           (b"alpha,1,2,3\n", 1, "three fields"),
           (b"alpha,-5,\n", 1, "expected bytes"),
           (b"alpha,1.5,\n", 1, "whole number"),
           (b"alpha,,1GiB\n", 1, "inode count"),
           (b"\"alpha,1,2\n", 1, "not closed"),
           (b"alpha,9EiB,\n", 1, "whole number below 2^63"),
           (b",1,2\n", 1, "empty")]
    for i, (text, line, why) in enumerate(bad):
        write(lim, text)
        n = q(db, "SELECT count(*) FROM snapshot")[0][0]
        p = run(FSSCAN, "--db", db, "--quiet", "--limits", lim, mnt)
        ok(p.returncode == 2 and "%s:%d:" % (lim, line) in p.stderr and
           why in p.stderr, "--limits bad file %d: exit 2 naming line %d"
           " (%s)" % (i, line, why), "%d %s" % (p.returncode, p.stderr))
        eq(q(db, "SELECT count(*) FROM snapshot")[0][0], n,
           "--limits bad file %d: nothing recorded" % i)
    p = run(FSSCAN, "--db", db, "--quiet", "--limits",
            os.path.join(tmp, "missing.csv"), mnt)
    ok(p.returncode == 2 and "missing.csv" in p.stderr,
       "--limits with a missing file: exit 2 naming it", p.stderr)


def check_as_of(tmp, mnt):
    db, csvf = os.path.join(tmp, "asof.db"), os.path.join(tmp, "asof.csv")
    t = 1700000000
    before = int(time.time())
    p = run(FSSCAN, "--db", db, "--quiet", "--as-of", t, "--fsstats-csv",
            csvf, mnt)
    after = int(time.time())
    ok(p.returncode == 0, "--as-of: exit 0", p.stderr)
    (st, fin, now, scanned), = q(
        db, "SELECT started_at, finished_at, now_ref, scanned_at FROM"
        " snapshot")
    eq((st, now), (t, t), "--as-of: the snapshot's time and age reference")
    ok(before <= scanned <= after, "--as-of: the real start kept in"
       " snapshot.scanned_at", scanned)
    ok(t <= fin <= t + (after - before) + 1,
       "--as-of: finished_at keeps the scan's duration", fin)
    eq(q(db, "SELECT %s FROM v_snapshot" % ", ".join(CAP_COLS)),
       [(None,) * 5], "--as-of: capacity unknown (NULL)")
    ok(not any(ln.startswith("Filesystem") for ln in open(csvf)),
       "--as-of: the fsstats CSV has no Filesystem lines")
    p = run(FSSCAN, "--db", db, "--quiet", "--as-of", after + 86400, mnt)
    ok(p.returncode == 2 and "future" in p.stderr,
       "--as-of in the future: usage error", p.stderr)
    p = run(FSSCAN, "--db", db, "--quiet", "--as-of", t, "--now", t, mnt)
    ok(p.returncode == 2 and "not both" in p.stderr,
       "--as-of with --now: usage error", p.stderr)
    eq(q(db, "SELECT count(*) FROM snapshot")[0][0], 1,
       "refused --as-of scans record nothing")


def make_schema5(db, version):
    """A database as iocensus wrote it at schema 4 or 5: the columns, table
    and view of schema 6 taken away again (tables rebuilt without them)."""
    con = sqlite3.connect(db)
    con.execute("PRAGMA legacy_alter_table = ON")
    for table, drop, tail in (("snapshot", CAP_COLS + ("scanned_at",
                                                      "fs_mountpoint"), ""),
                              ("project", ("entries",), " WITHOUT ROWID")):
        info = [r for r in con.execute("PRAGMA table_info(%s)" % table)
                if r[1] not in drop]
        cols = ", ".join(r[1] for r in info)
        defs = ", ".join("%s %s%s" % (r[1], r[2], " NOT NULL" if r[3]
                                      else "") for r in info)
        pk = ", ".join(r[1] for r in sorted(info, key=lambda r: r[5])
                       if r[5])
        con.executescript(
            "CREATE TABLE old (%s, PRIMARY KEY (%s))%s;"
            " INSERT INTO old SELECT %s FROM %s; DROP TABLE %s;"
            " ALTER TABLE old RENAME TO %s;" % (defs, pk, tail, cols, table,
                                               table, table))
    con.executescript(
        "DROP VIEW v_limit; DROP TABLE project_limit; DROP VIEW v_snapshot;"
        "CREATE VIEW v_snapshot AS SELECT id, fs, root, started_at,"
        " finished_at, (status = 'complete') AS complete, files, dirs,"
        " symlinks, others, bytes, alloc_bytes, errors FROM snapshot;"
        "PRAGMA user_version = %d;" % version)
    con.close()


def check_upgrade(tmp, mnt, version):
    db = os.path.join(tmp, "v%d.db" % version)
    what = "schema %d" % version
    run(FSSCAN, "--db", db, "--quiet", mnt)
    make_schema5(db, version)
    p = run(FSSCAN, "--db", db, "--quiet", mnt)
    ok(p.returncode == 0, "%s: fsscan upgrades and scans" % what, p.stderr)
    eq(q(db, "PRAGMA user_version"), [(13,)], "%s: now version 13" % what)
    eq(q(db, "SELECT name, type FROM pragma_table_info('snapshot') WHERE"
         " name IN (%s) ORDER BY cid" % ", ".join("'%s'" % c for c in
                                                   CAP_COLS)),
       [(c, "") for c in CAP_COLS], "%s: the capacity columns are exact"
       " (no type)" % what)
    rows = q(db, "SELECT id, %s FROM v_snapshot ORDER BY id" %
             ", ".join(CAP_COLS))
    eq(rows[0][1:], (None,) * 5, "%s: the old snapshot's capacity"
       " is NULL" % what)
    eq(rows[1][1:], statvfs_cols(mnt), "%s: the new one's is read" % what)
    eq(q(db, "SELECT fs_mountpoint FROM snapshot ORDER BY id"),
       [(None,), (mnt,)], "%s: the old snapshot's mount point is NULL, the"
       " new one's the tmpfs mounted there" % what)
    eq(q(db, "SELECT count(*) FROM project WHERE snapshot_id = 1 AND"
         " entries IS NULL") == q(db, "SELECT count(*) FROM project WHERE"
                                  " snapshot_id = 1"), True,
       "%s: old project rows have NULL entries" % what)
    eq(q(db, "SELECT count(*) FROM v_limit"), [(0,)], "%s: v_limit" % what)


def iocensus_json(db, *args):
    p = run(os.path.join(os.path.dirname(FSSCAN), "iocensus"), *args,
            "--db", db, "--format", "json")
    ok(p.returncode == 0, "iocensus %s ran" % " ".join(args), p.stderr)
    return json.loads(p.stdout) if p.returncode == 0 else {"tables": {}}


def device_cols(path):
    """Size, used, avail, inodes, used inodes as df counts them, from
    os.statvfs alone."""
    s = os.statvfs(path)
    return (s.f_blocks * s.f_frsize, (s.f_blocks - s.f_bfree) * s.f_frsize,
            s.f_bavail * s.f_frsize, s.f_files, s.f_files - s.f_ffree)


def check_shared_device(tmp):
    """Two subdirectories of one tmpfs and a bind mount of one of them,
    scanned as three names, and a second tmpfs: one device's capacity
    counted once, wherever names are added up."""
    a, b, bind = (os.path.join(tmp, n) for n in ("devA", "devB", "bind"))
    for d in (a, b, bind):
        os.mkdir(d)
    if run("mount", "-t", "tmpfs", "-o", "size=8m,nr_inodes=500", "tmpfs",
           a).returncode or run("mount", "-t", "tmpfs", "-o",
                                "size=4m,nr_inodes=300", "tmpfs",
                                b).returncode:
        skip("shared device checks", "mount tmpfs refused")
        return
    try:
        for d, n in (("proj", 3000000), ("home", 1000000)):
            os.makedirs(os.path.join(a, d, "x"))
            write(os.path.join(a, d, "x", "f"), b"p" * n)
        write(os.path.join(b, "g"), b"o" * 500000)
        if run("mount", "--bind", os.path.join(a, "proj"),
               bind).returncode:
            skip("shared device checks", "mount --bind refused")
            return
        db = os.path.join(tmp, "dev.db")
        names = (("proj", os.path.join(a, "proj")),
                 ("home", os.path.join(a, "home")), ("bound", bind),
                 ("other", b))
        for fs, root in names:
            p = run(FSSCAN, "--db", db, "--quiet", "--fs", fs, root)
            ok(p.returncode == 0, "shared device: scan of %s" % fs, p.stderr)
        dev = {}
        for fs, root in names:
            st = os.stat(root).st_dev
            dev[fs] = "%d:%d tmpfs on %s" % (os.major(st), os.minor(st),
                                             socket.gethostname())
        eq(dict(q(db, "SELECT fs, fs_device FROM v_snapshot")), dev,
           "fs_device: ROOT's device number, mount source and host")
        ok(dev["proj"] == dev["home"] == dev["bound"] != dev["other"],
           "fs_device: one for the names on one tmpfs, a bind mount"
           " included; another for the other tmpfs")
        ca, cb = device_cols(a), device_cols(b)
        keys = ("size", "used", "avail", "inodes", "inodes_used")
        cap = iocensus_json(db, "capacity")
        devs = cap["tables"].get("devices", {"rows": []})["rows"]
        eq([(r["device"], r["names"]) + tuple(r[k] for k in keys)
            for r in devs],
           [(dev["proj"], "proj, home and bound") + ca,
            (dev["other"], "other") + cb,
            ("total", "2 devices") + tuple(x + y for x, y in zip(ca, cb))],
           "capacity: each device once (statvfs), and the total counts"
           " it once")
        fsr = cap["tables"].get("filesystems", {"rows": []})["rows"]
        eq([(r["fs"], r["device_names"]) + tuple(r[k] for k in keys)
            for r in fsr],
           [(n, "proj, home and bound") + ca for n in ("proj", "home",
                                                       "bound")] +
           [("other", None) + cb],
           "capacity: names on one device show its capacity and each"
           " other")
        ok(any("proj, home and bound are on one device" in n
               for n in cap["notes"]), "capacity: a note names them")
        for metric, col in (("used", 1), ("inodes", 4)):
            g = iocensus_json(db, "growth", "--fs", "all", "--metric", metric)
            lines = [r["fs"] for r in
                     g["tables"].get("filesystems", {"rows": []})["rows"]]
            eq(lines, ["proj + home + bound", "other"],
               "growth --fs all --metric %s: one line per device" % metric)
            last = [r["value_last"] for r in
                    g["tables"].get("filesystems", {"rows": []})["rows"]]
            eq(last, [ca[col], cb[col]], "growth --fs all --metric %s: each"
               " device's value, once" % metric)
            want = (ca[1] + ca[2] + cb[1] + cb[2] if metric == "used" else
                    ca[3] + cb[3])
            eq([r["target"] for r in
                g["tables"].get("projection", {"rows": []})["rows"]],
               [want], "growth --fs all --metric %s: the target is 100%% of"
               " each device's capacity, once" % metric)
            ok(any("are on one device" in n for n in g["notes"]),
               "growth --fs all --metric %s: says so" % metric)
        g = iocensus_json(db, "growth", "--fs", "all", "--metric", "bytes",
                          "--target", "50%")
        eq([r["target"] for r in
            g["tables"].get("projection", {"rows": []})["rows"]],
           [(ca[1] + ca[2] + cb[1] + cb[2]) // 2],
           "growth --fs all --metric bytes --target 50%: each device's"
           " capacity once")
    finally:
        run("umount", bind)
        run("umount", a)
        run("umount", b)


SECTIONS = "capacity checks (capacity, limits, --as-of, upgrades from 4, 5)"


def points(con, fs, lo, hi):
    """The first and the last point of fs in [lo, hi): complete snapshots,
    the later of two less than a day apart."""
    s = con.execute("SELECT id, started_at, alloc_bytes FROM v_snapshot"
                    " WHERE fs = ? AND complete AND started_at < ?"
                    " ORDER BY started_at, id", (fs, hi)).fetchall()
    keep = [x for i, x in enumerate(s)
            if i + 1 == len(s) or s[i + 1][1] - x[1] >= 86400]
    keep = [x for x in keep if x[1] >= lo]
    return keep[0], keep[-1]


def growers_oracle(db, lo, hi):
    con = sqlite3.connect(db)
    rows = []
    for (fs,) in con.execute("SELECT DISTINCT fs FROM v_snapshot"):
        a, b = points(con, fs, lo, hi)
        days = (b[1] - a[1]) / 86400
        total = int(b[2]) - int(a[2])
        first = dict(con.execute("SELECT project, alloc_bytes FROM v_project"
                                 " WHERE snapshot_id = ?", (a[0],)))
        for p, used in con.execute("SELECT project, alloc_bytes FROM"
                                   " v_project WHERE snapshot_id = ?",
                                   (b[0],)):
            d = int(used) - int(first.get(p, 0))
            if d > 0 and days > 0:
                rows.append({"fs": fs, "project": p, "d_used": d,
                             "bytes_per_day": d / days,
                             "share_of_growth": d / total if total > 0
                             else None, "used": int(used)})
    con.close()
    rows.sort(key=lambda r: (-r["d_used"], r["fs"].encode(),
                             r["project"].encode()))
    return rows


def close_rows(got, want):
    """The rows equal, reals within 1e-9 relative."""
    if len(got) != len(want):
        return False
    for g, w in zip(got, want):
        for k, v in w.items():
            x = g.get(k)
            if isinstance(v, float):
                if x is None or abs(x - v) > 1e-9 * max(1, abs(v)):
                    return False
            elif x != v:
                return False
    return True


# fs: {project: GiB allocated at the window's first point, growth GiB};
# the points: a day before the window, days 3, 33 and 63 of 2027Q1, and a
# rescan two hours after day 33's (the later counts).
GROWTH = {"zeta": {"p1": (10, 7), "p2": (10, 3), "tie": (4, 5),
                   "new": (0, 2)},
          "alpha": {"q1": (1, 9), "q2": (5, 1), "tie": (2, 5),
                    "shrink": (8, -2)}}


def growers_db(tmp, build):
    db = snapgen.new_db(tmp, build)
    day0 = calendar.timegm((2027, 1, 3, 0, 0, 0))
    gib = 1 << 30
    for fs, projects in GROWTH.items():
        for k, t in ((-0.1, day0 - 40 * 86400), (0, day0),
                     (0.5, day0 + 30 * 86400), (0.5, day0 + 30 * 86400 + 7200),
                     (1, day0 + 60 * 86400)):
            tot = {}
            for p, (g0, d) in projects.items():
                if p == "new" and k <= 0:
                    continue
                a = int((g0 + d * k) * gib) + 4096 * len(p)
                tot[p] = (10, a, a, 11)
            snapgen.insert(db, snapgen.Snapshot(
                fs, t, totals=(10 * len(tot), sum(v[1] for v in tot.values()),
                               sum(v[2] for v in tot.values())),
                project_totals=tot))
    return db


def check_growers(tmp):
    build = os.environ.get("BUILD", os.path.dirname(FSSCAN))
    iocensus = os.path.join(build, "iocensus")
    conf = os.path.join(tmp, "empty.conf")
    open(conf, "w").close()
    env = dict(os.environ, IOCENSUS_CONF=conf)
    db = growers_db(tmp, build)
    lo = calendar.timegm((2027, 1, 1, 0, 0, 0))
    hi = calendar.timegm((2027, 4, 1, 0, 0, 0))
    want = growers_oracle(db, lo, hi)
    args = [iocensus, "capacity", "--db", db, "--quarter", "2027Q1",
            "--table", "growers"]

    def out(*extra):
        p = subprocess.run(args + list(extra), capture_output=True,
                           text=True, env=env)
        ok(p.returncode == 0, "capacity %s ran" % " ".join(extra), p.stderr)
        return p.stdout
    j = json.loads(out("--format", "json"))["tables"]["growers"]
    ok(close_rows(j["rows"], want), "growers: one ranking over every file"
       " system, as the oracle's (%d rows)" % len(want),
       "got %r, want %r" % ([(r["fs"], r["project"]) for r in j["rows"]],
                            [(r["fs"], r["project"]) for r in want]))
    eq([(r["fs"], r["project"]) for r in want],
       [("alpha", "q1"), ("zeta", "p1"), ("alpha", "tie"), ("zeta", "tie"),
        ("zeta", "p2"), ("zeta", "new"), ("alpha", "q2")],
       "growers: the oracle interleaves the file systems, a tie by name")
    csv = out("--format", "csv").splitlines()
    eq([line.split(",")[:2] for line in csv[1:]],
       [[r["fs"], r["project"]] for r in want], "growers: CSV in the same"
       " order")
    table = out().splitlines()
    eq([line.split()[:2] for line in table if line.split()[:1] and
        line.split()[0] in GROWTH],
       [[r["fs"], r["project"]] for r in want], "growers: the table in the"
       " same order")
    j = json.loads(out("--format", "json", "--top", "2"))["tables"]["growers"]
    ok(close_rows(j["rows"], want[:2]) and j.get("more") == len(want) - 2,
       "growers --top 2: the first two, and %d more" % (len(want) - 2),
       "got %r" % j)
    ok("and %d more" % (len(want) - 2) in out("--top", "2"),
       "growers --top 2: the table says how many more")
    for fs in ("zeta", "alpha"):
        j = json.loads(out("--format", "json", "--fs", fs))
        ok(close_rows(j["tables"]["growers"]["rows"],
                      [r for r in want if r["fs"] == fs]),
           "growers --fs %s: its projects, in the same order" % fs)


def main():
    tmp = tempfile.mkdtemp(prefix="t_capacity.")
    try:
        check_growers(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if os.geteuid() != 0:
        skip(SECTIONS, "mounting a tmpfs needs root", needs="root")
        done()
    tmp = tempfile.mkdtemp(prefix="t_capacity.")
    mnt = os.path.join(tmp, "mnt")
    os.mkdir(mnt)
    p = run("mount", "-t", "tmpfs", "-o", "size=16m,nr_inodes=64,mode=755",
            "tmpfs", mnt)
    if p.returncode != 0:
        skip(SECTIONS, "mount tmpfs: %s" % p.stderr.strip())
        shutil.rmtree(tmp, ignore_errors=True)
        done()
    try:
        check_capacity(tmp, mnt)
        check_limits(tmp, mnt)
        check_as_of(tmp, mnt)
        check_upgrade(tmp, mnt, 4)
        check_upgrade(tmp, mnt, 5)
        check_shared_device(tmp)
    finally:
        run("umount", mnt)
        shutil.rmtree(tmp, ignore_errors=True)
    done()


if __name__ == "__main__":
    main()
