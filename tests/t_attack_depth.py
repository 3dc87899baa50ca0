#!/usr/bin/env python3
"""t_attack_depth: a tree that is one deep chain of directories, scanned
with --dirs all, read back whole and through iocensus.

The tree: ROOT/n1/n2/.../n3000, names of 1 to 255 bytes (most short, some
long, some of bytes just below and above '/' such as '-', '.' and 0xff,
some prefixes of their siblings' names), so that the deepest path is far
longer than PATH_MAX. Files sit at some levels, their sizes growing with
depth (each one a new largest file while the walk goes down; some are
two hard links, counted once under the smaller name), and empty side
directories tie on bytes with each other and with the chain below
the last file. Beside the chain, two shallow branches hold most bytes.

Checked against an independent walker written here (directory fds and
os.scandir only, iterative, building each path from its parent's):
- every v_dir row of the scan (path, depth, files, dirs, bytes), with the
  default fd cap and with --max-fds 16 over 3 threads (most directories
  then reopen through their ancestors);
- fsscan's top lists (largest files, directories with the most entries,
  ties by path) as the database's top table holds them;
- `iocensus files` (CSV of the largest subtree totals) and the same table
  in `iocensus report --bundle`: ranks by bytes, ties by path, root
  prefixed.
Timing belongs to the bench (scripts/bench/depth), not here.
"""
import csv
import io
import os
import random
import sqlite3
import stat
import subprocess
import sys
import tarfile
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "lib"))
from tap import done, eq, ok  # noqa: E402

TOP = os.environ.get("TOP") or os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))
BUILD = os.environ.get("BUILD") or os.path.join(TOP, "build")
FSSCAN = os.environ.get("FSSCAN") or os.path.join(BUILD, "fsscan")
IOC = os.path.join(BUILD, "iocensus")
DEPTH = 3000
TOPN = 20
ODD = b"-.\xff"


def chain_name(rng, k):
    """The name at depth k: short mostly, 200-255 bytes every 97th level,
    odd bytes now and then; a letter first, so never '.' or '..'."""
    n = rng.randrange(200, 256) if k % 97 == 0 else rng.randrange(1, 9)
    return b"c" + bytes(rng.choice(b"abcxyz0189" + ODD)
                        for _ in range(n - 1))


def mkdir_at(fd, name):
    os.mkdir(name, dir_fd=fd)
    return os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW,
                   dir_fd=fd)


def mkfile(fd, name, size):
    f = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644,
                dir_fd=fd)
    os.ftruncate(f, size)
    os.close(f)


def build(root):
    """The tree described above; returns the chain's names."""
    rng = random.Random(3000)
    os.mkdir(root)
    rfd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    # Two shallow branches holding most bytes, and a name that sorts
    # between chain names and their side directories.
    for b, size in ((b"big", 9 << 40), (b"big-2", 9 << 40)):
        bfd = mkdir_at(rfd, b)
        for i in range(3):
            sfd = mkdir_at(bfd, b"s%d" % i)
            mkfile(sfd, b"f", size >> i)
            os.close(sfd)
        os.close(bfd)
    fd = os.dup(rfd)
    names = []
    for k in range(1, DEPTH + 1):
        name = chain_name(rng, k)
        names.append(name)
        nfd = mkdir_at(fd, name)
        if k % 5 == 0:
            # Empty siblings sorting just before and after the chain's
            # path: a proper prefix of its name, and its name and '-'.
            if len(name) > 1:
                os.mkdir(name[:-1], dir_fd=fd)
            os.mkdir(name[:254] + b"-", dir_fd=fd)
        if k % 7 == 0 and k < 2500:     # growing files, none below 2500
            mkfile(nfd, b"f%d" % k, 1000 + k * 3)
        if k % 11 == 0 and k < 2500:    # and hard-linked ones
            mkfile(nfd, b"h", 1001 + k * 3)
            os.link(b"h", b"hl", src_dir_fd=nfd, dst_dir_fd=nfd)
        os.close(fd)
        fd = nfd
    os.close(fd)
    os.close(rfd)
    return names


class Walk:
    """Every directory under root: path (v_dir's: '.' for ROOT, else the
    names below it joined with '/'), depth, subtree files, dirs and bytes;
    every regular file's size and path; each directory's entry count.
    Depth first, holding the fds of the current directory's ancestors
    only, each path built once from its parent's."""

    def __init__(self, root):
        self.rows = {}
        self.files = []         # (size, relpath)
        self.entries = []       # (entries, relpath)
        own = {}                # path -> [depth, files, dirs, bytes]
        parent = {}
        rfd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
        stack = [(rfd, iter(self._read(rfd, b".", 0, own)))]
        while stack:
            fd, subs = stack[-1]
            nxt = next(subs, None)
            if nxt is None:
                os.close(fd)
                stack.pop()
                continue
            name, path, up = nxt
            parent[path] = up
            cfd = os.open(name, os.O_RDONLY | os.O_DIRECTORY |
                          os.O_NOFOLLOW, dir_fd=fd)
            stack.append((cfd, iter(self._read(cfd, path,
                                               own[up][0] + 1, own))))
        # Sum children into parents, deepest first.
        for path in sorted(own, key=lambda p: -own[p][0]):
            r = own[path]
            self.rows[path] = tuple(r)
            if path != b".":
                p = own[parent[path]]
                for i in (1, 2, 3):
                    p[i] += r[i]

    def _read(self, fd, path, depth, own):
        """Count directory path's own content; return its
        subdirectories as (name, path, parent path)."""
        files = nbytes = 0
        subs = []
        names = sorted(os.fsencode(n) for n in os.listdir(fd))
        self.entries.append((len(names), path))
        seen = set()
        for name in names:
            st = os.stat(name, dir_fd=fd, follow_symlinks=False)
            sub = name if path == b"." else path + b"/" + name
            if stat.S_ISDIR(st.st_mode):
                subs.append((name, sub, path))
            elif stat.S_ISREG(st.st_mode):
                # Both links of an inode are in one directory here: the
                # first name counts it, and names its path.
                if st.st_ino in seen:
                    continue
                seen.add(st.st_ino)
                files += 1
                nbytes += st.st_size
                self.files.append((st.st_size, sub))
        own[path] = [depth, files, 1, nbytes]
        return subs

    def top_bytes(self, n):
        """The n largest subtree totals below ROOT, ties by path."""
        rows = [(r[3], p, r) for p, r in self.rows.items() if r[0] >= 1]
        rows.sort(key=lambda x: (-x[0], x[1]))
        return rows[:n]


def scan(db, root, *extra):
    p = subprocess.run([FSSCAN, "--quiet", "--db", db, "--dirs", "all",
                        "--top", str(TOPN)] + list(extra) + [root],
                       capture_output=True)
    return p.returncode, p.stderr.decode(errors="replace")


def vdir(db):
    con = sqlite3.connect(db)
    con.text_factory = bytes
    sid = con.execute("SELECT max(id) FROM v_snapshot").fetchone()[0]
    got = {r[0]: tuple(r[1:]) for r in con.execute(
        "SELECT path, depth, files, dirs, bytes FROM v_dir"
        " WHERE snapshot_id = ?", (sid,))}
    tops = {k: [(v, p) for v, p in con.execute(
        "SELECT value, path FROM top WHERE snapshot_id = ? AND kind = ?"
        " ORDER BY rank", (sid, k))] for k in ("file", "dir")}
    con.close()
    return got, tops


def want_tops(w, root):
    """fsscan's top lists: largest key first, ties by smaller path."""
    rb = os.fsencode(root)

    def full(p):
        return rb if p == b"." else rb + b"/" + p
    files = sorted(((s, full(p)) for s, p in w.files),
                   key=lambda x: (-x[0], x[1]))[:TOPN]
    dirs = sorted(((n, full(p)) for n, p in w.entries),
                  key=lambda x: (-x[0], x[1]))[:TOPN]
    return {"file": files, "dir": dirs}


def check_scan(tag, db, root, w, *extra):
    rc, err = scan(db, root, *extra)
    if not eq(rc, 0, "%s: fsscan --dirs all exits 0" % tag):
        print("# " + err[-400:])
        return
    got, tops = vdir(db)
    eq(len(got), len(w.rows), "%s: one v_dir row per directory" % tag)
    eq(got, w.rows, "%s: every v_dir row (path, depth, files, dirs, bytes)"
       " as the walker's" % tag)
    want = want_tops(w, root)
    eq(tops["file"], want["file"], "%s: top files, deepest paths past"
       " PATH_MAX included" % tag)
    eq(tops["dir"], want["dir"], "%s: top directories by entries, ties by"
       " path" % tag)


def want_csv(w, root):
    return [[str(i + 1), str(b), str(r[1]), str(r[0]),
             (root + "/" + p.decode("utf-8", "surrogateescape"))]
            for i, (b, p, r) in enumerate(w.top_bytes(TOPN))]


def ioc_rows(text):
    rows = list(csv.reader(io.StringIO(text)))
    if not rows or rows[0][:6] != ["rank", "bytes", "alloc_bytes", "files",
                                   "depth", "path"]:
        return None
    # alloc_bytes depends on the file system: not compared
    return [[r[0], r[1], r[3], r[4], r[5]] for r in rows[1:]]


def check_iocensus(tmp, db, root, w):
    want = want_csv(w, root)
    ok(len({r[1] for r in want}) < len(want),
       "largest directories: ties on bytes among the first %d" % TOPN)
    p = subprocess.run([IOC, "files", "--db", db, "--format", "csv",
                        "--table", "largest_dirs_bytes"],
                       capture_output=True)
    got = ioc_rows(p.stdout.decode("utf-8", "surrogateescape"))
    eq(p.returncode, 0, "iocensus files exits 0")
    eq(got, want, "iocensus files: the largest subtree totals, ties by"
       " path")
    bundle = os.path.join(tmp, "b.tar.gz")
    p = subprocess.run([IOC, "report", "--db", db, "--out",
                        os.path.join(tmp, "r.html"), "--bundle", bundle],
                       capture_output=True)
    eq(p.returncode, 0, "iocensus report exits 0")
    got = None
    with tarfile.open(bundle) as t:
        for m in t.getmembers():
            if m.name.endswith("largest_dirs_bytes.csv"):
                got = ioc_rows(t.extractfile(m).read().decode(
                    "utf-8", "surrogateescape"))
    eq(got, want, "iocensus report bundle: the same table")


def main():
    tmp = tempfile.mkdtemp(prefix="t_attack_depth.")
    try:
        root = os.path.join(tmp, "root")
        names = build(root)
        w = Walk(root)
        deepest = max(len(p) for p in w.rows)
        ok(deepest > 4096 and len(w.rows) > DEPTH,
           "tree: %d directories, deepest path %d bytes (past PATH_MAX),"
           " names of %d to %d bytes" % (len(w.rows), deepest,
                                         min(map(len, names)),
                                         max(map(len, names))))
        db = os.path.join(tmp, "a.db")
        check_scan("default fds", db, root, w)
        check_iocensus(tmp, db, root, w)
        check_scan("--max-fds 16 -j 3", os.path.join(tmp, "b.db"), root, w,
                   "--max-fds", "16", "-j", "3")
    finally:
        subprocess.run(["rm", "-rf", tmp])
    done()


if __name__ == "__main__":
    main()
