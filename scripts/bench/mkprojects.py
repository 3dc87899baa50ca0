#!/usr/bin/env python3
"""mkprojects.py: a deterministic tree of many small projects.

    mkprojects.py --projects N [--files K] [--layout depth1|depth2]
                  [--baseline] [--seed S] [--jobs J] DEST

Creates DEST holding N project directories of K files each (default 5):
  * depth1: DEST/pNNNNNNN, a /home of user directories (fsscan's default
    project rule, depth:1);
  * depth2: DEST/gNNNNN/uNNNNNNN, about sqrt(N) groups of users
    (--project depth:2), users dealt to the groups in turn;
  * file sizes log-normal (median about 6 KiB, tail to 64 GiB), 5 % empty;
    files under 256 bytes hold real bytes, larger ones are sparse
    (ftruncate), so the tree costs inodes, not disk;
  * mtimes exponential before a fixed date (mean 200 days), atimes after
    them (os.utime), so cold data has rows at every threshold; directory
    times last.

With --baseline the same directories and files lie one level (depth1) or
two levels (depth2) further down, below DEST/all (DEST/all/all), so that
the same rule sees one project: the tree a per-project cost is measured
against (as many entries, one project).

The result depends only on the parameters.  DEST.params records them after
a complete run; when it matches, the tree is reused and nothing is written.
A partial or mismatching tree is moved aside and deleted after the new one
is complete (mktree.py says why: ext4's recently freed inodes).
"""
import argparse
import math
import os
import random
import shutil
import sys
import time

VERSION = 1             # bump when the generator changes shape
NOW = 1_700_000_000     # fixed, so the tree does not depend on today
EXTS = (".c", ".h", ".py", ".txt", ".dat", ".nc", ".h5", ".log", ".json",
        ".csv", ".tar", "")


def project_paths(n, layout):
    """The N project directories, relative to the tree's top."""
    if layout == "depth1":
        return ["p%07d" % i for i in range(n)]
    groups = max(1, round(math.sqrt(n)))
    return ["g%05d/u%07d" % (i % groups, i) for i in range(n)]


def files_of(seed, project, k):
    """The K files of one project: (name, size, atime, mtime). Each
    project draws from its own generator, so workers need no shared
    state and a project's files do not depend on the others'."""
    rng = random.Random(seed * 1_000_003 + project)
    out = []
    for j in range(k):
        size = 0
        if rng.random() >= 0.05:
            size = int(min(rng.lognormvariate(math.log(6000), 2.2), 64 << 30))
        mtime = NOW - int(rng.expovariate(1 / (200 * 86400)))
        atime = max(mtime, NOW - int(rng.expovariate(1 / (60 * 86400))))
        out.append(("f%02d%s" % (j, EXTS[rng.randrange(len(EXTS))]), size,
                    atime, mtime))
    return out


def make_project(top, rel, files):
    d = os.path.join(top, rel)
    os.makedirs(d)
    dfd = os.open(d, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for name, size, atime, mtime in files:
            fd = os.open(name, os.O_CREAT | os.O_EXCL | os.O_WRONLY |
                         os.O_CLOEXEC, 0o644, dir_fd=dfd)
            try:
                if 0 < size < 256:
                    os.write(fd, b"x" * size)
                elif size:
                    os.ftruncate(fd, size)
                os.utime(fd, (atime, mtime))
            finally:
                os.close(fd)
    finally:
        os.close(dfd)


def worker(top, paths, a, w):
    for i in range(w, len(paths), a.jobs):
        make_project(top, paths[i], files_of(a.seed, i, a.files))


def generate(dest, a):
    t0 = time.time()
    top = os.path.join(dest, *(["all"] * (a.baseline_levels)))
    paths = project_paths(a.projects, a.layout)
    os.makedirs(top)
    for g in sorted({os.path.dirname(p) for p in paths} - {""}):
        os.mkdir(os.path.join(top, g))
    pids = []
    for w in range(a.jobs):
        pid = os.fork()
        if pid == 0:
            try:
                worker(top, paths, a, w)
                os._exit(0)
            except BaseException as e:          # report, never fall through
                print("mkprojects: worker %d: %s" % (w, e), file=sys.stderr)
                os._exit(1)
        pids.append(pid)
    bad = 0
    for pid in pids:
        bad |= os.waitpid(pid, 0)[1]
    if bad:
        raise SystemExit("mkprojects: a worker failed")
    # Directory times last: creating entries reset them to now.
    rng = random.Random(a.seed + 1)
    dirs = [os.path.join(top, p) for p in paths]
    dirs += sorted({os.path.dirname(d) for d in dirs})
    dirs += [os.path.join(dest, *(["all"] * k)) for k in
             range(a.baseline_levels - 1, -1, -1)]
    for d in dict.fromkeys(dirs):
        t = NOW - rng.randrange(0, 400 * 86400)
        os.utime(d, (t, t))
    print("mkprojects: %s: %d projects of %d files (%s%s) in %.1f s" %
          (dest, a.projects, a.files, a.layout,
           ", baseline" if a.baseline else "", time.time() - t0),
          file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--projects", type=int, required=True)
    ap.add_argument("--files", type=int, default=5)
    ap.add_argument("--layout", choices=("depth1", "depth2"),
                    default="depth1")
    ap.add_argument("--baseline", action="store_true",
                    help="the same entries in one project")
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--jobs", type=int, default=max(1, os.cpu_count() or 1))
    ap.add_argument("dest")
    a = ap.parse_args()
    if a.projects < 1 or a.files < 0 or a.jobs < 1:
        ap.error("want --projects >= 1, --files >= 0, --jobs >= 1")
    a.baseline_levels = (1 if a.layout == "depth1" else 2) if a.baseline else 0
    dest = os.path.abspath(a.dest)
    marker = dest + ".params"
    params = "version=%d projects=%d files=%d layout=%s seed=%d%s\n" % (
        VERSION, a.projects, a.files, a.layout, a.seed,
        " baseline" if a.baseline else "")
    try:
        with open(marker) as f:
            if f.read() == params and os.path.isdir(dest):
                print("mkprojects: reusing %s (%s)" % (dest, params.strip()),
                      file=sys.stderr)
                return
    except FileNotFoundError:
        pass
    if os.path.lexists(marker):
        os.unlink(marker)
    stale = None
    if os.path.lexists(dest):
        stale = "%s.stale-%d" % (dest, os.getpid())
        print("mkprojects: replacing stale %s" % dest, file=sys.stderr)
        os.rename(dest, stale)
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    generate(dest, a)
    with open(marker, "w") as f:
        f.write(params)
    if stale:
        shutil.rmtree(stale)


if __name__ == "__main__":
    main()
