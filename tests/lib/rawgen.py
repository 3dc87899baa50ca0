"""rawgen: raw diskstats captures of many hosts, for the iocensus tests.

A capture is what `iostatmon import` reads: "T <unix-seconds>" lines, each
followed by /proc/diskstats lines (20 columns). Counters are Python ints,
printed modulo their kernel width (2^32 for the ms fields, 2^64 for the
rest), and they move consistently: sectors are ios times a request size,
ms fields are ios times a latency, io_ms never exceeds 95% of the interval
(so iostatmon's plausibility checks never fire by accident).

Load: one system-wide load level per interval (bursts hit every server at
once): most intervals low (0.2% to 3% of each device's capacity), bursts
of a few minutes at 30% to 100%, and the knobs below on top.

    from rawgen import Dataset
    ds = Dataset(seed=1, hosts=4, devs_per_host=3, start=1700000000 // 3600 * 3600,
                 minutes=3 * 1440)
    ds.idle(t_from, t_to)               # no I/O at all (every counter still)
    ds.idle_run(t, 60)                  # exactly 60 idle minutes [t, t+3600),
                                        # with a busy minute on each side
    ds.burst(t_from, t_to, level=0.8)
    ds.missing(t_from, t_to)            # no T blocks in [t_from, t_to)
    ds.missing(t_from, t_to, host="h002")
    ds.reboot("h001", t)                # every counter of h001 restarts at
                                        # the first block at or after t
    ds.device_window("h003", "sdb", t_from=t1)    # appears late
    ds.device_window("h000", "sdc", t_to=t2)      # disappears early
    ds.jitter("h002", ms=5)             # T lines like "T 1700000060.003"
    paths = ds.write(dirpath)           # dirpath/HOST.raw per host

Times are unix seconds; [t_from, t_to) windows select the intervals that
lie inside them (idle) or meet them (burst). Knobs apply in the order
given; later ones win. With interval dividing 60 and a minute-aligned
start, sample intervals are minute-aligned and idle_run is exact.
"""
import os
import random

from diskgen import _letters

MS_FIELDS = {3, 7, 9, 10, 14, 16}       # printed modulo 2^32 (with in_flight)


def host_name(i):
    return "h%03d" % i


def dev_name(i):
    return "sd" + _letters(i)


class _Dev:
    def __init__(self, rng, name, major, minor):
        self.name, self.major, self.minor = name, major, minor
        # capacity in bytes/s, read share, request sizes in sectors
        self.cap = rng.choice((200, 500, 1000, 2000)) * 2 ** 20
        self.rshare = rng.uniform(0.2, 0.8)
        self.rreq = rng.choice((8, 16, 64, 128, 256))
        self.wreq = rng.choice((8, 16, 64, 128, 256))
        self.v0 = [rng.randint(10 ** 6, 10 ** 12) for _ in range(17)]
        self.v0[8] = 0
        self.v = list(self.v0)
        self.t_from = None       # present only for blocks with T in [from, to)
        self.t_to = None

    def present(self, t):
        return ((self.t_from is None or t >= self.t_from) and
                (self.t_to is None or t < self.t_to))


class Dataset:
    def __init__(self, seed, hosts, devs_per_host, start, minutes, interval=60):
        self.seed = seed
        self.rng = random.Random(seed)
        self.start = start
        self.interval = interval
        self.nblocks = minutes * 60 // interval + 1
        names = ([host_name(i) for i in range(hosts)] if isinstance(hosts, int)
                 else list(hosts))
        self.hosts = names
        self.devs = {}
        for h in names:
            self.devs[h] = [_Dev(self.rng, dev_name(i), 8 + 65 * (i // 16),
                                 (i % 16) * 16) for i in range(devs_per_host)]
        self.level = self._load_process()
        self.host_level = {}        # host -> {block: level}
        self.gone = {h: set() for h in names}       # blocks not written
        self.reboots = {h: set() for h in names}    # block indexes
        self.jit = {h: 0 for h in names}
        self.exact = set()          # blocks never jittered (idle runs)

    # ---- times
    def block_t(self, j):
        return self.start + j * self.interval

    def _blocks_inside(self, t_from, t_to):
        """Blocks whose interval (T - interval, T] lies in [t_from, t_to)."""
        return [j for j in range(1, self.nblocks)
                if self.block_t(j - 1) >= t_from and self.block_t(j) <= t_to]

    def _blocks_meeting(self, t_from, t_to):
        return [j for j in range(1, self.nblocks)
                if self.block_t(j - 1) < t_to and self.block_t(j) > t_from]

    # ---- load
    def _load_process(self):
        r = self.rng
        out = [0.0] * self.nblocks
        burst = False
        for j in range(1, self.nblocks):
            burst = r.random() < (0.75 if burst else 0.02)
            out[j] = r.uniform(0.3, 1.0) if burst else r.uniform(0.002, 0.03)
        return out

    def _set(self, blocks, level, hosts):
        for j in blocks:
            if hosts is None:
                self.level[j] = level
                for hl in self.host_level.values():
                    hl.pop(j, None)
            else:
                for h in hosts:
                    self.host_level.setdefault(h, {})[j] = level

    def idle(self, t_from, t_to, hosts=None):
        """No I/O at all in the intervals inside [t_from, t_to)."""
        self._set(self._blocks_inside(t_from, t_to), 0.0, hosts)

    def burst(self, t_from, t_to, level=1.0, hosts=None):
        """Load `level` (share of capacity) in the intervals meeting the window."""
        self._set(self._blocks_meeting(t_from, t_to), level, hosts)

    def idle_run(self, t, n):
        """A system-wide idle run of exactly n minutes [t, t + 60 n), with a
        burst at >= 50% of capacity in the minute before and the one after.
        The T lines from t - 60 to t + 60 n + 60 are never jittered, so
        the run is exact on every host."""
        self.burst(t - 60, t, level=self.rng.uniform(0.5, 1.0))
        self.burst(t + 60 * n, t + 60 * n + 60, level=self.rng.uniform(0.5, 1.0))
        self.idle(t, t + 60 * n)
        self.exact.update(j for j in range(self.nblocks)
                          if t - 60 <= self.block_t(j) <= t + 60 * n + 60)

    # ---- gaps, reboots, devices, clocks
    def missing(self, t_from, t_to, host=None):
        """No T block with T in [t_from, t_to), for one host or all."""
        for h in ([host] if host else self.hosts):
            self.gone[h].update(j for j in range(self.nblocks)
                                if t_from <= self.block_t(j) < t_to)

    def reboot(self, host, t):
        """Every counter of host restarts near 0 at the first block >= t."""
        j = max(1, -(-(t - self.start) // self.interval))
        self.reboots[host].add(j)

    def device_window(self, host, dev, t_from=None, t_to=None):
        """The device is in the blocks with T in [t_from, t_to) only."""
        for d in self.devs[host]:
            if d.name == dev:
                d.t_from, d.t_to = t_from, t_to
                return
        raise KeyError(dev)

    def jitter(self, host, ms=5):
        """T lines of host are off by up to +-ms milliseconds, printed with
        three decimals (except around idle runs)."""
        self.jit[host] = ms

    # ---- counters
    def _advance(self, r, d, level, dt):
        v = d.v
        if level <= 0:
            v[8] = 0
            return
        rate = d.cap * level * r.uniform(0.8, 1.0)
        rd_sec = int(rate * d.rshare * dt) // 512
        wr_sec = int(rate * (1 - d.rshare) * dt) // 512
        rd_ios = -(-rd_sec // d.rreq)
        wr_ios = -(-wr_sec // d.wreq)
        fl_ios = r.randint(0, 3) if wr_ios else 0
        dc_ios = r.randint(0, 2) if r.random() < 0.05 else 0
        rd_ms = rd_ios * r.randint(0, 8) + r.randint(0, 2)
        wr_ms = wr_ios * r.randint(0, 12) + r.randint(0, 2)
        for f, x in ((0, rd_ios), (1, rd_ios // 8), (2, rd_sec), (3, rd_ms),
                     (4, wr_ios), (5, wr_ios // 4), (6, wr_sec), (7, wr_ms),
                     (11, dc_ios), (13, dc_ios * 2048), (14, dc_ios),
                     (15, fl_ios), (16, fl_ios)):
            v[f] += x
        v[9] += int(dt * 1000 * min(0.95, level * 1.5) * r.uniform(0.5, 1.0))
        v[10] += rd_ms + wr_ms + dc_ios + fl_ios
        v[8] = r.randint(0, 16)

    def _step(self, r, host, j, d, level):
        """Interval j (ending at block_t(j)) of device d of host: a
        subclass models its devices here (fleetgen)."""
        self._advance(r, d, level, self.interval)

    def _reset(self, r, d):
        for f in range(17):
            d.v[f] = r.randint(0, 3) if f != 8 else 0

    @staticmethod
    def _line(d):
        vals = " ".join("%d" % (x % (1 << (32 if f in MS_FIELDS or f == 8
                                              else 64)))
                        for f, x in enumerate(d.v))
        return "%4d %7d %s %s\n" % (d.major, d.minor, d.name, vals)

    def _t_text(self, r, host, j):
        t = self.block_t(j)
        ms = self.jit[host]
        if not ms or j in self.exact:
            return "T %d\n" % t
        off = r.randint(-ms, ms)
        return "T %d.%03d\n" % divmod(t * 1000 + off, 1000)

    def text(self, host):
        """The capture of one host."""
        r = random.Random("%s/%s" % (self.seed, host))
        devs = self.devs[host]
        for d in devs:
            d.v = list(d.v0)
        hl = self.host_level.get(host, {})
        out = []
        for j in range(self.nblocks):
            if j in self.reboots[host]:
                for d in devs:
                    self._reset(r, d)
            if j > 0:
                level = hl.get(j, self.level[j])
                for d in devs:
                    self._step(r, host, j, d, level)
            if j in self.gone[host]:
                continue
            t = self.block_t(j)
            lines = [self._line(d) for d in devs if d.present(t)]
            if lines:
                out.append(self._t_text(r, host, j))
                out.extend(lines)
        return "".join(out)

    def write(self, dirpath):
        """dirpath/HOST.raw for every host; returns the paths."""
        os.makedirs(dirpath, exist_ok=True)
        paths = []
        for h in self.hosts:
            p = os.path.join(dirpath, h + ".raw")
            with open(p, "w") as f:
                f.write(self.text(h))
            paths.append(p)
        return paths
