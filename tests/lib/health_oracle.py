"""health_oracle: what `iocensus health` must answer, from the stable view
v_io_dev_hour alone, by the definitions of docs/analyses.md ("Device
health"), in Python floats computed in the same order as the definition
reads (so the values agree to the last bit with any faithful
implementation).

    import health_oracle
    res = health_oracle.analyse(db_path, k=3)
    res.devices[(host, device)] -> Verdict
    res.hosts[(host, kind)]     -> Verdict
    res.series[(host, device)]  -> [(t, await, lo, hi, med)] compared hours

A Verdict has: verdict ("slow", "healthy", "few_peers", "few_busy",
"few_compared", "too_soon"), since (the onset, for slow), await_ms,
peers_await_ms, hours_above, period_hours, busy, compared, peers.

The window is every whole hour of the view (t_from, t_to narrow it);
hosts, when given, the hosts kept.
"""
import math
import sqlite3

BUSY_MINUTES = 30
BUSY_IOS = 1000
DIR_IOS = 100
SIMILAR = 2
MIN_PEERS = 2
MIN_HOURS = 6
MIB = 1048576.0

KINDS = [("nvme", "nvme"), ("md", "md"), ("dm-", "dm"), ("sd", "sd"),
         ("vd", "vd"), ("xvd", "xvd"), ("hd", "hd"), ("mmcblk", "mmcblk"),
         ("cciss/", "cciss"), ("rbd", "rbd"), ("bcache", "bcache"),
         ("zd", "zd")]
RD, WR, TPB, AWAIT, IOS, SIZE = range(6)


def kind_of(name):
    for prefix, kind in KINDS:
        if name.startswith(prefix):
            return kind
    return "other"


def per(num, den):
    return num / den if den else math.nan


class Hour:
    """One member's hour: busy, the six measures, ms and requests."""
    def __init__(self, busy=False, v=None, ms=0, nios=0):
        self.busy, self.ms, self.nios = busy, ms, nios
        self.v = v or [math.nan] * 6


def dev_hour(r):
    nios = r["rd_ios"] + r["wr_ios"]
    nbytes = r["rd_bytes"] + r["wr_bytes"]
    v = [per(r["rd_ms"], r["rd_ios"]) if r["rd_ios"] >= DIR_IOS else math.nan,
         per(r["wr_ms"], r["wr_ios"]) if r["wr_ios"] >= DIR_IOS else math.nan,
         (r["rd_ms"] + r["wr_ms"]) / nbytes * MIB if nbytes else math.nan,
         per(r["rd_ms"] + r["wr_ms"], nios), float(nios), per(nbytes, nios)]
    busy = r["minutes"] >= BUSY_MINUTES and nios >= BUSY_IOS and nbytes > 0
    return Hour(busy, v, r["rd_ms"] + r["wr_ms"], nios)


def median(v):
    v = sorted(v)
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


def group_hour(members):
    busy = [m for m in members if m.busy]
    v = []
    for k in range(6):
        vals = [m.v[k] for m in busy if not math.isnan(m.v[k])]
        v.append(median(vals) if vals else math.nan)
    return Hour(bool(busy), v, sum(m.ms for m in busy),
                sum(m.nios for m in busy))


def similar(x, y):
    return x * SIMILAR >= y and y * SIMILAR >= x


def compare(members):
    """[(compared, slowness, med, lo, hi)] per member of one group-hour."""
    out = [(False, math.nan, math.nan, math.nan, math.nan)] * len(members)
    busy = [m for m in members if m.busy]
    if not busy:
        return out
    load = median([m.v[IOS] for m in busy])
    size = median([m.v[SIZE] for m in busy])
    alike = [m.busy and similar(m.v[IOS], load) and similar(m.v[SIZE], size)
             for m in members]
    if sum(alike) < MIN_PEERS + 1:
        return out
    for i, m in enumerate(members):
        if not alike[i]:
            continue
        others = [p for j, p in enumerate(members) if alike[j] and j != i]
        slowness = math.nan
        for k in (RD, WR, TPB):
            vals = [p.v[k] for p in others if not math.isnan(p.v[k])]
            if math.isnan(m.v[k]) or len(vals) < MIN_PEERS:
                continue
            med = median(vals)
            if not med > 0:
                continue
            r = m.v[k] / med
            if math.isnan(slowness) or r < slowness:
                slowness = r
        aw = [p.v[AWAIT] for p in others]
        out[i] = (not math.isnan(slowness), slowness, median(aw), min(aw),
                  max(aw))
    return out


class Sums:
    def __init__(self):
        self.hours = self.above = self.ms = self.nios = 0
        self.peer_ms = 0.0

    def add(self, h, med, above):
        self.hours += 1
        self.above += above
        self.ms += h.ms
        self.nios += h.nios
        self.peer_ms += h.nios * med


class Track:
    def __init__(self):
        self.busy = self.busy_ms = self.busy_nios = 0
        self.all = Sums()
        self.since = Sums()
        self.prefix = self.min_prefix = 0
        self.onset = None

    def hour(self, t, h, c, k):
        if not h.busy:
            return
        self.busy += 1
        self.busy_ms += h.ms
        self.busy_nios += h.nios
        compared, slowness, med = c[0], c[1], c[2]
        if not compared:
            return
        above = slowness >= k
        self.all.add(h, med, above)
        if above and (self.onset is None or self.prefix <= self.min_prefix):
            self.onset, self.min_prefix, self.since = t, self.prefix, Sums()
        self.prefix += 1 if above else -1
        if self.onset is not None:
            self.since.add(h, med, above)


class Verdict:
    def __init__(self, tr, peers):
        self.peers, self.busy, self.compared = peers, tr.busy, tr.all.hours
        self.since = None
        if peers < MIN_PEERS:
            v = "few_peers"
        elif tr.busy < MIN_HOURS:
            v = "few_busy"
        elif tr.all.hours < MIN_HOURS:
            v = "few_compared"
        elif tr.onset is not None and 2 * tr.since.above > tr.since.hours:
            v = "slow" if tr.since.above >= MIN_HOURS else "too_soon"
        else:
            v = "healthy"
        self.verdict = v
        p = tr.since if v in ("slow", "too_soon") else tr.all
        if v == "slow":
            self.since = tr.onset
        if v in ("slow", "healthy", "too_soon"):
            self.await_ms = per(p.ms, p.nios)
            self.peers_await_ms = per(p.peer_ms, p.nios)
            self.hours_above, self.period_hours = p.above, p.hours
        else:
            self.await_ms = per(tr.busy_ms, tr.busy_nios)
            self.peers_await_ms = None
            self.hours_above = self.period_hours = None


class Result:
    pass


def analyse(db, k=3.0, hosts=None, t_from=None, t_to=None):
    c = sqlite3.connect(db)
    c.row_factory = sqlite3.Row
    rows = [dict(r) for r in c.execute(
        "SELECT host, device, t, minutes, rd_ios, wr_ios, rd_bytes, "
        "wr_bytes, rd_ms, wr_ms FROM v_io_dev_hour")]
    c.close()
    if hosts is not None:
        rows = [r for r in rows if r["host"] in hosts]
    devs = sorted({(r["host"].encode(), r["device"].encode()) for r in rows})
    devs = [(h.decode(), d.decode()) for h, d in devs]
    lo = min(r["t"] for r in rows) if t_from is None else t_from
    hi = max(r["t"] for r in rows) + 3600 if t_to is None else t_to
    rows = [r for r in rows if lo <= r["t"] and r["t"] + 3600 <= hi]
    groups = {}
    for h, d in devs:
        groups.setdefault((h, kind_of(d)), []).append((h, d))
    kinds = {}
    for g in groups:
        kinds.setdefault(g[1], []).append(g)
    dtrack = {dv: Track() for dv in devs}
    gtrack = {g: Track() for g in groups}
    series = {dv: [] for dv in devs}
    by_t = {}
    for r in rows:
        by_t.setdefault(r["t"], {})[(r["host"], r["device"])] = r
    for t in sorted(by_t):
        hour = {dv: (dev_hour(by_t[t][dv]) if dv in by_t[t] else Hour())
                for dv in devs}
        gh = {}
        for g, members in groups.items():
            hs = [hour[dv] for dv in members]
            for dv, h, cmp in zip(members, hs, compare(hs)):
                dtrack[dv].hour(t, h, cmp, k)
                if cmp[0]:
                    series[dv].append((t, h.v[AWAIT], cmp[3], cmp[4], cmp[2]))
            gh[g] = group_hour(hs)
        for kind, gs in kinds.items():
            hs = [gh[g] for g in gs]
            for g, h, cmp in zip(gs, hs, compare(hs)):
                gtrack[g].hour(t, h, cmp, k)
    res = Result()
    res.devices = {dv: Verdict(dtrack[dv], len(groups[(dv[0], kind_of(dv[1]))])
                               - 1) for dv in devs}
    res.hosts = {g: Verdict(gtrack[g], len(kinds[g[1]]) - 1) for g in groups}
    res.series = series
    return res
