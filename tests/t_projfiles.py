#!/usr/bin/env python3
"""t_projfiles: the files of --project rules are read whole or not at all.

- A map, gidmap or projid file whose read fails part-way (served by
  tests/helpers/delayfs with eio_after=N: reads fail with EIO from byte N)
  is an error naming the file and the errno, exit 2, and no snapshot is
  written; the cut falls inside a line that would parse on its own.
- Every rule file is bounded: map:/dev/zero (a NUL byte), a FIFO that
  never ends (the size limit), and a line longer than the line limit are
  errors with a clear message, in bounded memory and time; a line of
  exactly the limit is accepted.
"""
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "lib"))
from tap import done, eq, ok, skip  # noqa: E402

BUILD = os.environ.get("BUILD") or os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "build")
FSSCAN = os.path.join(BUILD, "fsscan")
DELAYFS = os.path.join(BUILD, "tests", "delayfs")
FILE_MAX = 64 << 20                # lib/lines.h LINES_FILE_MAX
LINE_MAX = 65536                   # LINES_LINE_MAX
RSS_MAX = 256 << 20                # what a bounded read may cost, ASan too
TMP = tempfile.mkdtemp(prefix="t_projfiles.", dir=os.environ.get("TMPDIR"))


def rss(pid):
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def scan(rules, env=None, limit=60):
    """fsscan with rules on a small tree; stopped if it runs past limit
    seconds or RSS_MAX bytes. (rc, stderr, peak rss, db)."""
    db = tempfile.mktemp(prefix="db.", dir=TMP)
    args = [FSSCAN, "--db", db, "--quiet"]
    for r in rules:
        args += ["--project", r]
    e = dict(os.environ)
    e.update(env or {})
    p = subprocess.Popen(args + [os.path.join(TMP, "tree")], env=e,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = []
    t = threading.Thread(target=lambda: err.append(p.stderr.read()))
    t.start()
    peak, end, killed = 0, time.time() + limit, None
    while True:
        pid, status, ru = os.wait4(p.pid, os.WNOHANG)
        if pid:     # ru_maxrss: the child's peak, however short its life
            p.returncode = os.waitstatus_to_exitcode(status)
            peak = max(peak, ru.ru_maxrss * 1024)
            break
        peak = max(peak, rss(p.pid))
        if not killed and (peak > RSS_MAX or time.time() > end):
            killed = "killed at %d MiB after %s" % (
                peak >> 20, "the time limit" if peak <= RSS_MAX else
                "the memory limit")
            p.send_signal(signal.SIGKILL)
        time.sleep(0.02)
    t.join()
    if killed:
        return -9, killed, peak, db
    return p.returncode, err[0].decode(errors="replace"), peak, db


def snapshots(db):
    if not os.path.exists(db):
        return 0
    c = sqlite3.connect(db)
    try:
        return c.execute("SELECT count(*) FROM snapshot").fetchone()[0]
    except sqlite3.Error:
        return 0
    finally:
        c.close()


def lines_file(path, fmt, n, cut_line, keep):
    """Write n lines; return the offset of `keep` bytes into line
    cut_line (0-based)."""
    lines = [fmt(i) for i in range(n)]
    with open(path, "w") as f:
        f.write("".join(lines))
    return len("".join(lines[:cut_line])) + keep


def failing_reads():
    """Rule files through delayfs, their reads failing at byte CUT."""
    if not os.path.exists("/dev/fuse"):
        skip("read failures", "no /dev/fuse", needs="/dev/fuse")
        return
    if not os.access(DELAYFS, os.X_OK):
        skip("read failures", "tests/delayfs not built", needs="delayfs")
        return
    src, mnt = os.path.join(TMP, "src"), os.path.join(TMP, "mnt")
    os.mkdir(src)
    os.mkdir(mnt)
    # cut inside line 700 of each, where what is left of the line parses
    cut = {
        "map": lines_file(os.path.join(src, "map"), lambda i:
                          "d%04d proj%04d\n" % (i, i), 2000, 700,
                          len("d0700 pro")),
        "gids": lines_file(os.path.join(src, "gids"), lambda i:
                           "%d proj%04d\n" % (10000 + i, i), 2000, 700,
                           len("10700 pro")),
        "projid": lines_file(os.path.join(src, "projid"), lambda i:
                             "proj%04d:%d\n" % (i, 100000 + i), 2000, 700,
                             len("proj0700:100")),
    }
    for name, at in cut.items():
        m = os.path.join(mnt, name)
        if subprocess.run([DELAYFS, "-o", "delay_us=0", "-o",
                           "eio_after=%d" % at, src, mnt]).returncode != 0:
            ok(False, "delayfs mounts")
            return
        try:
            with open(m, "rb") as f:
                try:
                    f.read()
                    broke = False
                except OSError:
                    broke = True
            ok(broke, "%s: the file's read really fails at byte %d"
               % (name, at))
            if name == "projid":
                rc, err, peak, db = scan(["projid"],
                                         {"IOCENSUS_PROJID_FILE": m})
                label = "projid"
            else:
                label = ("map:" if name == "map" else "gidmap:") + m
                rc, err, peak, db = scan([label])
            eq(rc, 2, "%s read failing at byte %d: exit 2" % (name, at))
            ok("Input/output error" in err and m in err and
               "after %d bytes" % at in err,
               "%s: the error names the file, the errno and where" % name,
               err)
            eq(snapshots(db), 0, "%s: no snapshot recorded" % name)
        finally:
            subprocess.run(["fusermount3", "-u", mnt])


def bounds():
    # map:/dev/zero: one endless line of NUL bytes
    rc, err, peak, db = scan(["map:/dev/zero"], limit=20)
    eq(rc, 2, "map:/dev/zero: exit 2")
    ok("/dev/zero line 1" in err and "NUL" in err,
       "map:/dev/zero: says which line and why", err)
    ok(0 < peak < RSS_MAX, "map:/dev/zero: memory stays bounded",
       "%d MiB" % (peak >> 20))

    # a FIFO that never ends: valid comment lines past the size limit
    fifo = os.path.join(TMP, "fifo")
    os.mkfifo(fifo)

    def feed():
        try:
            with open(fifo, "w") as f:
                block = ("# " + "x" * 60 + "\n") * 1024
                while True:
                    f.write(block)
        except OSError:
            pass
    t = threading.Thread(target=feed, daemon=True)
    t.start()
    rc, err, peak, db = scan(["gidmap:" + fifo], limit=30)
    eq(rc, 2, "gidmap from an endless FIFO: exit 2")
    ok("larger than %d MiB" % (FILE_MAX >> 20) in err and fifo in err,
       "endless FIFO: names the file and the size limit", err)
    ok(peak < RSS_MAX, "endless FIFO: memory stays bounded",
       "%d MiB" % (peak >> 20))

    # a line one byte over the limit, and one exactly at it
    big = os.path.join(TMP, "longline")
    with open(big, "w") as f:
        f.write("a A\n# " + "y" * (LINE_MAX - 1) + "\nb B\n")
    rc, err, peak, db = scan(["map:" + big])
    eq(rc, 2, "a line of %d bytes: exit 2" % (LINE_MAX + 1))
    ok("line 2" in err and "longer than %d bytes" % LINE_MAX in err,
       "a long line: names the line and the limit", err)
    with open(big, "w") as f:
        f.write("a A\n# " + "y" * (LINE_MAX - 2) + "\nb B\n")
    rc, err, peak, db = scan(["map:" + big])
    eq(rc, 0, "a line of exactly %d bytes: accepted (%s)"
       % (LINE_MAX, err.strip()))

    nul = os.path.join(TMP, "nul")
    with open(nul, "wb") as f:
        f.write(b"a A\nb\0 B\n")
    rc, err, peak, db = scan(["map:" + nul])
    ok(rc == 2 and "line 2" in err and "NUL" in err,
       "a NUL byte inside a line: error naming line 2", err)


def main():
    os.makedirs(os.path.join(TMP, "tree", "d0001"))
    try:
        failing_reads()
        bounds()
    finally:
        shutil.rmtree(TMP, ignore_errors=True)
    done()


main()
