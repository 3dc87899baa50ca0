#!/usr/bin/env python3
"""t_rules: the alerting rules shipped in scripts/iocensus.rules.yml.

- `promtool check rules` accepts the file.
- `promtool test rules tests/iocensus.rules.test.yml`: for every alert,
  series on both sides of its threshold, a bound or resource it must not
  read, and a `for` not yet over; the firing alerts' labels and
  annotations exact. The unit tests are shown to fail on rules with a
  threshold moved (a strict < made <=, 2 hours made 1): they can fail.
- End to end, on the report tests' census (tests/lib/reportdb.py: two
  file systems, one with its latest scan still running, projects over a
  byte limit and an inode limit, three hosts' I/O of 2010): `iocensus
  metrics --out` in a textfile directory, served by a real
  prometheus-node-exporter (textfile collector only) and scraped every
  second by a real Prometheus (a temporary configuration and storage,
  loopback ports, rule_files the shipped rules, evaluated every second).
  Through Prometheus's HTTP API: every iocensus series is stored with
  the textfile's value, the limits and allocated bytes are v_limit's and
  v_project's, and the alerts Prometheus holds (pending: each rule has a
  `for`) are exactly those the fixture calls for, computed here from
  the database read with sqlite3 and from `iocensus capacity` and
  `iocensus health`: the two projects over their limits, every file
  system's stale census, the running scan, the hosts whose logs stopped
  in 2010, the file system whose estimated full date is past; and not
  the stale-metrics alert (the metrics were just made).
- Every command an annotation names (`iocensus ...`, its {{ $labels.x }}
  replaced by the values the alert would carry on the report tests'
  census: those of the series its expr reads) runs with the census as
  $IOCENSUS_DB: exit 0, and an output that names each value given
  (`iocensus snapshots --fs NAME` among them).
- The examples of the docs: the prometheus.yml of the README's quick
  start and of docs/INSTALL.md, the same but for where the rules are
  installed, is the configuration of that Prometheus (with this tree's
  rules and the test's node_exporter), and the PromQL of docs/INSTALL.md
  for df's Use% gives, per file system, the Use% of `iocensus
  capacity`.
"""
import csv
import io
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
from tap import done, eq, ok, skip               # noqa: E402
from promlocal import Stack                      # noqa: E402
import reportdb                                  # noqa: E402

BUILD = os.environ["BUILD"]
TOP = os.environ.get("TOP", os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
RULES = os.path.join(TOP, "scripts", "iocensus.rules.yml")
RULE_TESTS = os.path.join(TOP, "tests", "iocensus.rules.test.yml")
IOCENSUS = os.path.join(BUILD, "iocensus")
DAY = 86400


# Where make install and the iocensus package put the rules.
INSTALLED_RULES = ("/usr/local/share/iocensus/iocensus.rules.yml",
                   "/usr/share/iocensus/iocensus.rules.yml")


def doc_blocks(name):
    """[(document, text)] of the code blocks after "<!-- example: NAME
    ... -->" in README.md and docs/*.md."""
    out = []
    docs = ["README.md"] + sorted(
        os.path.join("docs", n) for n in os.listdir(os.path.join(TOP, "docs"))
        if n.endswith(".md"))
    for doc in docs:
        with open(os.path.join(TOP, doc), encoding="utf-8") as f:
            for m in re.finditer(r"<!-- example: %s(?: [^\n]*)?-->\n```\n"
                                 r"(.*?)```" % re.escape(name), f.read(),
                                 re.S):
                out.append((doc, m.group(1)))
    return out


def rules_path(text):
    """The installed rules text names, or None."""
    found = [r for r in INSTALLED_RULES if r in text]
    return found[0] if found else None


def doc_config():
    """The prometheus.yml of the docs, the rules' path made RULES_AT;
    every copy the same configuration."""
    blocks = doc_blocks("prometheus.yml")
    if not ok(len(blocks) >= 2, "the prometheus.yml example: README.md's"
              " and docs/INSTALL.md's", [d for d, _ in blocks]):
        return None
    confs = []
    for doc, text in blocks:
        ok(rules_path(text) and "localhost:9100" in text, "%s: the "
           "prometheus.yml example loads the installed rules and scrapes "
           "node_exporter" % doc, text)
        confs.append(text.replace(rules_path(text) or "", "RULES_AT"))
    eq(sorted(set(confs)), confs[:1], "every prometheus.yml example is "
       "the same configuration")
    return confs[0]


def run(*cmd, **kw):
    return subprocess.run([str(c) for c in cmd], capture_output=True,
                          text=True, **kw)


def promtool_tests(tmp):
    p = run("promtool", "check", "rules", RULES)
    eq(p.returncode, 0, "promtool check rules accepts "
       "scripts/iocensus.rules.yml", p.stdout + p.stderr)
    p = run("promtool", "test", "rules", RULE_TESTS)
    eq(p.returncode, 0, "promtool test rules: every alert fires where it "
       "should and nowhere else (tests/iocensus.rules.test.yml)",
       p.stdout + p.stderr)
    # The unit tests against rules with a threshold moved: they fail.
    d = os.path.join(tmp, "mutant")
    os.makedirs(os.path.join(d, "scripts"))
    os.makedirs(os.path.join(d, "tests"))
    shutil.copy(RULE_TESTS, os.path.join(d, "tests"))
    with open(RULES) as f:
        rules = f.read()
    for old, new in (("< 30 * 86400", "<= 30 * 86400"),
                     ("> 2 * 3600", "> 1 * 3600"),
                     (">= iocensus_project_limit_bytes",
                      "> iocensus_project_limit_bytes")):
        ok(old in rules, "the rules hold %r" % old)
        with open(os.path.join(d, "scripts", "iocensus.rules.yml"),
                  "w") as f:
            f.write(rules.replace(old, new))
        p = run("promtool", "test", "rules",
                os.path.join(d, "tests", "iocensus.rules.test.yml"))
        ok(p.returncode != 0, "the unit tests fail on rules with %r made "
           "%r" % (old, new), p.stdout)


def textfile_samples(text):
    """{(name, frozenset(labels)): float} of the textfile, parsed by
    Prometheus's own rules through promtool (what it accepts) and here
    (what it holds): names and plain label values only, as the fixture
    has no escaped ones."""
    out = {}
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        head, _, v = line.rpartition(" ")
        name, _, lab = head.partition("{")
        labels = frozenset()
        if lab:
            pairs = lab.rstrip("}").split('",')
            labels = frozenset((k, val.strip('"')) for k, _, val in
                               (p.partition("=") for p in pairs))
        out[(name, labels)] = float(v)
    return out


def served(s):
    """Every iocensus_ series Prometheus stored, without the labels the
    scrape added (instance, job)."""
    r = s.api("query", query='{__name__=~"iocensus_.+"}')
    out = {}
    for s in r["data"]["result"]:
        m = dict(s["metric"])
        name = m.pop("__name__")
        m.pop("instance", None)
        m.pop("job", None)
        out[(name, frozenset(m.items()))] = float(s["value"][1])
    return out


def want_alerts(db, text, now):
    """The alerts the fixture calls for, as (alertname, labels that tell
    them apart), from the database (sqlite3), `iocensus capacity` and
    `iocensus health`."""
    c = sqlite3.connect(db)
    want = set()
    latest = c.execute(
        "SELECT fs, id, complete, started_at, fs_avail_bytes,"
        " fs_free_inodes FROM v_snapshot s WHERE id = (SELECT id FROM"
        " v_snapshot WHERE fs = s.fs ORDER BY started_at DESC, id DESC"
        " LIMIT 1)").fetchall()
    complete = {fs: (sid, t, avail, fi) for fs, sid, t, avail, fi in
                c.execute("SELECT fs, id, started_at, fs_avail_bytes,"
                          " fs_free_inodes FROM v_snapshot s WHERE id ="
                          " (SELECT id FROM v_snapshot WHERE fs = s.fs"
                          " AND complete ORDER BY started_at DESC, id"
                          " DESC LIMIT 1)")}
    for fs, _, comp, _, _, _ in latest:
        if not comp:
            want.add(("IocensusScanIncomplete", (("fs", fs),)))
    for fs, (sid, t, avail, fi) in complete.items():
        if now - t > 2 * DAY:
            want.add(("IocensusCensusStale", (("fs", fs),)))
        if avail is not None and int(avail) == 0:
            want.add(("IocensusFilesystemFull", (("fs", fs),
                                                 ("resource", "space"))))
        if fi is not None and int(fi) == 0:
            want.add(("IocensusFilesystemFull", (("fs", fs),
                                                 ("resource", "inodes"))))
        for p, alloc, entries, lb, li in c.execute(
                "SELECT p.name, p.alloc_bytes, p.entries, l.bytes, l.inodes"
                " FROM project p LEFT JOIN v_limit l ON l.snapshot_id ="
                " p.snapshot_id AND l.project = p.name WHERE"
                " p.snapshot_id = ?", (sid,)):
            if lb is not None and int(alloc) >= lb:
                want.add(("IocensusProjectOverLimit", (
                    ("fs", fs), ("project", p), ("resource", "space"))))
            if li is not None and entries is not None and entries >= li:
                want.add(("IocensusProjectOverLimit", (
                    ("fs", fs), ("project", p), ("resource", "inodes"))))
    gen = [float(line.split()[-1]) for line in text.splitlines()
           if line.startswith("iocensus_metrics_generated_timestamp_")][0]
    for h, last in c.execute("SELECT h.name, max(d.last_ms) FROM io_host h"
                             " JOIN io_dev d ON d.host_id = h.id GROUP BY"
                             " h.id"):
        if gen - last // 1000 > 2 * 3600:
            want.add(("IocensusIoLogsStopped", (("host", h),)))
    c.close()
    cap = json.loads(run(IOCENSUS, "capacity", "--db", db, "--format",
                         "json").stdout)["tables"]
    for r in cap["filesystems"]["rows"]:
        for res, col in (("space", "full"), ("inodes", "inodes_full")):
            if r[col] is not None and r[col] - now < 30 * DAY:
                want.add(("IocensusFilesystemFillsSoon", (
                    ("fs", r["fs"]), ("resource", res))))
    for r in cap["projects"]["rows"]:
        if r["full"] is not None and r["full"] - now < 30 * DAY:
            res = "space" if r["limit_bytes"] is not None else "inodes"
            want.add(("IocensusProjectLimitSoon", (
                ("fs", r["fs"]), ("project", r["project"]),
                ("resource", res))))
    health = run(IOCENSUS, "health", "--db", db, "--format", "csv",
                 "--table", "devices").stdout
    for r in csv.DictReader(io.StringIO(health)):
        if r["slow"] == "1":
            want.add(("IocensusDeviceSlow", (("host", r["host"]),
                                             ("device", r["device"]))))
    return want


KEYS = ("fs", "project", "resource", "host", "device")


def held(s):
    """The alerts Prometheus holds: {(alertname, labels): state}."""
    out = {}
    for a in s.api("alerts")["data"]["alerts"]:
        lb = a["labels"]
        out[(lb["alertname"], tuple((k, lb[k]) for k in KEYS
                                    if k in lb))] = a["state"]
    return out


def end_to_end(tmp):
    need = [("prometheus", "prometheus"), ("prometheus-node-exporter",
                                           "prometheus-node-exporter")]
    for exe, pkg in need:
        if not shutil.which(exe):
            skip("Prometheus end to end", "%s is not installed" % exe,
                 needs=pkg)
            return
    db = reportdb.build(os.path.join(tmp, "fixture"), BUILD)
    textdir = os.path.join(tmp, "textfile")
    os.makedirs(textdir)
    prom = os.path.join(textdir, "iocensus.prom")
    p = run(IOCENSUS, "metrics", "--db", db, "--out", prom)
    eq(p.returncode, 0, "iocensus metrics --out of the fixture", p.stderr)
    with open(prom) as f:
        text = f.read()
    doc = doc_config()
    if doc is None or "RULES_AT" not in doc:
        return
    # The docs' configuration, with this tree's rules, this test's
    # node_exporter, and a scrape and an evaluation every second.
    with Stack(tmp, textdir, doc.replace("RULES_AT", json.dumps(RULES))
               .replace("localhost:9100", "NODE_EXPORTER")) as s:
        check_served(db, text, s)


def check_served(db, text, s):
    want = textfile_samples(text)
    got = s.wait(lambda: (lambda g: g if len(g) >= len(want) else None)(
        served(s)), 30)
    if not ok(got is not None, "Prometheus scraped the textfile through "
              "node_exporter", s.log_tail()):
        return
    eq(got, want, "Prometheus stores every iocensus series with the "
       "textfile's value")
    c = sqlite3.connect(db)
    lim = c.execute("SELECT l.project, l.bytes, l.inodes, p.alloc_bytes,"
                    " p.entries FROM v_limit l JOIN project p ON"
                    " p.snapshot_id = l.snapshot_id AND p.name = l.project"
                    " WHERE l.snapshot_id = (SELECT max(id) FROM v_snapshot"
                    " WHERE fs = 'gpfs' AND complete)").fetchall()
    c.close()
    ok(lim, "the fixture has limits", lim)
    for p, b, i, alloc, entries in lim:
        pl = frozenset({("fs", "gpfs"), ("project", p)})
        for name, v in (("iocensus_project_limit_bytes", b),
                        ("iocensus_project_limit_inodes", i),
                        ("iocensus_project_alloc_bytes", int(alloc)),
                        ("iocensus_project_inodes", entries)):
            eq(got.get((name, pl)), None if v is None else float(v),
               "Prometheus: %s of %s is the database's" % (name, p))
    expect = want_alerts(db, text, time.time())
    ok(("IocensusProjectOverLimit", (("fs", "gpfs"), ("project",
        "EarthScience"), ("resource", "space"))) in expect and
       ("IocensusProjectOverLimit", (("fs", "gpfs"), ("project", "chem"),
        ("resource", "inodes"))) in expect,
       "the fixture has a project over its byte limit and one over its "
       "inode limit", expect)
    have = s.wait(lambda: (lambda h: h if set(h) >= expect else None)(
        held(s)), 20)
    if not ok(have is not None, "Prometheus evaluated the shipped rules",
              s.log_tail()):
        return
    eq(sorted(have), sorted(expect), "the alerts Prometheus holds are "
       "those the fixture calls for, no more")
    eq(sorted({s for s in have.values()}), ["pending"], "each is pending "
       "(every rule has a `for`)")
    p = s.api("query", query='ALERTS{alertname="IocensusProjectOver'
            'Limit",project="chem"}')
    eq([(r["metric"]["resource"], r["metric"]["alertstate"])
        for r in p["data"]["result"]], [("inodes", "pending")],
       "ALERTS: chem over its inode limit, pending")
    check_use(db, s)


def check_use(db, s):
    """The PromQL of the docs for df's Use%, run by Prometheus, is the
    Use% of `iocensus capacity` for each file system."""
    blocks = doc_blocks("promql use")
    if not ok(len(blocks) == 1, "the PromQL Use% example, once",
              [d for d, _ in blocks]):
        return
    doc, q = blocks[0]
    r = s.api("query", query=q.strip())
    got = {s["metric"]["fs"]: float(s["value"][1])
           for s in r["data"]["result"]}
    cap = json.loads(run(IOCENSUS, "capacity", "--db", db, "--format",
                         "json", "--table", "filesystems").stdout)
    want = {row["fs"]: round(100 * row["use_ratio"]) for row in
            cap["tables"]["filesystems"]["rows"] if row["use_ratio"] is not
            None}
    ok(len(want) == 2, "capacity gives both file systems' Use%", want)
    eq(got, want, "%s: the PromQL Use%% is capacity's, per file system" %
       doc)


def rules_annotations():
    """[(alert, expr, annotation text)] of the rules file, read line by
    line (each expr and annotation is one line in it)."""
    out, alert, expr = [], None, None
    with open(RULES) as f:
        for line in f:
            m = re.match(r"\s*- alert: (\w+)", line)
            if m:
                alert = m.group(1)
            m = re.match(r"\s*expr: (.*)", line)
            if m:
                expr = m.group(1)
            m = re.match(r'\s*(?:summary|description): "(.*)"\s*$', line)
            if m:
                out.append((alert, expr, m.group(1)))
    return out


TEMPLATE = r"\{\{ \$labels\.(\w+) \}\}"


def annotation_commands(text):
    """Every `iocensus COMMAND [--OPTION VALUE]...` of an annotation, its
    values templates ({{ $labels.x }}) or words."""
    tok = r"(?:%s|[^\s()?\"]+)" % TEMPLATE.replace("(\\w+)", "\\w+")
    return [m.group(0) for m in re.finditer(
        r"\biocensus [a-z]+(?: --[a-z-]+(?: (?!--)%s)?)*" % tok, text)]


def label_sets(samples, expr, names):
    """The label sets an alert of expr could carry on the census: those
    of the textfile's series of the metrics expr reads, else those of any
    series with every label of names."""
    metrics = set(re.findall(r"iocensus_\w+", expr))
    own = [dict(lb) for (n, lb) in samples if n in metrics]
    pick = [lb for lb in own if all(k in lb for k in names)]
    if not pick:
        pick = [dict(lb) for (_, lb) in samples
                if all(k in dict(lb) for k in names)]
    return pick


def check_commands(tmp):
    """Every command an annotation names runs on the test census with the
    labels the alert would carry there: exit 0, and an output that names
    each value it was given."""
    db = reportdb.build(os.path.join(tmp, "commands"), BUILD)
    text = run(IOCENSUS, "metrics", "--db", db).stdout
    samples = textfile_samples(text)
    env = dict(os.environ, IOCENSUS_DB=db)
    seen = set()
    for alert, expr, note in rules_annotations():
        for cmd in annotation_commands(note):
            names = re.findall(TEMPLATE, cmd)
            sets = label_sets(samples, expr, names)
            if not ok(sets, "%s: the census has the labels of `%s`" % (
                    alert, cmd)):
                continue
            for lb in sets:
                line = re.sub(TEMPLATE, lambda m: lb[m.group(1)], cmd)
                if line in seen:
                    continue
                seen.add(line)
                p = run(*([os.path.join(BUILD, "iocensus")] +
                          line.split()[1:]), env=env)
                vals = [lb[k] for k in names]
                ok(p.returncode == 0 and p.stdout.strip() and
                   all(v in p.stdout for v in vals),
                   "%s: `%s` runs and names %s" % (alert, line, vals),
                   "rc %d: %s" % (p.returncode, p.stderr))
    ok(any("snapshots --fs" in c for c in seen),
       "the annotations name iocensus snapshots --fs", sorted(seen))


def main():
    tmp = tempfile.mkdtemp(prefix="t_rules.")
    try:
        check_commands(tmp)
        if shutil.which("promtool"):
            promtool_tests(tmp)
        else:
            skip("promtool check and test rules", "promtool is not "
                 "installed", needs="promtool")
        end_to_end(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    done()


main()
