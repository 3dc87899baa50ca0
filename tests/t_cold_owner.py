#!/usr/bin/env python3
"""t_cold_owner: cold data per user and per group (v_cold_owner,
owner_cold, iocensus cold --by user|group), exactly.

As root (chown): a tree whose regular files belong to four uids and four
gids, in varied pairs (root, two named ids of each kind, and one id with
no name), with atimes and mtimes set by os.utime at each threshold's edge
(now - days * 86400 exactly: cold; one second less old: not; one second
older: cold), separately for atime and mtime; a file in the future and
one exactly now; a file hard-linked into two other owners' directories
(one inode: counted once, under the inode's uid and gid). An
os.walk/os.lstat oracle computes every row:

  * fsscan -j 1 and -j 4, --cold 1,7,30: every v_cold_owner row, for
    every owner of the owner table (the oracle's owners: those of every
    directory and regular file), both metrics, every threshold, zeros
    included; owner_cold holds exactly the rows that differ from the next
    threshold's (zero past the last); the default thresholds too;
  * fsscan-mpi on 2 and 3 ranks: the same rows;
  * iocensus cold --by user and --by group at the latest of two points
    two days apart (--as-of), as JSON, CSV and the table: every row
    (name as the system names the id, else the id; files, bytes, shares
    of the owner's files and bytes, change since the first point), most
    cold bytes first; --days, --metric mtime, --fs, --top N; a name with
    an escape character reaches the table escaped; --by dir refused;
  * a database of schema 11 (the current one with owner_cold and
    v_cold_owner removed, user_version 11) upgrades in place: its
    snapshots keep their rows, the one with cold files has no
    v_cold_owner rows (cold --by user says so, the file system's rows
    only), the one without any cold file shows every owner's zeros; a
    snapshot taken after has its rows, and no change since the old one;
  * cost, in the release build: 20,000 uids (and as many gids), each with
    two cold files, against as many files of 10 uids: fsscan's peak RSS
    per uid (its user and its group) under 1 KiB at -j 1 and -j 8, and
    a second snapshot's owner_cold under 400 bytes per uid (dbstat, after
    VACUUM).
"""
import csv
import io
import grp
import json
import os
import pwd
import shutil
import sqlite3
import stat
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "lib"))
from tap import done, eq, ok, skip  # noqa: E402
from pace import limit  # noqa: E402

TOP = os.environ.get("TOP") or os.path.dirname(
    os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("BUILD") or os.path.join(TOP, "build")
FSSCAN = os.environ.get("FSSCAN") or os.path.join(BUILD, "fsscan")
FSSCAN_MPI = os.path.join(BUILD, "fsscan-mpi")
IOCENSUS = os.path.join(BUILD, "iocensus")
MPIRUN = shutil.which("mpirun")
TIME = "/usr/bin/time"
DAY = 86400
NOW = 1700000000
THRESHOLDS = (1, 7, 30)
DEFAULT = (30, 90, 180, 365)
METRICS = ("atime", "mtime")
MANY = 20000                # uids of the cost trees
RSS_BOUND = 1024            # bytes per uid (its user and its group)
DB_BOUND = 400              # bytes of owner_cold per uid and snapshot


def run(*cmd, **kw):
    return subprocess.run([str(c) for c in cmd], capture_output=True,
                          text=True, **kw)


def q(db, sql, *args):
    con = sqlite3.connect(db)
    try:
        return con.execute(sql, args).fetchall()
    finally:
        con.close()


def unnamed(lookup, start):
    """The first id from start that the system has no name for."""
    i = start
    while True:
        try:
            lookup(i)
        except KeyError:
            return i
        i += 1


def ids():
    """Four uids and four gids: root, two named, one without a name."""
    users = [0] + sorted(p.pw_uid for p in pwd.getpwall()
                         if 0 < p.pw_uid < 100)[:2]
    groups = [0] + sorted(g.gr_gid for g in grp.getgrall()
                          if 0 < g.gr_gid < 100)[:2]
    # Ids of two digits or more, whose byte order is not their numeric
    # order against 2: rows are found by their key's bytes.
    return (users + [unnamed(pwd.getpwuid, 10)],
            groups + [unnamed(grp.getgrgid, 10)])


def name_of(kind, i):
    """The name iocensus shows: the system's, else the id."""
    try:
        return (pwd.getpwuid(i).pw_name if kind == "user" else
                grp.getgrgid(i).gr_name)
    except KeyError:
        return str(i)


def mkfile(path, size, atime, mtime, uid, gid):
    with open(path, "wb") as f:
        f.write(b"x" * size)
    os.chown(path, uid, gid)
    os.utime(path, (atime, mtime))


def build_tree(root, now, users, groups):
    """Every edge of every threshold, for atime and mtime apart, each file
    of an owner pair of its own; a directory per uid."""
    for u in users:
        d = os.path.join(root, "u%d" % u)
        os.mkdir(d)
        os.chown(d, u, groups[users.index(u)])
    n = 0
    for d in THRESHOLDS:
        edge = now - d * DAY
        for which in METRICS:
            for k, t in enumerate((edge, edge + 1, edge - 1)):
                u = users[n % 4]
                g = groups[(n // 4 + n) % 4]
                at, mt = (t, now) if which == "atime" else (now, t)
                mkfile(os.path.join(root, "u%d" % u, "f%d" % n),
                       10 * n + k + 1, at, mt, u, g)
                n += 1
    mkfile(os.path.join(root, "u%d" % users[1], "future"), 5, now + 3600,
           now + 1, users[1], groups[2])
    mkfile(os.path.join(root, "u%d" % users[2], "now"), 6, now, now,
           users[2], groups[3])
    # One inode of users[1], linked from two other owners' directories.
    shared = os.path.join(root, "u%d" % users[1], "shared")
    mkfile(shared, 1000, now - 31 * DAY, now - 8 * DAY, users[1], groups[3])
    os.link(shared, os.path.join(root, "u%d" % users[2], "also"))
    os.link(shared, os.path.join(root, "u%d" % users[3], "again"))


def walk(root):
    """({(dev, ino): lstat} of the regular files, each inode once; the
    owners ("user", uid) and ("group", gid) of every directory and
    regular file)."""
    files, owners = {}, set()
    for dirpath, _, names in os.walk(root):
        st = os.lstat(dirpath)
        owners |= {("user", st.st_uid), ("group", st.st_gid)}
        for name in names:
            st = os.lstat(os.path.join(dirpath, name))
            if stat.S_ISREG(st.st_mode):
                files[(st.st_dev, st.st_ino)] = st
                owners |= {("user", st.st_uid), ("group", st.st_gid)}
    return files, owners


def oracle(root, now, thresholds):
    """{(kind, id, metric, days): (files, bytes)} for every owner, and
    {(kind, id): (files, bytes)} of the regular files (None: all)."""
    files, owners = walk(root)
    rows = {(k, i, m, d): [0, 0] for k, i in owners for m in METRICS
            for d in thresholds}
    tot = {}
    for st in files.values():
        for who in (None, ("user", st.st_uid), ("group", st.st_gid)):
            f, b = tot.get(who, (0, 0))
            tot[who] = (f + 1, b + st.st_size)
        for m, t in (("atime", st.st_atime_ns // 10**9),
                     ("mtime", st.st_mtime_ns // 10**9)):
            for d in thresholds:
                if now - t >= d * DAY:
                    for k, i in (("user", st.st_uid), ("group", st.st_gid)):
                        rows[(k, i, m, d)][0] += 1
                        rows[(k, i, m, d)][1] += st.st_size
    return {k: tuple(v) for k, v in rows.items()}, tot


def sparse(want, thresholds):
    """The owner_cold rows the storage rule keeps: (kind, id, k, files,
    bytes) where a row differs from the next threshold's (zero past the
    last), k = metric * thresholds + threshold."""
    out = set()
    for (kind, i, m, d), v in want.items():
        t = thresholds.index(d)
        nxt = (want[(kind, i, m, thresholds[t + 1])]
               if t + 1 < len(thresholds) else (0, 0))
        if v != nxt:
            out.add((kind, i, METRICS.index(m) * len(thresholds) + t) + v)
    return out


def stored(db, sid):
    return {(k, o, m, d): (f, int(b)) for k, o, m, d, f, b in q(
        db, "SELECT kind, owner, metric, days, files, bytes FROM"
        " v_cold_owner WHERE snapshot_id = ?", sid)}


def latest(db):
    return q(db, "SELECT max(id) FROM v_snapshot")[0][0]


def scan(db, root, *args, prefix=(), prog=FSSCAN, env=None):
    return run(*prefix, prog, "--db", db, "--quiet", *args, root, env=env)


def check_db(db, root, label, thresholds=THRESHOLDS):
    want, _ = oracle(root, NOW, thresholds)
    sid = latest(db)
    eq(stored(db, sid), want, "%s: every v_cold_owner row, zeros included"
       " (%d rows)" % (label, len(want)))
    eq({(k, i) for k, i in q(db, "SELECT kind, id FROM owner WHERE"
                             " snapshot_id = ?", sid)},
       {(k, i) for k, i, _, _ in want}, "%s: the owners of the owner"
       " table" % label)
    eq({(k, i, n, f, int(b)) for k, i, n, f, b in q(
        db, "SELECT kind, id, k, files, bytes FROM owner_cold WHERE"
        " snapshot_id = ?", sid)}, sparse(want, thresholds),
       "%s: owner_cold keeps a row only where it differs from the next"
       " threshold's" % label)


def check_rows(tmp, root):
    for j in (1, 4):
        db = os.path.join(tmp, "j%d.db" % j)
        p = scan(db, root, "--now", NOW, "-j", j, "--cold",
                 ",".join(map(str, THRESHOLDS)))
        if ok(p.returncode == 0, "fsscan -j %d --cold 1,7,30 ran" % j,
              p.stderr):
            check_db(db, root, "fsscan -j %d" % j)
    want, _ = oracle(root, NOW, THRESHOLDS)
    edge = {k: v[0] for k, v in want.items() if k[3] == 7}
    ok(any(edge.values()) and any(not v for v in edge.values()),
       "the tree holds owners cold and not cold at 7 days")
    db = os.path.join(tmp, "default.db")
    p = scan(db, root, "--now", NOW)
    if ok(p.returncode == 0, "fsscan, default --cold, ran", p.stderr):
        check_db(db, root, "default --cold 30,90,180,365", DEFAULT)


def mpi_env():
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1",
               OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    supp = os.path.join(TOP, "tests", "lsan-openmpi.supp")
    if "LSAN_OPTIONS" in env:
        env["LSAN_OPTIONS"] += ":print_suppressions=0:suppressions=" + supp
    if "ASAN_OPTIONS" in env:
        env["ASAN_OPTIONS"] += ":fast_unwind_on_malloc=0:malloc_context_size=8"
    return env


def check_mpi(tmp, root):
    if not MPIRUN or not os.path.exists(FSSCAN_MPI):
        skip("fsscan-mpi: v_cold_owner on 2 and 3 ranks", "mpirun not found",
             needs="mpirun")
        return
    for n in (2, 3):
        db = os.path.join(tmp, "mpi%d.db" % n)
        p = scan(db, root, "--now", NOW, "-j", 2, "--cold",
                 ",".join(map(str, THRESHOLDS)), env=mpi_env(),
                 prefix=(MPIRUN, "--oversubscribe", "-np", n),
                 prog=FSSCAN_MPI)
        if ok(p.returncode == 0, "fsscan-mpi on %d ranks ran" % n,
              p.stderr[-500:]):
            check_db(db, root, "fsscan-mpi on %d ranks" % n)


def cold(db, *args):
    return run(IOCENSUS, "cold", "--db", db, *args)


def cold_json(db, *args):
    p = cold(db, "--format", "json", *args)
    ok(p.returncode == 0, "iocensus cold %s ran" % " ".join(args), p.stderr)
    return json.loads(p.stdout) if p.returncode == 0 else {"tables": {},
                                                           "notes": []}


def rows_of(res, key):
    return res["tables"][key]["rows"] if key in res["tables"] else []


def frac(a, b):
    """A share as the program computes it: each side as a double."""
    return float(a) / float(b) if b else None


def want_rows(kind, metric, before, after, tot, days=None):
    """[[days, name, files, bytes, share_files, share_bytes, d_files,
    d_bytes]] of one kind, in the order cold prints them."""
    out = []
    for (k, i, m, d), (f, b) in after.items():
        if k != kind or m != metric or (days and d != days):
            continue
        pf, pb = before.get((k, i, m, d), (0, 0))
        tf, tb = tot.get((k, i), (0, 0))
        out.append([d, name_of(k, i), f, b, frac(f, tf), frac(b, tb),
                    f - pf, b - pb, str(i)])
    out.sort(key=lambda r: (r[0], -r[3], r[1].encode(), r[8].encode()))
    return [r[:8] for r in out]


COLS = ("days", "files", "bytes", "share_files", "share_bytes", "d_files",
        "d_bytes")


def json_rows(res, kind):
    return [[r["days"], r[kind], r["files"], r["bytes"], r["share_files"],
             r["share_bytes"], r["d_files"], r["d_bytes"]]
            for r in rows_of(res, kind + "s")]


def csv_rows(text, kind):
    """The rows of section "# KINDs" of cold's CSV, typed as in JSON."""
    sect = text.split("# %ss\n" % kind, 1)[-1].split("\n\n", 1)[0]
    rows = list(csv.DictReader(io.StringIO(sect)))

    def num(v, f=int):
        return f(v) if v != "" else None
    return [[int(r["days"]), r[kind], int(r["files"]), int(r["bytes"]),
             num(r["share_files"], float), num(r["share_bytes"], float),
             num(r["d_files"]), num(r["d_bytes"])] for r in rows]


def table_rows(text, title):
    """The lines of the table under title, split at blanks, header and
    rule left out."""
    lines = text.split(title + "\n", 1)[-1].split("\n\n", 1)[0]
    return [ln.split() for ln in lines.splitlines()[2:]]


def check_report(tmp, root, users):
    """Two points two days apart (--as-of), the tree changed between."""
    db = os.path.join(tmp, "report.db")
    t0 = NOW - 10 * DAY
    t1 = t0 + 2 * DAY
    ok(scan(db, root, "--as-of", t0, "--fs", "tree").returncode == 0,
       "first scan (--as-of)")
    before, _ = oracle(root, t0, DEFAULT)
    mkfile(os.path.join(root, "u%d" % users[2], "older"), 4321,
           t0 - 200 * DAY, t0 - 95 * DAY, users[2], 0)
    os.unlink(os.path.join(root, "u%d" % users[0], "f0"))
    ok(scan(db, root, "--as-of", t1, "--fs", "tree").returncode == 0,
       "second scan, two days later")
    after, tot = oracle(root, t1, DEFAULT)
    sid = latest(db)
    for kind in ("user", "group"):
        for metric in METRICS:
            args = ("--by", kind, "--metric", metric)
            want = want_rows(kind, metric, before, after, tot)
            res = cold_json(db, *args)
            eq(json_rows(res, kind), want, "cold --by %s --metric %s, JSON:"
               " every row (name, files, bytes, shares, changes), most cold"
               " bytes first" % (kind, metric))
            eq({(r["fs"], r["snapshot"], r["metric"]) for r in
                rows_of(res, kind + "s")}, {("tree", sid, metric)},
               "cold --by %s --metric %s: the latest point" % (kind,
                                                               metric))
            fs = [[r["days"], r["files"], r["bytes"]]
                  for r in rows_of(res, "filesystems")]
            eq(fs, [[d, sum(v[0] for k, v in after.items() if k[0] == kind
                            and k[2:] == (metric, d)),
                     sum(v[1] for k, v in after.items() if k[0] == kind
                         and k[2:] == (metric, d))] for d in DEFAULT],
               "cold --by %s --metric %s: the file system's rows, the sum"
               " of the owners'" % (kind, metric))
            p = cold(db, "--format", "csv", *args)
            eq(csv_rows(p.stdout, kind) if p.returncode == 0 else p.stderr,
               want, "cold --by %s --metric %s, CSV: every row" %
               (kind, metric))
            p = cold(db, "-o", "days,%s,files" % kind, *args)
            eq(table_rows(p.stdout, "Cold data per %s" % kind) if
               p.returncode == 0 else p.stderr,
               [[str(r[0]), r[1], str(r[2])] for r in want],
               "cold --by %s --metric %s, table: every row" % (kind, metric))
    res = cold_json(db, "--by", "user", "--days", "90", "--fs", "tree",
                    "--metric", "mtime")
    eq(json_rows(res, "user"), want_rows("user", "mtime", before, after,
                                         tot, 90),
       "cold --by user --days 90 --fs tree --metric mtime: that threshold")
    full = cold_json(db, "--by", "group", "--top", "0")
    cut = cold_json(db, "--by", "group", "--top", "3")
    n = len(rows_of(full, "groups"))
    ok(n > 3 and rows_of(cut, "groups") == rows_of(full, "groups")[:3] and
       cut["tables"]["groups"].get("more") == n - 3,
       "cold --by group --top 3: the first 3 rows, the rest counted",
       "%d rows" % n)
    p = cold(db, "--by", "dir")
    ok(p.returncode == 2 and "project, user or group" in p.stderr,
       "cold --by dir: usage error", p.stderr)
    # A name with an escape: shown escaped in the table.
    evil = os.path.join(tmp, "evil.db")
    shutil.copy(db, evil)
    con = sqlite3.connect(evil)
    con.execute("UPDATE owner SET name = 'ev' || char(27) || '[2Jil'"
                " WHERE kind = 'user' AND id = ?", (users[1],))
    con.commit()
    con.close()
    p = cold(evil, "--by", "user")
    ok(p.returncode == 0 and "\x1b" not in p.stdout and
       "ev\\x1b[2Jil" in p.stdout, "cold --by user: a name's escape"
       " character reaches the terminal as \\x1b", p.stdout[-300:])


def downgrade(db):
    """Schema 11: what schema 12 added, removed."""
    con = sqlite3.connect(db)
    con.executescript("DROP VIEW v_cold_owner; DROP TABLE owner_cold;"
                      " PRAGMA user_version = 11;")
    con.close()


def check_upgrade(tmp, root, users):
    db = os.path.join(tmp, "v11.db")
    fresh = os.path.join(tmp, "fresh")
    t0, t1 = NOW + 40 * DAY, NOW + 42 * DAY
    os.mkdir(fresh)
    mkfile(os.path.join(fresh, "f"), 3, t0, t0, users[1], 0)
    ok(scan(db, root, "--as-of", t0, "--fs", "tree").returncode == 0 and
       scan(db, fresh, "--as-of", t0, "--fs", "fresh").returncode == 0,
       "schema 11: two snapshots")
    downgrade(db)
    views = ("v_snapshot", "v_project", "v_cold", "v_hist", "v_dir")
    before = {v: q(db, "SELECT * FROM %s ORDER BY 1, 2, 3, 4" % v)
              for v in views}
    before["owner"] = q(db, "SELECT * FROM owner ORDER BY 1, 2, 3")
    res = cold_json(db, "--by", "user", "--fs", "tree")
    eq(q(db, "PRAGMA user_version"), [(13,)], "schema 11: now version 13")
    eq({v: q(db, "SELECT * FROM %s ORDER BY 1, 2, 3, 4" % v)
        for v in views} | {"owner": q(db, "SELECT * FROM owner ORDER BY"
                                      " 1, 2, 3")}, before,
       "schema 11: every view and owner row as before")
    eq(q(db, "SELECT count(*) FROM owner_cold"), [(0,)],
       "schema 11: owner_cold made, empty")
    old = q(db, "SELECT id FROM snapshot WHERE fs = 'tree'")[0][0]
    eq(stored(db, old), {}, "schema 11: no v_cold_owner row for a snapshot"
       " with cold files (unknown, not zero)")
    zero = q(db, "SELECT id FROM snapshot WHERE fs = 'fresh'")[0][0]
    want, _ = oracle(fresh, t0, DEFAULT)
    eq(stored(db, zero), want, "schema 11: a snapshot without any cold"
       " file: every owner's zeros (%d rows)" % len(want))
    ok(want and set(want.values()) == {(0, 0)}, "schema 11: that snapshot"
       " had no cold file")
    eq(rows_of(res, "users"), [], "schema 11: cold --by user has no rows")
    ok(len(rows_of(res, "filesystems")) == 4 and any(
        "records no cold data per user" in n for n in res["notes"]),
       "schema 11: the file system's rows, and a note", repr(res["notes"]))
    ok(scan(db, root, "--as-of", t1, "--fs", "tree").returncode == 0,
       "schema 12: a snapshot after")
    res = cold_json(db, "--by", "user", "--fs", "tree")
    want, _ = oracle(root, t1, DEFAULT)
    ok(any(want.values()), "schema 12: the tree has cold files then")
    ok(any("per owner: n/a per owner" in n for n in res["notes"]),
       "schema 12 after 11: a note says the change per owner is n/a",
       repr(res["notes"]))
    ok(len(rows_of(res, "users")) == len([k for k in want if k[0] == "user"
                                          and k[2] == "atime"]) and
       all(r["d_files"] is None and r["d_bytes"] is None
           for r in rows_of(res, "users")) and
       all(r["d_files"] is not None for r in rows_of(res, "filesystems")),
       "schema 12 after 11: every user's rows, no change since the old"
       " snapshot (the file system's change kept)")


def sanitized():
    """An ASan build, whose shadow memory makes its RSS no measure."""
    return b"libasan" in subprocess.run(["ldd", FSSCAN],
                                        capture_output=True).stdout


def cost_tree(root, nids):
    """MANY directories of two cold files each, owned by uid and gid
    1,000,000 + (k mod nids): 4 cold bins per user and per group."""
    os.mkdir(root)
    for k in range(MANY):
        d = os.path.join(root, "d%05d" % k)
        os.mkdir(d)
        i = 1000000 + k % nids
        for n, (a, m) in enumerate(((40, 400), (100, 200))):
            p = os.path.join(d, "f%d" % n)
            fd = os.open(p, os.O_CREAT | os.O_WRONLY, 0o644)
            os.ftruncate(fd, 100 + k % 1000)
            os.fchown(fd, i, i)
            os.close(fd)
            os.utime(p, (NOW - a * DAY, NOW - m * DAY))


def peak(tmp, cmd):
    """(exit status, stderr, peak RSS in KiB) of cmd, as GNU time reports
    its ru_maxrss (a child of this Python would count the interpreter)."""
    out = os.path.join(tmp, "time.out")
    p = subprocess.run([TIME, "-f", "%M", "-o", out] + [str(c) for c in cmd],
                       capture_output=True, text=True, timeout=limit(600))
    with open(out) as f:
        return p.returncode, p.stderr, int(f.read().split()[-1])


def per_table(db):
    c = sqlite3.connect(db)
    try:
        c.execute("VACUUM")
        return dict(c.execute("SELECT name, sum(pgsize) FROM dbstat"
                              " GROUP BY name"))
    finally:
        c.close()


def check_cost(tmp):
    many, few = os.path.join(tmp, "many"), os.path.join(tmp, "few")
    cost_tree(many, MANY)
    cost_tree(few, 10)
    db = os.path.join(tmp, "cost.db")
    args = ("--db", db, "--quiet", "--now", NOW, many)
    p = run(FSSCAN, *args)
    ok(p.returncode == 0, "cost: fsscan of %d uids" % MANY, p.stderr)
    eq(q(db, "SELECT kind, count(*), sum(files) FROM v_cold_owner WHERE"
         " metric = 'atime' AND days = 30 AND owner >= 1000000 GROUP BY"
         " kind"), [("group", MANY, 2 * MANY), ("user", MANY, 2 * MANY)],
       "cost: every uid and gid with its two files cold at 30 days")
    one = per_table(db)
    p = run(FSSCAN, *args)
    ok(p.returncode == 0, "cost: a second snapshot", p.stderr)
    two = per_table(db)
    per = (two.get("owner_cold", 0) - one.get("owner_cold", 0)) / MANY
    ok(per < DB_BOUND, "cost: a snapshot's owner_cold takes %.0f bytes per"
       " uid (user and group), under %d" % (per, DB_BOUND))
    print("# a snapshot adds %.0f bytes of owner_cold, %.0f of owner per uid"
          % (per, (two.get("owner", 0) - one.get("owner", 0)) / MANY))
    if sanitized():
        skip("cost: peak RSS per uid under %d bytes" % RSS_BOUND,
             "an ASan build's RSS counts its shadow memory")
        return
    if not os.access(TIME, os.X_OK):
        skip("cost: peak RSS per uid under %d bytes" % RSS_BOUND,
             "no GNU time", needs="time")
        return
    for j in (1, 8):
        kib = {}
        for name, root in (("many", many), ("few", few)):
            rc, err, kib[name] = peak(tmp, [
                FSSCAN, "--db", os.path.join(tmp, "rss-%s-%d.db" % (name, j)),
                "--quiet", "--now", NOW, "-j", j, root])
            ok(rc == 0, "cost: -j %d, the scan of %s ran" % (j, name),
               err[-300:])
        per = (kib["many"] - kib["few"]) * 1024 / MANY
        ok(per < RSS_BOUND, "cost: -j %d, peak RSS per uid (user and group)"
           " under %d bytes" % (j, RSS_BOUND), "%.0f bytes (%d KiB - %d KiB"
           " over %d uids)" % (per, kib["many"], kib["few"], MANY))
        print("# -j %d: %d KiB against %d KiB, %.0f bytes a uid"
              % (j, kib["many"], kib["few"], per))


def main():
    if os.geteuid() != 0:
        skip("t_cold_owner: every check", "files of several owners need"
             " chown", needs="root")
        done()
    tmp = tempfile.mkdtemp(prefix="t_cold_owner.",
                           dir=os.environ.get("TMPDIR"))
    os.chmod(tmp, 0o755)
    try:
        users, groups = ids()
        root = os.path.join(tmp, "root")
        os.mkdir(root)
        build_tree(root, NOW, users, groups)
        check_rows(tmp, root)
        check_mpi(tmp, root)
        check_upgrade(tmp, root, users)
        check_report(tmp, root, users)
        check_cost(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    done()


if __name__ == "__main__":
    main()
