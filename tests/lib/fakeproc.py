"""fakeproc: a fake --proc/--sys root whose diskstats changes over time,
and the counters it holds, computed here independently of iostatmon.

Version v of the fixture holds, for each device, counters that are pure
functions of v (fields() below): the 32-bit ms fields wrap at 2^32 between
versions 102 and 105 (a root starts near version 101, so every test run
crosses the wraps), some are quadratic so that a delta against the wrong
base shows, and the 64-bit sector counts sit above 2^33.
The device "sda" carries the version itself: in_flight = v and
rd_merges = v, so a decoded sample tells which two versions it spans
(v_cur = in_flight, v_prev = v_cur - delta rd_merges).

A thread publishes version k - k0 at (k - 0.5) * interval (atomic rename),
so a daemon sampling at the boundary k * interval reads version k - k0.
"""
import os
import csv
import io
import subprocess
import threading
import time
from pace import limit

W32 = 1 << 32
W64 = 1 << 64

# (name, major, minor, columns after the name: 4, 11, 15 or 17)
DEVICES = [
    ("sda", 8, 0, 17),
    ("sdb", 8, 16, 11),
    ("cciss/c0d0", 104, 0, 15),
    ("sdc1", 8, 33, 4),
]

FIELD_NAMES = ["rd_ios", "rd_merges", "rd_sectors", "rd_ms", "wr_ios",
               "wr_merges", "wr_sectors", "wr_ms", "in_flight", "io_ms",
               "weighted_ms", "dc_ios", "dc_merges", "dc_sectors", "dc_ms",
               "fl_ios", "fl_ms"]
MS_FIELDS = {"rd_ms", "wr_ms", "io_ms", "weighted_ms", "dc_ms", "fl_ms"}


def fields(dev_index, v):
    """All 17 counters of device dev_index at version v (64-bit kernel)."""
    d = dev_index
    f = {
        "rd_ios": v * v + 7 * v + 1000 * d,
        "rd_merges": v if d == 0 else 3 * v + d,
        "rd_sectors": 8 * (v * v + 7 * v) + 5000 + d,
        "rd_ms": (W32 + 1000 * (v - 103)) % W32,
        "wr_ios": 2 * v * v + 11 + d,
        "wr_merges": 3 * v,
        "wr_sectors": 1024 * v + (1 << 33) + d,
        "wr_ms": (W32 + 37 * (v * v - 103 * 103)) % W32,
        "in_flight": v if d == 0 else v % 5,
        "io_ms": (W32 + 50 * (v - 104)) % W32,
        "weighted_ms": (W32 + 300 * (v - 102)) % W32,
        "dc_ios": v // 2,
        "dc_merges": 0,
        "dc_sectors": 16 * (v // 2),
        "dc_ms": (W32 + 3 * (v - 105)) % W32,
        "fl_ios": v,
        "fl_ms": 2 * v,
    }
    return f


def present(ncols):
    """Field names a line with ncols counters provides."""
    if ncols == 4:
        return ["rd_ios", "rd_sectors", "wr_ios", "wr_sectors"]
    return FIELD_NAMES[:ncols]


def line(dev_index, v):
    name, major, minor, ncols = DEVICES[dev_index]
    f = fields(dev_index, v)
    vals = " ".join(str(f[k]) for k in present(ncols))
    return "%4d %7d %s %s\n" % (major, minor, name, vals)


def expected_delta(dev_index, v_prev, v_cur):
    """{field: delta or gauge value} for the fields the device has."""
    a, b = fields(dev_index, v_prev), fields(dev_index, v_cur)
    out = {}
    for k in present(DEVICES[dev_index][3]):
        if k == "in_flight":
            out[k] = b[k]
        else:
            out[k] = (b[k] - a[k]) % (W32 if k in MS_FIELDS else W64)
    return out


class FakeRoot:
    """proc/ and sys/ under base, with a publishing thread."""

    def __init__(self, base, interval, devices=None):
        self.base, self.interval = base, interval
        self.proc = os.path.join(base, "proc")
        self.sys = os.path.join(base, "sys")
        self.devices = list(range(len(DEVICES))) if devices is None else devices
        self.published = set()
        # versions count boundaries from a little before now, so that the
        # counters stay far from 2^64 while the 32-bit ones wrap early
        self.k0 = int(time.time() / interval) - 100
        self.version = None
        self._stop = threading.Event()
        self._thread = None
        self._lock = threading.Lock()
        for d in ("proc/self", "proc/sys/kernel/random", "sys/block"):
            os.makedirs(os.path.join(base, d), exist_ok=True)
        self._write("proc/self/mountinfo", "")
        self._write("proc/swaps",
                    "Filename\tType\tSize\tUsed\tPriority\n")
        self.set_boot_id("0f0e0d0c-0b0a-4009-8807-060504030201")
        for i in range(len(DEVICES)):
            self._sys_dev(i)
        for dirpath, dirnames, filenames in os.walk(base):
            os.chmod(dirpath, 0o755)
            for fn in filenames:
                os.chmod(os.path.join(dirpath, fn), 0o644)

    def _write(self, rel, text):
        path = os.path.join(self.base, rel)
        tmp = path + ".tmp"
        with open(tmp, "w") as f:
            f.write(text)
        os.chmod(tmp, 0o644)
        os.rename(tmp, path)

    def _sys_dev(self, i):
        name, major, minor, _ = DEVICES[i]
        d = os.path.join(self.sys, "block", name.replace("/", "!"))
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "dev"), "w") as f:
            f.write("%d:%d\n" % (major, minor))
        with open(os.path.join(d, "size"), "w") as f:
            f.write("1048576\n")

    def set_boot_id(self, boot_id):
        self._write("proc/sys/kernel/random/boot_id", boot_id + "\n")

    def set_devices(self, devices):
        """Change the device list; takes effect at the next publish."""
        with self._lock:
            self.devices = list(devices)

    def publish(self, v):
        with self._lock:
            text = "".join(line(i, v) for i in self.devices)
            self._write("proc/diskstats", text)
            self.published.add(v)
            self.version = v

    def _run(self):
        iv = self.interval
        while not self._stop.is_set():
            now = time.time()
            k = int(now / iv) + 1           # next boundary
            at = (k - 0.5) * iv
            if at <= now:
                k += 1
                at += iv
            if self._stop.wait(at - now):
                break
            self.publish(k - self.k0)

    def start(self):
        self.publish(int(time.time() / self.interval) + 1 - self.k0)
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def stop(self):
        self._stop.set()
        if self._thread:
            self._thread.join()


def dump(binary, paths):
    """Run `iostatmon dump` on paths: (rows as dicts, stderr, status)."""
    p = subprocess.run([binary, "dump"] + list(paths), capture_output=True,
                       text=True, timeout=limit(120))
    rows = list(csv.DictReader(io.StringIO(p.stdout)))
    return rows, p.stderr, p.returncode


def t_ns(t):
    """The dump's t column ("SEC.NNNNNNNNN" or "SEC") as integer ns."""
    if "." in t:
        s, frac = t.split(".")
        return int(s) * 10**9 + int((frac + "000000000")[:9])
    return int(t) * 10**9


def check_rows(rows, dev_names=None):
    """Compare every row with the fixture's counters. Returns (number of
    rows checked, list of problems). The versions of a row's interval come
    from sda's row with the same t."""
    names = [d[0] for d in DEVICES]
    by_t = {}
    for r in rows:
        if r["device"] == "sda":
            v_cur = int(r["in_flight"])
            by_t[r["t"]] = (v_cur - int(r["rd_merges"]), v_cur)
    problems, n = [], 0
    for r in rows:
        if r["device"] not in names:
            problems.append("unknown device %s" % r["device"])
            continue
        if r["t"] not in by_t:
            problems.append("%s t=%s: no sda row" % (r["device"], r["t"]))
            continue
        i = names.index(r["device"])
        vp, vc = by_t[r["t"]]
        want = expected_delta(i, vp, vc)
        for k in FIELD_NAMES:
            got = r[k]
            if k in want:
                if got == "" or int(got) != want[k]:
                    problems.append("%s t=%s v%d..%d %s: got %r want %d" % (
                        r["device"], r["t"], vp, vc, k, got, want[k]))
            elif got != "":
                problems.append("%s t=%s %s: got %r, want empty" % (
                    r["device"], r["t"], k, got))
        n += 1
    return n, problems


def _varint(b, i):
    v = shift = 0
    while True:
        c = b[i]
        i += 1
        v |= (c & 0x7F) << shift
        shift += 7
        if not c & 0x80:
            return v, i


def frame_clocks(path):
    """[(member, type, seq, realtime_ns, flags, missed)] for every K and S
    frame (a P, the S of version 2, as "S": the same sample header) of a
    complete log, read here from docs/iolog-format.md alone:
    gzip members (zlib), frames "varint LEN | body | u32le CRC32"."""
    import zlib
    data = open(path, "rb").read()
    out, member = [], 0
    while data:
        d = zlib.decompressobj(31)           # one gzip member
        raw = d.decompress(data)
        if not d.eof:
            raise ValueError("%s: member %d incomplete" % (path, member))
        data = d.unused_data
        i = 0
        while i < len(raw):
            n, i = _varint(raw, i)
            body = raw[i:i + n]
            i += n + 4
            if body[:1] in (b"K", b"S", b"P"):
                vals, j = [], 1
                for _ in range(7):
                    v, j = _varint(body, j)
                    vals.append(v)
                seq, rt, mono, boot, read_ns, flags, missed = vals
                out.append((member, chr(body[0]).replace("P", "S"), seq, rt,
                            flags, missed))
        member += 1
    return out
