#!/usr/bin/env python3
"""The live test: iostatmon on the real /proc/diskstats sees bytes written
with `dd oflag=direct`.

The device behind the test directory is found independently of iostatmon:
stat(2) st_dev -> /sys/dev/block/MAJ:MIN -> its name, and the whole disk
when it is a partition. While the daemon samples every second with
--all-devices, dd writes 64 MiB with O_DIRECT and fsync; after two more
samples the daemon is stopped, and the wr_sectors deltas of that device
(or of its whole disk) over the run must sum to at least 64 MiB / 512.
Skipped when the directory is not on a block device (tmpfs, overlay) or
O_DIRECT is refused.
"""
import os
import shutil
import signal
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from tap import ok, eq, done, skip  # noqa: E402
import fakeproc  # noqa: E402
from iostatmon_run import Daemon, BIN, logs  # noqa: E402

MIB = 64


def block_device_of(path):
    """(name, whole-disk name) of the block device holding path, or None."""
    st = os.stat(path)
    major, minor = os.major(st.st_dev), os.minor(st.st_dev)
    link = "/sys/dev/block/%d:%d" % (major, minor)
    if major == 0 or not os.path.exists(link):
        return None
    node = os.path.realpath(link)
    name = os.path.basename(node).replace("!", "/")
    whole = name
    if os.path.exists(os.path.join(node, "partition")):
        whole = os.path.basename(os.path.dirname(node)).replace("!", "/")
    return name, whole


def main():
    base = os.environ.get("IOSTATMON_LIVE_DIR") or os.environ.get("TMPDIR") \
        or "/tmp"
    tmp = tempfile.mkdtemp(prefix="t_iostatmon_live.", dir=base)
    try:
        run(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    done()


def run(tmp):
    dev = block_device_of(tmp)
    if dev is None:
        skip("live test", "%s is not on a block device (IOSTATMON_LIVE_DIR"
             " names another directory)" % tmp)
        return
    name, whole = dev
    print("# %s is on %s (whole disk %s)" % (tmp, name, whole))
    logdir = os.path.join(tmp, "log")
    d = Daemon(["-i", "1", "--all-devices", "-o", logdir, "--host", "live",
                "-v"])
    ok(d.wait_written(2), "live: daemon sampling the real diskstats")
    target = os.path.join(tmp, "dd.out")
    p = subprocess.run(["dd", "if=/dev/zero", "of=" + target, "bs=1M",
                        "count=%d" % MIB, "oflag=direct", "conv=fsync"],
                       capture_output=True, text=True)
    if p.returncode != 0:
        d.p.send_signal(signal.SIGTERM)
        d.finish()
        skip("live test: after dd", "dd oflag=direct failed: %s" %
             p.stderr.strip().splitlines()[-1:])
        return
    n = len(d.written())
    ok(d.wait_written(n + 2), "live: two samples after dd")
    d.p.send_signal(signal.SIGTERM)
    eq(d.finish(), 0, "live: SIGTERM exits 0")
    rows, err, st = fakeproc.dump(BIN, logs(logdir))
    eq(st, 0, "live: dump exits 0")
    want = MIB * 1024 * 1024 // 512
    sums = {}
    for r in rows:
        if r["wr_sectors"]:
            sums[r["device"]] = sums.get(r["device"], 0) + int(r["wr_sectors"])
    got = sums.get(name, 0)
    if got < want and whole != name:
        got = sums.get(whole, 0)
    ok(got >= want, "live: %s wrote at least %d sectors" % (name, want),
       "got %d; sums %r" % (got, sums))


if __name__ == "__main__":
    main()
