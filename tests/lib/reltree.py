"""reltree: shared pieces of the fsscan reliability tests (tests/t_rel_*.py).

- Scratch: a temporary directory (optionally a private tmpfs) that is
  unmounted and removed on exit, whatever happened.
- census(): an independent walker written for the tests. It uses only
  os.listdir/os.stat/os.open relative to directory fds (so it handles paths
  longer than PATH_MAX), never follows symlinks, stays on ROOT's device
  unless asked, dedupes hard links by (st_dev, st_ino) with the ownership
  rule of the brief, and computes the v_snapshot totals and every v_dir
  row. It shares no code with fsscan.
- find_census(): the same totals from find(1), optionally run as another
  user, for the cases where the test process (root) cannot see what an
  unprivileged scan sees.
- run(): runs fsscan and returns status, output and wall time.
- small database readers on top of the sqlite3 module.
"""
import collections
import json
import os
import shutil
import signal
import sqlite3
import stat
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tap import ok, eq, done, skip  # noqa: E402,F401
from pace import limit  # noqa: E402

TOP = os.environ.get("TOP") or os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__))))
FSSCAN = os.environ.get("FSSCAN") or os.path.join(TOP, "build", "fsscan")
NOBODY = 65534


def case(name, fn, *args):
    """Run one test case; an exception becomes a failed check, not a crash,
    so the remaining cases still run."""
    try:
        fn(*args)
    except Exception as e:  # report and go on
        import traceback
        traceback.print_exc(file=sys.stderr)
        ok(False, name + " (raised)", "%s: %s" % (type(e).__name__, e))


def root_case(name, why, fn, *args):
    """case() of what needs root (why: a mount, chown, a program run as
    another user); a skip that says so without it."""
    if os.geteuid() != 0:
        skip(name, why, needs="root")
        return
    case(name, fn, *args)


# --- scratch space -------------------------------------------------------

class Scratch:
    """A temporary directory, mode 0755 so that an unprivileged scan can
    reach into it. With tmpfs=True a private tmpfs is mounted on it: big
    trees are created several times faster there and do not depend on the
    load other jobs put on the disk."""

    def __init__(self, tmpfs=False, size="2g"):
        # tests/run's timeout sends SIGTERM: unwind so that close() unmounts
        signal.signal(signal.SIGTERM, lambda *a: sys.exit(143))
        parent = os.environ.get("TMPDIR") or "/tmp"
        self.base = tempfile.mkdtemp(prefix="t_rel.", dir=parent)
        os.chmod(self.base, 0o755)
        self.mounts = []
        if tmpfs:
            self.mount_tmpfs(self.base, size=size)

    def path(self, *parts):
        return os.path.join(self.base, *parts)

    def mount_tmpfs(self, where, size="64m"):
        subprocess.run(["mount", "-t", "tmpfs", "-o",
                        "size=%s,nr_inodes=2000000,mode=0755" % size,
                        "tmpfs", where], check=True)
        self.mounts.append(where)

    def umount(self, where):
        if where not in self.mounts:
            return
        r = subprocess.run(["umount", where], capture_output=True)
        if r.returncode != 0:   # busy: detach now, freed when idle
            subprocess.run(["umount", "-l", where], capture_output=True)
        self.mounts.remove(where)

    def close(self):
        for m in reversed(list(self.mounts)):
            self.umount(m)
        shutil.rmtree(self.base, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


# --- building trees ------------------------------------------------------

def mkfile(dir_fd, name, size=0, data=None, mode=0o644):
    """Create a file relative to dir_fd. size via ftruncate (a hole);
    data (bytes) is written for real so that st_blocks is non-zero."""
    fd = os.open(name, os.O_CREAT | os.O_WRONLY | os.O_EXCL, mode, dir_fd=dir_fd)
    try:
        if data:
            os.write(fd, data)
        if size:
            os.ftruncate(fd, size)
    finally:
        os.close(fd)


def opendir(path, dir_fd=None):
    return os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW,
                   dir_fd=dir_fd)


def build_wide(root, ndirs, nsub, nfiles, seed=0):
    """root/dNNN[/sMMM]/fKKKK: ndirs top directories, each with nsub
    subdirectories (0: files directly in the top directories), each holding
    nfiles files. Sizes vary; every 37th file holds real data."""
    os.makedirs(root, exist_ok=True)
    rfd = opendir(root)
    k = seed
    try:
        for d in range(ndirs):
            os.mkdir("d%03d" % d, dir_fd=rfd)
            dfd = opendir("d%03d" % d, dir_fd=rfd)
            leaves = []
            if nsub:
                for s in range(nsub):
                    os.mkdir("s%03d" % s, dir_fd=dfd)
                    leaves.append(opendir("s%03d" % s, dir_fd=dfd))
            else:
                leaves.append(os.dup(dfd))
            os.close(dfd)
            for lfd in leaves:
                for f in range(nfiles):
                    k += 1
                    if k % 37 == 0:
                        mkfile(lfd, "f%04d" % f, data=b"x" * (k % 9000 + 1))
                    else:
                        mkfile(lfd, "f%04d" % f, size=(k * 7919) % 100000)
                os.close(lfd)
    finally:
        os.close(rfd)


# --- the independent walker -----------------------------------------------

class Census:
    def __init__(self):
        self.files = self.dirs = self.symlinks = self.others = 0
        self.bytes = self.alloc = 0
        self.hardlink_dups = self.mounts_skipped = self.snapshot_dirs = 0
        self.symlink_rel = self.symlink_abs = 0
        self.errors = []        # (errno, relpath)
        self.dir = {}           # relpath bytes -> [depth, files, dirs, bytes, alloc, max_mtime]
        self.names = {}         # relpath bytes -> number of names in the directory

    def entries(self):
        """Counted entries, hard links once."""
        return self.files + self.dirs + self.symlinks + self.others

    def totals(self):
        """The v_snapshot columns this census predicts."""
        return {"files": self.files, "dirs": self.dirs,
                "symlinks": self.symlinks, "others": self.others,
                "bytes": self.bytes, "alloc_bytes": self.alloc,
                "errors": len(self.errors)}

    def vdir(self, maxdepth=3):
        """Predicted v_dir rows: {path: (depth, files, dirs, bytes, alloc, max_mtime)}."""
        return {p: tuple(r) for p, r in self.dir.items()
                if maxdepth is None or r[0] <= maxdepth}


def census(root, cross_mounts=False):
    """Walk root like the brief says fsscan must, from scratch."""
    c = Census()
    rfd = opendir(os.fsencode(root))
    rst = os.fstat(rfd)
    dev = rst.st_dev
    items = []      # (kind, chain, st, parent_ino, name)
    c.dir[b"."] = [0, 0, 0, 0, 0, 0]
    items.append(("d", (b".",), rst, 0, b"."))

    def walk(fd, rel, depth, chain, ino):
        try:
            names = os.listdir(fd)
        except OSError as e:
            c.errors.append((e.errno, rel))
            return
        c.names[rel] = len(names)
        for name in names:
            nb = os.fsencode(name)
            crel = nb if rel == b"." else rel + b"/" + nb
            try:
                st = os.stat(nb, dir_fd=fd, follow_symlinks=False)
            except OSError as e:
                c.errors.append((e.errno, crel))
                continue
            m = st.st_mode
            if stat.S_ISDIR(m):
                if st.st_dev != dev and not cross_mounts:
                    c.mounts_skipped += 1
                    continue
                cchain = chain + (crel,)
                c.dir[crel] = [depth + 1, 0, 0, 0, 0, 0]
                items.append(("d", cchain, st, ino, nb))
                if nb == b".snapshot":
                    c.snapshot_dirs += 1
                    continue
                try:
                    cfd = opendir(nb, dir_fd=fd)
                except OSError as e:
                    c.errors.append((e.errno, crel))
                    continue
                try:
                    walk(cfd, crel, depth + 1, cchain, st.st_ino)
                finally:
                    os.close(cfd)
            elif stat.S_ISREG(m):
                items.append(("f", chain, st, ino, nb))
            elif stat.S_ISLNK(m):
                items.append(("l", chain, st, ino, nb))
                target = os.readlink(nb, dir_fd=fd)
                if target.startswith(b"/"):
                    c.symlink_abs += 1
                else:
                    c.symlink_rel += 1
            else:
                items.append(("o", chain, st, ino, nb))

    try:
        walk(rfd, b".", 0, (b".",), rst.st_ino)
    finally:
        os.close(rfd)

    # Hard links: one owner per (dev, ino), the smallest (parent ino, name).
    links = collections.defaultdict(list)
    for i, it in enumerate(items):
        if it[0] == "f" and it[2].st_nlink > 1:
            links[(it[2].st_dev, it[2].st_ino)].append(i)
    skip = set()
    for group in links.values():
        group.sort(key=lambda i: (items[i][3], items[i][4]))
        skip.update(group[1:])
        c.hardlink_dups += len(group) - 1

    for i, (kind, chain, st, _, _) in enumerate(items):
        if i in skip:
            continue
        if kind == "f":
            c.files += 1
            c.bytes += st.st_size
            c.alloc += st.st_blocks * 512
        elif kind == "d":
            c.dirs += 1
        elif kind == "l":
            c.symlinks += 1
        else:
            c.others += 1
        mt = st.st_mtime_ns // 1000000000
        for p in chain:
            r = c.dir[p]
            if kind == "f":
                r[1] += 1
                r[3] += st.st_size
                r[4] += st.st_blocks * 512
            elif kind == "d":
                r[2] += 1
            r[5] = max(r[5], mt)
    return c


def find_census(root, user=None, xdev=True):
    """Totals from GNU find, run as `user` when given. Entries on another
    device than root are dropped (find -xdev still prints mount points).
    Returns (dict like Census.totals() without errors, stderr lines)."""
    cmd = ["find", root] + (["-xdev"] if xdev else []) + \
        ["-printf", r"%y %D %i %s %b %n\0"]
    if user is not None:
        cmd = ["setpriv", "--reuid=%d" % user, "--regid=%d" % user,
               "--clear-groups"] + cmd
    # cwd "/": find as another user must be able to return to its start
    # directory, which a checkout under a 0700 directory would not allow.
    r = subprocess.run(cmd, capture_output=True, cwd="/")
    recs = [x.split() for x in r.stdout.split(b"\0") if x]
    rootdev = recs[0][1]
    t = {"files": 0, "dirs": 0, "symlinks": 0, "others": 0, "bytes": 0,
         "alloc_bytes": 0}
    seen = set()
    for y, d, i, s, b, n in recs:
        if xdev and d != rootdev:
            continue
        if y == b"f":
            if int(n) > 1:
                if (d, i) in seen:
                    continue
                seen.add((d, i))
            t["files"] += 1
            t["bytes"] += int(s)
            t["alloc_bytes"] += int(b) * 512
        elif y == b"d":
            t["dirs"] += 1
        elif y == b"l":
            t["symlinks"] += 1
        else:
            t["others"] += 1
    return t, r.stderr.decode(errors="replace").splitlines()


# --- running fsscan ---------------------------------------------------------

class Result:
    def __init__(self, rc, out, err, secs):
        self.rc, self.out, self.err, self.secs = rc, out, err, secs

    def why(self):
        return "status %s, stderr: %s" % (self.rc, self.err.strip()[-400:])


def fsscan_cmd(args, user=None):
    cmd = [FSSCAN] + list(args)
    if user is not None:
        cmd = ["setpriv", "--reuid=%d" % user, "--regid=%d" % user,
               "--clear-groups"] + cmd
    return cmd


def run(args, user=None, timeout=300, cwd=None):
    """Run fsscan to completion."""
    t = time.monotonic()
    p = subprocess.run(fsscan_cmd(args, user), capture_output=True,
                       timeout=limit(timeout), cwd=cwd or "/")
    return Result(p.returncode, p.stdout.decode(errors="replace"),
                  p.stderr.decode(errors="replace"), time.monotonic() - t)


def start(args, user=None, cwd=None, killed=False):
    """Start fsscan in the background (stdout/stderr to pipes). killed:
    the caller will SIGKILL it, maybe while LeakSanitizer checks it at
    exit; its tracer, a process of its own, then outlives it and reports
    that it cannot read the dead thread's registers. Such a run is not
    leak-checked (the scans that end by themselves are)."""
    env = None
    if killed:
        env = dict(os.environ, ASAN_OPTIONS=os.environ.get(
            "ASAN_OPTIONS", "") + ":detect_leaks=0")
    return subprocess.Popen(fsscan_cmd(args, user), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=cwd or "/", env=env)


# --- reading the database ---------------------------------------------------

def connect(db, raw=False):
    con = sqlite3.connect(db, timeout=limit(60))
    if raw:
        con.text_factory = bytes
    return con


def rows(db, sql, args=(), raw=False):
    con = connect(db, raw)
    try:
        return con.execute(sql, args).fetchall()
    finally:
        con.close()


def one(db, sql, args=(), raw=False):
    r = rows(db, sql, args, raw)
    return r[0] if r else None


def last_id(db):
    r = one(db, "SELECT max(id) FROM snapshot")
    return r[0] if r else None


SNAP_COLS = ("files", "dirs", "symlinks", "others", "bytes", "alloc_bytes",
             "errors")


def vsnap(db, sid):
    """The v_snapshot totals of one snapshot as a dict, plus complete."""
    r = one(db, "SELECT complete, %s FROM v_snapshot WHERE id=?" %
            ", ".join(SNAP_COLS), (sid,))
    if r is None:
        return None
    d = dict(zip(SNAP_COLS, r[1:]))
    d["complete"] = r[0]
    return d


def totals_of(vs):
    """v_snapshot dict without 'complete', comparable with Census.totals()."""
    return {k: vs[k] for k in SNAP_COLS} if vs else None


def internal(db, sid, col):
    r = one(db, "SELECT %s FROM snapshot WHERE id=?" % col, (sid,))
    return r[0] if r else None


def vdir(db, sid):
    """v_dir rows of one snapshot: {path bytes: (depth, files, dirs, bytes, alloc, max_mtime)}."""
    return {r[0]: tuple(r[1:]) for r in rows(
        db, "SELECT path, depth, files, dirs, bytes, alloc_bytes, max_mtime "
            "FROM v_dir WHERE snapshot_id=?", (sid,), raw=True)}


def errors_by_errno(db, sid):
    return dict(rows(db, "SELECT errno, count FROM scan_error WHERE snapshot_id=?",
                     (sid,)))


def integrity(db):
    try:
        r = rows(db, "PRAGMA integrity_check")
        return ";".join(str(x[0]) for x in r)
    except sqlite3.Error as e:
        return "sqlite error: %s" % e


def schema_objects():
    """(tables, views) declared in sql/*.sql, parsed from the source text."""
    import re
    text = ""
    for f in ("schema.sql", "views.sql"):
        with open(os.path.join(TOP, "sql", f)) as fh:
            text += fh.read()
    tables = set(re.findall(r"CREATE TABLE IF NOT EXISTS (\w+)", text))
    views = set(re.findall(r"CREATE VIEW IF NOT EXISTS (\w+)", text))
    return tables, views


def db_objects(db):
    r = rows(db, "SELECT type, name FROM sqlite_master")
    return ({n for t, n in r if t == "table"}, {n for t, n in r if t == "view"})


def dump_json(obj):
    return json.dumps(obj, sort_keys=True, default=repr)
