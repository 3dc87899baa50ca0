#!/usr/bin/env python3
"""t_mpi: fsscan-mpi gives fsscan's snapshot, balances, and fails safely.

Skipped as a whole (one skip line, with the reason) only when mpirun is
not installed (scripts/install-deps installs Open MPI). Runs `mpirun
--oversubscribe`:

  * the oracle tree of t_oracle (hard links across directories and
    projects, odd names, a nested mount, a link outside ROOT) with 1, 2, 4
    and 7 ranks, --dirs all: every view against the oracle (t_oracle's
    compare), and hist, v_dir, top-N, errors, owners, projects and the
    fsstats CSV (but its comment line) identical to fsscan's; and with 4
    ranks that have no doorbells, as ranks on different nodes (Open MPI's
    shared-memory windows turned off), the same;
  * the larger tree of t_oracle (600 directories, 300 hard-link groups, a
    3000-entry directory) with 2 and 7 ranks, identical to fsscan's;
  * two sparse files of 2^63 - 1 bytes in each of the directories the
    ranks share out, with 2 and 4 ranks: v_snapshot, v_project and v_dir
    bytes beyond 2^64 exact, as fsscan's and the oracle's;
  * copies of t_exact's tree of sizes and times at every integer limit,
    --now at both ends of the times fsscan takes, 3 ranks: as fsscan's;
  * capacity and limits, 3 ranks: statvfs, the --limits file and project
    entries as fsscan's and os.walk's; --as-of dated, in the future a usage
    error, and with rank 1's clock an hour behind (faketime) decided by
    rank 0's clock;
  * a tree with paths longer than PATH_MAX and hard links between deep and
    shallow directories, against the fd-based walker of tests/lib/reltree;
  * a project chain (depth:2 then user) with 4 ranks;
  * a scan as uid 65534 with unreadable directories: errors per errno;
  * the Slurm batch script (srun played by mpirun) and cron wrapper of
    docs/INSTALL.md, as shipped in scripts/, and the man page's scan_rank
    query;
  * (under the sanitizers, whose results cannot differ, the project chain
    and the larger tree are left out: they add no code path)
  * through delayfs (1 ms per request): a skewed tree (one subtree holds
    90% of the entries and 100x more directories than ranks) where no
    rank handles more than 1.5x the mean of entries (the speed-up:
    tests/t_mpi_speed.py); rank 0's progress line
    counting the whole job; SIGINT to mpirun and a rank killed with
    SIGKILL leaving no complete snapshot and an intact database.
"""
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "lib"))
sys.path.insert(0, HERE)
import fsstats_oracle  # noqa: E402
import gentree  # noqa: E402
import oracle  # noqa: E402
import reltree  # noqa: E402
import t_oracle  # noqa: E402
from tap import done, eq, ok, skip  # noqa: E402
from pace import limit  # noqa: E402

TOP = os.environ.get("TOP") or os.path.dirname(HERE)
BUILD = os.environ.get("BUILD") or os.path.join(TOP, "build")
FSSCAN = os.environ.get("FSSCAN") or os.path.join(BUILD, "fsscan")
FSSCAN_MPI = os.path.join(BUILD, "fsscan-mpi")
DELAYFS = os.path.join(BUILD, "tests", "delayfs")
MPIRUN = shutil.which("mpirun")
DAY = 86400
DELAY_US = 1000


def mpi_env():
    env = dict(os.environ)
    env["OMPI_ALLOW_RUN_AS_ROOT"] = "1"
    env["OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"] = "1"
    # Under ASan, LeakSanitizer reports Open MPI's own allocations at exit:
    # suppressed by library, never the project's code.
    # Full stacks (Open MPI's libraries have no frame pointers) so that
    # the suppressions see the library.
    supp = os.path.join(TOP, "tests", "lsan-openmpi.supp")
    if "LSAN_OPTIONS" in env and "suppressions=" not in env["LSAN_OPTIONS"]:
        env["LSAN_OPTIONS"] += ":print_suppressions=0:suppressions=" + supp
    if "ASAN_OPTIONS" in env and "fast_unwind" not in env["ASAN_OPTIONS"]:
        env["ASAN_OPTIONS"] += ":fast_unwind_on_malloc=0:malloc_context_size=8"
    return env


def prefix(n):
    return [MPIRUN, "--oversubscribe", "-np", str(n)]


def scan(n, tmp, root, now, args, prog=None, **kw):
    """t_oracle's Scan of fsscan (n = 0) or of fsscan-mpi on n ranks (or
    of prog, a copy of either)."""
    t_oracle.FSSCAN = prog or (FSSCAN_MPI if n else FSSCAN)
    kw.setdefault("prefix", prefix(n) if n else ())
    return t_oracle.Scan(tmp, root, now, args, **kw)


def rows(db, sql, args=()):
    c = sqlite3.connect(db)
    c.text_factory = bytes
    try:
        return c.execute(sql, args).fetchall()
    finally:
        c.close()


SAME = {
    "top": "SELECT kind, rank, value, path FROM top WHERE snapshot_id=?"
           " ORDER BY kind, rank",
    "errors": "SELECT errno, count FROM scan_error WHERE snapshot_id=?"
              " ORDER BY errno",
    "projects": "SELECT name, source, files, dirs, bytes, alloc_bytes"
                " FROM project WHERE snapshot_id=? ORDER BY name",
    "owners": "SELECT kind, id, files, dirs, bytes, alloc_bytes FROM owner"
              " WHERE snapshot_id=? ORDER BY kind, id",
    "extremes": "SELECT metric, min, max FROM hist_extent WHERE snapshot_id=?"
                " ORDER BY metric",
    "project extremes": "SELECT p.name, x.size_min, x.size_max, x.atime_min,"
                        " x.atime_max, x.mtime_min, x.mtime_max, x.ctime_min,"
                        " x.ctime_max FROM project_extent x JOIN project p"
                        " ON p.snapshot_id = x.snapshot_id"
                        " AND p.id = x.project_id WHERE x.snapshot_id=?"
                        " ORDER BY p.name",
    "project hist": "SELECT project, metric, lo, hi, files, bytes FROM v_hist"
                    " WHERE snapshot_id=? AND project IS NOT NULL"
                    " ORDER BY 1, 2, 3",
    "project cold": "SELECT project, metric, days, files, bytes FROM v_cold"
                    " WHERE snapshot_id=? ORDER BY 1, 2, 3",
    "v_dir": "SELECT path, depth, files, dirs, bytes, alloc_bytes, max_mtime"
             " FROM v_dir WHERE snapshot_id=? ORDER BY path",
}


def same_as_serial(label, m, s):
    """Scan m (fsscan-mpi) stored what scan s (fsscan) stored."""
    if not (m.ok and s.ok):
        ok(False, label + ": both snapshots stored", m.err[-300:] + s.err[-300:])
        return
    eq(m.hist, s.hist, label + ": hist rows as fsscan's (128-bit sums)")
    for what, sql in SAME.items():
        args = (m.id,) * sql.count("?"), (s.id,) * sql.count("?")
        eq(rows(m.db, sql, args[0]), rows(s.db, sql, args[1]),
           label + ": %s as fsscan's" % what)
    if m.csv and s.csv:
        eq(fsstats_oracle.strip(m.csv_text(), True),
           fsstats_oracle.strip(s.csv_text(), True),
           label + ": fsstats CSV as fsscan's, byte for byte")
        lines = [(a, b) for a, b in zip(m.csv_text().split("\n"),
                                        s.csv_text().split("\n"))
                 if a != b]
        ok(all(a.startswith("#Comment") for a, _ in lines),
           label + ": the CSVs differ in their comment line at most",
           repr(lines[:2]))
    ranks = rows(m.db, "SELECT rank, entries FROM scan_rank WHERE"
                 " snapshot_id=? ORDER BY rank", (m.id,))
    n = int(m.cmd[m.cmd.index("-np") + 1])
    ok([r[0] for r in ranks] == list(range(n)),
       label + ": scan_rank has one row per rank", repr(ranks))


SANITIZED = "left to the release build: no code path of its own"


def sanitized():
    """A sanitizer build: results do not depend on the build, so the cases
    that only repeat code paths already run are left to the release one."""
    out = subprocess.run(["ldd", FSSCAN_MPI], capture_output=True).stdout
    return b"libasan" in out


def oracle_trees(tmp, mnt, now):
    root = os.path.join(mnt, "root")
    os.mkdir(root)
    info = gentree.build(root, now, seed=1, mounts=True)
    os.link(os.path.join(root, "beta", "d1", "lnk_a"),
            os.path.join(mnt, "outside-link"))
    lt = t_oracle.link_flag()
    walk = oracle.Walk(root, read_targets=bool(lt))
    model = oracle.Model(walk, now, ["depth:1"], "all")
    args = ["--dirs", "all", "-j", "2"] + lt
    serial = scan(0, tmp, root, now, args)
    for n in (1, 2, 4, 7):
        label = "oracle tree, %d rank%s" % (n, "s" if n > 1 else "")
        m = scan(n, tmp, root, now, args)
        t_oracle.compare(label, m, model, walk, now, root)
        same_as_serial(label, m, serial)
    # Without a shared-memory window no rank has a doorbell
    # (fsscan/mpi/mpi_node.c): every message waits for its receiver's poll,
    # as between nodes.
    label = "oracle tree, 4 ranks polling (--mca osc ^sm: no doorbells)"
    m = scan(4, tmp, root, now, args,
             prefix=[MPIRUN, "--oversubscribe", "--mca", "osc", "^sm",
                     "-np", "4"])
    t_oracle.compare(label, m, model, walk, now, root)
    same_as_serial(label, m, serial)

    if sanitized():
        skip("4 ranks --project depth:2 user", SANITIZED)
    for chain in (["depth:2", "user"],) if not sanitized() else ():
        pargs = []
        for r in chain:
            pargs += ["--project", r]
        m = scan(4, tmp, root, now, pargs + lt, csv=False)
        pm = oracle.Model(walk, now, chain, 3)
        label = "4 ranks --project " + " ".join(chain)
        ok(m.ok and m.rc == 0, label + ": scan", m.err[-300:])
        eq(m.projects, pm.projects(), label + ": v_project as the oracle's")
        eq({k: v for k, v in m.vhist.items() if k[0] is not None},
           {k: v for k, v in pm.hist().items() if k[0] is not None},
           label + ": v_hist per project as the oracle's")

    doc_scripts(tmp, root, now)
    if sanitized():
        skip("wide tree, 2 and 7 ranks", SANITIZED)
        return info
    wide = os.path.join(mnt, "wide")
    os.mkdir(wide)
    gentree.build_wide(wide, now)
    args = ["--dirs", "all", "-j", "1"] + lt
    serial = scan(0, tmp, wide, now, args)
    for n in (2, 7):
        label = "wide tree, %d rank%s" % (n, "s" if n > 1 else "")
        m = scan(n, tmp, wide, now, args)
        ok(m.rc == 0 and m.snap.get("complete") == 1 if m.ok else False,
           label + ": complete", m.err[-300:])
        same_as_serial(label, m, serial)
    return info


def deep_tree(tmp, mnt, now):
    """Paths past PATH_MAX, hard links between deep and shallow."""
    root = os.path.join(mnt, "deep")
    os.mkdir(root)
    fd = reltree.opendir(root)
    reltree.mkfile(fd, "top", data=b"t" * 5000)
    for k in range(3):
        os.mkdir("b%d" % k, dir_fd=fd)
    for level in range(70):
        name = ("level%03d-" % level) + "n" * 90
        os.mkdir(name, dir_fd=fd)
        if level % 10 == 0:
            os.mkdir(name + "-side", dir_fd=fd)
            sfd = reltree.opendir(name + "-side", dir_fd=fd)
            reltree.mkfile(sfd, "s", data=b"s" * (level + 1))
            os.close(sfd)
        nfd = reltree.opendir(name, dir_fd=fd)
        os.close(fd)
        fd = nfd
        if level % 17 == 16:
            reltree.mkfile(fd, "bottom%d" % level, data=b"b" * 3000)
    rfd = reltree.opendir(root)
    os.link("top", "deep-link", src_dir_fd=rfd, dst_dir_fd=fd)
    os.close(rfd)
    os.close(fd)
    want = reltree.census(root)
    ok(max(len(p) for p in want.dir) > 4096 and want.hardlink_dups >= 1,
       "deep tree: paths past PATH_MAX, a hard link across them",
       "longest %d, dups %d" % (max(len(p) for p in want.dir),
                                want.hardlink_dups))
    args = ["--dirs", "all", "-j", "2", "--max-fds", "16"]
    serial = scan(0, tmp, root, now, args)
    for n in (3,):
        label = "deep tree, %d ranks" % n
        m = scan(n, tmp, root, now, args)
        if not ok(m.ok and m.rc == 0, label + ": scan", m.err[-300:]):
            continue
        eq({k: m.snap[k] for k in want.totals()}, want.totals(),
           label + ": v_snapshot totals as reltree's walker")
        eq(m.vdir, want.vdir(None), label + ": v_dir as reltree's walker")
        same_as_serial(label, m, serial)


def unreadable(tmp, mnt, now):
    """As uid 65534: every error counted, per errno, on every rank."""
    top = os.path.join(mnt, "perm")
    os.mkdir(top)
    for i in range(6):
        d = os.path.join(top, "d%d" % i)
        os.makedirs(os.path.join(d, "in", "deeper"))
        for k in range(3):
            with open(os.path.join(d, "in", "f%d" % k), "wb") as f:
                f.write(b"x" * (k + 1))
        if i % 2:
            os.chmod(os.path.join(d, "in"), 0o000 if i % 4 == 1 else 0o644)
    outdir = os.path.join(tmp, "nobody")
    os.mkdir(outdir)
    os.chown(outdir, 65534, 65534)   # nobody's own, not everyone's
    os.chmod(tmp, 0o711)
    walk = oracle.Walk(top, as_user=(65534, 65534), read_targets=False)
    nobody = ["setpriv", "--reuid", "65534", "--regid", "65534",
              "--clear-groups", "--"]
    # The checkout may be private to root (a CI clone in a 0700
    # directory): nobody runs copies of the programs, and reads a copy of
    # the leak suppressions, from a directory it can enter, which is also
    # the working directory mpirun starts the ranks in.
    bindir = os.path.join(tmp, "nobody-bin")
    os.mkdir(bindir)
    os.chmod(bindir, 0o755)
    progs = [shutil.copy2(p, bindir) for p in
             (FSSCAN, FSSCAN_MPI, os.path.join(TOP, "tests",
                                               "lsan-openmpi.supp"))]
    lsan = os.environ.get("LSAN_OPTIONS")
    if lsan:
        os.environ["LSAN_OPTIONS"] = lsan.replace(
            os.path.join(TOP, "tests", "lsan-openmpi.supp"), progs[2])
    try:
        serial = scan(0, outdir, top, now, ["--dirs", "all"], prefix=nobody,
                      cwd=bindir, prog=progs[0])
        m = scan(3, outdir, top, now, ["--dirs", "all"],
                 prefix=nobody + prefix(3), cwd=bindir, prog=progs[1])
    finally:
        if lsan:
            os.environ["LSAN_OPTIONS"] = lsan
    model = oracle.Model(walk, now, None, "all")
    if ok(m.ok, "as nobody, 3 ranks: snapshot stored", m.err[-300:]):
        t_oracle.compare("as nobody, 3 ranks", m, model, walk, now, top,
                         want_rc=1)
        same_as_serial("as nobody, 3 ranks", m, serial)
        ok(walk.errors >= 6, "as nobody: the tree has errors to count",
           "%d" % walk.errors)


def wide(v):
    """A stored exact integer (INTEGER, or TEXT beyond 64 bits) as an int."""
    return int(v) if isinstance(v, (bytes, str)) else v


def sparse_totals(tmp, mnt, now):
    """Two sparse files of 2^63 - 1 bytes in each of 24 directories, which
    the ranks share out: every rank that walks holds totals past 2^64 (a
    directory's, its project's, its owner's, a bucket's), which travel
    between ranks (the census, subtree contributions, rows), and the job's
    pass 2^68; fsscan-mpi must store fsscan's and the oracle's exact
    values."""
    root = os.path.join(mnt, "sparse")
    for k in range(24):
        d = os.path.join(root, "p", "d%02d" % k)
        os.makedirs(d)
        for f in range(3):
            with open(os.path.join(d, "f%d" % f), "wb") as fh:
                fh.write(b"z" * (k + f))
        for f in range(2):
            with open(os.path.join(d, "big%d" % f), "wb") as fh:
                fh.truncate((1 << 63) - 1)
    model = oracle.Model(oracle.Walk(root, read_targets=False), now,
                         ["depth:1"], "all")
    want = {"snapshot": (model.snapshot()["bytes"],
                         model.snapshot()["alloc_bytes"]),
            "project": {k: v[2:] for k, v in model.projects().items()},
            "dir": {k: v[3:5] for k, v in model.dirs().items()}}
    ok(want["snapshot"][0] > 1 << 64 and want["project"][b"p"][0] > 1 << 64,
       "sparse: the tree's totals pass 2^64", repr(want["snapshot"]))
    args = ["--dirs", "all", "-j", "1", "--max-rate", "400"]
    runs = [(0, scan(0, tmp, root, now, args))]
    runs += [(n, scan(n, tmp, root, now, args)) for n in (2, 4)]
    for n, s in runs:
        label = "sparse, " + ("fsscan" if n == 0 else "%d ranks" % n)
        if not ok(s.ok and s.rc == 0, label + ": scan", s.err[-300:]):
            continue
        got = {"snapshot": (wide(s.snap["bytes"]),
                            wide(s.snap["alloc_bytes"])),
               "project": {k: tuple(map(wide, v[2:]))
                           for k, v in s.projects.items()},
               "dir": {k: tuple(map(wide, v[3:5]))
                       for k, v in s.vdir.items()}}
        for what in ("snapshot", "project", "dir"):
            eq(got[what], want[what], label + ": exact %s bytes as the"
               " oracle's" % what)
        ok(isinstance(s.snap["bytes"], bytes),
           label + ": v_snapshot.bytes beyond 2^63 - 1 is exact TEXT",
           repr(s.snap["bytes"]))
        if n:
            ent = [r[0] for r in rows(s.db, "SELECT entries FROM scan_rank"
                                      " WHERE snapshot_id=?", (s.id,))]
            ok(sum(1 for e in ent if e) >= 2, label + ": the walk was"
               " spread over the ranks", repr(ent))
            same_as_serial(label, s, runs[0][1])


def limits(tmp, mnt, now):
    """Six copies of t_exact's tree (sizes and times at every integer
    limit), each a project, with --now at an ordinary time and at both
    ends of the times fsscan takes (years 0 and 9999), 3 ranks: the ranks that walk a copy send its extremes
    (ages of 65 bits), its histograms and its 192-bit sums to the others,
    and the snapshot comes out as fsscan's."""
    import t_exact
    root = os.path.join(mnt, "limits")
    for k in range(6):
        os.makedirs(os.path.join(root, "c%d" % k))
        t_exact.build_tree(os.path.join(root, "c%d" % k), now)
    for ref, label in ((now, "now"), (t_exact.EPOCH_MAX, "9999-12-31"),
                       (t_exact.EPOCH_MIN, "0000-01-01")):
        args = ["--dirs", "all", "-j", "2", "--max-rate", "600"]
        serial = scan(0, tmp, root, ref, args)
        m = scan(3, tmp, root, ref, args)
        label = "limits, --now %s, 3 ranks" % label
        if ok(m.ok and m.rc == 0 and serial.ok and serial.rc == 0,
              label + ": scans", m.err[-300:] + serial.err[-300:]):
            same_as_serial(label, m, serial)


def capacity_limits(tmp, mnt, now):
    """fsscan-mpi records what fsscan records for capacity planning: ROOT's
    statvfs (exact, as os.statvfs gives it), the rows of a --limits file,
    each project's entries (counted here by os.walk); --as-of dates the
    snapshot and leaves its capacity unknown; a future --as-of is a usage
    error that records nothing."""
    root = os.path.join(mnt, "cap")
    counts = {}
    for k, d in enumerate(("pa", "pb", "pc")):
        for s in range(k + 1):
            os.makedirs(os.path.join(root, d, "s%d" % s))
            for i in range(3 + k):
                with open(os.path.join(root, d, "s%d" % s, "f%d" % i),
                          "wb") as f:
                    f.write(b"x" * (1000 * i + 7))
        # the directory and every one below it, and every file
        counts[d.encode()] = sum(1 + len(files) for _, _, files
                                 in os.walk(os.path.join(root, d)))
    lim = os.path.join(tmp, "mpi-limits.csv")
    with open(lim, "w") as f:
        f.write("project,bytes,inodes\npa,1GiB,70\npb,,9\n")
    args = ["-j", "2", "--limits", lim]
    serial = scan(0, tmp, root, now, args, csv=False)
    m = scan(3, tmp, root, now, args, csv=False)
    label = "capacity, 3 ranks"
    if not ok(m.ok and m.rc == 0 and serial.ok and serial.rc == 0,
              label + ": scans", m.err[-300:] + serial.err[-300:]):
        return
    sv = os.statvfs(root)
    fr = sv.f_frsize or sv.f_bsize
    cap = [(sv.f_blocks * fr, sv.f_bfree * fr, sv.f_bavail * fr, sv.f_files,
            sv.f_ffree)]
    capsql = ("SELECT fs_bytes, fs_free_bytes, fs_avail_bytes, fs_inodes,"
              " fs_free_inodes FROM snapshot WHERE id=?")
    eq(rows(m.db, capsql, (m.id,)), cap, label + ": capacity is statvfs's")
    eq(rows(serial.db, capsql, (serial.id,)), cap,
       label + ": fsscan's capacity is statvfs's")
    limsql = ("SELECT project, bytes, inodes, source FROM v_limit"
              " WHERE snapshot_id=? ORDER BY project")
    want = [(b"pa", 1 << 30, 70, b"file"), (b"pb", None, 9, b"file")]
    eq(rows(m.db, limsql, (m.id,)), want, label + ": v_limit is the file's")
    eq(rows(serial.db, limsql, (serial.id,)), want,
       label + ": fsscan's v_limit is the file's")
    entsql = "SELECT name, entries FROM project WHERE snapshot_id=?"
    got = dict(rows(m.db, entsql, (m.id,)))
    eq({k: got.get(k) for k in counts}, counts,
       label + ": each project's entries as os.walk counts them")
    eq(got, dict(rows(serial.db, entsql, (serial.id,))),
       label + ": project entries as fsscan's")

    db = os.path.join(tmp, "asof.db")
    asof = int(time.time()) - 40 * DAY
    t0 = int(time.time())
    p = subprocess.run(prefix(2) + [FSSCAN_MPI, "--db", db, "--quiet",
                                    "--as-of", str(asof), root],
                       capture_output=True, text=True, timeout=limit(120))
    t1 = int(time.time())
    ok(p.returncode == 0, "--as-of, 2 ranks: exit 0", p.stderr[-300:])
    got = rows(db, "SELECT started_at, now_ref, fs_bytes, fs_inodes,"
               " scanned_at FROM snapshot")
    ok(len(got) == 1 and got[0][:4] == (asof, asof, None, None) and
       t0 <= got[0][4] <= t1,
       "--as-of, 2 ranks: dated, capacity unknown, real scan time kept",
       repr(got))
    db = os.path.join(tmp, "future.db")
    p = subprocess.run(prefix(2) + [FSSCAN_MPI, "--db", db, "--quiet",
                                    "--as-of", str(t1 + 365 * DAY), root],
                       capture_output=True, text=True, timeout=limit(120))
    ok(p.returncode == 2 and "in the future" in p.stderr,
       "--as-of in the future, 2 ranks: usage error", p.stderr[-300:])
    ok(not os.path.exists(db),
       "--as-of in the future: nothing recorded (no database made)")
    skewed_as_of(tmp, root)


SKEW = """#!/bin/sh
# rank 1 runs an hour behind the others
if [ "${OMPI_COMM_WORLD_RANK:-0}" = 1 ]; then exec faketime -f -1h "$@"; fi
exec "$@"
"""


def skewed_as_of(tmp, root):
    """Rank 1's clock an hour behind: --as-of a minute ago is in the future
    for it alone. Rank 0's verdict holds for every rank: the scan runs."""
    if sanitized():
        skip("--as-of, rank 1 an hour behind", "release build only: "
             "libfaketime's preload cannot come before ASan's runtime")
        return
    if not shutil.which("faketime"):
        ok(False, "--as-of, skewed clocks: faketime installed")
        return
    wrap = os.path.join(tmp, "skew.sh")
    with open(wrap, "w") as f:
        f.write(SKEW)
    os.chmod(wrap, 0o755)
    db = os.path.join(tmp, "skew.db")
    asof = int(time.time()) - 60
    p = subprocess.run(prefix(2) + [wrap, FSSCAN_MPI, "--db", db, "--quiet",
                                    "--as-of", str(asof), root],
                       capture_output=True, text=True, timeout=limit(120))
    ok(p.returncode == 0, "--as-of, rank 1 an hour behind: exit 0",
       p.stderr[-300:])
    got = rows(db, "SELECT started_at, status FROM snapshot") \
        if os.path.exists(db) else []
    eq(got, [(asof, b"complete")],
       "--as-of, rank 1 an hour behind: rank 0's clock decides, one"
       " complete snapshot")


# ---- the scripts and examples of the docs ------------------------------

SRUN = """#!/bin/sh
# srun for the tests: its options dropped, the tasks run by mpirun
while [ $# -gt 0 ]; do case $1 in --*) shift ;; *) break ;; esac; done
exec mpirun --oversubscribe -np "${SLURM_NTASKS:-2}" "$@"
"""
RANK_SQL = ("SELECT rank, host, entries, dirs, steals FROM scan_rank"
            " WHERE snapshot_id = (SELECT max(id) FROM v_snapshot)")


def complete_files(db):
    try:
        return rows(db, "SELECT complete, files, dirs FROM v_snapshot"
                    " ORDER BY id DESC LIMIT 1")[0]
    except (sqlite3.Error, IndexError):
        return None


def doc_scripts(tmp, root, now):
    """The Slurm batch script (srun played by mpirun) and cron wrapper
    of docs/INSTALL.md, as shipped in scripts/, and the man page's
    query."""
    import fcntl
    readme = open(os.path.join(TOP, "docs", "INSTALL.md")).read()
    man = " ".join(open(os.path.join(TOP, "docs", "fsscan-mpi.1")).read()
                   .split())
    ok(" ".join(RANK_SQL.split()) in man.replace("\\", ""),
       "fsscan-mpi.1: the scan_rank query is the one run here")
    want = complete_files(scan(0, tmp, root, now, [], csv=False).db)
    bindir = os.path.join(tmp, "bin")
    os.mkdir(bindir)
    with open(os.path.join(bindir, "srun"), "w") as f:
        f.write(SRUN)
    os.chmod(os.path.join(bindir, "srun"), 0o755)
    env = dict(os.environ, PATH=bindir + ":" + BUILD + ":" +
               os.environ["PATH"], SLURM_NTASKS="2", SLURM_CPUS_PER_TASK="1",
               FSSCAN_MPI_RANKS="2", IOCENSUS_JOB_LOGS=tmp)
    for name in ("fsscan-mpi.sbatch", "fsscan-mpi-cron"):
        script = os.path.join(TOP, "scripts", name)
        ok("```\n" + open(script).read() + "```" in readme,
           "docs/INSTALL.md shows scripts/%s as it is" % name)
        env["IOCENSUS_DB"] = db = os.path.join(tmp, "var-" + name,
                                               name + ".db")
        if name == "fsscan-mpi.sbatch":
            os.mkdir(os.path.dirname(db))
        r = subprocess.run([script, root], env=env, capture_output=True,
                           timeout=limit(120))
        eq(r.returncode, 0, "scripts/%s: exit 0" % name)
        eq(oct(os.stat(os.path.dirname(db)).st_mode & 0o7777),
           oct(0o750 if name == "fsscan-mpi-cron" else 0o755),
           "scripts/%s: the database's directory is private" % name)
        eq(complete_files(db), want, "scripts/%s: a complete snapshot,"
           " fsscan's totals" % name)
        got = rows(db, RANK_SQL) if want else []
        eq([x[0] for x in got], [0, 1], "scripts/%s: the man page's query"
           " shows the 2 ranks" % name)
    lockfd = os.open(os.path.dirname(db), os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(lockfd, fcntl.LOCK_EX)
        r = subprocess.run([script, root], env=env, capture_output=True,
                           timeout=limit(60))
    finally:
        os.close(lockfd)
    eq(r.returncode, 75, "fsscan-mpi-cron: a run still going (the "
       "database's directory locked): exit 75")
    eq(rows(db, "SELECT count(*) FROM v_snapshot")[0][0], 1,
       "fsscan-mpi-cron: and no second snapshot")


# ---- through delayfs ---------------------------------------------------

def skewed_tree(src):
    """big/ holds 90% of the entries in 480 directories; s0..s8 the rest."""
    os.mkdir(src)
    for a in range(30):
        for b in range(15):
            d = os.path.join(src, "big", "a%02d" % a, "b%02d" % b)
            os.makedirs(d)
            for f in range(7):
                with open(os.path.join(d, "f%d" % f), "wb") as fh:
                    fh.write(b"x" * f)
    for s in range(9):
        for b in range(4):
            d = os.path.join(src, "s%d" % s, "b%d" % b)
            os.makedirs(d)
            for f in range(9):
                with open(os.path.join(d, "f%d" % f), "wb") as fh:
                    fh.write(b"y" * f)
    count = lambda p: sum(len(ds) + len(fs) for _, ds, fs in os.walk(p))
    big, total = count(os.path.join(src, "big")) + 1, count(src)
    dirs = sum(len(ds) for _, ds, _ in os.walk(os.path.join(src, "big")))
    return big, total, dirs


def delayfs_missing():
    """None when tests/delayfs can mount here, else skip()'s why and
    needs."""
    if not os.path.exists("/dev/fuse"):
        return "no /dev/fuse", "/dev/fuse"
    if not os.access(DELAYFS, os.X_OK):
        return "tests/delayfs not built", "delayfs"
    return None


class Delayfs:
    def __init__(self, src, mnt):
        self.mnt = mnt
        os.mkdir(mnt)
        r = subprocess.run([DELAYFS, "-o", "delay_us=%d" % DELAY_US, src,
                            mnt])
        self.ok = r.returncode == 0

    def close(self):
        if self.ok:
            if subprocess.run(["fusermount3", "-u", self.mnt]).returncode:
                subprocess.run(["fusermount3", "-uz", self.mnt])


def timed(n, tmp, root, now, args):
    t0 = time.time()
    s = scan(n, tmp, root, now, args, csv=False)
    return s, time.time() - t0


def walk_seconds(s):
    """The walk itself (scan_rank: every rank's, from the same barrier)."""
    r = rows(s.db, "SELECT max(seconds) FROM scan_rank WHERE snapshot_id=?",
             (s.id,))
    return r[0][0] if r and r[0][0] is not None else float("inf")


def through_delayfs(tmp, now):
    src = os.path.join(tmp, "skew")
    big, total, dirs = skewed_tree(src)
    ok(big >= 0.9 * total and dirs >= 100 * 4,
       "skewed tree: big/ holds %d of %d entries in %d directories"
       % (big, total, dirs))
    fs = Delayfs(src, os.path.join(tmp, "dmnt"))
    if not ok(fs.ok, "delayfs mounts"):
        return
    try:
        root = fs.mnt
        m = scan(4, tmp, root, now, ["-j", "2"], csv=False)
        if ok(m.ok and m.rc == 0, "skewed, 4 ranks x 2: scan", m.err[-300:]):
            ent = [r[0] for r in rows(m.db, "SELECT entries FROM scan_rank"
                                      " WHERE snapshot_id=? ORDER BY rank",
                                      (m.id,))]
            mean = sum(ent) / float(len(ent))
            ok(len(ent) == 4 and max(ent) <= 1.5 * mean,
               "skewed, 4 ranks: no rank over 1.5x the mean of entries"
               " (%s)" % ent, "max %d, mean %.0f" % (max(ent), mean))
            eq(sum(ent), total, "skewed: the ranks' entries add up to the"
               " tree's")
        progress(tmp, root, now, total)
        faults(tmp, root, now)
    finally:
        fs.close()


PROGRESS = re.compile(r"fsscan-mpi: ([\d,]+) entries( \(~\d+% of [\d,]+ "
                      r"inodes in use\))?, [\d.]+ (B|KiB|MiB), [\d,]+ "
                      r"errors?, [\d,]+/s, ")


def progress(tmp, root, now, total):
    s = scan(4, tmp, root, now, ["-j", "1", "--progress"], csv=False)
    lines = [l for l in s.err.replace("\r", "\n").split("\n")
             if " entries" in l and "snapshot" not in l]
    counts = [int(m.group(1).replace(",", "")) for m in
              map(PROGRESS.match, lines) if m]
    own = rows(s.db, "SELECT entries FROM scan_rank WHERE snapshot_id=? AND"
               " rank=0", (s.id,)) if s.ok else []
    ok(lines and len(counts) == len(lines),
       "--progress: fsscan's line (entries, bytes, errors, rate), as"
       " fsscan-mpi", lines[:2])
    ok(counts and own and max(counts) > own[0][0] and max(counts) <= total,
       "--progress: rank 0 counts the whole job (%s of %d; rank 0 alone %s)"
       % (counts[-1:], total, own), s.err[-300:])
    eq(len(re.findall(r"snapshot \d+ complete", s.err)), 1,
       "--progress: one summary line, from rank 0")


def check_aborted(label, db, rc):
    ok(rc != 0, label + ": exit status non-zero", "rc=%d" % rc)
    got = rows(db, "SELECT count(*) FROM v_snapshot WHERE complete = 1")
    eq(got[0][0], 0, label + ": no snapshot marked complete")
    eq(rows(db, "PRAGMA integrity_check")[0][0], b"ok",
       label + ": integrity_check")


def ranks_of(pid):
    """{rank: pid} of the fsscan-mpi processes below pid."""
    out = {}
    for p in os.listdir("/proc"):
        if not p.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % p) as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            with open("/proc/%s/environ" % p, "rb") as f:
                env = f.read().split(b"\0")
            exe = os.readlink("/proc/%s/exe" % p)
        except OSError:
            continue
        up = ppid
        while up > 1 and up != pid:
            try:
                with open("/proc/%d/stat" % up) as f:
                    up = int(f.read().rsplit(")", 1)[1].split()[1])
            except OSError:
                break
        if up != pid or not exe.endswith("fsscan-mpi"):
            continue
        for e in env:
            if e.startswith(b"OMPI_COMM_WORLD_RANK="):
                out[int(e.split(b"=")[1])] = int(p)
    return out


def running(db):
    """Has the scan recorded its snapshot as running?"""
    if not os.path.exists(db):
        return False
    try:
        c = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
        try:
            return c.execute("SELECT count(*) FROM snapshot WHERE status ="
                             " 'running'").fetchone()[0] > 0
        finally:
            c.close()
    except sqlite3.Error:
        return False


def faults(tmp, root, now):
    for label in ("SIGINT to mpirun", "rank 2 killed"):
        db = os.path.join(tmp, "fault-%d.db" % len(label))
        cmd = prefix(3) + [FSSCAN_MPI, "--db", db, "--now", str(now),
                           "--quiet", "-j", "1", "--max-rate", "300", root]
        p = subprocess.Popen(cmd, env=mpi_env(), stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE)
        deadline = time.time() + limit(60)
        pids = {}
        while time.time() < deadline and not (len(pids) == 3 and running(db)):
            time.sleep(0.2)
            pids = ranks_of(p.pid)
        time.sleep(1)           # well into the walk (~13 s at 300/s)
        if label.startswith("SIGINT"):
            p.send_signal(signal.SIGINT)
        elif 2 in pids:
            os.kill(pids[2], signal.SIGKILL)
        try:
            _, err = p.communicate(timeout=limit(60))
        except subprocess.TimeoutExpired:
            p.kill()
            _, err = p.communicate()
        ok(len(pids) == 3, label + ": the 3 ranks were found", repr(pids))
        check_aborted(label, db, p.returncode)


def main():
    if os.geteuid() != 0:
        skip("fsscan-mpi: oracle trees, sparse totals, limits, capacity,"
             " deep tree, unreadable, delayfs and faults (all of t_mpi)",
             "the trees are made on a tmpfs it mounts", needs="root")
        done()
    if not MPIRUN:
        skip("fsscan-mpi: oracle trees, sparse totals, limits, capacity,"
             " deep tree, unreadable, delayfs and faults (all of t_mpi)",
             "mpirun not found", needs="mpirun")
        done()
    if not ok(os.access(FSSCAN_MPI, os.X_OK), "fsscan-mpi built", FSSCAN_MPI):
        done()
    os.environ.update(mpi_env())
    tmp = tempfile.mkdtemp(prefix="t_mpi.", dir=os.environ.get("TMPDIR"))
    mnt = os.path.join(tmp, "mnt")
    os.mkdir(mnt)
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256m", "tmpfs", mnt],
                   check=True)
    info = {}
    try:
        now = int(time.time()) + 3 * DAY + 12345
        info = oracle_trees(tmp, mnt, now)
        sparse_totals(tmp, mnt, now)
        limits(tmp, mnt, now)
        capacity_limits(tmp, mnt, now)
        deep_tree(tmp, mnt, now)
        unreadable(tmp, mnt, now)
        if delayfs_missing():
            skip("delayfs: skewed tree, progress and faults",
                 *delayfs_missing())
        else:
            through_delayfs(tmp, now)
    finally:
        gentree.cleanup(info)
        ok(subprocess.run(["umount", mnt]).returncode == 0,
           "the tmpfs unmounts: nothing left open in it")
        shutil.rmtree(tmp, ignore_errors=True)
    done()


if __name__ == "__main__":
    main()
