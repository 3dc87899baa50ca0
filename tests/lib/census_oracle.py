"""census_oracle: what `iocensus snapshots|diff|growth|files` must answer,
recomputed from the generated snapshots of snapgen.py (never from the DB).

Rules (docs/analyses.md, "Census analyses"):
  diff:   deltas are B - A; share = group delta / file-system delta, None
          when that delta <= 0; "(unattributed)" = totals - sum of groups,
          last; rows by new files descending, then name.
  growth: points are complete snapshots, one per day: from the latest
          back, one that started less than a day (86400 s) before the
          point kept after it is a rescan and left out. x = days since the
          first point (start times); OLS with exact rationals;
          exponential = OLS on ln N; a rising line always has its point
          crossing; the earliest date is the first x from the last point
          on where the upper 95% band is at or above the target, the
          latest where the lower band reaches it, only when the slope is
          significant (else the lower band turns down for good); both by
          bisection; t quantile from the Abramowitz & Stegun 26.7 sums.
          Dates are the UTC day (unix seconds of its midnight) holding the
          crossing.
  files:  buckets from the values by their own arithmetic; percentile p by
          count: the bucket where the cumulative count first reaches
          p*total, interpolated linearly inside it, and clamped to the
          smallest and largest value of the selection (of the whole file
          system for a snapshot without per-project extremes, which then
          has no largest file or oldest age for a selection).
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
    return {"filesystems": [fsrow], "groups": _group_rows(rows, tot)}


def _group_rows(rows, tot):
    """rows: (name, [files, bytes, alloc] A, same B); tot: metric ->
    (A, B, delta). Sorted by new files, then name; unattributed last."""
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
            "growth_ratio": None if not va[0] or d[0] is None
            else d[0] / va[0],
            "share_new_files": _share(d[0], tot["files"][2]),
            "bytes_a": va[1], "bytes_b": vb[1], "d_bytes": d[1],
            "share_new_bytes": _share(d[1], tot["bytes"][2]),
            "d_alloc": d[2],
            "share_new_capacity": _share(d[2], tot["alloc"][2])})
    return out


def diff_multi(pairs, by="project", depth=1):
    """diff A1 B1 A2 B2 ...: a row per pair, a total row adding their
    deltas (no window, rate = sum of rates), groups added by key across
    file systems (shown by B's smallest name, else A's)."""
    fsrows = [diff(a, b, by, depth)["filesystems"][0] for a, b in pairs]
    tot = {"fs": "total", "snapshot_a": None, "snapshot_b": None,
           "t_a": None, "t_b": None, "days": None}
    for m in ("files", "bytes", "alloc"):
        for k in (m + "_a", m + "_b", "d_" + m):
            vals = [r[k] for r in fsrows]
            tot[k] = None if None in vals else sum(vals)
    tot["growth_factor"] = (tot["files_b"] / tot["files_a"]
                            if tot["files_a"] and tot["files_b"] is not None
                            else None)
    rates = [r["d_files_per_day"] for r in fsrows]
    tot["d_files_per_day"] = None if None in rates else sum(rates)
    if len(pairs) > 1:
        fsrows.append(tot)

    def side(snaps):
        g = {}
        for s in snaps:
            for k, (name, f, b, al) in _groups(s, by, depth).items():
                e = g.setdefault(k, [[], 0, 0, 0])
                e[0].append(name)
                e[1] += f
                e[2] += b
                e[3] += al
        return g
    ga, gb = side([a for a, _ in pairs]), side([b for _, b in pairs])
    tt = {m: (tot[m + "_a"], tot[m + "_b"], tot["d_" + m])
          for m in ("files", "bytes", "alloc")}
    rows = []
    for k in set(ga) | set(gb):
        ea = ga.get(k, [[], 0, 0, 0])
        eb = gb.get(k, [[], 0, 0, 0])
        name = min(eb[0], key=str.encode) if eb[0] else min(
            ea[0], key=str.encode)
        rows.append((name, ea[1:], eb[1:]))
    return {"filesystems": fsrows, "groups": _group_rows(rows, tt)}


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


def one_per_day(points):
    """[(id, t, value)] in time order, rescans left out: from the latest
    back, a point less than a day before the one kept after it."""
    kept = []
    for p in reversed(points):
        if kept and kept[-1][1] - p[1] < DAY:
            continue
        kept.append(p)
    return kept[::-1]


def _model(xs, vals, target, logy):
    m = {"slope": None, "r2": None, "rmse": None, "doubling": None,
         "xc": None, "xlo": None, "xhi": None, "state": "not determinable"}
    n = len(xs)
    if n == 1:
        m["state"] = "one snapshot"
        return m
    if logy and any(v <= 0 for v in vals):
        return m
    ys = [Fraction(math.log(v)) if logy else Fraction(v) for v in vals]
    if n < 2 or len(set(xs)) < 2:
        return m
    xbar, ybar, sxx, b, sse, syy = _ols(xs, ys)
    m["ols"] = (xbar, ybar, sxx, b, sse, n)
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
        fb, fx, fy, fs = float(b), float(xbar), float(ybar), float(sxx)
        xl = float(xs[-1])

        def half(x):
            return q * s * math.sqrt(1 + 1 / n + (x - fx) ** 2 / fs)

        def upper(x):
            return fy + fb * (x - fx) + half(x) - lv
        # the upper band from the last point on: at or above already, or
        # its one crossing after (it is convex and rises for good)
        m["xlo"] = xl if upper(xl) >= 0 else _bisect(upper, xl, 1.0)
        if float(b) > q * s / math.sqrt(float(sxx)):
            m["xhi"] = _bisect(lambda x: fy + fb * (x - fx) - half(x) - lv,
                               fx, 1.0)
    m["xc"] = float(xbar + (Fraction(lv) - ybar) / b)
    m["state"] = ("beyond 100 years" if m["xc"] - float(xs[-1]) > HORIZON
                  else "projected")
    now_rule(m, float(xs[-1]), vals[-1], target)
    return m


def now_rule(m, xlast, vlast, target):
    """docs/analyses.md: a line that crossed the target before the last
    point, which is still below it, reaches it now (the last point's time)
    at 95% of the target or more, and gives no date below."""
    if m["xc"] is None or not m["xc"] < xlast or not vlast < target:
        return
    if vlast * 100 >= 95 * target:
        m["xc"], m["state"] = xlast, "projected"
    else:
        m["xc"], m["state"] = None, "not determinable"


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
            # The linear slope is in the metric's unit per day; the
            # exponential one, of ln N, a rate per day: each its column.
            "model": name, "n": len(points),
            "slope_per_day": m["slope"] if name == "linear" else None,
            "rate_per_day": m["slope"] if name == "exponential" else None,
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
    fig, cut = _figure(points, xs, models, target)
    return {"points": prow, "projection": rows, "projection_points": fig,
            "figure_cut": cut, "models": models}


def growth_sum(by_fs, target):
    """growth over every file system. by_fs: [(fs, points)] in the order
    of each file system's first snapshot id, points as for growth(). The
    total is the sum of each file system's linear model (exact lines
    through 2 points, OLS through more), each evaluated at the same date:
    N(x) = A + B x, x in days since the earliest first snapshot. A file
    system without a line makes it not determinable. No band."""
    lines, fsrows, prows = [], [], []
    starts = [pts[0][1] for _, pts in by_fs if pts]
    t0 = min(starts) if starts else 0
    for fs, pts in by_fs:
        m, xs = {"slope": None}, []
        if pts:
            xs = [Fraction(t - pts[0][1], DAY) for _, t, _ in pts]
            m = _model(xs, [v for _, _, v in pts], target, 0)
        fitted = "ols" in m
        lines.append((pts, xs, m, fitted))
        fsrows.append({
            "fs": fs, "n": len(pts), "first": pts[0][1] if pts else None,
            "last": pts[-1][1] if pts else None,
            "value_first": pts[0][2] if pts else None,
            "value_last": pts[-1][2] if pts else None,
            "days": float(xs[-1]) if pts else None,
            "slope_per_day": m["slope"],
            "line": "none" if not fitted else "through 2 snapshots"
            if len(pts) == 2 else "least squares"})
        for i, (sid, t, v) in enumerate(pts):
            prows.append({"fs": fs, "snapshot": sid, "t": t, "value": v,
                          "linear_fit": float(_line(m, xs[i]))
                          if fitted else None})
    npoints = sum(len(p) for p, _, _, _ in lines)
    a = b = xlast = Fraction(0)
    latest = 0
    unfitted = any(not f for _, _, _, f in lines)
    for pts, xs, m, fitted in lines:
        if not fitted:
            continue
        xbar, ybar, sxx, slope, sse, n = m["ols"]
        off = Fraction(pts[0][1] - t0, DAY)
        a += ybar - slope * (off + xbar)
        b += slope
        latest += pts[-1][2]
        xlast = max(xlast, off + xs[-1])
    state, xc = "not determinable", None
    if not unfitted:
        if latest >= target:
            state = "already exceeded"
        elif b <= 0:
            state = "not growing"
        else:
            xc = (Fraction(target) - a) / b
            state = ("beyond 100 years" if xc - xlast > HORIZON
                     else "projected")
            if xc < xlast:
                m = {"xc": float(xc), "state": state}
                now_rule(m, float(xlast), latest, target)
                state, xc = m["state"], None if m["xc"] is None else xlast
    proj = [] if not npoints else [{
        "model": "linear", "n": npoints,
        "slope_per_day": None if unfitted else float(b),
        "rate_per_day": None, "r2": None,
        "rmse": None, "crossing": None if xc is None
        else _day(t0, float(xc), float(xlast)),
        "crossing_lo": None, "crossing_hi": None,
        "days_to_crossing": None if xc is None else float(xc - xlast),
        "state": state, "doubling_days": None}]
    fig = []
    if not unfitted and npoints:
        last = time_at(t0, xlast)
        horizon = last + FIG_SPANS * (last - t0)
        end, ext = last, []
        if xc is not None:
            tc = time_at(t0, min(xc, xlast + 2 * HORIZON))
            end = max(end, tc)
            ext = [tc] if t0 <= tc <= horizon else []
        end = min(end, horizon)
        for t, _ in fig_rows(t0, end, ext, []):
            fig.append({"t": t, "total_fit": float(a + b * Fraction(t - t0,
                                                                    DAY)),
                        "target": target})
    return {"filesystems": fsrows, "points": prows, "projection": proj,
            "projection_points": fig, "t0": t0, "a": a, "b": b, "xc": xc}


# ---- the growth figure ---------------------------------------------------
# Rows from the first snapshot to the latest crossing of the projection
# table (at most FIG_SPANS observed spans after the last snapshot): 65
# even steps, the crossings and the snapshots; a step or crossing at the
# time of another row is left out. Each model's line stops at its own
# crossing; the band is the linear model's, for n >= 3.

FIG_SPANS = 10
GRID_STEPS = 64


def llround(v):
    """C llround: to the nearest integer, halves away from zero."""
    return int(math.floor(v + Fraction(1, 2))) if v >= 0 else \
        -int(math.floor(-v + Fraction(1, 2)))


def time_at(t0, x):
    return t0 + llround(Fraction(x) * DAY)


def fig_rows(t0, t1, extra, points):
    """[(t, point index or None)] as growth_rows() builds them."""
    r = [(t0 + (t1 - t0) * i // GRID_STEPS, -1)
         for i in range(GRID_STEPS + 1)]
    r += [(t, -1) for t in extra]
    r += [(p[1], i) for i, p in enumerate(points)]
    r.sort()
    out = []
    for i, (t, k) in enumerate(r):
        if k < 0 and ((out and out[-1][0] == t) or
                      (i + 1 < len(r) and r[i + 1][0] == t)):
            continue
        out.append((t, k))
    return [(t, None if k < 0 else k) for t, k in out]


def _line(m, x):
    xbar, ybar, sxx, b, sse, n = m["ols"]
    return ybar + b * (x - xbar)


def _figure(points, xs, models, target):
    """(rows, the end when the figure stops before the crossing)."""
    if not points:
        return [], None
    t0, n = points[0][1], len(points)
    if n == 1:
        rows = fig_rows(t0, t0, [], points)
        return [{"t": t, "observed": points[k][2], "linear_fit": None,
                 "exponential_fit": None, "band_lo": None, "band_hi": None,
                 "target": target} for t, k in rows], None
    xlast = xs[-1]
    cap = lambda x: time_at(t0, min(Fraction(x), xlast + 2 * HORIZON))  # noqa
    tc, ext = [None, None], []
    for k, m in enumerate(models):
        if m["state"] not in ("projected", "beyond 100 years"):
            continue
        tc[k] = cap(m["xc"])
        ext.append(tc[k])
        if k == 0:
            ext += [cap(m[x]) for x in ("xlo", "xhi") if m[x] is not None]
    last = points[-1][1]
    horizon = last + FIG_SPANS * (last - t0)
    end = max([last] + ext)
    cut = end > horizon
    end = min(end, horizon)
    ext = [e for e in ext if t0 <= e <= end]
    rows = []
    q = t975(n - 2) if n >= 3 else None
    for t, k in fig_rows(t0, end, ext, points):
        x = Fraction(t - t0, DAY)
        row = {"t": t, "observed": None if k is None else points[k][2],
               "linear_fit": None, "exponential_fit": None,
               "band_lo": None, "band_hi": None, "target": target}
        for j, (m, col) in enumerate(zip(models, ("linear_fit",
                                                  "exponential_fit"))):
            if "ols" not in m or (tc[j] is not None and t > tc[j]):
                continue
            y = _line(m, x)
            row[col] = math.exp(y) if j else float(y)
        m = models[0]
        if n >= 3 and "ols" in m:
            xbar, ybar, sxx, b, sse, _ = m["ols"]
            s_ = math.sqrt(float(sse) / (n - 2))
            h = q * s_ * math.sqrt(1 + 1 / n + float((x - xbar) ** 2 / sxx))
            y = float(_line(m, x))
            row["band_lo"], row["band_hi"] = y - h, y + h
        rows.append(row)
    return rows, (end if cut else None)


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
    # The smallest and largest value of the selection: exact when the
    # snapshot keeps per-project extremes (schema 3) or for the whole file
    # system; else the whole file system's bound the percentiles only.
    filtered = project is not None or bool(exclude)
    exact = not filtered or s.schema >= 3
    ext = None
    if sel:
        unit = 1 if metric == "size" else DAY
        allv = [_value(f, metric, s.now) for f in (sel if exact else
                                                   s.files)]
        ext = (Fraction(min(allv), unit), Fraction(max(allv), unit))
    pct = []
    for p in (50, 90, 95, 99):
        row = {"p": p / 100}
        where = []
        for col, idx, lo_c, hi_c in (("by_count", 0, "count_lo", "count_hi"),
                                     ("by_bytes", 1, "bytes_lo", "bytes_hi")):
            total = nf if idx == 0 else nb
            row[col] = row[lo_c] = row[hi_c] = None
            want, cum = Fraction(p * total, 100), 0
            where.append("none")
            for k in keys:
                v = b[k][idx]
                if v == 0 or cum + v < want:
                    cum += v
                    continue
                where[-1] = "future" if k is None else "bucket"
                if k is not None:
                    x = k[0] + (want - cum) / v * (k[1] - k[0])
                    if ext:                 # never beyond what was scanned
                        x = min(max(x, ext[0]), ext[1])
                    row[col] = float(x)
                    row[lo_c], row[hi_c] = k
                break
        row["method"] = _pct_method(*where)
        pct.append(row)
    return {"distribution": dist, "percentiles": pct,
            "facts": [_facts(s, metric, sel, dist, keys, b, nf, nb,
                             not exact)]}


def _pct_method(c, b):
    """How a row's percentiles were found; "none" by bytes: no bytes."""
    how = {"none": "no bytes (n/a)",
           "bucket": "interpolated within bucket [lo, hi)",
           "future": "in the future-timestamps row (n/a)"}
    if c == "none":
        return "no files"
    if c == b:
        return how[c] if c == "bucket" else \
            "in the future-timestamps row: no age (n/a)"
    return "by count %s; by bytes %s" % (how[c], how[b])


def _facts(s, metric, sel, dist, keys, b, nf, nb, unknown):
    fx = {"snapshot": s.id, "files": nf, "bytes": nb, "popular_lo": None,
          "popular_hi": None, "popular_files": None}
    if keys:
        best = max(keys, key=lambda k: (b[k][0], -keys.index(k)))
        fx["popular_lo"] = None if best is None else best[0]
        fx["popular_hi"] = 0 if best is None else best[1]
        fx["popular_files"] = b[best][0]
    allv = [_value(f, metric, s.now) for f in sel]
    none = sum(1 for f in s.files if f.project == "(none)")
    fx["unresolved_share"] = none / len(s.files) if s.files else None

    def share(pred, idx, total):
        return (sum(b[k][idx] for k in keys if pred(k)) / total
                if total else None)
    if metric == "size":
        fx["largest_file"] = None if unknown or not sel else max(allv)
        for name, e in (("1mib", 2 ** 20), ("2mib", 2 ** 21),
                        ("128mib", 2 ** 27)):
            fx["files_lt_" + name] = share(lambda k: k[1] <= e, 0, nf)
            fx["bytes_lt_" + name] = share(lambda k: k[1] <= e, 1, nb)
    else:
        fx["oldest_days"] = None if unknown or not sel else max(allv) / DAY
        fx["edge_days"] = 32
        fx["files_old"] = share(lambda k: k is not None and k[0] >= 32, 0, nf)
        fx["bytes_old"] = share(lambda k: k is not None and k[0] >= 32, 1, nb)
        fx["future_files"] = b[None][0] if None in b else 0
    return fx
