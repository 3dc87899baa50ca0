"""health_oracle: what `iocensus health` must answer, computed on its own
from the samples (the raw captures a fleet generator wrote, or the
samples the database stores in io_chunk), never from a table iocensus
derived. The minutes are tests/lib/io_oracle.py's (the rule the roll-ups
follow); the rule is docs/analyses.md, "Device health": the load model,
two directions, episodes of slow minutes and onsets to the minute.

    import health_oracle
    res = health_oracle.analyse(db_path, k=3)          # or a directory
    res.devices[(host, device)] -> Row                 # of *.raw captures
    res.hosts[(host, kind)]     -> Row
    res.episodes                -> [Episode] by host, device, start
    res.summary                 -> {column: value}
    res.series[(host, device)]  -> [(t, await, lo, hi, med)] compared hours

A Row has the columns of table `devices` (see COLUMNS; missing values
are None) plus `word`, the short verdict (slow, intermittent, suspect,
healthy, not called) and `why` (few_peers, few_busy, few_compared for
the verdicts that are not called).

Readings of the rule where its text leaves a choice (the simplest one):

- The window is every whole hour from the first hour with a valid minute
  to the last (t_from, t_to narrow it to whole hours); the devices are
  those with a valid minute anywhere, of the selected hosts.
- When S (the group hour's median service time) is missing, every
  member has rho = 0 and q = 1: the load condition holds.
- A host as a member: busy when one of its devices is; its tr, br, tw,
  bw, await, L, s, z the medians over its busy devices that have them;
  its reads, writes and requests the sums over its busy devices (they
  weigh its await, read_factor and write_factor).
- A row that is not called has only await_ms (over its busy hours),
  busy_hours, compared_hours, peers and its episodes.
- The minute onset of a direction is searched among that direction's
  compared minutes starting before H + 3600 (any of them, slow or not);
  `since` of a verdict is the earliest of its directions' minute onsets;
  its period starts at the hour onset of the direction whose hour onset
  is earlier.
- An episode's factor is the greatest ratio of any direction in its slow
  minutes.
- The verdict column: the oracle holds the short word (slow,
  intermittent, suspect, healthy, not called); the tests compare it with
  the start of iocensus's cell, which may be the longer text.
- A minute of a device counts only when it is valid (a missing minute is
  neither slow nor compared); the peers of a minute are the other alike
  members of its hour whose same minute is valid.

Run by hand: `python3 tests/lib/health_oracle.py DB|DIR [--factor K]
[--host H ...] [--from T] [--to T]` prints the devices rows as CSV.
"""
import csv
import glob
import math
import os
import sqlite3
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import io_oracle  # noqa: E402

BUSY_MINUTES = 30
BUSY_IOS = 1000
DIR_IOS = 100
MIN_IOS_MINUTE = 20
SIMILAR = 2
MIN_PEERS = 2
MIN_HOURS = 6
RHO_MAX = 0.9
GAP = 180                   # consecutive slow minutes at most 3 min apart
EPISODE_MINUTES = 10
MIB = 1048576.0
H = 3600

COLUMNS = ("host", "device", "slow", "since", "direction", "await_ms",
           "peers_await_ms", "factor", "read_factor", "write_factor",
           "threshold", "peers", "busy_hours", "compared_hours",
           "hours_above", "period_hours", "episodes", "episode_seconds",
           "start", "end", "confidence", "verdict", "wwn", "serial",
           "model", "slot")
EPISODE_COLUMNS = ("host", "device", "start", "end", "direction",
                   "slow_minutes", "factor")

KINDS = [("nvme", "nvme"), ("md", "md"), ("dm-", "dm"), ("sd", "sd"),
         ("vd", "vd"), ("xvd", "xvd"), ("hd", "hd"), ("mmcblk", "mmcblk"),
         ("cciss/", "cciss"), ("rbd", "rbd"), ("bcache", "bcache"),
         ("zd", "zd")]
MEASURES = ("tr", "br", "tw", "bw")
DIRS = (("read", ("tr", "br")), ("write", ("tw", "bw")))


def kind_of(name):
    for prefix, kind in KINDS:
        if name.startswith(prefix):
            return kind
    return "other"


def median(v):
    v = sorted(v)
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


def similar(x, y):
    return x * SIMILAR >= y and y * SIMILAR >= x


# ---------------------------------------------------------------- samples

def _zz(z):
    return -((z + 1) // 2) if z % 2 else z // 2


def samples_from_db(db):
    """{(host, dev): (interval_ms, [Sample])} from io_chunk: the samples
    as ingest stored them (decoded here, not through a view)."""
    c = sqlite3.connect(db)
    out = {}
    cols = ("rd_ios", "wr_ios", "rd_sec", "wr_sec", "rd_ms", "wr_ms",
            "io_ms", "oth_ios")
    q = ("SELECT h.name, d.name, d.interval_ms, c.t0, c.n, c.t1_ms, "
         "c.step_ms, c.t_dev, c.s_dev, " + ", ".join("c." + x for x in cols) +
         " FROM io_chunk c JOIN io_dev d ON d.id = c.dev_id "
         "JOIN io_host h ON h.id = d.host_id ORDER BY h.name, d.name, c.t0")
    for row in c.execute(q):
        host, dev, iv, t0, n, t1, step = row[:7]
        tdev = io_oracle.r127_decode(row[7], n)
        sdev = io_oracle.r127_decode(row[8], n)
        vals = [io_oracle.r127_decode(b, n) for b in row[9:]]
        ss = out.setdefault((host, dev), (iv, []))[1]
        for i in range(n):
            v = [x[i] for x in vals]
            ss.append(io_oracle.Sample(
                t0 * 1000 + t1 + i * step + _zz(tdev[i]),
                step + _zz(sdev[i]), v[0], v[1], v[2], v[3], v[4], v[5],
                v[6], v[7]))
    c.close()
    for k in out:
        out[k][1].sort(key=lambda s: s.t_ms)
    return out


def samples_from_dir(path, interval=60):
    """The same from the *.raw captures of a directory (host: file name)."""
    hosts = [io_oracle.load_raw(p, os.path.basename(p)[:-4], interval)
             for p in sorted(glob.glob(os.path.join(path, "*.raw")))]
    return io_oracle._merge_hosts(hosts)


# Minute tuples: io_oracle.SUMS order after `samples`.
RD_B, WR_B, IOS, RD_IOS, WR_IOS, OTH, RD_MS, WR_MS, IO_MS = range(9)


def minutes_of(samples):
    """{(host, dev): {t: (rd_bytes, wr_bytes, ios, rd_ios, wr_ios, oth_ios,
    rd_ms, wr_ms, io_ms)}} of every valid minute."""
    return {k: {t: v[1:] for t, v in
                io_oracle.device_minute_sums(ss, iv).items()}
            for k, (iv, ss) in samples.items()}


# ---------------------------------------------------------------- hours

class Member:
    """One member's hour: busy, its measures (None when missing) and
    the sums that weigh its period."""
    def __init__(self):
        self.busy = False
        self.m = dict.fromkeys(MEASURES + ("await", "L", "s", "z"))
        self.r = self.w = self.ms = 0


def dev_member(mins):
    """A device's hour from its valid minutes [(t, tuple)]."""
    h = Member()
    if not mins:
        return h
    s = [sum(v[i] for _, v in mins) for i in range(9)]
    r, w = s[RD_IOS], s[WR_IOS]
    rb, wb, rd_ms, wr_ms, io_ms = s[RD_B], s[WR_B], s[RD_MS], s[WR_MS], \
        s[IO_MS]
    n = r + w
    h.r, h.w, h.ms = r, w, rd_ms + wr_ms
    h.busy = len(mins) >= BUSY_MINUTES and n >= BUSY_IOS and rb + wb > 0
    if not h.busy:
        return h
    m = h.m
    if r >= DIR_IOS:
        m["tr"] = rd_ms / r
        if rb > 0:
            m["br"] = rd_ms / rb * MIB
    if w >= DIR_IOS:
        m["tw"] = wr_ms / w
        if wb > 0:
            m["bw"] = wr_ms / wb * MIB
    m["await"] = (rd_ms + wr_ms) / n
    m["L"] = n / (len(mins) * 60000)
    if io_ms > 0:
        m["s"] = io_ms / n
    m["z"] = (rb + wb) / n
    return h


def group_member(devs):
    """A host's group hour from its devices' hours."""
    h = Member()
    busy = [d for d in devs if d.busy]
    if not busy:
        return h
    h.busy = True
    for k in h.m:
        vals = [d.m[k] for d in busy if d.m[k] is not None]
        h.m[k] = median(vals) if vals else None
    h.r = sum(d.r for d in busy)
    h.w = sum(d.w for d in busy)
    return h


class Cmp:
    """A member's comparison in one hour."""
    def __init__(self):
        self.alike = False
        self.q = 1.0
        self.ratio = dict.fromkeys(MEASURES)     # a_m / peers' median
        self.adj = dict.fromkeys(MEASURES)       # (a_m, peers' median)
        self.slowness = {"read": None, "write": None}
        self.med = self.lo = self.hi = None

    def compared(self, d=None):
        if d is not None:
            return self.slowness[d] is not None
        return any(v is not None for v in self.slowness.values())

    def above(self, k, d=None):
        ds = [d] if d is not None else ["read", "write"]
        return any(self.slowness[x] is not None and self.slowness[x] >= k
                   for x in ds)


def compare(members):
    """[Cmp] per member of one group hour: load model, alike, ratios."""
    out = [Cmp() for _ in members]
    busy = [i for i, m in enumerate(members) if m.busy]
    if not busy:
        return out
    ss = [members[i].m["s"] for i in busy if members[i].m["s"] is not None]
    S = median(ss) if ss else None
    zmed = median([members[i].m["z"] for i in busy])
    for i in busy:
        m = members[i]
        rho = m.m["L"] * S if S is not None else 0.0
        c = out[i]
        c.alike = rho < RHO_MAX and similar(m.m["z"], zmed)
        if c.alike and S is not None:
            c.q = 1 / (1 - rho)
    alike = [i for i in busy if out[i].alike]
    if len(alike) < MIN_PEERS + 1:
        return out
    for i in alike:
        m, c = members[i], out[i]
        others = [j for j in alike if j != i]
        for x in MEASURES:
            if m.m[x] is None:
                continue
            vals = [members[j].m[x] / out[j].q for j in others
                    if members[j].m[x] is not None]
            if len(vals) < MIN_PEERS:
                continue
            med = median(vals)
            if not med > 0:
                continue
            a = m.m[x] / c.q
            c.ratio[x] = a / med
            c.adj[x] = (a, med)
        for d, xs in DIRS:
            rs = [c.ratio[x] for x in xs if c.ratio[x] is not None]
            c.slowness[d] = min(rs) if rs else None
        aw = [members[j].m["await"] for j in others]
        c.med, c.lo, c.hi = median(aw), min(aw), max(aw)
    return out


# ---------------------------------------------------------------- minutes

class MinuteCmp:
    """A device's minute: ratio per direction (None: none)."""
    __slots__ = ("t", "ratio")

    def __init__(self, t):
        self.t = t
        self.ratio = {"read": None, "write": None}


MIN_FIELDS = {"read": (RD_IOS, RD_MS), "write": (WR_IOS, WR_MS)}


def compare_minutes(t0, keys, cmps, mins):
    """{key: [MinuteCmp]} of the group's alike members in hour t0."""
    alike = [i for i, c in enumerate(cmps) if c.alike]
    out = {}
    if len(alike) < MIN_PEERS + 1:
        return out
    for t in range(t0, t0 + H, 60):
        vals = {}
        for i in alike:
            v = mins[keys[i]].get(t)
            if v is None:
                continue
            for d, (fi, fm) in MIN_FIELDS.items():
                if v[fi] >= MIN_IOS_MINUTE:
                    vals.setdefault(d, {})[i] = v[fm] / v[fi] / cmps[i].q
        for i in alike:
            mc = None
            for d in ("read", "write"):
                dv = vals.get(d, {})
                if i not in dv:
                    continue
                others = [x for j, x in dv.items() if j != i]
                if len(others) < MIN_PEERS:
                    continue
                med = median(others)
                if not med > 0:
                    continue
                if mc is None:
                    mc = MinuteCmp(t)
                mc.ratio[d] = dv[i] / med
            if mc is not None:
                out.setdefault(keys[i], []).append(mc)
    return out


class Episode:
    def __init__(self, host, device, mins, k):
        self.host, self.device = host, device
        self.start = mins[0].t
        self.end = mins[-1].t + 60
        ds = {d for mc in mins for d in ("read", "write")
              if mc.ratio[d] is not None and mc.ratio[d] >= k}
        self.direction = "both" if len(ds) == 2 else ds.pop()
        self.slow_minutes = len(mins)
        self.factor = max(r for mc in mins for r in mc.ratio.values()
                          if r is not None)

    def row(self):
        return {c: getattr(self, c) for c in EPISODE_COLUMNS}


def episodes_of(host, device, mcs, k):
    slow = [mc for mc in mcs if any(r is not None and r >= k
                                    for r in mc.ratio.values())]
    runs, cur = [], []
    for mc in slow:
        if cur and mc.t - cur[-1].t > GAP:
            runs.append(cur)
            cur = []
        cur.append(mc)
    if cur:
        runs.append(cur)
    return [Episode(host, device, r, k) for r in runs
            if len(r) >= EPISODE_MINUTES]


def suffix_onset(xs):
    """(index, sum) of the +1 entry from which the sum of xs to the end is
    greatest (the latest of equal ones), or (None, None) without one;
    candidates: the indexes where cand(i) holds."""
    best, best_i, run = None, None, 0
    for i in range(len(xs) - 1, -1, -1):
        run += xs[i][0]
        if xs[i][1] and (best is None or run > best):
            best, best_i = run, i
    return best_i, best


def minute_onset(mcs, d, hour, k):
    """The onset minute of direction d whose onset hour is `hour`."""
    xs = [(1 if mc.ratio[d] >= k else -1, mc.t < hour + H)
          for mc in mcs if mc.ratio[d] is not None]
    ts = [mc.t for mc in mcs if mc.ratio[d] is not None]
    i, _ = suffix_onset(xs)
    return hour if i is None else ts[i]


# ---------------------------------------------------------------- verdicts

class Row:
    def __init__(self, **kw):
        for c in COLUMNS:
            setattr(self, c, None)
        self.word = self.why = None
        self.__dict__.update(kw)

    def row(self):
        return {c: getattr(self, c) for c in COLUMNS}


def _confidence(word, above, n):
    if word == "slow":
        return ("high" if above >= 24 and 10 * above >= 9 * n else
                "medium" if above >= 12 and 4 * above >= 3 * n else "low")
    if word == "healthy":
        return ("high" if n >= 24 and 10 * above <= n else
                "medium" if n >= 12 and 4 * above <= n else "low")
    return None


def _ratio(a, b):
    return a / b if b else None


def verdict(hours, peers, k, is_host, mcs, eps):
    """The row of one member; hours: [(t, Member, Cmp)] of the window."""
    busy = [(t, m, c) for t, m, c in hours if m.busy]
    comp = [(t, m, c) for t, m, c in busy if c.compared()]
    row = Row(threshold=k, peers=peers, busy_hours=len(busy),
              compared_hours=len(comp))
    if not is_host:
        row.episodes = len(eps)
        row.episode_seconds = sum(e.end - e.start for e in eps)
        if eps:
            row.start, row.end = eps[-1].start, eps[-1].end
    track = {}
    for d, _ in DIRS:
        hs = [(t, c) for t, _, c in comp if c.compared(d)]
        xs = [(1 if c.above(k, d) else -1, c.above(k, d)) for _, c in hs]
        i, s = suffix_onset(xs)
        if i is not None and s > 0:
            n_above = sum(1 for _, c in hs[i:] if c.above(k, d))
            track[d] = (hs[i][0], "slow" if n_above >= MIN_HOURS
                        else "suspect")
    slow = [d for d in track if track[d][1] == "slow"]
    sus = [d for d in track if track[d][1] == "suspect"]
    if peers < MIN_PEERS:
        row.why = "few_peers"
    elif len(busy) < MIN_HOURS:
        row.why = "few_busy"
    elif len(comp) < MIN_HOURS:
        row.why = "few_compared"
    if row.why:
        row.word = "not called"
        n = sum(m.r + m.w for _, m, _ in busy)
        row.await_ms = (_ratio(sum(m.m["await"] * (m.r + m.w)
                                   for _, m, _ in busy), n) if is_host else
                        _ratio(sum(m.ms for _, m, _ in busy), n))
        return row
    if slow:
        row.word, ds = "slow", slow
    elif len(eps) >= 2:
        row.word, ds = "intermittent", []
    elif sus:
        row.word, ds = "suspect", sus
    else:
        row.word, ds = "healthy", []
    row.slow = 1 if row.word == "slow" else 0
    period = comp
    if ds:
        row.direction = "both" if len(ds) == 2 else ds[0]
        onset_h = min(track[d][0] for d in ds)
        period = [x for x in comp if x[0] >= onset_h]
        row.since = (onset_h if is_host else
                     min(minute_onset(mcs, d, track[d][0], k) for d in ds))
    n = sum(m.r + m.w for _, m, _ in period)
    if is_host:
        row.await_ms = _ratio(sum((m.r + m.w) * m.m["await"]
                                  for _, m, _ in period), n)
    else:
        row.await_ms = _ratio(sum(m.ms for _, m, _ in period), n)
    row.peers_await_ms = _ratio(sum((m.r + m.w) * c.med
                                    for _, m, c in period), n)
    row.factor = (_ratio(row.await_ms, row.peers_await_ms)
                  if row.await_ms is not None else None)
    for col, x, f in (("read_factor", "tr", "r"), ("write_factor", "tw", "w")):
        hs = [(getattr(m, f), c.adj[x]) for _, m, c in period
              if c.adj[x] is not None]
        if hs:
            setattr(row, col, sum(w * a for w, (a, _) in hs) /
                    sum(w * b for w, (_, b) in hs))
    row.hours_above = sum(1 for _, _, c in period if c.above(k))
    row.period_hours = len(period)
    row.confidence = _confidence(row.word, row.hours_above,
                                 row.period_hours)
    return row


def _dur(s):
    h, m = divmod(s // 60, 60)
    return ("%dh%02dm" % (h, m)) if h else "%dm" % m


def _utc(t, fmt="%Y-%m-%d %H:%M"):
    import time
    return time.strftime(fmt, time.gmtime(t))


DIR_TEXT = {"read": "in reads", "write": "in writes",
            "both": "in reads and writes"}


def verdict_text(row):
    """The long verdict; the tests compare the short word."""
    if row.word in ("slow", "suspect"):
        return "%s %s since %s" % (row.word, DIR_TEXT[row.direction],
                                   _utc(row.since))
    if row.word == "intermittent":
        return "intermittent: %d episodes, %s, the last %s-%s" % (
            row.episodes, _dur(row.episode_seconds), _utc(row.start),
            _utc(row.end, "%H:%M"))
    return row.word


# ---------------------------------------------------------------- all

class Result:
    pass


def analyse(src, k=3.0, hosts=None, t_from=None, t_to=None):
    """src: a census database or a directory of *.raw captures."""
    samples = (samples_from_dir(src) if os.path.isdir(src)
               else samples_from_db(src))
    if hosts is not None:
        samples = {key: v for key, v in samples.items() if key[0] in hosts}
    mins = minutes_of(samples)
    devs = sorted((key for key in mins if mins[key]),
                  key=lambda x: (x[0].encode(), x[1].encode()))
    res = Result()
    res.devices, res.hosts, res.series, res.episodes = {}, {}, {}, []
    if not devs:
        res.summary = summary(res, k)
        return res
    hour_ts = {t // H * H for key in devs for t in mins[key]}
    lo = min(hour_ts) if t_from is None else -(-t_from // H) * H
    hi = max(hour_ts) + H if t_to is None else t_to // H * H
    groups = {}
    for h, d in devs:
        groups.setdefault((h, kind_of(d)), []).append((h, d))
    kinds = {}
    for g in sorted(groups):
        kinds.setdefault(g[1], []).append(g)
    dhours = {dv: [] for dv in devs}
    ghours = {g: [] for g in groups}
    dmin = {dv: [] for dv in devs}
    res.series = {dv: [] for dv in devs}
    byhour = {dv: {} for dv in devs}
    for dv in devs:
        for t, v in mins[dv].items():
            if lo <= t < hi:
                byhour[dv].setdefault(t // H * H, []).append((t, v))
    for t0 in range(lo, hi, H):
        gm = {}
        for g, keys in groups.items():
            ms = [dev_member(byhour[dv].get(t0, [])) for dv in keys]
            cs = compare(ms)
            for dv, m, c in zip(keys, ms, cs):
                dhours[dv].append((t0, m, c))
                if c.compared():
                    res.series[dv].append((t0, m.m["await"], c.lo, c.hi,
                                           c.med))
            for dv, mc in compare_minutes(t0, keys, cs, mins).items():
                dmin[dv].extend(mc)
            gm[g] = group_member(ms)
        for kind, gs in kinds.items():
            ms = [gm[g] for g in gs]
            for g, m, c in zip(gs, ms, compare(ms)):
                ghours[g].append((t0, m, c))
    for dv in devs:
        g = (dv[0], kind_of(dv[1]))
        eps = episodes_of(dv[0], dv[1], dmin[dv], k)
        res.episodes.extend(eps)
        r = verdict(dhours[dv], len(groups[g]) - 1, k, False, dmin[dv], eps)
        r.host, r.device = dv
        r.verdict = r.word
        r.text = verdict_text(r)
        res.devices[dv] = r
    for g in groups:
        r = verdict(ghours[g], len(kinds[g[1]]) - 1, k, True, [], [])
        r.host, r.kind = g
        r.verdict = r.word
        r.text = verdict_text(r)
        res.hosts[g] = r
    res.minutes = dmin
    res.summary = summary(res, k)
    return res


def summary(res, k):
    words = [r.word for r in res.devices.values()]
    return {"devices": len(words), "slow": words.count("slow"),
            "intermittent": words.count("intermittent"),
            "suspect": words.count("suspect"),
            "healthy": words.count("healthy"),
            "not_called": words.count("not called"),
            "slow_hosts": sum(1 for r in res.hosts.values()
                              if r.word == "slow"),
            "threshold": k}


def main(argv):
    import argparse
    p = argparse.ArgumentParser(description="device health, the oracle")
    p.add_argument("src", help="census database or directory of *.raw")
    p.add_argument("--factor", type=float, default=3.0)
    p.add_argument("--host", action="append")
    p.add_argument("--from", dest="t_from", type=int)
    p.add_argument("--to", dest="t_to", type=int)
    p.add_argument("--table", default="devices",
                   choices=("devices", "hosts", "episodes"))
    a = p.parse_args(argv)
    res = analyse(a.src, a.factor, a.host, a.t_from, a.t_to)
    w = csv.writer(sys.stdout, lineterminator="\n")
    if a.table == "episodes":
        w.writerow(EPISODE_COLUMNS)
        rows = [e.row() for e in res.episodes]
        cols = EPISODE_COLUMNS
    elif a.table == "hosts":
        cols = ("host", "kind") + COLUMNS[2:16] + ("confidence", "verdict")
        w.writerow(cols)
        rows = [dict(r.row(), kind=r.kind) for r in res.hosts.values()]
    else:
        cols = COLUMNS
        w.writerow(cols)
        rows = [r.row() for r in res.devices.values()]
    for r in rows:
        w.writerow(["" if r[c] is None else repr(r[c])
                    if isinstance(r[c], float) else r[c] for c in cols])


if __name__ == "__main__":
    main(sys.argv[1:])
