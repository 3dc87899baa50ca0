#!/usr/bin/env python3
"""t_report_summary: the numbers of the report's summary against
independent computations, and the report narrowed with --fs and
--project.

1. The red list: file system "lus" has projects over their limit, one
   reaching its byte limit and one its inode limit before the window's
   end plus the horizon, one just after, two without a limit (one of them
   the fastest grower) and a pair whose dates fall half a day before and
   half a day after the cutoff. The oracle reads v_limit and v_project
   (sqlite3 here), fits each project's points with census_oracle.growth
   as t_capacity_growth.py does, and keeps the projects over their limit
   (most over first) and then those whose date is before the cutoff
   (soonest first): their names, % of limit, used bytes and dates must be
   the summary's, for --horizon 30 and 31 (the pair's second joins) and
   0 (only the projects over), and with --to at another day.
1b. File systems on the red list (fs_db): one full, one filling up, one
   whose inodes fill, one that crossed its line before its last point at
   96% ("now", and its project too), against census_oracle.growth on the
   points and df's Use%; each row's used and limit are of one resource;
   the JSON columns' units and the CSV's exact integers.
2. The file systems: "lus" and "lus2" are one device (one UUID): the
   summary has one row for both, and "nfs" has its own.
3. Cold data: "nfs" has files (snapgen) and v_cold rows; the summary's
   cold rows are v_cold's projects at the longest threshold of the latest
   snapshot, most bytes first.
4. --fs and --project: sections of other file systems are left out, and
   rows of other file systems and projects leave every table that names
   them (capacity, cold, usage); unknown names are usage errors (exit 2)
   listing the known ones; a bad --horizon too.
"""
import calendar
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tarfile
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "lib"))
import census_oracle as oracle  # noqa: E402
import snapgen  # noqa: E402
from tap import done, eq, ok  # noqa: E402

BUILD = os.environ["BUILD"]
IOCENSUS = os.path.join(BUILD, "iocensus")
DAY = 86400
GIB = 1 << 30


def ts(s):
    return calendar.timegm(time.strptime(s, "%Y-%m-%d"))


T = ts("2027-01-04")
TO = T + 45 * DAY                # --to: the window's end
DAYS = (0, 10, 20, 30, 40)       # the points of lus, days after T
# project: (GiB at day 0, GiB per day, byte limit GiB, inode limit)
# Days after T at which each reaches its limit: over 40+ (already),
# soon 60, inode 58.8 (17 entries a day), later 100, edge_in 74.5, edge_out 75.5: with
# --to T+45 and --horizon 30 the cutoff is day 75.
LUS = {"over": (90, 1, 100, None), "soon": (0, 1, 60, None),
       "later": (0, 1, 100, None), "edge_in": (10, 1, 84.5, None),
       "edge_out": (10, 1, 85.5, None), "inode": (1, 0, None, 2000),
       "free": (5, 3, None, None), "idle": (5, 0, None, None)}


def entries(name, d):
    return 1000 + 17 * d if name == "inode" else 10


def lus_db(tmp):
    db = snapgen.new_db(tmp, BUILD)
    limits = {p: (None if lb is None else int(lb * GIB), li)
              for p, (_, _, lb, li) in LUS.items()
              if lb is not None or li is not None}
    for d in DAYS:
        tot = {p: (10, int((b + r * d) * GIB), int((b + r * d) * GIB),
                   entries(p, d)) for p, (b, r, _, _) in LUS.items()}
        alloc = sum(v[2] for v in tot.values())
        for fs, at in (("lus", T + d * DAY), ("lus2", T + d * DAY + 3600)):
            snapgen.insert(db, snapgen.Snapshot(
                fs, at, totals=(80, alloc, alloc),
                project_totals=tot if fs == "lus" else {"home": (5, GIB, GIB)},
                capacity=(4096 * GIB, 4096 * GIB - alloc - GIB,
                          3900 * GIB - alloc, 10 ** 6, 10 ** 6 - 5000),
                limits=limits if fs == "lus" else {}, device="lus-uuid"))
    for i, d in enumerate((5, 35)):
        t = T + d * DAY
        files = snapgen.random_files(30 + i, 300, t, ["a", "b", "c", "d"])
        snapgen.insert(db, snapgen.Snapshot(
            "nfs", t, files=files, now=t, cold=(30, 90, 365),
            capacity=(100 * GIB, 60 * GIB, 55 * GIB, 10 ** 5, 9 * 10 ** 4),
            device="nfs-uuid"))
    return db


def report(db, tmp, *args):
    """The summary's and every result's JSON from the bundle, or the
    failed run."""
    out, bundle = os.path.join(tmp, "r.html"), os.path.join(tmp, "r.tar.gz")
    p = subprocess.run([IOCENSUS, "report", "--db", db, "--out", out,
                        "--bundle", bundle] + list(args), capture_output=True,
                       text=True)
    if p.returncode:
        return p, None
    res = []
    with tarfile.open(bundle, "r:gz") as tf:
        for m in sorted(tf.getnames()):
            if re.fullmatch(r"\d\d-[a-z_]+\.json", m):
                res.append(json.loads(tf.extractfile(m).read()))
    return p, res


def of(res, cmd):
    return [r for r in res if r["command"] == cmd]


def rows(r, key):
    return r["tables"][key]["rows"] if key in r["tables"] else []


def red_oracle(db, to, horizon):
    """(project, status, % of limit, used, date, earliest, latest) of the
    red list, from v_limit, v_project and v_snapshot."""
    con = sqlite3.connect(db)
    snaps = con.execute(
        "SELECT id, started_at FROM v_snapshot WHERE fs = 'lus' AND"
        " complete AND started_at < ? ORDER BY started_at", (to,)).fetchall()
    last = snaps[-1][0]
    lim = {p: (b, i) for p, b, i in con.execute(
        "SELECT project, bytes, inodes FROM v_limit WHERE snapshot_id = ?",
        (last,))}
    over, soon = [], []
    for p, (lb, li) in sorted(lim.items()):
        pts = []
        for sid, t in snaps:
            alloc, ent = con.execute(
                "SELECT p.alloc_bytes, r.entries FROM v_project p JOIN"
                " project r ON r.snapshot_id = p.snapshot_id AND r.name ="
                " p.project WHERE p.snapshot_id = ? AND p.project = ?",
                (sid, p)).fetchone()
            pts.append((sid, t, alloc if lb is not None else ent))
        limit = lb if lb is not None else li
        pct = pts[-1][2] / limit
        m = oracle.growth(pts, limit)["projection"][0]
        # used and limit of one resource: allocated bytes and the byte
        # limit, else entries and the inode limit
        row = (p, "space" if lb is not None else "inodes", pct, pts[-1][2],
               limit, m["crossing"], m["crossing_lo"], m["crossing_hi"])
        if m["state"] == "already exceeded":
            over.append(row)
        elif m["crossing"] is not None and m["crossing"] < to + horizon * DAY:
            soon.append(row)
    con.close()
    over.sort(key=lambda r: (-r[2], r[0]))
    soon.sort(key=lambda r: (r[5], -r[2], r[0]))
    return [r[:2] + ("over its limit",) + r[2:5] + (None, None, None)
            for r in over] + [r[:2] + ("reaches its limit",) + r[2:]
                              for r in soon]


def red_got(r):
    """A red list row as red_oracle's: used and limit in the columns of
    its resource, those of the other empty."""
    u = "bytes" if r["resource"] == "space" else "inodes"
    o = "inodes" if u == "bytes" else "bytes"
    ok(r["used_" + o] is None and r["limit_" + o] is None,
       "red list %s/%s: no %s beside its %s" % (r["fs"], r["project"], o,
                                               u))
    return (r["project"], r["resource"], r["status"], r["use_ratio"],
            r["used_" + u], r["limit_" + u], r["full"], r["full_lo"],
            r["full_hi"])


def close(a, b):
    if isinstance(a, float) or isinstance(b, float):
        return a is not None and b is not None and abs(a - b) <= 1e-9 * max(
            abs(a), abs(b), 1e-300)
    return a == b


def check_red(db, tmp):
    for horizon, want_names in ((30, ["over", "inode", "soon", "edge_in"]),
                                (31, ["over", "inode", "soon", "edge_in",
                                      "edge_out"]),
                                (0, ["over"])):
        p, res = report(db, tmp, "--to", "2027-02-18", "--horizon",
                        str(horizon))
        if not ok(p.returncode == 0, "report --horizon %d: runs" % horizon,
                  p.stderr):
            continue
        summ = of(res, "summary")[0]
        got = [red_got(r) for r in rows(summ, "redlist")
               if r["project"] is not None]
        want = red_oracle(db, TO, horizon)
        eq([g[0] for g in got], want_names, "--horizon %d: the red list's"
           " projects, over first, then the soonest" % horizon)
        ok(len(got) == len(want) and all(
            all(close(a, b) for a, b in zip(g, w)) for g, w in zip(got, want)),
           "--horizon %d: names, resource, %% of limit, used, limit and"
           " dates = the oracle's (v_limit, v_project, the linear fit)"
           % horizon,
           "got %r want %r" % (got, want))
        ok(not {"free", "idle"} & {g[0] for g in got},
           "--horizon %d: projects without a limit are never on it" % horizon)
        cut = time.strftime("%Y-%m-%d", time.gmtime(TO + horizon * DAY))
        ok(any(n.startswith("Red list: ") and cut in n and
               "the window's end, 2027-02-18, plus %d day" % horizon in n
               for n in summ["notes"]), "--horizon %d: the line says the"
           " cutoff, %s" % (horizon, cut), repr(summ["notes"][:1]))
    # Another window's end: the cutoff moves with it.
    p, res = report(db, tmp, "--to", "2027-02-12", "--horizon", "30")
    got = [r["project"] for r in rows(of(res, "summary")[0], "redlist")] \
        if res else None
    want = [r[0] for r in red_oracle(db, ts("2027-02-12"), 30)]
    eq(got, want, "--to 2027-02-12: the red list of its own cutoff")
    ok("edge_in" not in (got or []), "--to 2027-02-12: edge_in is past it")


# File systems on the red list: GiB used of 100 (used + avail) at days
# 0, 10, ..., 40, each its own device, and inodes used of 10^6. "full"
# has no space left at day 30 (already exceeded); "fill" reaches 100 GiB
# near day 86; "slow" near day 900, but its inodes near day 50; "now"
# crossed its line before its last point, at 96%: reached now, day 40;
# its project p, with the same history and a 100 GiB limit, too.
FS = {"full": ((50, 70, 90, 100, 100), None),
      "fill": ((10, 20, 31, 40, 52), None),
      "slow": ((10, 11, 12, 13, 14), (5, 6, 7, 8, 9)),
      "now": ((60, 80, 95, 99, 96), None)}


def fs_db(tmp):
    os.makedirs(tmp)
    db = snapgen.new_db(tmp, BUILD)
    pts = {}
    for fs, (gib, iused) in FS.items():
        for i, u in enumerate(gib):
            used = u * GIB
            inodes = (iused[i] if iused else 1) * 10 ** 5
            s = snapgen.Snapshot(
                fs, T + 10 * i * DAY, totals=(10, used, used),
                project_totals={"p": (10, used, used)},
                capacity=(100 * GIB, 100 * GIB - used, 100 * GIB - used,
                          10 ** 6, 10 ** 6 - inodes),
                limits={"p": (100 * GIB, None)} if fs == "now" else {},
                device=fs + "-uuid")
            snapgen.insert(db, s)
            pts.setdefault((fs, "space"), []).append(
                (s.id, s.started_at, used))
            pts.setdefault((fs, "inodes"), []).append(
                (s.id, s.started_at, inodes))
    return db, pts


def fs_red_oracle(pts, cutoff):
    """(fs, project, resource, status, use, used, limit, dates) of the
    red list from the points: df's Use% (rounded up) and the linear fit
    to 100 GiB or 10^6 inodes; the project p of "now" as its file
    system."""
    over, soon = [], []
    for (fs, res), p in sorted(pts.items()):
        cap = 100 * GIB if res == "space" else 10 ** 6
        m = oracle.growth(p, cap)["projection"][0]
        use = -(-p[-1][2] * 100 // cap) / 100
        rows_ = [(fs, None, res, use)]
        if fs == "now" and res == "space":
            rows_.append((fs, "p", res, p[-1][2] / cap))
        for fs_, proj, res_, u in rows_:
            row = (fs_, proj, res_, u, p[-1][2], cap, m["crossing"],
                   m["crossing_lo"], m["crossing_hi"])
            if m["state"] == "already exceeded":
                over.append(row[:6] + (None, None, None))
            elif m["crossing"] is not None and m["crossing"] < cutoff:
                soon.append(row)
    over.sort(key=lambda r: (-r[3], r[0]))
    soon.sort(key=lambda r: (r[6], -r[3], r[0]))
    status = {None: ("full", "fills up")}
    return [r[:3] + (status.get(r[1], ("over its limit",))[0],) + r[3:]
            for r in over] + [
        r[:3] + (status.get(r[1], (0, "reaches its limit"))[1],) + r[3:]
        for r in soon]


def check_red_fs(tmp):
    db, pts = fs_db(tmp)
    to = T + 41 * DAY
    p, res = report(db, tmp, "--to", "2027-02-14", "--horizon", "90")
    if not ok(p.returncode == 0, "report of full file systems: runs",
              p.stderr):
        return
    summ = of(res, "summary")[0]
    t = summ["tables"].get("redlist", {"columns": [], "rows": []})
    got = []
    for r in t["rows"]:
        k = red_got(r)
        got.append((r["fs"],) + k[:1] + k[1:])
    want = fs_red_oracle(pts, to + 90 * DAY)
    eq(len(want), 5, "oracle: full, now and its project, fill, and slow's"
       " inodes on the red list")
    eq([g[:4] for g in got], [w[:4] for w in want], "red list: the file"
       " systems full, then filling before the cutoff, soonest first, by"
       " resource, beside the project")
    ok(len(got) == len(want) and all(all(close(a, b) for a, b in zip(g, w))
                                     for g, w in zip(got, want)),
       "red list: each file system's use, used, capacity and dates = the"
       " oracle's (df's Use%, the linear fit)", "got %r want %r" % (
           got, want))
    now = [g for g in got if g[0] == "now"]
    eq([g[7] for g in now], [T + 40 * DAY] * 2, "red list: now and its"
       " project p reach it now, the day of their last point")
    ok(any("2 file systems filling up by then" in n or "1 file system full"
           in n for n in summ["notes"]), "red list: the line counts the"
       " file systems", repr(summ["notes"][:1]))
    units = {c["key"]: c["unit"] for c in t["columns"]}
    eq({k: units.get(k) for k in ("use_ratio", "used_bytes", "limit_bytes",
                                  "bytes_per_day", "used_inodes",
                                  "limit_inodes", "full", "resource")},
       {"use_ratio": "fraction", "used_bytes": "bytes", "limit_bytes":
        "bytes", "bytes_per_day": "bytes/day", "used_inodes": "inodes",
        "limit_inodes": "inodes", "full": "unix seconds", "resource": None},
       "red list JSON: each column's unit")
    out, bundle = os.path.join(tmp, "r.html"), os.path.join(tmp, "r.tar.gz")
    with tarfile.open(bundle, "r:gz") as tf:
        name = [m for m in tf.getnames()
                if re.fullmatch(r"\d\d-summary/redlist\.csv", m)]
        csv = tf.extractfile(name[0]).read().decode() if name else ""
    lines = csv.splitlines()
    eq(lines[:1], [",".join(c["key"] for c in t["columns"])],
       "red list CSV: the JSON's column keys")
    full = [ln.split(",") for ln in lines[1:] if ln.startswith("full,")]
    eq([(f[5], f[6]) for f in full], [(str(100 * GIB), str(100 * GIB))],
       "red list CSV: used and capacity of full as exact integers of bytes")


def check_devices_cold(db, tmp):
    p, res = report(db, tmp)
    if not ok(p.returncode == 0, "report: runs", p.stderr):
        return
    summ = of(res, "summary")[0]
    eq(sorted(r["fs"] for r in rows(summ, "filesystems")),
       ["lus and lus2", "nfs"], "file systems: lus and lus2, one device,"
       " in one row")
    con = sqlite3.connect(db)
    last = con.execute("SELECT max(id) FROM v_snapshot WHERE fs = 'nfs'"
                       ).fetchone()[0]
    top = con.execute("SELECT max(days) FROM v_cold WHERE snapshot_id = ?"
                      " AND metric = 'atime'", (last,)).fetchone()[0]
    want = [("nfs", p, top, f, b) for p, f, b in con.execute(
        "SELECT project, files, bytes FROM v_cold WHERE snapshot_id = ? AND"
        " metric = 'atime' AND days = ? AND project IS NOT NULL ORDER BY"
        " bytes DESC, project LIMIT 5", (last, top))]
    con.close()
    eq([(r["fs"], r["project"], r["days"], r["files"], r["bytes"])
        for r in rows(summ, "cold")], want, "cold data: v_cold's projects at"
       " the longest threshold of the latest snapshot, most bytes first")
    ok(len(want) >= 3, "cold data: rows to compare (%d)" % len(want))


def titles(res):
    return [r["title"] for r in res]


def check_narrow(db, tmp):
    p, res = report(db, tmp, "--fs", "nfs")
    if ok(p.returncode == 0, "--fs nfs: runs", p.stderr):
        t = titles(res)
        ok(not [x for x in t if "lus" in x] and "Cold data: nfs, not read"
           " in N days" in t, "--fs nfs: no section of lus or lus2, nfs's"
           " sections stay", repr(t))
        fs = {r["fs"] for x in res for k, tab in x["tables"].items()
              for r in tab["rows"] if "fs" in r}
        eq(fs, {"nfs"}, "--fs nfs: every table's rows are nfs's")
        eq([r["names"] for r in rows(of(res, "capacity")[0], "devices")],
           ["nfs"], "--fs nfs: the devices table has nfs's device only")
        ok(any("no project has a limit" in n for n in
               of(res, "summary")[0]["notes"]), "--fs nfs: no limit there")
    p, res = report(db, tmp, "--fs", "lus", "--fs", "nfs")
    if ok(p.returncode == 0, "--fs lus --fs nfs: runs", p.stderr):
        t = titles(res)
        ok(not [x for x in t if "lus2" in x] and [x for x in t if "lus" in x]
           and [x for x in t if "nfs" in x], "--fs lus --fs nfs: lus2's"
           " sections left out", repr(t))
    p, res = report(db, tmp, "--project", "soon", "--project", "a",
                    "--to", "2027-02-18")
    if ok(p.returncode == 0, "--project soon --project a: runs", p.stderr):
        cap = of(res, "capacity")[0]
        eq(sorted(r["project"] for r in rows(cap, "projects")),
           ["a", "soon"], "--project: the capacity section's projects")
        eq([r["project"] for r in rows(of(res, "summary")[0], "redlist")],
           ["soon"], "--project: the red list")
        eq({r["name"] for r in rows(of(res, "usage")[0], "usage")},
           {"a", "soon"}, "--project: usage by project")
        eq({r["project"] for c in of(res, "cold")
            for r in rows(c, "projects")}, {"a"}, "--project: cold data")
    for args, known in ((["--fs", "zzz"], "lus (/lus), lus2 (/lus2), nfs (/nfs)"),
                        (["--fs", "lus", "--fs", "nfss"], "lus (/lus), lus2 (/lus2), nfs (/nfs)"),
                        (["--project", "sooon"], "edge_in")):
        p, res = report(db, tmp, *args)
        ok(p.returncode == 2 and known in p.stderr and args[-1] in p.stderr,
           "%s: usage error listing the known names" % " ".join(args),
           "exit %d: %s" % (p.returncode, p.stderr))
    for bad in ("-1", "x", "36501", ""):
        p, _ = report(db, tmp, "--horizon", bad)
        ok(p.returncode == 2 and "--horizon" in p.stderr, "--horizon %r:"
           " usage error" % bad, p.stderr)


def main():
    tmp = tempfile.mkdtemp(prefix="t_report_summary.")
    try:
        db = lus_db(tmp)
        check_red(db, tmp)
        check_devices_cold(db, tmp)
        check_narrow(db, tmp)
        check_red_fs(os.path.join(tmp, "fs"))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    done()


main()
