"""fleetgen: fleets of storage servers under a shared bursty load, whose
disks serve their requests in a known time, for the device-health tests.

A Fleet is a rawgen.Dataset (the same captures, load process and knobs:
idle, burst, missing, reboot ...) whose devices are modelled: every disk
of a host gets the same requests (a RAID set stripes each request over
them), as many per second as the system-wide load level times `iops`
times the host's share, of the host's read and write sizes; a disk of
model M takes M.seek_ms plus the transfer at M.mib_s per request, times
its slowness and its own spread (0.85 to 1.15, drawn once), and waits
in an M/M/1 queue: the interval's reads take rd_ios x S / (1 - u) ms
(give or take 20%), u = the busy share of the interval (at most 0.95,
io_ms = u x the interval).

    from fleetgen import Fleet, HDD_A, HDD_B
    f = Fleet(seed=1, hosts=4, disks=8, start=T0, minutes=2 * 1440)
    f.slow("h001", "sdc", t=T0 + 86400, factor=4)  # from that hour on
    f.model("h002", "sd[a-d]", HDD_B)              # another model
    f.busier("h003", 3)                            # 3x the requests
    f.idle_device("h000", "sdh")                   # no I/O at all
    f.truth()            # {(host, dev): (t, factor)}: the slow ones
    reportdb.ingest(db, build, tmp, f)

The truth is what the fleet was made with: which devices were slowed,
from which hour, by what factor. Everything is drawn from the seed.
"""
import fnmatch
import random

from rawgen import Dataset


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
                 minutes=2 * 1440, iops=40, sizes=(256,)):
        super().__init__(seed, hosts, disks, start, minutes)
        g = random.Random("%s/fleet" % seed)
        self.iops = iops
        # per host: read and write request sizes (sectors), read share
        self.req = {h: (g.choice(sizes), g.choice(sizes), g.uniform(0.3, 0.7))
                    for h in self.hosts}
        self.share = {h: 1.0 for h in self.hosts}
        self.models = {(h, d.name): HDD_A for h in self.hosts
                       for d in self.devs[h]}
        # disks of one model differ a little, each interval a little more
        self.spread = {(h, d.name): g.uniform(0.85, 1.15) for h in self.hosts
                       for d in self.devs[h]}
        self.slow_from = {}
        self.idle_devs = set()

    # ---- knobs
    def _match(self, host, pattern):
        return [d.name for d in self.devs[host]
                if fnmatch.fnmatchcase(d.name, pattern)]

    def model(self, host, pattern, model):
        for n in self._match(host, pattern):
            self.models[(host, n)] = model

    def slow(self, host, pattern, t, factor):
        """Devices of host matching pattern take factor times as long per
        request in every interval that starts at t or later."""
        for n in self._match(host, pattern):
            self.slow_from[(host, n)] = (t, factor)

    def busier(self, host, share):
        self.share[host] = share

    def idle_device(self, host, pattern):
        for n in self._match(host, pattern):
            self.idle_devs.add((host, n))

    def truth(self):
        return dict(self.slow_from)

    # ---- the model
    def _slowness(self, host, name, j):
        t, factor = self.slow_from.get((host, name), (None, 1))
        return factor if t is not None and self.block_t(j - 1) >= t else 1

    def _step(self, r, host, j, d, level):
        v = d.v
        if level <= 0 or (host, d.name) in self.idle_devs:
            v[8] = 0
            return
        dt = self.interval
        rreq, wreq, rshare = self.req[host]
        n = int(self.iops * level * self.share[host] * dt * r.uniform(0.9, 1.1))
        rd_ios = int(n * rshare)
        wr_ios = n - rd_ios
        m = self.models[(host, d.name)]
        k = self._slowness(host, d.name, j) * self.spread[(host, d.name)]
        s_rd = m.service_ms(rreq * 512) * k
        s_wr = m.service_ms(wreq * 512) * k
        u = min((rd_ios * s_rd + wr_ios * s_wr) / (dt * 1000), 0.95)
        rd_ms = int(rd_ios * s_rd / (1 - u) * r.uniform(0.8, 1.2))
        wr_ms = int(wr_ios * s_wr / (1 - u) * r.uniform(0.8, 1.2))
        fl_ios = r.randint(0, 3) if wr_ios else 0
        for f, x in ((0, rd_ios), (1, rd_ios // 8), (2, rd_ios * rreq),
                     (3, rd_ms), (4, wr_ios), (5, wr_ios // 4),
                     (6, wr_ios * wreq), (7, wr_ms), (15, fl_ios),
                     (16, fl_ios)):
            v[f] += x
        v[9] += int(u * dt * 1000)
        v[10] += rd_ms + wr_ms + fl_ios
        v[8] = r.randint(0, 16)
