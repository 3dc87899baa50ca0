"""gentree: a deterministic test tree for fsscan and its oracle.

build(root, now, seed) fills the existing empty directory root with:
  * top-level projects alpha, alpha2 (prefix-boundary twin of alpha), beta,
    gamma, "delta space", eps'q, zeta, and an empty project dir "empty";
    plus files, a hard link and a symlink directly in ROOT;
  * nested directories down to depth 7 (alpha/d1/.../d6/deepfile);
  * regular files with sizes on and around every size-bucket edge
    (0, 1, 2047..2049, 4095..4097, 2^k-1, 2^k, 2^k+1 for k = 13..24);
    files larger than 64 KiB are sparse (truncate), some with one page
    written so that capacity is neither 0 nor the full size;
  * atime/mtime ages (relative to now) on and around day-bucket edges,
    from 0 s to 4096 days, and in the future (-1 s, -3 days); nanoseconds
    are set too (they must be ignored); ctime is whatever the kernel set
    (the oracle reads it back with lstat, it is never assumed);
  * owners (uid, gid) from (0,0) (1000,1000) (1001,100) (65534,65534)
    (1000,1001), one symlink owned by 4242:4242 only, and two files owned
    by ids above INT32_MAX;
  * hard links across directories and projects, links in one directory
    whose names share a prefix or differ in a byte >= 0x80, and an empty
    hard-linked pair;
  * symlinks: relative, absolute, dangling, to a directory, one with a
    200-byte target;
  * a FIFO, a unix socket, a character device;
  * names with spaces, quotes, newline, tab, invalid UTF-8, HTML and SQL
    injection text, a 200-byte name, and a directory whose name has a
    newline and invalid UTF-8 (so v_dir paths carry raw bytes);
  * alpha/.snapshot (a directory with files: counted, never descended) and
    beta/.snapshot (a regular file: an ordinary file);
  * *.tmp files and a node_modules directory, for --exclude tests, and a
    hard link "a.tmp" in ROOT that owns gamma/hl2 unless excluded;
  * hard links of a symlink and of a FIFO (counted twice: not regular);
  * optionally (mounts=True) a tmpfs mounted at alpha/mnt with files in it,
    which fsscan must skip (unmount with cleanup()).

Everything but ctime and inode numbers is a function of (now, seed).
"""
import os
import random
import socket
import stat
import subprocess

DAY = 86400

SIZES = [0, 1, 100, 2047, 2048, 2049, 4095, 4096, 4097]
for _k in range(13, 25):
    SIZES += [(1 << _k) - 1, 1 << _k, (1 << _k) + 1]

AGES = [0, 1, DAY - 1, 2 * DAY - 1, 2 * DAY, 2 * DAY + 1, 4 * DAY - 1,
        4 * DAY, 4 * DAY + 1, 8 * DAY, 16 * DAY - 1, 16 * DAY, 32 * DAY + 5,
        64 * DAY, 128 * DAY, 256 * DAY, 512 * DAY, 1024 * DAY,
        2048 * DAY - 1, 4096 * DAY, -1, -3 * DAY, -(DAY - 1)]

OWNERS = [(0, 0), (1000, 1000), (1001, 100), (65534, 65534), (1000, 1001)]

PROJECTS = [b"alpha", b"alpha2", b"beta", b"gamma", b"delta space",
            b"eps'q", b"zeta"]

WEIRD_NAMES = [b"with space", b"quote's", b'dq"uote', b"new\nline",
               b"tab\tname", b"bad\xff\xfeutf8", b"<script>alert(1)<\\script>",
               b"'; DROP TABLE x; --", b"x" * 200, b"\xc3\xa9t\xc3\xa9",
               b"-dash", b"trailing space "]


def _j(*parts):
    return b"/".join(parts)


class _Gen:
    def __init__(self, root, now, seed):
        self.root = os.fsencode(root)
        self.now = now
        self.rng = random.Random(seed)
        self.dirs = [b""]          # relative paths of directories we made
        self.entries = []          # relative paths to set times on
        self.mounts = []

    def p(self, rel):
        return _j(self.root, rel) if rel else self.root

    def owner(self):
        return self.rng.choice(OWNERS)

    def mkdir(self, rel):
        os.mkdir(self.p(rel))
        uid, gid = self.owner()
        os.chown(self.p(rel), uid, gid)
        self.dirs.append(rel)
        self.entries.append(rel)

    def file(self, rel, size, sparse=None):
        """Regular file of exactly size bytes. Large files are sparse."""
        if sparse is None:
            sparse = size > 65536
        with open(self.p(rel), "wb") as f:
            if not sparse:
                f.write(bytes([0x61 + len(rel) % 26]) * size)
            else:
                f.truncate(size)
                if self.rng.random() < 0.5 and size >= 8192:
                    f.seek(size // 2)
                    f.write(b"z" * 4096)
        uid, gid = self.owner()
        os.chown(self.p(rel), uid, gid)
        self.entries.append(rel)

    def age_pair(self, size):
        """(atime age, mtime age); large files get small ages so that the
        size*age sums stay far below 2^53 (exact in a double)."""
        cap = (1 << 44) // max(size, 1)
        ages = [a for a in AGES if a <= cap]
        return self.rng.choice(ages), self.rng.choice(ages)

    def link(self, src, dst):
        os.link(self.p(src), self.p(dst))
        self.entries.append(dst)

    def symlink(self, target, rel, owner=None):
        os.symlink(target, self.p(rel))
        uid, gid = owner or self.owner()
        os.chown(self.p(rel), uid, gid, follow_symlinks=False)
        self.entries.append(rel)

    def set_times(self):
        """Deepest first, so that making a child cannot move a parent's
        mtime after we set it (setting times changes only ctime)."""
        for rel in sorted(set(self.entries), key=lambda r: (-r.count(b"/"), r)):
            st = os.lstat(self.p(rel))
            a_age, m_age = self.age_pair(st.st_size)
            a_ns = self.rng.randrange(0, 1000000000)
            m_ns = self.rng.choice([0, 1, 999999999,
                                    self.rng.randrange(0, 1000000000)])
            os.utime(self.p(rel), ns=((self.now - a_age) * 10**9 + a_ns,
                                      (self.now - m_age) * 10**9 + m_ns),
                     follow_symlinks=False)
        # ROOT itself too
        os.utime(self.root, ns=((self.now - 5 * DAY) * 10**9,
                                (self.now - 3) * 10**9))


def build(root, now, seed=1, mounts=False, filler=300):
    """Fill root (an existing empty directory). Returns an info dict with
    'mounts' (absolute byte paths mounted, for cleanup())."""
    g = _Gen(root, now, seed)
    rng = g.rng

    for proj in PROJECTS:
        g.mkdir(proj)
    g.mkdir(b"empty")
    # nested chains: alpha/d1/d2/.../d6, others 3-5 deep, with siblings
    for proj in PROJECTS:
        depth = 6 if proj == b"alpha" else rng.randrange(3, 6)
        cur = proj
        for d in range(1, depth + 1):
            cur = _j(cur, b"d%d" % d)
            g.mkdir(cur)
            if rng.random() < 0.6:
                g.mkdir(_j(cur, b"side%d" % d))
    g.mkdir(b"alpha/d1/emptysub")

    # size-edge files, spread over every directory
    placed = [x for x in g.dirs if x not in (b"empty", b"alpha/d1/emptysub")]
    for i, size in enumerate(SIZES):
        d = placed[i % len(placed)] if i < len(placed) else rng.choice(placed)
        g.file(_j(d, b"s%d" % size) if d else b"s%d" % size, size)
    for i in range(filler):
        d = rng.choice(placed)
        size = rng.choice([0, 1, 7, 100, 512, 1000, 2047, 2048, 3000, 4096,
                           5000, 8191, 8192, 12345, 20000])
        name = b"f%03d" % i
        g.file(_j(d, name) if d else name, size)

    # beyond 32 bits (sparse), and a 255-byte name
    for k in (31, 32, 33):
        g.file(b"zeta/d1/big%d" % k, (1 << k) + 1)
    g.file(b"gamma/" + b"n" * 255, 5)

    # files directly in ROOT
    g.file(b"README", 100)
    g.file(b"rootbig", 1 << 20)

    # deep path, empty dirs
    g.file(b"alpha/d1/d2/d3/d4/d5/d6/deepfile", 3000)

    # hard links: across dirs and projects, same-dir prefix pair, empty pair
    g.file(b"alpha/d1/hl_src", 5000, sparse=False)
    g.link(b"alpha/d1/hl_src", b"alpha/d1/hl_src2")
    g.link(b"alpha/d1/hl_src", b"beta/hl_b")
    g.link(b"alpha/d1/hl_src", b"hl_root")
    g.link(b"alpha/d1/hl_src", b"alpha/d1/d2/d3/d4/hl_deep")
    # one directory holds the links: the name decides (memcmp order, the
    # shorter prefix first, bytes unsigned)
    g.file(b"beta/d1/lnk_a", 3000, sparse=False)
    for n in (b"lnk_B", b"lnk_\xff", b"lnk_", b"lnk_aa"):
        g.link(b"beta/d1/lnk_a", b"beta/d1/" + n)
    g.file(b"eps'q/q\xff", 2500, sparse=False)
    g.link(b"eps'q/q\xff", b"eps'q/qa")
    # a link that only an --exclude hides: "a.tmp" in ROOT owns gamma/hl2
    # unless *.tmp is excluded
    g.file(b"gamma/hl2", 70000)
    g.link(b"gamma/hl2", b"a.tmp")
    g.link(b"gamma/hl2", b"zeta/d1/hl2")
    # links of a symlink and of a FIFO: not regular files, never merged
    os.symlink(b"target-of-linked-symlink", g.p(b"beta/lsym"))
    os.link(g.p(b"beta/lsym"), g.p(b"beta/d1/lsym2"), follow_symlinks=False)
    os.mkfifo(g.p(b"zeta/lfifo"))
    os.link(g.p(b"zeta/lfifo"), g.p(b"zeta/d1/lfifo2"))
    g.entries += [b"beta/lsym", b"beta/d1/lsym2", b"zeta/lfifo",
                  b"zeta/d1/lfifo2"]
    g.file(b"zeta/e1", 0)
    g.link(b"zeta/e1", b"zeta/e2")

    # symlinks
    g.symlink(b"../beta/hl_b", b"alpha/rel")
    g.symlink(b"/etc/passwd", b"alpha/abs")
    g.symlink(b"no/such/target", b"beta/dangling")
    g.symlink(b"y" * 200, b"gamma/longlink")
    g.symlink(b"/usr", b"zeta/dirlink")
    g.symlink(b"d1", b"alpha/d1link")
    g.symlink(b"alpha", b"rootlink", owner=(4242, 4242))

    # special files
    os.mkfifo(g.p(b"beta/fifo"))
    g.entries.append(b"beta/fifo")
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.bind(g.p(b"gamma/sock"))
    s.close()
    g.entries.append(b"gamma/sock")
    os.mknod(g.p(b"zeta/null"), 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    g.entries.append(b"zeta/null")

    # ids above INT32_MAX (sign and truncation bugs)
    for i, big in enumerate((2147483648, 4294967294)):
        rel = b"zeta/bigid%d" % i
        g.file(rel, 1000 + i)
        os.chown(g.p(rel), big, big)

    # awkward names, and a directory with one at depth 2
    for i, name in enumerate(WEIRD_NAMES):
        g.file(_j(b"delta space", name), [0, 10, 3000, 70000][i % 4])
    g.mkdir(b"delta space/dir\nnew\xff")
    g.file(b"delta space/dir\nnew\xff/inner file", 2049)
    g.mkdir(b"delta space/dir\nnew\xff/<script>")
    g.file(b"delta space/dir\nnew\xff/<script>/x", 1)

    # .snapshot: a directory (counted, not descended) and a regular file
    g.mkdir(b"alpha/.snapshot")
    g.file(b"alpha/.snapshot/snapfile", 4096)
    g.mkdir(b"alpha/.snapshot/inner")
    g.file(b"alpha/.snapshot/inner/x", 100)
    g.file(b"beta/.snapshot", 10)

    # --exclude material
    g.file(b"scratch.tmp", 1000)
    g.file(b"beta/d1/a.tmp", 5000)
    g.mkdir(b"gamma/node_modules")
    g.mkdir(b"gamma/node_modules/pkg")
    g.file(b"gamma/node_modules/pkg/index.js", 300)

    if mounts:
        mp = g.p(b"alpha/mnt")
        os.mkdir(mp)
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs",
                        mp], check=True)
        g.mounts.append(mp)
        with open(_j(mp, b"inside"), "wb") as f:
            f.write(b"q" * 5000)
        os.link(_j(mp, b"inside"), _j(mp, b"inside2"))
        os.mkdir(_j(mp, b"sub"))
        os.symlink(b"/inside", _j(mp, b"sub/abs"))

    g.set_times()
    return {"mounts": g.mounts}


def build_wide(root, now, seed=3, ndirs=600, nfiles=6000, nlinks=300,
               bigdir=3000):
    """A larger tree for the thread-count comparisons: ndirs directories
    nested at random (deep chains included), nfiles small files, nlinks
    hard-link groups spread over random directories, and one directory with
    bigdir entries (several getdents buffers) holding subdirectories too."""
    g = _Gen(root, now, seed)
    rng = g.rng
    for i in range(ndirs):
        parent = rng.choice(g.dirs[-20:] if rng.random() < 0.3 else g.dirs)
        g.mkdir(_j(parent, b"w%d" % i) if parent else b"w%d" % i)
    for i in range(nfiles):
        d = rng.choice(g.dirs)
        name = b"f%d" % i
        g.file(_j(d, name) if d else name,
               rng.choice([0, 1, 100, 2048, 4097, 9000, 70000]))
    for i in range(nlinks):
        d = rng.choice(g.dirs)
        src = _j(d, b"h%d" % i) if d else b"h%d" % i
        g.file(src, rng.choice([0, 10, 5000]))
        for k in range(rng.randrange(1, 4)):
            d2 = rng.choice(g.dirs)
            dst = b"l%d_%d" % (i, k)
            g.link(src, _j(d2, dst) if d2 else dst)
    big = b"big directory"
    g.mkdir(big)
    for i in range(bigdir):
        name = b"entry-with-a-rather-long-name-%06d" % i
        if i % 60 == 0:
            g.mkdir(_j(big, name))
            g.file(_j(big, name, b"inner"), i)
        else:
            g.file(_j(big, name), i % 5000)
    g.set_times()
    return {"mounts": []}


def cleanup(info):
    for mp in reversed(info.get("mounts", [])):
        subprocess.run(["umount", mp], check=False)


if __name__ == "__main__":
    import sys
    import time
    build(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2
          else int(time.time()))
