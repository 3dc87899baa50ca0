#!/usr/bin/env python3
"""t_sql_docs: every SQL example of the README and docs/ runs, in the
sqlite3 shell as a user would run it, and returns the rows an
independent model computes.

An example is a ```sql block whose first line is a comment naming it.
Every block found must have a check here, and every check a block: an
example added to the docs without a check, or a check whose example was
removed, fails the test.

The database: fsscan of a generated tree (the census examples; rows from
tests/lib/oracle.py's walk) and the report tests' I/O dataset imported as
hosts oss042..oss044 from 2010-03-01 (rows from tests/lib/io_oracle.py,
which reads the raw captures itself). Also: the dashboard views are what
scripts/gen-io-view generates, and a database made before they existed
gets them from the next ingest.
"""
import glob
import json
import os
import pwd
import re
import shutil
import sqlite3
import stat
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from tap import ok, done, diff                   # noqa: E402
import io_oracle                                 # noqa: E402
import oracle                                    # noqa: E402
import reportdb                                  # noqa: E402

TOP = os.environ.get("TOP", os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.environ["BUILD"]
HOSTS = ["oss042", "oss043", "oss044"]
MAR1 = 1267401600                # 2010-03-01 00:00 UTC
DAY = 86400
CENSUS_NOW = 1267000000          # fsscan --now of the census examples
CENSUS_ROOT = []                 # the census tree, once made


def eq(got, want, name, why=""):
    return ok(got == want, name, diff(got, want) + ("; " + why if why else ""))


def examples():
    """{label: (file, sql)} of every ```sql block of the docs."""
    out = {}
    for path in [os.path.join(TOP, "README.md")] + sorted(
            glob.glob(os.path.join(TOP, "docs", "*.md"))):
        text = open(path).read()
        for block in re.findall(r"^```sql\n(.*?)^```", text, re.M | re.S):
            first = block.split("\n", 1)[0]
            label = first[3:].strip() if first.startswith("-- ") else None
            out[label] = (os.path.relpath(path, TOP), block)
    return out


def shell(db, sql):
    """Rows as the sqlite3 shell prints them in JSON mode (a list of
    objects; an empty result prints nothing)."""
    p = subprocess.run(["sqlite3", "-json", "-bail", db], input=sql,
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(p.stderr.strip())
    return json.loads(p.stdout) if p.stdout.strip() else []


def num(x):
    """A number as SQLite returns it: a whole real is an integer."""
    return int(x) if isinstance(x, float) and x == int(x) else x


# ---------------------------------------------------------------- the data

def census(tmp, db):
    root = os.path.join(tmp, "tree")
    layout = {"proj/climate/run1": 9000, "proj/climate/run2": 200,
              "proj/bio/seq": 50000, "proj/bio/x": 10, "home/ann/docs": 7000,
              "home/bob/src": 3000, "home/bob/bin": 40, "scratch/a/b": 120,
              "scratch/c/d": 121, "scratch/e/f": 5, "scratch/g/h": 4000,
              "top": 1}
    now = CENSUS_NOW
    for rel, size in layout.items():
        d = os.path.join(root, rel)
        os.makedirs(d, exist_ok=True)
        for k in range(3):
            with open(os.path.join(d, "f%d" % k), "wb") as f:
                f.write(b"z" * (size + k))
            # Last read 100 to 250 days before now: around v_cold's 180.
            age = (100 + 50 * ((len(rel) + k) % 4)) * DAY - (k == 1)
            os.utime(os.path.join(d, "f%d" % k), (now - age, now - DAY))
    CENSUS_ROOT.append(root)
    subprocess.run([os.path.join(BUILD, "fsscan"), "--db", db, "--quiet",
                    "--now", str(now), root], check=True)
    return oracle.Model(oracle.Walk(root.encode()), now, dirs_depth=3)


def io_data(tmp, db):
    ds = reportdb.dataset()
    reportdb.ingest(db, BUILD, tmp, ds, names=HOSTS)
    raws = sorted(glob.glob(os.path.join(tmp, "raw", "*.raw")))
    return io_oracle.build([io_oracle.load_raw(p, HOSTS[i])
                            for i, p in enumerate(raws)])


# ---------------------------------------------------------------- the checks

def want_v_io(model, _):
    rows = []
    for (host, dev), ss in model.devs.items():
        if host != "oss042":
            continue
        for s in ss:
            if s.t_ms >= MAR1 * 1000:
                rows.append((s.t_ms, dev, s))
    rows.sort(key=lambda r: (r[0], r[1]))

    def exact(ms):
        return ms // 1000 if ms % 1000 == 0 else ms / 1000
    return [{"host": "oss042", "device": d, "t": exact(t),
             "seconds": exact(s.dur_ms), "rd_bytes": s.rd_sec * 512,
             "wr_bytes": s.wr_sec * 512, "busy_ms": s.io_ms}
            for t, d, s in rows[:5]]


def want_v_dir(_, census_model):
    dirs = census_model.dirs()
    rows = [(p.decode(), v[1], v[3]) for p, v in dirs.items() if v[0] == 2]
    rows.sort(key=lambda r: (-r[2], r[0].encode()))
    return [{"path": p, "files": f, "bytes": b} for p, f, b in rows[:10]]


def want_cold(_, census_model):
    """Per project (depth:1), files not read in 180 days and their
    bytes, and the project's bytes, from os.lstat alone."""
    root = CENSUS_ROOT[0]
    rows = {"(none)": [0, 0, 0]}
    for dirpath, _, files in os.walk(root):
        rel = os.path.relpath(dirpath, root)
        proj = "(none)" if rel == "." else rel.split(os.sep)[0]
        r = rows.setdefault(proj, [0, 0, 0])
        for name in files:
            st = os.lstat(os.path.join(dirpath, name))
            r[2] += st.st_size
            if CENSUS_NOW - st.st_atime_ns // 10**9 >= 180 * DAY:
                r[0] += 1
                r[1] += st.st_size
    out = [{"project": p, "files": f, "bytes": b, "project_bytes": pb}
           for p, (f, b, pb) in rows.items()]
    return sorted(out, key=lambda r: (-r["bytes"], r["project"].encode()))


def want_cold_user(_, census_model):
    """Per user, files not read in 180 days and their bytes, and the
    user's bytes, from os.lstat alone: each inode once, under its uid;
    every owner of a directory or file, the name the system gives it."""
    root = CENSUS_ROOT[0]
    rows, seen = {}, set()
    for dirpath, _, files in os.walk(root):
        rows.setdefault(os.lstat(dirpath).st_uid, [0, 0, 0])
        for name in files:
            st = os.lstat(os.path.join(dirpath, name))
            r = rows.setdefault(st.st_uid, [0, 0, 0])
            if (st.st_dev, st.st_ino) in seen or not stat.S_ISREG(
                    st.st_mode):
                continue
            seen.add((st.st_dev, st.st_ino))
            r[2] += st.st_size
            if CENSUS_NOW - st.st_atime_ns // 10**9 >= 180 * DAY:
                r[0] += 1
                r[1] += st.st_size

    def name(uid):
        try:
            return pwd.getpwuid(uid).pw_name
        except KeyError:
            return uid
    out = [(u, {"user": name(u), "files": f, "bytes": b, "user_bytes": ub})
           for u, (f, b, ub) in rows.items()]
    return [r for _, r in sorted(out, key=lambda x: (-x[1]["bytes"],
                                                     x[0]))]


def want_proj_hist(_, census_model):
    """Project proj's size buckets (v_hist's rows of one project) from
    the model's walk: lo, hi, files, bytes by lo."""
    rows = [(k[2], k[3]) + v for k, v in census_model.hist().items()
            if k[0] == b"proj" and k[1] == "size"]
    return [{"lo": lo, "hi": hi, "files": f, "bytes": b}
            for lo, hi, f, b in sorted(rows)]


def host_minute_rows(model, host):
    """The minutes v_io_host_minute has for host: expected for it, in a
    minute with an io_minute row (some device has a value) and an hour with
    an io_host_hour row (some device of the host has a valid minute)."""
    live = model.host_hours()
    return {t: v for t, v in model.host[host].items()
            if t in model.minute_rows and (host, t // 3600 * 3600) in live}


def want_host_day(model, _):
    mins = host_minute_rows(model, "oss042")
    out = []
    for t in sorted(mins):
        if not MAR1 + DAY <= t < MAR1 + 2 * DAY:
            continue
        state, rd, wr, ios = mins[t]
        c = state == "complete"
        out.append({"t": t, "complete": int(c), "rd_bytes": rd if c else None,
                    "wr_bytes": wr if c else None, "ios": ios if c else None})
    return out


def want_dev_day(model, _):
    rows = []
    for (host, dev, t0), v in model.dev_hours().items():
        if host == "oss042" and MAR1 + DAY <= t0 < MAR1 + 2 * DAY:
            rows.append({"device": dev, "t": t0, "minutes": v[0],
                         "rd_bytes": v[2], "wr_bytes": v[3], "busy_ms": v[10]})
    rows.sort(key=lambda r: (r["device"], r["t"]))
    return rows


def want_hourly_mib(model, _):
    groups = {}
    for host in model.host:
        for t, (state, rd, wr, _ios) in host_minute_rows(model, host).items():
            if not MAR1 <= t < MAR1 + DAY:
                continue
            g = groups.setdefault((host, t // 3600 * 3600), [0, 0])
            if state == "complete":
                g[0] += rd + wr
                g[1] += 1
    return [{"host": h, "hour": hr,
             "mib_s": round(b / 1048576.0 / (60 * n), 3) if n else None,
             "complete_minutes": n}
            for (h, hr), (b, n) in sorted(groups.items())]


CHECKS = {
    "The first samples of oss042 from 2010-03-01 on (v_io)": want_v_io,
    "The ten largest directories two levels down (v_dir)": want_v_dir,
    "Bytes not read in 180 days, per project, at the latest complete "
    "snapshot (v_cold)": want_cold,
    "Bytes not read in 180 days, per user, at the latest complete "
    "snapshot (v_cold_owner)": want_cold_user,
    "The size histogram of project proj at the latest complete snapshot "
    "(project_hist)": want_proj_hist,
    "One host's day, minute by minute (v_io_host_minute)": want_host_day,
    "One host's day, device by device, hour by hour (v_io_dev_hour)":
        want_dev_day,
    "Each host's average MiB/s per hour of 2010-03-01, over its complete "
    "minutes (v_io_host_minute)": want_hourly_mib,
}


def check_examples(db, model, census_model):
    found = examples()
    eq(sorted(k or "(no label)" for k in found), sorted(CHECKS),
       "every SQL example of the docs has a check, every check an example")
    for label, (path, sql) in sorted(found.items(), key=lambda x: str(x)):
        want_fn = CHECKS.get(label)
        if not want_fn:
            continue
        want = want_fn(model, census_model)
        try:
            got = shell(db, sql)
        except RuntimeError as e:
            ok(False, "%s: %s runs" % (path, label), str(e))
            continue
        got = [{k: num(v) for k, v in r.items()} for r in got]
        ok(len(want) > 0, "%s: the model has rows for it" % label)
        eq(got, want, "%s: %s gives the model's rows" % (path, label))


def check_generated():
    for view, path in (("v_io", "sql/views.sql"),
                       ("v_io_host_minute", "sql/dash.sql")):
        p = subprocess.run([os.path.join(TOP, "scripts", "gen-io-view"),
                            view], capture_output=True, text=True)
        ok(p.returncode == 0 and p.stdout.strip() in open(
            os.path.join(TOP, path)).read(),
           "%s in %s is scripts/gen-io-view's" % (view, path))


def check_upgrade(tmp, db):
    """A database without the dashboard views (made before them) gets
    them from the next ingest, and the same rows."""
    old = os.path.join(tmp, "old.db")
    shutil.copy(db, old)
    c = sqlite3.connect(old)
    before = c.execute("SELECT * FROM v_io_dev_hour ORDER BY 1, 2, 3").fetchall()
    c.executescript("DROP VIEW v_io_host_minute; DROP VIEW v_io_dev_hour;")
    c.close()
    p = subprocess.run([os.path.join(BUILD, "iocensus"), "ingest", "--db",
                        old], capture_output=True, text=True)
    ok(p.returncode == 0, "ingest of nothing on an older database", p.stderr)
    c = sqlite3.connect(old)
    names = {r[0] for r in c.execute("SELECT name FROM sqlite_master")}
    ok({"v_io_host_minute", "v_io_dev_hour"} <= names,
       "the views are installed")
    eq(c.execute("SELECT * FROM v_io_dev_hour ORDER BY 1, 2, 3").fetchall(),
       before, "with the same rows")
    plan = " ".join(r[3] for r in c.execute(
        "EXPLAIN QUERY PLAN SELECT * FROM v_io_host_minute WHERE host = ? "
        "AND t >= ? AND t < ?", ("oss042", MAR1, MAR1 + DAY)))
    ok("SCAN" not in plan and "io_host_hour_key" in plan,
       "a host's day is index ranges and lookups, no scan", plan)
    plan = " ".join(r[3] for r in c.execute(
        "EXPLAIN QUERY PLAN SELECT * FROM v_io_dev_hour WHERE host = ? AND "
        "t >= ? AND t < ?", ("oss042", MAR1, MAR1 + DAY)))
    ok("SCAN" not in plan, "a host's device hours need no scan", plan)
    c.close()


def main():
    tmp = tempfile.mkdtemp(prefix="t_sql_docs.")
    try:
        db = os.path.join(tmp, "iocensus.db")
        census_model = census(tmp, db)
        model = io_data(tmp, db)
        check_examples(db, model, census_model)
        check_generated()
        check_upgrade(tmp, db)
    finally:
        shutil.rmtree(tmp)


main()
done()
