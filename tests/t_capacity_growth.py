#!/usr/bin/env python3
"""t_capacity_growth: growth of every metric, capacity, usage and limits
against independent oracles.

1. A tmpfs mounted with a fixed size= and nr_inodes= is filled in steps,
   each scanned by fsscan at a date set with faketime (a same-day rescan
   among them). The oracle reads os.statvfs itself after every step:
   growth --metric used / inodes (100% by default, a percentage, sizes
   as written) must give census_oracle's fits and dates from those
   readings, one point per day; `capacity` must give df's Use% and IUse%,
   the growth per day and the same dates. (Root and faketime needed;
   skipped with the reason otherwise.)
2. Targets as written: counts, sizes with their units, percentages of
   capacity, parsed here by their own rules, against the target column;
   a size for a count metric, a bare K/M/G/T for bytes, 0% and 101% are
   usage errors.
3. Usage per project, user and group, and limits: recomputed from the
   generated files (snapgen) and the limits given: shares, changes since
   the previous point (the rescan counts once), % of limit and the date a
   project reaches it (census_oracle.growth on its allocated bytes).
   Without --target, each metric's natural target (the capacity, the
   inodes, a project's limit), and a usage error naming the target to
   give where there is none. A line that crossed its target before the
   latest point: at 96% of it the date is that point's day ("now"), at
   90% none, alike in growth, capacity and the metrics.
4. --fs and --project that name nothing are usage errors (exit 2) that
   list the known ones, in growth, files, usage and capacity.
5. diff --quarter, --from/--to: per file system the ids a sqlite3 oracle
   over v_snapshot picks, the rows of diff A B of those ids, a file
   system with fewer than two complete snapshots missing (not zero).
"""
import calendar
import json
import math
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from fractions import Fraction

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "lib"))
import census_oracle as oracle  # noqa: E402
import snapgen  # noqa: E402
from tap import done, eq, ok, skip  # noqa: E402

BUILD = os.environ.get("BUILD") or os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "build")
IOCENSUS = os.path.join(BUILD, "iocensus")
FSSCAN = os.path.join(BUILD, "fsscan")
DAY = 86400
GIB = 1 << 30


def ts(s):
    return calendar.timegm(time.strptime(s, "%Y-%m-%d"))


def run(db, cmd, *args):
    p = subprocess.run([IOCENSUS, cmd, "--db", db, "--format", "json"] +
                       [str(a) for a in args], capture_output=True, text=True)
    return p.returncode, json.loads(p.stdout) if p.returncode == 0 else None, \
        p.stderr


def rows(res, key):
    return res["tables"][key]["rows"] if res and key in res["tables"] else []


def close(g, w):
    if w is None or g is None:
        return g is None and w is None
    if isinstance(w, float) or isinstance(g, float):
        return g == w or abs(g - w) <= 1e-9 * max(abs(g), abs(w))
    return g == w


def rows_eq(got, want, name):
    if len(got) != len(want):
        return ok(False, name, "%d rows, want %d" % (len(got), len(want)))
    for i, (g, w) in enumerate(zip(got, want)):
        for k, v in w.items():
            if not close(g.get(k), v):
                return ok(False, name, "row %d %s: got %r want %r" % (
                    i, k, g.get(k), v))
    return ok(True, name)


# ---- 1. a tmpfs filled at dates set with faketime -------------------------

# (days after the start, KiB written, files made); a rescan two hours
# after the third scan.
STEPS = [(0, 600, 30), (7, 900, 25), (14, 700, 40), (21, 1300, 35),
         (28, 800, 30), (35, 1200, 45)]
START = ts("2027-01-04")


def fill(mnt, step, kib, nfiles):
    d = os.path.join(mnt, "p%d" % (step % 3))
    os.makedirs(d, exist_ok=True)
    per = kib * 1024 // nfiles
    for i in range(nfiles):
        with open(os.path.join(d, "s%d_%d" % (step, i)), "wb") as f:
            f.write(b"\1" * per)


def scan_at(db, mnt, t):
    # An absolute FAKETIME holds the clock at t: the snapshot's time is t.
    # faketime preloads its library ahead of a sanitizer build's runtime,
    # which the sanitizer then accepts.
    env = dict(os.environ, TZ="UTC")
    env["ASAN_OPTIONS"] = ":".join(filter(None, [
        env.get("ASAN_OPTIONS"), "verify_asan_link_order=0"]))
    p = subprocess.run(["faketime", "-f", time.strftime(
        "%Y-%m-%d %H:%M:%S", time.gmtime(t)), FSSCAN, "--db", db, "--fs",
        "tmp", "--quiet", mnt], capture_output=True, text=True, env=env)
    ok(p.returncode == 0, "fsscan at %s (faketime)" % time.strftime(
        "%Y-%m-%d %H:%M", time.gmtime(t)), p.stderr)
    s = os.statvfs(mnt)
    return s


def df_pcent(mnt):
    p = subprocess.run(["df", "--output=pcent,ipcent", mnt],
                       capture_output=True, text=True)
    use, iuse = p.stdout.splitlines()[1].split()
    return int(use.rstrip("%")) / 100, int(iuse.rstrip("%")) / 100


def check_tmpfs(tmp):
    if os.geteuid() != 0:
        return skip("tmpfs growth", "mounting a tmpfs needs root",
                    needs="root")
    if shutil.which("faketime") is None:
        return skip("tmpfs growth", "faketime not installed",
                    needs="faketime")
    mnt = os.path.join(tmp, "mnt")
    os.mkdir(mnt)
    p = subprocess.run(["mount", "-t", "tmpfs", "-o",
                        "size=16m,nr_inodes=600,mode=755", "tmpfs", mnt],
                       capture_output=True, text=True)
    if p.returncode != 0:
        return skip("tmpfs growth", "mount tmpfs: %s" % p.stderr.strip())
    try:
        tmpfs_growth(tmp, mnt)
    finally:
        subprocess.run(["umount", mnt])


def tmpfs_growth(tmp, mnt):
    db = os.path.join(tmp, "fill.db")
    used, inodes, seen = [], [], []
    sid = 0
    for k, (day, kib, nf) in enumerate(STEPS):
        fill(mnt, k, kib, nf)
        t = START + day * DAY + 3600 * k
        s = scan_at(db, mnt, t)
        sid += 1
        if k == 2:
            # The rescan: the same tree, two hours later, with one more
            # file; it stands for the scan before it.
            fill(mnt, 99, 4, 1)
            s = scan_at(db, mnt, t + 7200)
            t += 7200
            sid += 1
        fr = s.f_frsize
        used.append((sid, t, (s.f_blocks - s.f_bfree) * fr))
        inodes.append((sid, t, s.f_files - s.f_ffree))
        seen.append(s)
    last = seen[-1]
    cap = (last.f_blocks - last.f_bfree + last.f_bavail) * last.f_frsize
    eq(cap, 16 << 20, "fixture: the capacity is the tmpfs size (no root"
       " reserve)")
    cases = [("used", [], used, cap), ("inodes", [], inodes, last.f_files),
             ("used", ["--target", "60%"], used, 0.6 * cap),
             ("used", ["--target", "12MiB"], used, 12 << 20),
             ("used", ["--target", "12MB"], used, 12000000),
             ("inodes", ["--target", "75%"], inodes, 0.75 * last.f_files)]
    for metric, extra, pts, target in cases:
        name = "tmpfs --metric %s %s" % (metric, " ".join(extra))
        rc, res, err = run(db, "growth", "--fs", "tmp", "--metric", metric,
                           *extra)
        ok(rc == 0, name + ": runs", err)
        want = oracle.growth(pts, target)
        rows_eq(rows(res, "points"), want["points"], name + ": points (the"
                " rescan replaces the scan before it)")
        rows_eq(rows(res, "projection"), want["projection"],
                name + ": projection")
        eq([r["target"] for r in rows(res, "projection")], [target] * 2,
           name + ": the target")
    rc, res, err = run(db, "growth", "--fs", "tmp", "--metric", "used")
    ok(any("1 complete snapshot of tmp started less than a day before the"
           " next one" in n for n in (res or {}).get("notes", [])),
       "tmpfs: the notes say the rescan counts as one point")
    lin = oracle.growth(used, cap)["projection"][0]
    ok(lin["state"] == "projected" and lin["crossing_lo"] and
       lin["crossing_hi"], "fixture: a 95% range for the used space",
       repr(lin))

    rc, res, err = run(db, "capacity")
    ok(rc == 0, "capacity on the tmpfs: runs", err)
    fs = rows(res, "filesystems")
    use, iuse = df_pcent(mnt)
    s = last
    want = {"fs": "tmp", "snapshot": used[-1][0],
            "size": s.f_blocks * s.f_frsize,
            "used": (s.f_blocks - s.f_bfree) * s.f_frsize,
            "avail": s.f_bavail * s.f_frsize, "use_ratio": use,
            "inodes": s.f_files, "inodes_used": s.f_files - s.f_ffree,
            "inodes_use_ratio": iuse,
            "bytes_per_day": (used[-1][2] - used[0][2]) /
            ((used[-1][1] - used[0][1]) / DAY),
            "full": lin["crossing"], "full_lo": lin["crossing_lo"],
            "full_hi": lin["crossing_hi"], "full_state": lin["state"]}
    ilin = oracle.growth(inodes, s.f_files)["projection"][0]
    want.update(inodes_full=ilin["crossing"], inodes_full_lo=ilin[
        "crossing_lo"], inodes_full_hi=ilin["crossing_hi"],
        inodes_state=ilin["state"])
    rows_eq(fs, [want], "capacity: size, used, avail as statvfs, Use% and"
            " IUse% as df, growth per day, full dates as the oracle")
    q1 = ts("2027-01-11"), ts("2027-02-01")
    rc, res, err = run(db, "capacity", "--from", "2027-01-11", "--to",
                       "2027-02-01")
    inw = [p for p in used if q1[0] <= p[1] < q1[1]]
    lw = oracle.growth([p for p in used if p[1] < q1[1]],
                       cap)["projection"][0]
    rows_eq(rows(res, "filesystems"), [{
        "snapshot": inw[-1][0], "bytes_per_day": (inw[-1][2] - inw[0][2]) /
        ((inw[-1][1] - inw[0][1]) / DAY), "full": lw["crossing"],
        "full_lo": lw["crossing_lo"], "full_hi": lw["crossing_hi"]}],
        "capacity --from --to: the window's last point, its growth, and"
        " projections fitted on the points before its end")


# ---- 2. targets as written -----------------------------------------------

UNIT = {"": 1, "K": 1000, "M": 10 ** 6, "G": 10 ** 9, "T": 10 ** 12,
        "P": 10 ** 15, "B": 1, "KB": 10 ** 3, "MB": 10 ** 6, "GB": 10 ** 9,
        "TB": 10 ** 12, "PB": 10 ** 15, "EB": 10 ** 18, "KiB": 1 << 10,
        "MiB": 1 << 20, "GiB": 1 << 30, "TiB": 1 << 40, "PiB": 1 << 50,
        "EiB": 1 << 60}


def parse_target(s):
    """(kind, value) by the rules the man page gives; None if invalid."""
    m = re.fullmatch(r"((?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)(.*)", s)
    if not m:
        return None
    num, unit = Fraction(m.group(1)), m.group(2)
    if unit[:1].islower() and unit[:1].upper() in "KMGTPE":
        unit = unit[0].upper() + unit[1:]
    if unit == "%":
        return "pct", num / 100
    if unit not in UNIT:
        return None
    kind = "count" if unit in ("", "K", "M", "G", "T", "P") else "size"
    if unit == "":
        kind = "plain"
    return kind, num * UNIT[unit]


def check_targets(tmp):
    os.makedirs(tmp)
    db = snapgen.new_db(tmp, BUILD)
    cap = (10 * GIB, 6 * GIB, 5 * GIB, 1000000, 400000)
    for d, used in ((0, 2), (30, 3), (60, 4)):
        snapgen.insert(db, snapgen.Snapshot(
            "gpfs", ts("2027-01-01") + d * DAY, totals=(
                1000 * used, used * GIB, used * GIB + 7),
            capacity=(cap[0], cap[0] - used * GIB, cap[0] - used * GIB -
                      GIB, cap[3], cap[3] - 100000 * used)))
    good = [("bytes", "50TiB"), ("bytes", "50TB"), ("bytes", "512GiB"),
            ("alloc", "1.5TiB"), ("bytes", "0.1TB"), ("used", "7e9"),
            ("used", "12345678901"), ("files", "1e9"), ("files", "2.5M"),
            ("files", "2k"), ("inodes", "750000"), ("used", "80%"),
            ("used", "100%"), ("inodes", "99.5%"), ("files", "50%"),
            ("bytes", "90%"), ("bytes", "4096B"), ("bytes", "10kB")]
    last = cap[0] - (cap[0] - 4 * GIB) + (cap[0] - 4 * GIB - GIB)
    for metric, text in good:
        kind, v = parse_target(text)
        if kind == "pct":
            base = cap[3] if metric in ("files", "inodes") else last
            v = v * base
        rc, res, err = run(db, "growth", "--fs", "gpfs", "--metric", metric,
                           "--target", text)
        got = [r["target"] for r in rows(res, "projection")]
        eq(got, [float(v)] * 2, "--metric %s --target %s: %r" % (
            metric, text, float(v)))
    bad = [("bytes", "50T", "50TiB (2^40) or 50TB"),
           ("used", "5G", "50TiB (2^40) or 50TB"),
           ("files", "5GiB", "a size, but --metric files counts files"),
           ("inodes", "1TB", "a size, but --metric inodes counts inodes"),
           ("used", "0%", "expected a count"), ("used", "101%",
                                               "expected a count"),
           ("files", "-5", "expected a count"), ("files", "0x10",
                                                "expected a count"),
           ("files", "1e", "expected a count"), ("bytes", "5 GiB",
                                                 "expected a count")]
    for metric, text, why in bad:
        rc, res, err = run(db, "growth", "--fs", "gpfs", "--metric", metric,
                           "--target", text)
        ok(rc == 2 and why in err, "--metric %s --target %r: usage error"
           % (metric, text), "%d %s" % (rc, err))
        k = parse_target(text)
        ok(k is None or k[1] <= 0 or (k[0] == "pct" and k[1] > 1) or
           (k[0] == "count" and metric in ("bytes", "alloc", "used")) or
           (k[0] == "size" and metric in ("files", "inodes")),
           "oracle: %r is refused for --metric %s too" % (text, metric))
    # Without --target, the metric's natural target: 100% of the
    # capacity (used + avail) for bytes, alloc and used, of the inodes
    # (fs_inodes) for files and inodes.
    for metric, want in (("bytes", last), ("alloc", last), ("used", last),
                         ("files", cap[3]), ("inodes", cap[3])):
        rc, res, err = run(db, "growth", "--fs", "gpfs", "--metric", metric)
        eq((rc, [r["target"] for r in rows(res, "projection")]),
           (0, [float(want)] * 2), "--metric %s without --target: its"
           " natural target, %d" % (metric, want))
    rc, res, err = run(db, "growth", "--fs", "gpfs")
    eq((rc, [r["target"] for r in rows(res, "projection")]),
       (0, [float(cap[3])] * 2), "growth --fs gpfs (files): the inodes")
    rc, res, err = run(db, "growth", "--fs", "gpfs", "--metric", "used")
    eq([r["target"] for r in rows(res, "projection")], [float(last)] * 2,
       "--metric used without --target: 100% of used + avail")
    # A second file system: --fs all sums the lines, and the capacities.
    pts = {"gpfs": [], "nfs": []}
    for sid, (t, u) in enumerate(((0, 2), (30, 3), (60, 4)), 1):
        pts["gpfs"].append((sid, ts("2027-01-01") + t * DAY, u * GIB))
    for d, used in ((5, 1), (35, 1.5), (50, 2.5)):
        s = snapgen.Snapshot("nfs", ts("2027-01-01") + d * DAY, totals=(
            10, int(used * GIB), int(used * GIB)), capacity=(
            4 * GIB, 4 * GIB - int(used * GIB), 4 * GIB - int(used * GIB),
            1000, 900))
        snapgen.insert(db, s)
        pts["nfs"].append((s.id, s.started_at, int(used * GIB)))
    rc, res, err = run(db, "growth", "--metric", "used")
    want = oracle.growth_sum(list(pts.items()), last + 4 * GIB)
    got = rows(res, "projection")
    ok(rc == 0 and len(got) == 1 and close(got[0]["crossing"],
       want["projection"][0]["crossing"]) and got[0]["target"] ==
       last + 4 * GIB, "--metric used over every file system: the sum of"
       " the lines to the sum of the capacities", "%r %r" % (
           got, want["projection"]))


# ---- 3. usage and limits ---------------------------------------------------

def usage_oracle(cur, prev, by):
    """Rows of `usage --by BY` for one file system, from the file lists."""
    def key(f):
        return {"project": f.project, "user": f.uid, "group": f.gid}[by]

    def name(s, k):
        if by == "project":
            return k
        return (s.users if by == "user" else s.groups).get(k, str(k))

    def tot(s):
        t = {}
        for f in s.files:
            a = t.setdefault(key(f), [0, 0, 0])
            a[0] += 1
            a[1] += f.size
            a[2] += f.alloc
        return t
    c, p = tot(cur), tot(prev) if prev else {}
    nf, nb = len(cur.files), sum(f.size for f in cur.files)
    out = []
    for k in set(c) | set(p):
        v = c.get(k, [0, 0, 0])
        o = p.get(k, [0, 0, 0])
        out.append({"fs": cur.fs, "name": name(cur if k in c else prev, k),
                    "files": v[0], "bytes": v[1], "alloc_bytes": v[2],
                    "share_files": v[0] / nf, "share_bytes": v[1] / nb,
                    "d_files": v[0] - o[0] if prev else None,
                    "d_bytes": v[1] - o[1] if prev else None,
                    "d_alloc": v[2] - o[2] if prev else None})
    return sorted(out, key=lambda r: (-r["bytes"], str(r["name"]).encode()))


def check_usage(tmp):
    os.makedirs(os.path.join(tmp, "lim"))
    db = snapgen.new_db(tmp, BUILD)
    users, groups = {1000: "alice", 1001: "bob"}, {100: "staff"}
    T = ts("2027-03-01")
    snaps = []
    for k, (t, n, seed) in enumerate(((T, 300, 1), (T + 20 * DAY, 420, 2),
                                      (T + 20 * DAY + 3 * 3600, 430, 3))):
        files = snapgen.random_files(seed, n, t, ["a", "b", "c"],
                                     [5, 3, 1] if k == 0 else [2, 5, 1])
        s = snapgen.Snapshot("lus", t, files=files, now=t, users=users,
                             groups=groups)
        snapgen.insert(db, s)
        snaps.append(s)
    other = snapgen.Snapshot("nfs", T, files=snapgen.random_files(
        9, 50, T, ["a"]), now=T, users=users, groups=groups)
    snapgen.insert(db, other)
    for by in ("project", "user", "group"):
        rc, res, err = run(db, "usage", "--by", by, "--fs", "lus")
        ok(rc == 0, "usage --by %s: runs" % by, err)
        rows_eq(rows(res, "usage"), usage_oracle(snaps[2], snaps[0], by),
                "usage --by %s: latest point against the one before (the"
                " rescan #2 is not it)" % by)
    rc, res, err = run(db, "usage", "--by", "user")
    rows_eq(rows(res, "usage"), usage_oracle(snaps[2], snaps[0], "user") +
            usage_oracle(other, None, "user"), "usage without --fs: every"
            " file system, changes n/a for one with a single point")
    rc, res, err = run(db, "usage", "--by", "dir")
    ok(rc == 2 and "project, user or group" in err, "usage --by dir: exit 2")

    # Limits: a project against its byte limit, another its inode limit.
    db = snapgen.new_db(os.path.join(tmp, "lim"), BUILD)
    pts = {"x": [], "y": []}
    lim = {"x": (100 * GIB, None), "y": (None, 5000)}
    for d, ax, fy in ((0, 20, 1000), (10, 35, 1500), (20, 43, 2300),
                      (30, 61, 2600), (40, 70, 3300)):
        s = snapgen.Snapshot("gpfs", T + d * DAY, totals=(10000, 100 * GIB,
                                                          100 * GIB),
                             project_totals={"x": (10, ax * GIB, ax * GIB),
                                             "y": (fy, GIB, GIB, fy + 10)},
                             capacity=(GIB << 10, GIB << 9, GIB << 9,
                                       10 ** 6, 10 ** 5), limits=lim)
        snapgen.insert(db, s)
        pts["x"].append((s.id, s.started_at, ax * GIB))
        pts["y"].append((s.id, s.started_at, fy + 10))
    rc, res, err = run(db, "capacity")
    got = {r["project"]: r for r in rows(res, "projects")}
    wx = oracle.growth(pts["x"], 100 * GIB)["projection"][0]
    wy = oracle.growth(pts["y"], 5000)["projection"][0]
    rows_eq([got.get("x", {}), got.get("y", {})], [
        {"used": 70 * GIB, "limit_bytes": 100 * GIB, "limit_ratio": 0.7,
         "limit_inodes": None, "full": wx["crossing"],
         "full_lo": wx["crossing_lo"], "full_hi": wx["crossing_hi"],
         "state": wx["state"], "bytes_per_day": 50 * GIB / 40},
        {"limit_bytes": None, "limit_inodes": 5000,
         "inode_limit_ratio": 3310 / 5000, "full": wy["crossing"],
         "full_lo": wy["crossing_lo"], "full_hi": wy["crossing_hi"],
         "state": wy["state"]}],
        "capacity: % of limit and the date each project reaches it")
    eq([r["project"] for r in rows(res, "projects")], ["x", "y"],
       "capacity: projects nearest their limit first")
    rc, res, err = run(db, "growth", "--fs", "gpfs", "--project", "x",
                       "--metric", "used", "--target", "80%")
    rows_eq(rows(res, "projection")[:1], [oracle.growth(
        pts["x"], 0.8 * 100 * GIB)["projection"][0]],
        "growth --project x --metric used --target 80%: of its limit")
    rc, res, err = run(db, "growth", "--fs", "gpfs", "--project", "y",
                       "--metric", "inodes")
    rows_eq(rows(res, "projection")[:1], [wy], "growth --project y"
            " --metric inodes: to its inode limit")
    rc, res, err = run(db, "growth", "--fs", "gpfs", "--project", "y",
                       "--metric", "used")
    ok(rc == 2 and "has no byte limit" in err and "--target SIZE" in err,
       "growth --project y --metric used: no byte limit, a usage error"
       " that says which target to give", "%d %s" % (rc, err))
    rc, res, err = run(db, "growth", "--fs", "gpfs", "--project", "y",
                       "--metric", "used", "--target", "80%")
    ok(rc == 0 and rows(res, "projection")[0]["state"] == "no target" and
       "has no byte limit" in " ".join(res["notes"]),
       "growth --project y --metric used --target 80%: no byte limit, and"
       " says so")
    rc, res, err = run(db, "growth", "--fs", "gpfs", "--project", "x",
                       "--metric", "files")
    ok(rc == 2 and "has no inode limit" in err and "--target N" in err,
       "growth --project x (files): no inode limit, a usage error that says"
       " which target to give", "%d %s" % (rc, err))
    rc, res, err = run(db, "growth", "--fs", "gpfs", "--project", "y")
    eq((rc, [r["target"] for r in rows(res, "projection")]),
       (0, [5000.0] * 2), "growth --project y (files): its inode limit")
    check_now(tmp)


# ---- 3b. a line that crossed the target before the latest point -----------

# GiB used at days 0, 10, ..., 40 of a 100 GiB limit or capacity. "now":
# the line (slope 0.91 GiB a day through (20, 86)) reaches 100 at day
# 35.4, before the last point, which is at 96%: reached now, day 40.
# "turned": the line reaches 100 at day 39.2, the last point is at 90%: no
# date.
NOW = {"now": (60, 80, 95, 99, 96), "turned": (60, 80, 95, 99, 90)}
T_NOW = ts("2027-01-04")


def check_now(tmp):
    os.makedirs(os.path.join(tmp, "now"))
    db = snapgen.new_db(os.path.join(tmp, "now"), BUILD)
    pts = {}
    for fs in ("now", "turned"):
        for i, u in enumerate(NOW[fs]):
            t = T_NOW + 10 * i * DAY
            used = u * GIB
            s = snapgen.Snapshot(fs, t, totals=(10, used, used),
                                 project_totals={"p": (10, used, used)},
                                 capacity=(100 * GIB, 100 * GIB - used,
                                           100 * GIB - used, 10 ** 6,
                                           10 ** 5),
                                 limits={"p": (100 * GIB, None)},
                                 device=fs + "-uuid")
            snapgen.insert(db, s)
            pts.setdefault(fs, []).append((s.id, s.started_at, used))
    last = T_NOW + 40 * DAY
    want = {fs: oracle.growth(pts[fs], 100 * GIB)["projection"][0]
            for fs in NOW}
    ok(want["now"]["crossing"] == last and want["now"]["state"] ==
       "projected" and want["turned"]["crossing"] is None and
       want["turned"]["state"] == "not determinable",
       "oracle: now is the last point's day, turned has no date")
    rc, cap, err = run(db, "capacity")
    fsr = {r["fs"]: r for r in rows(cap, "filesystems")}
    pr = {r["fs"]: r for r in rows(cap, "projects")}
    for fs in NOW:
        w = want[fs]
        rc, g, err = run(db, "growth", "--fs", fs, "--metric", "used")
        rows_eq(rows(g, "projection")[:1], [w], "growth --fs %s --metric"
                " used: the line crossed before the last point" % fs)
        rc, g, err = run(db, "growth", "--fs", fs, "--project", "p",
                         "--metric", "used")
        rows_eq(rows(g, "projection")[:1], [w], "growth --project p of %s:"
                " the same rule at 100%% of its limit" % fs)
        eq([(fsr.get(fs, {}).get(k), pr.get(fs, {}).get(k2)) for k, k2 in
            (("full", "full"), ("full_lo", "full_lo"),
             ("full_hi", "full_hi"), ("full_state", "state"))],
           [(w["crossing"], w["crossing"]), (w["crossing_lo"],
             w["crossing_lo"]), (w["crossing_hi"], w["crossing_hi"]),
            (w["state"], w["state"])],
           "capacity of %s: the file system and its project, dates and"
           " state as growth's" % fs)
    ok(want["now"]["crossing_lo"] is not None and
       want["now"]["crossing_lo"] <= last <= (want["now"]["crossing_hi"] or
                                              last),
       "now: the last point's day lies in its own 95% range")
    p = subprocess.run([IOCENSUS, "metrics", "--db", db, "--now",
                        str(last + DAY)], capture_output=True, text=True)
    got = {}
    for line in p.stdout.splitlines():
        m = re.match(r'(iocensus_fs_full_timestamp_seconds|'
                     r'iocensus_project_limit_timestamp_seconds)\{fs="'
                     r'(\w+)".*resource="(\w+)",bound="estimate"\} (\d+)',
                     line)
        if m and m.group(3) in ("space", "bytes"):
            got[(m.group(1)[9:11], m.group(2))] = int(m.group(4))
    eq(got, {("fs", "now"): last, ("pr", "now"): last},
       "metrics: the estimate is the last point's day for now, none for"
       " turned", p.stderr)


# ---- 4. names that name nothing ------------------------------------------

def check_names(tmp):
    os.makedirs(tmp)
    db = snapgen.new_db(tmp, BUILD)
    for fs in ("alpha", "beta"):
        snapgen.insert(db, snapgen.Snapshot(fs, ts("2027-01-01"), files=[
            snapgen.File("p1", 1000, 100, "p1", 10, 4096, 0, 0, 0)]))
    for cmd in (["growth", "--target", "10"], ["files"], ["usage"],
                ["capacity"]):
        rc, res, err = run(db, cmd[0], "--fs", "gamma", *cmd[1:])
        ok(rc == 2 and "no snapshots of file system gamma; file systems:"
           " alpha (/alpha), beta (/beta)" in err, "%s --fs gamma: exit 2 naming the file"
           " systems" % cmd[0], "%d %s" % (rc, err))
    for cmd in (["growth", "--fs", "alpha", "--target", "10"],
                ["files", "--fs", "alpha"]):
        rc, res, err = run(db, cmd[0], "--project", "p9", *cmd[1:])
        ok(rc == 2 and "project p9 is in no snapshot of alpha; did you mean"
           " 'p1'?; projects: p1" in err, "%s --project p9: exit 2 naming the projects" %
           cmd[0], "%d %s" % (rc, err))
    rc, res, err = run(db, "files", "--fs", "beta")
    ok(rc == 0 and "of beta" in " ".join(res["notes"]),
       "files --fs beta: beta's latest snapshot", err)


# ---- 5. diff over a window ---------------------------------------------

# Days after 2026-12-20 of each file system's snapshots; "lus" has a
# running one at day 99 (never an end), "old" only one in reach.
DIFF_FS = {"lus": (0, 21, 51, 81, 101, 106), "nfs": (26, 43),
           "old": (16,)}


def diff_pick(db, lo, hi):
    """Per file system, by its first snapshot's start: (A, B) by the rule
    of the man page, from v_snapshot; None with fewer than two."""
    con = sqlite3.connect(db)
    out = []
    for (fs,) in con.execute("SELECT fs FROM v_snapshot GROUP BY fs ORDER"
                             " BY min(started_at), fs").fetchall():
        snaps = con.execute("SELECT id, started_at FROM v_snapshot WHERE"
                            " fs = ? AND complete AND started_at <= ? ORDER"
                            " BY started_at, id", (fs, hi)).fetchall()
        before = [i for i, t in snaps if t <= lo]
        a = before[-1] if before else (snaps[0][0] if snaps else None)
        b = snaps[-1][0] if snaps else None
        out.append((fs, (a, b) if a is not None and a != b else None))
    con.close()
    return out


def check_diff_window(tmp):
    os.makedirs(tmp)
    db = snapgen.new_db(tmp, BUILD)
    t0 = ts("2026-12-20")
    for fs, days in DIFF_FS.items():
        for k, d in enumerate(days):
            t = t0 + d * DAY
            snapgen.insert(db, snapgen.Snapshot(fs, t, files=(
                snapgen.random_files(100 * k + d, 80 + 40 * k, t,
                                     ["a", "b", "c"]))))
    snapgen.insert(db, snapgen.Snapshot("lus", t0 + 99 * DAY,
                                        status="running"))
    for args, lo, hi in ((["--quarter", "2027Q1"], ts("2027-01-01"),
                          ts("2027-04-01")),
                         (["--from", "2027-01-10", "--to", "2027-03-11"],
                          ts("2027-01-10"), ts("2027-03-11")),
                         (["--to", "2027-02-01"], -2 ** 63, ts("2027-02-01"))):
        want = diff_pick(db, lo, hi)
        pairs = [p for _, p in want if p]
        ok(len(pairs) == 2 and [f for f, p in want if not p] == ["old"],
           "oracle %s: two pairs, old missing" % " ".join(args))
        for by in ("project", "user"):
            rc, res, err = run(db, "diff", "--by", by, *args)
            fsr = rows(res, "filesystems")
            eq([(r["fs"], r["snapshot_a"], r["snapshot_b"]) for r in fsr
                if r["fs"] != "total"], [(f, p[0], p[1]) for f, p in want
                                         if p] + [("old", None, None)],
               "diff %s --by %s: the ids picked, old missing" % (
                   " ".join(args), by))
            ok(all(v is None for k, v in fsr[-1].items() if k != "fs"),
               "diff %s: old's values missing, not zero" % " ".join(args))
            ok(any("old: fewer than two complete snapshots" in n
                   for n in (res or {}).get("notes", [])),
               "diff %s: a note says old is missing" % " ".join(args))
            rc2, ids, err2 = run(db, "diff", "--by", by,
                                 *[i for p in pairs for i in p])
            eq(rows(res, "groups"), rows(ids, "groups"), "diff %s --by %s:"
               " the rows of diff A B of those ids" % (" ".join(args), by))
            eq(fsr[:-1], rows(ids, "filesystems"), "diff %s --by %s: the"
               " file systems' rows too" % (" ".join(args), by))
    rc, res, err = run(db, "diff", "--quarter", "2027Q1", "--top", "1")
    eq(len(rows(res, "groups")), 2, "diff --quarter --top 1: one group and"
       " the unattributed row")
    for args, why in ((["1", "2", "--quarter", "2027Q1"], "not both"),
                      ([], "or a window"),
                      (["--quarter", "2027Q5"], "a quarter")):
        rc, res, err = run(db, "diff", *args)
        ok(rc == 2 and why in err, "diff %s: usage error" % " ".join(args),
           "%d %s" % (rc, err))
    rc, res, err = run(db, "diff", "--quarter", "2020Q1")
    eq((rc, [(r["fs"], r["snapshot_a"]) for r in rows(res, "filesystems")]),
       (0, [("lus", None), ("old", None), ("nfs", None)]),
       "diff --quarter before every snapshot: every file system missing")


def main():
    tmp = tempfile.mkdtemp(prefix="t_capacity_growth.")
    try:
        check_tmpfs(os.path.join(tmp))
        check_targets(os.path.join(tmp, "t"))
        check_usage(os.path.join(tmp, "u"))
        check_names(os.path.join(tmp, "n"))
        check_diff_window(os.path.join(tmp, "d"))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    done()


if __name__ == "__main__":
    main()
