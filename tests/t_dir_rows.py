#!/usr/bin/env python3
"""v_dir rows: linear in the tree however deep, and older databases upgraded.

- A single chain of 4,001 directories with 255-byte names below ROOT (the
  deepest path is over 1 MB, far past PATH_MAX; built and read here only
  through directory fds), a file at the bottom and one halfway down.
  `fsscan --dirs all` must stay under CHAIN_RSS of peak RSS (a release
  build; SAN_RSS under the sanitizers) and leave a database under
  CHAIN_DB bytes: storing each row's path took 2 GB of both. Every v_dir
  row's totals, and the whole path of the rows at the depths in PATHS,
  match an independent walker (below, fd-based, sharing no code with
  fsscan). A full scan of v_dir on this tree is 2 GB of path text by
  definition, so paths are compared at chosen depths, the deepest
  included.
- A database of schema 3, whose dir rows hold paths (made here from a
  fresh scan of the oracle tree, odd names included, plus a row whose
  parent has no row), is upgraded in place by the next scan: v_dir shows
  the same rows as before, the old table is gone, integrity_check is ok.
"""
import os
import resource
import sqlite3
import stat
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "lib"))
import gentree  # noqa: E402
from tap import done, eq, ok  # noqa: E402

FSSCAN = os.environ.get("FSSCAN") or os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "build", "fsscan")
DEPTH = 4001
NAME_LEN = 255
CHAIN_RSS = 48 << 20          # release build: ~15 MiB measured
SAN_RSS = 512 << 20           # ASan+UBSan: shadow memory and quarantine
CHAIN_DB = 8 << 20            # ~2.5 MB measured: 1 MB of names, once each
PATHS = (0, 1, 2, 3, 100, 1024, 1025, 2000, 3999, 4000, 4001)


def name_at(k):
    return (b"%05d" % k) + b"d" * (NAME_LEN - 5)


def build_chain(root):
    """ROOT/n1/n2/.../n4001, a file at depth 2000 and at the bottom."""
    os.mkdir(root)
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    for k in range(1, DEPTH + 1):
        os.mkdir(name_at(k), dir_fd=fd)
        nfd = os.open(name_at(k), os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
        os.close(fd)
        fd = nfd
        if k in (2000, DEPTH):
            f = os.open(b"f%d" % k, os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd)
            os.write(f, b"x" * k)
            os.close(f)
    os.close(fd)


class FdWalk:
    """Every entry below root, read through directory fds only: per
    directory its name, parent, depth and lstat; per other entry its
    parent and lstat. Regular files count once per (dev, ino), owned by
    the link with the smallest (parent inode, name)."""

    def __init__(self, root):
        self.dirs = []          # [name, parent index, depth, st]
        self.others = []        # (parent index, name, st)
        rfd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
        self.dirs.append([b".", None, 0, os.fstat(rfd)])
        stack = [(rfd, iter(self._read(0, rfd)))]   # open ancestors only
        while stack:
            fd, subs = stack[-1]
            ci = next(subs, None)
            if ci is None:
                os.close(fd)
                stack.pop()
                continue
            cfd = os.open(self.dirs[ci][0], os.O_RDONLY | os.O_DIRECTORY
                          | os.O_NOFOLLOW, dir_fd=fd)
            stack.append((cfd, iter(self._read(ci, cfd))))

    def _read(self, di, fd):
        """Record the entries of directory di; returns its subdirectories."""
        subs = []
        for name in sorted(os.fsencode(n) for n in os.listdir(fd)):
            st = os.stat(name, dir_fd=fd, follow_symlinks=False)
            if stat.S_ISDIR(st.st_mode):
                self.dirs.append([name, di, self.dirs[di][2] + 1, st])
                subs.append(len(self.dirs) - 1)
            else:
                self.others.append((di, name, st))
        return subs

    def rows(self):
        """{depth: (files, dirs, bytes, alloc, max_mtime)} of a chain
        (one directory per depth), totals of each subtree."""
        owner = {}
        for di, name, st in self.others:
            if stat.S_ISREG(st.st_mode):
                key = (self.dirs[di][3].st_ino, name)
                k = (st.st_dev, st.st_ino)
                if k not in owner or key < owner[k][0]:
                    owner[k] = (key, di, st)
        acc = [[0, 0, 0, 0, None] for _ in self.dirs]

        def add(r, f, d, b, a, mt):
            r[0] += f
            r[1] += d
            r[2] += b
            r[3] += a
            r[4] = mt if r[4] is None else max(r[4], mt)
        for di, name, st in self.others:
            if stat.S_ISREG(st.st_mode):
                continue
            add(acc[di], 0, 0, 0, 0, st.st_mtime_ns // 10**9)
        for _, di, st in owner.values():
            add(acc[di], 1, 0, st.st_size, st.st_blocks * 512,
                st.st_mtime_ns // 10**9)
        for i, d in enumerate(self.dirs):
            add(acc[i], 0, 1, 0, 0, d[3].st_mtime_ns // 10**9)
        for i in range(len(self.dirs) - 1, 0, -1):   # children after parents
            r = acc[i]
            add(acc[self.dirs[i][1]], r[0], r[1], r[2], r[3], r[4])
        return {self.dirs[i][2]: tuple(r) for i, r in enumerate(acc)}

    def path(self, depth):
        """The v_dir path of the chain's directory at depth."""
        if depth == 0:
            return b"."
        names = [d[0] for d in self.dirs[1:depth + 1]]
        assert all(self.dirs[i][2] == i for i in range(depth + 1))
        return b"/".join(names)


def asan_build():
    out = subprocess.run(["ldd", FSSCAN], capture_output=True).stdout
    return b"libasan" in out


def scan(db, root, *args):
    """Run fsscan; returns (status, peak RSS in bytes, stderr)."""
    err = tempfile.TemporaryFile()
    p = subprocess.Popen([FSSCAN, "--db", db, "--quiet"] + list(args)
                         + [root], stderr=err)
    _, status, ru = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    err.seek(0)
    return p.returncode, ru.ru_maxrss * 1024, err.read().decode(
        errors="replace")


def db_size(db):
    return sum(os.path.getsize(db + s) for s in ("", "-wal")
               if os.path.exists(db + s))


def chain(tmp):
    root = os.path.join(tmp, "chain")
    t0 = time.time()
    build_chain(root)
    walk = FdWalk(root)
    want = walk.rows()
    ok(len(walk.dirs) == DEPTH + 1 and len(walk.path(DEPTH)) > 1000000,
       "chain: %d directories, deepest path %d bytes" % (
           DEPTH + 1, len(walk.path(DEPTH))), "got %d" % len(walk.dirs))
    print("# chain built and walked in %.1f s" % (time.time() - t0))
    db = os.path.join(tmp, "chain.db")
    t0 = time.time()
    rc, rss, err = scan(db, root, "--dirs", "all")
    print("# fsscan --dirs all: %.2f s, peak RSS %.1f MiB, database %.2f MB"
          % (time.time() - t0, rss / 1048576.0, db_size(db) / 1e6))
    eq(rc, 0, "chain: fsscan --dirs all exits 0")
    bound = SAN_RSS if asan_build() else CHAIN_RSS
    ok(rss < bound, "chain: peak RSS under %d MiB" % (bound >> 20),
       "%.1f MiB" % (rss / 1048576.0))
    ok(db_size(db) < CHAIN_DB, "chain: database under %d MiB" %
       (CHAIN_DB >> 20), "%d bytes" % db_size(db))
    con = sqlite3.connect(db)
    con.text_factory = bytes
    sid = con.execute("SELECT max(id) FROM v_snapshot").fetchone()[0]
    got = {r[0]: tuple(r[1:]) for r in con.execute(
        "SELECT depth, files, dirs, bytes, alloc_bytes, max_mtime FROM v_dir"
        " WHERE snapshot_id = ?", (sid,))}
    eq(len(got), DEPTH + 1, "chain: one v_dir row per directory")
    eq(got, want, "chain: every v_dir row's totals as the oracle's")
    for d in PATHS:
        p = con.execute("SELECT path FROM v_dir WHERE snapshot_id = ? AND"
                        " depth = ?", (sid, d)).fetchall()
        ok(p == [(walk.path(d),)], "chain: v_dir path at depth %d (%d bytes)"
           % (d, len(walk.path(d))), "got %r" % ([len(x[0]) for x in p],))
    eq(con.execute("PRAGMA integrity_check").fetchone()[0], b"ok",
       "chain: integrity_check")
    con.close()


OLD_DIR = """CREATE TABLE dir (
  snapshot_id INTEGER NOT NULL REFERENCES snapshot(id) ON DELETE CASCADE,
  path  TEXT NOT NULL, depth INTEGER NOT NULL,
  files INTEGER NOT NULL, dirs INTEGER NOT NULL,
  bytes INTEGER NOT NULL, alloc_bytes INTEGER NOT NULL,
  max_mtime INTEGER,
  PRIMARY KEY (snapshot_id, path)) WITHOUT ROWID;
CREATE VIEW v_dir AS
  SELECT snapshot_id, path, depth, files, dirs, bytes, alloc_bytes, max_mtime
  FROM dir;"""


def vdir_rows(con):
    return sorted(con.execute("SELECT snapshot_id, path, depth, files, dirs,"
                              " bytes, alloc_bytes, max_mtime FROM v_dir"))


def upgrade(tmp):
    """A schema-3 database (dir rows by path) made from a fresh scan."""
    root = os.path.join(tmp, "tree")
    os.mkdir(root)
    now = int(time.time())
    gentree.build(root, now, seed=3, mounts=False)
    db = os.path.join(tmp, "v3.db")
    for args in (["--dirs", "all"], ["--dirs", "2"]):
        rc, _, err = scan(db, root, "--now", str(now), *args)
        ok(rc == 0, "upgrade: scan %s" % " ".join(args), err)
    con = sqlite3.connect(db)
    con.text_factory = bytes
    rows = vdir_rows(con)
    odd = [r for r in rows if b"\n" in r[1] or b"\xff" in r[1]]
    ok(len(odd) >= 2 and any(r[2] >= 3 for r in rows),
       "upgrade: rows with newline and invalid UTF-8, three levels deep",
       "%d odd rows" % len(odd))
    orphan = (1, b"gone/away", 2, 1, 1, 10, 4096, 12345)
    con.executescript("DROP VIEW v_dir; ALTER TABLE dir RENAME TO dir_new;"
                      + OLD_DIR)
    con.executemany("INSERT INTO dir VALUES (?,?,?,?,?,?,?,?)",
                    rows + [orphan])
    con.executescript("DROP TABLE dir_new; PRAGMA user_version = 3;")
    con.commit()
    con.close()
    rc, _, err = scan(db, root, "--now", str(now), "--dirs", "1")
    ok(rc == 0, "upgrade: a scan opens and upgrades the schema-3 database",
       err)
    con = sqlite3.connect(db)
    con.text_factory = bytes
    eq(con.execute("PRAGMA user_version").fetchone()[0], 13,
       "upgrade: now schema 13")
    after = [r for r in vdir_rows(con) if r[0] <= 2]
    eq(after, sorted(rows + [orphan]), "upgrade: v_dir rows as before, the"
       " row without a parent row included")
    cols = [r[1] for r in con.execute("PRAGMA table_info(dir)")]
    ok(b"path" not in cols and b"parent" in cols,
       "upgrade: dir holds parent and name", repr(cols))
    eq(con.execute("SELECT count(*) FROM sqlite_master WHERE name LIKE"
                   " 'dir_paths%'").fetchone()[0], 0, "upgrade: old table gone")
    eq(con.execute("SELECT count(*) FROM v_dir WHERE snapshot_id = 3")
       .fetchone()[0], 1 + sum(1 for e in os.scandir(root)
                               if e.is_dir(follow_symlinks=False)),
       "upgrade: the new scan's rows (--dirs 1: ROOT and its directories)")
    eq(con.execute("PRAGMA integrity_check").fetchone()[0], b"ok",
       "upgrade: integrity_check")
    con.close()


def main():
    if not ok(os.access(FSSCAN, os.X_OK), "fsscan binary exists", FSSCAN):
        done()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < DEPTH + 64 <= hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    tmp = tempfile.mkdtemp(prefix="t_dir_rows.", dir=os.environ.get("TMPDIR"))
    try:
        chain(tmp)
        upgrade(tmp)
    finally:
        subprocess.run(["rm", "-rf", tmp])
    done()


if __name__ == "__main__":
    main()
