#!/usr/bin/env python3
"""mktree.py: generate a deterministic benchmark tree.

    mktree.py [--entries N] [--seed S] [--jobs J] [--shuffle] DEST

Creates DEST with about N entries (default 1,000,000) whose shape resembles a
real project file system:
  * ~8 % directories, depth up to 8 below DEST, built as a random recursive
    tree (old directories collect more children, as in real trees);
  * most directories hold 1-50 entries (median 9), plus three wide ones
    (up to 5k/20k/50k files, capped at 2 % of the files each);
  * file sizes log-normal (median ~6 KiB, a long tail up to 64 GiB), about
    5 % empty; files under 256 bytes get real content, larger ones are sparse
    (ftruncate), so creating the tree writes almost nothing to disk;
  * about 1 % symlinks and 0.5 % extra hard links;
  * mtimes exponential before a fixed date (mean 200 days), atimes later.

With --shuffle, directories and files are created in one random order
over the whole tree (a directory with its missing ancestors when its first
entry comes), as an aged file system holds them after years of use: the
inodes of one directory's entries lie scattered among everyone else's,
where the default order gives each directory's files neighbouring inodes.

The result depends only on N, the seed and the order.  A marker file DEST.params records
the parameters after a complete run; when it matches, the tree is reused and
nothing is written.  A partial or mismatching tree is replaced (and deleted
only after the new one is complete; see main()).
"""
import argparse
import math
import os
import random
import shutil
import sys
import time

VERSION = 4             # bump when the generator changes shape
MAX_DEPTH = 8
DIR_SHARE = 0.08
SYMLINK_SHARE = 0.01
HARDLINK_SHARE = 0.005
WIDE_DIRS = (5000, 20000, 50000)
EXTS = (".c", ".h", ".py", ".txt", ".dat", ".nc", ".h5", ".log", ".o", ".json",
        ".csv", ".tar", ".gz", "")


def plan(entries, seed):
    """Decide every directory and file; return (dirs, files_per_dir, links).

    dirs: list of (parent_index, name, depth); index 0 is DEST itself.
    files_per_dir: list (per dir) of lists of (name, size, mtime, atime).
    links: list of (dir_index, name, kind, target) for symlinks and hard links.
    """
    rng = random.Random(seed)
    now = 1_700_000_000          # fixed, so the tree does not depend on today
    ndirs = max(1, int(entries * DIR_SHARE))
    nsym = int(entries * SYMLINK_SHARE)
    nhard = int(entries * HARDLINK_SHARE)
    nfiles = entries - ndirs - nsym - nhard

    dirs = [(-1, "", 0)]
    eligible = [0]               # directories that may still get subdirectories
    for i in range(1, ndirs):
        parent = eligible[rng.randrange(len(eligible))]
        depth = dirs[parent][2] + 1
        dirs.append((parent, "d%05d_%s" % (i, "x" * rng.randrange(0, 12)), depth))
        if depth < MAX_DEPTH:
            eligible.append(i)

    # Files per directory: a few wide directories, the rest log-normal 1..50.
    counts = [0] * ndirs
    wide = rng.sample(range(1, ndirs), min(len(WIDE_DIRS), ndirs - 1)) if ndirs > 1 else []
    left = nfiles
    for d, n in zip(wide, WIDE_DIRS):
        n = min(n, nfiles // 50)     # small trees keep small wide dirs
        counts[d] = n
        left -= n
    weights = [0.0] * ndirs
    for d in range(ndirs):
        if counts[d] == 0:
            weights[d] = min(50.0, rng.lognormvariate(math.log(8), 0.9))
    total = sum(weights) or 1.0
    for d in range(ndirs):
        counts[d] += int(weights[d] * left / total)
    rest = nfiles - sum(counts)
    while rest > 0:
        counts[rng.randrange(ndirs)] += 1
        rest -= 1

    files = []
    serial = 0
    for d in range(ndirs):
        fl = []
        for _ in range(counts[d]):
            if rng.random() < 0.05:
                size = 0
            else:
                size = int(min(rng.lognormvariate(math.log(6000), 2.2), 64 << 30))
            mtime = now - int(rng.expovariate(1 / (200 * 86400)))
            atime = max(mtime, now - int(rng.expovariate(1 / (60 * 86400))))
            name = "f%06d_%s%s" % (serial, "y" * rng.randrange(0, 20),
                                   EXTS[rng.randrange(len(EXTS))])
            fl.append((name, size, mtime, atime))
            serial += 1
        files.append(fl)

    links = []
    with_files = [d for d in range(ndirs) if files[d]]
    for i in range(nsym + nhard):
        d = rng.randrange(ndirs)
        src = with_files[rng.randrange(len(with_files))]
        target = files[src][rng.randrange(len(files[src]))][0]
        kind = "s" if i < nsym else "h"
        links.append((d, "%s%06d" % ("l" if kind == "s" else "h", i), kind, src, target))
    return dirs, files, links


def dir_path(dirs, i, cache):
    p = cache.get(i)
    if p is None:
        parent, name, _ = dirs[i]
        p = os.path.join(dir_path(dirs, parent, cache), name) if parent >= 0 else ""
        cache[i] = p
    return p


def make_files(dest, dirs, files, paths, worker, jobs):
    for d in range(worker, len(dirs), jobs):
        if not files[d]:
            continue
        dfd = os.open(os.path.join(dest, paths[d]) if paths[d] else dest,
                      os.O_RDONLY | os.O_DIRECTORY)
        try:
            for f in files[d]:
                make_file(dfd, *f)
        finally:
            os.close(dfd)


def make_file(dfd, name, size, mtime, atime):
    fd = os.open(name, os.O_CREAT | os.O_EXCL | os.O_WRONLY | os.O_CLOEXEC,
                 0o644, dir_fd=dfd)
    if size < 256:
        if size:
            os.write(fd, b"x" * size)
    else:
        os.ftruncate(fd, size)
    os.utime(fd, (atime, mtime))
    os.close(fd)


def make_shuffled(dest, dirs, files, paths, seed):
    """Every directory and file in one random order; a directory (and
    its missing ancestors) when it or its first entry comes."""
    ops = [(d, None) for d in range(1, len(dirs))]
    ops += [(d, f) for d in range(len(dirs)) for f in files[d]]
    random.Random(seed + 3).shuffle(ops)
    made = {0}

    def mkdir(d):
        if d not in made:
            mkdir(dirs[d][0])
            os.mkdir(os.path.join(dest, paths[d]))
            made.add(d)

    for d, f in ops:
        mkdir(d)
        if f is not None:
            dfd = os.open(os.path.join(dest, paths[d]) if paths[d] else dest,
                          os.O_RDONLY | os.O_DIRECTORY)
            try:
                make_file(dfd, *f)
            finally:
                os.close(dfd)


def generate(dest, entries, seed, jobs, shuffle):
    t0 = time.time()
    dirs, files, links = plan(entries, seed)
    cache = {}
    paths = [dir_path(dirs, i, cache) for i in range(len(dirs))]
    os.makedirs(dest)
    if shuffle:
        jobs = 0
        make_shuffled(dest, dirs, files, paths, seed)
    else:
        for i in range(1, len(dirs)):
            os.mkdir(os.path.join(dest, paths[i]))
    pids = []
    for w in range(jobs):
        pid = os.fork()
        if pid == 0:
            try:
                make_files(dest, dirs, files, paths, w, jobs)
                os._exit(0)
            except BaseException as e:          # report, never fall through
                print("mktree: worker %d: %s" % (w, e), file=sys.stderr)
                os._exit(1)
        pids.append(pid)
    bad = 0
    for pid in pids:
        _, status = os.waitpid(pid, 0)
        bad |= status
    if bad:
        raise SystemExit("mktree: a worker failed")
    rng_links, now_link = random.Random(seed + 2), 1_700_000_000
    for d, name, kind, src, target in links:
        where = os.path.join(dest, paths[d], name)
        if kind == "s":
            rel = os.path.relpath(os.path.join(dest, paths[src], target),
                                  os.path.join(dest, paths[d]))
            os.symlink(rel, where)
            t = now_link - rng_links.randrange(0, 400 * 86400)
            os.utime(where, (t, t), follow_symlinks=False)
        else:
            os.link(os.path.join(dest, paths[src], target), where)
    # Directory times last: creating entries above reset them to now.
    rng = random.Random(seed + 1)
    for i in range(len(dirs) - 1, -1, -1):
        t = 1_700_000_000 - rng.randrange(0, 400 * 86400)
        os.utime(os.path.join(dest, paths[i]) if paths[i] else dest, (t, t))
    nfiles = sum(len(f) for f in files)
    print("mktree: %s: %d dirs, %d files, %d links in %.1f s" %
          (dest, len(dirs), nfiles, len(links), time.time() - t0), file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--entries", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--jobs", type=int, default=max(1, os.cpu_count() or 1))
    ap.add_argument("--shuffle", action="store_true",
                    help="create entries in one random order (aged)")
    ap.add_argument("dest")
    a = ap.parse_args()
    dest = os.path.abspath(a.dest)
    marker = dest + ".params"
    params = "version=%d entries=%d seed=%d%s\n" % (
        VERSION, a.entries, a.seed, " order=shuffled" if a.shuffle else "")
    try:
        with open(marker) as f:
            if f.read() == params and os.path.isdir(dest):
                print("mktree: reusing %s (%s)" % (dest, params.strip()), file=sys.stderr)
                return
    except FileNotFoundError:
        pass
    if os.path.lexists(marker):
        os.unlink(marker)
    # A stale tree is moved aside and deleted only after the new one exists:
    # ext4 skips inodes freed in the last minutes when allocating
    # (recently_deleted() in find_inode_bit), which made creating 1M files
    # right after deleting 1M files take 6 minutes instead of 20 seconds.
    stale = None
    if os.path.lexists(dest):
        stale = "%s.stale-%d" % (dest, os.getpid())
        print("mktree: replacing stale %s" % dest, file=sys.stderr)
        os.rename(dest, stale)
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    generate(dest, a.entries, a.seed, a.jobs, a.shuffle)
    with open(marker, "w") as f:
        f.write(params)
    if stale:
        shutil.rmtree(stale)


if __name__ == "__main__":
    main()
