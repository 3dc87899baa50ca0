"""diskgen: generate raw diskstats captures, and know what they mean.

A capture is what `iostatmon import` reads: "T <unix-seconds>" lines, each
followed by /proc/diskstats lines. The generator keeps every counter as an
unbounded Python int and prints it modulo its kernel width (32 bits for the
ms fields, the kernel's long for ios/merges/sectors), so wraps happen the
way the kernel makes them. It records the ground truth next to the text:
which intervals are unknown (reboot, device gone or new, a 64-bit counter
going backwards) and the exact deltas, so a test can compute the expected
`iostatmon dump` rows without the code under test.

    from diskgen import Capture
    c = Capture(long_bits=64, seed=1)
    c.add("sda", 8, 0, ncols=20)
    c.add("cciss/c0d0", 104, 0, ncols=14)
    for i in range(10):
        c.sample(60, active=0.5)
    text = c.text()
    rows = c.expected_rows("host1")      # dump CSV rows, as lists of str

Command line (for benchmarks):
    python3 diskgen.py --devices 100 --samples 1440 --active 0.2 --seed 1
"""
import argparse
import random
import sys

NAMES = ["rd_ios", "rd_merges", "rd_sectors", "rd_ms",
         "wr_ios", "wr_merges", "wr_sectors", "wr_ms",
         "in_flight", "io_ms", "weighted_ms",
         "dc_ios", "dc_merges", "dc_sectors", "dc_ms",
         "fl_ios", "fl_ms"]
MS_FIELDS = {3, 7, 9, 10, 14, 16}
IN_FLIGHT = 8
SHORT_FIELDS = [0, 2, 4, 6]          # the 4 counters of a 7-column line
IOS_MS = {0: 3, 4: 7, 11: 14, 15: 16}


def fields_of(ncols):
    """Field indexes present on a line of ncols columns."""
    if ncols == 7:
        return list(SHORT_FIELDS)
    return list(range(ncols - 3))


def width(f, long_bits):
    return 32 if f in MS_FIELDS or f == IN_FLIGHT else long_bits


class Device:
    def __init__(self, name, major, minor, ncols, epoch, start):
        self.name, self.major, self.minor = name, major, minor
        self.ncols, self.epoch = ncols, epoch
        self.fields = fields_of(ncols)
        self.v = {f: 0 for f in self.fields}
        for f, x in (start or {}).items():
            if f in self.v:
                self.v[f] = x


class Capture:
    def __init__(self, long_bits=64, seed=0, t0=1700000000):
        self.long_bits = long_bits
        self.rng = random.Random(seed)
        self.t = t0
        self.present = {}          # name -> Device, in insertion order
        self.blocks = []           # (t, [(name, major, minor, ncols, epoch, {f: printed})])
        self.unknown = set()       # (block index, name): interval unknown
        self.epochs = 0
        self.pending_reset = set()

    # ---- topology ----
    def add(self, name, major, minor, ncols=20, start=None):
        """A device appears (or comes back: a new epoch either way)."""
        self.epochs += 1
        self.present[name] = Device(name, major, minor, ncols, self.epochs,
                                    start)

    def remove(self, name):
        del self.present[name]

    def reboot(self):
        """Counters restart from small values (lower than before)."""
        for d in self.present.values():
            for f in d.fields:
                d.v[f] = self.rng.randint(0, 3) if f != IN_FLIGHT else 0
            self.pending_reset.add(d.name)

    # ---- activity ----
    def _advance(self, d, dt, busy):
        r = self.rng
        v = d.v
        if not busy:
            if IN_FLIGHT in v:
                v[IN_FLIGHT] = 0
            return
        ms_sum = 0
        for ios, scale in ((0, 3000), (4, 3000), (11, 40), (15, 200)):
            if ios not in v:
                continue
            n = r.randint(0, scale) * dt // 60 + r.randint(0, 3)
            v[ios] += n
            if ios + 1 in v and ios != 15:
                v[ios + 1] += r.randint(0, n // 4 + 1)            # merges
            if ios + 2 in v and ios != 15:
                v[ios + 2] += n * r.choice((1, 8, 16, 64, 256))   # sectors
            ms = IOS_MS[ios]
            if ms in v:
                lat = n * r.randint(0, 12) + r.randint(0, 2)
                v[ms] += lat
                ms_sum += lat
        if 9 in v:
            v[9] += r.randint(0, dt * 1000 * 95 // 100)
        if 10 in v:
            v[10] += ms_sum
        if IN_FLIGHT in v:
            v[IN_FLIGHT] = r.randint(0, 32)
        for f in d.fields:
            if f > 16:                      # fields later kernels add
                v[f] += r.randint(0, 5)

    def sample(self, dt=60, active=0.5, busy_names=None):
        """Advance time by dt seconds and take one snapshot. Each device is
        active with probability `active` (or exactly those in busy_names)."""
        prev = self.blocks[-1] if self.blocks else None
        if prev is not None:
            self.t += dt
            for d in self.present.values():
                busy = (d.name in busy_names if busy_names is not None
                        else self.rng.random() < active)
                self._advance(d, dt, busy)
        self._snapshot()

    def _snapshot(self):
        j = len(self.blocks)
        lines = []
        prev = {x[0]: x for x in self.blocks[-1][1]} if self.blocks else {}
        for d in self.present.values():
            printed = {f: d.v[f] % (1 << width(f, self.long_bits))
                       for f in d.fields}
            lines.append((d.name, d.major, d.minor, d.ncols, d.epoch, printed))
            p = prev.get(d.name)
            if d.name in self.pending_reset or (p and self._backwards(p[5], d, printed)):
                self.unknown.add((j, d.name))
        self.pending_reset.clear()
        self.blocks.append((self.t, lines))

    def _backwards(self, pp, d, printed):
        """The logged policy's unknowables: a long field going backwards on
        a 64-bit kernel (a 2^64 wrap is never believed), or on a 32-bit one
        an ios counter and its ms field both going backwards."""
        for f in d.fields:
            if f == IN_FLIGHT or f not in pp:
                continue
            if self.long_bits == 64 and width(f, 64) == 64 and printed[f] < pp[f]:
                return True
        if self.long_bits == 32:
            for ios, ms in IOS_MS.items():
                if ios in printed and ms in printed and ios in pp and ms in pp:
                    if printed[ios] < pp[ios] and printed[ms] < pp[ms]:
                        return True
        return False

    # ---- output ----
    @staticmethod
    def format_line(name, major, minor, ncols, printed):
        vals = ["%d" % printed[f] for f in fields_of(ncols)]
        return "%4d %7d %s %s" % (major, minor, name, " ".join(vals))

    def block_text(self, j):
        t, lines = self.blocks[j]
        return "".join(self.format_line(n, ma, mi, nc, p) + "\n"
                       for n, ma, mi, nc, _, p in lines)

    def text(self):
        out = []
        for j, (t, _) in enumerate(self.blocks):
            out.append("T %d\n" % t)
            out.append(self.block_text(j))
        return "".join(out)

    # ---- the oracle ----
    def deltas(self, j, name):
        """{field: delta or in_flight value} for interval j of a device, or
        None when the interval is unknown."""
        if j == 0 or (j, name) in self.unknown:
            return None
        prev = {x[0]: x for x in self.blocks[j - 1][1]}
        cur = {x[0]: x for x in self.blocks[j][1]}
        if name not in prev or name not in cur:
            return None
        p, c = prev[name], cur[name]
        if p[4] != c[4]:                      # another epoch
            return None
        out = {}
        for f in fields_of(c[3]):
            if f == IN_FLIGHT:
                out[f] = c[5][f]
            else:
                out[f] = (c[5][f] - p[5][f]) % (1 << width(f, self.long_bits))
        return out

    def expected_rows(self, host):
        """dump CSV rows (lists of str) in (t, device) order."""
        rows = []
        for j in range(1, len(self.blocks)):
            t, lines = self.blocks[j]
            dt = t - self.blocks[j - 1][0]
            for name, _, _, ncols, _, _ in lines:
                d = self.deltas(j, name)
                if d is None:
                    continue
                row = [host, name, str(t), str(dt)]
                row += [str(d[f]) if f in d else "" for f in range(17)]
                rows.append(row)
        rows.sort(key=lambda r: (int(r[2]), r[1]))
        return rows


def day(devices=100, samples=1440, active=0.2, seed=1, dt=60):
    """A day of a storage server: whole disks of 20 columns, with minutes
    of activity correlated across devices (bursts hit many LUNs at once)."""
    c = Capture(seed=seed)
    for i in range(devices):
        c.add("sd%s" % _letters(i), 8 + 57 * (i // 16), (i % 16) * 16, 20,
              start={f: c.rng.randint(10**6, 10**9) for f in range(17)})
    # A two-state burst process: in a burst minute a device is active with
    # p_b, otherwise with p_q; bursts last 5 minutes on average, and the
    # share of burst minutes makes the mean exactly `active`.
    r = random.Random(seed + 1)
    p_b, p_q = min(1.0, 2 * active), active / 2
    share = (active - p_q) / (p_b - p_q) if p_b > p_q else 0.0
    enter = min(1.0, 0.2 * share / (1 - share)) if share < 1 else 1.0
    burst = False
    for _ in range(samples):
        burst = r.random() < (0.8 if burst else enter)
        c.sample(dt, active=p_b if burst else p_q)
    return c


def _letters(i):
    s = ""
    i += 1
    while i:
        i, m = divmod(i - 1, 26)
        s = chr(97 + m) + s
    return s


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--devices", type=int, default=100)
    ap.add_argument("--samples", type=int, default=1440)
    ap.add_argument("--active", type=float, default=0.2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--interval", type=int, default=60)
    a = ap.parse_args()
    sys.stdout.write(day(a.devices, a.samples, a.active, a.seed,
                         a.interval).text())


if __name__ == "__main__":
    main()
