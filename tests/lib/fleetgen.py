"""fleetgen: fleets of storage servers under a shared steady load, whose
disks serve their requests in a known time, for the device-health tests.

A Fleet is a rawgen.Dataset (the same captures and knobs: idle, missing,
reboot ...) whose devices are modelled. Every disk of a host gets the
same requests (a RAID set stripes each request over them): per minute
`iops` x 60 x the system-wide level (0.7 to 0.9, drawn per minute) x the
host's share x the disk's own share, give or take 10%, of the host's
read and write sizes. A disk of model M serves a request in M.seek_ms
plus the transfer at M.mib_s, times its spread (0.9 to 1.1, drawn once)
and the slowness of its faults in that direction. Requests queue as in
M/M/1: with u = the share of the minute the disk is busy (the sum of its
service times over 60 s, at most 0.95), a request takes its service time
/ (1 - u), times the noise (0.9 to 1.1 a minute and direction; heavy:
a log-normal spread; hourly: a factor of 0.85 to 1.15 per disk and
hour on top), and io_ms (busy time) is u x the minute: never more than
the time elapsed.

    from fleetgen import Fleet, HDD_A, HDD_B
    f = Fleet(seed=1, hosts=4, disks=8, start=T0, minutes=2 * 1440)
    f.slow("h001", "sdc", t=T0 + 86400, factor=4)   # from that minute on
    f.slow("h001", "sdd", t, 10, direction="read", until=t2)
    f.episode("h002", "sdb", t, 20, 5)              # 20 minutes, 5x
    f.episode("h002", "sdb", t, 20, 5, daily=True)  # every day at that time
    f.model("h002", "sd[a-d]", HDD_B)               # another model
    f.busier("h003", 3)                             # 3x the requests
    f.busier_device("h000", "sda", 3)               # one disk 3x
    f.noise("heavy")                                # or "hourly"
    f.idle_device("h000", "sdh")                    # no I/O at all
    f.truth()            # {(host, dev): (t, factor)}: the slow ones
    f.faults             # [(host, dev, t, until, factor, direction, daily)]
    reportdb.ingest(db, build, tmp, f)

The truth is what the fleet was made with: which devices were slowed,
in which direction, from which minute, by what factor. Everything is
drawn from the seed.
"""
import fnmatch
import math
import random

from rawgen import Dataset

DAY = 86400


class Model:
    def __init__(self, name, seek_ms, mib_s):
        self.name, self.seek_ms, self.mib_s = name, seek_ms, mib_s

    def service_ms(self, nbytes):
        return self.seek_ms + nbytes / (self.mib_s * 2 ** 20) * 1000


# Two disk models of one class: B takes about 1.4 times A's time.
HDD_A = Model("HDD-A", 4.2, 200)
HDD_B = Model("HDD-B", 6.0, 150)


class Fleet(Dataset):
    def __init__(self, seed, hosts=4, disks=8, start=1267401600,
                 minutes=2 * 1440, iops=10, sizes=(256,)):
        super().__init__(seed, hosts, disks, start, minutes)
        g = random.Random("%s/fleet" % seed)
        self.iops = iops
        # per host: read and write request sizes (sectors), read share
        self.req = {h: (g.choice(sizes), g.choice(sizes), g.uniform(0.3, 0.7))
                    for h in self.hosts}
        self.share = {h: 1.0 for h in self.hosts}
        self.dev_share = {}
        self.models = {(h, d.name): HDD_A for h in self.hosts
                       for d in self.devs[h]}
        # disks of one model differ a little, each minute a little more
        self.spread = {(h, d.name): g.uniform(0.9, 1.1) for h in self.hosts
                       for d in self.devs[h]}
        self.faults = []
        self.idle_devs = set()
        self.noise_kind = None
        self.hourly = {}

    def _load_process(self):
        """A steady load: every minute has requests of both kinds."""
        r = self.rng
        return [0.0] + [r.uniform(0.7, 0.9) for _ in range(1, self.nblocks)]

    # ---- knobs
    def _match(self, host, pattern):
        return [d.name for d in self.devs[host]
                if fnmatch.fnmatchcase(d.name, pattern)]

    def model(self, host, pattern, model):
        for n in self._match(host, pattern):
            self.models[(host, n)] = model

    def slow(self, host, pattern, t, factor, direction="both", until=None):
        """Devices of host matching pattern take factor times as long per
        request (reads, writes or both) in every minute that starts at t
        or later (and before until)."""
        for n in self._match(host, pattern):
            self.faults.append((host, n, t, until, factor, direction, False))

    def episode(self, host, pattern, t, minutes, factor, direction="both",
                daily=False):
        """factor times as long for `minutes` minutes from t (and at the
        same time of every later day when daily)."""
        for n in self._match(host, pattern):
            self.faults.append((host, n, t, t + 60 * minutes, factor,
                                direction, daily))

    def busier(self, host, share):
        self.share[host] = share

    def busier_device(self, host, pattern, share):
        for n in self._match(host, pattern):
            self.dev_share[(host, n)] = share

    def noise(self, kind):
        """"heavy": each minute's latency noise is log-normal (sigma 0.3)
        instead of 0.9 to 1.1; "hourly": a factor of 0.85 to 1.15 per disk
        and hour on top."""
        self.noise_kind = kind

    def idle_device(self, host, pattern):
        for n in self._match(host, pattern):
            self.idle_devs.add((host, n))

    def truth(self):
        """{(host, dev): (t, factor)} of the devices slowed for good."""
        return {(h, n): (t, f) for h, n, t, until, f, _, daily in self.faults
                if until is None and not daily}

    # ---- the model
    def _slowness(self, host, name, t):
        """(read, write) factors of the minute starting at t."""
        rd = wr = 1
        for h, n, t0, t1, f, direction, daily in self.faults:
            if (h, n) != (host, name) or t < t0:
                continue
            x = (t - t0) % DAY + t0 if daily else t
            if t1 is not None and x >= t1:
                continue
            if direction in ("read", "both"):
                rd = f
            if direction in ("write", "both"):
                wr = f
        return rd, wr

    def _noise(self, r, host, name, t):
        if self.noise_kind == "heavy":
            return r.lognormvariate(0, 0.3)
        x = r.uniform(0.9, 1.1)
        if self.noise_kind == "hourly":
            key = (host, name, t // 3600)
            if key not in self.hourly:
                g = random.Random("%s/%s/%s/%d" % (self.seed, host, name,
                                                   t // 3600))
                self.hourly[key] = g.uniform(0.85, 1.15)
            x *= self.hourly[key]
        return x

    def _step(self, r, host, j, d, level):
        v = d.v
        key = (host, d.name)
        if level <= 0 or key in self.idle_devs:
            v[8] = 0
            return
        dt = self.interval
        t = self.block_t(j - 1)
        rreq, wreq, rshare = self.req[host]
        n = int(self.iops * dt * level * self.share[host] *
                self.dev_share.get(key, 1) * r.uniform(0.9, 1.1))
        rd_ios = int(n * rshare)
        wr_ios = n - rd_ios
        m = self.models[key]
        k_rd, k_wr = self._slowness(host, d.name, t)
        s_rd = m.service_ms(rreq * 512) * self.spread[key] * k_rd
        s_wr = m.service_ms(wreq * 512) * self.spread[key] * k_wr
        u = min((rd_ios * s_rd + wr_ios * s_wr) / (dt * 1000), 0.95)
        rd_ms = int(rd_ios * s_rd / (1 - u) * self._noise(r, host, d.name, t))
        wr_ms = int(wr_ios * s_wr / (1 - u) * self._noise(r, host, d.name, t))
        fl_ios = r.randint(0, 3) if wr_ios else 0
        for f, x in ((0, rd_ios), (1, rd_ios // 8), (2, rd_ios * rreq),
                     (3, rd_ms), (4, wr_ios), (5, wr_ios // 4),
                     (6, wr_ios * wreq), (7, wr_ms), (15, fl_ios),
                     (16, fl_ios)):
            v[f] += x
        v[9] += int(math.floor(u * dt * 1000))
        v[10] += rd_ms + wr_ms + fl_ios
        v[8] = r.randint(0, 16)
