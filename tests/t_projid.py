"""t_projid: --project projid on a real XFS file system (loop device).

Builds a small tree on a fresh XFS image, sets project IDs and the
PROJINHERIT flag with xfs_io (no quota mount option needed: the IDs live
in the inodes), and checks v_project and the project table's source column
against a table worked out by hand from the rules in fsscan/project/project.h.
File sizes are chosen here; alloc_bytes and the totals are cross-checked
with find(1).

Project quotas: a second image mounted with prjquota, limits set with
xfs_quota, are read into v_limit (source 'quota') for the projects the
projid rule named; a --limits file overrides them for the projects it
lists. A kernel without quota support refuses the mount: the check is then
skipped with the kernel's reason.

Layout (sizes in bytes):
    rootfile 100                 ROOT: projid 0, and depth:1 skips ROOT
    dirA/    projid 42 +P        -> "alpha" (IOCENSUS_PROJID_FILE: alpha:42)
        a1 1000, a2 5000, sub/ (inherits 42 +P), sub/s1 300
    dirB/    projid 43 +P        -> "43" (not in the projid file)
        b1 2000, b2 0, link -> b1
    dirC/    no projid           -> "dirC" by depth:1
        c1 700, deep/, deep/c2 1234
    dirD/    projid 44, no +P    -> dirD itself is "44"; its files are
        d1 50                       not inherited -> "dirD" by depth:1
    alpha/   no projid           -> "alpha" by depth:1 (same name as 42)
        al1 10
"""
import os
import shutil
import signal
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "lib"))
from tap import ok, eq, done, skip  # noqa: E402

FSSCAN = os.environ.get("FSSCAN", "build/fsscan")


def run(*cmd, **kw):
    return subprocess.run(list(cmd), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, **kw)


def sql(db, query):
    p = run("sqlite3", "-separator", "|", db, query)
    if p.returncode != 0:
        raise RuntimeError("sqlite3: " + p.stderr.strip())
    return [line.split("|") for line in p.stdout.splitlines()]


def write(path, size):
    with open(path, "wb") as f:
        f.write(b"x" * size)


def prerequisites():
    """None when the test can run, else the reason it cannot."""
    if os.geteuid() != 0:
        return "needs root (mount)"
    for tool in ("mkfs.xfs", "xfs_io", "losetup", "sqlite3"):
        if shutil.which(tool) is None:
            return tool + " not installed (apt-get install xfsprogs)"
    if not os.path.exists("/dev/loop-control"):
        return "no loop device support (/dev/loop-control missing)"
    with open("/proc/filesystems") as f:
        if "xfs" not in f.read().split():
            p = run("modprobe", "xfs")
            if p.returncode != 0:
                return "kernel has no XFS: " + p.stderr.strip()
    return None


def build_tree(mnt):
    write(f"{mnt}/rootfile", 100)
    os.mkdir(f"{mnt}/dirA")
    os.mkdir(f"{mnt}/dirB")
    os.mkdir(f"{mnt}/dirC")
    os.mkdir(f"{mnt}/dirD")
    os.mkdir(f"{mnt}/alpha")
    # The flags go on first, so that what is created below inherits them
    # the way real project directories are set up.
    for d, cmds in (("dirA", ["chproj 42", "chattr +P"]),
                    ("dirB", ["chproj 43", "chattr +P"]),
                    ("dirD", ["chproj 44"])):
        args = ["xfs_io"]
        for c in cmds:
            args += ["-c", c]
        p = run(*args, f"{mnt}/{d}")
        if p.returncode != 0:
            raise RuntimeError(f"xfs_io {cmds} {d}: {p.stderr.strip()}")
    write(f"{mnt}/dirA/a1", 1000)
    write(f"{mnt}/dirA/a2", 5000)
    os.mkdir(f"{mnt}/dirA/sub")
    write(f"{mnt}/dirA/sub/s1", 300)
    write(f"{mnt}/dirB/b1", 2000)
    write(f"{mnt}/dirB/b2", 0)
    os.symlink("b1", f"{mnt}/dirB/link")
    write(f"{mnt}/dirC/c1", 700)
    os.mkdir(f"{mnt}/dirC/deep")
    write(f"{mnt}/dirC/deep/c2", 1234)
    write(f"{mnt}/dirD/d1", 50)
    write(f"{mnt}/alpha/al1", 10)
    os.sync()


def lsproj(path):
    p = run("xfs_io", "-c", "lsproj", "-c", "lsattr", path)
    out = p.stdout.split()
    # "projid = 42" then "--------P-------X /path"
    projid = int(out[2]) if len(out) > 2 and out[0] == "projid" else None
    flags = out[3] if len(out) > 3 else ""
    return projid, "P" in flags


def alloc(mnt, rel):
    return os.lstat(os.path.join(mnt, rel)).st_blocks * 512


def check_setup(mnt):
    """The tree really carries the IDs we meant to set (via xfs_io)."""
    want = {"dirA": (42, True), "dirA/sub": (42, True), "dirB": (43, True),
            "dirC": (0, False), "dirD": (44, False), "alpha": (0, False),
            ".": (0, False)}
    got = {d: lsproj(os.path.join(mnt, d)) for d in want}
    eq(got, want, "xfs_io set project IDs and PROJINHERIT as intended")


def find_totals(mnt):
    """Totals from find(1): files, dirs, bytes, alloc."""
    p = run("find", mnt, "-xdev", "-type", "f", "-printf", "%s %b\n")
    sizes = [tuple(map(int, ln.split())) for ln in p.stdout.splitlines()]
    p = run("find", mnt, "-xdev", "-type", "d")
    ndirs = len(p.stdout.splitlines())
    return (len(sizes), ndirs, sum(s for s, _ in sizes),
            sum(b * 512 for _, b in sizes))


def scan(mnt, db, projid_file, *rules):
    env = dict(os.environ, IOCENSUS_PROJID_FILE=projid_file)
    args = [FSSCAN, "--db", db, "--quiet"]
    for r in rules:
        args += ["--project", r]
    p = run(*args, mnt, env=env)
    ok(p.returncode == 0, "fsscan %s exits 0" % " ".join(rules),
       "status %d: %s" % (p.returncode, p.stderr.strip()))
    sid = sql(db, "SELECT max(id) FROM v_snapshot")[0][0]
    rows = sql(db, "SELECT project, files, dirs, bytes, alloc_bytes "
               "FROM v_project WHERE snapshot_id = %s" % sid)
    proj = {r[0]: tuple(int(x) for x in r[1:]) for r in rows}
    src = {r[0]: r[1] for r in sql(
        db, "SELECT name, source FROM project WHERE snapshot_id = %s" % sid)}
    snap = sql(db, "SELECT files, dirs, bytes, alloc_bytes FROM v_snapshot "
               "WHERE id = %s" % sid)[0]
    return proj, src, tuple(int(x) for x in snap)


def check_scans(tmp, mnt):
    A = lambda *rels: sum(alloc(mnt, r) for r in rels)  # noqa: E731
    db = os.path.join(tmp, "census.db")
    names = os.path.join(tmp, "projid")
    with open(names, "w") as f:
        f.write("# name:id\nalpha:42\nother:99\n")

    proj, src, snap = scan(mnt, db, names, "projid", "depth:1")
    # (files, dirs, bytes, alloc) by hand from the layout
    want = {
        "(none)": (1, 1, 100, A("rootfile")),
        "alpha": (4, 3, 1000 + 5000 + 300 + 10,
                  A("dirA/a1", "dirA/a2", "dirA/sub/s1", "alpha/al1")),
        "43": (2, 1, 2000, A("dirB/b1", "dirB/b2")),
        "44": (0, 1, 0, 0),
        "dirC": (2, 2, 700 + 1234, A("dirC/c1", "dirC/deep/c2")),
        "dirD": (1, 0, 50, A("dirD/d1")),
    }
    eq(proj, want, "projid,depth:1: v_project rows")
    eq(src, {"(none)": "none", "alpha": "projid,depth:1", "43": "projid",
             "44": "projid", "dirC": "depth:1", "dirD": "depth:1"},
       "projid,depth:1: project.source names the rule")
    total = tuple(sum(v[i] for v in proj.values()) for i in range(4))
    ft = find_totals(mnt)
    eq(total, ft, "sum of v_project equals find(1) files, dirs, bytes, alloc")
    eq(snap, ft, "v_snapshot equals find(1) files, dirs, bytes, alloc")

    # Without a name for 42 the ID itself is the name; alpha/ is then
    # named by depth:1 alone.
    with open(names, "w") as f:
        f.write("other:99\n")
    proj, src, _ = scan(mnt, db, names, "projid", "depth:1")
    eq({k: proj.get(k) for k in ("42", "alpha")},
       {"42": (3, 2, 6300, A("dirA/a1", "dirA/a2", "dirA/sub/s1")),
        "alpha": (1, 1, 10, A("alpha/al1"))},
       "unnamed projid 42 is reported as '42'")
    eq((src.get("42"), src.get("alpha")), ("projid", "depth:1"),
       "sources without the name mapping")

    # depth:1 first: projid never gets a chance except in ROOT.
    proj, src, _ = scan(mnt, db, names, "depth:1", "projid")
    eq(sorted(proj), ["(none)", "alpha", "dirA", "dirB", "dirC", "dirD"],
       "depth:1,projid: depth:1 wins everywhere below ROOT")
    eq(sorted(set(src.values())), ["depth:1", "none"],
       "depth:1,projid: projid attributed nothing")


def kernel_reason():
    """The kernel's last word on a refused mount (dmesg), if readable."""
    p = run("dmesg")
    lines = [ln for ln in p.stdout.splitlines() if "quota" in ln.lower()]
    return lines[-1].split("] ", 1)[-1] if lines else "no reason in dmesg"


def check_quota_mpi(tmp, mnt, env):
    """fsscan-mpi reads the same quotas: its rank 0 learns the project IDs
    the other ranks met."""
    import t_mpi
    mpi = os.path.join(os.path.dirname(FSSCAN), "fsscan-mpi")
    if not t_mpi.MPIRUN:
        skip("quota, fsscan-mpi", "mpirun not found", needs="mpirun")
        return
    if not os.access(mpi, os.X_OK):
        skip("quota, fsscan-mpi", "fsscan-mpi not built", needs="mpicc")
        return
    db = os.path.join(tmp, "qmpi.db")
    env = dict(t_mpi.mpi_env(), IOCENSUS_PROJID_FILE=env[
        "IOCENSUS_PROJID_FILE"])
    p = run(*(t_mpi.prefix(3) + [mpi, "--db", db, "--quiet", "-j", "1",
                                 "--project", "projid", mnt]), env=env)
    ok(p.returncode == 0, "quota: fsscan-mpi --project projid, 3 ranks",
       p.stderr)
    eq(sql(db, "SELECT project, bytes, inodes, source FROM v_limit"
           " ORDER BY project"),
       [["43", str(5 << 20), "", "quota"], ["alpha", str(10 << 20), "100",
                                              "quota"]],
       "quota: fsscan-mpi's v_limit as fsscan's")


def check_quota(tmp):
    img, mnt = os.path.join(tmp, "q.img"), os.path.join(tmp, "qmnt")
    os.mkdir(mnt)
    with open(img, "wb") as f:
        f.truncate(300 << 20)
    if not ok(run("mkfs.xfs", "-q", img).returncode == 0, "quota: mkfs.xfs"):
        return
    p = run("mount", "-o", "loop,prjquota", img, mnt)
    if p.returncode != 0:
        skip("quota: v_limit from XFS project quotas, fsscan and"
             " fsscan-mpi", "the kernel refuses an XFS mount with prjquota"
             " (%s)" % kernel_reason())
        return
    try:
        for d, pid in (("pa", 42), ("pb", 43), ("pc", 44)):
            os.mkdir(os.path.join(mnt, d))
            run("xfs_io", "-c", "chproj %d" % pid, "-c", "chattr +P",
                os.path.join(mnt, d))
        write(os.path.join(mnt, "pa", "f"), 4096)
        p = run("xfs_quota", "-x", "-c", "limit -p bhard=10m ihard=100 42",
                "-c", "limit -p bsoft=5m 43", mnt)
        ok(p.returncode == 0, "quota: xfs_quota sets the limits", p.stderr)
        names = os.path.join(tmp, "qprojid")
        with open(names, "w") as f:
            f.write("alpha:42\n")
        db = os.path.join(tmp, "q.db")
        env = dict(os.environ, IOCENSUS_PROJID_FILE=names)
        p = run(FSSCAN, "--db", db, "--quiet", "--project", "projid", mnt,
                env=env)
        ok(p.returncode == 0, "quota: fsscan --project projid", p.stderr)
        got = sql(db, "SELECT project, bytes, inodes, source FROM v_limit"
                  " ORDER BY project")
        eq(got, [["43", str(5 << 20), "", "quota"],
                 ["alpha", str(10 << 20), "100", "quota"]],
           "quota: v_limit from the project quotas (hard, else soft)")
        lim = os.path.join(tmp, "qlimits.csv")
        with open(lim, "w") as f:
            f.write("alpha,1GiB,7\n")
        p = run(FSSCAN, "--db", db, "--quiet", "--project", "projid",
                "--limits", lim, mnt, env=env)
        got = sql(db, "SELECT project, bytes, inodes, source FROM v_limit"
                  " WHERE snapshot_id = (SELECT max(id) FROM v_snapshot)"
                  " ORDER BY project")
        eq(got, [["43", str(5 << 20), "", "quota"],
                 ["alpha", str(1 << 30), "7", "file"]],
           "quota: a --limits file overrides the quota of its projects")
        check_quota_mpi(tmp, mnt, env)
    finally:
        if run("umount", mnt).returncode != 0:
            run("umount", "-l", mnt)


def main():
    why = prerequisites()
    if why:
        ok(False, "XFS loop test can run", why)
        done()
    if not os.access(FSSCAN, os.X_OK):
        ok(False, "fsscan binary exists", FSSCAN)
        done()
    tmp = tempfile.mkdtemp(prefix="t_projid.")
    img, mnt = os.path.join(tmp, "xfs.img"), os.path.join(tmp, "mnt")
    os.mkdir(mnt)
    mounted = False
    # Turn SIGTERM (tests/run's timeout) into an exception so that the
    # finally clause still unmounts.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(3))
    try:
        with open(img, "wb") as f:
            f.truncate(300 << 20)
        p = run("mkfs.xfs", "-q", img)
        if not ok(p.returncode == 0, "mkfs.xfs", p.stderr.strip()):
            return
        p = run("mount", "-o", "loop", img, mnt)
        if not ok(p.returncode == 0, "mount -o loop", p.stderr.strip()):
            return
        mounted = True
        build_tree(mnt)
        check_setup(mnt)
        check_scans(tmp, mnt)
        check_quota(tmp)
    finally:
        if mounted:
            p = run("umount", mnt)
            if p.returncode != 0:
                run("umount", "-l", mnt)
        # mount -o loop sets autoclear; detach anything left anyway.
        for im in (img, os.path.join(tmp, "q.img")):
            p = run("losetup", "-j", im)
            for line in p.stdout.splitlines():
                run("losetup", "-d", line.split(":", 1)[0])
        shutil.rmtree(tmp, ignore_errors=True)
    done()


if __name__ == "__main__":
    main()
    done()
