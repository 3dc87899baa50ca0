"""census_oracle: what `iocensus snapshots|diff|growth|files` must answer,
recomputed from the generated snapshots of snapgen.py (never from the DB).

Rules (study-analyses.md 1.4-1.7 and 4, as iocensus documents them):
  diff:   deltas are B - A; share = group delta / file-system delta, None
          when that delta <= 0; "(unattributed)" = totals - sum of groups,
          last; rows by new files descending, then name.
  growth: x = days since the first complete snapshot (start times); OLS
          with exact rationals; exponential = OLS on ln N; the 95%
          prediction band's crossings found by bisection; t quantile from
          the Abramowitz & Stegun 26.7 sums. Dates are the UTC day
          (unix seconds of its midnight) holding the crossing.
  files:  buckets from the values by their own arithmetic; percentile p by
          count: the bucket where the cumulative count first reaches
          p*total, interpolated linearly inside it, and clamped to the
          smallest and largest value scanned (whole file system only).
Floats are Python floats; compare with 1e-9 relative.
"""
import math
from fractions import Fraction

DAY = 86400
HORIZON = 36525


# ---- snapshots -----------------------------------------------------------

def totals(s):
    """(files, dirs, bytes, alloc) of a snapgen Snapshot, or None."""
    if s.status == "running":
        return None
    if s.files is None:
        return (s.totals[0], 0, s.totals[1], s.totals[2])
    dirs = set()
    for f in s.files:
        parts = [] if f.dir == "." else f.dir.split("/")
        for k in range(1, len(parts) + 1):
            dirs.add("/".join(parts[:k]))
    return (len(s.files), len(dirs), sum(f.size for f in s.files),
            sum(f.alloc for f in s.files))


def snapshots(snaps):
    rows = []
    for s in sorted(snaps, key=lambda s: s.id):
        t = totals(s)
        rows.append({
            "id": s.id, "fs": s.fs, "root": s.root,
            "started_at": s.started_at,
            "finished_at": None if s.status == "running"
            else s.started_at + 600,
            "complete": int(s.status == "complete"), "status": s.status,
            "files": t and t[0], "dirs": t and t[1], "bytes": t and t[2],
            "alloc_bytes": t and t[3], "errors": None if t is None else 0})
    return rows


# ---- diff ----------------------------------------------------------------

def _group_of(f, by, depth, s):
    """(key, display name) of file f, or None when it has no group."""
    if by == "project":
        return f.project, f.project
    if by in ("user", "group"):
        i = f.uid if by == "user" else f.gid
        names = s.users if by == "user" else s.groups
        return str(i), names.get(i, str(i))
    parts = [] if f.dir == "." else f.dir.split("/")
    if len(parts) < depth:
        return None
    p = "/".join(parts[:depth]) if depth else "."
    return p, p


def _groups(s, by, depth):
    g = {}
    for f in s.files or ():
        k = _group_of(f, by, depth, s)
        if k is None:
            continue
        e = g.setdefault(k[0], [k[1], 0, 0, 0])
        e[1] += 1
        e[2] += f.size
        e[3] += f.alloc
    return g


def _share(d, dt):
    if d is None or dt is None or dt <= 0:
        return None
    return d / dt


def diff(a, b, by="project", depth=1):
    ta, tb = totals(a), totals(b)
    days = (b.started_at - a.started_at) / DAY
    fsrow = {"fs": b.fs, "snapshot_a": a.id, "snapshot_b": b.id,
             "t_a": a.started_at, "t_b": b.started_at, "days": days}
    tot = {}
    for name, i in (("files", 0), ("bytes", 2), ("alloc", 3)):
        va = ta[i] if ta else None
        vb = tb[i] if tb else None
        tot[name] = (va, vb, None if va is None or vb is None else vb - va)
        fsrow[name + "_a"], fsrow[name + "_b"] = va, vb
    fsrow["d_files"] = tot["files"][2]
    fsrow["d_bytes"] = tot["bytes"][2]
    fsrow["d_alloc"] = tot["alloc"][2]
    fa, fb, dn = tot["files"]
    fsrow["growth_factor"] = fb / fa if fa and fb is not None else None
    fsrow["d_files_per_day"] = dn / days if dn is not None and days else None

    ga, gb = _groups(a, by, depth), _groups(b, by, depth)
    rows = []
    for k in set(ga) | set(gb):
        ea = ga.get(k, [None, 0, 0, 0])
        eb = gb.get(k, [None, 0, 0, 0])
        rows.append((eb[0] or ea[0], ea[1:], eb[1:]))
    rows.sort(key=lambda r: (-(r[2][0] - r[1][0]), r[0].encode()))
    una = [None if tot[m][0] is None else tot[m][0] - sum(r[1][i]
           for r in rows) for i, m in enumerate(("files", "bytes", "alloc"))]
    unb = [None if tot[m][1] is None else tot[m][1] - sum(r[2][i]
           for r in rows) for i, m in enumerate(("files", "bytes", "alloc"))]
    rows.append(("(unattributed)", una, unb))
    out = []
    for name, va, vb in rows:
        d = [None if x is None or y is None else y - x
             for x, y in zip(va, vb)]
        out.append({
            "name": name, "files_a": va[0], "files_b": vb[0],
            "d_files": d[0],
            "pct_growth": None if not va[0] or d[0] is None
            else d[0] / va[0],
            "share_new_files": _share(d[0], tot["files"][2]),
            "bytes_a": va[1], "bytes_b": vb[1], "d_bytes": d[1],
            "share_new_bytes": _share(d[1], tot["bytes"][2]),
            "d_alloc": d[2],
            "share_new_capacity": _share(d[2], tot["alloc"][2])})
    return {"filesystems": [fsrow], "groups": out}


# ---- growth --------------------------------------------------------------

def t_abs_cdf(t, nu):
    """P(|T| <= t) for integer nu (Abramowitz & Stegun 26.7.3, 26.7.4)."""
    th = math.atan(t / math.sqrt(nu))
    s, c = math.sin(th), math.cos(th)
    if nu % 2 == 1:
        if nu == 1:
            return 2 * th / math.pi
        term = tot = c
        for k in range(1, (nu - 3) // 2 + 1):
            term *= c * c * (2 * k) / (2 * k + 1)
            tot += term
        return 2 / math.pi * (th + s * tot)
    term = tot = 1.0
    for k in range(1, (nu - 2) // 2 + 1):
        term *= c * c * (2 * k - 1) / (2 * k)
        tot += term
    return s * tot


def t975(nu):
    lo, hi = 0.0, 1.0
    while t_abs_cdf(hi, nu) < 0.95:
        hi *= 2
    while True:
        mid = (lo + hi) / 2
        if mid <= lo or mid >= hi:
            return mid
        if t_abs_cdf(mid, nu) < 0.95:
            lo = mid
        else:
            hi = mid


def _ols(xs, ys):
    """Exact OLS over Fractions: (xbar, ybar, sxx, slope, sse, syy)."""
    n = len(xs)
    xbar = sum(xs) / n
    ybar = sum(ys) / n
    sxx = sum((x - xbar) ** 2 for x in xs)
    sxy = sum((x - xbar) * (y - ybar) for x, y in zip(xs, ys))
    syy = sum((y - ybar) ** 2 for y in ys)
    b = sxy / sxx
    sse = sum((y - ybar - b * (x - xbar)) ** 2 for x, y in zip(xs, ys))
    return xbar, ybar, sxx, b, sse, syy


def _bisect(g, x0, step):
    """A root of the increasing function g, searching from x0."""
    lo, hi = x0, x0
    while g(hi) < 0:
        hi += step
        step *= 2
    step = abs(step) or 1.0
    while g(lo) > 0:
        lo -= step
        step *= 2
    for _ in range(400):
        mid = (lo + hi) / 2
        if mid <= lo or mid >= hi:
            break
        if g(mid) < 0:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def _model(xs, vals, target, logy):
    m = {"slope": None, "r2": None, "rmse": None, "doubling": None,
         "xc": None, "xlo": None, "xhi": None, "state": "not determinable"}
    n = len(xs)
    if logy and any(v <= 0 for v in vals):
        return m
    ys = [Fraction(math.log(v)) if logy else Fraction(v) for v in vals]
    if n < 2 or len(set(xs)) < 2:
        return m
    xbar, ybar, sxx, b, sse, syy = _ols(xs, ys)
    m["slope"] = float(b)
    m["fit"] = [float(ybar + b * (x - xbar)) for x in xs]
    if logy:
        m["fit"] = [math.exp(ybar + b * (x - xbar)) for x in xs]
    if n >= 3:
        m["r2"] = float(1 - sse / syy) if syy > 0 else None
        m["rmse"] = math.sqrt(sum((v - f) ** 2 for v, f in
                                  zip(vals, m["fit"])) / n)
    if logy and b > 0:
        m["doubling"] = math.log(2) / float(b)
    if b <= 0:
        m["state"] = "not growing"
        return m
    lv = math.log(target) if logy else target
    if n >= 3:
        q = t975(n - 2)
        s = math.sqrt(float(sse) / (n - 2))
        if not float(b) > q * s / math.sqrt(float(sxx)):
            return m
        fb, fx, fy, fs = float(b), float(xbar), float(ybar), float(sxx)

        def half(x):
            return q * s * math.sqrt(1 + 1 / n + (x - fx) ** 2 / fs)
        m["xlo"] = _bisect(lambda x: fy + fb * (x - fx) + half(x) - lv,
                           fx, 1.0)
        m["xhi"] = _bisect(lambda x: fy + fb * (x - fx) - half(x) - lv,
                           fx, 1.0)
        # not reached by the last snapshot: not earlier than it either
        if m["xlo"] < float(xs[-1]) and vals[-1] < target:
            m["xlo"] = float(xs[-1])
    m["xc"] = float(xbar + (Fraction(lv) - ybar) / b)
    m["state"] = ("beyond 100 years" if m["xc"] - float(xs[-1]) > HORIZON
                  else "projected")
    return m


def _day(t0, x, xlast):
    if x is None or abs(x - xlast) > HORIZON:
        return None
    return math.floor((t0 + x * DAY) / DAY) * DAY


def growth(points, target):
    """points: [(snapshot id, started_at, value)] of complete snapshots in
    time order. Returns {"points": rows, "projection": [linear, exp]}."""
    t0 = points[0][1]
    xs = [Fraction(t - t0, DAY) for _, t, _ in points]
    vals = [v for _, _, v in points]
    xlast = float(xs[-1])
    models = [_model(xs, vals, target, 0), _model(xs, vals, target, 1)]
    first_hit = None if vals[-1] < target else next(
        i for i, v in enumerate(vals) if v >= target)
    rows = []
    for name, m in zip(("linear", "exponential"), models):
        if first_hit is not None:
            m.update(state="already exceeded", xc=float(xs[first_hit]),
                     xlo=None, xhi=None)
        rows.append({
            "model": name, "n": len(points), "slope_per_day": m["slope"],
            "r2": m["r2"], "rmse": m["rmse"],
            "crossing": _day(t0, m["xc"], xlast),
            "crossing_lo": _day(t0, m["xlo"], xlast),
            "crossing_hi": _day(t0, m["xhi"], xlast),
            "days_to_crossing": None if m["xc"] is None else m["xc"] - xlast,
            "state": m["state"], "doubling_days": m["doubling"]})
    fits = [m.get("fit") or [None] * len(points) for m in models]
    prow = [{"snapshot": sid, "t": t, "value": v, "linear_fit": fits[0][i],
             "exponential_fit": fits[1][i]}
            for i, (sid, t, v) in enumerate(points)]
    return {"points": prow, "projection": rows}


# ---- files ---------------------------------------------------------------

def bucket(metric, v):
    """(lo, hi) in display units (bytes; days for ages); None: future."""
    if metric == "size":
        k = 11
        while v >= 2 ** k:
            k += 1
        return (0 if k == 11 else 2 ** (k - 1), 2 ** k)
    if v < 0:
        return None
    days = v // DAY
    k = 1
    while days >= 2 ** k:
        k += 1
    return (0 if k == 1 else 2 ** (k - 1), 2 ** k)


def _value(f, metric, now):
    return f.size if metric == "size" else now - getattr(f, metric)


def files(s, metric="size", project=None, exclude=()):
    sel = [f for f in s.files if (project is None or f.project == project)
           and f.project not in exclude]
    b = {}
    for f in sel:
        k = bucket(metric, _value(f, metric, s.now))
        e = b.setdefault(k, [0, 0])
        e[0] += 1
        e[1] += f.size
    keys = sorted(b, key=lambda k: (-1, 0) if k is None else k)
    nf = sum(e[0] for e in b.values())
    nb = sum(e[1] for e in b.values())
    dist, cf, cb = [], 0, 0
    for k in keys:
        cf += b[k][0]
        cb += b[k][1]
        dist.append({
            "lo": None if k is None else k[0], "hi": 0 if k is None else k[1],
            "files": b[k][0], "bytes": b[k][1],
            "share_files": b[k][0] / nf if nf else None,
            "share_bytes": b[k][1] / nb if nb else None,
            "cum_files": cf / nf if nf else None,
            "cum_bytes": cb / nb if nb else None})
    # The smallest and largest value scanned, known for the whole file
    # system only: percentiles are clamped to them.
    ext = None
    if project is None and not exclude and sel:
        unit = 1 if metric == "size" else DAY
        allv = [_value(f, metric, s.now) for f in s.files]
        ext = (Fraction(min(allv), unit), Fraction(max(allv), unit))
    pct = []
    for p in (50, 90, 95, 99):
        row = {"p": p / 100, "method": "interpolated within bucket [lo, hi)"}
        for col, idx, lo_c, hi_c in (("by_count", 0, "count_lo", "count_hi"),
                                     ("by_bytes", 1, "bytes_lo", "bytes_hi")):
            total = nf if idx == 0 else nb
            row[col] = row[lo_c] = row[hi_c] = None
            want, cum = Fraction(p * total, 100), 0
            for k in keys:
                v = b[k][idx]
                if v == 0 or cum + v < want:
                    cum += v
                    continue
                if k is not None:
                    x = k[0] + (want - cum) / v * (k[1] - k[0])
                    if ext:                 # never beyond what was scanned
                        x = min(max(x, ext[0]), ext[1])
                    row[col] = float(x)
                    row[lo_c], row[hi_c] = k
                break
        pct.append(row)
    return {"distribution": dist, "percentiles": pct,
            "facts": [_facts(s, metric, sel, dist, keys, b, nf, nb,
                             project is not None or bool(exclude))]}


def _facts(s, metric, sel, dist, keys, b, nf, nb, filtered):
    fx = {"snapshot": s.id, "files": nf, "bytes": nb, "popular_lo": None,
          "popular_hi": None, "popular_files": None}
    if keys:
        best = max(keys, key=lambda k: (b[k][0], -keys.index(k)))
        fx["popular_lo"] = None if best is None else best[0]
        fx["popular_hi"] = 0 if best is None else best[1]
        fx["popular_files"] = b[best][0]
    allv = [_value(f, metric, s.now) for f in s.files]
    none = sum(1 for f in s.files if f.project == "(none)")
    fx["unresolved_share"] = none / len(s.files) if s.files else None

    def share(pred, idx, total):
        return (sum(b[k][idx] for k in keys if pred(k)) / total
                if total else None)
    if metric == "size":
        fx["largest_file"] = None if filtered or not sel else max(allv)
        for name, e in (("1mib", 2 ** 20), ("2mib", 2 ** 21),
                        ("128mib", 2 ** 27)):
            fx["files_lt_" + name] = share(lambda k: k[1] <= e, 0, nf)
            fx["bytes_lt_" + name] = share(lambda k: k[1] <= e, 1, nb)
    else:
        fx["oldest_days"] = None if filtered or not sel else max(allv) / DAY
        fx["edge_days"] = 32
        fx["files_old"] = share(lambda k: k is not None and k[0] >= 32, 0, nf)
        fx["bytes_old"] = share(lambda k: k is not None and k[0] >= 32, 1, nb)
        fx["future_files"] = b[None][0] if None in b else 0
    return fx
