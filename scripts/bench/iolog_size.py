#!/usr/bin/env python3
"""iolog_size: bytes per device per day of the iostatmon log, against sysstat's
sa file and gzip of the raw /proc/diskstats text, for a generated 100-device
day sampled every 60 s (tests/lib/diskgen.py), mostly idle and busy.

For each day:
  raw        the raw capture text (`T` line + diskstats lines per sample)
  gzip -6    the whole day's raw text through the gzip program, at once
  gzip sync  the raw text as one gzip stream with Z_SYNC_FLUSH after every
             sample (what a crash-safe raw logger would have to write)
  sa         sysstat's sa file holding disk activity only: 80 B per device
             per record (A_DISK's composition (3,3,8) = 3 u64 + 3 long +
             8 int, as `sadf -H` of a file written by this machine's sadc
             shows) plus 28 B of record header and item count per record.
             sadc only reads the live /proc, so the file cannot be produced
             from generated counters; its size does not depend on them.
  iolog      `iostatmon import` of the capture into one log file

Usage: iolog_size.py [--iostatmon BIN] [--devices N] [--samples N] [--seed N]
Prints a table; the goal is iolog <= sa/10 and iolog <= gzip-raw/2 (against
both gzip variants). Exit status 0 (a missed goal is reported, not fatal).
"""
import argparse
import gzip
import os
import subprocess
import sys
import tempfile
import zlib

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(TOP, "tests", "lib"))
import diskgen                      # noqa: E402

SA_DISK_ITEM = 80
SA_RECORD_OVERHEAD = 28


def sa_disk_item_size():
    """A_DISK's item size from this machine's sadc, or None."""
    sadc = "/usr/lib/sysstat/sadc"
    if not os.access(sadc, os.X_OK):
        return None
    with tempfile.TemporaryDirectory() as d:
        f = os.path.join(d, "sa")
        if subprocess.run([sadc, "-S", "DISK", "1", "1", f],
                          capture_output=True).returncode:
            return None
        out = subprocess.run(["sadf", "-H", f], capture_output=True,
                             text=True).stdout
    for line in out.splitlines():
        if "A_DISK" in line and "(" in line:
            ull, ul, u = (int(x) for x in line.rsplit("(", 1)[1].rstrip(")").split(","))
            return 8 * ull + 8 * ul + 4 * u
    return None


def gzip_sync(cap):
    z = zlib.compressobj(6, zlib.DEFLATED, 31)
    n = 0
    for j, (t, _) in enumerate(cap.blocks):
        n += len(z.compress(("T %d\n" % t + cap.block_text(j)).encode()))
        n += len(z.flush(zlib.Z_SYNC_FLUSH))
    return n + len(z.flush(zlib.Z_FINISH))


def active_share(cap):
    """Share of device-intervals in which any counter moved."""
    moved = total = 0
    for j in range(1, len(cap.blocks)):
        for name, *_ in cap.blocks[j][1]:
            d = cap.deltas(j, name)
            if d is None:
                continue
            total += 1
            moved += any(v for f, v in d.items() if f != diskgen.IN_FLIGHT)
    return moved / max(1, total)


def frame_bytes(path):
    """Uncompressed bytes of the log per frame type (docs/iolog-format.md:
    varint LEN, body, u32 CRC; body[0] is the type)."""
    with gzip.open(path) as g:
        data = g.read()
    out, i = {}, 0
    while i < len(data):
        n = shift = 0
        while True:
            b = data[i]
            i += 1
            n |= (b & 0x7F) << shift
            shift += 7
            if not b & 0x80:
                break
        kind = chr(data[i])
        out[kind] = out.get(kind, 0) + n + 4
        i += n + 4
    return out


def measure(binary, active, devices, samples, seed, tmp):
    cap = diskgen.day(devices, samples, active, seed)
    text = cap.text().encode()
    raw = os.path.join(tmp, "day-%s.raw" % active)
    log = os.path.join(tmp, "day-%s.iolog.gz" % active)
    with open(raw, "wb") as f:
        f.write(text)
    p = subprocess.run([binary, "import", raw, "--host", "bench", "--out", log],
                       capture_output=True, text=True)
    if p.returncode:
        sys.exit("iolog_size: import failed: %s" % p.stderr)
    gz6 = len(subprocess.run(["gzip", "-6", "-c", raw], capture_output=True).stdout)
    return {
        "frames": frame_bytes(log),
        "active": active_share(cap),
        "raw": len(text),
        "gzip -6": gz6,
        "gzip sync": gzip_sync(cap),
        "sa": samples * (devices * SA_DISK_ITEM + SA_RECORD_OVERHEAD),
        "iolog": os.path.getsize(log),
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--iostatmon", default=os.path.join(
        os.environ.get("BUILD", os.path.join(TOP, "build")), "iostatmon"))
    ap.add_argument("--devices", type=int, default=100)
    ap.add_argument("--samples", type=int, default=1440)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    item = sa_disk_item_size()
    print("sa A_DISK item size from this sadc: %s B (used: %d B)"
          % (item if item else "unknown", SA_DISK_ITEM))
    per = a.devices  # bytes per device per day = total / devices
    with tempfile.TemporaryDirectory() as tmp:
        days = [("mostly idle", measure(a.iostatmon, 0.2, a.devices, a.samples, a.seed, tmp)),
                ("busy", measure(a.iostatmon, 0.9, a.devices, a.samples, a.seed, tmp))]
    print("%d devices, %d samples at 60 s; bytes per day (bytes per device per day)"
          % (a.devices, a.samples))
    print("%-12s" % "" + "".join("%28s" % ("%s (%.0f%% active)" % (n, 100 * r["active"]))
                                 for n, r in days))
    for k in ("raw", "gzip -6", "gzip sync", "sa", "iolog"):
        print("%-12s" % k + "".join("%16d (%9.0f)" % (r[k], r[k] / per) for _, r in days))
    for n, r in days:
        print("%s: uncompressed log bytes by frame type: %s" % (n, ", ".join(
            "%s %d" % kv for kv in sorted(r["frames"].items()))))
    for n, r in days:
        for ref, goal in (("sa", 10), ("gzip sync", 2), ("gzip -6", 2)):
            ratio = r[ref] / r["iolog"]
            print("%s: iolog is 1/%.1f of %s (goal 1/%d): %s"
                  % (n, ratio, ref, goal, "pass" if ratio >= goal else "miss"))


if __name__ == "__main__":
    main()
