#!/usr/bin/env python3
"""pycapacity.py: the capacity questions of `make bench`, answered by a
straightforward Python 3 stdlib program over the stable views (v_snapshot,
v_project, v_limit), as a peer to time iocensus against.

    pycapacity.py growth DB FS PROJECT   # used bytes to the project's limit
    pycapacity.py usage DB               # per project: latest, change
    pycapacity.py capacity DB FROM TO    # every file system and project

Same rules as iocensus: complete snapshots, one point per day (of two
less than a day apart the later), least squares, the crossing of the
target and the 95% prediction band's earliest and latest dates, none
more than 100 years after the last point; a line that crossed before
the last point, still under the target, gives that point's day at 95% of
the target or more, and no date below. Prints
JSON (the dates as unix seconds of the UTC day) for a check against
iocensus.
"""
import json
import math
import os
import sqlite3
import sys

# The t quantile of the tests' oracle (Abramowitz & Stegun 26.7).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "tests", "lib"))
from census_oracle import t975  # noqa: E402

DAY = 86400
HORIZON = 36525         # days: a date beyond is none


def one_per_day(pts):
    kept = []
    for p in reversed(pts):
        if not kept or kept[-1][0] - p[0] >= DAY:
            kept.append(p)
    return kept[::-1]


def bisect(g, lo, hi):
    while g(hi) < 0:
        hi = lo + 2 * (hi - lo) + 1
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if g(mid) < 0 else (lo, mid)
    return (lo + hi) / 2


def project(pts, target):
    """(crossing, earliest, latest) days since the first point, or None."""
    n = len(pts)
    if n < 2 or pts[-1][1] >= target:
        return None
    xs = [(t - pts[0][0]) / DAY for t, _ in pts]
    ys = [v for _, v in pts]
    xb, yb = sum(xs) / n, sum(ys) / n
    sxx = sum((x - xb) ** 2 for x in xs)
    b = sum((x - xb) * (y - yb) for x, y in zip(xs, ys)) / sxx
    if b <= 0:
        return None
    xc = xb + (target - yb) / b
    if xc < xs[-1]:
        # the line crossed before the latest point, still under target:
        # reached now at 95% of it or more, else no date
        if ys[-1] < 0.95 * target:
            return None
        xc = xs[-1]
    far = lambda x: None if x is None or x - xs[-1] > HORIZON else x  # noqa
    if xc - xs[-1] > HORIZON:
        return None
    if n < 3:
        return xc, None, None
    s = math.sqrt(sum((y - yb - b * (x - xb)) ** 2
                      for x, y in zip(xs, ys)) / (n - 2))
    q = t975(n - 2)

    def half(x):
        return q * s * math.sqrt(1 + 1 / n + (x - xb) ** 2 / sxx)
    up = lambda x: yb + b * (x - xb) + half(x) - target  # noqa: E731
    lo = xs[-1] if up(xs[-1]) >= 0 else bisect(up, xs[-1], xs[-1] + 1)
    hi = None
    if b > q * s / math.sqrt(sxx):
        hi = bisect(lambda x: yb + b * (x - xb) - half(x) - target, xb,
                    xb + 1)
    return xc, far(lo), far(hi)


def day(t0, x):
    return None if x is None else math.floor((t0 + x * DAY) / DAY) * DAY


def points(con, fs, to=None):
    q = ("SELECT id, started_at FROM v_snapshot WHERE fs = ? AND complete"
         + (" AND started_at < ?" if to else "") + " ORDER BY started_at, id")
    return one_per_day([(t, i) for i, t in con.execute(
        q, (fs, to) if to else (fs,))])


def growth(con, fs, proj):
    pts, lim = [], None
    for t, sid in points(con, fs):
        r = con.execute("SELECT alloc_bytes FROM v_project WHERE"
                        " snapshot_id = ? AND project = ?",
                        (sid, proj)).fetchone()
        pts.append((t, r[0] if r else 0))
        lim = con.execute("SELECT bytes FROM v_limit WHERE snapshot_id = ?"
                          " AND project = ?", (sid, proj)).fetchone()
    p = project(pts, lim[0]) if lim and lim[0] else None
    return {"crossing": day(pts[0][0], p and p[0]),
            "crossing_lo": day(pts[0][0], p and p[1]),
            "crossing_hi": day(pts[0][0], p and p[2])}


def usage(con):
    out = []
    for (fs,) in con.execute("SELECT DISTINCT fs FROM v_snapshot"):
        pts = points(con, fs)
        cur = dict((r[0], r[1:]) for r in con.execute(
            "SELECT project, files, bytes FROM v_project WHERE"
            " snapshot_id = ?", (pts[-1][1],)))
        prev = dict((r[0], r[1:]) for r in con.execute(
            "SELECT project, files, bytes FROM v_project WHERE"
            " snapshot_id = ?", (pts[-2][1],))) if len(pts) > 1 else {}
        for name, (f, b) in cur.items():
            pf, pb = prev.get(name, (0, 0))
            out.append((fs, name, f, b, f - pf, b - pb))
    return sorted(out, key=lambda r: (r[0], -r[3], r[1]))


def capacity(con, frm, to):
    out = {}
    for (fs,) in con.execute("SELECT DISTINCT fs FROM v_snapshot"):
        pts = points(con, fs, to)
        ids = [i for _, i in pts]
        series, limits = {}, {}
        for sid, name, alloc in con.execute(
                "SELECT p.snapshot_id, p.project, p.alloc_bytes FROM"
                " v_project p JOIN v_snapshot s ON s.id = p.snapshot_id"
                " WHERE s.fs = ? AND s.complete", (fs,)):
            series.setdefault(name, {})[sid] = alloc
        for name, b in con.execute(
                "SELECT project, bytes FROM v_limit WHERE snapshot_id = ?",
                (ids[-1],)):
            limits[name] = b
        for name, s in series.items():
            if ids[-1] not in s:
                continue
            p = [(t, s.get(i, 0)) for t, i in pts]
            lim = limits.get(name)
            r = project(p, lim) if lim else None
            out["%s/%s" % (fs, name)] = day(p[0][0], r and r[0])
    return out


def main():
    cmd, db = sys.argv[1], sys.argv[2]
    con = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
    if cmd == "growth":
        res = growth(con, sys.argv[3], sys.argv[4])
    elif cmd == "usage":
        res = usage(con)
    else:
        res = capacity(con, int(sys.argv[3]), int(sys.argv[4]))
    json.dump(res, sys.stdout)
    print()


if __name__ == "__main__":
    main()
