#!/usr/bin/env python3
"""t_proj_memory: each project's distributions exact, at a few hundred
bytes a project.

A tree of 3,000 projects under depth:1, generated here: most of a few
files, some empty, some of a few dozen files, some of hundreds spread
over subdirectories (more bins than a project's sparse form holds, and
walked by several threads at once); sizes from 0 to 2^62 bytes (sparse
files), atimes and mtimes from the future to 30 years back, hard links
across projects, loose files in ROOT ("(none)"). Every per-project row
of v_hist, v_cold (four thresholds) and project_extent, of fsscan at -j 1
and -j 8 and of fsscan-mpi on 2 and 3 ranks, against an os.lstat oracle
(tests/lib/oracle.py attributes each inode to its owning link's project;
the extremes and the cold rows are computed here).

Then memory, in the release build: the peak RSS of a scan of 10,000
projects of 5 files each, minus that of the same number of entries in 10
projects, divided by the projects, under 1 KiB at -j 1 and -j 8 (it was
7 KiB when each project held dense distributions in each thread). The
peak is the child's ru_maxrss as GNU time reports it: a child of Python
would count the interpreter it was forked from (14 MiB, more than the
whole scan of 10 projects), as tests/lib/peakrss.py does.
"""
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "lib"))
import oracle  # noqa: E402
from tap import done, eq, ok, skip  # noqa: E402
from pace import limit  # noqa: E402

TOP = os.environ.get("TOP") or os.path.dirname(
    os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("BUILD") or os.path.join(TOP, "build")
FSSCAN = os.environ.get("FSSCAN") or os.path.join(BUILD, "fsscan")
FSSCAN_MPI = os.path.join(BUILD, "fsscan-mpi")
MPIRUN = shutil.which("mpirun")
DAY = 86400
NPROJ = 3000
COLD = (1, 30, 365, 3650)
METRICS = ("size", "atime", "mtime", "ctime")
RSS_PROJ = 10000
RSS_BOUND = 1024            # bytes per project
TIME = "/usr/bin/time"


def mkfile(path, size, atime, mtime):
    fd = os.open(path, os.O_CREAT | os.O_WRONLY | os.O_EXCL, 0o644)
    try:
        os.ftruncate(fd, size)
    finally:
        os.close(fd)
    os.utime(path, ns=(atime * 10**9, mtime * 10**9))


def draw_size(rng):
    k = rng.random()
    if k < 0.05:
        return 0
    if k < 0.6:
        return rng.randrange(1, 5000)
    if k < 0.9:
        return rng.randrange(5000, 1 << 24)
    if k < 0.99:
        return rng.randrange(1 << 24, 1 << 44)
    return rng.randrange(1 << 44, 1 << 62)


def draw_age(rng):
    k = rng.random()
    if k < 0.03:
        return -rng.randrange(1, 30 * DAY)          # the future
    if k < 0.5:
        return rng.randrange(0, 3 * DAY)
    return rng.randrange(0, 30 * 365 * DAY)


def build(root, now, seed=7):
    """The many-project tree; its shape, for the report."""
    rng = random.Random(seed)
    files = []
    shape = {"empty": 0, "few": 0, "dozens": 0, "hundreds": 0}

    def add(d, name):
        p = os.path.join(d, name)
        a = now - draw_age(rng)
        m = now - draw_age(rng) if rng.random() < 0.7 else a
        mkfile(p, draw_size(rng), a, m)
        files.append(p)

    for k in range(NPROJ):
        d = os.path.join(root, "p%05d" % k)
        os.mkdir(d)
        kind = rng.random()
        if kind < 0.1:
            shape["empty"] += 1
            if k % 2:
                os.mkdir(os.path.join(d, "sub"))
        elif kind < 0.95:
            shape["few"] += 1
            for i in range(rng.randrange(1, 7)):
                add(d, "f%d" % i)
        elif kind < 0.99:
            shape["dozens"] += 1
            for i in range(rng.randrange(20, 60)):
                add(d, "f%d" % i)
        else:
            shape["hundreds"] += 1
            for s in range(12):
                sd = os.path.join(d, "s%02d" % s)
                os.mkdir(sd)
                for i in range(rng.randrange(10, 40)):
                    add(sd, "f%d" % i)
    for i in range(40):
        add(root, "loose%d" % i)
    # Hard links across projects: each inode counts once, in the project
    # of its link with the smallest (parent inode, name).
    for i, src in enumerate(rng.sample(files, 200)):
        dst = os.path.join(root, "p%05d" % rng.randrange(NPROJ),
                           "%slink%d" % (rng.choice(("a", "z")), i))
        if not os.path.exists(dst):
            os.link(src, dst)
    shape["files"] = len(files)
    return shape


def want_of(root, now):
    """{project: rows} for v_hist, v_cold and project_extent, each a
    dict, from the os.lstat walk of tests/lib/oracle.py."""
    m = oracle.Model(oracle.Walk(root), now, rules=["depth:1"])
    hist, cold, ext = {}, {}, {}
    for k, v in m.hist().items():
        if k[0] is not None:
            hist.setdefault(k[0], {})[k[1:]] = v
    for p, (files, dirs, _, _) in m.projects().items():
        hist.setdefault(p, {})
        cold[p] = {(mt, d): (0, 0) for mt in ("atime", "mtime")
                   for d in COLD}
        ext.setdefault(p, {})
    for i, e in m.files():
        p, st = m.proj[i], e.st
        vals = {"size": st.st_size,
                "atime": now - oracle.sec(st.st_atime_ns),
                "mtime": now - oracle.sec(st.st_mtime_ns),
                "ctime": now - oracle.sec(st.st_ctime_ns)}
        for mt, v in vals.items():
            lo, hi = ext[p].get(mt, (v, v))
            ext[p][mt] = (min(lo, v), max(hi, v))
        for mt in ("atime", "mtime"):
            for d in COLD:
                if vals[mt] >= d * DAY:
                    f, b = cold[p][(mt, d)]
                    cold[p][(mt, d)] = (f + 1, b + st.st_size)
    return {"v_hist": hist, "v_cold": cold, "project_extent": ext}


def got_of(db):
    con = sqlite3.connect(db)
    con.text_factory = bytes
    try:
        sid = con.execute("SELECT max(id) FROM v_snapshot").fetchone()[0]
        out = {"v_hist": {}, "v_cold": {}, "project_extent": {}}
        for p, m, lo, hi, f, b in con.execute(
                "SELECT project, metric, lo, hi, files, bytes FROM v_hist"
                " WHERE snapshot_id = ? AND project IS NOT NULL", (sid,)):
            out["v_hist"].setdefault(p, {})[(m.decode(), int(lo), int(hi))] \
                = (f, int(b))
        for p, m, d, f, b in con.execute(
                "SELECT project, metric, days, files, bytes FROM v_cold"
                " WHERE snapshot_id = ? AND project IS NOT NULL", (sid,)):
            out["v_cold"].setdefault(p, {})[(m.decode(), d)] = (f, int(b))
        for row in con.execute(
                "SELECT p.name, x.size_min, x.size_max, x.atime_min,"
                " x.atime_max, x.mtime_min, x.mtime_max, x.ctime_min,"
                " x.ctime_max FROM project_extent x JOIN project p"
                " ON p.snapshot_id = x.snapshot_id AND p.id = x.project_id"
                " WHERE x.snapshot_id = ?", (sid,)):
            for k, m in enumerate(("size", "atime", "mtime", "ctime")):
                out["project_extent"].setdefault(row[0], {})[m] = \
                    (int(row[1 + 2 * k]), int(row[2 + 2 * k]))
        for p, in con.execute("SELECT project FROM v_project"
                              " WHERE snapshot_id = ?", (sid,)):
            for view in ("v_hist", "project_extent"):
                out[view].setdefault(p, {})
        return out
    finally:
        con.close()


def compare(label, got, want):
    for view in ("v_hist", "v_cold", "project_extent"):
        g, w = got[view], want[view]
        eq(sorted(g), sorted(w), "%s: %s has a row set for each of the %d"
           " projects" % (label, view, len(w)))
        bad = [p for p in w if g.get(p) != w[p]]
        ok(not bad, "%s: every project's %s rows as the oracle's" %
           (label, view), "%d projects differ, first %r: got %r want %r" %
           (len(bad), bad[0], g.get(bad[0]), w[bad[0]]) if bad else "")


def mpi_env():
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1",
               OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    supp = os.path.join(TOP, "tests", "lsan-openmpi.supp")
    if "LSAN_OPTIONS" in env:
        env["LSAN_OPTIONS"] += ":print_suppressions=0:suppressions=" + supp
    if "ASAN_OPTIONS" in env:
        env["ASAN_OPTIONS"] += ":fast_unwind_on_malloc=0:malloc_context_size=8"
    return env


def scan(db, root, now, args, prefix=(), prog=FSSCAN, env=None):
    cmd = list(prefix) + [prog, "--db", db, "--quiet", "--now", str(now),
                          "--project", "depth:1", "--cold",
                          ",".join(map(str, COLD))] + list(args) + [root]
    return subprocess.run(cmd, capture_output=True, text=True, env=env,
                          timeout=limit(600))


def exact(tmp, root, now):
    want = want_of(root, now)
    for j in (1, 8):
        db = os.path.join(tmp, "j%d.db" % j)
        p = scan(db, root, now, ["-j", str(j)])
        if ok(p.returncode == 0, "fsscan -j %d ran" % j, p.stderr[-500:]):
            compare("fsscan -j %d" % j, got_of(db), want)
    if not MPIRUN or not os.path.exists(FSSCAN_MPI):
        skip("fsscan-mpi: every project's rows", "mpirun not found",
             needs="mpirun")
        return
    for n in (2, 3):
        db = os.path.join(tmp, "mpi%d.db" % n)
        p = scan(db, root, now, ["-j", "2"], prog=FSSCAN_MPI, env=mpi_env(),
                 prefix=(MPIRUN, "--oversubscribe", "-np", str(n)))
        if ok(p.returncode == 0, "fsscan-mpi on %d ranks ran" % n,
              p.stderr[-500:]):
            compare("fsscan-mpi on %d ranks" % n, got_of(db), want)


def five(d, k):
    os.mkdir(d)
    for i in range(5):
        p = os.path.join(d, "f%d" % i)
        fd = os.open(p, os.O_CREAT | os.O_WRONLY, 0o644)
        os.ftruncate(fd, (k * 5 + i) % 4096 * 3)
        os.close(fd)


def rss_trees(base):
    """RSS_PROJ projects of 5 files under depth:1, and as many
    directories and files in 10 projects."""
    many, few = os.path.join(base, "many"), os.path.join(base, "few")
    os.mkdir(many)
    os.mkdir(few)
    for k in range(RSS_PROJ):
        five(os.path.join(many, "p%05d" % k), k)
    per = RSS_PROJ // 10
    for t in range(10):
        top = os.path.join(few, "p%02d" % t)
        five(top, t)
        for k in range(per - 1):
            five(os.path.join(top, "s%05d" % k), k)
    return many, few


def sanitized():
    """An ASan build, whose shadow memory makes its RSS no measure."""
    out = subprocess.run(["ldd", FSSCAN], capture_output=True).stdout
    return b"libasan" in out


def peak(tmp, cmd):
    """(exit status, stderr, fsscan's peak RSS in KiB)."""
    out = os.path.join(tmp, "time.out")
    p = subprocess.run([TIME, "-f", "%M", "-o", out] + cmd,
                       capture_output=True, text=True, timeout=limit(600))
    with open(out) as f:
        return p.returncode, p.stderr, int(f.read().split()[-1])


def memory(tmp, base):
    if sanitized():
        skip("peak RSS per project under %d bytes" % RSS_BOUND,
             "an ASan build's RSS counts its shadow memory")
        return
    if not os.access(TIME, os.X_OK):
        skip("peak RSS per project under %d bytes" % RSS_BOUND,
             "no GNU time", needs="time")
        return
    many, few = rss_trees(base)
    for j in (1, 8):
        kib = {}
        for name, root in (("many", many), ("few", few)):
            db = os.path.join(tmp, "rss-%s-%d.db" % (name, j))
            rc, err, kib[name] = peak(
                tmp, [FSSCAN, "--db", db, "--quiet", "--project", "depth:1",
                      "-j", str(j), root])
            ok(rc == 0, "-j %d: the scan of %s ran" % (j, name), err[-300:])
        per = (kib["many"] - kib["few"]) * 1024 / RSS_PROJ
        ok(per < RSS_BOUND, "-j %d: peak RSS per project under %d bytes"
           % (j, RSS_BOUND), "%.0f bytes (%d KiB - %d KiB over %d projects)"
           % (per, kib["many"], kib["few"], RSS_PROJ))
        print("# -j %d: %d KiB against %d KiB, %.0f bytes a project"
              % (j, kib["many"], kib["few"], per))


def main():
    if os.geteuid() != 0:
        skip("t_proj_memory: every check", "its trees are made on a"
             " private tmpfs it mounts", needs="root")
        done()
    tmp = tempfile.mkdtemp(prefix="t_proj_memory.",
                           dir=os.environ.get("TMPDIR"))
    mnt = os.path.join(tmp, "mnt")
    os.mkdir(mnt)
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o",
                              "size=512m,nr_inodes=1000000", "tmpfs",
                              mnt]).returncode == 0
    try:
        root = os.path.join(mnt, "root")
        os.mkdir(root)
        now = int(time.time()) + 3 * DAY + 12345
        shape = build(root, now)
        print("# %d projects: %r" % (NPROJ, shape))
        exact(tmp, root, now)
        shutil.rmtree(root)
        memory(tmp, mnt)
    finally:
        if mounted:
            subprocess.run(["umount", mnt])
        shutil.rmtree(tmp, ignore_errors=True)
    done()


if __name__ == "__main__":
    main()
