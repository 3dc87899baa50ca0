#!/usr/bin/env python3
"""pywalk.py: a minimal threaded stat walker, the benchmark's stand-in.

    pywalk.py [-j N] ROOT

Walks ROOT with N threads (directory work items on a shared queue), lstat()s
every entry relative to its open directory (as fsscan does), stays on ROOT's device, and prints "entries files bytes".  It
exists to check the latency-bound harness (delayfs) independently of fsscan:
lstat releases the GIL, so N threads keep N requests in flight.
"""
import argparse
import os
import queue
import stat
import threading


def walk(root, jobs):
    dev = os.lstat(root).st_dev
    work = queue.Queue()
    work.put(root)
    lock = threading.Lock()
    totals = [1, 0, 0]              # entries (ROOT counted), files, bytes
    seen = set()

    def worker():
        entries = files = nbytes = 0
        while True:
            path = work.get()
            if path is None:
                break
            try:
                dfd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
            except OSError:
                work.task_done()
                continue
            try:
                names = os.listdir(dfd)
            except OSError:
                names = []
            for name in names:
                try:
                    st = os.lstat(name, dir_fd=dfd)
                except OSError:
                    continue
                p = os.path.join(path, name)
                if st.st_dev != dev:
                    continue
                entries += 1
                if stat.S_ISDIR(st.st_mode):
                    work.put(p)
                elif stat.S_ISREG(st.st_mode):
                    key = (st.st_dev, st.st_ino)
                    with lock:
                        if st.st_nlink > 1 and key in seen:
                            continue
                        seen.add(key)
                    files += 1
                    nbytes += st.st_size
            os.close(dfd)
            work.task_done()
        with lock:
            totals[0] += entries
            totals[1] += files
            totals[2] += nbytes

    threads = [threading.Thread(target=worker) for _ in range(jobs)]
    for t in threads:
        t.start()
    work.join()
    for _ in threads:
        work.put(None)
    for t in threads:
        t.join()
    return totals


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-j", type=int, default=1)
    ap.add_argument("root")
    a = ap.parse_args()
    print("%d %d %d" % tuple(walk(a.root, a.j)))


if __name__ == "__main__":
    main()
