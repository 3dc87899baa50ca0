"""io_oracle: the reference model of iocensus's I/O minutes and roll-ups.

It reads raw diskstats captures on its own (no code under test), turns them
into the samples `iostatmon import` logs, and applies the rules of
docs/census-db.md ("Minutes and roll-ups") in the plainest way: Python
ints, one minute at a time. Tests compare iocensus's tables against it.

    from io_oracle import load_raw, build
    hosts = [load_raw("a.raw", "a"), load_raw("b.raw", "b")]
    m = build(hosts)
    m.system[t]           -> (state, rd, wr, ios)    state 'complete'/'missing'
    m.series(hosts=["a*"], frm=None, to=None)
                          -> [(t, state, rd, wr, ios)] per calendar minute

Values of a minute that is not complete are 0 in .system, .host and
.series (as io_host_hour and ioseries give them); .minute_rows holds what
io_minute stores (sums over the valid devices, whatever the state), for
the minutes in which some device is valid: the derived tables have no
row where every expected device is missing (nor io_host_hour for a
host's hour without a valid minute, nor io_hour/io_day without an
io_minute row).

Samples (what import + ingest make of a capture): per device, for two
successive accepted blocks that both hold it with the same major:minor and
column count, one sample ending at T (t_ms = round(T ns / 1e6)) lasting the
T difference (dur_ms = round(ns / 1e6)), unless the counters reset: a
64-bit field going backwards, or a delta that no device can make in that
time (iostatmon/delta.c). Deltas of the 32-bit fields are modulo 2^32.

Minutes, per device, samples in t_ms order (p = end of the previous one):
  1. interval [t_ms - dur_ms, t_ms); bridged only if 0 < dur_ms <= 2 *
     interval_ms; if |start - p| <= 1000 then start := p; a start more
     than 1000 ms before p overlaps the previous sample: not bridged.
  2. each bridged value D is split over the minutes it overlaps: minute k
     gets floor(D*C_k/L) - floor(D*C_(k-1)/L), C_k = overlap ms up to and
     including minute k, L = end - start. Values: rd bytes, wr bytes,
     ios = rd_ios + wr_ios + oth_ios.
  3. a device's minute is valid iff bridged samples cover all 60000 ms.
  4. expected iff [m, m+60 s) meets [first_ms, end) (first_ms: earliest
     start of all samples). G = the latest end (t_ms) of any sample of any
     device, H = the latest of the device's host. end = G when the
     device's last end is within interval_ms + 1000 of H (still there when
     its host stopped), else its own last end (a disk the host went on
     without).
  5. system/host minute: complete iff valid == expected > 0.

Device sums (io_dev_hour, device totals of a window): every counter of a
bridged sample is split by rule 2 on its own (and ios as one value, as
above); a device's sums over a set of minutes add the parts of its valid
minutes only, `samples` counts the bridged samples whose last ms
(t_ms - 1) lies in one of them, and its covered time is 60 s a minute.
"""
import collections
import fnmatch
import re

NS = 10 ** 9
MIN_MS = 60000
HOUR_MS = 3600000

# diskstats field indexes (lib/diskstats.h)
RD_IOS, RD_MERGES, RD_SEC, RD_MS = 0, 1, 2, 3
WR_IOS, WR_MERGES, WR_SEC, WR_MS = 4, 5, 6, 7
IN_FLIGHT, IO_MS, WEIGHTED_MS = 8, 9, 10
DC_IOS, DC_MERGES, DC_SEC, DC_MS = 11, 12, 13, 14
FL_IOS, FL_MS = 15, 16
KNOWN = 17
KEPT = 24
BITS32 = {RD_MS, WR_MS, IN_FLIGHT, IO_MS, WEIGHTED_MS, DC_MS, FL_MS}
MS_SUMS = {RD_MS, WR_MS, DC_MS, FL_MS, WEIGHTED_MS}
SECTORS = {RD_SEC, WR_SEC, DC_SEC}
SHORT = [RD_IOS, RD_SEC, WR_IOS, WR_SEC]     # a 7-column line

Sample = collections.namedtuple(
    "Sample", "t_ms dur_ms rd_ios wr_ios rd_sec wr_sec rd_ms wr_ms io_ms oth_ios")


class Host:
    def __init__(self, name, interval_ms, devices):
        self.name = name
        self.interval_ms = interval_ms
        self.devices = devices          # {name: [Sample]} in t_ms order


# ---------------------------------------------------------------- parsing

def parse_t(line):
    """ns of a "T <secs>[.<frac>]" line (fraction truncated to ns), or None."""
    if len(line) < 2 or line[0] != "T" or line[1] not in " \t":
        return None
    m = re.fullmatch(r"[ \t]*([0-9]+)(?:\.([0-9]*))?[ \t\r\n]*", line[2:])
    if not m:
        return None
    frac = (m.group(2) or "")[:9].ljust(9, "0")
    return int(m.group(1)) * NS + int(frac)


def parse_ds(line):
    """(major, minor, name, ncols, {field: value}) or None."""
    tok = line.split()
    if len(tok) < 3 or not tok[0].isdigit() or not tok[1].isdigit():
        return None
    nums = tok[3:]
    if not all(x.isdigit() for x in nums):
        return None
    ncols = len(tok)
    if ncols != 7 and ncols < 14:
        return None
    idx = SHORT if ncols == 7 else list(range(len(nums)))
    v = {}
    for f, x in zip(idx, nums):
        if f >= KEPT:
            continue
        x = int(x)
        if x >= 1 << (32 if f in BITS32 else 64):
            return None
        v[f] = x
    return int(tok[0]), int(tok[1]), tok[2], ncols, v


def read_blocks(path):
    """[(t_ns, {name: (major, minor, ncols, values)})] as import accepts them."""
    blocks = []
    cur = None
    prev_t = 0
    with open(path, "r", encoding="utf-8", errors="surrogateescape") as f:
        for line in f:
            if line[:1] == "T" and (len(line) < 2 or line[1] in " \t\n"):
                if cur is not None and cur[1]:
                    blocks.append(cur)
                    prev_t = cur[0]
                cur = None
                t = parse_t(line)
                if t is not None and not (prev_t and t <= prev_t):
                    cur = (t, {})
                continue
            if cur is None or not line.strip():
                continue
            d = parse_ds(line)
            if d is None or d[2] in cur[1]:
                continue
            cur[1][d[2]] = (d[0], d[1], d[3], d[4])
    if cur is not None and cur[1]:
        blocks.append(cur)
    return blocks


def usual_step_ms(blocks):
    """The most common T difference, to the ms (the smallest on a tie)."""
    c = collections.Counter()
    for a, b in zip(blocks, blocks[1:]):
        c[(b[0] - a[0] + 500000) // 1000000] += 1
    if not c:
        return 60000
    top = max(c.values())
    return min(k for k, n in c.items() if n == top)


def plausible(f, d, dt_ms):
    if f == IO_MS:
        return d <= dt_ms + 250 + dt_ms // 4
    if f in MS_SUMS:
        return d <= (dt_ms + 1) * 65536
    if f in SECTORS:
        return d <= (dt_ms + 1) * (1 << 18)
    if f < KNOWN:
        return d <= (dt_ms + 1) * (1 << 16)
    return True


def deltas(prev, cur, dt_ns):
    """{field: delta}, or None when the interval is a reset."""
    dt_ms = dt_ns // 1000000
    out = {}
    for f, c in cur.items():
        if f == IN_FLIGHT:
            out[f] = c
            continue
        p = prev.get(f, 0)
        if f in BITS32:
            d = (c - p) % (1 << 32)
        elif c < p:
            return None
        else:
            d = c - p
        if not plausible(f, d, dt_ms):
            return None
        out[f] = d
    return out


def load_raw(path, host, interval=60):
    """The samples of one capture. interval: seconds (import --interval),
    or None for import's guess (the most common T difference)."""
    blocks = read_blocks(path)
    if interval is None:
        interval_ms = usual_step_ms(blocks)
    else:
        interval_ms = int(round(interval * NS)) // 1000000
    devices = {}
    for (t0, b0), (t1, b1) in zip(blocks, blocks[1:]):
        dt_ns = t1 - t0
        for name, (ma, mi, nc, v) in b1.items():
            p = b0.get(name)
            if p is None or p[:3] != (ma, mi, nc):
                continue
            d = deltas(p[3], v, dt_ns)
            if d is None:
                continue
            g = d.get
            devices.setdefault(name, []).append(Sample(
                (t1 + 500000) // 1000000, (dt_ns + 500000) // 1000000,
                g(RD_IOS, 0), g(WR_IOS, 0), g(RD_SEC, 0), g(WR_SEC, 0),
                g(RD_MS, 0), g(WR_MS, 0), g(IO_MS, 0),
                g(DC_IOS, 0) + g(FL_IOS, 0)))
    return Host(host, interval_ms, devices)


# ---------------------------------------------------------------- minutes

def bridged(samples, interval_ms):
    """[(sample, start_ms, end_ms)] of the bridged samples (rule 1)."""
    out = []
    p = None
    for s in samples:
        start, end = s.t_ms - s.dur_ms, s.t_ms
        ok = 0 < s.dur_ms <= 2 * interval_ms
        if ok and p is not None:
            if abs(start - p) <= 1000:
                start = p
            elif start < p:
                ok = False
        if ok and end > start:
            out.append((s, start, end))
        p = end
    return out


def split(start, end, values):
    """[(minute_t, overlap_ms, [part per value])] (rule 2)."""
    L = end - start
    out = []
    m = start // MIN_MS * MIN_MS
    c = 0
    before = [0] * len(values)
    while m < end:
        c += min(end, m + MIN_MS) - max(start, m)
        upto = [v * c // L for v in values]
        out.append((m // 1000, min(end, m + MIN_MS) - max(start, m),
                    [a - b for a, b in zip(upto, before)]))
        before = upto
        m += MIN_MS
    return out


# The sums of a device's valid minute: samples, then the split values.
SUMS = ("samples", "rd_bytes", "wr_bytes", "ios", "rd_ios", "wr_ios",
        "oth_ios", "rd_ms", "wr_ms", "io_ms")


def device_minute_sums(samples, interval_ms):
    """{t: (samples, rd, wr, ios, rd_ios, wr_ios, oth_ios, rd_ms, wr_ms,
    io_ms)} of the device's valid minutes (rules 1-3, SUMS order)."""
    acc = {}
    for s, start, end in bridged(samples, interval_ms):
        vals = (s.rd_sec * 512, s.wr_sec * 512,
                s.rd_ios + s.wr_ios + s.oth_ios, s.rd_ios, s.wr_ios,
                s.oth_ios, s.rd_ms, s.wr_ms, s.io_ms)
        for t, ov, part in split(start, end, vals):
            a = acc.setdefault(t, [0] * (len(SUMS) + 1))
            a[0] += ov
            for i, x in enumerate(part):
                a[2 + i] += x
        last = (end - 1) // MIN_MS * 60
        acc.setdefault(last, [0] * (len(SUMS) + 1))[1] += 1
    return {t: tuple(a[1:]) for t, a in acc.items() if a[0] == MIN_MS}


def device_minutes(samples, interval_ms):
    """{t: (rd, wr, ios)} of the device's valid minutes (rules 1-3)."""
    return {t: v[1:4] for t, v in
            device_minute_sums(samples, interval_ms).items()}


def expected_ends(devs):
    """{key: end_ms} of every device (rule 4); devs: {(host, dev):
    (interval_ms, [Sample])}."""
    last = {k: max(s.t_ms for s in ss) for k, (_, ss) in devs.items() if ss}
    if not last:
        return {}
    g = max(last.values())
    host_end = {}
    for (h, _), x in last.items():
        host_end[h] = max(host_end.get(h, x), x)
    return {k: g if x + devs[k][0] + 1000 >= host_end[k[0]] else x
            for k, x in last.items()}


def expected_minutes(samples, end_ms):
    """Minutes meeting [first_ms, end_ms) (rule 4)."""
    if not samples:
        return range(0)
    first = min(s.t_ms - s.dur_ms for s in samples)
    m = first // MIN_MS * MIN_MS
    if m >= end_ms:
        return range(0)
    return range(m // 1000, (end_ms + MIN_MS - 1) // MIN_MS * 60, 60)


def _merge_hosts(hosts):
    """Several captures of one host: samples with a t_ms already seen are
    duplicates (the first one is kept, as iochunk_merge keeps the stored one)."""
    merged = {}
    interval = {}
    for h in hosts:
        interval.setdefault(h.name, h.interval_ms)
        devs = merged.setdefault(h.name, {})
        for name, ss in h.devices.items():
            d = devs.setdefault(name, {})
            for s in ss:
                d.setdefault(s.t_ms, s)
    out = {}
    for hn, devs in merged.items():
        for name, d in devs.items():
            out[(hn, name)] = (interval[hn], [d[t] for t in sorted(d)])
    return out


class Model:
    def __init__(self, hosts):
        devs = _merge_hosts(hosts)
        self.devs = {k: ss for k, (_, ss) in devs.items()}
        self.interval_ms = {k: iv for k, (iv, _) in devs.items()}
        self.devmin = {}
        self.devsum = {}
        self.expected = {}
        self.end_ms = expected_ends(devs)
        sys_c = {}      # t -> [expected, valid, rd, wr, ios]
        host_c = {}     # host -> t -> [expected, valid, rd, wr, ios]
        for key in sorted(devs):
            iv, ss = devs[key]
            self.devsum[key] = device_minute_sums(ss, iv)
            vm = {t: v[1:4] for t, v in self.devsum[key].items()}
            em = expected_minutes(ss, self.end_ms.get(key, 0))
            self.devmin[key] = vm
            self.expected[key] = em
            hc = host_c.setdefault(key[0], {})
            for t in em:
                for c in (sys_c.setdefault(t, [0] * 5),
                          hc.setdefault(t, [0] * 5)):
                    c[0] += 1
                    if t in vm:
                        c[1] += 1
                        c[2] += vm[t][0]
                        c[3] += vm[t][1]
                        c[4] += vm[t][2]
        self.minute_rows = {t: tuple(c) for t, c in sys_c.items() if c[1]}
        self.system = {t: _state(c) for t, c in sys_c.items()}
        self.host = {h: {t: _state(c) for t, c in hc.items()}
                     for h, hc in host_c.items()}
        self.host_counts = {h: {t: tuple(c) for t, c in hc.items()}
                            for h, hc in host_c.items()}

    # ---- windows and series (rules 6, 7)
    def hosts_matching(self, patterns=None):
        names = sorted(self.host)
        if not patterns:
            return names
        return [h for h in names
                if any(fnmatch.fnmatchcase(h, p) for p in patterns)]

    def window(self, hosts=None):
        """(first_minute, end) of the minutes with an expected device of
        the selected hosts, or None when there are none."""
        ts = [t for h in self.hosts_matching(hosts) for t in self.host[h]]
        if not ts:
            return None
        return min(ts), max(ts) + 60

    def resolve(self, hosts=None, frm=None, to=None):
        """[from, to) of a question; from/to are rounded down to minutes."""
        w = self.window(hosts)
        if frm is None or to is None:
            if w is None:
                return None
        f = frm // 60 * 60 if frm is not None else w[0]
        e = to // 60 * 60 if to is not None else w[1]
        return (f, e) if e > f else None

    def series(self, hosts=None, frm=None, to=None):
        """[(t, state, rd, wr, ios)] for every calendar minute of the window."""
        win = self.resolve(hosts, frm, to)
        if win is None:
            return []
        sel = self.hosts_matching(hosts)
        out = []
        for t in range(win[0], win[1], 60):
            exp = [self.host[h][t] for h in sel if t in self.host[h]]
            if not exp:
                out.append((t, "none", 0, 0, 0))
            elif all(x[0] == "complete" for x in exp):
                out.append((t, "complete", sum(x[1] for x in exp),
                            sum(x[2] for x in exp), sum(x[3] for x in exp)))
            else:
                out.append((t, "missing", 0, 0, 0))
        return out

    def _dev_expected_in(self, key, f, e):
        em = self.expected[key]
        return len(em) > 0 and em[0] < e and em[-1] + 60 > f

    def hosts_in_window(self, hosts=None, frm=None, to=None):
        """Selected hosts with a device expected in the window, by name."""
        win = self.resolve(hosts, frm, to)
        if win is None:
            return []
        return [h for h in self.hosts_matching(hosts)
                if any(k[0] == h and self._dev_expected_in(k, *win)
                       for k in self.devs)]

    def _dev_sums(self, key, f, e):
        """(samples, minutes, sums..., peak_bytes, peak_ios, peak_t) of
        the device's valid minutes in [f, e): see dev_stats."""
        mins = [(t, v) for t, v in sorted(self.devsum[key].items())
                if f <= t < e]
        r = [0] * len(SUMS)
        pb, pt, pios = 0, -1, 0
        for t, v in mins:
            r = [a + b for a, b in zip(r, v)]
            if pt < 0 or v[1] + v[2] > pb:
                pb, pt = v[1] + v[2], t
            pios = max(pios, v[3])
        return (r[0], len(mins)) + tuple(r[1:]) + (pb, pios, pt)

    def dev_stats(self, hosts=None, frm=None, to=None):
        """{(host, dev): (samples, minutes, rd_bytes, wr_bytes, ios,
        rd_ios, wr_ios, oth_ios, rd_ms, wr_ms, io_ms, peak_bytes,
        peak_ios, peak_t)} over the window [f, e): sums over the device's
        valid minutes in it (peak_t -1 without one), for the selected
        hosts' devices expected in it."""
        win = self.resolve(hosts, frm, to)
        if win is None:
            return {}
        f, e = win
        sel = set(self.hosts_matching(hosts))
        return {key: self._dev_sums(key, f, e) for key in self.devs
                if key[0] in sel and self._dev_expected_in(key, f, e)}

    # ---- roll-ups, as the derived tables hold them
    def host_hours(self):
        """{(host, t0): (expected_mask, complete_mask, rd[60], wr[60], ios[60])}"""
        out, live = {}, set()
        for h, mins in self.host.items():
            for t, (state, rd, wr, ios) in mins.items():
                t0 = t // 3600 * 3600
                i = (t - t0) // 60
                r = out.setdefault((h, t0), [0, 0, [0] * 60, [0] * 60, [0] * 60])
                r[0] |= 1 << i
                if self.host_counts[h][t][1]:
                    live.add((h, t0))
                if state == "complete":
                    r[1] |= 1 << i
                    r[2][i], r[3][i], r[4][i] = rd, wr, ios
        return {k: tuple(v) for k, v in out.items() if k in live}

    def dev_hours(self):
        """{(host, dev, t0): (minutes, samples, rd_bytes, wr_bytes, ios,
        rd_ios, wr_ios, oth_ios, rd_ms, wr_ms, io_ms, peak_bytes, peak_t,
        peak_ios)} for every hour with a valid minute of the device: sums
        over its valid minutes in [t0, t0 + 3600)."""
        out = {}
        for key in self.devs:
            for t0 in {t // 3600 * 3600 for t in self.devsum[key]}:
                x = self._dev_sums(key, t0, t0 + 3600)
                out[key + (t0,)] = (x[1], x[0]) + x[2:11] + (x[11], x[13],
                                                             x[12])
        return out

    def _rollup(self, width):
        out = {}
        for t in self.minute_rows:
            state, rd, wr, ios = self.system[t]
            r = out.setdefault(t // width * width, [0, 0, 0, 0, None, None, None])
            if state != "complete":
                continue
            r[0] += 1
            r[1] += rd
            r[2] += wr
            r[3] += ios
            for i, x in ((4, rd + wr), (5, rd), (6, wr)):
                if r[i] is None or x > r[i]:
                    r[i] = x
        return {t: tuple(r) for t, r in out.items()}

    def hours(self):
        """{t: (minutes, rd_bytes, wr_bytes, ios, peak_bytes, peak_rd,
        peak_wr)} for every hour with an io_minute row."""
        return self._rollup(3600)

    def days(self):
        """The same per UTC day."""
        return self._rollup(86400)


def _state(c):
    if c[1] == c[0] and c[0] > 0:
        return ("complete", c[2], c[3], c[4])
    return ("missing", 0, 0, 0)


def build(hosts):
    """The model of a list of Host (the same host may come more than once)."""
    return Model(hosts)


def r127_decode(b, n):
    """n values from an r127 BLOB column, as sqlite3 returns it: bytes, or
    None (all zero). Anything else (a TEXT column: str) is an error."""
    if b is None:
        return [0] * n
    assert isinstance(b, bytes), "r127 column is %s, not a BLOB" % type(b)
    assert len(b) % n == 0, "r127 length %d not a multiple of %d" % (len(b), n)
    w = len(b) // n
    out = []
    for i in range(n):
        x = 0
        for d in reversed(b[i * w:(i + 1) * w]):
            assert 1 <= d <= 127, "r127 byte %d" % d
            x = x * 127 + d - 1
        out.append(x)
    return out
