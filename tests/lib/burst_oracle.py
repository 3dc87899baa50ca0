"""burst_oracle: the expected `iocensus burst` and `iocensus devices`
tables, computed from the io_oracle model (never from the database).

    from io_oracle import load_raw, build
    from burst_oracle import burst, load, devices
    m = build([load_raw(p, h) for p, h in captures])
    rows = burst(m, hosts=None, frm=None, to=None, cs=(0, 131072, 1048576))
    classes, counts, ref = load(m, hosts=None, host_peak=None)
    devs, hosts, imbalance = devices(m)

Rows are dicts keyed by the JSON column keys; None is NULL. Definitions
(docs/analyses.md, "Burstiness" and "Hourly load classes"):

burst: servers S = the selected hosts with an expected minute in the
window. A minute is valid iff no server is expected-but-incomplete and at
least one is complete; other minutes split runs and count nowhere.
delta(s, m) = bytes(s, m) > c; H = any delta; I = io / valid;
l_IO, l_noIO = mean run lengths (l_noIO = 0 without a quiet run);
rho = 1 - tanh(l_IO / l_noIO) if l_noIO > 0 else 0; Pi = mean share of
active servers over the minutes with H = 1; P = (|S| Pi - 1) / (|S| - 1).
No valid minute: only counts; no I/O minute: I = 0, l_IO, rho, Pi, P None.

load classes (Beacon): per server and UTC hour, peak = the busiest complete
minute; missing when an expected minute is not complete or no minute is
complete. P_ref = host_peak MiB/s or the observed maximum; exact compares
(fractions): idle r < 10%, low < 50%, mid <= 90%, high > 90%.

devices: the selected devices expected somewhere in the window; per
device, sums over its valid minutes in [from, to) (io_oracle's device
sums: covered = 60 s a valid minute, so gaps and time outside the window
never count). The tables are empty only when no device has a valid
minute in the window, whether or not a minute is complete system-wide.
"""
import math
from fractions import Fraction

from ioan_oracle import exact, mib_s

MIB = 2 ** 20
DEFAULT_C = (0, 128 * 1024, 1024 * 1024)

def _window(model, hosts, frm, to):
    return model.resolve(hosts, frm, to)


def servers(model, hosts=None, frm=None, to=None):
    """The selected hosts with an expected minute in the window, by name."""
    win = _window(model, hosts, frm, to)
    if win is None:
        return []
    return [h for h in model.hosts_matching(hosts)
            if any(win[0] <= t < win[1] for t in model.host[h])]


def complete_minutes(model, hosts=None, frm=None, to=None):
    return sum(1 for x in model.series(hosts, frm, to) if x[1] == "complete")


def _minutes(model, hosts, frm, to):
    """[(t, [(state, rd, wr, ios) or None per server])], and the servers."""
    win = _window(model, hosts, frm, to)
    srv = servers(model, hosts, frm, to)
    if win is None or not srv or not complete_minutes(model, hosts, frm, to):
        return [], []
    return [(t, [model.host[h].get(t) for h in srv])
            for t in range(win[0], win[1], 60)], srv


# ---------------------------------------------------------------- burst

def _runs(flags):
    """Maximal runs of the valid minutes: [(value, length)]; None splits."""
    runs = []
    prev = None
    for f in flags:
        if f is None:
            prev = None
            continue
        if f == prev:
            runs[-1][1] += 1
        else:
            runs.append([f, 1])
        prev = f
    return runs


def burst_row(mins, nserver, direction, c):
    col = 1 if direction == "read" else 2
    flags, active = [], []
    for t, st in mins:
        if any(x is not None and x[0] == "missing" for x in st) or \
                not any(x is not None and x[0] == "complete" for x in st):
            flags.append(None)
            continue
        n = sum(1 for x in st if x is not None and x[0] == "complete"
                and x[col] > c)
        flags.append(n > 0)
        if n:
            active.append(n)
    runs = _runs(flags)
    valid = sum(1 for f in flags if f is not None)
    io = sum(1 for f in flags if f)
    io_runs = [n for v, n in runs if v]
    quiet = [n for v, n in runs if not v]
    row = {"direction": direction, "c_bytes": c, "valid_minutes": valid,
           "io_minutes": io, "io_runs": len(io_runs),
           "noio_runs": len(quiet), "servers": nserver, "i": None,
           "l_io": None, "l_noio": None, "rho": None, "pi": None, "p": None}
    if valid == 0:
        return row
    row["i"] = io / valid
    l_noio = sum(quiet) / len(quiet) if quiet else 0.0
    row["l_noio"] = l_noio
    if io == 0:
        return row
    l_io = sum(io_runs) / len(io_runs)
    row["l_io"] = l_io
    row["rho"] = 1 - math.tanh(l_io / l_noio) if l_noio > 0 else 0.0
    pi = sum(active) / (nserver * io)
    row["pi"] = pi
    if nserver > 1:
        row["p"] = (nserver * pi - 1) / (nserver - 1)
    return row


def burst(model, hosts=None, frm=None, to=None, cs=DEFAULT_C):
    """The "burst" table: per c, a read row then a write row."""
    mins, srv = _minutes(model, hosts, frm, to)
    if not srv:
        return []
    return [burst_row(mins, len(srv), d, c) for c in cs
            for d in ("read", "write")]


# ---------------------------------------------------------------- load

def _ref_bytes(host_peak):
    """P_ref in bytes per minute, exact, for a configured MiB/s decimal
    (the string given to --host-peak, or see ioan_oracle.exact)."""
    return exact(host_peak) * 60 * MIB


def _cmp(b, pct, ref):
    """sign(b - pct% of ref), exact."""
    x = Fraction(b) - Fraction(pct) / 100 * ref
    return (x > 0) - (x < 0)


def load(model, hosts=None, frm=None, to=None, host_peak=None):
    """(load_classes rows, load_counts rows, ref) where ref is
    {"configured": bool, "bytes": observed max or None, "t", "host"}."""
    mins, srv = _minutes(model, hosts, frm, to)
    ref = {"configured": bool(host_peak), "bytes": None, "t": None,
           "host": None}
    for t, st in mins:
        for h, x in zip(srv, st):
            if x is not None and x[0] == "complete" and \
                    (ref["bytes"] is None or x[1] + x[2] > ref["bytes"]):
                ref.update(bytes=x[1] + x[2], t=t, host=h)
    if host_peak:
        pref = _ref_bytes(host_peak)
    else:
        pref = Fraction(ref["bytes"] or 0)
    by_hour = {}
    for t, st in mins:
        by_hour.setdefault(t // 3600 * 3600, []).append(st)
    hours = sorted(by_hour)
    classes, counts = [], []
    for i, h in enumerate(srv):
        cnt = {"host": h, "idle": 0, "low": 0, "mid": 0, "high": 0,
               "missing": 0, "complete_minutes": 0, "above75_minutes": 0,
               "above75_share": None}
        for h0 in hours:
            st = [x[i] for x in by_hour[h0]]
            comp = [x[1] + x[2] for x in st if x is not None
                    and x[0] == "complete"]
            miss = any(x is not None and x[0] == "missing" for x in st)
            row = {"host": h, "t": h0, "class": None,
                   "complete_minutes": len(comp), "peak_mib_s": None,
                   "ratio": None}
            cnt["complete_minutes"] += len(comp)
            cnt["above75_minutes"] += sum(1 for b in comp
                                          if _cmp(b, 75, pref) > 0)
            if miss or not comp:
                row["class"] = "missing"
            else:
                p = max(comp)
                row["peak_mib_s"] = mib_s(p)
                if host_peak:
                    row["ratio"] = float(p / pref)
                elif pref:
                    row["ratio"] = p / ref["bytes"]
                if not host_peak and pref == 0:
                    row["class"] = "idle"
                elif _cmp(p, 10, pref) < 0:
                    row["class"] = "idle"
                elif _cmp(p, 50, pref) < 0:
                    row["class"] = "low"
                elif _cmp(p, 90, pref) <= 0:
                    row["class"] = "mid"
                else:
                    row["class"] = "high"
            cnt[row["class"]] += 1
            classes.append(row)
        if cnt["complete_minutes"]:
            cnt["above75_share"] = (cnt["above75_minutes"] /
                                    cnt["complete_minutes"])
        counts.append(cnt)
    return classes, counts, ref


# ---------------------------------------------------------------- devices

def _dev_stat(model, key, win):
    x = model._dev_sums(key, win[0], win[1])
    d = {"host": key[0], "device": key[1], "samples": x[0],
         "minutes": x[1], "covered_ms": 60000 * x[1]}
    for i, f in enumerate(("rd_bytes", "wr_bytes", "ios", "rd_ios", "wr_ios",
                           "oth_ios", "rd_ms", "wr_ms", "io_ms")):
        d[f] = x[2 + i]
    d["peak_bytes"] = d["peak_t"] = d["peak_ios"] = None
    if x[1]:
        d["peak_bytes"], d["peak_ios"], d["peak_t"] = x[11], x[12], x[13]
    return d


def _div(a, b):
    return a / b if b else None


def _row(d, name_key, name):
    """A devices/hosts table row from summed figures d."""
    ios = d["rd_ios"] + d["wr_ios"]
    by = d["rd_bytes"] + d["wr_bytes"]
    row = {"host": d["host"], name_key: name, "samples": d["samples"],
           "covered_s": d["covered_ms"] / 1000, "minutes": d["minutes"],
           "rd_bytes": d["rd_bytes"], "wr_bytes": d["wr_bytes"],
           "avg_mib_s": d["avg_mib_s"], "avg_iops": d["avg_iops"],
           "peak_mib_s": None, "peak_t": None, "peak_iops": None,
           "util": _div(d["io_ms"], d["covered_ms"]),
           "await_ms": _div(d["rd_ms"] + d["wr_ms"], ios),
           "avg_req_kib": by / ios / 1024 if ios else None,
           "read_share": _div(d["rd_bytes"], by)}
    if d["peak_t"] is not None:
        row["peak_mib_s"] = mib_s(d["peak_bytes"])
        row["peak_t"] = d["peak_t"]
        row["peak_iops"] = d["peak_ios"] / 60
    return row


def _rates(d):
    if d["covered_ms"]:
        sec = d["covered_ms"] / 1000
        d["avg_mib_s"] = (d["rd_bytes"] + d["wr_bytes"]) / sec / MIB
        d["avg_iops"] = d["ios"] / sec
    else:
        d["avg_mib_s"] = d["avg_iops"] = None


def _host_peak(model, h, win):
    """(complete minutes, peak bytes, peak t, peak ios) of host h."""
    n, pb, pt, pi = 0, None, None, None
    for t in range(win[0], win[1], 60):
        x = model.host[h].get(t)
        if x is None or x[0] != "complete":
            continue
        n += 1
        if pb is None or x[1] + x[2] > pb:
            pb, pt = x[1] + x[2], t
        if pi is None or x[3] > pi:
            pi = x[3]
    return n, pb, pt, pi


def _imbalance(scope, host, members, name_key):
    avg = [(m[name_key], m["avg_mib_s"]) for m in members
           if m["avg_mib_s"] is not None]
    peaks = [m["_peak_bytes"] for m in members if m["_peak_bytes"] is not None]
    row = {"scope": scope, "host": host, "members": len(members),
           "mean_avg_mib_s": None, "max_avg_mib_s": None, "busiest": None,
           "avg_imbalance": None, "peak_members": len(peaks),
           "mean_peak_mib_s": None, "max_peak_mib_s": None,
           "peak_imbalance": None}
    if avg:
        s = 0.0
        for _, v in avg:
            s += v
        best = max(v for _, v in avg)
        row["mean_avg_mib_s"] = s / len(avg)
        row["max_avg_mib_s"] = best
        row["busiest"] = next(n for n, v in avg if v == best)
        if s > 0:
            row["avg_imbalance"] = best / (s / len(avg))
    if peaks:
        s, best = sum(peaks), max(peaks)
        row["mean_peak_mib_s"] = s / len(peaks) / 60 / MIB
        row["max_peak_mib_s"] = mib_s(best)
        if s:
            row["peak_imbalance"] = best * len(peaks) / s
    return row


def devices(model, hosts=None, frm=None, to=None):
    """(devices rows, hosts rows, imbalance rows)."""
    win = _window(model, hosts, frm, to)
    if win is None:
        return [], [], []
    sel = set(model.hosts_matching(hosts))
    stats = [_dev_stat(model, k, win) for k in sorted(model.devs)
             if k[0] in sel and any(win[0] <= t < win[1]
                                    for t in model.expected[k])]
    if not any(d["minutes"] for d in stats):
        return [], [], []
    drows, hrows, imb, hmembers = [], [], [], []
    for h in sorted({d["host"] for d in stats}):
        ds = [d for d in stats if d["host"] == h]
        members = []
        for d in ds:
            _rates(d)
            r = _row(d, "device", d["device"])
            # The captures carry no identity (no import --ident).
            r.update(wwn=None, serial=None, model=None, slot=None)
            r["_peak_bytes"] = d["peak_bytes"]
            members.append(r)
        tot = {"host": h, "samples": 0, "covered_ms": 0}
        for f in ("rd_ios", "wr_ios", "rd_ms", "wr_ms", "io_ms", "oth_ios",
                  "rd_bytes", "wr_bytes", "samples", "covered_ms", "ios"):
            tot[f] = sum(d[f] for d in ds)
        tot["avg_mib_s"] = tot["avg_iops"] = None
        for d in ds:
            if d["covered_ms"]:
                for f in ("avg_mib_s", "avg_iops"):
                    tot[f] = d[f] if tot[f] is None else tot[f] + d[f]
        tot["minutes"], tot["peak_bytes"], tot["peak_t"], tot["peak_ios"] = \
            _host_peak(model, h, win)
        hr = _row(tot, "devices", len(ds))
        hr["_peak_bytes"] = tot["peak_bytes"]
        imb.append(_imbalance("devices of host", h, members, "device"))
        drows.extend(members)
        hrows.append(hr)
    if hrows:
        imb.append(_imbalance("hosts", None, hrows, "host"))
    for r in drows + hrows:
        del r["_peak_bytes"]
    return drows, hrows, imb
