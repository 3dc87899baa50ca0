#!/usr/bin/env python3
"""t_oracle: fsscan against an independent model, field by field.

A generated tree (tests/lib/gentree.py) on a private tmpfs is scanned by
$FSSCAN and every stable view is compared with tests/lib/oracle.py, and the
fsstats CSV with tests/lib/fsstats_oracle.py:
  * v_snapshot, internal snapshot counters, v_project, v_hist (whole FS and
    every project), v_dir, owner totals, the fsstats CSV;
  * a second scan of the unchanged tree gives identical hist rows;
  * -j 1, -j 2, -j 8 give identical results;
  * --dirs 1 / 5 / all, --exclude, --cross-mounts;
  * --project chains: depth:2, group, user, depth:1 then user,
    gidmap:FILE then depth:1, map:FILE (absolute and relative prefixes, a
    line naming a file); depth:2 names projects by their path;
  * a larger tree (600 dirs, 9000 files, 300 hard-link groups, a
    3000-entry directory) with -j 1, 2, 8;
  * ROOT relative with a trailing slash, --fs, --dirs 0, ROOT that is a
    mount point, an empty ROOT (empty fsstats histograms);
  * a scan as uid 65534: unreadable and unsearchable directories;
  * the same default scan of a tree on the disk file system (ext4 here);
  * --cross-mounts over two ext4 images with equal inode numbers.
"""
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "lib"))
import fsstats_oracle  # noqa: E402
import gentree  # noqa: E402
import oracle  # noqa: E402
from tap import done, eq, ok, skip  # noqa: E402
from pace import limit  # noqa: E402

FSSCAN = os.environ.get("FSSCAN") or os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "build", "fsscan")
DAY = 86400


class Scan:
    """One fsscan run and what it stored."""

    def __init__(self, tmp, root, now, args, db=None, csv=True, cwd=None,
                 prefix=()):
        self.db = db or tempfile.mktemp(prefix="db.", dir=tmp)
        self.csv = tempfile.mktemp(prefix="csv.", dir=tmp) if csv else None
        cmd = list(prefix) + [FSSCAN, "--db", self.db, "--now", str(now),
                              "--quiet"]
        if self.csv:
            cmd += ["--fsstats-csv", self.csv]
        cmd += list(args) + [root]
        self.cmd = cmd
        try:
            p = subprocess.run(cmd, stdout=subprocess.PIPE, cwd=cwd,
                               stderr=subprocess.PIPE, timeout=limit(60))
            self.rc, self.err = p.returncode, p.stderr.decode(errors="replace")
        except subprocess.TimeoutExpired:
            self.rc, self.err = -1, "timeout"
        self.statvfs = fsstats_oracle.statvfs_kb(os.path.join(cwd or "",
                                                              root))
        self.load()

    def load(self):
        self.ok = False
        try:
            c = sqlite3.connect(self.db)
        except sqlite3.Error as e:
            self.err += " / " + str(e)
            return
        c.text_factory = bytes
        try:
            self.id = c.execute("SELECT max(id) FROM v_snapshot").fetchone()[0]
            if self.id is None:
                return
            q = lambda sql: c.execute(sql, (self.id,)).fetchall()
            cols = ("fs", "root", "started_at", "finished_at", "complete",
                    "files", "dirs", "symlinks", "others", "bytes",
                    "alloc_bytes", "errors")
            row = q("SELECT %s FROM v_snapshot WHERE id=?" % ",".join(cols))[0]
            self.snap = dict(zip(cols, row))
            icols = ("hardlink_dups", "snapshot_dirs", "symlink_rel",
                     "symlink_abs", "mounts_skipped", "excluded", "all_size",
                     "all_blocks")
            row = q("SELECT %s FROM snapshot WHERE id=?" % ",".join(icols))[0]
            self.internal = dict(zip(icols, row))
            self.projects = {r[0]: tuple(r[1:]) for r in q(
                "SELECT project, files, dirs, bytes, alloc_bytes FROM v_project"
                " WHERE snapshot_id=?")}
            self.vhist = {(r[0], r[1].decode(), r[2], r[3]): (r[4], r[5])
                          for r in q("SELECT project, metric, lo, hi, files,"
                                     " bytes FROM v_hist WHERE snapshot_id=?")}
            self.vdir = {r[0]: tuple(r[1:]) for r in q(
                "SELECT path, depth, files, dirs, bytes, alloc_bytes, max_mtime"
                " FROM v_dir WHERE snapshot_id=?")}
            self.owners = {(r[0].decode(), r[1]): tuple(r[2:]) for r in q(
                "SELECT kind, id, files, dirs, bytes, alloc_bytes FROM owner"
                " WHERE snapshot_id=?") if any(r[2:])}
            self.top = {}
            for kind, value in q("SELECT kind, value FROM top"
                                 " WHERE snapshot_id=? ORDER BY kind, rank"):
                self.top.setdefault(kind.decode(), []).append(value)
            # the rows behind v_hist (schema 11: the projects' by id)
            self.hist = sorted(tuple(r) for r in q(
                "SELECT '', metric, slot, n, w, v, vw FROM hist"
                " WHERE snapshot_id=?1 UNION ALL"
                " SELECT p.name, h.metric, h.slot, h.n, h.w, NULL, NULL"
                " FROM project_hist h JOIN project p ON p.snapshot_id ="
                " h.snapshot_id AND p.id = h.project_id"
                " WHERE h.snapshot_id=?1"))
            self.ok = True
        except (sqlite3.Error, IndexError, TypeError) as e:
            self.err += " / db: %r" % (e,)
        finally:
            c.close()

    def csv_text(self):
        try:
            with open(self.csv, "rb") as f:
                return f.read().decode("ascii", errors="replace")
        except OSError as e:
            return "<no csv: %s>" % e


def compare(label, s, m, walk, now, root, csv_statvfs=True, fs=None,
            top=20, want_rc=0):
    """Every view of scan s against model m."""
    ok(s.rc == want_rc, label + ": exit status %d" % want_rc,
       "rc=%d cmd=%r stderr=%s" % (s.rc, s.cmd, s.err[-300:]))
    if not ok(s.ok, label + ": snapshot stored", s.err[-300:]):
        return
    want = m.snapshot()
    got = {k: s.snap[k] for k in want}
    eq(got, want, label + ": v_snapshot totals")
    ok(s.snap["fs"] == os.fsencode(fs or root)
       and s.snap["root"] == os.fsencode(root),
       label + ": v_snapshot fs and root are %s and ROOT as given"
       % ("--fs" if fs else "ROOT"),
       "fs=%r root=%r" % (s.snap["fs"], s.snap["root"]))
    st, fin = s.snap["started_at"], s.snap["finished_at"]
    ok(isinstance(st, int) and isinstance(fin, int) and st <= fin
       and abs(time.time() - fin) < 120,
       label + ": started_at <= finished_at, wall clock",
       "started_at=%r finished_at=%r" % (st, fin))
    eq(s.internal, m.internal(), label + ": snapshot counters")
    eq(s.projects, m.projects(), label + ": v_project")
    wh = m.hist()
    eq({k[1:]: v for k, v in s.vhist.items() if k[0] is None},
       {k[1:]: v for k, v in wh.items() if k[0] is None},
       label + ": v_hist whole FS")
    projs = sorted({k[0] for k in list(wh) + list(s.vhist)
                    if k[0] is not None})
    for p in projs:
        eq({k[1:]: v for k, v in s.vhist.items() if k[0] == p},
           {k[1:]: v for k, v in wh.items() if k[0] == p},
           label + ": v_hist project %r" % p)
    eq(s.vdir, m.dirs(), label + ": v_dir")
    eq(s.owners, m.owners(), label + ": owner totals")
    if top is not None:
        eq(s.top.get("file", []), m.top_files(top),
           label + ": top %d file sizes" % top)
        eq(s.top.get("dir", []), m.top_dirs(top),
           label + ": top %d directory entry counts" % top)
    if s.csv:
        want = fsstats_oracle.build(walk, now, os.fsencode(root),
                                    s.statvfs if csv_statvfs else None)
        got = s.csv_text()
        why = fsstats_oracle.match(
            fsstats_oracle.strip(got, statvfs_lines=not csv_statvfs), want)
        ok(why is None, label + ": fsstats CSV", why)
        errs = m.snapshot()["errors"]
        ok("#Comment: fsscan complete=1 errors=%d" % errs in got.split("\n")
           or any(l.startswith("#Comment: fsscan") and "complete=1" in l
                  and "errors=%d" % errs in l for l in got.split("\n")),
           label + ": fsstats CSV carries complete=1 errors=%d" % errs,
           "comment lines: %r" % [l for l in got.split("\n")
                                  if l.startswith("#Comment")])


def write(path, text):
    with open(path, "w") as f:
        f.write(text)
    return path


def main():
    if os.geteuid() != 0:
        skip("t_oracle: every scan", "the trees are made on a tmpfs it"
             " mounts, with files of other owners", needs="root")
        done()
    if not ok(os.access(FSSCAN, os.X_OK), "fsscan binary exists", FSSCAN):
        done()
    tmp = tempfile.mkdtemp(prefix="t_oracle.", dir=os.environ.get("TMPDIR"))
    mnt = os.path.join(tmp, "mnt")
    os.mkdir(mnt)
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256m",
                              "tmpfs", mnt]).returncode == 0
    info = {}
    try:
        root = os.path.join(mnt, "root")
        os.mkdir(root)
        now = int(time.time()) + 3 * DAY + 12345
        info = gentree.build(root, now, seed=1, mounts=mounted)
        # a second link outside ROOT: only one of nlink links is found
        os.link(os.path.join(root, "beta", "d1", "lnk_a"),
                os.path.join(mnt, "outside-link"))
        os.sync()
        run_all(tmp, root, now, mounted)
        others(tmp, mnt, now)
        unreadable(tmp, mnt, now)
        ext4(tmp)
        collide(tmp, now)
    finally:
        gentree.cleanup(info)
        if mounted:
            subprocess.run(["umount", mnt])
        shutil.rmtree(tmp, ignore_errors=True)
    done()


def link_flag():
    """fsscan reads symlink targets only with --symlink-targets (readlink
    changes the link's atime). Older builds always read them."""
    try:
        h = subprocess.run([FSSCAN, "--help"], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=limit(10)).stdout
    except (OSError, subprocess.TimeoutExpired):
        return []
    return ["--symlink-targets"] if b"--symlink-targets" in h else []


def run_all(tmp, root, now, mounted):
    lt = link_flag()
    walk = oracle.Walk(root)
    ok(walk.mounts_skipped == (1 if mounted else 0),
       "oracle: tree has %d nested mount" % (1 if mounted else 0),
       "mounts_skipped=%d" % walk.mounts_skipped)
    base = oracle.Model(walk, now, ["depth:1"], 3)

    # default options (targets of symlinks not read when lt is given)
    wn = oracle.Walk(root, read_targets=not lt)
    s = Scan(tmp, root, now, [])
    compare("default options", s, oracle.Model(wn, now, ["depth:1"], 3), wn,
            now, root)

    # -j 2, then a second scan into the same database
    s2 = Scan(tmp, root, now, ["-j", "2"] + lt)
    compare("default -j2", s2, base, walk, now, root)
    again = Scan(tmp, root, now, ["-j", "2"] + lt, db=s2.db)
    if s2.ok and again.ok:
        ok(again.id != s2.id, "rescan: new snapshot id",
           "ids %r %r" % (s2.id, again.id))
        eq(again.hist, s2.hist, "rescan: identical hist rows")
        eq(again.vdir, s2.vdir, "rescan: identical v_dir")
        eq(again.projects, s2.projects, "rescan: identical v_project")

    # thread counts
    for j in ("1", "8"):
        s = Scan(tmp, root, now, ["-j", j] + lt)
        compare("default -j%s" % j, s, base, walk, now, root)
        if s.ok and s2.ok:
            eq(s.hist, s2.hist, "-j%s and -j2: identical hist rows" % j)
            eq(fsstats_oracle.strip(s.csv_text(), True),
               fsstats_oracle.strip(s2.csv_text(), True),
               "-j%s and -j2: identical fsstats CSV" % j)

    # --dirs depth
    for dd in ("1", "5", "all"):
        m = oracle.Model(walk, now, ["depth:1"], dd if dd == "all" else int(dd))
        s = Scan(tmp, root, now, ["--dirs", dd], csv=False)
        if ok(s.ok and s.rc == 0, "--dirs %s: scan" % dd, s.err[-300:]):
            eq(s.vdir, m.dirs(), "--dirs %s: v_dir" % dd)

    # --exclude
    wx = oracle.Walk(root, excludes=["*.tmp", "node_modules"])
    ok(wx.excluded == 4, "oracle: 4 excluded names", "got %d" % wx.excluded)
    s = Scan(tmp, root, now, ["--exclude", "*.tmp", "--exclude",
                              "node_modules", "-j", "2"] + lt)
    compare("--exclude", s, oracle.Model(wx, now, ["depth:1"], 3), wx, now,
            root)

    # --cross-mounts
    if mounted:
        wc = oracle.Walk(root, cross_mounts=True)
        s = Scan(tmp, root, now, ["--cross-mounts", "--dirs", "all"] + lt)
        compare("--cross-mounts", s, oracle.Model(wc, now, ["depth:1"], "all"),
                wc, now, root)

    # project chains
    gidmap = write(os.path.join(tmp, "gidmap"),
                   "# gid project\n100 staff100\n\n65534 nobodies  # tail\n")
    # a map line may name a file: it applies to that file alone
    named = next(e.rel for e in walk.entries if e.kind == "f" and
                 e.owner_link and e.st.st_nlink == 1 and
                 e.rel.startswith(b"beta/"))
    mapf = write(os.path.join(tmp, "map"), "\n".join([
        "# prefix project",
        "%s FILE1" % named.decode(),            # a file, inside B or B1
        "alpha A",                              # not alpha2
        "%s/beta/d1 B1" % os.path.abspath(root),  # absolute, longer
        "beta B",
        "gamma/d1/d2 G2   # deep prefix, trailing comment",
        "zeta/nonexistent Z",
        "alpha/.snapshot SNAP",                 # a directory never read
        "%s/zeta/ Z2" % os.path.abspath(root),  # trailing slash
        "/somewhere/else X",                    # outside ROOT: never
        ""]))
    chains = [["depth:2"], ["group"], ["user"], ["depth:1", "user"],
              ["gidmap:" + gidmap, "depth:1"], ["map:" + mapf],
              ["map:" + mapf, "group"]]
    for chain in chains:
        m = oracle.Model(walk, now, chain, 3)
        args = []
        for r in chain:
            args += ["--project", r]
        label = "--project " + " ".join(os.path.basename(r) for r in chain)
        s = Scan(tmp, root, now, args, csv=False)
        if not ok(s.ok and s.rc == 0, label + ": scan",
                  "rc=%d %s" % (s.rc, s.err[-300:])):
            continue
        eq(s.projects, m.projects(), label + ": v_project")
        wh = m.hist()
        eq({k: v for k, v in s.vhist.items() if k[0] is not None},
           {k: v for k, v in wh.items() if k[0] is not None},
           label + ": v_hist per project")
    # the map test must really distinguish alpha from alpha2
    pm = oracle.Model(walk, now, ["map:" + mapf], 3).projects()
    ok(b"A" in pm and b"B1" in pm and b"G2" in pm and b"X" not in pm
       and b"SNAP" in pm and b"Z2" in pm
       and pm.get(b"(none)", (0,))[0] > 0
       and pm.get(b"FILE1", (0,))[0] == 1,
       "oracle: map rules exercised", repr(sorted(pm)))


def others(tmp, mnt, now):
    """Thread counts on a larger tree, ROOT spellings, an empty ROOT."""
    lt = link_flag()
    wide = os.path.join(mnt, "wide")
    os.mkdir(wide)
    gentree.build_wide(wide, now)
    walk = oracle.Walk(wide)
    m = oracle.Model(walk, now, ["depth:1"], 4)
    first = None
    for j in ("1", "2", "8"):
        s = Scan(tmp, wide, now, ["-j", j, "--dirs", "4"] + lt)
        compare("wide tree -j%s" % j, s, m, walk, now, wide)
        if s.ok and first is None:
            first = s
        elif s.ok:
            eq(s.hist, first.hist, "wide tree -j%s: hist rows as -j1" % j)
    s = Scan(tmp, wide, now, ["-j", "8", "--dirs", "4", "--max-fds", "3",
                              "--top", "7"] + lt)
    compare("wide tree -j8 --max-fds 3 --top 7", s, m, walk, now, wide, top=7)

    # ROOT relative, with a trailing slash; --fs; --dirs 0
    rel = "root/"
    walk = oracle.Walk(os.path.join(mnt, rel))
    walk.root = os.fsencode(rel)          # what fsscan was given
    s = Scan(tmp, rel, now, ["--fs", "tmpfs-test", "--dirs", "0"] + lt,
             cwd=mnt)
    compare("ROOT 'root/' relative", s, oracle.Model(walk, now, None, 0), walk,
            now, rel, fs="tmpfs-test")

    # --exclude with a bracket expression, pruning whole subtrees
    wx = oracle.Walk(os.path.join(mnt, "root"), excludes=["d[2-3]", "s*"])
    s = Scan(tmp, os.path.join(mnt, "root"), now,
             ["--exclude", "d[2-3]", "--exclude", "s*"] + lt)
    compare("--exclude 'd[2-3]' 's*'", s, oracle.Model(wx, now, None, 3), wx,
            now, os.path.join(mnt, "root"))

    # an empty ROOT: empty histograms, zero capacity (tmpfs dirs: 0 blocks)
    empty = os.path.join(mnt, "emptyroot")
    os.mkdir(empty)
    walk = oracle.Walk(empty)
    s = Scan(tmp, empty, now, lt)
    compare("empty ROOT", s, oracle.Model(walk, now, None, 3), walk, now, empty)

    # ROOT is the mount point itself (everything above, as depth-1 projects)
    walk = oracle.Walk(mnt)
    s = Scan(tmp, mnt, now, ["-j", "2"] + lt)
    compare("ROOT is a mount point", s, oracle.Model(walk, now, None, 3), walk,
            now, mnt)


def unreadable(tmp, mnt, now):
    """A scan as uid 65534: directories it cannot read or search."""
    lt = link_flag()
    top = os.path.join(mnt, "perm")
    os.mkdir(top)
    def mk(rel, mode=0o755, files=()):
        p = os.path.join(top, rel)
        os.mkdir(p)
        for f, size in files:
            with open(os.path.join(p, f), "wb") as fh:
                fh.write(b"p" * size)
        return p
    mk("open", files=[("f1", 100), ("f2", 5000)])
    mk("open/deeper", files=[("g", 10)])
    locked = mk("locked", files=[("secret", 3000)])
    mk("locked/sub", files=[("x", 1)])
    noread = mk("noread", files=[("h", 7)])           # x only: not listable
    nosearch = mk("nosearch", files=[("a", 1), ("b", 2), ("c", 3)])
    mk("nosearch/sub")
    for p, mode in ((locked, 0o000), (noread, 0o311), (nosearch, 0o644)):
        os.chmod(p, mode)
    os.utime(top, (now - 100, now - 100))
    outdir = os.path.join(tmp, "nobody")
    os.mkdir(outdir)
    os.chown(outdir, 65534, 65534)   # nobody's own, not everyone's
    os.chmod(tmp, 0o711)
    walk = oracle.Walk(top, as_user=(65534, 65534), read_targets=bool(lt))
    ok(walk.errors == 6, "oracle: 6 permission errors as nobody",
       "got %d" % walk.errors)
    db = os.path.join(outdir, "db")
    s = Scan(outdir, top, now, ["-j", "2", "--dirs", "all"] + lt, db=db,
             prefix=["setpriv", "--reuid", "65534", "--regid", "65534",
                     "--clear-groups", "--"])
    m = oracle.Model(walk, now, None, "all")
    want = m.snapshot()
    if s.ok:
        compare("as nobody", s, m, walk, now, top, want_rc=1)
        c = sqlite3.connect(db)
        errs = c.execute("SELECT errno, count FROM scan_error WHERE"
                         " snapshot_id=?", (s.id,)).fetchall()
        c.close()
        eq(errs, [(13, want["errors"])], "as nobody: scan_error EACCES count")
    else:
        ok(False, "as nobody: snapshot stored", "rc=%d %s" % (s.rc, s.err))


def collide(tmp, now):
    """--cross-mounts over two ext4 images whose hard-linked files have the
    same inode number: the hard-link key must include st_dev."""
    imgs, top = [], os.path.join(tmp, "xa")
    os.mkdir(top)
    mounted = []
    try:
        for name, mp in (("a.img", top), ("b.img", os.path.join(top, "inner"))):
            img = os.path.join(tmp, name)
            with open(img, "wb") as f:
                f.truncate(8 << 20)
            if subprocess.run(["mkfs.ext4", "-q", "-F", img],
                              stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL).returncode != 0:
                skip("two ext4 images", "mkfs.ext4 failed")
                return
            if mp != top:
                # first regular file of each image: the same inode number
                with open(os.path.join(top, "h"), "wb") as f:
                    f.write(b"A" * 3000)
                os.link(os.path.join(top, "h"), os.path.join(top, "h2"))
                os.mkdir(mp)
            if subprocess.run(["mount", "-o", "loop", img, mp]).returncode:
                skip("two ext4 images", "loop mount failed")
                return
            mounted.append(mp)
        with open(os.path.join(top, "inner", "h"), "wb") as f:
            f.write(b"B" * 5000)
        os.link(os.path.join(top, "inner", "h"), os.path.join(top, "inner", "h2"))
        ia = os.lstat(os.path.join(top, "h")).st_ino
        ib = os.lstat(os.path.join(top, "inner", "h")).st_ino
        ok(ia == ib, "ext4 images: hard-linked files share inode %d" % ia,
           "inodes %d and %d: the collision case is not exercised" % (ia, ib))
        lt = link_flag()
        for cross in (False, True):
            walk = oracle.Walk(top, cross_mounts=cross)
            args = ["--cross-mounts"] if cross else []
            s = Scan(tmp, top, now, args + lt)
            compare("two ext4 images%s" % (" --cross-mounts" if cross else ""),
                    s, oracle.Model(walk, now, None, 3), walk, now, top,
                    csv_statvfs=False)
    finally:
        for mp in reversed(mounted):
            subprocess.run(["umount", mp])


def ext4(tmp):
    """The default scan of a tree on the disk file system of TMPDIR."""
    root = os.path.join(tmp, "disk")
    os.mkdir(root)
    now = int(time.time()) + 2 * DAY
    gentree.build(root, now, seed=2, mounts=False, filler=100)
    os.sync()
    walk = oracle.Walk(root)
    s = Scan(tmp, root, now, ["-j", "2"] + link_flag())
    fstype = subprocess.run(["stat", "-f", "-c", "%T", root],
                            stdout=subprocess.PIPE).stdout.decode().strip()
    compare("disk (%s)" % fstype, s, oracle.Model(walk, now, None, 3), walk,
            now, root, csv_statvfs=False)


if __name__ == "__main__":
    main()
