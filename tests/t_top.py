#!/usr/bin/env python3
"""t_top: `--top N` and the metrics' cap, against the stable views.

A census of 60 projects of distinct sizes, some of their files aged past
the cold thresholds, is read back with Python's own sqlite3 (v_project,
v_cold), and each capped output is checked against it:

- `usage --top 5`: in JSON the 5 projects with the most bytes, in that
  order, and "more" the count of the rest; the table ends with
  "and N more"; CSV stays the rows alone (the count goes to standard
  error); `--top 0` prints every project and no count.
- `cold --top 3`: the first 3 rows of `cold --top 0`, and the rest
  counted.
- `metrics --top 5`: per project family, the 5 projects with the most
  bytes and the one with a limit (p00, the smallest: its alerts need its
  series), and project="other" holding the exact sum of the rest of
  v_project's files, dirs, bytes and allocated bytes and of v_cold's
  bytes per metric and threshold; shown plus other equals the total;
  promtool accepts the file. The configuration's metrics-top does the
  same, and --top wins over it.
- `report --out`: 50 projects per list by default, so "and 10 more";
  `--top 0` lists all 60.
- A bad N (negative, not a number) is refused with exit status 2.
"""
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "lib"))
from tap import done, eq, ok, skip  # noqa: E402

TOP = os.environ.get("TOP") or os.path.dirname(
    os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("BUILD") or os.path.join(TOP, "build")
FSSCAN = os.path.join(BUILD, "fsscan")
IOCENSUS = os.path.join(BUILD, "iocensus")
NPROJ = 60
DAY = 86400
# The smallest project, with a byte limit: it keeps its series under
# any cap.
LIMITED = "p00"
LIMIT = 5000


def make_tree(root, now):
    """Project i holds i % 4 + 1 files: one of ((i * 7919) % 61 + 1) *
    1000 + i bytes, a permutation over i since 61 is prime, so the
    projects' bytes are distinct, and the others of one byte; every third
    project's files are 400 days old, every third but one 40 days unread.
    """
    for i in range(NPROJ):
        d = os.path.join(root, "p%02d" % i)
        os.mkdir(d)
        os.chmod(d, 0o755)
        nfiles = i % 4 + 1
        for k in range(nfiles):
            f = os.path.join(d, "f%d" % k)
            with open(f, "wb") as fh:
                fh.write(b"x" * (((i * 7919) % 61 + 1) * 1000 + i
                                 if k == 0 else 1))
            if i % 3 == 0:
                t = now - 400 * DAY
                os.utime(f, (t, t))
            elif i % 3 == 1:
                t = now - 40 * DAY
                os.utime(f, (t, now))


def run(args, env, code=0):
    p = subprocess.run(args, env=env, capture_output=True, text=True)
    ok(p.returncode == code, "%s exits %d" % (" ".join(args[1:4]), code),
       "got %d: %s" % (p.returncode, p.stderr[-300:]))
    return p


def oracle(db):
    con = sqlite3.connect(db)
    try:
        sid = con.execute("SELECT max(id) FROM v_snapshot").fetchone()[0]
        proj = {r[0]: [int(x) for x in r[1:]] for r in con.execute(
            "SELECT project, files, dirs, bytes, alloc_bytes FROM v_project"
            " WHERE snapshot_id = ?", (sid,))}
        cold = {}
        for p, m, d, b in con.execute(
                "SELECT project, metric, days, bytes FROM v_cold"
                " WHERE snapshot_id = ? AND project IS NOT NULL", (sid,)):
            cold[(p, m, d)] = int(b)
        return proj, cold
    finally:
        con.close()


def by_bytes(proj):
    return sorted(proj, key=lambda p: (-proj[p][2], p))


def prom(text):
    """{family: {labels-dict-as-tuple: value}} of a textfile."""
    out = {}
    for line in text.splitlines():
        m = re.match(r'(\w+)\{(.*)\} (\S+)$', line)
        if not m:
            continue
        labels = tuple(sorted(re.findall(r'(\w+)="((?:[^"\\]|\\.)*)"',
                                         m.group(2))))
        out.setdefault(m.group(1), {})[labels] = int(m.group(3))
    return out


def check_usage(db, env, proj):
    order = by_bytes(proj)
    p = run([IOCENSUS, "usage", "--db", db, "--top", "5", "--format",
             "json"], env)
    t = json.loads(p.stdout)["tables"]["usage"]
    eq([r["name"] for r in t["rows"]], order[:5],
       "usage --top 5: the 5 projects with the most bytes, in order")
    eq(t.get("more"), len(proj) - 5, "usage --top 5: the rest counted")
    p = run([IOCENSUS, "usage", "--db", db, "--top", "5"], env)
    ok("and %d more" % (len(proj) - 5) in p.stdout,
       "usage --top 5: the table says how many more", p.stdout[-400:])
    p = run([IOCENSUS, "usage", "--db", db, "--top", "5", "--format",
             "csv"], env)
    rows = [r for r in p.stdout.splitlines()
            if r and not r.startswith("#") and not r.startswith("fs,")]
    eq(len(rows), 5, "usage --top 5 --format csv: 5 rows and no more")
    ok("%d more" % (len(proj) - 5) in p.stderr,
       "usage --top 5 --format csv: the count on standard error",
       p.stderr)
    p = run([IOCENSUS, "usage", "--db", db, "--top", "0", "--format",
             "json"], env)
    t = json.loads(p.stdout)["tables"]["usage"]
    eq(sorted(r["name"] for r in t["rows"]), sorted(proj),
       "usage --top 0: every project")
    ok(not t.get("more"), "usage --top 0: no count of more")


def check_cold(db, env):
    full = json.loads(run([IOCENSUS, "cold", "--db", db, "--top", "0",
                           "--format", "json"], env).stdout)["tables"]
    cut = json.loads(run([IOCENSUS, "cold", "--db", db, "--top", "3",
                          "--format", "json"], env).stdout)["tables"]
    for key, t in full.items():
        if len(t["rows"]) <= 3:
            continue
        eq(cut[key]["rows"], t["rows"][:3],
           "cold --top 3, %s: the first 3 rows of --top 0" % key)
        eq(cut[key].get("more"), len(t["rows"]) - 3,
           "cold --top 3, %s: the rest counted" % key)


def check_metrics(text, proj, cold, n, label):
    fam = prom(text)
    order = by_bytes(proj)
    keep = set(order[:n]) | {LIMITED}
    rest = [p for p in order if p not in keep]
    cols = {"iocensus_project_files": 0, "iocensus_project_dirs": 1,
            "iocensus_project_bytes": 2, "iocensus_project_alloc_bytes": 3}
    for name, col in cols.items():
        got = {dict(k)["project"]: v for k, v in fam.get(name, {}).items()}
        eq(set(got), keep | {"other"}, "%s: %s for the %d largest, the"
           " limited one and other" % (label, name, n))
        eq(got.get("other"), sum(proj[p][col] for p in rest),
           "%s: %s{project=\"other\"} is the exact sum of the rest" %
           (label, name))
        eq(sum(got.values()), sum(v[col] for v in proj.values()),
           "%s: %s, shown plus other, is every project's" % (label, name))
    got = {}
    for k, v in fam.get("iocensus_project_cold_bytes", {}).items():
        d = dict(k)
        got[(d["project"], d["metric"], int(d["days"]))] = v
    want = {}
    for (p, m, days), b in cold.items():
        key = (p if p in keep else "other", m, days)
        want[key] = want.get(key, 0) + b
    eq(got, want, "%s: iocensus_project_cold_bytes, the rest summed as"
       " other per metric and threshold" % label)
    lim = {dict(k)["project"]: v for k, v in
           fam.get("iocensus_project_limit_bytes", {}).items()}
    eq(lim, {LIMITED: LIMIT}, "%s: the limited project's limit, none for"
       " other" % label)


def check_promtool(path):
    if not shutil.which("promtool"):
        skip("promtool check metrics", "promtool not installed",
             "prometheus")
        return
    p = subprocess.run(["promtool", "check", "metrics"],
                       stdin=open(path), capture_output=True, text=True)
    ok(p.returncode == 0, "promtool accepts the capped file",
       p.stdout + p.stderr)


def check_metrics_all(tmp, db, env, proj, cold):
    p = run([IOCENSUS, "metrics", "--db", db, "--top", "5"], env)
    check_metrics(p.stdout, proj, cold, 5, "metrics --top 5")
    path = os.path.join(tmp, "m.prom")
    with open(path, "w") as f:
        f.write(p.stdout)
    check_promtool(path)
    conf = os.path.join(tmp, "top.conf")
    with open(conf, "w") as f:
        f.write("metrics-top = 7\n")
    cenv = dict(env, IOCENSUS_CONF=conf)
    p = run([IOCENSUS, "metrics", "--db", db], cenv)
    check_metrics(p.stdout, proj, cold, 7, "metrics-top = 7")
    p = run([IOCENSUS, "metrics", "--db", db, "--top", "4"], cenv)
    check_metrics(p.stdout, proj, cold, 4, "--top 4 over metrics-top = 7")
    p = run([IOCENSUS, "metrics", "--db", db], env)
    got = {dict(k)["project"] for k in
           prom(p.stdout).get("iocensus_project_bytes", {})}
    eq(got, set(proj), "metrics without a cap: every project, no other")


def check_report(tmp, db, env, proj):
    out = os.path.join(tmp, "r.html")
    run([IOCENSUS, "report", "--db", db, "--out", out], env)
    html = open(out, encoding="utf-8").read()
    ok("and %d more" % (len(proj) - 50) in html,
       "report: 50 projects per list, then how many more")
    run([IOCENSUS, "report", "--db", db, "--out", out, "--top", "0"], env)
    html = open(out, encoding="utf-8").read()
    ok(not re.search(r"and [0-9,]+ more", html) and
       all(p in html for p in proj),
       "report --top 0: every project, no count of more")


def check_bad(db, env):
    for bad in ("-1", "x", "5x"):
        p = run([IOCENSUS, "usage", "--db", db, "--top", bad], env, 2)
        ok("--top" in p.stderr, "--top %s: the message names the option"
           % bad, p.stderr)


def main():
    tmp = tempfile.mkdtemp(prefix="t_top.")
    try:
        conf = os.path.join(tmp, "empty.conf")
        open(conf, "w").close()
        env = dict(os.environ, IOCENSUS_CONF=conf)
        # Names every user may list are written as they are, not as
        # private-HASH labels.
        os.chmod(tmp, 0o755)
        root = os.path.join(tmp, "fs")
        os.mkdir(root)
        os.chmod(root, 0o755)
        now = int(time.time())
        make_tree(root, now)
        db = os.path.join(tmp, "c.db")
        limits = os.path.join(tmp, "limits.csv")
        with open(limits, "w") as f:
            f.write("%s,%d,\n" % (LIMITED, LIMIT))
        run([FSSCAN, "--db", db, "--fs", "t", "--project", "depth:1",
             "--cold", "30,365", "--now", str(now), "--limits", limits,
             root], env)
        proj, cold = oracle(db)
        # The root's own entries are the project "(none)".
        eq(len(proj), NPROJ + 1, "the census holds the %d projects and"
           " (none)" % NPROJ)
        ok(len({v[2] for v in proj.values()}) == len(proj),
           "their bytes are distinct, so the order is the oracle's")
        check_usage(db, env, proj)
        check_cold(db, env)
        check_metrics_all(tmp, db, env, proj, cold)
        check_report(tmp, db, env, proj)
        check_bad(db, env)
    finally:
        shutil.rmtree(tmp)
    done()


if __name__ == "__main__":
    main()
