#!/usr/bin/env python3
"""mkchain.py: a single chain of directories for the depth benchmark.

    mkchain.py --depth N DEST

Creates DEST/d0/d1/.../d9/d0/... (N directories below DEST, names "d" and
the level's last digit, so that the deepest path is 3 N bytes, far past
PATH_MAX), through directory fds only. A marker file DEST.params records
the depth after a complete run; when it matches, the chain is reused.
"""
import argparse
import os
import shutil
import sys


def build(dest, depth):
    os.makedirs(dest)
    fd = os.open(dest, os.O_RDONLY | os.O_DIRECTORY)
    for k in range(depth):
        name = "d%d" % (k % 10)
        os.mkdir(name, dir_fd=fd)
        nfd = os.open(name, os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
        os.close(fd)
        fd = nfd
    os.close(fd)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--depth", type=int, required=True)
    ap.add_argument("dest")
    a = ap.parse_args()
    marker = a.dest + ".params"
    params = "depth=%d\n" % a.depth
    try:
        with open(marker) as f:
            if f.read() == params and os.path.isdir(a.dest):
                return 0
    except OSError:
        pass
    if os.path.lexists(marker):
        os.unlink(marker)
    if os.path.lexists(a.dest):
        shutil.rmtree(a.dest)   # fd-based in Python 3: any depth
    build(a.dest, a.depth)
    with open(marker, "w") as f:
        f.write(params)
    return 0


if __name__ == "__main__":
    sys.exit(main())
