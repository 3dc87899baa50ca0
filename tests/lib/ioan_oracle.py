"""ioan_oracle: the expected tables of `iocensus throughput`, `cdf` and `idle`.

Input is a minute series as io_oracle.Model.series() gives it: one
(t, state, rd, wr, ios) per calendar minute of the window, state in
'complete', 'missing', 'none' (values of non-complete minutes are 0 and
never used). Everything is computed here from that list with Python ints
and fractions (docs/analyses.md, "I/O analyses", and the semantics of
the brief), never from the database. Each function returns
{table_key: [row dict]} with the column keys of the command's JSON output;
None stands for NULL. Reals are the correctly rounded value of the exact
result, so a float compare at 1e-9 relative is fair.

    from io_oracle import load_raw, build
    from ioan_oracle import throughput, cdf, idle, coverage_note
    s = build(hosts).series(hosts=["h00[12]"], frm=None, to=None)
    want = cdf(s, peak=None)
"""
from bisect import bisect_right
from fractions import Fraction

MIB = 2 ** 20
DAY = 86400
IDLE_EDGES = (60, 600, 3600, 7200, 14400, 28800, 86400)
BELOW_PCT = (5, 10, 25, 33, 50, 75)
QUANTILE_PM = (500, 900, 950, 990, 999)


def mib_s(nbytes, minutes=1):
    """Bytes moved over `minutes` minutes as MiB/s (correctly rounded)."""
    return float(Fraction(nbytes, minutes * 60 * MIB))


def ratio(a, b):
    return float(Fraction(a, b))


def exact(v):
    """A decimal option (--peak, --threshold) exactly as the command line
    gave it: pass the string ("5.555") or a Fraction; an int is itself and
    a float stands for its shortest repr (the text typed), never for its
    binary value. The command keeps the decimal exactly too."""
    if isinstance(v, float):
        v = repr(v)
    return Fraction(v)


# ---------------------------------------------------------------- coverage

def coverage(series):
    """calendar, complete, days the window touches, days without a complete
    minute, window [frm, to)."""
    days = {}
    for t, state, _, _, _ in series:
        d = t // DAY
        days[d] = days.get(d, 0) + (state == "complete")
    complete = sum(1 for m in series if m[1] == "complete")
    out = {"calendar": len(series), "complete": complete,
           "days": len(days), "days_empty": sum(1 for v in days.values() if v == 0)}
    if series:
        out["frm"], out["to"] = series[0][0], series[-1][0] + 60
        # days the window touches = every day from the first to the last
        assert out["days"] == series[-1][0] // DAY - series[0][0] // DAY + 1
    return out


def plural(n, noun):
    """'1 day', '2 days', '0 days'."""
    return "{:,} {}{}".format(n, noun, "" if n == 1 else "s")


def coverage_note(series):
    """The coverage sentence (None for an empty window): nouns agree with
    their counts, and "N of M days" takes "has" when N or M is one
    ("1 of 5 days has", "0 of 1 day has", "2 of 5 days have")."""
    c = coverage(series)
    if not c["calendar"]:
        return None
    one = c["days_empty"] == 1 or c["days"] == 1
    return ("Coverage: {:,} of {} complete ({:.2f}%); {:,} of {} {} no complete "
            "minute.".format(
                c["complete"], plural(c["calendar"], "calendar minute"),
                100 * (c["complete"] / c["calendar"]), c["days_empty"],
                plural(c["days"], "day"), "has" if one else "have"))


def coverage_share(c):
    return ratio(c["complete"], c["calendar"]) if c["calendar"] else 0.0


# ---------------------------------------------------------------- peak

class Peak:
    """P: observed (integer bytes of the busiest complete minute, the first
    on ties) or configured (MiB/s, a decimal: see exact())."""

    def __init__(self, series, configured=None):
        self.cfg = exact(configured) if configured is not None else 0
        self.configured = self.cfg > 0
        self.bytes, self.t = 0, None
        if self.configured:
            self.mib_s = float(self.cfg)
            return
        for t, state, rd, wr, _ in series:
            if state == "complete" and (self.t is None or rd + wr > self.bytes):
                self.bytes, self.t = rd + wr, t
        self.mib_s = mib_s(self.bytes)

    def source(self):
        return "configured" if self.configured else "observed"

    def below(self, b, pct):
        """b < pct% of P, exactly, pct the decimal as given (no rounding)."""
        if self.configured:
            return Fraction(b) < exact(pct) / 100 * self.cfg * 60 * MIB
        return Fraction(b) < exact(pct) / 100 * self.bytes

    def pct_mib_s(self, pct):
        p = self.cfg if self.configured else Fraction(self.mib_s)
        return float(exact(pct) / 100 * p)


def complete_bytes(series):
    return [rd + wr for _, state, rd, wr, _ in series if state == "complete"]


# ---------------------------------------------------------------- throughput

def _buckets(series, width):
    out = {}
    for t, state, rd, wr, _ in series:
        b = out.setdefault(t // width * width, [0, 0, 0, 0, 0, 0])
        b[0] += 1
        if state != "complete":
            continue
        b[1] += 1
        b[2] += rd
        b[3] += wr
        b[4] = max(b[4], rd)
        b[5] = max(b[5], wr)
    return [(t,) + tuple(out[t]) for t in sorted(out)]


def _share(rd, wr):
    return ratio(rd, rd + wr) if rd + wr else None


def _overlaps(a, b, lo, hi):
    """Do [a, b) and [lo, hi) share a second?"""
    return a < hi and b > lo


def annotations(series, ann):
    """Table "annotations" of `throughput --annotate`: ann is a list of
    (from, to, label); a minute is in a window when some second of it is.
    Counted minute by minute."""
    rows = []
    for a, b, label in ann:
        inside = [m for m in series if _overlaps(a, b, m[0], m[0] + 60)]
        comp = sum(1 for m in inside if m[1] == "complete")
        rows.append({"from": a, "to": b, "label": label,
                     "minutes": len(inside), "complete": comp,
                     "missing": len(inside) - comp})
    return rows


def throughput(series, every=3600, ann=None):
    """The tables of `throughput --every`; with ann (see annotations()),
    the series also names, per bucket, the windows over its minutes."""
    rows = []
    span = {}                   # bucket -> [first minute, last minute + 60)
    for m in series:
        b = span.setdefault(m[0] // every * every, [m[0], m[0]])
        b[1] = m[0] + 60
    for t, minutes, comp, rd, wr, mrd, mwr in _buckets(series, every):
        r = {"t": t, "minutes": minutes, "complete": comp,
             "partial": int(comp < every // 60)}
        if ann is not None:
            labels = [label for a, b, label in ann
                      if _overlaps(a, b, *span[t])]
            r["annotation"] = "; ".join(labels) if labels else None
        if comp:
            r.update(rd_bytes=rd, wr_bytes=wr, rd_mib_s=mib_s(rd, comp),
                     wr_mib_s=mib_s(wr, comp), rd_max_mib_s=mib_s(mrd),
                     wr_max_mib_s=mib_s(mwr), read_share=_share(rd, wr))
        else:
            r.update(rd_bytes=None, wr_bytes=None, rd_mib_s=None,
                     wr_mib_s=None, rd_max_mib_s=None, wr_max_mib_s=None,
                     read_share=None)
        rows.append(r)
    days = []
    for t, minutes, comp, rd, wr, _, _ in _buckets(series, DAY):
        days.append({"t": t, "minutes": minutes, "complete": comp,
                     "rd_bytes": rd if comp else None,
                     "wr_bytes": wr if comp else None,
                     "read_share": _share(rd, wr) if comp else None,
                     "partial": int(comp < 1440)})
    c = coverage(series)
    out = {"series": rows, "days": days}
    if ann is not None:
        out["annotations"] = annotations(series, ann)
    if not c["calendar"]:
        return dict(out, totals=[])
    if not c["complete"]:
        # Every bucket is a row; the totals have nothing to sum.
        out["totals"] = [dict(
            {k: None for k in ("rd_bytes", "wr_bytes", "read_share",
                               "rd_bytes_per_day", "wr_bytes_per_day",
                               "rd_mib_s", "wr_mib_s", "peak_rd_mib_s",
                               "peak_rd_t", "peak_wr_mib_s", "peak_wr_t")},
            complete=0, calendar_minutes=c["calendar"], coverage=0.0,
            days=c["days"], days_empty=c["days_empty"])]
        return out
    comp = [m for m in series if m[1] == "complete"]
    rd = sum(m[2] for m in comp)
    wr = sum(m[3] for m in comp)
    n = len(comp)
    prd = max(comp, key=lambda m: (m[2], -m[0]))
    pwr = max(comp, key=lambda m: (m[3], -m[0]))
    totals = {"rd_bytes": rd, "wr_bytes": wr, "read_share": _share(rd, wr),
              "complete": n, "calendar_minutes": c["calendar"],
              "coverage": coverage_share(c), "days": c["days"],
              "days_empty": c["days_empty"],
              "rd_bytes_per_day": ratio(rd * 1440, n),
              "wr_bytes_per_day": ratio(wr * 1440, n),
              "rd_mib_s": mib_s(rd, n), "wr_mib_s": mib_s(wr, n),
              "peak_rd_mib_s": mib_s(prd[2]), "peak_rd_t": prd[0],
              "peak_wr_mib_s": mib_s(pwr[3]), "peak_wr_t": pwr[0]}
    out["totals"] = [totals]
    return out


# ---------------------------------------------------------------- cdf

def rank_pm(pm, n):
    """Nearest rank of p = pm/1000 among n values, 1-based (at least 1)."""
    return max(1, -(-pm * n // 1000))


def cdf(series, peak=None):
    c = coverage(series)
    x = sorted(complete_bytes(series))
    n = len(x)
    if not n:
        return {"summary": [], "below_peak": [], "quantiles": [], "cdf": []}
    p = Peak(series, peak)
    total = sum(x)
    mean = mib_s(total, n)
    below = [sum(1 for b in x if p.below(b, f)) for f in BELOW_PCT]
    summary = {"n": n, "calendar_minutes": c["calendar"],
               "coverage": coverage_share(c), "mean_mib_s": mean,
               "peak_mib_s": p.mib_s, "peak_source": p.source(),
               "peak_t": p.t,
               "mean_share_of_peak": (float(Fraction(total, n * 60 * MIB) /
                                            Fraction(p.mib_s))
                                      if p.mib_s > 0 else None),
               "median_mib_s": mib_s(x[rank_pm(500, n) - 1]),
               "max_mib_s": mib_s(x[-1]),
               "below_33_share": ratio(below[BELOW_PCT.index(33)], n),
               "total_bytes": total}
    below_rows = [{"f_pct": float(f), "threshold_mib_s": p.pct_mib_s(f),
                   "minutes": k, "share": ratio(k, n)}
                  for f, k in zip(BELOW_PCT, below)]
    quant = []
    for pm in QUANTILE_PM:
        k = rank_pm(pm, n)
        quant.append({"p": pm / 1000, "rank": k, "bytes": x[k - 1],
                      "mib_s": mib_s(x[k - 1])})
    points = []
    for k in range(1001):
        v = x[rank_pm(k, n) - 1]
        if points and points[-1]["bytes"] == v:
            continue
        le = bisect_right(x, v)
        points.append({"mib_s": mib_s(v), "bytes": v, "minutes": le,
                       "f": ratio(le, n)})
    return {"summary": [summary], "below_peak": below_rows,
            "quantiles": quant, "cdf": points}


def cdf_sentence(series, peak=None):
    """The study's sentence as the cdf note holds it."""
    x = complete_bytes(series)
    n = len(x)
    p = Peak(series, peak)
    mean = mib_s(sum(x), n)
    b33 = 100.0 * (sum(1 for b in x if p.below(b, 33)) / n)
    rel = " = %.1f%% of peak" % (100 * mean / p.mib_s) if p.mib_s > 0 else ""
    return ("{:.1f}% of the time below 33% of peak bandwidth ({:,.1f} MiB/s, "
            "peak {:,.1f} MiB/s {}); mean {:,.1f} MiB/s{}.".format(
                b33, 33 / 100 * p.mib_s, p.mib_s, p.source(), mean, rel))


# ---------------------------------------------------------------- idle

def runs(series, pred):
    """[(start_t, length)] of the maximal runs of minutes where pred holds."""
    out = []
    start = None
    prev = None
    for m in series:
        if pred(m):
            if start is None:
                start = m[0]
            prev = m[0]
            continue
        if start is not None:
            out.append((start, (prev - start) // 60 + 1))
            start = None
    if start is not None:
        out.append((start, (prev - start) // 60 + 1))
    return out


def edge_text(s):
    if s > 0 and s % 3600 == 0:
        return "%d h" % (s // 3600)
    if s > 0 and s % 60 == 0:
        return "%d min" % (s // 60)
    return "%d s" % s


def classes(edges):
    """[(lo, hi or None, label)]"""
    out = []
    if edges[0] > 60:
        out.append((0, edges[0], "< " + edge_text(edges[0])))
    for i, e in enumerate(edges):
        if i + 1 < len(edges):
            out.append((e, edges[i + 1], "[%s, %s)" % (
                edge_text(e), edge_text(edges[i + 1]))))
        else:
            out.append((e, None, ">= " + edge_text(e)))
    return out


def period_table(rs, edges, n):
    cls = classes(edges)
    rows = []
    total = sum(length for _, length in rs)
    cum = 0
    for lo, hi, label in cls:
        mine = [length for _, length in rs
                if lo <= length * 60 and (hi is None or length * 60 < hi)]
        rest = total - cum
        cum += sum(mine)
        rows.append({"class": label, "lo_s": lo, "hi_s": hi,
                     "periods": len(mine), "minutes": sum(mine),
                     "share": ratio(sum(mine), n), "cum_share": ratio(cum, n),
                     "share_at_least": ratio(rest, n)})
    return rows


def _longest(rs):
    """(length, start) of the longest run, the first on ties."""
    best = None
    for start, length in rs:
        if best is None or length > best[0]:
            best = (length, start)
    return best


def idle(series, threshold=5, edges=IDLE_EDGES, peak=None):
    """{'periods', 'strict_periods', 'summary'} and, under '_runs', the
    runs themselves (for the tests' own edge checks)."""
    c = coverage(series)
    n = c["complete"]
    if not n:
        return {"periods": [], "strict_periods": [], "summary": []}
    p = Peak(series, peak)
    ir = runs(series, lambda m: m[1] == "complete" and
              p.below(m[2] + m[3], threshold))
    sr = runs(series, lambda m: m[1] == "complete" and m[4] == 0 and
              m[2] == 0 and m[3] == 0)
    s = {"n": n, "calendar_minutes": c["calendar"],
         "coverage": coverage_share(c), "peak_mib_s": p.mib_s,
         "peak_source": p.source(), "peak_t": p.t,
         "threshold_pct": float(exact(threshold)),
         "threshold_mib_s": p.pct_mib_s(threshold)}
    for prefix, longest, rs in (("idle", "longest", ir),
                                ("strict", "longest_strict", sr)):
        mins = sum(length for _, length in rs)
        lg = _longest(rs)
        s.update({prefix + "_minutes": mins, prefix + "_share": ratio(mins, n),
                  prefix + "_periods": len(rs),
                  longest + "_minutes": lg[0] if lg else None,
                  longest + "_t": lg[1] if lg else None})
    return {"periods": period_table(ir, edges, n),
            "strict_periods": period_table(sr, edges, n),
            "summary": [s], "_runs": {"idle": ir, "strict": sr}}
