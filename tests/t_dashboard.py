#!/usr/bin/env python3
"""t_dashboard: the Grafana dashboard scripts/iocensus.grafana.json.

- Its structure, read with the json module: one datasource input of the
  Prometheus plugin (`__inputs`), a `datasource` variable of that plugin
  whose value is the input, and query variables fs, project and host
  (label_values); rows Capacity, Projects, Cold data and I/O; panel ids
  unique, no two panels on one place of the grid; every panel with a
  title, a description, a unit and targets, its datasource and every
  target's the `datasource` variable; each target an instant or a range
  query, not both.
- Every metric name of every expression (and of the variables' queries)
  is a family `iocensus metrics` writes: a `# TYPE` line of the metrics
  file of the census below; every `$` names a variable or a macro of
  Grafana's.
- On the census of `make demo`'s generated part (scripts/study-db, 3
  days of I/O: three file systems with capacity, limits and cold data, 8
  hosts of 4 devices), `iocensus metrics --out` in a textfile directory,
  served by a real prometheus-node-exporter and scraped every second by
  a real Prometheus (tests/lib/promlocal.py): each variable's
  label_values answers through the HTTP API, and every panel's every
  expression, the variables replaced as Grafana replaces them, run as the
  panel runs it (an instant query, or a range query over the scrapes),
  answers with data; once with every variable at All and once with a
  file system, two projects and a host of the demo. The Use% and the use
  of the limits Prometheus computes are those of the textfile's numbers.
- The checks can fail: an unknown metric (the capacity fraction by a
  name the file does not write), a duplicate panel id, a panel on
  another datasource, an expression Prometheus cannot parse and one
  without data are each found.
"""
import copy
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "lib"))
from tap import done, eq, ok, skip               # noqa: E402
from promlocal import Stack                      # noqa: E402

BUILD = os.environ["BUILD"]
TOP = os.environ.get("TOP", os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
DASH = os.path.join(TOP, "scripts", "iocensus.grafana.json")
IOCENSUS = os.path.join(BUILD, "iocensus")
DS = {"type": "prometheus", "uid": "${datasource}"}
ROWS = ["Capacity", "Projects", "Cold data", "I/O"]
VARS = ["datasource", "fs", "project", "host"]
# Units Grafana knows that the panels may state.
UNITS = {"bytes", "binBps", "short", "none", "s", "percentunit",
         "dateTimeAsIso"}
# The demo's values for the second pass (each must be one label_values
# gives): a file system, two projects (one with a byte limit, one with an
# inode limit) and a host.
PICK = {"fs": ["gpfs"], "project": ["Climate", "EarthScience"],
        "host": ["fs001"]}
# Grafana's macros a query may use, and what the test gives them.
RANGE_S = 2
MACROS = {"__range": "%ds" % RANGE_S, "__range_s": str(RANGE_S),
          "__rate_interval": "%ds" % RANGE_S, "__interval": "1s",
          "__interval_ms": "1000"}
KEYWORDS = {"and", "or", "unless", "by", "without", "on", "ignoring",
            "group_left", "group_right", "bool", "offset", "inf", "nan"}


def panels_of(dash):
    """Every panel, rows and those inside collapsed rows included."""
    out = []
    for p in dash.get("panels", []):
        out.append(p)
        out += p.get("panels", [])
    return out


def variables(dash):
    return {v.get("name"): v for v in dash.get("templating", {})
            .get("list", [])}


def var_query(v):
    q = v.get("query")
    return q.get("query") if isinstance(q, dict) else q


def metric_names(expr):
    """The metric names of a PromQL expression: what is left once
    strings, label matchers, ranges, grouping lists, numbers, Grafana's
    variables, keywords and function names are taken out."""
    e = re.sub(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'', '""', expr)
    e = re.sub(r"\{[^}]*\}|\[[^\]]*\]", " ", e)
    e = re.sub(r"\b(?:by|without|on|ignoring|group_left|group_right)"
               r"\s*\([^)]*\)", " ", e)
    e = re.sub(r"\$\{[^}]*\}|\$\w+", " ", e)
    e = re.sub(r"(?<![\w:])\d+(?:\.\d+)?(?:[eE][+-]?\d+)?(?:[smhdwy]\b)?",
               " ", e)
    out = set()
    for m in re.finditer(r"[A-Za-z_:][A-Za-z0-9_:]*", e):
        if m.group(0) in KEYWORDS or re.match(r"\s*\(", e[m.end():]):
            continue
        out.add(m.group(0))
    return out


def variables_used(expr):
    """The names of the variables and macros expr uses."""
    return {a or b for a, b in
            re.findall(r"\$\{(\w+)(?::\w+)?\}|\$(\w+)", expr)}


def targets(dash):
    """(panel, target) of every target of every panel."""
    return [(p, t) for p in panels_of(dash) for t in p.get("targets", [])]


def static_problems(dash, known):
    """What is wrong with the dashboard as a file: [] when nothing."""
    bad = []
    ins = dash.get("__inputs", [])
    dsin = [i for i in ins if i.get("type") == "datasource" and
            i.get("pluginId") == "prometheus"]
    if len(dsin) != 1:
        bad.append("__inputs: not one Prometheus datasource input: %r" % ins)
        return bad
    if dash.get("id") is not None or not dash.get("uid") or \
            dash.get("schemaVersion", 0) < 36:
        bad.append("not an importable dashboard: id %r, uid %r, schema %r" %
                   (dash.get("id"), dash.get("uid"),
                    dash.get("schemaVersion")))
    vs = variables(dash)
    if list(vs) != VARS:
        bad.append("variables %r, not %r" % (list(vs), VARS))
        return bad
    d = vs["datasource"]
    if d.get("type") != "datasource" or d.get("query") != "prometheus" or \
            d.get("current", {}).get("value") != "${%s}" % dsin[0]["name"]:
        bad.append("the datasource variable is not the input: %r" % d)
    for name in VARS[1:]:
        v = vs[name]
        q = var_query(v) or ""
        m = re.fullmatch(r"label_values\((.+),\s*(\w+)\)", q)
        if v.get("type") != "query" or v.get("datasource") != DS or not m \
                or m.group(2) != name or q != v.get("definition"):
            bad.append("variable %s is not label_values(..., %s) on the "
                       "datasource variable: %r" % (name, name, v))
        elif metric_names(m.group(1)) - known:
            bad.append("variable %s: unknown metric %s" % (
                name, sorted(metric_names(m.group(1)) - known)))
    ps = panels_of(dash)
    ids = [p.get("id") for p in ps]
    if len(set(ids)) != len(ids) or None in ids:
        bad.append("panel ids not unique: %r" % ids)
    rows = [p.get("title") for p in ps if p.get("type") == "row"]
    if rows != ROWS:
        bad.append("rows %r, not %r" % (rows, ROWS))
    cells = {}
    for p in ps:
        g = p.get("gridPos", {})
        for x in range(g.get("x", 0), g.get("x", 0) + g.get("w", 0)):
            for y in range(g.get("y", 0), g.get("y", 0) + g.get("h", 0)):
                if (x, y) in cells or x >= 24:
                    bad.append("panel %s overlaps panel %s or the grid's "
                               "edge" % (p.get("id"), cells.get((x, y))))
                cells[(x, y)] = p.get("id")
        if p.get("type") == "row":
            continue
        unit = p.get("fieldConfig", {}).get("defaults", {}).get("unit")
        if not p.get("title") or not p.get("description") or \
                unit not in UNITS:
            bad.append("panel %s: title %r, description %r, unit %r" % (
                p.get("id"), p.get("title"), p.get("description"), unit))
        if p.get("datasource") != DS or not p.get("targets"):
            bad.append("panel %s: datasource %r, %d targets" % (
                p.get("id"), p.get("datasource"), len(p.get("targets", []))))
    for p, t in targets(dash):
        expr = t.get("expr", "")
        where = "panel %s target %s" % (p.get("id"), t.get("refId"))
        if t.get("datasource") != DS or \
                bool(t.get("instant")) == bool(t.get("range")):
            bad.append("%s: datasource %r, instant %r, range %r" % (
                where, t.get("datasource"), t.get("instant"),
                t.get("range")))
        if metric_names(expr) - known or not metric_names(expr):
            bad.append("%s: unknown metric %s in %r" % (
                where, sorted(metric_names(expr) - known), expr))
        if "__name__" in expr:
            bad.append("%s: a metric by __name__: %r" % (where, expr))
        if variables_used(expr) - set(VARS[1:]) - set(MACROS):
            bad.append("%s: unknown variable %s" % (
                where, sorted(variables_used(expr) - set(VARS[1:]) -
                              set(MACROS))))
    return bad


def regex_value(values):
    """A variable's value as Grafana gives it to a Prometheus regex
    matcher: the All value, one value, or (a|b) (regex characters
    escaped)."""
    if values is None:
        return ".*"
    esc = [re.sub(r"([\\.+*?()|\[\]{}^$])", r"\\\\\1", v) for v in values]
    return esc[0] if len(esc) == 1 else "(" + "|".join(esc) + ")"


def substitute(expr, chosen):
    def one(m):
        name = m.group(1) or m.group(2)
        if name in MACROS:
            return MACROS[name]
        return regex_value(chosen[name])
    return re.sub(r"\$\{(\w+)\}|\$(\w+)", one, expr)


def answer(r):
    """(the series of a query's answer, or None, why)."""
    if r.get("status") != "success":
        return None, "%s: %s" % (r.get("errorType"), r.get("error"))
    return r["data"]["result"], ""


def query_problems(dash, s, chosen, t0):
    """Each expression run as its panel runs it, the variables chosen
    (None: All): [] when every one answers with data; and the answers by
    panel id."""
    bad, got = [], {}
    now = time.time()
    for p, t in targets(dash):
        expr = substitute(t["expr"], chosen)
        if t.get("instant"):
            res, why = answer(s.api("query", query=expr, time="%.3f" % now))
        else:
            res, why = answer(s.api("query_range", query=expr,
                                    start="%.3f" % t0, end="%.3f" % now,
                                    step="1"))
        if not res:
            bad.append("panel %s %r target %s: %s gives %s" % (
                p["id"], p["title"], t["refId"], expr, why or "no data"))
        got.setdefault(p["id"], []).append(res or [])
    return bad, got


def check_variables(dash, s):
    """The values of each variable's label_values, fs chosen before
    project."""
    values = {}
    for name in VARS[1:]:
        sel = re.fullmatch(r"label_values\((.+),\s*\w+\)",
                           var_query(variables(dash)[name])).group(1)
        sel = substitute(sel, {"fs": PICK["fs"]})
        r = s.api("label/%s/values" % name, **{"match[]": sel})
        values[name] = r.get("data") or []
        ok(values[name], "variable %s: label_values gives values" % name, r)
        ok(set(PICK[name]) <= set(values[name]), "variable %s: the demo's "
           "%s among them" % (name, PICK[name]), values[name])
    return values


def textfile(text):
    """{(name, frozenset(labels)): float} of a textfile whose label values
    hold no escapes."""
    out = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            head, _, v = line.rpartition(" ")
            name, _, lab = head.partition("{")
            out[(name, frozenset(re.findall(r'(\w+)="([^"]*)"', lab)))] = \
                float(v)
    return out


def by_title(dash, title):
    return [p for p in panels_of(dash) if p.get("title") == title][0]["id"]


def values_of(series, *keys):
    return {tuple(r["metric"].get(k) for k in keys): float(r["value"][1])
            for r in series}


def check_values(dash, got, text):
    """Two panels' numbers against the textfile's, computed here."""
    m = textfile(text)

    def g(name, **lab):
        return m.get((name, frozenset(lab.items())))
    want = {}
    for (name, lab), size in m.items():
        if name == "iocensus_fs_size_bytes":
            fs = dict(lab)["fs"]
            used = size - g("iocensus_fs_free_bytes", fs=fs)
            want[(fs,)] = used / (used + g("iocensus_fs_avail_bytes", fs=fs))
    have = values_of(got[by_title(dash, "Space use (df's Use%)")][0], "fs")
    ok(want and set(have) == set(want) and all(
        math.isclose(have[k], want[k], rel_tol=1e-9) for k in want),
       "Space use: df's Use% of the textfile's numbers, each file system",
       (have, want))
    want = {}
    for (name, lab), lim in m.items():
        d = dict(lab)
        for fam, use, res in (("iocensus_project_limit_bytes",
                               "iocensus_project_alloc_bytes", "space"),
                              ("iocensus_project_limit_inodes",
                               "iocensus_project_inodes", "inodes")):
            if name == fam:
                want[(d["fs"], d["project"], res)] = g(use, **d) / lim
    have = values_of(got[by_title(dash, "Use of limit")][0], "fs",
                     "project", "resource")
    ok(want and set(have) == set(want) and all(
        math.isclose(have[k], want[k], rel_tol=1e-9) for k in want),
       "Use of limit: each limit of the textfile, its use computed here",
       (have, want))
    ok(any(v >= 1 for v in want.values()) and any(
        v < 1 for v in want.values()), "the demo has a project over its "
       "limit and one under it", want)


def check_can_fail(dash, known, s, t0):
    """Each kind of fault, made in a copy, is found."""
    cases = []
    d = copy.deepcopy(dash)
    t = targets(d)[0][1]
    t["expr"] = t["expr"].replace("iocensus_fs_size_bytes",
                                  "iocensus_fs_use_pct", 1)
    cases.append(("an unknown metric", d))
    d = copy.deepcopy(dash)
    panels_of(d)[2]["id"] = panels_of(d)[1]["id"]
    cases.append(("a duplicate panel id", d))
    d = copy.deepcopy(dash)
    panels_of(d)[1]["datasource"] = {"type": "prometheus",
                                     "uid": "other"}
    cases.append(("a panel on another datasource", d))
    for why, d in cases:
        ok(static_problems(d, known), "the check finds %s" % why)
    for why, edit, says in (
            ("an expression Prometheus cannot parse",
             lambda e: "sum(" + e, "bad_data"),
            ("an expression without data",
             lambda e: e.replace('fs=~"$fs"', 'fs="no-such-fs"', 1),
             "no data")):
        d = copy.deepcopy(dash)
        t = targets(d)[0][1]
        t["expr"] = edit(t["expr"])
        bad, _ = query_problems(d, s, {k: None for k in PICK}, t0)
        ok(len(bad) == 1 and says in bad[0], "the queries find %s" % why,
           bad)


def live(dash, tmp, known, text, textdir):
    with Stack(tmp, textdir) as s:
        # Enough scrapes that a range query and `offset $__range` have
        # data: a sample RANGE_S + 1 seconds old.
        q = "count_over_time(iocensus_metrics_generated_timestamp_seconds" \
            "[1h])"
        t0 = time.time()
        up = s.wait(lambda: (lambda r: r and float(r[0]["value"][1]) >=
                             RANGE_S + 2)(answer(s.api("query", query=q))[0]),
                    40)
        if not ok(up, "Prometheus scraped the textfile through "
                  "node_exporter", s.log_tail()):
            return
        n = len([line for line in text.splitlines()
                 if line.startswith("iocensus_")])
        r, _ = answer(s.api("query", query='count({__name__=~"iocensus_.+"})'))
        eq(int(float(r[0]["value"][1])) if r else None, n,
           "Prometheus holds every sample of the textfile")
        check_variables(dash, s)
        for label, chosen in (("every variable All", {k: None for k in
                                                      PICK}),
                              ("the demo's fs, projects and host", PICK)):
            bad, got = query_problems(dash, s, chosen, t0)
            eq(bad, [], "%s: every expression of every panel (%d) answers "
               "with data" % (label, len(targets(dash))))
            if label.startswith("every"):
                check_values(dash, got, text)
        check_can_fail(dash, known, s, t0)


def demo_census(tmp):
    """scripts/study-db's census, 3 days of I/O: its metrics file's text."""
    env = dict(os.environ, BUILD=BUILD)
    p = subprocess.run([os.path.join(TOP, "scripts", "study-db"),
                        os.path.join(tmp, "study"), "3", "1"],
                       capture_output=True, text=True, env=env)
    if not ok(p.returncode == 0, "scripts/study-db makes the demo's census",
              p.stderr[-2000:]):
        return None, None
    db = p.stdout.strip().splitlines()[-1]
    textdir = os.path.join(tmp, "textfile")
    os.makedirs(textdir)
    prom = os.path.join(textdir, "iocensus.prom")
    p = subprocess.run([IOCENSUS, "metrics", "--db", db, "--out", prom],
                       capture_output=True, text=True)
    eq(p.returncode, 0, "iocensus metrics --out of the demo's census",
       p.stderr)
    with open(prom) as f:
        return f.read(), textdir


def main():
    with open(DASH, encoding="utf-8") as f:
        dash = json.load(f)
    tmp = tempfile.mkdtemp(prefix="t_dashboard.")
    try:
        text, textdir = demo_census(tmp)
        if text is None:
            return
        known = set(re.findall(r"^# TYPE (\S+) gauge$", text, re.M))
        ok(len(known) >= 25, "the demo's metrics file writes every family",
           sorted(known))
        eq(static_problems(dash, known), [], "the dashboard's structure, "
           "its variables, panels, targets and metric names")
        ok(metric_names('sum by (fs) (a_b{x="y"}) / on(fs) group_left '
                        'c offset $__range + 2 * time() > 1e3') ==
           {"a_b", "c"}, "metric_names finds the names and only them")
        for exe, pkg in (("prometheus", "prometheus"),
                         ("prometheus-node-exporter",
                          "prometheus-node-exporter")):
            if not shutil.which(exe):
                skip("the panels' queries in Prometheus", "%s is not "
                     "installed" % exe, needs=pkg)
                return
        live(dash, tmp, known, text, textdir)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        done()


main()
